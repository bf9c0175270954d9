package engine

import (
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// The information advisors of the invisible-chess literature, as terms added
// to a request's score. Both are cheap: they look only at what the request
// becomes on each board (taken move and capture square), never at an engine.

// seekValue is the expected share of our belief a request's move result
// rules out, 1 − Σpᵢ² over the distinct (taken move, capture square)
// results on the boards: a slider sent through uncertain squares or a
// capture attempt tells us where pieces are, whatever else it does.
func seekValue(m *Matrix, weights []float64, j int) float64 {
	type result struct {
		taken   chess.Move
		capture chess.Square
	}
	acc := make(map[result]float64, 4)
	for i, row := range m.Out {
		acc[result{row[j].Taken, row[j].Capture}] += weights[i]
	}
	p := make([]float64, 0, len(acc))
	for _, w := range acc {
		p = append(p, w)
	}
	return setReduction(p)
}

// exposure is how much it costs us that the opponent learns where a piece of
// this type stands (our capture announces the square): a revealed queen or
// king can be hunted, a revealed pawn hardly matters.
func exposure(t chess.PieceType) float64 {
	switch t {
	case chess.Pawn:
		return 0.5
	case chess.Knight, chess.Bishop:
		return 0.8
	case chess.Rook:
		return 1
	case chess.Queen:
		return 1.5
	case chess.King:
		return 2
	}
	return 0
}

// hideCost is the expected exposure a request announces: the probability
// that it captures (the opponent is then told the square) times the
// exposure of the piece that lands there. A king capture ends the game and
// costs nothing. The engine already counts what a capture wins, so with this
// cost a capture that gains little is declined and one that gains a lot is
// still taken.
func hideCost(m *Matrix, weights []float64, j int, mover chess.PieceType) float64 {
	p := 0.0
	for i, row := range m.Out {
		if o := row[j]; o.Capture != chess.NoSquare && !o.KingCapture {
			p += weights[i]
		}
	}
	return p * exposure(mover)
}

// openness is how exposed c's king is to pieces it cannot see: the squares
// on the eight lines from the king up to (not past) c's own pieces, the
// opponent's pieces ignored because we do not know where they are. Every
// such square is one from which a hidden queen, rook or bishop gives check.
func openness(b *chess.Board, c chess.Color) int {
	k := b.KingSquare(c)
	if k == chess.NoSquare {
		return 0
	}
	own := b.Pieces(c)
	return (chess.QueenAttacks(k, own) &^ own).Count()
}

// shelterCost is how many lines-of-attack squares request r opens to our
// king, judged on our own pieces only (the request applied as if nothing
// stood in its way): moving the pawns in front of the king, or the king into
// the open, invites checks from pieces we cannot see.
func shelterCost(ref *chess.Board, r chess.Move) float64 {
	us := ref.Turn()
	own := *ref
	for pieces := own.Pieces(us.Other()); pieces != 0; {
		own.SetPiece(pieces.PopFirst(), chess.NoPiece)
	}
	before := openness(&own, us)
	if !r.IsNull() && own.IsPseudoLegal(rbc.WithQueenDefault(&own, r)) {
		own.Apply(rbc.WithQueenDefault(&own, r))
	}
	return float64(openness(&own, us) - before)
}

// Thresholds of the press advisor: below pressFrom half-moves it is off, at
// pressFull it has its full value, and it applies only when the best request
// scores at least pressAhead (we are winning; a draw is no loss to avoid
// when we are not).
const (
	pressFrom, pressFull = 20, 80
	pressAhead           = 200.0
)

// pressFactor is how strongly the draw clock presses for progress, from 0
// to 1. The clock is the highest on the boards of m: the boards differ by the
// opponent's hidden moves, and one where it pushed a pawn has a fresh clock
// while the referee's may be about to call the draw (a game was drawn with
// the press silent because the first board was such a one).
func pressFactor(m *Matrix) float64 {
	h := 0
	for i := range m.Boards {
		h = max(h, m.Boards[i].HalfmoveClock())
	}
	if h <= pressFrom {
		return 0
	}
	return min(1, float64(h-pressFrom)/float64(pressFull-pressFrom))
}

// resetShare is the weighted share of boards on which request j resets the
// half-move clock: the taken move is a pawn move or a capture.
func resetShare(m *Matrix, weights []float64, j int) float64 {
	p := 0.0
	for i, row := range m.Out {
		o := row[j]
		if o.Capture != chess.NoSquare || (!o.Taken.IsNull() && m.Boards[i].PieceAt(o.Taken.From).Type() == chess.Pawn) {
			p += weights[i]
		}
	}
	return p
}
