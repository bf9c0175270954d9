package terminal

import (
	"fmt"
	"slices"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
)

// parseMove reads a move request and checks it against the move actions,
// explaining what is wrong when it is not one.
func (h *Player) parseMove(text string, actions []chess.Move) (chess.Move, string) {
	m, err := chess.ParseMove(text)
	if err != nil || m.IsNull() {
		return chess.Move{}, fmt.Sprintf("%q is not a move: write the from and to squares, e.g. e2e4 (e7e8n to promote to a knight), or 'pass'.", text)
	}
	if isAction(actions, m) {
		return m, ""
	}
	p := h.own.PieceAt(m.From)
	if p == chess.NoPiece {
		return chess.Move{}, fmt.Sprintf("You have no piece on %s. 'help' lists your move actions.", m.From)
	}
	var from []string
	for _, a := range actions {
		if a.From == m.From {
			from = append(from, a.String())
		}
	}
	if len(from) == 0 {
		return chess.Move{}, fmt.Sprintf("Your %s on %s has no move actions now.", pieceName(p), m.From)
	}
	return chess.Move{}, fmt.Sprintf("%s is not one of your move actions. Your %s on %s may request: %s.",
		text, pieceName(p), m.From, strings.Join(from, " "))
}

// isAction reports whether m is a move action, allowing a promotion without
// its piece (the harness promotes to a queen).
func isAction(actions []chess.Move, m chess.Move) bool {
	if slices.Contains(actions, m) {
		return true
	}
	return m.Promotion == chess.NoPieceType && slices.Contains(actions, chess.Move{From: m.From, To: m.To, Promotion: chess.Queen})
}

// listActions prints the move actions grouped by piece.
func (h *Player) listActions(actions []chess.Move) {
	fmt.Fprintln(h.out, "Your move actions (a request may be revised on the real board: a slider stops at")
	fmt.Fprintln(h.out, "the first enemy piece and takes it; a pawn's diagonal onto an empty square does nothing):")
	var order []chess.Square
	by := map[chess.Square][]string{}
	for _, a := range actions {
		if _, ok := by[a.From]; !ok {
			order = append(order, a.From)
		}
		by[a.From] = append(by[a.From], a.To.String()+a.Promotion.String())
	}
	for _, s := range order {
		fmt.Fprintf(h.out, "  %s %s: %s\n", string(h.own.PieceAt(s).Symbol()), s, strings.Join(by[s], " "))
	}
	fmt.Fprintln(h.out, "  or 'pass'.")
}
