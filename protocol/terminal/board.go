package terminal

import (
	"fmt"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// draw prints what we know: our pieces, the last sense window ([p] an enemy
// piece seen, [ ] an empty square seen) and where we were just captured (x).
// The window is a snapshot taken before our last move and the opponent's
// reply, so only what it says of the opponent comes from it: our own pieces
// always come from h.own, which follows every move and capture since. A
// window square shows our piece if one stands there now, x if ours was
// captured there since, and otherwise what the sense saw of the opponent
// ([ ] where it saw our own piece, which may have left).
func (h *Player) draw() {
	fmt.Fprint(h.out, renderBoard(h.color, h.cell))
	fmt.Fprintln(h.out, "   capitals: White, small: Black; [ ] last sense window; x: you were captured here")
}

// cell draws square s of our view (see draw).
func (h *Player) cell(s chess.Square) string {
	seen, inWindow := chess.NoPiece, false
	for _, sp := range h.sense {
		if sp.Square == s {
			seen, inWindow = sp.Piece, true
			break
		}
	}
	if seen != chess.NoPiece && seen.Color() == h.color {
		seen = chess.NoPiece // our own piece then: h.own says where it is now
	}
	own := h.own.PieceAt(s)
	switch {
	case own != chess.NoPiece && inWindow:
		return "[" + string(own.Symbol()) + "]"
	case own != chess.NoPiece:
		return " " + string(own.Symbol()) + " "
	case s == h.lost:
		return " x "
	case inWindow && seen == chess.NoPiece:
		return "[ ]"
	case inWindow:
		return "[" + string(seen.Symbol()) + "]"
	}
	return " . "
}

// renderBoard draws the board from c's side, a cell of three characters per
// square.
func renderBoard(c chess.Color, cell func(chess.Square) string) string {
	var b strings.Builder
	files := "    a  b  c  d  e  f  g  h\n"
	if c == chess.Black {
		files = "    h  g  f  e  d  c  b  a\n"
	}
	b.WriteString(files)
	for i := range 8 {
		rank := 7 - i
		if c == chess.Black {
			rank = i
		}
		fmt.Fprintf(&b, " %d ", rank+1)
		for j := range 8 {
			file := j
			if c == chess.Black {
				file = 7 - j
			}
			b.WriteString(cell(chess.MakeSquare(file, rank)))
		}
		fmt.Fprintf(&b, " %d\n", rank+1)
	}
	b.WriteString(files)
	return b.String()
}

// pieceName names a piece's type in words.
func pieceName(p chess.Piece) string {
	switch p.Type() {
	case chess.Pawn:
		return "pawn"
	case chess.Knight:
		return "knight"
	case chess.Bishop:
		return "bishop"
	case chess.Rook:
		return "rook"
	case chess.Queen:
		return "queen"
	case chess.King:
		return "king"
	}
	return "piece"
}

// clockText shows a clock as m:ss.s.
func clockText(d time.Duration) string {
	d = max(d, 0).Round(100 * time.Millisecond)
	m := int(d / time.Minute)
	s := (d - time.Duration(m)*time.Minute).Seconds()
	return fmt.Sprintf("%d:%04.1f", m, s)
}

// lastFEN returns the true board after the last move of the game.
func lastFEN(h *rbc.History) string {
	if h == nil {
		return ""
	}
	best, n := "", -1
	for c := chess.White; c <= chess.Black; c++ {
		for i, t := range h.Turns[c] {
			if k := 2*i + int(c); t.HasMove && k > n {
				best, n = t.FENAfter, k
			}
		}
	}
	return best
}
