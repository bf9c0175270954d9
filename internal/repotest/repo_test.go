package repotest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
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
// log and answers `go env CGO_ENABLED` with cgo, and returns its folder.
func fakeGo(t *testing.T, cgo, log string) string {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\n" +
		"if [ \"$1\" = env ] && [ \"$2\" = CGO_ENABLED ]; then echo " + cgo + "; exit 0; fi\n" +
		"echo \"$*\" >> '" + log + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
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
	if runtime.GOOS == "windows" {
		t.Skip("the .ci scripts are bash scripts for Linux")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, cgo := range []string{"1", "0"} {
		log := filepath.Join(t.TempDir(), "go.log")
		cmd := exec.Command(bash, filepath.Join(root, ".ci", "test"))
		cmd.Env = append(os.Environ(), "PATH="+fakeGo(t, cgo, log)+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("CGO_ENABLED=%s: .ci/test: %v\n%s", cgo, err, out)
		}
		data, _ := os.ReadFile(log)
		ran := string(data)
		if !ranSuite(ran) {
			t.Errorf("CGO_ENABLED=%s: the suite did not run; go was called with:\n%s", cgo, ran)
		}
		raced := strings.Contains(ran, "-race")
		said := strings.Contains(string(out), "SKIPPED the race pass") && strings.Contains(string(out), "cgo")
		if cgo == "1" && (!raced || said) {
			t.Errorf("with cgo: race pass run %v, skip message %v; want it run\n%s", raced, said, out)
		}
		if cgo == "0" && (raced || !said) {
			t.Errorf("without cgo: race pass run %v, skip message %v; want it skipped, saying why\n%s", raced, said, out)
		}
	}
}
