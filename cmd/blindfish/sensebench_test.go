package main

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// TestWindowMatchesByDifferences: the one-pass window count agrees with
// comparing every window's sense key.
func TestWindowMatchesByDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	truth := rbc.StartBoard()
	for range 300 {
		b := rbc.StartBoard()
		for range 1 + rng.IntN(4) {
			s := rbc.Square(rng.IntN(64))
			p := rbc.NoPiece
			if rng.IntN(2) == 0 {
				p = rbc.MakePiece(rbc.Color(rng.IntN(2)), rbc.PieceType(1+rng.IntN(6)))
				if p.Type() == rbc.Pawn && (s.Rank() == 0 || s.Rank() == 7) {
					continue
				}
			}
			b.SetPiece(s, p)
		}
		got := ^grow(differences(&b, &truth))
		for q := rbc.Square(0); q < 64; q++ {
			if want := b.SenseKey(q) == truth.SenseKey(q); got.Has(q) != want {
				t.Fatalf("%s vs start, window %s: fast %v, sense keys %v", b.FEN(), q, got.Has(q), want)
			}
		}
	}
}

// TestSenseBenchOnARecordedGame runs the benchmark on one short Trout game:
// every row covers the same turns, no strategy beats the hindsight-best
// window, and the sizes agree with the rows' meaning.
func TestSenseBenchOnARecordedGame(t *testing.T) {
	code, out, errs := runBlindfish(t, context.Background(), "belief", "--sense", "random,size,hsuc", "--time", "500ms", "-q",
		"../../testdata/histories/trout_bot-trout_bot-gen-003.json")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 7 {
			name := f[0]
			if strings.HasPrefix(name, "(") {
				name = f[0] + " " + f[1]
				f = append([]string{name}, f[2:]...)
			}
			rows[name] = f
		}
	}
	num := func(col int, name string) float64 {
		v, err := strconv.ParseFloat(strings.TrimSuffix(rows[name][col], "%"), 64)
		if err != nil {
			t.Fatalf("row %q column %d: %v\n%s", name, col, err, out)
		}
		return v
	}
	names := []string{"random", "size", "hsuc", "(recorded sense)", "(hindsight best)", "(no sense)"}
	turns := num(1, "size")
	for _, n := range names {
		if rows[n] == nil {
			t.Fatalf("no row %q:\n%s", n, out)
		}
		if num(1, n) != turns || turns == 0 {
			t.Errorf("row %q covers %v turns, size covers %v", n, num(1, n), turns)
		}
		if num(2, n) < num(2, "(hindsight best)") {
			t.Errorf("%s leaves fewer boards than the hindsight-best window", n)
		}
	}
	if num(4, "(no sense)") != 0 || num(5, "(hindsight best)") != 100 {
		t.Errorf("reference rows wrong:\n%s", out)
	}
	if num(4, "size") <= num(4, "(no sense)") {
		t.Errorf("the size rule ruled nothing out:\n%s", out)
	}
	if code, _, errs := runBlindfish(t, context.Background(), "belief", "--sense", "bogus", "x.json"); code != 2 || !strings.Contains(errs, `unknown sense strategy "bogus"`) {
		t.Errorf("bad strategy: exit %d %q", code, errs)
	}
}
