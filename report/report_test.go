package report

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/game"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// playMatch plays a short random-vs-attacker match into dir (fast and
// deterministic bots; the turn limit draws some games, so that the page has
// more than one kind of result) and returns the folder's games as a merge
// reads them.
func playMatch(t *testing.T, dir string, games int) []*match.Result {
	t.Helper()
	cfg := match.Config{
		Bot: "random", Opponent: "attacker", Games: games, Initial: 60 * time.Second, Increment: time.Second,
		Seed: 7, Out: dir, Concurrency: 2, Alternate: true, MoveLimit: 100, TurnLimit: 6,
		NewBot: func(spec string, seed int64) (rbc.Player, error) { return engine.NewPlayer(spec, seed) },
	}
	rep, err := match.Play(context.Background(), cfg)
	if err != nil || rep.Finished() != games {
		t.Fatalf("match: %d of %d games, %v", rep.Finished(), games, err)
	}
	results, _, err := match.ReadFolders([]string{dir}, game.ReadResult)
	if err != nil {
		t.Fatal(err)
	}
	return results
}

// hrefs returns the links of a page, unescaped.
func hrefs(t *testing.T, page string) []string {
	t.Helper()
	var out []string
	for _, m := range regexp.MustCompile(`href="([^"#][^"]*)"`).FindAllStringSubmatch(page, -1) {
		u, err := url.Parse(strings.ReplaceAll(m[1], "&amp;", "&"))
		if err != nil {
			t.Fatalf("bad link %q: %v", m[1], err)
		}
		out = append(out, u.Path)
	}
	return out
}

