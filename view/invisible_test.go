package view

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/invisible/players"
)

// TestInvisiblePage: the page of a played game has a frame per position,
// each belief's heat map sums to the opponent's invisible pieces on the
// board and holds the truth, and the data reads back from the page.
func TestInvisiblePage(t *testing.T) {
	w, _ := players.New("advisor", 3, nil)
	b, _ := players.New("random", 4, nil)
	played, err := invisible.PlayGame(context.Background(), w, b, invisible.Options{Configs: [2]invisible.Config{invisible.N2, invisible.Q1}, TurnLimit: 120})
	if err != nil {
		t.Fatal(err)
	}
	rec := played.Record
	p, err := BuildInvisible(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Frames) != len(rec.Turns)+1 {
		t.Fatalf("%d frames for %d turns", len(p.Frames), len(rec.Turns))
	}
	for i, f := range p.Frames {
		for c := range 2 {
			sum := 0.0
			for _, q := range f.Heat[c] {
				sum += q
			}
			if !f.Truth[c] || sum > 2.0001 || (i == 0 && math.Abs(sum-float64(1+c)) > 1e-9) {
				t.Fatalf("frame %d, side %d: truth %v, heat sums to %v", i, c, f.Truth[c], sum)
			}
		}
		if i > 0 && f.Turn == "" {
			t.Fatalf("frame %d says nothing of its turn", i)
		}
	}
	var buf bytes.Buffer
	if err := WriteInvisible(&buf, p); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	start := strings.Index(page, "const data = ") + len("const data = ")
	end := strings.Index(page[start:], ";\n")
	var back InvisiblePage
	if err := json.Unmarshal([]byte(page[start:start+end]), &back); err != nil || len(back.Frames) != len(p.Frames) {
		t.Fatalf("the page's data does not read back: %v", err)
	}
}
