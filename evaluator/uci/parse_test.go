package uci

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestParseInfoStockfishLines(t *testing.T) {
	tests := []struct {
		line string
		want Info
	}{
		{
			line: "info depth 8 seldepth 7 multipv 1 score cp 26 nodes 5791 nps 386066 hashfull 4 tbhits 0 time 15 pv g1f3 g8f6 d2d4",
			want: Info{Depth: 8, SelDepth: 7, MultiPV: 1, Score: Score{Kind: ScoreCP, Value: 26}, Nodes: 5791, NPS: 386066,
				HashFull: 4, Time: 15 * time.Millisecond, PV: []string{"g1f3", "g8f6", "d2d4"}},
		},
		{
			line: "info depth 12 seldepth 14 multipv 2 score cp -35 upperbound nodes 100 nps 5 time 3 pv e7e8q",
			want: Info{Depth: 12, SelDepth: 14, MultiPV: 2, Score: Score{Kind: ScoreCP, Value: -35, Bound: BoundUpper},
				Nodes: 100, NPS: 5, Time: 3 * time.Millisecond, PV: []string{"e7e8q"}},
		},
		{
			line: "info depth 3 score mate -2 lowerbound pv a1a2",
			want: Info{Depth: 3, Score: Score{Kind: ScoreMate, Value: -2, Bound: BoundLower}, PV: []string{"a1a2"}},
		},
		{
			line: "info depth 0 score mate 0",
			want: Info{Score: Score{Kind: ScoreMate}},
		},
		{
			line: "info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
			want: Info{String: "NNUE evaluation using nn-ad9b42354671.nnue enabled"},
		},
		{
			line: "info depth 5 currmove e2e4 currmovenumber 1",
			want: Info{Depth: 5, CurrMove: "e2e4", CurrMoveNumber: 1},
		},
		{
			line: "info depth 5 multipv 1 score cp 13 wdl 100 850 50 nodes 9 pv e2e4 e7e5",
			want: Info{Depth: 5, MultiPV: 1, Score: Score{Kind: ScoreCP, Value: 13}, Nodes: 9, PV: []string{"e2e4", "e7e5"}},
		},
		{
			// Unknown keywords are ignored; a pv ends at the first non-move.
			line: "info depth 2 frobnicate pv e2e4 e7e5 nodes 10",
			want: Info{Depth: 2, PV: []string{"e2e4", "e7e5"}, Nodes: 10},
		},
	}
	for _, tt := range tests {
		got, err := ParseInfo(tt.line)
		if err != nil {
			t.Errorf("ParseInfo(%q): %v", tt.line, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseInfo(%q)\n got %+v\nwant %+v", tt.line, got, tt.want)
		}
	}
}

func TestParseInfoRejectsGarbage(t *testing.T) {
	for _, line := range []string{
		"", "inf depth 3", "info depth", "info depth x", "info depth -1", "info score", "info score cp",
		"info score cp ten", "info score foo 3", "info nodes -5", "info pv", "info pv zz99",
		"info currmove e9e4", "info time 1.5", "info wdl 1 2", "info time 18446744073709551615",
	} {
		if _, err := ParseInfo(line); !errors.Is(err, ErrProtocol) {
			t.Errorf("ParseInfo(%q) = %v, want ErrProtocol", line, err)
		}
	}
}

func TestParseBestMove(t *testing.T) {
	tests := []struct {
		line, best, ponder string
	}{
		{"bestmove e2e4", "e2e4", ""},
		{"bestmove g1f3 ponder g8f6", "g1f3", "g8f6"},
		{"bestmove e7e8q ponder (none)", "e7e8q", ""},
		{"bestmove (none)", NoMove, ""},
		{"bestmove 0000", "0000", ""},
	}
	for _, tt := range tests {
		best, ponder, err := ParseBestMove(tt.line)
		if err != nil || best != tt.best || ponder != tt.ponder {
			t.Errorf("ParseBestMove(%q) = %q, %q, %v; want %q, %q", tt.line, best, ponder, err, tt.best, tt.ponder)
		}
	}
	for _, line := range []string{"bestmove", "bestmove e2e9", "bestmove e2e4 ponder", "bestmove e2e4 pondr e7e5",
		"bestmove e2e4 ponder e7", "best e2e4", "bestmove e2e4x"} {
		if _, _, err := ParseBestMove(line); !errors.Is(err, ErrProtocol) {
			t.Errorf("ParseBestMove(%q) = %v, want ErrProtocol", line, err)
		}
	}
}

func TestParseOptionSpec(t *testing.T) {
	tests := []struct {
		line string
		want OptionSpec
	}{
		{"option name Hash type spin default 16 min 1 max 33554432",
			OptionSpec{Name: "Hash", Type: "spin", Default: "16", Min: "1", Max: "33554432"}},
		{"option name Debug Log File type string default ",
			OptionSpec{Name: "Debug Log File", Type: "string"}},
		{"option name SyzygyPath type string default <empty>",
			OptionSpec{Name: "SyzygyPath", Type: "string"}},
		{"option name Clear Hash type button",
			OptionSpec{Name: "Clear Hash", Type: "button"}},
		{"option name Style type combo default Normal var Solid var Normal var Very Risky",
			OptionSpec{Name: "Style", Type: "combo", Default: "Normal", Vars: []string{"Solid", "Normal", "Very Risky"}}},
	}
	for _, tt := range tests {
		got, err := parseOptionSpec(tt.line)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("parseOptionSpec(%q) = %+v, %v; want %+v", tt.line, got, err, tt.want)
		}
	}
	for _, line := range []string{"option", "option name", "option name X", "option type spin", "id name X"} {
		if _, err := parseOptionSpec(line); !errors.Is(err, ErrProtocol) {
			t.Errorf("parseOptionSpec(%q) = %v, want ErrProtocol", line, err)
		}
	}
}

