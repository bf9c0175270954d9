package repotest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// root is the repository's top folder, seen from this package.
const root = "../.."

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// setupSection returns the README's "Set-up on a fresh machine" section.
func setupSection(t *testing.T) string {
	t.Helper()
	readme := readFile(t, "README.md")
	i := strings.Index(readme, "## Set-up on a fresh machine")
	if i < 0 {
		t.Fatal("README has no \"Set-up on a fresh machine\" section")
	}
	sec := readme[i+1:]
	if j := strings.Index(sec, "\n## "); j >= 0 {
		sec = sec[:j]
	}
	return sec
}

// TestGoVersionAgrees: the Go version the README asks for is go.mod's.
func TestGoVersionAgrees(t *testing.T) {
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(readFile(t, "go.mod"))
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	sec := setupSection(t)
	asked := regexp.MustCompile(`\bGo (\d+\.\d+(?:\.\d+)?)\b`).FindAllStringSubmatch(sec, -1)
	if len(asked) == 0 {
		t.Fatal("the README's set-up section names no Go version")
	}
	for _, a := range asked {
		if a[1] != m[1] {
			t.Errorf("the README's set-up asks for Go %s, go.mod's go line says %s", a[1], m[1])
		}
	}
}

// TestSetupInstallsAsRoot: the install line updates the package lists first
// and runs as root.
func TestSetupInstallsAsRoot(t *testing.T) {
	sec := setupSection(t)
	if !strings.Contains(sec, "sudo apt-get update && sudo apt-get install -y stockfish") {
		t.Errorf("the set-up section's install line should be `sudo apt-get update && sudo apt-get install -y stockfish`:\n%s", sec)
	}
	if !strings.Contains(sec, "cgo") || !strings.Contains(sec, "C compiler") {
		t.Error("the set-up section does not say that the race pass needs cgo and a C compiler")
	}
}

// TestGamesIgnored: the match command's example output folder is ignored.
func TestGamesIgnored(t *testing.T) {
	lines := strings.Split(readFile(t, ".gitignore"), "\n")
	if !slices.Contains(lines, "games/") && !slices.Contains(lines, "/games/") {
		t.Error(".gitignore does not ignore games/")
	}
}

// fakeGo writes a stand-in for the go command that logs its arguments to
// log, answers `go env CGO_ENABLED` with cgo, and fails the test pass named
// by fail ("plain", "race" or "" for neither), and returns its folder.
func fakeGo(t *testing.T, cgo, fail, log string) string {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\n" +
		"if [ \"$1\" = env ] && [ \"$2\" = CGO_ENABLED ]; then echo " + cgo + "; exit 0; fi\n" +
		"echo \"$*\" >> '" + log + "'\n" +
		"case \"$*\" in *-race*) pass=race ;; *) pass=plain ;; esac\n" +
		"if [ \"$pass\" = '" + fail + "' ]; then echo \"fake go: $pass pass FAIL\"; exit 1; fi\n"
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runCITest runs .ci/test with fakeGo(cgo, fail) first on the PATH and
// returns its output, the go calls it made and its error.
func runCITest(t *testing.T, cgo, fail string) (out, ran string, err error) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the .ci scripts are bash scripts for Linux")
	}
	bash, lerr := exec.LookPath("bash")
	if lerr != nil {
		t.Skip("no bash")
	}
	log := filepath.Join(t.TempDir(), "go.log")
	cmd := exec.Command(bash, filepath.Join(root, ".ci", "test"))
	cmd.Env = append(os.Environ(), "PATH="+fakeGo(t, cgo, fail, log)+string(os.PathListSeparator)+os.Getenv("PATH"))
	b, err := cmd.CombinedOutput()
	data, _ := os.ReadFile(log)
	return string(b), string(data), err
}

// ranSuite reports whether the go calls logged in ran include the whole
// suite without the race detector: `go test -count=1 [flags] ./...`.
func ranSuite(ran string) bool {
	for _, line := range strings.Split(ran, "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "test" && slices.Contains(f, "-count=1") &&
			!slices.Contains(f, "-race") && f[len(f)-1] == "./..." {
			return true
		}
	}
	return false
}

// TestRacePassNeedsCgo runs .ci/test with a stand-in go command: with cgo
// it runs the suite and the race pass; without it the suite only, and says
// why the race pass was skipped.
func TestRacePassNeedsCgo(t *testing.T) {
	for _, cgo := range []string{"1", "0"} {
		out, ran, err := runCITest(t, cgo, "")
		if err != nil {
			t.Fatalf("CGO_ENABLED=%s: .ci/test: %v\n%s", cgo, err, out)
		}
		if !ranSuite(ran) {
			t.Errorf("CGO_ENABLED=%s: the suite did not run; go was called with:\n%s", cgo, ran)
		}
		raced := strings.Contains(ran, "-race")
		said := strings.Contains(out, "SKIPPED the race pass") && strings.Contains(out, "cgo")
		if cgo == "1" && (!raced || said) {
			t.Errorf("with cgo: race pass run %v, skip message %v; want it run\n%s", raced, said, out)
		}
		if cgo == "0" && (raced || !said) {
			t.Errorf("without cgo: race pass run %v, skip message %v; want it skipped, saying why\n%s", raced, said, out)
		}
	}
}

