package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestBotStderrReachesCommandStderr: what an external bot writes to its
// stderr goes to the command's stderr writer (not the process's), for every
// command that builds bots with the botspec resolver.
func TestBotStderrReachesCommandStderr(t *testing.T) {
	// The marker is not in the spec, which error messages quote.
	const marker = "bot-stderr-42"
	bot := "cmd:sh -c 'echo bot-stderr-$((6*7)) >&2'"
	t.Setenv("RBC_PASSWORD", "x")
	for _, args := range [][]string{
		{"match", "--white", bot, "--black", "random", "--games", "1", "--clock", "5+0", "--out", ""},
		{"connect", "--username", "u", "--bot", bot},
	} {
		code, out, errs := runBlindfish(t, context.Background(), args...)
		if code == 0 || !strings.Contains(errs, marker) {
			t.Errorf("%s: exit %d, stderr lacks the bot's %q:\n%s%s", args[0], code, marker, out, errs)
		}
	}
	var out, errs bytes.Buffer
	// The game is played to its end: the bot failed its start and resigned.
	err := runPlay(context.Background(), []string{"--bot", bot, "--clock", "5+0", "--open=false", "--linger", "0s", "--out", t.TempDir()}, &out, &errs)
	if !strings.Contains(errs.String(), marker) {
		t.Errorf("play: %v, stderr lacks the bot's %q:\n%s%s", err, marker, out.String(), errs.String())
	}
}
