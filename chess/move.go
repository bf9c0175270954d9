package chess

import "fmt"

// Move is a move from one square to another with an optional promotion.
// The zero Move (From == To) is the null move: a pass, or a request that
// resolved to no move at all. It prints as "0000", as in UCI.
type Move struct {
	From, To  Square
	Promotion PieceType
}

// IsNull reports whether m is the null move.
func (m Move) IsNull() bool { return m.From == m.To }

// String returns the UCI form of the move ("e2e4", "e7e8q", "0000").
func (m Move) String() string {
	if m.IsNull() {
		return "0000"
	}
	return m.From.String() + m.To.String() + m.Promotion.String()
}

// ParseMove reads a move in UCI form; "0000" is the null move.
func ParseMove(uci string) (Move, error) {
	if uci == "0000" {
		return Move{}, nil
	}
	if len(uci) != 4 && len(uci) != 5 {
		return Move{}, fmt.Errorf("chess: bad move %q: want 4 or 5 characters", uci)
	}
	from, err := ParseSquare(uci[0:2])
	if err != nil {
		return Move{}, fmt.Errorf("chess: bad move %q: %w", uci, err)
	}
	to, err := ParseSquare(uci[2:4])
	if err != nil {
		return Move{}, fmt.Errorf("chess: bad move %q: %w", uci, err)
	}
	if from == to {
		return Move{}, fmt.Errorf("chess: bad move %q: from and to are the same square", uci)
	}
	m := Move{From: from, To: to}
	if len(uci) == 5 {
		switch uci[4] {
		case 'n':
			m.Promotion = Knight
		case 'b':
			m.Promotion = Bishop
		case 'r':
			m.Promotion = Rook
		case 'q':
			m.Promotion = Queen
		default:
			return Move{}, fmt.Errorf("chess: bad move %q: promotion must be one of n, b, r, q", uci)
		}
	}
	return m, nil
}
