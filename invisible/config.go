package invisible

import (
	"fmt"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Config is one side's set of invisible pieces, named as the paper names
// them. A piece is told by the square it starts on, which stays its identity
// for the whole game: the announcement "the invisible bishop that started on
// c8 moved" needs a name that survives the piece's moves.
type Config string

// The paper's configurations. The single piece of 1B, 1N and 1R is the
// queen's-side one (c1/c8, b1/b8, a1/a8): the paper does not say which, and
// the queen's side keeps the king's side free for the usual castling.
const (
	None Config = "none"
	B1   Config = "1B"
	B2   Config = "2B"
	N1   Config = "1N"
	N2   Config = "2N"
	R1   Config = "1R"
	R2   Config = "2R"
	Q1   Config = "1Q"
)

// Configs lists the paper's configurations in the order of its Table 1.
func Configs() []Config { return []Config{B1, N1, R1, Q1, B2, N2, R2, None} }

// files are the files of a configuration's pieces on the back rank.
var files = map[Config][]int{None: nil, B1: {2}, B2: {2, 5}, N1: {1}, N2: {1, 6}, R1: {0}, R2: {0, 7}, Q1: {3}}

// MaxPieces is the most invisible pieces a side has; a placement is an array
// of this size.
const MaxPieces = 2

// ParseConfig reads a configuration's name; "N.I." and "" are "none", and
// case does not matter.
func ParseConfig(s string) (Config, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	switch u {
	case "", "NONE", "N.I.", "NI":
		return None, nil
	}
	if _, ok := files[Config(u)]; ok {
		return Config(u), nil
	}
	return "", fmt.Errorf("invisible: configuration %q: want one of none, 1B, 2B, 1N, 2N, 1R, 2R, 1Q", s)
}

// ParsePair reads "WHITE:BLACK" ("2B:1R"); a single name is both sides'.
func ParsePair(s string) ([2]Config, error) {
	w, b, ok := strings.Cut(s, ":")
	if !ok {
		b = w
	}
	cw, err := ParseConfig(w)
	if err != nil {
		return [2]Config{}, err
	}
	cb, err := ParseConfig(b)
	if err != nil {
		return [2]Config{}, err
	}
	return [2]Config{cw, cb}, nil
}

// PairString writes a pair back as ParsePair reads it.
func PairString(p [2]Config) string { return string(p[0]) + ":" + string(p[1]) }

// Label is the paper's name of a configuration ("N.I." for none).
func (c Config) Label() string {
	if c == None || c == "" {
		return "N.I."
	}
	return string(c)
}

// Starts returns the starting squares of colour col's invisible pieces under
// c, in the order of their identities.
func (c Config) Starts(col chess.Color) []chess.Square {
	rank := 0
	if col == chess.Black {
		rank = 7
	}
	var out []chess.Square
	for _, f := range files[c] {
		out = append(out, chess.MakeSquare(f, rank))
	}
	return out
}

// PieceName names a side's invisible piece by its identity, as the
// announcement does: "Bc8" is the invisible bishop that started on c8.
func PieceName(start chess.Square, p chess.PieceType) string {
	return strings.ToUpper(p.String()) + start.String()
}
