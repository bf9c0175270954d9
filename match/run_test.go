package match

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// builtinBots is the factory of the tests: the engine's built-in bots,
// random and attacker being fast and, with a seed, deterministic.
func builtinBots(spec string, seed int64) (rbc.Player, error) { return engine.NewPlayer(spec, seed) }

// testConfig is a short random-vs-attacker match into dir. The clock is far
// more than the bots need (microseconds a move), so that a loaded machine
// never loses a game on time and every run plays the same games. Random
// loses nearly every game it plays to the end; the turn limit draws some, so
// that tables have more than one kind of result to get wrong.
func testConfig(dir string, games int) Config {
	return Config{
		Bot: "random", Opponent: "attacker", Games: games, Initial: 60 * time.Second, Increment: time.Second,
		Seed: 5, Out: dir, Concurrency: 2, Alternate: true, MoveLimit: 100, TurnLimit: 4, NewBot: builtinBots,
	}
}

// TestPlaySavesWhatItReports: every game of the report has its record and a
// log line, and reading the folder back gives the same games.
func TestPlaySavesWhatItReports(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(dir, 4)
	var calls []Progress
	cfg.OnProgress = func(p Progress) { calls = append(calls, p) }
	rep, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Finished() != 4 || rep.Stopped {
		t.Fatalf("finished %d, stopped %v", rep.Finished(), rep.Stopped)
	}
	if len(calls) != 5 || calls[0].Done != 0 || calls[4].Done != 4 || calls[4].Total != 4 ||
		calls[4].Wins+calls[4].Draws+calls[4].Losses != 4 || calls[4].HasLLR {
		t.Errorf("progress calls %+v", calls)
	}
	for i, r := range rep.Results {
		g := cfg.Game(i)
		if r.Game != i || r.White != g.White || r.Black != g.Black || r.Record != g.Record || r.Clock != "60+1" {
			t.Errorf("game %d: %+v, scheduled %+v", i, r, g)
		}
		h, err := record.LoadHistoryFile(filepath.Join(dir, r.Record))
		if err != nil {
			t.Fatal(err)
		}
		if RBCOutcome(h.Outcome) != r.Outcome || h.WhiteName != r.White {
			t.Errorf("game %d: record %v %s, result %v %s", i, h.Outcome, h.WhiteName, r.Outcome, r.White)
		}
	}
	if g := cfg.Game(1); g.White != "attacker" || g.BotColor != chess.Black || g.Record != "attacker-random-5-001.json" {
		t.Errorf("game 1 does not swap colours: %+v", g)
	}
	read, bare, err := ReadFolders([]string{dir}, ReadRBCRecord)
	if err != nil || bare != 0 || len(read) != 4 {
		t.Fatalf("read back %d games, %d bare: %v", len(read), bare, err)
	}
	byGame := map[int]*Result{}
	for _, r := range read {
		byGame[r.Game] = r
	}
	for i, r := range rep.Results {
		b := byGame[i]
		if b == nil || b.Outcome != r.Outcome || b.Turns != r.Turns || b.BotColor != r.BotColor || b.Seed != 5 {
			t.Errorf("game %d read back as %+v, played %+v", i, b, r)
		}
		for c := range 2 {
			if b == nil {
				break
			}
			if len(r.TurnTimes[c]) != r.Turns[c] || len(b.TurnTimes[c]) != r.Turns[c] {
				t.Errorf("game %d: %v's turn times %v, read back %v, want %d turns", i, chess.Color(c), r.TurnTimes[c], b.TurnTimes[c], r.Turns[c])
			}
		}
	}
	played, merged := MatchTable("random", "attacker", rep.Results), ResultsTable(GroupPairings(read), false)
	if len(played.Rows) != 3 || len(merged.Rows) != 3 {
		t.Fatalf("rows: %v / %v", played.Rows, merged.Rows)
	}
	for i := range played.Rows {
		// Columns up to turns/game do not depend on timing.
		for c := 0; c <= 10; c++ {
			if played.Rows[i][c] != merged.Rows[i][c] {
				t.Errorf("row %d column %s: played %q, read back %q", i, played.Header[c], played.Rows[i][c], merged.Rows[i][c])
			}
		}
	}
}

