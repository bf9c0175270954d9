package repotest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Size bars of the code (issue 27): a function longer than a screen or two
// hides more than one step, a command-line tool that grows does package
// work, and a player with many fields mixes concerns.
const (
	maxFuncLines     = 120
	maxCLILines      = 1500
	maxPlayerFields  = 15
	cliDir           = "cmd/blindfish"
	playerStructFile = "engine/player.go"
)

// goFiles returns the repository's Go files, relative to root, tests
// included.
func goFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "results") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no Go files found")
	}
	return files
}

// TestNoLongFunctions: no function or method in the repository, tests
// included, is over maxFuncLines lines from its signature to its closing
// brace.
func TestNoLongFunctions(t *testing.T) {
	fset := token.NewFileSet()
	for _, name := range goFiles(t) {
		f, err := parser.ParseFile(fset, filepath.Join(root, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
				t.Errorf("%s: %s is %d lines, over %d: split it into named steps", name, fd.Name.Name, n, maxFuncLines)
			}
		}
	}
}

// TestCLIThin: the command-line tool's non-test code stays within
// maxCLILines lines; its work belongs in the packages it wires.
func TestCLIThin(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(root, cliDir))
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		lines += strings.Count(readFile(t, filepath.Join(cliDir, e.Name())), "\n")
	}
	if lines == 0 || lines > maxCLILines {
		t.Errorf("%s has %d non-test lines, want 1 to %d", cliDir, lines, maxCLILines)
	}
	t.Logf("%s: %d non-test lines of %d", cliDir, lines, maxCLILines)
}

// TestPlayerLean: the player's struct keeps at most maxPlayerFields
// fields; a new concern gets a type of its own.
func TestPlayerLean(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, playerStructFile), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	fields := -1
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Player" {
			return true
		}
		if st, ok := ts.Type.(*ast.StructType); ok {
			fields = 0
			for _, fl := range st.Fields.List {
				fields += max(len(fl.Names), 1)
			}
		}
		return false
	})
	switch {
	case fields < 0:
		t.Fatalf("%s declares no struct Player", playerStructFile)
	case fields > maxPlayerFields:
		t.Errorf("Player has %d fields, over %d", fields, maxPlayerFields)
	}
	t.Logf("Player: %d fields of %d", fields, maxPlayerFields)
}
