package analysis

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/invisible/players"
)

// TestFollowInvisibleAgreesWithItself: a game the advisor played as White
// (seed 3), followed by the same advisor with the same seed, has the bot
// choose every recorded try, in order, at every turn; the belief before
// each turn holds the truth and is the size the side's tracker had.
func TestFollowInvisibleAgreesWithItself(t *testing.T) {
	ctx := context.Background()
	newBot := func(spec string, seed int64) invisible.Player {
		p, err := players.New(spec, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	played, err := invisible.PlayGame(ctx, newBot("advisor", 3), newBot("random", 4), invisible.Options{
		Configs: [2]invisible.Config{invisible.B2, invisible.R1}, TurnLimit: 60, WhiteName: "advisor", BlackName: "random"})
	if err != nil {
		t.Fatal(err)
	}
	rec := played.Record
	var places []int
	if err := rec.Follow(func(i int, _ *invisible.Position, tr [2]*invisible.Tracker) error {
		if i < len(rec.Turns) && rec.Turns[i].Color == chess.White {
			places = append(places, len(tr[chess.White].Belief.Places))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var got []InvisibleDecision
	err = FollowInvisible(ctx, newBot("advisor", 3), rec, chess.White, Table{Left: time.Minute}, func(int) bool { return true }, func(d InvisibleDecision) { got = append(got, d) })
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(places) || len(got) < 10 {
		t.Fatalf("%d decisions, White played %d turns", len(got), len(places))
	}
	for i, d := range got {
		if d.Turn != i+1 || d.Placements != places[i] || d.Truth <= 0 || len(d.Bot) != len(d.Played) {
			t.Errorf("turn %d: %+v (tracker: %d placements)", i+1, d, places[i])
			continue
		}
		for j, m := range d.Bot {
			if m != d.Played[j].Move {
				t.Errorf("turn %d try %d: the bot tries %v, the game %v", d.Turn, j, m, d.Played[j].Move)
			}
		}
	}
}

// TestWriteInvisibleFollow: the table shows the turns asked for, each with
// its belief's size and entropy, and the agreement line.
func TestWriteInvisibleFollow(t *testing.T) {
	ctx := context.Background()
	w, _ := players.New("random", 1, nil)
	b, _ := players.New("random", 2, nil)
	played, err := invisible.PlayGame(ctx, w, b, invisible.Options{Configs: [2]invisible.Config{invisible.N1, invisible.Q1}, TurnLimit: 30, WhiteName: "random", BlackName: "random"})
	if err != nil {
		t.Fatal(err)
	}
	bot, _ := players.New("advisor", 1, nil)
	var out bytes.Buffer
	if err := WriteInvisibleFollow(ctx, &out, bot, played.Record, Table{Game: "g.json", Bot: "advisor", Color: chess.Black, Left: time.Minute, From: 3, To: 5}); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	rows := 0
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) > 4 && (f[0] == "3" || f[0] == "4" || f[0] == "5") {
			rows++
		}
	}
	if rows != 3 || !strings.Contains(s, "first try agrees:") || !strings.Contains(s, "placements") || !strings.Contains(s, "invisible 1N:1Q") {
		t.Errorf("want 3 rows, the heading and the agreement line:\n%s", s)
	}
}
