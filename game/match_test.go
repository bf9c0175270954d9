package game

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

func kriegspielRandom(_ string, seed int64) (kriegspiel.Player, error) {
	return kriegspiel.NewRandomPlayer(uint64(seed)), nil
}

// TestKriegspielMatch plays a Kriegspiel match through the runner: its games
// are Kriegspiel records the referee reproduces, the results log names the
// variant, and a resumed match plays nothing again.
func TestKriegspielMatch(t *testing.T) {
	dir := t.TempDir()
	cfg := match.Config{Bot: "random-a", Opponent: "random-b", Games: 4, Initial: 60 * time.Second, Increment: time.Second,
		Seed: 3, Out: dir, Concurrency: 2, Alternate: true, TurnLimit: 60,
		Referee: KriegspielReferee{Rules: kriegspiel.Berkeley(), NewBot: kriegspielRandom}}
	rep, err := match.Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Finished() != 4 {
		t.Fatalf("finished %d", rep.Finished())
	}
	for i, r := range rep.Results {
		if r.Variant != "kriegspiel/berkeley" || r.Outcome.Reason == "" {
			t.Errorf("game %d: variant %q, outcome %s", i, r.Variant, r.Outcome)
		}
		data, err := os.ReadFile(filepath.Join(dir, r.Record))
		if err != nil {
			t.Fatal(err)
		}
		if !ksrecord.Is(data) {
			t.Fatalf("game %d: %s is not a Kriegspiel record", i, r.Record)
		}
		rec, err := ksrecord.Read(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rec.Replay(); err != nil {
			t.Errorf("game %d: %v", i, err)
		}
		if rec.Result.ReasonName() != r.Outcome.Reason || rec.White != cfg.Game(i).White {
			t.Errorf("game %d: record %s %s, result %s", i, rec.Result, rec.White, r.Outcome)
		}
		turns := [2]int{}
		for _, tu := range rec.Turns {
			turns[tu.Color]++
		}
		if turns != r.Turns || r.Turns[chess.White] == 0 {
			t.Errorf("game %d: turns %v, record %v", i, r.Turns, turns)
		}
	}
	read, bare, err := match.ReadFolders([]string{dir}, ReadResult)
	if err != nil || bare != 0 || len(read) != 4 {
		t.Fatalf("read back %d games (%d bare): %v", len(read), bare, err)
	}
	p := match.GroupPairings(read)
	if len(p) != 1 || p[0].Key.Variant != "kriegspiel/berkeley" || p[0].Both.Games != 4 {
		t.Errorf("pairings %+v", p)
	}
	// The same match again: everything is resumed. An RBC match of the same
	// bots, seed and clock into the folder would resume nothing of it
	// (match's TestResumeKeepsVariantsApart).
	cfg.Resume = true
	rep, err = match.Play(context.Background(), cfg)
	if err != nil || rep.Resumed != 4 {
		t.Errorf("resumed %d: %v", rep.Resumed, err)
	}

	// The records pack into an archive (match --archive), which the rest
	// reads them from.
	if path, n, err := match.Archive(dir, match.ArchiveName(match.Shard{}), nil, ReadResult); err != nil || n != 4 {
		t.Fatalf("Archive = %s, %d, %v; want 4 records", path, n, err)
	}
	// Without the results log (the records a tournament server saved) the
	// records alone give the same games, bare: no times.
	if err := os.Remove(filepath.Join(dir, match.LogName)); err != nil {
		t.Fatal(err)
	}
	read, bare, err = match.ReadFolders([]string{dir}, ReadResult)
	if err != nil || bare != 4 || len(read) != 4 {
		t.Fatalf("read back %d games (%d bare) from the records alone: %v", len(read), bare, err)
	}
	logged := map[string]*match.Result{}
	for _, r := range rep.Results {
		logged[filepath.Base(r.Record)] = r
	}
	for _, r := range read {
		_, member, _ := strings.Cut(r.Record, ".tar.gz:") // the record's name in the archive
		want := logged[member]
		if want == nil || r.Variant != want.Variant || r.Outcome != want.Outcome || r.Turns != want.Turns ||
			r.White != want.White || r.Black != want.Black || r.Timed {
			t.Errorf("from its record: %+v, logged %+v", r, want)
		}
	}
}

// TestCheckRecord: an RBC history and a Kriegspiel record reproduce (their
// lines say ok, none with quiet), a record of neither kind is unreadable,
// and a tampered history diverges.
func TestCheckRecord(t *testing.T) {
	ctx := context.Background()
	r, err := record.LoadRecord("../testdata/histories/attacker_bot-random_bot-3-000.json")
	if err != nil {
		t.Fatal(err)
	}
	if line, ok, err := Check(ctx, r, false); !ok || err != nil || !strings.HasPrefix(line, r.Name()+": ok, ") {
		t.Errorf("history: %q, %v, %v", line, ok, err)
	}
	if line, ok, err := Check(ctx, r, true); !ok || err != nil || line != "" {
		t.Errorf("history, quiet: %q, %v, %v", line, ok, err)
	}
	tampered := *r
	tampered.Data = []byte(strings.Replace(string(r.Data), `"value": "c3e4"`, `"value": "c3d5"`, 1))
	if line, ok, _ := Check(ctx, &tampered, false); ok || !strings.Contains(line, "diverges") {
		t.Errorf("tampered: %q, %v", line, ok)
	}
	bad := record.Record{Path: "bad.json", Data: []byte("{")}
	if line, ok, err := Check(ctx, &bad, false); ok || err != nil || !strings.HasPrefix(line, "bad.json: unreadable: ") {
		t.Errorf("bad: %q, %v, %v", line, ok, err)
	}

	dir := t.TempDir()
	cfg := match.Config{Bot: "random-a", Opponent: "random-b", Games: 1, Initial: 60 * time.Second, Seed: 3, Out: dir,
		Concurrency: 1, TurnLimit: 20, Referee: KriegspielReferee{Rules: kriegspiel.Berkeley(), NewBot: kriegspielRandom}}
	rep, err := match.Play(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, rep.Results[0].Record))
	if err != nil {
		t.Fatal(err)
	}
	ks := record.Record{Path: "ks.json", Data: data}
	if line, ok, err := Check(ctx, &ks, false); !ok || err != nil || !strings.HasPrefix(line, "ks.json: ok, kriegspiel/berkeley, ") {
		t.Errorf("kriegspiel: %q, %v, %v", line, ok, err)
	}
}

