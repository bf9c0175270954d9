//go:build unix

package repotest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The commands of README.md, results/README.md and docs/*.md are tested as
// written. The rule for the docs' fenced blocks:
//
//   - ```sh (or bash, shell) holds commands only: every line is one, a
//     trailing \ continues it on the next line, a line starting with # is a
//     comment, and a leading "$ " is dropped;
//   - ```console is a transcript: the lines starting with "$ " are commands,
//     the others their output;
//   - any other language (text for usage synopses and output, json, yaml)
//     is never run;
//   - a block without a language is refused, so that a command cannot hide
//     in an unlabelled block.
//
// A block's commands run in order, each in its own bash, in a fresh folder
// that holds links to the repository's folders (testdata/, results/,
// scripts/, ...) and go.mod, so that the paths the docs write resolve and
// what a command writes (games/, game.html) lands in the folder and not in
// the repository. `blindfish` is the binary the test builds from this
// source, first on the PATH, and `go run ./cmd/blindfish` stands for it.
// A command that cannot run here is named in docSkips with the reason.

// docCommand is one command of a doc's fenced block.
type docCommand struct {
	file string // the doc, relative to the repository: "docs/matches.md"
	line int    // the line the command starts on
	text string // as written, continuation lines joined by "\\\n"
}

func (c docCommand) String() string { return fmt.Sprintf("%s:%d: %s", c.file, c.line, c.oneLine()) }

// oneLine is the command with its continuations joined into one line.
func (c docCommand) oneLine() string {
	return strings.Join(strings.Fields(strings.ReplaceAll(c.text, "\\\n", " ")), " ")
}

// docBlock is one fenced block of commands.
type docBlock struct {
	file string
	line int // the line of its opening fence
	cmds []docCommand
}

// commandLangs are the fence languages whose lines are commands; console
// blocks are transcripts whose "$ " lines are.
var commandLangs = []string{"sh", "bash", "shell", "console"}

// parseDocBlocks returns the command blocks of a Markdown text, and an
// error for a fenced block that has no language or that never closes.
func parseDocBlocks(file, text string) ([]docBlock, error) {
	var blocks []docBlock
	var cur *docBlock
	lang, fenceLine := "", 0
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(trimmed, "```") {
			if fenceLine == 0 {
				fenceLine = i + 1
				lang = strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))
				if lang == "" {
					return nil, fmt.Errorf("%s:%d: a fenced block without a language: label it sh (commands), console (a transcript) or text (output, a synopsis)", file, i+1)
				}
				if slices.Contains(commandLangs, lang) {
					blocks = append(blocks, docBlock{file: file, line: i + 1})
					cur = &blocks[len(blocks)-1]
				}
			} else {
				fenceLine, cur = 0, nil
			}
			continue
		}
		if cur == nil {
			continue
		}
		if lang == "console" {
			if !strings.HasPrefix(trimmed, "$ ") {
				continue // output
			}
		} else if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		start := i
		text := strings.TrimPrefix(trimmed, "$ ")
		for strings.HasSuffix(text, "\\") && i+1 < len(lines) {
			i++
			text += "\n" + strings.TrimSpace(lines[i])
		}
		cur.cmds = append(cur.cmds, docCommand{file: file, line: start + 1, text: text})
	}
	if fenceLine != 0 {
		return nil, fmt.Errorf("%s:%d: a fenced block that never closes", file, fenceLine)
	}
	return blocks, nil
}

// docSkip names commands the test does not run, and why. Every rule must
// match some command: a rule the docs no longer need fails the test.
type docSkip struct {
	re     *regexp.Regexp // matched against the command on one line
	reason string
	// shortOnly: run in the plain pass, skipped under -short (the race
	// pass), where running the same binary again adds nothing.
	shortOnly bool
}

// The reasons, also the keys of the count the test logs.
const (
	skipInstall   = "installs system packages as root (.ci/run does it for CI)"
	skipSuite     = "is the test suite, which runs this test"
	skipGoTest    = "runs a package's tests, benchmarks or fuzzer (.ci/test runs the tests; the test or fuzz target it names is checked to exist)"
	skipHarness   = "needs the reconchess harness or its bots (pip install reconchess; CI has neither)"
	skipNetwork   = "plays on a public server (rbc.jhuapl.edu, kriegspiel.org) or clones from GitHub: needs the network and an account"
	skipLocalSite = "plays a local kriegspiel.org against bot-simple-heuristics, a Python bot cloned from GitHub, with a server left running in the background"
	skipKsGame    = "regenerates the Kriegspiel reference data with ks-game, the reference referee cloned from GitHub"
	skipSlurm     = "needs a Slurm cluster and a shared folder (TestMatchSlurmArray runs the scripts on a one-node cluster)"
	skipLong      = "plays hundreds or thousands of games (hours)"
	skipViewBot   = "asks the Blindfish bot at each of Black's 28 turns with 60 s on its clock: about 90 s of CPU, the whole budget of this test"
	skipViewBench = "the viewer's size and speed benchmark: minutes of CPU for a 60-turn game of random movers, and Chromium"
	skipSlowShort = "makes both exact beliefs of a 56-turn game (about 20 s of CPU): run in the plain pass only"
	skipPerson    = "serves a game for a person to play in a browser, and waits for them (TestBrowserPlay plays it)"
	skipFirst     = "plays Blindfish for four games (about two minutes of two cores): run in the plain pass only"
)

var docSkips = []docSkip{
	{re: regexp.MustCompile(`^sudo apt-get `), reason: skipInstall},
	{re: regexp.MustCompile(`^bash \.ci/test$`), reason: skipSuite},
	{re: regexp.MustCompile(`(^|\s)go test\s`), reason: skipGoTest},
	{re: regexp.MustCompile(`(^|\s)rc-(bot-match|connect)\s|py:reconchess\.`), reason: skipHarness},
	{re: regexp.MustCompile(`^(\S+=\S+ )*blindfish connect\b.*--url http://127\.0\.0\.1|^cd bot-simple-heuristics|^KRIEGSPIEL_API_BASE=|blindfish ksserver .*&$`), reason: skipLocalSite},
	{re: regexp.MustCompile(`^(\S+=\S+ )*blindfish connect\b`), reason: skipNetwork},
	{re: regexp.MustCompile(`^git clone |^export PYTHONPATH=|dump_reference\.py`), reason: skipKsGame},
	{re: regexp.MustCompile(`^scripts/slurm/|(^|\W)sbatch\s`), reason: skipSlurm},
	{re: regexp.MustCompile(`\bmatch\b.*--games [0-9]{3,}`), reason: skipLong},
	{re: regexp.MustCompile(`\binvisible (table1|table2|figure3|versus)\b.*--(decisive|games) [0-9]{3,}`), reason: skipLong},
	{re: regexp.MustCompile(`\bview --color black --bot blindfish testdata/histories/random_bot-trout_bot-gen-001\.json`), reason: skipViewBot},
	{re: regexp.MustCompile(`^go build -o blindfish |random_bot-random_bot-1-024\.json|scripts/pagetime`), reason: skipViewBench},
	{re: regexp.MustCompile(`\bview testdata/histories/random_bot-trout_bot-gen-001\.json -o game\.html$`), reason: skipSlowShort, shortOnly: true},
	{re: regexp.MustCompile(`\bblindfish play\b`), reason: skipPerson},
	{re: regexp.MustCompile(`\bmatch --white blindfish --black attacker --games 4 --clock 30\+0\.3 --out games/$`), reason: skipFirst, shortOnly: true},
}

// docWantFail names the commands the docs show failing: they must exit
// non-zero, and their stderr must say what the docs say.
var docWantFail = []struct {
	re     *regexp.Regexp
	stderr string
}{
	{regexp.MustCompile(`--black "cmd:/nonexistent/engine"`), `failed in every game it played (2)`},
}

// docCommandTimeout bounds one command. The ones the test runs take seconds
// on a quiet machine; it guards against a hang, not slowness: at nice 19
// beside two busy matches `blindfish view` of one record ran past 3 minutes.
const docCommandTimeout = 15 * time.Minute

// TestDocumentedCommands runs every command of the docs' sh and console
// blocks (see the rule above), and fails naming the doc's file and line
// and the command's stderr when one exits non-zero.
func TestDocumentedCommands(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append([]string{filepath.Join(root, "README.md"), filepath.Join(root, "results", "README.md")}, docs...)
	var blocks []docBlock
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, doc)
		b, err := parseDocBlocks(filepath.ToSlash(rel), string(data))
		if err != nil {
			t.Error(err)
			continue
		}
		blocks = append(blocks, b...)
	}
	if t.Failed() {
		return
	}

	bin := buildBlindfish(t)
	_, pyErr := exec.LookPath("python3")
	before := repoStatus(t)

	found, ran, unreached, visited := 0, 0, 0, 0
	skipped := map[string]int{}
	used := make([]bool, len(docSkips))
	for _, b := range blocks {
		found += len(b.cmds)
		reached := 0 // a failure ends its block: the rest need its output
		t.Run(fmt.Sprintf("%s:%d", b.file, b.line), func(t *testing.T) {
			visited++
			dir := docWorkDir(t)
			for _, c := range b.cmds {
				reached++
				checkPaths(t, c)
				reason := ""
				for i, s := range docSkips {
					if s.re.MatchString(c.oneLine()) {
						used[i] = true
						if !s.shortOnly || testing.Short() {
							reason = s.reason
						}
						break
					}
				}
				if reason == skipGoTest {
					checkGoTestTargets(t, c)
				}
				if reason == "" && pyErr != nil && (strings.Contains(c.text, "python3 ") || strings.Contains(c.text, "py:")) {
					if os.Getenv("CI") == "true" {
						t.Errorf("%s: needs python3, which CI must have: %v", c, pyErr)
						return
					}
					reason = "needs python3, not found here"
				}
				if reason != "" {
					skipped[reason]++
					t.Logf("skipped %s\n\t(%s)", c, reason)
					continue
				}
				if !checkOutputs(t, c) {
					return
				}
				ran++
				if !runDocCommand(t, c, dir, bin) {
					return // the block's later commands may need this one's output
				}
			}
		})
		unreached += len(b.cmds) - reached
	}
	for i, s := range docSkips {
		if !used[i] && visited == len(blocks) { // not when -run picks blocks
			t.Errorf("docSkips rule %q (%s) matches no command of the docs: remove it", s.re, s.reason)
		}
	}
	if found == 0 {
		t.Fatal("no command found in the docs' sh blocks")
	}
	if after := repoStatus(t); before != nil && after != nil {
		for p := range after {
			if !before[p] {
				t.Errorf("a documented command wrote into the repository: %s", p)
			}
		}
	}

	reasons := make([]string, 0, len(skipped))
	total := 0
	for r, n := range skipped {
		reasons = append(reasons, fmt.Sprintf("\t%d: %s", n, r))
		total += n
	}
	slices.Sort(reasons)
	t.Logf("%d commands in %d blocks: %d run, %d not reached after a failure, %d skipped:\n%s", found, len(blocks), ran, unreached, total, strings.Join(reasons, "\n"))
}

// buildBlindfish builds ./cmd/blindfish into a temporary folder and returns
// that folder, which the commands get first on their PATH.
func buildBlindfish(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to build blindfish with: %v", err)
	}
	bin := t.TempDir()
	cmd := exec.Command(goTool, "build", "-o", filepath.Join(bin, "blindfish"), "./cmd/blindfish")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/blindfish: %v\n%s", err, out)
	}
	return bin
}

// docWorkDir makes a folder where the docs' repository-relative paths
// resolve: a link to each of the repository's folders (but games/, where
// the docs write, and hidden ones) and to go.mod and go.sum.
func docWorkDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	abs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		link := e.IsDir() && !strings.HasPrefix(name, ".") && name != "games" && name != "out"
		if !link && name != "go.mod" && name != "go.sum" {
			continue
		}
		if err := os.Symlink(filepath.Join(abs, name), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runDocCommand runs c in dir with bin first on the PATH, and reports
// whether it did what the docs say (exit 0, or the failure docWantFail
// names).
func runDocCommand(t *testing.T, c docCommand, dir, bin string) bool {
	t.Helper()
	script := strings.ReplaceAll(c.text, "go run ./cmd/blindfish", "blindfish")
	ctx, cancel := context.WithTimeout(context.Background(), docCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	// Its own process group, so that the timeout ends the whole pipeline.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start).Round(time.Millisecond)
	if ctx.Err() != nil {
		t.Errorf("%s\n\tran past %v and was stopped; its stderr ends:\n%s", c, docCommandTimeout, tail(stderr.String()))
		return false
	}
	for _, f := range docWantFail {
		if !f.re.MatchString(c.oneLine()) {
			continue
		}
		var exit *exec.ExitError
		switch {
		case !errors.As(err, &exit):
			t.Errorf("%s\n\tthe docs show it failing, but it exited with %v", c, err)
		case !strings.Contains(stderr.String(), f.stderr):
			t.Errorf("%s\n\tfailed, but its stderr does not say %q:\n%s", c, f.stderr, tail(stderr.String()))
		default:
			t.Logf("ran %s (%v; failed as the docs show)", c, took)
		}
		return true
	}
	if err != nil {
		t.Errorf("%s\n\tfailed as written: %v; its stderr ends:\n%s\n\tits stdout ends:\n%s", c, err, tail(stderr.String()), tail(stdout.String()))
		return false
	}
	t.Logf("ran %s (%v)", c, took)
	return true
}

// tail returns the last lines of a command's output.
func tail(s string) string {
	const most = 2000
	if len(s) > most {
		s = "…" + s[len(s)-most:]
	}
	return s
}

// repoPaths are the first segments of repository paths that a command's
// arguments name as inputs.
var repoPaths = regexp.MustCompile(`^(\./)?(cmd|scripts|protocol|testdata|docs)/`)

// checkPaths checks that each file or folder of the repository that c
// names exists, run or not: a skipped command's paths stay right too.
func checkPaths(t *testing.T, c docCommand) {
	t.Helper()
	words := strings.Fields(c.oneLine())
	for i, w := range words {
		if i > 0 && slices.Contains(outputFlags, words[i-1]) {
			continue // an output
		}
		w = strings.Trim(w, `"'`)
		for _, p := range []string{"py:", "cmd:"} {
			w = strings.TrimPrefix(w, p)
		}
		if !repoPaths.MatchString(w) || strings.ContainsAny(w, "*?$") {
			continue
		}
		if archive, _, ok := strings.Cut(w, ".tar.gz:"); ok {
			w = archive + ".tar.gz" // ARCHIVE:MEMBER names a record in an archive
		}
		if _, err := os.Stat(filepath.Join(root, w)); err != nil {
			t.Errorf("%s\n\tnames %s, which the repository does not have", c, w)
		}
	}
}

// outputFlags are the flags and redirection whose next word is a file or
// folder a command writes.
var outputFlags = []string{">", ">>", "-o", "--out", "--html"}

// checkOutputs checks that what c writes lands in the folder it runs in: an
// absolute output path (/tmp/x) is shared by every run of the command, and
// a second run resumes from the first one's games.
func checkOutputs(t *testing.T, c docCommand) bool {
	t.Helper()
	words := strings.Fields(c.oneLine())
	for i := 1; i < len(words); i++ {
		if slices.Contains(outputFlags, words[i-1]) && filepath.IsAbs(strings.Trim(words[i], `"'`)) {
			t.Errorf("%s\n\twrites %s: write a path relative to the current folder (games/NAME), as the other examples do", c, words[i])
			return false
		}
	}
	return true
}

// goTestTarget matches the test, benchmark or fuzz target a go test
// command names.
var goTestTarget = regexp.MustCompile(`-(?:run|fuzz|bench) ((?:Test|Fuzz|Benchmark)\w+)`)

// checkGoTestTargets checks that the package a skipped go test command
// names exists and has the test or fuzz target it names.
func checkGoTestTargets(t *testing.T, c docCommand) {
	t.Helper()
	var pkg string
	for _, w := range strings.Fields(c.oneLine()) {
		if strings.HasPrefix(w, "./") {
			pkg = strings.TrimSuffix(strings.TrimSuffix(w, "..."), "/")
		}
	}
	if pkg == "" {
		t.Errorf("%s\n\tnames no package", c)
		return
	}
	files, err := filepath.Glob(filepath.Join(root, pkg, "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Errorf("%s\n\tnames %s, which has no tests", c, pkg)
		return
	}
	for _, m := range goTestTarget.FindAllStringSubmatch(c.oneLine(), -1) {
		found := false
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(data, []byte("func "+m[1]+"(")) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s\n\tnames %s, which %s does not have", c, m[1], pkg)
		}
	}
}

// repoStatus returns the paths git reports changed or untracked (not
// ignored) in the repository, or nil outside a git checkout.
func repoStatus(t *testing.T) map[string]bool {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=all").Output()
	if err != nil {
		t.Logf("not checking that the commands leave the repository alone: git status: %v", err)
		return nil
	}
	paths := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		paths[sc.Text()] = true
	}
	return paths
}

// TestParseDocBlocks: the rule for fenced blocks (see the top of this
// file): sh lines with comments and continuations, a console transcript's
// "$ " lines, text and json never, and a block without a language refused.
func TestParseDocBlocks(t *testing.T) {
	doc := "intro\n" +
		"```sh\n" + // line 2
		"# a comment\n" +
		"blindfish match --white random \\\n" + // line 4
		"    --black attacker   # trailing\n" +
		"\n" +
		"$ go run ./cmd/blindfish view x.json\n" + // line 7
		"```\n" +
		"```console\n" + // line 9
		"$ blindfish match --merge games/x\n" + // line 10
		"merged 8 games\n" +
		"```\n" +
		"```text\n" +
		"blindfish belief [--json] FILE...\n" +
		"```\n" +
		"```json\n{\"a\": 1}\n```\n"
	blocks, err := parseDocBlocks("d.md", doc)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range blocks {
		for _, c := range b.cmds {
			got = append(got, fmt.Sprintf("%d@%d %s", b.line, c.line, c.oneLine()))
		}
	}
	want := []string{
		"2@4 blindfish match --white random --black attacker # trailing",
		"2@7 go run ./cmd/blindfish view x.json",
		"9@10 blindfish match --merge games/x",
	}
	if !slices.Equal(got, want) {
		t.Errorf("commands:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if c := blocks[0].cmds[0].text; c != "blindfish match --white random \\\n--black attacker   # trailing" {
		t.Errorf("the continued command's text is %q: bash should get its lines as written", c)
	}

	for _, bad := range []string{"```\nblindfish match\n```\n", "```sh\nblindfish match\n"} {
		if _, err := parseDocBlocks("d.md", bad); err == nil || !strings.Contains(err.Error(), "d.md:1:") {
			t.Errorf("parseDocBlocks(%q) = %v, want an error at d.md:1", bad, err)
		}
	}
}
