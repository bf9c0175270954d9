package analysis

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/record"
)

// TestWriteFollowShowsTheWindow: the heading, a row for each turn from
// From to To, Shown told which turns those are, and the agreement line.
func TestWriteFollowShowsTheWindow(t *testing.T) {
	h, err := record.LoadHistoryFile("../testdata/histories/attacker_bot-random_bot-3-000.json")
	if err != nil {
		t.Fatal(err)
	}
	var shown []bool
	var buf bytes.Buffer
	err = WriteFollow(context.Background(), &buf, &recorder{}, h, Table{Game: "g.json", Bot: "rec", Color: chess.Black,
		Left: time.Minute, From: 2, To: 3, Shown: func(s bool) { shown = append(shown, s) }})
	if err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasPrefix(out, "game: g.json (") || !strings.Contains(out, "bot:  rec as black, told 1m0s left each turn") {
		t.Errorf("heading:\n%s", out)
	}
	var turns []string
	for line := range strings.Lines(out) {
		if f := strings.Fields(line); len(f) > 0 && len(f[0]) == 1 && f[0] >= "0" && f[0] <= "9" {
			turns = append(turns, f[0])
		}
	}
	if strings.Join(turns, ",") != "2,3" || !strings.Contains(out, "agreement over 2 turns") {
		t.Errorf("want turns 2 and 3 and the agreement line:\n%s", out)
	}
	if len(shown) < 3 || shown[0] || !shown[1] || !shown[2] {
		t.Errorf("Shown told %v, want false, true, true", shown)
	}
}

// TestWriteSwingsMarks: a row a move, the summary counting the marks.
func TestWriteSwingsMarks(t *testing.T) {
	h, err := record.LoadHistoryFile("../testdata/histories/attacker_bot-random_bot-3-000.json")
	if err != nil {
		t.Fatal(err)
	}
	e := evaluator.NewEmbedded()
	defer e.Close()
	var buf bytes.Buffer
	if err := WriteSwings(context.Background(), &buf, e, "g.json", h, 1, 300); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	marks := strings.Count(out, "*\n")
	if !strings.HasPrefix(out, "game: g.json (") || marks == 0 ||
		!strings.Contains(out, "7 moves scored, "+string(rune('0'+marks))+" changed the score by 300 cp or more") {
		t.Errorf("%d marks:\n%s", marks, out)
	}
}