// TestSaveRecord: the folder is made and the record named as a match's
// first game of the seed.
func TestSaveRecord(t *testing.T) {
	h, err := record.LoadHistoryFile("../testdata/histories/attacker_bot-random_bot-3-000.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "new")
	name, err := match.SaveRecord(dir, h, 7)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, match.RecordName(h.WhiteName, h.BlackName, 7, 0, 1)); name != want {
		t.Errorf("saved as %s, want %s", name, want)
	}
	if saved, err := record.LoadHistoryFile(name); err != nil || saved.Outcome != h.Outcome {
		t.Errorf("saved record: %v, %v", saved, err)
	}
}

// TestKriegspielDegradations: the Kriegspiel referee records degradations
// as the RBC one does.
func TestKriegspielDegradations(t *testing.T) {
	cfg := match.Config{Bot: "degrading", Opponent: "random", Games: 2, Initial: 60 * time.Second, Increment: time.Second,
		Seed: 3, Concurrency: 2, Alternate: true, TurnLimit: 20,
		Referee: KriegspielReferee{Rules: kriegspiel.Berkeley(), NewBot: func(spec string, seed int64) (kriegspiel.Player, error) {
			p, err := kriegspielRandom(spec, seed)
			if spec == "degrading" {
				return degradingKriegspiel{p}, err
			}
			return p, err
		}}}
	rep, err := match.Play(context.Background(), cfg)
	if err != nil || rep.Finished() != 2 {
		t.Fatalf("finished %d: %v", rep.Finished(), err)
	}
	if got := column(t, match.MatchTable(cfg.Bot, cfg.Opponent, rep.Results), "degraded"); !slices.Equal(got, []string{"1/-", "1/-", "2/-"}) {
		t.Errorf("degraded %v, want 1/- a game", got)
	}
}

