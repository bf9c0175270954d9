package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readPage returns a page's HTML, failing the test when it is missing.
func readPage(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestMatchHTMLAndIndex: a match into --out writes the folder's index.html,
// and --html the page of the match played; --merge --html the merged
// folders' page; each has its plots and links every game to its record.
func TestMatchHTMLAndIndex(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(t.TempDir(), "match.html")
	code, out, errs := runBlindfish(t, context.Background(), "match", "--white", "random", "--black", "attacker",
		"--games", "4", "--clock", "60+1", "--seed", "4", "--turn-limit", "5", "--out", dir, "--sprt", "0,50", "--html", page)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	index := filepath.Join(dir, "index.html")
	// The scores; the score, the LLR and the time per turn over the games.
	for p, html := range matchPages(t, out, 4, "random-attacker-4-000.json", index, page) {
		if !strings.Contains(html, "SPRT elo0=0 elo1=50") {
			t.Errorf("%s: no SPRT line", p)
		}
	}
	if !strings.Contains(readPage(t, page), `href="`+filepath.ToSlash(relTo(t, filepath.Dir(page), filepath.Join(dir, "random-attacker-4-000.json")))+`"`) {
		t.Error("the match page's link to a record is not relative to the page")
	}

	merged := filepath.Join(dir, "merged.html")
	code, out, errs = runBlindfish(t, context.Background(), "match", "--merge", "--html", merged, dir)
	if code != 0 || !strings.Contains(out, "page: "+merged) {
		t.Fatalf("merge: exit %d\n%s%s", code, out, errs)
	}
	if html := readPage(t, merged); strings.Count(html, "<svg") != 3 || !strings.Contains(html, "merged 4 games from 1 folder") {
		t.Errorf("merged page: %d plots", strings.Count(html, "<svg"))
	}

	// --index=false writes none; --html with folders but no --merge is a
	// usage error.
	other := t.TempDir()
	if code, out, errs := runBlindfish(t, context.Background(), "match", "--white", "random", "--black", "attacker",
		"--games", "1", "--clock", "60+1", "--turn-limit", "3", "--out", other, "--index=false"); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(other, "index.html")); err == nil {
		t.Error("--index=false wrote an index")
	}
	if code, _, _ := runBlindfish(t, context.Background(), "match", "--html", "x.html", other); code != 2 {
		t.Errorf("--html with a folder and no --merge: exit %d, want 2", code)
	}
}

// TestMatchIndexOfABadFolder: a folder holding a record that does not parse
// still gets its games played; the index is not written (nor a partial one)
// and stderr says why.
func TestMatchIndexOfABadFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "broken.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runBlindfish(t, context.Background(), "match", "--white", "random", "--black", "attacker",
		"--games", "1", "--clock", "60+1", "--turn-limit", "3", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(errs, "index.html not written") || !strings.Contains(errs, "broken.json") {
		t.Errorf("stderr %q", errs)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".html") || strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	// Asked for explicitly, the same page is an error.
	code, _, errs = runBlindfish(t, context.Background(), "match", "--merge", "--html", filepath.Join(dir, "m.html"), dir)
	if code != 1 || !strings.Contains(errs, "broken.json") {
		t.Errorf("merge --html of a bad folder: exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.html")); err == nil {
		t.Error("a page was written for a folder that does not read")
	}
}

// TestBeliefHTML: belief --html writes the four per-turn plots with a line
// per sampler, the totals table and the game's record link; the text report
// is unchanged.
func TestBeliefHTML(t *testing.T) {
	page := filepath.Join(t.TempDir(), "belief.html")
	code, out, errs := runBlindfish(t, context.Background(), "belief", "--sampler", "exact,aosp", "--pool", "300", "--html", page, beliefTestGame)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.HasPrefix(lastLine(out), "recall ") {
		t.Errorf("last line %q", lastLine(out))
	}
	html := readPage(t, page)
	if n := strings.Count(html, "<svg"); n != 4 {
		t.Errorf("%d plots, want 4", n)
	}
	for _, want := range []string{"Belief size after the sense", "Recall", ">exact<", ">aosp<", "trout_bot-attacker_bot-8-000.json</a>", "mean before"} {
		if !strings.Contains(html, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// A record that does not parse: an error, and no page.
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	page2 := filepath.Join(filepath.Dir(bad), "b.html")
	if code, _, _ := runBlindfish(t, context.Background(), "belief", "--html", page2, bad); code != 1 {
		t.Errorf("bad record: exit %d, want 1", code)
	}
	if _, err := os.Stat(page2); err == nil {
		t.Error("a page was written for a record that does not parse")
	}
}

func relTo(t *testing.T, dir, target string) string {
	t.Helper()
	a, _ := filepath.Abs(dir)
	b, _ := filepath.Abs(target)
	rel, err := filepath.Rel(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// matchPages checks the pages a match wrote: each reported in its output
// out, with plots figures and the record named first linked once; it
// returns each page's HTML by path.
func matchPages(t *testing.T, out string, plots int, first string, pages ...string) map[string]string {
	t.Helper()
	htmls := map[string]string{}
	for _, p := range pages {
		if !strings.Contains(out, "page: "+p+"\n") {
			t.Errorf("page %s not reported:\n%s", p, out)
		}
		html := readPage(t, p)
		if n := strings.Count(html, "<svg"); n != plots {
			t.Errorf("%s: %d plots, want %d", p, n, plots)
		}
		if n := strings.Count(html, first+"</a>"); n != 1 {
			t.Errorf("%s: %s linked %d times", p, first, n)
		}
		htmls[p] = html
	}
	return htmls
}