func TestCommands(t *testing.T) {
	lim := Limits{Depth: 8, Nodes: 5000, MoveTime: 1500 * time.Microsecond, SearchMoves: []string{"e2e4", "d2d4"}}
	if got, want := lim.goCommand(), "go depth 8 nodes 5000 movetime 2 searchmoves e2e4 d2d4"; got != want {
		t.Errorf("goCommand = %q, want %q", got, want)
	}
	pos := Position{FEN: "  " + StartFEN + " ", Moves: []string{"e2e4", "c7c5"}}
	if got, want := pos.command(), "position fen "+StartFEN+" moves e2e4 c7c5"; got != want {
		t.Errorf("command = %q, want %q", got, want)
	}
	if got := (Position{}).command(); got != "position startpos" {
		t.Errorf("command = %q", got)
	}
	if got := (Option{Name: "Clear Hash"}).command(); got != "setoption name Clear Hash" {
		t.Errorf("command = %q", got)
	}
	for _, p := range []Position{
		{FEN: StartFEN + "\nquit"},
		{FEN: "8/8"},
		{FEN: StartFEN, Moves: []string{"e2e4\n"}},
		{FEN: StartFEN, Moves: []string{"castle"}},
	} {
		if err := p.validate(); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("validate(%q) = %v, want ErrInvalidArgument", p, err)
		}
	}
	for _, l := range []Limits{{}, {Depth: -1}, {MultiPV: 2}, {Depth: 3, SearchMoves: []string{"e2"}}} {
		if err := l.validate(); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("validate(%+v) = %v, want ErrInvalidArgument", l, err)
		}
	}
	for _, o := range []Option{{Name: ""}, {Name: "Hash\n"}, {Name: "Hash", Value: "1\nquit"}, {Name: "a value b"}} {
		if err := validateOption(o); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("validateOption(%+v) = %v, want ErrInvalidArgument", o, err)
		}
	}
}

func TestIsMove(t *testing.T) {
	for _, m := range []string{"e2e4", "a7a8q", "h2h1n", "0000"} {
		if !IsMove(m) {
			t.Errorf("IsMove(%q) = false", m)
		}
	}
	for _, m := range []string{"", "e2", "e2e4e", "i2i4", "e0e4", "e7e8k", "E2E4", "(none)"} {
		if IsMove(m) {
			t.Errorf("IsMove(%q) = true", m)
		}
	}
}

func TestScoreString(t *testing.T) {
	for s, want := range map[Score]string{
		{}:                          "none",
		{Kind: ScoreCP, Value: -12}: "cp -12",
		{Kind: ScoreMate, Value: 3}: "mate 3",
		{Kind: ScoreCP, Value: 5, Bound: BoundLower}: "cp 5 lowerbound",
	} {
		if got := s.String(); got != want {
			t.Errorf("%#v.String() = %q, want %q", s, got, want)
		}
	}
}
