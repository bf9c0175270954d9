package game

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/view"
)

// TestInvisibleMatch plays an invisible-chess match through the runner as
// the command line sets it up: the records are invisible-chess records that
// the table of games owns and re-referees, the variant names the
// configurations, and a page draws a record with both beliefs.
func TestInvisibleMatch(t *testing.T) {
	dir := t.TempDir()
	cfg := match.Config{Games: 4, Initial: 60 * time.Second, Increment: time.Second, Seed: 5, Out: dir, Concurrency: 1}
	g, err := Named("invisible")
	if err != nil {
		t.Fatal(err)
	}
	p := Players{White: "advisor", Black: "random", Option: "2B:1R", DefaultAlternate: true, Resolver: botspec.NewResolver(os.Stderr, "")}
	if err := g.SetUp(context.Background(), &cfg, p); err != nil {
		t.Fatal(err)
	}
	rep, err := match.Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Finished() != 4 {
		t.Fatalf("finished %d of 4", rep.Finished())
	}
	for i, r := range rep.Results {
		if r.Variant != "invisible/2B:1R" || r.Outcome.Reason == "" {
			t.Errorf("game %d: variant %q, outcome %s", i, r.Variant, r.Outcome)
		}
		rec, err := record.LoadRecord(filepath.Join(dir, r.Record))
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		of, err := Of(rec)
		if err != nil || of.Name() != "invisible" {
			t.Fatalf("game %d: the record is %v's (%v)", i, of, err)
		}
		line, ok, err := Check(context.Background(), rec, false)
		if err != nil || !ok || !strings.Contains(line, "ok, invisible/2B:1R") {
			t.Errorf("game %d: check %q %v %v", i, line, ok, err)
		}
		res, err := ReadResult(rec)
		if err != nil || res.Outcome != r.Outcome {
			t.Errorf("game %d: read back %v, played %v (%v)", i, res, r.Outcome, err)
		}
		if i == 0 {
			page := filepath.Join(dir, "game.html")
			if _, err := of.Page(context.Background(), rec, page, view.Options{}); err != nil {
				t.Fatal(err)
			}
			html, _ := os.ReadFile(page)
			if !strings.Contains(string(html), `"heat":[[`) || !strings.Contains(string(html), "belief of Black's invisible pieces") {
				t.Error("the page has no heat maps")
			}
		}
	}
}

// TestInvisibleSetUpRefuses: a bad configuration or bot fails the set-up.
func TestInvisibleSetUpRefuses(t *testing.T) {
	for _, tc := range []struct{ white, option, want string }{
		{"advisor", "3B:1R", "--invisible"},
		{"advisor:depth=x", "2B:1R", "depth"},
		{"nobody", "2B:1R", "unknown invisible-chess bot"},
	} {
		cfg := match.Config{Games: 1}
		err := Invisible{}.SetUp(context.Background(), &cfg, Players{White: tc.white, Black: "random", Option: tc.option, Resolver: botspec.NewResolver(os.Stderr, "")})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SetUp(%s, %s) = %v, want an error about %s", tc.white, tc.option, err, tc.want)
		}
	}
}
