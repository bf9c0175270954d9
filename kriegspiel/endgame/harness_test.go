package endgame

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// The test and benchmark harness: generated won positions played out
// between a Tracker (White, the side with the queen or rook) and a lone
// black king, on the referee's Game directly (no clocks, no goroutines),
// checking after every answer that the belief holds the king's square.

// randomPosition returns a legal position of White's king and a man of type
// piece against Black's lone king, White to move, that is not over.
func randomPosition(rng *rand.Rand, piece chess.PieceType) string {
	for {
		var b chess.Board
		sq := rng.Perm(64)
		wk, wp, bk := chess.Square(sq[0]), chess.Square(sq[1]), chess.Square(sq[2])
		b = chess.MustParseFEN("8/8/8/8/8/8/8/8 w - - 0 1")
		b.SetPiece(wk, chess.MakePiece(chess.White, chess.King))
		b.SetPiece(wp, chess.MakePiece(chess.White, piece))
		b.SetPiece(bk, chess.MakePiece(chess.Black, chess.King))
		if chess.Attackers(&b, bk, chess.White) != 0 {
			continue // Black, not to move, would be in check
		}
		g, err := kriegspiel.NewGameFromFEN(kriegspiel.Wild16(), b.FEN())
		if err != nil || g.Over() {
			continue
		}
		return b.FEN()
	}
}

// defender chooses the lone king's questions from the true board.
type defender interface {
	name() string
	// ask returns the next question on g (Black to move).
	ask(g *kriegspiel.Game) kriegspiel.Question
}

// randomDefender asks the referee's questions at random, refused tries
// included, as the random player does.
type randomDefender struct{ rng *rand.Rand }

func (randomDefender) name() string { return "random" }

func (d randomDefender) ask(g *kriegspiel.Game) kriegspiel.Question {
	qs := g.Questions(nil)
	return qs[d.rng.IntN(len(qs))]
}

// adversary sees the whole board and plays the king's legal move that
// keeps it farthest from mate: it takes a man left en prise, else
// goes where the region it can reach past our men's attacks is largest,
// then nearest the centre and farthest from our king. Against king and
// pawn it reads the KPK table first: it takes the pawn, else steps where
// the table draws, else where the promotion is farthest. It never tries an
// illegal move (under berkeley those would tell us where it is).
type adversary struct{ rng *rand.Rand }

func (adversary) name() string { return "adversarial" }

func (d adversary) ask(g *kriegspiel.Game) kriegspiel.Question {
	b := g.Board()
	white := b
	white.SetPiece(b.KingSquare(chess.Black), chess.NoPiece)
	a := attacks(&white, chess.White)
	wk := b.KingSquare(chess.White)
	best, bestScore := chess.Move{}, -1
	for i, m := range chess.LegalMoves(&b) {
		score := 0
		if b.Pieces(chess.White).Has(m.To) {
			score = 1 << 24
		} else if k, p, ok := kpkMen(&white, chess.White); ok {
			score = int(kpk().us[kpkIndex(k, p, m.To)]) << 16 // above what follows
		}
		region := m.To.Bit()
		for {
			grown := region | spread(region)&^a
			if grown == region {
				break
			}
			region = grown
		}
		centre := 7 - max(abs(2*m.To.File()-7), abs(2*m.To.Rank()-7))/2
		score += 1000*region.Count() + 20*centre + chebyshev(m.To, wk)
		score = score*4 + d.rng.IntN(4) // ties at random
		if i == 0 || score > bestScore {
			best, bestScore = m, score
		}
	}
	return kriegspiel.TryMove(best)
}

// playout is how one generated game went.
type playout struct {
	end   kriegspiel.Ending
	moves int // White's moves made
	// missed: after some answer the belief lacked the king's square.
	// declined: the tracker would not choose a try.
	missed, declined bool
	// taken: the king took one of our men (the pawn, in KPK: the game is
	// then drawn).
	taken bool
	err   error
}

