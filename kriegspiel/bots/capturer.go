package bots

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/kriegspiel/metapos"
)

// Capturer is the metaposition paper's second baseline, "a random mover
// that always captures when it can", made concrete for a player who cannot
// see the board: it keeps a metaposition, and before any other move it tries
// the captures it may have, at random among them: its pawns' captures onto
// squares that may hold a man while the referee announces pawn tries, and
// any move onto a square that certainly holds one (a man that took ours
// stands where it took, a man that never moved stands at home). Once those
// are refused or there are none, it plays at random from the referee's list.
// It never captures by chance knowingly: a random move that lands on a man is
// a capture too, as for the random player.
type Capturer struct {
	rng   *rand.Rand
	log   *slog.Logger
	meta  metapos.Metaposition
	tries int // our pawn tries, as last announced (-1: none announced)
}

// NewCapturer returns a capturing random mover whose choices follow from seed.
func NewCapturer(seed uint64, log *slog.Logger) *Capturer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Capturer{rng: rand.New(rand.NewPCG(seed, 0x63617074)), log: log}
}

// HandleGameStart starts the metaposition.
func (p *Capturer) HandleGameStart(_ context.Context, color chess.Color, _ kriegspiel.Ruleset, start chess.Board, pawnTries int, _ string) error {
	p.meta = metapos.New(color, start)
	p.tries = pawnTries
	return nil
}

// HandleOpponentTurn takes the opponent's move into the metaposition.
func (p *Capturer) HandleOpponentTurn(_ context.Context, heard []kriegspiel.Heard) error {
	if err := p.meta.Opponent(heard); err != nil {
		p.log.Warn("kriegspiel capturer metaposition", "err", err)
	}
	p.tries = lastPawnTries(heard, p.tries)
	return nil
}

// lastPawnTries returns the pawn tries the last move made among heard
// announced, or old when none was made.
func lastPawnTries(heard []kriegspiel.Heard, old int) int {
	for i := len(heard) - 1; i >= 0; i-- {
		if heard[i].Answer.Verdict.Done() {
			return heard[i].Answer.PawnTries
		}
	}
	return old
}

// ChooseQuestion tries a capture it may have, else a random question.
func (p *Capturer) ChooseQuestion(_ context.Context, questions []kriegspiel.Question, _ time.Duration) (kriegspiel.Question, error) {
	if len(questions) == 0 {
		return kriegspiel.Question{}, errors.New("bots: no question to choose from")
	}
	if c := captures(&p.meta, questions, p.tries); len(c) > 0 {
		return c[p.rng.IntN(len(c))], nil
	}
	return questions[p.rng.IntN(len(questions))], nil
}

// captures returns the questions among qs that capture for all the
// metaposition knows: pawn diagonals onto squares that may hold a man when
// pawn tries are announced (tries > 0, or unknown: -1), and moves onto
// squares that certainly hold one.
func captures(m *metapos.Metaposition, qs []kriegspiel.Question, tries int) []kriegspiel.Question {
	certain := m.Certain()
	var out []kriegspiel.Question
	for _, q := range qs {
		if q.AskAny {
			continue
		}
		mv := q.Move
		pawnDiagonal := m.Mine.PieceAt(mv.From).Type() == chess.Pawn && mv.From.File() != mv.To.File()
		switch {
		case pawnDiagonal && tries != 0 && m.Sq[mv.To]&metapos.Men != 0:
			out = append(out, q)
		case !pawnDiagonal && certain.Has(mv.To):
			out = append(out, q)
		}
	}
	return out
}

// HandleAnswer takes our answer into the metaposition.
func (p *Capturer) HandleAnswer(_ context.Context, q kriegspiel.Question, a kriegspiel.Answer) error {
	p.meta.Own(q, a)
	if a.Verdict.Done() {
		p.tries = -1 // the opponent's turn comes before ours: its announcement will tell
	}
	return nil
}

// HandleGameEnd does nothing.
func (p *Capturer) HandleGameEnd(context.Context, kriegspiel.Result, *kriegspiel.Record) error {
	return nil
}
