// Package stall measures how long processes waited for a CPU, for tests
// that bound how late a call returns after its deadline, and for
// timeouts that must not take a starved machine for a hung process.
//
// On an idle machine a call that honours a 200 ms deadline returns a few
// milliseconds after it; on a machine that gives the process almost no CPU
// (nice 19 beside other work, load 30) its timer fires, and the goroutine
// it wakes runs, hundreds of milliseconds late, and no fixed margin is both
// safe there and tight enough to notice a late return on an idle machine.
// A Probe instead reads what the system counted: the time the threads of
// this process (and of the children named, such as an engine) were ready
// to run but waited for a CPU. A test allows for that (Allowance) on top of
// its own margin, so its bound is tight where the machine was idle and
// loose only by what the machine withheld. Time the process spends on its
// own work, or waiting for its own goroutines, is not counted: a call that
// ignores its deadline and computes on fails on an idle machine as before.
//
// The counts come from Linux's /proc/<pid>/task/<tid>/schedstat. Where the
// system does not provide them a Probe reports no stall, and the tests
// keep their fixed margins.
//
// WithTimeout makes a timeout of the same measure: one that guards
// against a hang (an engine's handshake) counts only the time the work
// could run, so that a starved machine does not pass for a dead engine.
package stall

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// StartTimeout is what tests allow a child process (an engine, a bot) to
// start and finish its handshake. It guards against a hang, not slowness:
// at nice 19 beside two CPU hogs and a load of 17, Stockfish took more than
// a minute to answer "uci", and a tight bound there fails a test for the
// machine's load.
const StartTimeout = 3 * time.Minute

// Probe measures the waits for a CPU from Start to Stop.
type Probe struct {
	pids  []int
	start map[thread]time.Duration
}

// thread names one thread of one process.
type thread struct{ pid, tid int }

// Start starts a probe of this process and of the processes pids (children
// whose slowness the call waits for). Call Stop when the call has returned.
func Start(pids ...int) *Probe {
	p := &Probe{pids: append([]int{os.Getpid()}, pids...)}
	p.start = p.read()
	return p
}

// Stop returns how long the threads probed waited for a CPU since Start,
// added up: threads that waited at the same time count each. A thread that
// ended meanwhile is not counted; one that began is counted whole.
func (p *Probe) Stop() time.Duration {
	var d time.Duration
	for th, wait := range p.read() {
		d += wait - p.start[th]
	}
	return max(d, 0)
}

// Longest returns the longest time any one thread probed waited for a CPU
// since Start. Unlike Stop's sum it never grows faster than the clock: on a
// busy machine every thread of a process waits at once, and their sum can
// outrun the time that passed.
func (p *Probe) Longest() time.Duration {
	var d time.Duration
	for th, wait := range p.read() {
		d = max(d, wait-p.start[th])
	}
	return d
}

// read returns the run-queue wait of every thread of the probed processes,
// leaving out what cannot be read.
func (p *Probe) read() map[thread]time.Duration {
	waits := make(map[thread]time.Duration)
	for _, pid := range p.pids {
		dir := "/proc/" + strconv.Itoa(pid) + "/task/"
		tasks, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, task := range tasks {
			tid, err := strconv.Atoi(task.Name())
			if err != nil {
				continue
			}
			if wait, ok := parseSchedstat(dir + task.Name() + "/schedstat"); ok {
				waits[thread{pid, tid}] = wait
			}
		}
	}
	return waits
}

// parseSchedstat reads a schedstat file: the time on a CPU, the time
// waiting on a run queue (both in nanoseconds) and the number of time
// slices, and returns the second.
func parseSchedstat(path string) (time.Duration, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	return parseWait(string(data))
}

// parseWait returns the run-queue wait of a schedstat line.
func parseWait(line string) (time.Duration, bool) {
	f := strings.Fields(line)
	if len(f) < 2 {
		return 0, false
	}
	ns, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil || ns < 0 {
		return 0, false
	}
	return time.Duration(ns), true
}

// Allowance is how much later than its own margin a call may end when the
// threads it ran on (and the children it waited for) waited stalled for a
// CPU meanwhile: all of it, since each wait (the timer's thread, then the
// woken goroutine's, then the engine's answer) can delay the call in turn.
func Allowance(stalled time.Duration) time.Duration { return stalled }
