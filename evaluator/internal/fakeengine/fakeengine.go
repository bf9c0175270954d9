// Package fakeengine is a scriptable UCI engine for tests. A test binary
// re-executes itself with EnvMode set; its TestMain (or a test init
// function) calls Main, which then acts as an engine on standard input and
// output instead of running tests.
package fakeengine

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// Environment variables read by Main.
const (
	// EnvMode selects the engine's behaviour (one of the Mode constants).
	EnvMode = "BLINDFISH_FAKE_ENGINE"
	// EnvDelay is a time.Duration string used by ModeSlow (default 300ms).
	EnvDelay = "BLINDFISH_FAKE_DELAY"
	// EnvExitIfExists names a file: while it exists, the engine exits with
	// status 5 at start (to make restarts fail on demand).
	EnvExitIfExists = "BLINDFISH_FAKE_EXIT_IF_EXISTS"
)

// Modes of the fake engine.
const (
	// ModeNormal answers promptly and correctly.
	ModeNormal = "normal"
	// ModeHang completes the handshake, then ignores everything from the
	// first "go" on (stop, isready, quit, end of input) and never exits.
	ModeHang = "hang"
	// ModeDie prints one info line on "go" and exits with status 3.
	ModeDie = "die"
	// ModeGarbage prints one info line and then a garbage line on "go",
	// then stays silent.
	ModeGarbage = "garbage"
	// ModeSlow delays every answer by EnvDelay; a search lasts EnvDelay
	// unless stopped, and "stop" is honoured at once.
	ModeSlow = "slow"
	// ModeSilent never answers anything, not even "uci", and never exits
	// on its own.
	ModeSilent = "silent"
	// ModeExit exits with status 4 before reading anything.
	ModeExit = "exit"
)

// In ModeNormal (and ModeSlow) some depths trigger failures, so that one
// engine can be driven into any failure by the search it is given.
const (
	// DepthHang: the search never ends and stop is ignored.
	DepthHang = 91
	// DepthDie: the engine exits mid-search with status 3.
	DepthDie = 92
	// DepthGarbage: the engine prints a garbage line mid-search.
	DepthGarbage = 93
	// DepthLong: the search runs until "stop" (or 10 s).
	DepthLong = 94
	// DepthLateStop: the search runs until "stop" (or 10 s), and the
	// bestmove comes EnvDelay after the stop, as from an engine on a
	// machine too busy to answer at once.
	DepthLateStop = 95
)

// MatedFEN is a position in which the side to move is checkmated; the fake
// engine answers it like Stockfish: "info depth 0 score mate 0" and
// "bestmove (none)".
const MatedFEN = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"

// Main runs the fake engine and exits the process when EnvMode is set; it
// returns (doing nothing) otherwise. Call it first thing in TestMain (or in
// an init function of a test file, where TestMain belongs to someone else).
func Main() {
	mode := os.Getenv(EnvMode)
	if mode == "" {
		return
	}
	if f := os.Getenv(EnvExitIfExists); f != "" {
		if _, err := os.Stat(f); err == nil {
			os.Exit(5)
		}
	}
	delay := 300 * time.Millisecond
	if d, err := time.ParseDuration(os.Getenv(EnvDelay)); err == nil {
		delay = d
	}
	os.Exit(Run(mode, delay, os.Stdin, os.Stdout))
}

// engine is the fake engine's state.
type engine struct {
	mode    string
	delay   time.Duration
	out     *bufio.Writer
	cmds    <-chan string
	multiPV int
	fen     string
}

// Run plays the engine in the given mode until "quit" or end of input and
// returns the exit status.
func Run(mode string, delay time.Duration, in io.Reader, out io.Writer) int {
	if mode == ModeExit {
		return 4
	}
	cmds := make(chan string, 64)
	go func() {
		defer close(cmds)
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			cmds <- sc.Text()
		}
	}()
	e := &engine{mode: mode, delay: delay, out: bufio.NewWriter(out), cmds: cmds, multiPV: 1}
	if mode == ModeSilent {
		hangForever()
	}
	e.say("Fake engine by the Blindfish tests")
	for line := range cmds {
		if quit := e.handle(line); quit {
			return 0
		}
	}
	return 0
}