// TestPlayBotFactoryError: a bot the factory cannot build stops the match
// with the factory's error.
func TestPlayBotFactoryError(t *testing.T) {
	boom := errors.New("no such bot")
	cfg := testConfig("", 3)
	cfg.NewBot = func(spec string, seed int64) (rbc.Player, error) {
		if spec == "attacker" {
			return nil, boom
		}
		return builtinBots(spec, seed)
	}
	rep, err := Play(context.Background(), cfg)
	if !errors.Is(err, boom) || rep.Finished() != 0 {
		t.Errorf("err %v, %d finished", err, rep.Finished())
	}
	if _, err := Play(context.Background(), Config{Games: 1, Concurrency: 1}); err == nil {
		t.Error("a match without a bot factory played")
	}
}

// TestLogLineTurnTimes: a log line keeps each turn's time to three
// significant digits, microseconds and seconds alike, and reads back; a
// line with one list of turn times is an error.
func TestLogLineTurnTimes(t *testing.T) {
	r := &Result{White: "a", Black: "b", BotColor: chess.White, Clock: "1+0", Timed: true, Turns: [2]int{2, 1},
		TurnTimes: [2][]time.Duration{{12345 * time.Nanosecond, 2345678 * time.Microsecond}, {0}}}
	l := r.Line(time.Now())
	want := [][]float64{{0.0000123, 2.35}, {0}}
	if len(l.TurnS) != 2 || !slices.Equal(l.TurnS[0], want[0]) || !slices.Equal(l.TurnS[1], want[1]) {
		t.Fatalf("turn_s %v, want %v", l.TurnS, want)
	}
	back, err := FromLine(l)
	if err != nil {
		t.Fatal(err)
	}
	if back.TurnTimes[0][1] != 2350*time.Millisecond || back.TurnTimes[0][0] != 12300*time.Nanosecond || len(back.TurnTimes[1]) != 1 {
		t.Errorf("read back %v", back.TurnTimes)
	}
	l.TurnS = l.TurnS[:1]
	if _, err := FromLine(l); err == nil || !strings.Contains(err.Error(), "turn_s") {
		t.Errorf("one list: error %v, want one naming turn_s", err)
	}
}

// otherGame is a Referee of a game other than RBC: every game a draw, its
// record a line of text.
type otherGame struct{}

func (otherGame) Variant() string { return "other/rules" }

func (otherGame) Play(context.Context, *Config, Game) (Played, error) {
	return Played{Outcome: Outcome{Reason: "TURN_LIMIT"}, Turns: [2]int{1, 1},
		Save: func(path string) error { return os.WriteFile(path, []byte("other\n"), 0o644) }}, nil
}

// TestResumeKeepsVariantsApart: the games of another game logged in a
// folder are resumed by a match of that game, and by no RBC match of the
// same bots, seed and clock.
func TestResumeKeepsVariantsApart(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Bot: "random", Opponent: "attacker", Games: 2, Initial: 60 * time.Second, Seed: 3, Out: dir,
		Concurrency: 1, Alternate: true, Referee: otherGame{}}
	if _, err := Play(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if n, err := resume(&cfg, dir, make([]*Result, 2)); err != nil || n != 2 {
		t.Errorf("the other game's match resumed %d of 2: %v", n, err)
	}
	rbcCfg := cfg
	rbcCfg.Referee, rbcCfg.NewBot = nil, builtinBots
	if n, err := resume(&rbcCfg, dir, make([]*Result, 2)); err != nil || n != 0 {
		t.Errorf("an RBC match resumed %d games of another game: %v", n, err)
	}
}