// defenderTurn lets d ask until its move is made (or the game ends) and
// returns the answers White hears of its questions, as White's Opponent
// wants them.
func defenderTurn(g *kriegspiel.Game, rules kriegspiel.Ruleset, d defender) []kriegspiel.Heard {
	var heard []kriegspiel.Heard
	for !g.Over() {
		q := d.ask(g)
		a, _ := g.Ask(q)
		if try := (kriegspiel.Try{Question: q, Answer: a, Public: rules.HeardByOpponent(a)}); try.Public {
			heard = append(heard, try.Overheard())
		}
		if a.Verdict.Done() {
			break
		}
	}
	return heard
}

// play plays fen out under rules, White the tracker, Black the defender, for
// at most limit White moves.
func play(rules kriegspiel.Ruleset, fen string, d defender, seed uint64, limit int) playout {
	return playFrom(rules, fen, 0, d, seed, limit)
}

// playFrom is play with the tracker's belief started on the squares of
// known that the start allows (all of them where known is empty), as if
// White had heard where the king is.
func playFrom(rules kriegspiel.Ruleset, fen string, known chess.Bitboard, d defender, seed uint64, limit int) playout {
	g, err := kriegspiel.NewGameFromFEN(rules, fen)
	if err != nil {
		return playout{err: err}
	}
	tr := NewTracker(chess.White, rules, chess.MustParseFEN(fen), seed)
	if known != 0 {
		tr.belief, err = NewBelief(rules, chess.MustParseFEN(fen), chess.NoSquare)
		if err != nil {
			return playout{err: err}
		}
		tr.belief.squares &= known
	}
	var out playout
	check := func() {
		if bl := tr.Belief(); bl != nil && !g.Over() {
			b := g.Board()
			if !bl.Squares().Has(b.KingSquare(chess.Black)) {
				out.missed = true
			}
		}
		if tr.Lost() {
			out.missed = true
		}
	}
	var heard []kriegspiel.Heard
	for !g.Over() && out.moves < limit {
		if err := tr.Opponent(heard); err != nil {
			out.err = err
		}
		check()
		heard = nil
		for done := false; !done; {
			q, ok, err := tr.Choose(g.Questions(nil))
			if err != nil || !ok {
				out.declined, out.err = true, err
				return out
			}
			a, _ := g.Ask(q)
			if err := tr.Own(q, a); err != nil {
				out.err = err
			}
			check()
			done = a.Verdict.Done()
		}
		out.moves++
		heard = defenderTurn(g, rules, d)
		for _, h := range heard {
			if h.Answer.Capture != chess.NoSquare {
				out.taken = true
			}
		}
	}
	out.end = g.Ending()
	return out
}

// tally sums playouts.
type tally struct {
	games, mates, moves, missed, declined, maxMoves, taken int
	ends                                                   map[kriegspiel.Ending]int
}

func (t *tally) add(p playout) {
	t.games++
	if t.ends == nil {
		t.ends = map[kriegspiel.Ending]int{}
	}
	t.ends[p.end]++
	if p.end == kriegspiel.CheckmateWhiteWins {
		t.mates++
		t.moves += p.moves
		t.maxMoves = max(t.maxMoves, p.moves)
	}
	if p.missed {
		t.missed++
	}
	if p.declined {
		t.declined++
	}
	if p.taken {
		t.taken++
	}
}

func (t *tally) String() string {
	return fmt.Sprintf("%d games: %d mates (%.1f%%), %.1f moves to mate on average (at most %d), belief lost %d, declined %d, men taken %d, endings %v",
		t.games, t.mates, 100*float64(t.mates)/float64(max(t.games, 1)), float64(t.moves)/float64(max(t.mates, 1)),
		t.maxMoves, t.missed, t.declined, t.taken, t.ends)
}

// run plays n generated positions of piece under rules against the defender.
func run(tb testing.TB, rules kriegspiel.Ruleset, piece chess.PieceType, mk func(*rand.Rand) defender, n int, seed uint64) *tally {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var t tally
	for i := range n {
		fen := randomPosition(rng, piece)
		p := play(rules, fen, mk(rand.New(rand.NewPCG(seed, uint64(i)))), seed+uint64(i), 60)
		if p.end != kriegspiel.CheckmateWhiteWins || p.missed || p.declined || p.err != nil {
			tb.Logf("%s %s (game %d) vs %s: %s after %d moves: missed %v declined %v err %v", rules.Name, fen, i, mk(rng).name(), p.end, p.moves, p.missed, p.declined, p.err)
		}
		t.add(p)
	}
	return &t
}
