package match

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Blindfish reports its degradations to the match.
var _ DegradationReporter = (*engine.Player)(nil)

// degradingCounts are what the test's degrading player reports each game.
var degradingCounts = map[string]int{"cutoffs": 2, "late_updates": 1, "failovers": 0}

// degrading is a built-in bot that reports degradingCounts at the end of
// its game, read only once HandleGameEnd has run.
type degrading struct {
	rbc.Player
	ended bool
}

func (d *degrading) HandleGameEnd(ctx context.Context, o rbc.Outcome, h *rbc.History) error {
	d.ended = true
	return d.Player.HandleGameEnd(ctx, o, h)
}

func (d *degrading) Degradations() map[string]int {
	if !d.ended {
		return map[string]int{"read before the game ended": 100}
	}
	return maps.Clone(degradingCounts)
}

// degradingBots builds "degrading" (random that reports degradingCounts)
// and the built-in bots.
func degradingBots(spec string, seed int64) (rbc.Player, error) {
	if spec == "degrading" {
		p, err := engine.NewPlayer("random", seed)
		return &degrading{Player: p}, err
	}
	return builtinBots(spec, seed)
}

// column returns the cells of t's column name.
func column(t *testing.T, tab Table, name string) []string {
	t.Helper()
	c := slices.Index(tab.Header, name)
	if c < 0 {
		t.Fatalf("no column %q in %v", name, tab.Header)
	}
	var out []string
	for _, r := range tab.Rows {
		out = append(out, r[c])
	}
	return out
}

// TestDegradationsInLogAndTable: a player's degradation counts reach the
// results log (per side, zeros left out, null for a side that reports
// none) and the table's degraded column (bot/opponent, "-" where unknown),
// and read back the same from the folder.
func TestDegradationsInLogAndTable(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(dir, 2)
	cfg.Bot, cfg.NewBot = "degrading", degradingBots
	rep, err := Play(context.Background(), cfg)
	if err != nil || rep.Finished() != 2 {
		t.Fatalf("finished %d: %v", rep.Finished(), err)
	}
	want := map[string]int{"cutoffs": 2, "late_updates": 1}
	data, err := os.ReadFile(filepath.Join(dir, LogName))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte{'\n'})
	for _, text := range lines {
		var l LogLine
		if err := json.Unmarshal(text, &l); err != nil {
			t.Fatal(err)
		}
		bot := 0
		if l.BotColor == "black" {
			bot = 1
		}
		if len(l.Degraded) != 2 || !maps.Equal(l.Degraded[bot], want) || l.Degraded[1-bot] != nil {
			t.Errorf("game %d (bot %s): degraded %v, want %v for the bot and null for attacker", l.Game, l.BotColor, l.Degraded, want)
		}
	}
	// Both colours: 3 a game, two games; attacker reports nothing.
	wantCol := []string{"3/-", "3/-", "6/-"}
	if got := column(t, MatchTable(cfg.Bot, cfg.Opponent, rep.Results), "degraded"); !slices.Equal(got, wantCol) {
		t.Errorf("match table: degraded %v, want %v", got, wantCol)
	}
	read, _, err := ReadFolders([]string{dir}, ReadRBCRecord)
	if err != nil {
		t.Fatal(err)
	}
	if got := column(t, ResultsTable(GroupPairings(read), true), "degraded"); !slices.Equal(got, wantCol) {
		t.Errorf("merged table: degraded %v, want %v", got, wantCol)
	}

	// A log line written before the field reads as unknown counts.
	var old map[string]any
	if err := json.Unmarshal(lines[0], &old); err != nil {
		t.Fatal(err)
	}
	delete(old, "degraded")
	oldText, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	r, err := parseLine(oldText)
	if err != nil || r.Degraded[0] != nil || r.Degraded[1] != nil {
		t.Fatalf("old line: %v, degraded %v", err, r.Degraded)
	}
	if got := column(t, MatchTable(cfg.Bot, cfg.Opponent, []*Result{r}), "degraded"); got[0] != "-/-" {
		t.Errorf("old line: degraded %v, want -/-", got)
	}
	if _, err := parseLine(bytes.Replace(lines[0], []byte(`"degraded":[`), []byte(`"degraded":[{},`), 1)); err == nil ||
		!strings.Contains(err.Error(), "degraded") {
		t.Errorf("three sides of degradations read without an error (%v)", err)
	}
}

// TestNoDegradationsNoField: bots that report nothing leave the field out of
// the log, and the table shows their counts as unknown.
func TestNoDegradationsNoField(t *testing.T) {
	dir := t.TempDir()
	rep, err := Play(context.Background(), testConfig(dir, 2))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, LogName))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("degraded")) {
		t.Errorf("log of bots that report nothing names degradations:\n%s", data)
	}
	if got := column(t, MatchTable("random", "attacker", rep.Results), "degraded"); !slices.Equal(got, []string{"-/-", "-/-", "-/-"}) {
		t.Errorf("degraded %v, want -/- throughout", got)
	}
}
