package chess

import "fmt"

// PositionError says why a board is not one a game can reach.
type PositionError struct {
	FEN    string
	Reason string
}

func (e *PositionError) Error() string {
	return fmt.Sprintf("chess: impossible position %q: %s", e.FEN, e.Reason)
}

// Validate says whether b is a position a game in progress (of RBC,
// Kriegspiel or invisible chess) can reach, and if not, why (a *PositionError naming the first fault found):
//
//   - each side has exactly one king (a game ends when a king is taken);
//   - no pawn stands on the first or the last rank;
//   - a side has at most 16 men and at most 8 pawns, and no more pieces
//     of a kind than its start set plus the pawns it is missing (each
//     extra queen, rook, bishop or knight is a promoted pawn).
//
// What chess would also forbid is allowed here, as RBC's harness allows
// it (Kriegspiel's referee adds its own rule, kriegspiel.NewGameFromFEN): the
// side not to move may be in check, and the side to move may be able to
// take the enemy king (moving into check is legal in RBC); a king may
// stand next to the other. Castling rights and the en-passant square are
// not checked: a right whose king or rook has left its square, or a
// square no pawn can use, is a right that cannot be exercised (the move
// generator and the engine guard ignore them), not an impossible board.
//
// It is the one check of every entry point that takes a position from
// outside (a FEN flag, rbcp's newgame, the first board of a record), so
// that an impossible board is refused there with its reason rather than
// played, drawn or scored silently; a record's later boards are the
// referee's to check (replay --check), and the board after the king's
// capture has one king, as it should.
func (b *Board) Validate() error {
	fail := func(format string, args ...any) error {
		return &PositionError{FEN: b.FEN(), Reason: fmt.Sprintf(format, args...)}
	}
	for c := White; c <= Black; c++ {
		if n := b.PiecesOf(c, King).Count(); n != 1 {
			return fail("%s has %d kings, want 1", c, n)
		}
	}
	if p := (b.PiecesOf(White, Pawn) | b.PiecesOf(Black, Pawn)) & BackRanks; p != 0 {
		s := p.First()
		return fail("a pawn on %s (rank %d)", s, s.Rank()+1)
	}
	for c := White; c <= Black; c++ {
		if n := b.Pieces(c).Count(); n > 16 {
			return fail("%s has %d men, at most 16", c, n)
		}
		pawns := b.PiecesOf(c, Pawn).Count()
		if pawns > 8 {
			return fail("%s has %d pawns, at most 8", c, pawns)
		}
		promoted := 0
		for _, k := range []struct {
			t     PieceType
			start int
		}{{Knight, 2}, {Bishop, 2}, {Rook, 2}, {Queen, 1}} {
			promoted += max(b.PiecesOf(c, k.t).Count()-k.start, 0)
		}
		if promoted > 8-pawns {
			return fail("%s has %d pieces beyond its start set but only %d pawns missing to have promoted", c, promoted, 8-pawns)
		}
	}
	return nil
}

// ParsePosition reads a FEN (as ParseFEN does) of a position taken from
// outside, and refuses one no game can reach (see Validate).
func ParsePosition(fen string) (Board, error) {
	b, err := ParseFEN(fen)
	if err != nil {
		return Board{}, err
	}
	if err := b.Validate(); err != nil {
		return Board{}, err
	}
	return b, nil
}