// handle runs one command; it reports whether the engine should exit.
func (e *engine) handle(line string) bool {
	tok := strings.Fields(line)
	if len(tok) == 0 {
		return false
	}
	switch tok[0] {
	case "uci":
		e.slow()
		e.say("id name Blindfish Fake")
		e.say("id author Blindfish tests")
		e.say("")
		e.say("option name Threads type spin default 1 min 1 max 512")
		e.say("option name Hash type spin default 16 min 1 max 4096")
		e.say("option name MultiPV type spin default 1 min 1 max 500")
		e.say("option name Clear Hash type button")
		e.say("option name Debug Log File type string default ")
		e.say("uciok")
	case "isready":
		e.slow()
		e.say("readyok")
	case "setoption":
		if len(tok) >= 5 && strings.EqualFold(tok[2], "MultiPV") {
			if n, err := strconv.Atoi(tok[4]); err == nil && n > 0 {
				e.multiPV = n
			}
		}
	case "position":
		if len(tok) > 2 && tok[1] == "fen" {
			e.fen = strings.Join(tok[2:min(len(tok), 8)], " ")
		} else {
			e.fen = ""
		}
	case "go":
		return e.search(tok[1:])
	case "quit":
		return true
	}
	return false
}

// search simulates one "go".
func (e *engine) search(args []string) bool {
	depth, movetime := 3, time.Duration(0)
	var moves []string
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "depth", "nodes", "movetime":
			if i+1 < len(args) {
				n, _ := strconv.Atoi(args[i+1])
				switch args[i] {
				case "depth":
					depth = n
				case "nodes":
					depth = min(1+n/1000, 20)
				case "movetime":
					movetime = time.Duration(n) * time.Millisecond
				}
				i++
			}
		case "searchmoves":
			for i+1 < len(args) && len(args[i+1]) >= 4 && args[i+1][1] >= '1' && args[i+1][1] <= '8' {
				moves = append(moves, args[i+1])
				i++
			}
		}
	}
	switch {
	case e.mode == ModeHang || depth == DepthHang:
		hangForever()
	case e.mode == ModeDie || depth == DepthDie:
		e.say("info depth 1 seldepth 1 multipv 1 score cp 12 nodes 20 nps 20000 time 1 pv e2e4")
		os.Exit(3)
	case e.mode == ModeGarbage || depth == DepthGarbage:
		e.say("info depth 1 seldepth 1 multipv 1 score cp 12 nodes 20 nps 20000 time 1 pv e2e4")
		e.say("\x00\x7f#!garbage%% \xff\xfe")
		hangForever()
	}
	if e.fen == MatedFEN {
		e.say("info depth 0 score mate 0")
		e.say("bestmove (none)")
		return false
	}
	if len(moves) == 0 {
		moves = []string{"e2e4", "d2d4", "g1f3", "c2c4", "b1c3", "g2g3"}
	}
	lines := min(e.multiPV, len(moves))
	wait := movetime
	switch {
	case e.mode == ModeSlow:
		wait = e.delay
	case depth == DepthLong || depth == DepthLateStop:
		wait = 10 * time.Second
	}
	late := depth == DepthLateStop
	if depth > 30 {
		depth = 30
	}
	for d := 1; d <= depth; d++ {
		for k := 1; k <= lines; k++ {
			e.say(fmt.Sprintf("info depth %d seldepth %d multipv %d score cp %d nodes %d nps 1000000 hashfull 0 tbhits 0 time %d pv %s e7e5",
				d, d+2, k, 20+d-5*k, 100*d, d, moves[k-1]))
		}
	}
	if wait > 0 {
		if quit := e.waitStop(wait); quit {
			return true
		}
	}
	if late {
		time.Sleep(e.delay)
	}
	e.say("bestmove " + moves[0] + " ponder e7e5")
	return false
}

// waitStop lets a search run for d, answering isready and ending early on
// stop; it reports whether the engine should exit.
func (e *engine) waitStop(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			return false
		case line, ok := <-e.cmds:
			if !ok {
				return true
			}
			switch strings.TrimSpace(line) {
			case "stop":
				return false
			case "quit":
				return true
			case "isready":
				e.say("readyok")
			}
		}
	}
}

// slow delays an answer in ModeSlow.
func (e *engine) slow() {
	if e.mode == ModeSlow {
		time.Sleep(e.delay)
	}
}

// say prints one line and flushes it.
func (e *engine) say(s string) {
	e.out.WriteString(s)
	e.out.WriteByte('\n')
	e.out.Flush()
}

// hangForever blocks without ever answering (sleeping, so that the Go
// runtime never reports a deadlock).
func hangForever() {
	for {
		time.Sleep(time.Hour)
	}
}
