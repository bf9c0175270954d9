package match

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// TestParseShard reads K/N and refuses shards outside the schedule.
func TestParseShard(t *testing.T) {
	for in, want := range map[string]Shard{"0/1": {0, 1}, "3/4": {3, 4}, " 2 / 16 ": {2, 16}} {
		if got, err := ParseShard(in); err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1", "4/4", "-1/4", "0/0", "a/2", "1/b", "1/2/3"} {
		if s, err := ParseShard(in); err == nil {
			t.Errorf("%q accepted as %v", in, s)
		}
	}
	s := Shard{1, 3}
	var games []int
	for i := range 8 {
		if s.Has(i) {
			games = append(games, i)
		}
	}
	if !slices.Equal(games, []int{1, 4, 7}) || s.Count(8) != 3 || s.Count(1) != 0 || s.Count(2) != 1 || (Shard{}).Count(8) != 8 {
		t.Errorf("shard 1/3 of 8: games %v, count %d", games, s.Count(8))
	}
}

// cellsWithoutTimes returns a table's rows without the time/turn columns,
// the only ones that depend on how fast the machine played.
func cellsWithoutTimes(t Table) [][]string {
	var out [][]string
	for _, r := range t.Rows {
		var row []string
		for c, cell := range r {
			if h := t.Header[c]; h != "time/turn bot" && h != "time/turn opp" {
				row = append(row, cell)
			}
		}
		out = append(out, row)
	}
	return out
}

// mergedTable is the merged table (with its SPRT lines) of folders, as
// `match --merge --sprt` shows them.
func mergedTable(t *testing.T, dirs ...string) ([][]string, []string) {
	t.Helper()
	results, bare, err := ReadFolders(dirs, ReadRBCRecord)
	if err != nil || bare != 0 {
		t.Fatalf("read %v: %d bare, %v", dirs, bare, err)
	}
	pairings := GroupPairings(results)
	return cellsWithoutTimes(ResultsTable(pairings, true)), MergedSPRTLines(SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}, pairings)
}

// sameRecords checks that two folders hold byte-identical records of the
// games of cfg's shard.
func sameRecords(t *testing.T, cfg Config, a, b string) {
	t.Helper()
	for i := range cfg.Games {
		if !cfg.Shard.Has(i) {
			continue
		}
		name := cfg.Game(i).Record
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s", name, a, b)
		}
	}
}

// TestShardsMergeToOneRun: the shards of a schedule, played into folders of
// their own or into one shared folder, hold the very records of one run, and
// merged give its table and its SPRT line.
func TestShardsMergeToOneRun(t *testing.T) {
	const games = 10
	one := t.TempDir()
	cfg := testConfig(one, games)
	rep, err := Play(context.Background(), cfg)
	if err != nil || rep.Finished() != games {
		t.Fatalf("one run: %d games, %v", rep.Finished(), err)
	}
	wantTable, wantSPRT := mergedTable(t, one)
	if len(wantTable) != 3 || len(wantSPRT) != 1 {
		t.Fatalf("one run: table %v, SPRT %v", wantTable, wantSPRT)
	}

	// Two shards into two folders.
	var dirs []string
	for k := range 2 {
		dir := t.TempDir()
		c := testConfig(dir, games)
		c.Shard = Shard{k, 2}
		c.Concurrency = 1 + k // how a shard is played does not matter
		rep, err := Play(context.Background(), c)
		if err != nil || rep.Finished() != 5 || rep.Scheduled != 5 {
			t.Fatalf("shard %d/2: %d of %d games, %v", k, rep.Finished(), rep.Scheduled, err)
		}
		for i, r := range rep.Results {
			if (r != nil) != (i%2 == k) {
				t.Errorf("shard %d/2 played game %d: %v", k, i, r != nil)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "results.shard-"+string(rune('0'+k))+"-of-2.jsonl")); err != nil {
			t.Error(err)
		}
		sameRecords(t, c, one, dir)
		dirs = append(dirs, dir)
	}
	gotTable, gotSPRT := mergedTable(t, dirs...)
	if !slices.EqualFunc(gotTable, wantTable, slices.Equal) || !slices.Equal(gotSPRT, wantSPRT) {
		t.Errorf("two shards merged:\n%v\n%v\none run:\n%v\n%v", gotTable, gotSPRT, wantTable, wantSPRT)
	}

	// Three shards into one folder, with an SPRT that stops a whole match
	// after a pair or two: shards play all their games.
	quick := SPRT{Elo0: -400, Elo1: 400, Alpha: 0.45, Beta: 0.45}
	c := testConfig("", games)
	c.SPRT = &quick
	if rep, err := Play(context.Background(), c); err != nil || !rep.Stopped || rep.Finished() == games {
		t.Fatalf("the whole match with the SPRT: stopped %v after %d games, %v", rep.Stopped, rep.Finished(), err)
	}
	shared := t.TempDir()
	for k := range 3 {
		c := testConfig(shared, games)
		c.Shard = Shard{k, 3}
		c.SPRT = &quick
		rep, err := Play(context.Background(), c)
		if err != nil || rep.Finished() != c.Shard.Count(games) || rep.Stopped {
			t.Fatalf("shard %d/3: %d games, stopped %v, %v", k, rep.Finished(), rep.Stopped, err)
		}
	}
	sameRecords(t, cfg, one, shared)
	gotTable, gotSPRT = mergedTable(t, shared)
	if !slices.EqualFunc(gotTable, wantTable, slices.Equal) || !slices.Equal(gotSPRT, wantSPRT) {
		t.Errorf("three shards in one folder:\n%v\n%v\none run:\n%v\n%v", gotTable, gotSPRT, wantTable, wantSPRT)
	}
}

