package repotest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The layout's bars (issue 41): a chess core the games share, records in
// one place, a game reached only through the table of games, the specified
// top level, error prefixes that name their package, and tests that read
// only testdata/.

const module = "github.com/blindfish-rbc/blindfish/"

// listed is one package as `go list -json` shows it.
type listed struct {
	ImportPath string
	Imports    []string
}

// listPackages runs go list over pattern (relative to the repository).
func listPackages(t *testing.T, pattern string) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", pattern)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	var pkgs []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestRulesPackagesImportTheCore: the rules packages import the chess core
// and no record, archive or JSON package; Kriegspiel's packages do not
// import RBC's rules; the opponent model does not import an evaluator.
func TestRulesPackagesImportTheCore(t *testing.T) {
	forbidden := []string{"encoding/json", "archive/tar", "compress/gzip", module + "record"}
	for _, pattern := range []string{"./rbc", "./kriegspiel", "./invisible"} {
		if _, err := os.Stat(filepath.Join(root, pattern)); err != nil {
			continue
		}
		for _, p := range listPackages(t, pattern) {
			if !slices.Contains(p.Imports, module+"chess") {
				t.Errorf("%s does not import the chess core", p.ImportPath)
			}
			for _, imp := range p.Imports {
				for _, f := range forbidden {
					if imp == f || strings.HasPrefix(imp, f+"/") {
						t.Errorf("rules package %s imports %s", p.ImportPath, imp)
					}
				}
			}
		}
	}
	for _, p := range listPackages(t, "./kriegspiel/...") {
		if slices.Contains(p.Imports, module+"rbc") {
			t.Errorf("%s imports rbc", p.ImportPath)
		}
	}
	for _, p := range listPackages(t, "./oppmodel") {
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, module+"evaluator") {
				t.Errorf("oppmodel imports %s", imp)
			}
		}
	}
}

// gameSwitch is a test of a game's name or of a record's game: a
// comparison with, or a case of, a game's name, a variant's prefix, a
// record format's test.
var gameSwitch = regexp.MustCompile(`(==|!=)\s*"(rbc|kriegspiel|invisible)"|"(rbc|kriegspiel|invisible)"\s*(==|!=)|case\s+"(rbc|kriegspiel|invisible)"|HasPrefix\([^)]*"(kriegspiel|invisible)/"|ksrecord\.Is\(|invrecord\.Is\(`)

// TestGamesOnlyThroughTheTable: match, the command line, view and report
// name no game in a switch or a test; they reach a game through the table
// (package game).
func TestGamesOnlyThroughTheTable(t *testing.T) {
	for _, file := range goFiles(t) {
		dir := filepath.ToSlash(filepath.Dir(file))
		if strings.HasSuffix(file, "_test.go") || !slices.Contains([]string{"match", "cmd/blindfish", "view", "report"}, dir) {
			continue
		}
		for i, line := range strings.Split(readFile(t, file), "\n") {
			if code, _, _ := strings.Cut(line, "//"); gameSwitch.MatchString(code) {
				t.Errorf("%s:%d tests a game's name outside the table of games: %s", file, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// TestSpecifiedTopLevel: the top level the project was specified with.
func TestSpecifiedTopLevel(t *testing.T) {
	for _, d := range []string{"engine", "protocol", "sampler", "evaluator", "cmd", "testdata", "chess", "record", "game"} {
		if fi, err := os.Stat(filepath.Join(root, d)); err != nil || !fi.IsDir() {
			t.Errorf("no folder %s/ at the top level", d)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "player")); err == nil {
		t.Error("player/ is back: the players live in engine/")
	}
}

// errorPrefix is an error message that starts with a word and a colon.
var errorPrefix = regexp.MustCompile(`(?:errors\.New|fmt\.Errorf)\(\s*"([a-z][a-z0-9]*): `)

// TestErrorPrefixesNameTheirPackage: an error message that starts with a
// prefix starts with its package's name. The command (package main) names
// its subcommands instead, and a recovered panic keeps Go's own "panic:"
// (a player's failure detail in records reads "... failed: panic: v").
func TestErrorPrefixesNameTheirPackage(t *testing.T) {
	pkgClause := regexp.MustCompile(`(?m)^package (\w+)`)
	for _, file := range goFiles(t) {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		src := readFile(t, file)
		m := pkgClause.FindStringSubmatch(src)
		if m == nil || m[1] == "main" {
			continue
		}
		for _, e := range errorPrefix.FindAllStringSubmatch(src, -1) {
			if e[1] != m[1] && e[1] != "panic" {
				t.Errorf("%s: an error of package %s starts %q", file, m[1], e[1]+":")
			}
		}
	}
}

// TestTestsReadOnlyTestdata: no test reads a file under results/, which
// keeps what a claim needs and may be pruned.
func TestTestsReadOnlyTestdata(t *testing.T) {
	path := regexp.MustCompile(`"(\.\./)+results/`)
	for _, file := range goFiles(t) {
		if !strings.HasSuffix(file, "_test.go") {
			continue
		}
		for i, line := range strings.Split(readFile(t, file), "\n") {
			if path.MatchString(line) {
				t.Errorf("%s:%d reads results/: %s", file, i+1, strings.TrimSpace(line))
			}
		}
	}
}
