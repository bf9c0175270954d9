package uci

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The engine is a separate program: whatever it prints must come back as a
// value the client can trust or as ErrProtocol, never as a panic or a
// half-read value.

func FuzzParseInfo(f *testing.F) {
	for _, s := range []string{
		"info depth 8 seldepth 7 multipv 1 score cp 26 nodes 5791 nps 386066 hashfull 4 tbhits 0 time 15 pv g1f3 g8f6 d2d4",
		"info depth 3 score mate -2 lowerbound pv a1a2",
		"info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
		"info depth 5 multipv 1 score cp 13 wdl 100 850 50 nodes 9 pv e2e4 e7e5",
		"info depth 5 currmove e2e4 currmovenumber 1",
		"info currline 1 e2e4 e7e5 refutation d1h5",
		"info time 18446744073709551615",
		"info depth -1", "info pv", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		info, err := ParseInfo(line)
		if err != nil {
			if !errors.Is(err, ErrProtocol) {
				t.Fatalf("ParseInfo(%q): %v does not wrap ErrProtocol", line, err)
			}
			if !reflect.DeepEqual(info, Info{}) {
				t.Fatalf("ParseInfo(%q) failed but returned %+v", line, info)
			}
			return
		}
		if info.Depth < 0 || info.SelDepth < 0 || info.MultiPV < 0 || info.HashFull < 0 || info.CurrMoveNumber < 0 {
			t.Errorf("ParseInfo(%q) = %+v: a negative count", line, info)
		}
		if info.Time < 0 {
			t.Errorf("ParseInfo(%q): time %v is negative", line, info.Time)
		}
		if info.Score.Kind > ScoreMate || info.Score.Kind == ScoreNone && info.Score != (Score{}) {
			t.Errorf("ParseInfo(%q): score %+v", line, info.Score)
		}
		for _, m := range info.PV {
			if !IsMove(m) {
				t.Errorf("ParseInfo(%q): %q in the pv is not a move", line, m)
			}
		}
		if info.CurrMove != "" && !IsMove(info.CurrMove) {
			t.Errorf("ParseInfo(%q): currmove %q is not a move", line, info.CurrMove)
		}
	})
}

func FuzzParseBestMove(f *testing.F) {
	for _, s := range []string{"bestmove e2e4", "bestmove e7e8q ponder d7d8", "bestmove (none)", "bestmove e2e4 ponder (none)", "bestmove", "bestmove e2e4 ponder"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		best, ponder, err := ParseBestMove(line)
		if err != nil {
			if !errors.Is(err, ErrProtocol) || best != "" || ponder != "" {
				t.Fatalf("ParseBestMove(%q) = %q, %q, %v", line, best, ponder, err)
			}
			return
		}
		if best != NoMove && !IsMove(best) {
			t.Errorf("ParseBestMove(%q): best %q is not a move", line, best)
		}
		if ponder != "" && !IsMove(ponder) {
			t.Errorf("ParseBestMove(%q): ponder %q is not a move", line, ponder)
		}
	})
}

func FuzzParseOptionSpec(f *testing.F) {
	for _, s := range []string{
		"option name Hash type spin default 16 min 1 max 33554432",
		"option name Debug Log File type string default <empty>",
		"option name Analysis Contempt type combo default Both var Off var White var Black var Both",
		"option name Clear Hash type button",
		"option name", "option name var x", "option",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		spec, err := parseOptionSpec(line)
		if err != nil {
			if !errors.Is(err, ErrProtocol) {
				t.Fatalf("parseOptionSpec(%q): %v does not wrap ErrProtocol", line, err)
			}
			return
		}
		if tok := strings.Fields(line); len(tok) < 2 || tok[0] != "option" || tok[1] != "name" {
			t.Errorf("parseOptionSpec(%q) accepted a line that is not an option declaration: %+v", line, spec)
		}
		for _, s := range append([]string{spec.Name, spec.Type, spec.Default, spec.Min, spec.Max}, spec.Vars...) {
			if s != strings.Join(strings.Fields(s), " ") {
				t.Errorf("parseOptionSpec(%q): %q is not the line's words joined by single spaces", line, s)
			}
		}
	})
}
