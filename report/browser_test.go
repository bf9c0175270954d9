package report

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/blindfish-rbc/blindfish/internal/browsertest"
	"github.com/blindfish-rbc/blindfish/match"
)

// TestBrowser opens a match folder's page and a belief page in headless
// Chromium: every plot is drawn (its SVG has a size and holds lines and
// text), the games table links to the records, the console logs no error,
// and a screenshot of each is saved. It runs when BLINDFISH_BROWSER_TESTS=1
// or CI=true (see internal/browsertest).
func TestBrowser(t *testing.T) {
	exe := browsertest.Chromium(t)
	dir := t.TempDir()
	results := playMatch(t, dir, 6)
	s := match.SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	index := filepath.Join(dir, "index.html")
	p, err := Match(results, NewRecords(), MatchOptions{Title: "random vs attacker", SPRT: &s, Page: index})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(index, p); err != nil {
		t.Fatal(err)
	}
	var runs []BeliefRun
	for i, name := range []string{"exact", "aosp"} {
		run := BeliefRun{Sampler: name, Color: "white", Record: RecordPlace{File: filepath.Join(dir, results[0].Record)}}
		for k := range 8 {
			run.Turns = append(run.Turns, BeliefTurn{Size: 10 * (k + 1) * (i + 1), Entropy: float64(k) / 2, Present: true, Millis: float64(k+1) * 3})
		}
		runs = append(runs, run)
	}
	bp, err := Belief(runs, BeliefOptions{Title: "beliefs", Page: filepath.Join(dir, "belief.html")})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(filepath.Join(dir, "belief.html"), bp); err != nil {
		t.Fatal(err)
	}

	b := browsertest.Open(t, exe, 1300, 1000)
	for _, tc := range []struct {
		page  string
		plots string
	}{{index, "4"}, {filepath.Join(dir, "belief.html"), "4"}} {
		if err := chromedp.Do(b.Ctx, chromedp.Navigate(browsertest.URL(tc.page)), chromedp.WaitVisible(chromedp.CSS("figure svg"))); err != nil {
			t.Fatalf("open %s: %v", tc.page, err)
		}
		// Plots drawn: laid out with a size, with paths (axes, lines) and
		// text (titles, ticks) inside.
		drawn := b.Eval(t, `String([...document.querySelectorAll("figure svg")].filter(s => {
			const r = s.getBoundingClientRect();
			return r.width > 200 && r.height > 100 && s.querySelectorAll("path").length > 3 && s.querySelectorAll("text").length > 3;
		}).length)`)
		if drawn != tc.plots {
			t.Errorf("%s: %s plots drawn, want %s", filepath.Base(tc.page), drawn, tc.plots)
		}
		// Every record link leads to a file of the folder.
		links := b.Eval(t, `[...document.querySelectorAll("td a")].map(a => a.href).join(" ")`)
		if !strings.Contains(links, "file://") || !strings.Contains(links, ".json") {
			t.Errorf("%s: record links %q", filepath.Base(tc.page), links)
		}
		b.Screenshot(t, dir, strings.TrimSuffix(filepath.Base(tc.page), ".html")+".png")
	}
	for _, pr := range b.Problems() {
		t.Error(pr)
	}
}