// TestMatchPage builds a folder's page with an SPRT: the table, one figure
// for the scores, and per pairing the score, the LLR and the time per turn
// over the games; every game links to a record that exists.
func TestMatchPage(t *testing.T) {
	dir := t.TempDir()
	results := playMatch(t, dir, 6)
	s := match.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	index := filepath.Join(dir, "index.html")
	p, err := Match(results, NewRecords(), MatchOptions{Title: "Match <random>", SPRT: &s, Page: index})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(index, p); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	if n := strings.Count(page, "<svg"); n != 4 {
		t.Errorf("%d figures, want 4 (scores; score, LLR and time over the games)", n)
	}
	for _, want := range []string{"<title>Match &lt;random&gt;</title>", "SPRT elo0=0 elo1=50", "Time used per turn",
		"random-attacker-7-000.json", "blindfish view attacker-random-7-001.json", "role=\"img\""} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "ZgotmplZ") || strings.Contains(page, "<?xml") || strings.Contains(page, `width="460.8pt"`) {
		t.Error("page holds a refused URL, an XML prolog or a fixed figure size")
	}
	links := hrefs(t, page)
	if len(links) != 6 {
		t.Errorf("%d links, want one to each record: %v", len(links), links)
	}
	for _, l := range links {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(l))); err != nil {
			t.Errorf("link %q: %v", l, err)
		}
	}
	// A viewer page made since is linked, in place of the command.
	if err := os.WriteFile(filepath.Join(dir, "random-attacker-7-000.html"), []byte("<html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err = Match(results, NewRecords(), MatchOptions{Title: "again", Page: index})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<a href="random-attacker-7-000.html">view</a>`) ||
		strings.Contains(b.String(), "blindfish view random-attacker-7-000.json") {
		t.Error("the viewer page made since is not linked")
	}
	if n := strings.Count(b.String(), "<svg"); n != 3 {
		t.Errorf("without an SPRT, %d figures, want 3", n)
	}
}

// TestMatchPageArchived: once a folder is archived, its games link to the
// archive and the view command names the member.
func TestMatchPageArchived(t *testing.T) {
	dir := t.TempDir()
	playMatch(t, dir, 2)
	if _, _, err := match.Archive(dir, match.ArchiveName(match.Shard{}), nil, game.ReadResult); err != nil {
		t.Fatal(err)
	}
	results, _, err := match.ReadFolders([]string{dir}, game.ReadResult)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "report.html")
	p, err := Match(results, NewRecords(), MatchOptions{Title: "archived", Page: out})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	archive := relPath(filepath.Dir(out), filepath.Join(dir, "games.tar.gz"))
	for _, want := range []string{`href="` + filepath.ToSlash(archive) + `"`, "games.tar.gz:random-attacker-7-000.json",
		"blindfish view " + filepath.ToSlash(archive) + ":random-attacker-7-000.json"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestMatchPageBareAndEmpty: games from records without a results log have
// no times (the page says so and draws no time figure), and a page of no
// games says that instead of failing.
func TestMatchPageBareAndEmpty(t *testing.T) {
	src := filepath.Join("..", "testdata", "histories", "attacker_bot-random_bot-3-000.json")
	h, err := record.LoadHistoryFile(src)
	if err != nil {
		t.Fatal(err)
	}
	r := &match.Result{White: h.WhiteName, Black: h.BlackName, BotColor: chess.White, Outcome: match.RBCOutcome(h.Outcome),
		Turns: [2]int{len(h.Turns[0]), len(h.Turns[1])}, Clock: "?", Record: src}
	p, err := Match([]*match.Result{r}, NewRecords(), MatchOptions{Title: "bare", Page: "x.html"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "<svg"); n != 2 || !strings.Contains(b.String(), "No clock times") {
		t.Errorf("bare game: %d figures (want 2) or no note on times", n)
	}
	p, err = Match(nil, nil, MatchOptions{Title: "none"})
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "No finished games.") || strings.Contains(b.String(), "<svg") {
		t.Errorf("empty page:\n%s", b.String())
	}
}

// TestBeliefPage: four figures with a line per sampler, the summary table,
// and each game once with its record.
func TestBeliefPage(t *testing.T) {
	rec := filepath.Join("..", "testdata", "histories", "attacker_bot-random_bot-3-000.json")
	var runs []BeliefRun
	for i, name := range []string{"exact", "aosp"} {
		for _, c := range []string{"white", "black"} {
			run := BeliefRun{Sampler: name, Color: c, Record: RecordPlace{File: rec}}
			for k := range 5 {
				run.Turns = append(run.Turns, BeliefTurn{Size: (k + 1) * 100 * (i + 1), Entropy: float64(k), Present: k < 4 || i == 0,
					Millis: float64(k) * 0.5})
			}
			runs = append(runs, run)
		}
	}
	summary := TextTable([]string{"sampler", "recall"}, []int{1}, [][]string{{"exact", "100%"}, {"aosp", "90%"}})
	p, err := Belief(runs, BeliefOptions{Title: "belief", Summary: summary, Page: filepath.Join(t.TempDir(), "b.html")})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, "<svg"); n != 4 {
		t.Errorf("%d figures, want 4", n)
	}
	for _, want := range []string{"Belief size after the sense", "Recall", "Time per turn", "Entropy", ">exact<", ">aosp<", "<td class=\"num\">90%</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, "attacker_bot-random_bot-3-000.json</a>"); n != 1 {
		t.Errorf("the game is linked %d times, want once", n)
	}
}

// TestWriteFileLeavesNothingOnError: a page that cannot be written leaves
// no file, partial or temporary.
func TestWriteFileLeavesNothingOnError(t *testing.T) {
	dir := t.TempDir()
	if err := WriteFile(filepath.Join(dir, "missing", "x.html"), &Page{Title: "x"}); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
	// A page whose target is a folder: the rename fails after the write.
	target := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(target, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(target, &Page{Title: "x"}); err == nil {
		t.Error("writing over a folder succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only the folder in the way", len(entries))
	}
}

// TestFigureEscapesNames: a bot name with markup reaches the figures and
// tables as text.
func TestFigureEscapesNames(t *testing.T) {
	r := &match.Result{White: "<b>x</b>", Black: "y&z", BotColor: chess.White, Clock: "1+0", Turns: [2]int{3, 3}, Timed: true,
		Used: [2]time.Duration{time.Second, time.Second}, TurnTimes: [2][]time.Duration{{1, 2, 3}, {1, 2, 3}}}
	p, err := Match([]*match.Result{r}, nil, MatchOptions{Title: "escape"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Write(&b, p); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "<b>x</b>") || !strings.Contains(b.String(), "&lt;b&gt;x&lt;/b&gt;") {
		t.Error("a bot name's markup reached the page")
	}
}

// TestMatchPageKriegspiel: a Kriegspiel match's games are offered to the
// viewer as RBC games are: the command that makes the page, then a link to
// the page once made.
func TestMatchPageKriegspiel(t *testing.T) {
	dir := t.TempDir()
	cfg := match.Config{Bot: "random-a", Opponent: "random-b", Games: 2, Initial: 60 * time.Second, Increment: time.Second,
		Seed: 3, Out: dir, Concurrency: 1, Alternate: true, TurnLimit: 20,
		Referee: game.KriegspielReferee{Rules: kriegspiel.Wild16(), NewBot: func(_ string, seed int64) (kriegspiel.Player, error) {
			return kriegspiel.NewRandomPlayer(uint64(seed)), nil
		}}}
	rep, err := match.Play(context.Background(), cfg)
	if err != nil || rep.Finished() != 2 {
		t.Fatalf("match: %v", err)
	}
	index, err := WriteFolderIndex(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	page := func() string {
		t.Helper()
		data, err := os.ReadFile(index)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	first := rep.Results[0].Record
	if p := page(); !strings.Contains(p, "blindfish view "+first) || strings.Contains(p, "draws RBC") {
		t.Errorf("the index does not offer %s to the viewer:\n%s", first, p)
	}
	viewer := strings.TrimSuffix(first, ".json") + ".html"
	if err := os.WriteFile(filepath.Join(dir, viewer), []byte("<html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteFolderIndex(dir, nil); err != nil {
		t.Fatal(err)
	}
	if p := page(); !strings.Contains(p, `<a href="`+viewer+`">view</a>`) {
		t.Errorf("the viewer page %s made since is not linked", viewer)
	}
}