// TestKriegspielFailureVoids: a Kriegspiel bot that fails voids its games,
// while one the question limit resigns loses them.
func TestKriegspielFailureVoids(t *testing.T) {
	for _, c := range []struct {
		wrap func(kriegspiel.Player) kriegspiel.Player
		void bool
	}{
		{func(p kriegspiel.Player) kriegspiel.Player { return failingKriegspiel{p} }, true},
		{func(p kriegspiel.Player) kriegspiel.Player { return stubborn{p} }, false},
	} {
		cfg := match.Config{Bot: "random", Opponent: "other", Games: 2, Initial: 60 * time.Second, Seed: 3, Concurrency: 1, Alternate: true,
			Notice: func(string) {}, TurnLimit: 60,
			Referee: KriegspielReferee{Rules: kriegspiel.Berkeley(), NewBot: func(spec string, seed int64) (kriegspiel.Player, error) {
				p, err := kriegspielRandom(spec, seed)
				if spec == "other" {
					p = c.wrap(p)
				}
				return p, err
			}}}
		rep, err := match.Play(context.Background(), cfg)
		if c.void {
			if !errors.Is(err, match.ErrBotFailed) {
				t.Errorf("failing bot: %v", err)
			}
			if rep.Finished() != 0 || len(rep.Void) != cfg.Games {
				t.Fatalf("%d games counted, %d void; want all %d void", rep.Finished(), len(rep.Void), cfg.Games)
			}
			for _, r := range rep.Void {
				if !r.Outcome.Void() || r.Outcome.HasWinner || [2]string{r.White, r.Black}[r.Outcome.Failed] != "other" {
					t.Errorf("game %d: %s, want void by other", r.Game, r.Outcome)
				}
			}
			continue
		}
		if err != nil || rep.Finished() != 2 || len(rep.Void) != 0 {
			t.Fatalf("question limit: %d counted, %d void, %v", rep.Finished(), len(rep.Void), err)
		}
		for _, r := range rep.Results {
			if r.Outcome.Reason != match.ReasonResign || r.Points() != 2 {
				t.Errorf("question limit: game %d %s, want a win by RESIGN", r.Game, r.Outcome)
			}
		}
	}
}

// TestNewKriegspielReferee builds each bot once and refuses a bad ruleset
// or bot before any game.
func TestNewKriegspielReferee(t *testing.T) {
	var built []string
	newBot := func(spec string, seed int64) (kriegspiel.Player, error) {
		built = append(built, spec)
		if spec == "bad" {
			return nil, errors.New("no bot bad")
		}
		return kriegspielRandom(spec, seed)
	}
	ref, err := NewKriegspielReferee("berkeley", newBot, "a", "b")
	if err != nil || ref.Rules.Name != kriegspiel.Berkeley().Name || strings.Join(built, ",") != "a,b" {
		t.Fatalf("%v %v built %v", ref, err, built)
	}
	if _, err := NewKriegspielReferee("nonsense", newBot, "a"); err == nil || !strings.HasPrefix(err.Error(), "--ruleset: ") {
		t.Errorf("a bad ruleset: %v", err)
	}
	if _, err := NewKriegspielReferee("berkeley", newBot, "a", "bad"); err == nil {
		t.Error("a bad bot: no error")
	}
}

// TestSetUp: each game of the table sets up a match, Kriegspiel's with its
// referee, and an unknown game is refused with the names of the known ones.
func TestSetUp(t *testing.T) {
	ctx := context.Background()
	r := botspec.NewResolver(nil, "")
	for _, g := range Games() {
		var cfg match.Config
		_, _, def := g.Option()
		if err := g.SetUp(ctx, &cfg, Players{White: "random", Black: "random", Option: def, Resolver: r}); err != nil {
			t.Fatalf("%s: %v", g.Name(), err)
		}
		if cfg.Records == nil {
			t.Errorf("%s: no record reader", g.Name())
		}
	}
	var cfg match.Config
	if err := (Kriegspiel{}).SetUp(ctx, &cfg, Players{White: "random", Black: "random", Option: "wild16", Resolver: r}); err != nil || cfg.Referee == nil {
		t.Errorf("kriegspiel: %v, referee %v", err, cfg.Referee)
	}
	if _, err := Named("chess"); err == nil || !strings.Contains(err.Error(), "want rbc or kriegspiel") {
		t.Errorf("chess: %v", err)
	}
}

// column returns the cells of t's column name.
func column(t *testing.T, tab match.Table, name string) []string {
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

// degradingKriegspiel is Kriegspiel's random player reporting one
// emergency turn.
type degradingKriegspiel struct{ kriegspiel.Player }

func (degradingKriegspiel) Degradations() map[string]int { return map[string]int{"emergencies": 1} }

// failingKriegspiel is a Kriegspiel player that cannot start.
type failingKriegspiel struct{ kriegspiel.Player }

func (failingKriegspiel) HandleGameStart(context.Context, chess.Color, kriegspiel.Ruleset, chess.Board, int, string) error {
	return errors.New("no engine")
}

// stubborn asks only a move that is never legal at the start, until the
// referee's question limit resigns it: a loss by its play, not a failure.
type stubborn struct{ kriegspiel.Player }

func (stubborn) ChooseQuestion(context.Context, []kriegspiel.Question, time.Duration) (kriegspiel.Question, error) {
	return kriegspiel.TryMove(chess.Move{From: chess.A1, To: chess.A8}), nil
}
