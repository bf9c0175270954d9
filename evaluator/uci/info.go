package uci

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Info is one parsed "info" line. Fields the line did not carry keep their
// zero value.
type Info struct {
	// Depth is the nominal search depth in plies ("depth").
	Depth int
	// SelDepth is the selective search depth ("seldepth").
	SelDepth int
	// MultiPV is the 1-based index of the principal variation the line
	// belongs to; 0 when the engine did not say (read it as 1).
	MultiPV int
	// Score is the evaluation of this principal variation.
	Score Score
	// Nodes is the number of nodes searched so far ("nodes").
	Nodes uint64
	// NPS is the search speed in nodes per second ("nps").
	NPS uint64
	// TBHits counts tablebase hits ("tbhits").
	TBHits uint64
	// Time is the search time so far ("time", milliseconds on the wire).
	Time time.Duration
	// HashFull is the hash table fill in permille ("hashfull").
	HashFull int
	// PV is the principal variation, UCI moves ("pv ...").
	PV []string
	// CurrMove is the move being searched ("currmove").
	CurrMove string
	// CurrMoveNumber is the 1-based number of CurrMove ("currmovenumber").
	CurrMoveNumber int
	// String is free text ("string ..." up to the end of the line).
	String string
}

// ParseInfo parses an engine "info" line. Unknown keywords are skipped as the
// UCI specification asks; a known keyword with a malformed value, a malformed
// move in pv/currmove, or a line that does not start with "info" is an error
// wrapping ErrProtocol.
func ParseInfo(line string) (Info, error) {
	var info Info
	tok := strings.Fields(line)
	if len(tok) == 0 || tok[0] != "info" {
		return info, fmt.Errorf("%w: not an info line: %q", ErrProtocol, clip(line))
	}
	bad := func(key string) (Info, error) {
		return Info{}, fmt.Errorf("%w: bad %q in info line: %q", ErrProtocol, key, clip(line))
	}
	for i := 1; i < len(tok); i++ {
		key := tok[i]
		switch key {
		case "depth", "seldepth", "multipv", "hashfull", "currmovenumber", "cpuload":
			if i+1 >= len(tok) {
				return bad(key)
			}
			v, err := strconv.Atoi(tok[i+1])
			if err != nil || v < 0 {
				return bad(key)
			}
			i++
			switch key {
			case "depth":
				info.Depth = v
			case "seldepth":
				info.SelDepth = v
			case "multipv":
				info.MultiPV = v
			case "hashfull":
				info.HashFull = v
			case "currmovenumber":
				info.CurrMoveNumber = v
			}
		case "nodes", "nps", "tbhits", "sbhits", "time":
			if i+1 >= len(tok) {
				return bad(key)
			}
			v, err := strconv.ParseUint(tok[i+1], 10, 64)
			if err != nil {
				return bad(key)
			}
			i++
			switch key {
			case "nodes":
				info.Nodes = v
			case "nps":
				info.NPS = v
			case "tbhits":
				info.TBHits = v
			case "time":
				// More milliseconds than a Duration holds would wrap
				// round to a negative time.
				if v > uint64(math.MaxInt64/int64(time.Millisecond)) {
					return bad(key)
				}
				info.Time = time.Duration(v) * time.Millisecond
			}
		case "score":
			score, n, ok := parseScore(tok[i+1:])
			if !ok {
				return bad(key)
			}
			info.Score = score
			i += n
		case "wdl":
			// Stockfish's UCI_ShowWDL extension: three integers.
			if i+3 >= len(tok) {
				return bad(key)
			}
			i += 3
		case "currmove":
			if i+1 >= len(tok) || !IsMove(tok[i+1]) {
				return bad(key)
			}
			info.CurrMove = tok[i+1]
			i++
		case "pv":
			j := i + 1
			for j < len(tok) && IsMove(tok[j]) {
				j++
			}
			if j == i+1 {
				return bad(key)
			}
			info.PV = append([]string(nil), tok[i+1:j]...)
			i = j - 1
		case "refutation", "currline":
			// Move lists we do not use; skip the moves (currline may start
			// with a CPU number).
			for i+1 < len(tok) && (IsMove(tok[i+1]) || isDigits(tok[i+1])) {
				i++
			}
		case "string":
			_, rest, _ := strings.Cut(line, " string ")
			info.String = strings.TrimSpace(rest)
			return info, nil
		default:
			// Unknown keyword: ignored, per the UCI specification.
		}
	}
	return info, nil
}

// parseScore reads the words after "score": cp or mate, a value and an
// optional bound. It returns the score and how many words it took.
func parseScore(tok []string) (Score, int, bool) {
	var score Score
	if len(tok) < 2 {
		return score, 0, false
	}
	switch tok[0] {
	case "cp":
		score.Kind = ScoreCP
	case "mate":
		score.Kind = ScoreMate
	default:
		return Score{}, 0, false
	}
	v, err := strconv.Atoi(tok[1])
	if err != nil {
		return Score{}, 0, false
	}
	score.Value = v
	if len(tok) > 2 {
		switch tok[2] {
		case "lowerbound":
			score.Bound = BoundLower
			return score, 3, true
		case "upperbound":
			score.Bound = BoundUpper
			return score, 3, true
		}
	}
	return score, 2, true
}

// IsMove reports whether s is a syntactically valid UCI move: from-square,
// to-square and an optional promotion piece ("e2e4", "a7a8q"), or the null
// move "0000". It does not check legality.
func IsMove(s string) bool {
	if s == "0000" {
		return true
	}
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	if s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' ||
		s[2] < 'a' || s[2] > 'h' || s[3] < '1' || s[3] > '8' {
		return false
	}
	if len(s) == 5 {
		switch s[4] {
		case 'q', 'r', 'b', 'n':
		default:
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// clip shortens s for error messages and logs.
func clip(s string) string {
	const maxLen = 120
	if len(s) <= maxLen {
		return s
	}
	return s[:maxLen] + "..."
}