// countingBots counts the players built: two per game started.
func countingBots(n *atomic.Int64) BotFactory {
	return func(spec string, seed int64) (rbc.Player, error) {
		n.Add(1)
		return builtinBots(spec, seed)
	}
}

// TestResumePlaysOnlyWhatIsMissing: a match interrupted after a few games
// and run again plays only the games its folder's log lacks, and ends with
// the records and table of an uninterrupted run; a game logged with other
// colours, another seed or another clock is not taken for the schedule's.
func TestResumePlaysOnlyWhatIsMissing(t *testing.T) {
	const games = 8
	one := t.TempDir()
	if _, err := Play(context.Background(), testConfig(one, games)); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cfg := testConfig(dir, games)
	cfg.Resume = true
	cfg.OnProgress = func(p Progress) {
		if p.Done >= 3 {
			cancel()
		}
	}
	first, err := Play(ctx, cfg)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	logged, err := ReadLog(filepath.Join(dir, LogName))
	if err != nil {
		t.Fatal(err)
	}
	if n := first.Finished(); n < 3 || n == games || len(logged) != n {
		t.Fatalf("interrupted run: %d games finished, %d logged", n, len(logged))
	}

	var built atomic.Int64
	cfg.OnProgress = nil
	cfg.NewBot = countingBots(&built)
	second, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if second.Resumed != len(logged) || second.Finished() != games || built.Load() != int64(2*(games-len(logged))) {
		t.Errorf("resumed %d of %d logged, %d finished, %d players built for %d games", second.Resumed, len(logged),
			second.Finished(), built.Load(), games-len(logged))
	}
	logged, err = ReadLog(filepath.Join(dir, LogName))
	if err != nil {
		t.Fatal(err)
	}
	var numbers []int
	for _, r := range logged {
		numbers = append(numbers, r.Game)
	}
	slices.Sort(numbers)
	if !slices.Equal(numbers, []int{0, 1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("games logged %v, want each once", numbers)
	}
	sameRecords(t, cfg, one, dir)
	gotTable, gotSPRT := mergedTable(t, dir)
	wantTable, wantSPRT := mergedTable(t, one)
	if !slices.EqualFunc(gotTable, wantTable, slices.Equal) || !slices.Equal(gotSPRT, wantSPRT) {
		t.Errorf("resumed:\n%v\n%v\none run:\n%v\n%v", gotTable, gotSPRT, wantTable, wantSPRT)
	}
	if mt := cellsWithoutTimes(MatchTable(cfg.Bot, cfg.Opponent, second.Results)); len(mt) != 3 || mt[2][3] != "8" {
		t.Errorf("the resumed match's own table: %v", mt)
	}

	// A run complete in its folder plays nothing; without Resume it plays
	// everything again.
	built.Store(0)
	if rep, err := Play(context.Background(), cfg); err != nil || rep.Resumed != games || built.Load() != 0 {
		t.Errorf("complete folder: resumed %d, %d players built, %v", rep.Resumed, built.Load(), err)
	}
	cfg.Resume = false
	cfg.Out = t.TempDir()
	for _, name := range []string{LogName} {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		os.WriteFile(filepath.Join(cfg.Out, name), data, 0o644)
	}
	built.Store(0)
	if rep, err := Play(context.Background(), cfg); err != nil || rep.Resumed != 0 || built.Load() != 2*games {
		t.Errorf("without Resume: resumed %d, %d players built, %v", rep.Resumed, built.Load(), err)
	}

	// Only the schedule's own games resume.
	cfg.Resume = true
	for _, c := range []struct {
		name   string
		change func(*Config)
		want   int // games resumed from dir's log
	}{
		{"colours", func(c *Config) { c.Alternate = false }, games / 2}, // odd games had the colours swapped
		{"seed", func(c *Config) { c.Seed++ }, 0},
		{"clock", func(c *Config) { c.Increment = 0 }, 0},
		{"bots", func(c *Config) { c.Bot, c.Opponent = c.Opponent, c.Bot }, 0},
		{"shard", func(c *Config) { c.Shard = Shard{1, 4} }, 2},
	} {
		other := cfg
		other.Out = t.TempDir()
		data, _ := os.ReadFile(filepath.Join(dir, LogName))
		os.WriteFile(filepath.Join(other.Out, LogName), data, 0o644)
		c.change(&other)
		built.Store(0)
		rep, err := Play(context.Background(), other)
		if err != nil || rep.Resumed != c.want || built.Load() != int64(2*(rep.Scheduled-c.want)) {
			t.Errorf("%s changed: resumed %d, want %d; %d players built; %v", c.name, rep.Resumed, c.want, built.Load(), err)
		}
	}
}

// TestResumeSPRT: an SPRT resumed on a folder counts the pairs already
// there, and a verdict they already reach stops the match before any game.
func TestResumeSPRT(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(dir, 6)
	if _, err := Play(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	var built atomic.Int64
	cfg.NewBot, cfg.Resume, cfg.Games = countingBots(&built), true, 40
	// A test that one lopsided pair decides.
	s := SPRT{Elo0: -400, Elo1: 400, Alpha: 0.45, Beta: 0.45}
	cfg.SPRT = &s
	var last Progress
	cfg.OnProgress = func(p Progress) { last = p }
	rep, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The verdict came from the resumed pairs alone, before any game.
	lines := SPRTLine(s, rep.Results, false)
	if !rep.Stopped || built.Load() != 0 || rep.Resumed != 6 || last.Done != 6 || !last.HasLLR ||
		s.Decide(last.LLR) == Continue || last.LLR != s.LLR(func() Penta { p, _ := PentaOf(rep.Results); return p }()) {
		t.Errorf("stopped %v, %d players built, resumed %d, progress %+v; %s", rep.Stopped, built.Load(), rep.Resumed, last, lines)
	}
}

// TestResumeSelfPlay: a bot against itself (the same spec on both sides)
// resumes like any match. The specs cannot tell which side was the bot, so
// the log says it (bot_color); before it did, every logged game read as the
// bot playing White, and a resumed self-play match played its odd games
// (the bot as Black) again, logging them twice.
func TestResumeSelfPlay(t *testing.T) {
	const games = 6
	dir := t.TempDir()
	cfg := testConfig(dir, games)
	cfg.Opponent = cfg.Bot
	cfg.Resume = true
	ctx, cancel := context.WithCancel(context.Background())
	cfg.OnProgress = func(p Progress) {
		if p.Done >= 3 {
			cancel()
		}
	}
	if _, err := Play(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	cancel()
	logged, err := ReadLog(filepath.Join(dir, LogName))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range logged {
		if want := cfg.Game(r.Game).BotColor; r.BotColor != want {
			t.Errorf("game %d read back with the bot as %v, want %v", r.Game, r.BotColor, want)
		}
	}
	cfg.OnProgress = nil
	var built atomic.Int64
	cfg.NewBot = countingBots(&built)
	rep, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Resumed != len(logged) || rep.Finished() != games || built.Load() != int64(2*(games-len(logged))) {
		t.Errorf("resumed %d of %d logged, %d finished, %d players built", rep.Resumed, len(logged), rep.Finished(), built.Load())
	}
	all, err := ReadLog(filepath.Join(dir, LogName))
	if err != nil {
		t.Fatal(err)
	}
	var numbers []int
	for _, r := range all {
		numbers = append(numbers, r.Game)
	}
	slices.Sort(numbers)
	if !slices.Equal(numbers, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("games logged %v, want each once", numbers)
	}

	// The colours a line names count: without --alternate the bot plays
	// White in every game, and the odd games, whose seeds went to the
	// other side, are the schedule's no more.
	other := t.TempDir()
	data, err := os.ReadFile(filepath.Join(dir, LogName))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, LogName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	c := cfg
	c.Alternate, c.Out = false, other
	if rep, err := Play(context.Background(), c); err != nil || rep.Resumed != games/2 {
		t.Errorf("another schedule: resumed %d, %v; want the %d even games", rep.Resumed, err, games/2)
	}

	// A log written before bot_color (every line reads as the bot playing
	// White) still resumes every game.
	old := t.TempDir()
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		lines = append(lines, regexp.MustCompile(`"bot_color":"[a-z]+",`).ReplaceAllString(l, ""))
	}
	if strings.Contains(strings.Join(lines, ""), "bot_color") {
		t.Fatal("bot_color not removed")
	}
	if err := os.WriteFile(filepath.Join(old, LogName), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Out = old
	built.Store(0)
	if rep, err := Play(context.Background(), cfg); err != nil || rep.Resumed != games || built.Load() != 0 {
		t.Errorf("an old log: resumed %d, %d players built, %v", rep.Resumed, built.Load(), err)
	}
}

// TestLogLineBotColor: a line's bot_color must name the side the bot's spec
// plays.
func TestLogLineBotColor(t *testing.T) {
	l := LogLine{Bot: "random", Opponent: "attacker", White: "attacker", Black: "random", BotColor: "black", Clock: "60+1"}
	if r, err := FromLine(l); err != nil || r.BotColor != chess.Black {
		t.Errorf("FromLine = %+v, %v", r, err)
	}
	l.BotColor = "white"
	if _, err := FromLine(l); err == nil {
		t.Error("a bot_color the bot does not play was read")
	}
	l.BotColor = "purple"
	if _, err := FromLine(l); err == nil {
		t.Error("a bad bot_color was read")
	}
}
