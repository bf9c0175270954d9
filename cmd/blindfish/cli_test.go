package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const cliTestGame = "../../testdata/histories/attacker_bot-random_bot-3-000.json"

// TestFlagsAfterArguments runs commands written the way the docs write
// them, with flags after the record: every flag is read wherever it stands,
// "--" ends the flags, and a boolean flag before a file leaves it a file.
func TestFlagsAfterArguments(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "game.html")
	for _, tc := range []struct {
		name string
		args []string
		code int
		// check inspects stdout and stderr; files are checked by name below.
		check func(t *testing.T, stdout, stderr string)
		file  string // a file the command must have written
	}{
		{
			name: "view -o after the record",
			args: []string{"view", "--color", "black", cliTestGame, "-o", page},
			file: page,
			check: func(t *testing.T, stdout, _ string) {
				if !strings.Contains(stdout, page) {
					t.Errorf("stdout does not name the page %s: %q", page, stdout)
				}
			},
		},
		{
			name: "belief --sampler after the record",
			args: []string{"belief", beliefTestGame, "--sampler", "aosp", "--color", "white", "--turns=false"},
			check: func(t *testing.T, stdout, _ string) {
				if !regexp.MustCompile(`(?m)^aosp +1 `).MatchString(stdout) {
					t.Errorf("no aosp totals row over one side:\n%s", stdout)
				}
				if regexp.MustCompile(`(?m)^exact `).MatchString(stdout) {
					t.Errorf("exact ran though --sampler aosp was given:\n%s", stdout)
				}
			},
		},
		{
			name: "replay -q after the record",
			args: []string{"replay", "--check", cliTestGame, "-q"},
			check: func(t *testing.T, stdout, _ string) {
				if stdout != "1/1 games reproduced\n" {
					t.Errorf("stdout %q, want only the summary", stdout)
				}
			},
		},
		{
			name: "bool flag before the record",
			args: []string{"replay", "-q", "--check", cliTestGame},
			check: func(t *testing.T, stdout, _ string) {
				if stdout != "1/1 games reproduced\n" {
					t.Errorf("stdout %q, want only the summary", stdout)
				}
			},
		},
		{
			name: "-- makes a flag-like argument a record",
			args: []string{"replay", "--check", cliTestGame, "--", "-q"},
			code: 1,
			check: func(t *testing.T, stdout, _ string) {
				if !strings.Contains(stdout, "-q: unreadable") || !strings.Contains(stdout, "attacker_bot-random_bot-3-000.json: ok") {
					t.Errorf("want the record ok and -q an unreadable file:\n%s", stdout)
				}
			},
		},
		{
			name: "unknown flag after the record",
			args: []string{"replay", "--check", cliTestGame, "--nosuch"},
			code: 2,
			check: func(t *testing.T, _, stderr string) {
				if !strings.Contains(stderr, "flag provided but not defined: -nosuch") {
					t.Errorf("stderr %q", stderr)
				}
			},
		},
		{
			name: "flag missing its value at the end",
			args: []string{"view", cliTestGame, "--color"},
			code: 2,
			check: func(t *testing.T, _, stderr string) {
				if !strings.Contains(stderr, "flag needs an argument: -color") {
					t.Errorf("stderr %q", stderr)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runBlindfish(t, context.Background(), tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout, stderr)
			}
			tc.check(t, stdout, stderr)
			if tc.file != "" {
				if _, err := os.Stat(tc.file); err != nil {
					t.Errorf("not written: %v", err)
				}
			}
		})
	}
}

