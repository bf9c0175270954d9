package tally

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

func TestCount(t *testing.T) {
	games := []struct {
		us, winner chess.Color
		hasWinner  bool
		err        error
		want       string
	}{
		{chess.White, chess.White, true, nil, "won"},
		{chess.Black, chess.White, true, nil, "lost"},
		{chess.Black, chess.White, false, nil, "draw"},
		{chess.Black, chess.Black, true, nil, "won"},
		{chess.White, chess.White, true, errors.New("engine died"), "failed"},
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

// A Tally says each game in its client's words, fills in the verdict of a
// game an error ended, saves what can be saved, and counts the games not
// played among the failed or apart as its words say.
func TestTally(t *testing.T) {
	type result struct {
		us, winner chess.Color
		hasWinner  bool
		save       bool
	}
	words := func(unplayed string) Words[int, result] {
		return Words[int, result]{
			Failed: "broke", FailedCount: "broken", Unplayed: unplayed,
			NotPlayed: func(k int, err error) string { return fmt.Sprintf("#%d skipped: %v", k, err) },
			Played: func(k int, r *result) Game {
				g := Game{Line: fmt.Sprintf("#%d as %s", k, r.us), ID: k, Us: r.us, HasWinner: r.hasWinner,
					Winner: r.winner, Outcome: "over"}
				if r.save {
					g.Save = func(dir string) (string, error) { return fmt.Sprintf("%s/%d.json", dir, k), nil }
				}
				return g
			},
		}
	}
	for _, tc := range []struct {
		name, dir, unplayed string
		want                []string
	}{
		{"unplayed apart", "recs", "not played", []string{
			"#1 as white: won (over), saved recs/1.json",
			"#2 as black: draw (over)",
			"#3 as white: broke: oops, saved recs/3.json",
			"#4 skipped: declined",
			"3 games: 1 won, 1 drawn, 0 lost, 1 broken; 1 not played",
		}},
		{"unplayed failed, nothing saved", "", "", []string{
			"#1 as white: won (over)",
			"#2 as black: draw (over)",
			"#3 as white: broke: oops",
			"#4 skipped: declined",
			"4 games: 1 won, 1 drawn, 0 lost, 2 broken",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			tl := New(tc.dir, &out, nil, words(tc.unplayed))
			tl.WriteSummary() // nothing yet
			tl.Record(1, &result{us: chess.White, winner: chess.White, hasWinner: true, save: true}, nil)
			tl.Record(2, &result{us: chess.Black}, nil)
			tl.Record(3, &result{us: chess.White, save: true}, errors.New("oops"))
			tl.Record(4, nil, errors.New("declined"))
			tl.WriteSummary()
			if got, want := out.String(), strings.Join(tc.want, "\n")+"\n"; got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}
