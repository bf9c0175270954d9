package tally

import (
	"errors"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/rbc"
)

func TestCount(t *testing.T) {
	games := []struct {
		us, winner rbc.Color
		hasWinner  bool
		err        error
		want       string
	}{
		{rbc.White, rbc.White, true, nil, "won"},
		{rbc.Black, rbc.White, true, nil, "lost"},
		{rbc.Black, rbc.White, false, nil, "draw"},
		{rbc.Black, rbc.Black, true, nil, "won"},
		{rbc.White, rbc.White, true, errors.New("engine died"), "failed"},
	}
	var c Count
	for i, g := range games {
		if got := c.Add(g.us, g.hasWinner, g.winner, g.err, "failed"); got != g.want {
			t.Errorf("game %d: verdict %q, want %q", i, got, g.want)
		}
	}
	if c != (Count{Won: 2, Drew: 1, Lost: 1, Failed: 1}) {
		t.Errorf("count %+v", c)
	}
	var b strings.Builder
	c.Write(&b, "error-resigned")
	if want := "5 games: 2 won, 1 drawn, 1 lost, 1 error-resigned"; b.String() != want {
		t.Errorf("Write = %q, want %q", b.String(), want)
	}
	b.Reset()
	Count{Won: 1}.Write(&b, "failed")
	if want := "1 games: 1 won, 0 drawn, 0 lost"; b.String() != want {
		t.Errorf("Write = %q, want %q", b.String(), want)
	}
}
