package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/match"
)

// TestFinishMatchWritesThePages: the folder's index and the match's page,
// each said on stdout; nothing archived when nothing was saved.
func TestFinishMatchWritesThePages(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "m.html")
	cfg := &match.Config{Bot: "a", Opponent: "b", Out: dir, Games: 1}
	var out, errs bytes.Buffer
	err := FinishMatch(cfg, &match.Report{}, Finish{Archive: true, Index: true, Page: page}, &out, &errs)
	if err != nil {
		t.Fatal(err)
	}
	want := "page: " + filepath.Join(dir, "index.html") + "\npage: " + page + "\n"
	if out.String() != want || errs.Len() > 0 {
		t.Errorf("stdout %q, stderr %q; want stdout %q", out.String(), errs.String(), want)
	}
	if _, err := os.Stat(page); err != nil {
		t.Error(err)
	}
}

// TestMergeOfAnEmptyFolder: an error that names the folder, and nothing
// printed or written.
func TestMergeOfAnEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "merged.html")
	var out, errs bytes.Buffer
	err := Merge([]string{dir}, nil, nil, Finish{Page: page}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), dir) || out.Len() > 0 {
		t.Errorf("err %v, stdout %q", err, out.String())
	}
	if _, err := os.Stat(page); err == nil {
		t.Error("a page was written")
	}
}
