package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// matchTableRows returns the rows of a merged table without the time
// columns (they differ between runs).
func matchTableRows(out string) []string {
	var rows []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) > 14 && (f[2] == "white" || f[2] == "black" || f[2] == "both") {
			rows = append(rows, strings.Join(append(f[:12:12], f[14:]...), " "))
		}
	}
	return rows
}

// TestMatchArchive: match --archive packs the run's records into one
// archive, and every command that reads records reads it: merge (same table
// as the loose folder), replay, belief, analyze and view, by folder, by
// archive, by ARCHIVE:MEMBER and by the record's old path.
func TestMatchArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games")
	}
	ctx := context.Background()
	loose, packed := t.TempDir(), t.TempDir()
	flags := []string{"match", "--white", "random", "--black", "attacker", "--games", "4", "--seed", "3", "--clock", "60+1", "--turn-limit", "6"}
	code, out, errs := runBlindfish(t, ctx, append(flags, "--out", loose)...)
	if code != 0 {
		t.Fatalf("match: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runBlindfish(t, ctx, append(flags, "--out", packed, "--archive")...)
	if code != 0 {
		t.Fatalf("match --archive: exit %d\n%s%s", code, out, errs)
	}
	arc := filepath.Join(packed, "games.tar.gz")
	if !strings.Contains(out, "4 records archived in "+arc) {
		t.Errorf("match --archive does not say where the records went:\n%s", out)
	}
	if left, _ := filepath.Glob(filepath.Join(packed, "*.json")); len(left) != 0 {
		t.Errorf("loose records left: %v", left)
	}
	if _, err := os.Stat(filepath.Join(packed, "results.jsonl")); err != nil {
		t.Errorf("the results log: %v", err)
	}

	_, wantOut, _ := runBlindfish(t, ctx, "match", "--merge", loose)
	code, gotOut, errs := runBlindfish(t, ctx, "match", "--merge", packed)
	if code != 0 {
		t.Fatalf("merge of the archived folder: exit %d\n%s%s", code, gotOut, errs)
	}
	want, got := matchTableRows(wantOut), matchTableRows(gotOut)
	if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("merged table of the archived folder:\n%s\nof the loose one:\n%s", gotOut, wantOut)
	}

	record := "random-attacker-3-000.json"
	for _, arg := range []string{packed, arc} {
		code, out, errs := runBlindfish(t, ctx, "replay", "--check", "-q", arg)
		if code != 0 || lastLine(out) != "4/4 games reproduced" {
			t.Errorf("replay --check %s: exit %d\n%s%s", arg, code, out, errs)
		}
	}
	code, out, errs = runBlindfish(t, ctx, "belief", "--sampler", "los", "--turns=false", arc)
	if code != 0 || !regexp.MustCompile(`(?m)^los +8 `).MatchString(out) {
		t.Errorf("belief of the archive: exit %d\n%s%s", code, out, errs)
	}
	for _, spec := range []string{arc + ":" + record, filepath.Join(packed, record)} {
		code, out, errs := runBlindfish(t, ctx, "analyze", "--color", "white", "--bot", "random", spec)
		if code != 0 || !strings.Contains(out, "agree") {
			t.Errorf("analyze %s: exit %d\n%s%s", spec, code, out, errs)
		}
	}
	code, out, errs = runBlindfish(t, ctx, "view", "--color", "none", filepath.Join(packed, record))
	if code != 0 {
		t.Errorf("view of an archived record: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(packed, "random-attacker-3-000.html")); err != nil {
		t.Errorf("view's page: %v", err)
	}

	// Folders packed after the fact: match --archive DIR.
	code, out, errs = runBlindfish(t, ctx, "match", "--archive", loose)
	if code != 0 || !strings.Contains(out, "4 records archived in "+filepath.Join(loose, "games.tar.gz")) {
		t.Errorf("match --archive DIR: exit %d\n%s%s", code, out, errs)
	}

	// match --merge --archive --html: the page is written once the records
	// are packed, so it links to the archive, not to files now gone.
	both := t.TempDir()
	if code, out, errs := runBlindfish(t, ctx, append(flags[:len(flags):len(flags)], "--out", both, "--index=false")...); code != 0 {
		t.Fatalf("match: exit %d\n%s%s", code, out, errs)
	}
	page := filepath.Join(both, "index.html")
	code, out, errs = runBlindfish(t, ctx, "match", "--merge", "--archive", "--html", page, both)
	if code != 0 || !strings.Contains(out, "4 records archived in "+filepath.Join(both, "games.tar.gz")) ||
		!strings.Contains(out, "page: "+page) || len(matchTableRows(out)) != 3 {
		t.Errorf("match --merge --archive --html: exit %d\n%s%s", code, out, errs)
	}
	html := readPage(t, page)
	if !strings.Contains(html, `<a href="games.tar.gz">games.tar.gz:`+record+`</a>`) || strings.Contains(html, `href="`+record+`"`) {
		t.Errorf("the merged page does not link %s in the archive", record)
	}

	// A bad archive: every reader names it.
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "games.tar.gz"), []byte("not an archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	badArc := filepath.Join(bad, "games.tar.gz")
	for _, args := range [][]string{{"replay", "--check", bad}, {"belief", bad}, {"match", "--merge", bad}, {"view", badArc + ":x.json"}} {
		code, out, errs := runBlindfish(t, ctx, args...)
		if code == 0 || !strings.Contains(out+errs, badArc) || !strings.Contains(out+errs, "not a gzip") {
			t.Errorf("%v with a bad archive: exit %d\n%s%s", args, code, out, errs)
		}
	}
}
