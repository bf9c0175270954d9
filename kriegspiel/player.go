package kriegspiel

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Player is a Kriegspiel bot as the referee sees it, in the manner of rbc's
// Player: callbacks called in the order of a game, each with a context whose
// deadline is the player's clock. A callback that returns an error resigns;
// one that outlives its context loses on time.
type Player interface {
	// HandleGameStart is called once, before the first turn, with our
	// colour, the rules, the starting position (both players know it), the
	// pawn tries announced before the first move (-1 if none) and the
	// opponent's name.
	HandleGameStart(ctx context.Context, color chess.Color, rules Ruleset, start chess.Board, pawnTries int, opponent string) error
	// HandleOpponentTurn starts each of our turns (White's first one too,
	// with nothing heard): the answers we heard to the opponent's questions
	// since our last turn, in order. The last is its move's, with what it
	// captured of ours, its checks and our pawn tries.
	HandleOpponentTurn(ctx context.Context, heard []Heard) error
	// ChooseQuestion is called until a question makes a move. questions
	// lists what we may ask now (any other question is answered
	// Impossible, or Illegal under wild16); timeLeft is our clock.
	ChooseQuestion(ctx context.Context, questions []Question, timeLeft time.Duration) (Question, error)
	// HandleAnswer receives the answer to our question.
	HandleAnswer(ctx context.Context, q Question, a Answer) error
	// HandleGameEnd is called once with the result and the whole record.
	HandleGameEnd(ctx context.Context, result Result, rec *Record) error
}

// RandomPlayer asks questions at random from the referee's list until one
// makes a move: the simplest legal player, and the baseline opponent.
type RandomPlayer struct {
	rng *rand.Rand
}

// NewRandomPlayer returns a random player whose choices follow from seed.
func NewRandomPlayer(seed uint64) *RandomPlayer {
	return &RandomPlayer{rng: rand.New(rand.NewPCG(seed, 0x6b72696567))}
}

// HandleGameStart does nothing: the random player needs no set-up.
func (p *RandomPlayer) HandleGameStart(context.Context, chess.Color, Ruleset, chess.Board, int, string) error {
	return nil
}

// HandleOpponentTurn does nothing: the random player does not listen.
func (p *RandomPlayer) HandleOpponentTurn(context.Context, []Heard) error { return nil }

// ChooseQuestion returns one of the questions at random.
func (p *RandomPlayer) ChooseQuestion(_ context.Context, questions []Question, _ time.Duration) (Question, error) {
	if len(questions) == 0 {
		return Question{}, errNoQuestions
	}
	return questions[p.rng.IntN(len(questions))], nil
}

// HandleAnswer does nothing: the referee's list already leaves out refused moves.
func (p *RandomPlayer) HandleAnswer(context.Context, Question, Answer) error { return nil }

// HandleGameEnd does nothing.
func (p *RandomPlayer) HandleGameEnd(context.Context, Result, *Record) error { return nil }
