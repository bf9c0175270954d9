// Package chesstest holds what tests of any move generator share: the
// standard perft positions with their published counts, and a walk over the
// legal-move tree below them.
package chesstest

import "github.com/blindfish-rbc/blindfish/chess"

// Position is a perft position: its FEN and its published leaf counts by
// depth from 1 (a 0 skips a depth).
type Position struct {
	Name   string
	FEN    string
	Counts []int
}

// Perft returns the standard perft positions (chessprogramming.org's
// "Perft Results" page) and the special-case suite that goes with them
// (Martin Sedlak's tests of en passant, castling, promotion and stalemate
// corners), with their published node counts by depth from 1; a 0 skips a depth.
func Perft() []Position {
	return []Position{
		{"start", chess.StartFEN, []int{20, 400, 8902, 197281, 4865609}},
		{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []int{48, 2039, 97862, 4085603}},
		{"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", []int{14, 191, 2812, 43238, 674624}},
		{"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []int{6, 264, 9467, 422333}},
		{"position4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", []int{6, 264, 9467, 422333}},
		{"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []int{44, 1486, 62379, 2103487}},
		{"position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []int{46, 2079, 89890, 3894594}},
		{"illegal-ep-1", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", []int{0, 0, 0, 0, 0, 1134888}},
		{"illegal-ep-2", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", []int{0, 0, 0, 0, 0, 1015133}},
		{"ep-gives-check", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", []int{0, 0, 0, 0, 0, 1440467}},
		{"short-castle-check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", []int{0, 0, 0, 0, 0, 661072}},
		{"long-castle-check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", []int{0, 0, 0, 0, 0, 803711}},
		{"castle-rights", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", []int{0, 0, 0, 1274206}},
		{"castle-prevented", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", []int{0, 0, 0, 1720476}},
		{"promote-out-of-check", "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", []int{0, 0, 0, 0, 0, 3821001}},
		{"discovered-check", "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", []int{0, 0, 0, 0, 1004658}},
		{"promote-to-check", "4k3/1P6/8/8/8/8/K7/8 w - - 0 1", []int{0, 0, 0, 0, 0, 217342}},
		{"underpromote-to-check", "8/P1k5/K7/8/8/8/8/8 w - - 0 1", []int{0, 0, 0, 0, 0, 92683}},
		{"self-stalemate", "K1k5/8/P7/8/8/8/8/8 w - - 0 1", []int{0, 0, 0, 0, 0, 2217}},
		{"stalemate-checkmate-1", "8/k1P5/8/1K6/8/8/8/8 w - - 0 1", []int{0, 0, 0, 0, 0, 0, 567584}},
		{"stalemate-checkmate-2", "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", []int{0, 0, 0, 23527}},
	}
}

// WalkLegal calls visit on every board of the perft suite's trees down to
// depth plies, each tree in preorder, with the plies left below the board.
func WalkLegal(depth int, visit func(b *chess.Board, left int)) {
	var walk func(b chess.Board, d int)
	walk = func(b chess.Board, d int) {
		visit(&b, d)
		if d == 0 {
			return
		}
		for _, m := range chess.LegalMoves(&b) {
			c := b
			c.Apply(m)
			walk(c, d-1)
		}
	}
	for _, p := range Perft() {
		walk(chess.MustParseFEN(p.FEN), depth)
	}
}
