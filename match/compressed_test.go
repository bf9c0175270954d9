package match

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// gzipFile writes data compressed to path.
func gzipFile(t *testing.T, path string, data []byte) {
	t.Helper()
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	if _, err := z.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCompressedLogResumesAndMerges: a finished log compressed with gzip
// (results.jsonl.gz) counts as the plain one did: a resumed run plays only
// the games it lacks, into a new plain log, and a merge reads both, each
// game once, also when the plain log was kept beside its compressed copy.
func TestCompressedLogResumesAndMerges(t *testing.T) {
	cfg, data := playedFolder(t, 4)
	plain := filepath.Join(cfg.Out, LogName)
	gzipFile(t, plain+CompressedSuffix, data)
	if err := os.Remove(plain); err != nil {
		t.Fatal(err)
	}

	cfg.Games = 6
	rep, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Resumed != 4 || rep.Finished() != 6 {
		t.Fatalf("resumed %d, finished %d; want the 4 compressed games resumed and 2 played", rep.Resumed, rep.Finished())
	}
	added, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(added, []byte{'\n'}); n != 2 {
		t.Errorf("the resumed run appended %d lines to %s, want 2", n, LogName)
	}

	read := func() int {
		f, err := ReadMatchFolders([]string{cfg.Out}, ReadRBCRecord)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Skipped) > 0 || f.Bare > 0 {
			t.Fatalf("skipped %v, bare %d", f.Skipped, f.Bare)
		}
		return len(f.Results)
	}
	if n := read(); n != 6 {
		t.Errorf("merge read %d games, want 6", n)
	}
	// gzip -k: the plain log stays beside its compressed copy.
	gzipFile(t, plain+CompressedSuffix, append(bytes.Clone(data), added...))
	if n := read(); n != 6 {
		t.Errorf("with a plain log beside its compressed copy the merge read %d games, want 6", n)
	}

	gzipFile(t, filepath.Join(cfg.Out, "results.shard-0-of-2.jsonl.gz"), []byte("not json\n"))
	f, err := ReadMatchFolders([]string{cfg.Out}, ReadRBCRecord)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Skipped) != 1 || len(f.Results) != 6 {
		t.Errorf("a compressed shard log with a bad line: skipped %v, %d games", f.Skipped, len(f.Results))
	}
	if err := os.WriteFile(filepath.Join(cfg.Out, "results.shard-1-of-2.jsonl.gz"), []byte("plain text"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadMatchFolders([]string{cfg.Out}, ReadRBCRecord); err == nil {
		t.Error("a results log named .gz that is not gzip read without an error")
	}
}