// TestFlagsFirst checks the reordering every command's flags go through:
// flags and their values first, then "--", then the positionals in order.
func TestFlagsFirst(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.Bool("q", false, "")
	fs.String("o", "", "")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"none", nil, []string{"--"}},
		{"flags only", []string{"-q", "-o", "x"}, []string{"-q", "-o", "x", "--"}},
		{"flags after files", []string{"a", "-o", "x", "b", "-q"}, []string{"-o", "x", "-q", "--", "a", "b"}},
		{"bool before a file", []string{"-q", "a"}, []string{"-q", "--", "a"}},
		{"bool with a value", []string{"--q=false", "a"}, []string{"--q=false", "--", "a"}},
		{"value with =", []string{"a", "--o=x", "b"}, []string{"--o=x", "--", "a", "b"}},
		{"value that looks like a flag", []string{"-o", "-q", "a"}, []string{"-o", "-q", "--", "a"}},
		{"-- ends flags", []string{"a", "--", "-q", "--", "b"}, []string{"--", "a", "-q", "--", "b"}},
		{"a dash alone is an argument", []string{"-", "-q"}, []string{"-q", "--", "-"}},
		{"unknown flag takes no value", []string{"-x", "a"}, []string{"-x", "--", "a"}},
		{"missing value", []string{"a", "-o"}, []string{"-o"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := flagsFirst(fs, tc.args); !slices.Equal(got, tc.want) {
				t.Errorf("flagsFirst(%q) = %q, want %q", tc.args, got, tc.want)
			}
		})
	}
}

// TestTakeGameFlag: connect finds --game wherever it stands among its flags,
// so that connect --game kriegspiel is the Kriegspiel client after other
// flags' values too.
func TestTakeGameFlag(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		game     string
		wantRest []string
	}{
		{"first", []string{"--game", "kriegspiel", "--username", "bob"}, "kriegspiel", []string{"--username", "bob"}},
		{"after a value", []string{"--username", "bob", "--game", "kriegspiel"}, "kriegspiel", []string{"--username", "bob"}},
		{"with =", []string{"--username", "bob", "-game=rbc"}, "rbc", []string{"--username", "bob"}},
		{"none", []string{"--username", "bob"}, "", []string{"--username", "bob"}},
		{"after --", []string{"--username", "bob", "--", "--game", "kriegspiel"}, "", []string{"--username", "bob", "--", "--game", "kriegspiel"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			game, rest, ok := takeFlag(tc.args, "game", true)
			if game != tc.game || !slices.Equal(rest, tc.wantRest) || ok != (tc.game != "") {
				t.Errorf("takeFlag(%q) = %q, %q, %v; want %q, %q", tc.args, game, rest, ok, tc.game, tc.wantRest)
			}
		})
	}
}

// TestVersion: --version and the version command print the Go version and
// what the build stamped.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		code, stdout, stderr := runBlindfish(t, context.Background(), args...)
		if code != 0 || !strings.HasPrefix(stdout, "blindfish ") || !strings.Contains(stdout, runtime.Version()) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want the Go version %s", args, code, stdout, stderr, runtime.Version())
		}
	}
	if code, _, _ := runBlindfish(t, context.Background(), "version", "extra"); code != 2 {
		t.Errorf("version extra: exit %d, want 2", code)
	}
}

// TestHelpCommand: help CMD prints CMD's usage, as CMD --help does, and
// belief's lists the modes it hands to other flag sets.
func TestHelpCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"help", "view"}, 0, []string{"Usage: blindfish view ", "-o string"}},
		{[]string{"view", "--help"}, 0, []string{"Usage: blindfish view ", "-o string"}},
		{[]string{"help", "replay"}, 0, []string{"Usage: blindfish replay --check"}},
		{[]string{"help", "belief"}, 0, []string{"Usage: blindfish belief ", "-sense STRATEGIES", "-game", "-calibrate"}},
		{[]string{"belief", "--help"}, 0, []string{"-sense STRATEGIES"}},
		{[]string{"help"}, 0, []string{"Commands:", "blindfish help <command>"}},
		{[]string{"help", "nosuch"}, 2, []string{`unknown command "nosuch"`}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, stderr := runBlindfish(t, context.Background(), tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("help lacks %q:\n%s", w, stderr)
				}
			}
			if tc.args[0] == "help" && len(tc.args) > 1 && tc.code == 0 && strings.Contains(stderr, "Commands:") {
				t.Errorf("help %s printed the top-level help:\n%s", tc.args[1], stderr)
			}
		})
	}
}