// TestCITestRunsBothPasses: a failing pass does not keep .ci/test from
// running the other (a failure under load in one says nothing of the
// other); the script exits non-zero and names each pass that failed, and
// without cgo it still says why the race pass was skipped.
func TestCITestRunsBothPasses(t *testing.T) {
	for _, tc := range []struct {
		cgo, fail string
	}{
		{"1", "plain"}, {"1", "race"}, {"0", "plain"},
	} {
		out, ran, err := runCITest(t, tc.cgo, tc.fail)
		name := "CGO_ENABLED=" + tc.cgo + ", " + tc.fail + " pass failing"
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Errorf("%s: .ci/test: %v, want a non-zero exit\n%s", name, err, out)
		}
		if !ranSuite(ran) {
			t.Errorf("%s: the suite did not run; go was called with:\n%s", name, ran)
		}
		raced := strings.Contains(ran, "-race")
		if tc.cgo == "1" && !raced {
			t.Errorf("%s: the race pass did not run; go was called with:\n%s", name, ran)
		}
		if tc.cgo == "0" && (raced || !strings.Contains(out, "SKIPPED the race pass")) {
			t.Errorf("%s: race pass run %v; want it skipped, saying why\n%s", name, raced, out)
		}
		want := map[string]string{"plain": "FAILED: the plain pass", "race": "FAILED: the race pass"}[tc.fail]
		if !strings.Contains(out, want) {
			t.Errorf("%s: the output does not say %q:\n%s", name, want, out)
		}
		for pass, msg := range map[string]string{"plain": "FAILED: the plain pass", "race": "FAILED: the race pass"} {
			if pass != tc.fail && strings.Contains(out, msg) {
				t.Errorf("%s: the output says %q, but that pass passed:\n%s", name, msg, out)
			}
		}
	}
}

// resultsBudget bounds results/: it holds what a claim needs (tables,
// results logs, compressed archives of the games a claim counts), and a
// clone carries all of it, so bulky logs and superseded runs must go
// rather than grow the repository every session.
const resultsBudget = 20 << 20

// TestResultsWithinBudget adds up the files git tracks under results/.
func TestResultsWithinBudget(t *testing.T) {
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "results").Output()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("git ls-files results: %v", err)
		}
		t.Skipf("not a git checkout: %v", err) // a source archive has no history to bound
	}
	var total int64
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if name == "" {
			continue
		}
		fi, err := os.Stat(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		total += fi.Size()
	}
	if total == 0 {
		t.Fatal("git lists no file under results/")
	}
	if total > resultsBudget {
		t.Errorf("results/ holds %.1f MiB, over its budget of %d MiB: pack loose records (blindfish match --archive) or drop superseded runs", float64(total)/(1<<20), resultsBudget>>20)
	}
	t.Logf("results/: %.1f MiB of %d MiB", float64(total)/(1<<20), resultsBudget>>20)
}

// mdLink matches a Markdown link's target: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// mdHeading matches a Markdown heading line.
var mdHeading = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)

// anchors returns the anchors of a Markdown text's headings as GitHub makes
// them: lower case, punctuation other than '-' and '_' dropped, spaces made
// '-', a repeated anchor suffixed -1, -2, ...
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	inFence := false
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inFence = !inFence
			continue
		}
		if !inFence {
			lines = append(lines, l)
		}
	}
	for _, m := range mdHeading.FindAllStringSubmatch(strings.Join(lines, "\n"), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		for n := 1; out[a]; n++ {
			a = fmt.Sprintf("%s-%d", b.String(), n)
		}
		out[a] = true
	}
	return out
}

// TestDocLinks checks every relative link of README.md and docs/*.md: the
// file it names exists and, with an #anchor, has that heading.
func TestDocLinks(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, filepath.Join(root, "README.md"), filepath.Join(root, "results", "README.md"))
	checked := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := doc
			if file != "" {
				path = filepath.Join(filepath.Dir(doc), file)
			}
			rel, _ := filepath.Rel(root, doc)
			text, err := os.ReadFile(path)
			if err != nil {
				fi, serr := os.Stat(path)
				if serr == nil && fi.IsDir() && anchor == "" {
					checked++
					continue
				}
				t.Errorf("%s links %s: %v", rel, target, err)
				continue
			}
			checked++
			if anchor != "" && strings.HasSuffix(path, ".md") && !anchors(string(text))[anchor] {
				t.Errorf("%s links %s: no heading with that anchor", rel, target)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found in the docs")
	}
	t.Logf("%d relative links checked", checked)
}
