package listen

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"
)

// step is one poll of the fake server: the games it offers, the ones Start
// must take, and the games to finish once it is done.
type step struct {
	offer, started, finish []int
}

// TestLoop drives a Loop with a fake clock: each poll is an event the test
// waits for, each game ends when the test says, and no assertion depends on
// how long anything takes.
func TestLoop(t *testing.T) {
	for _, tc := range []loopCase{
		{name: "at most MaxGames at once", maxGames: 2, steps: []step{
			{offer: []int{1, 2, 3}, started: []int{1, 2}, finish: []int{1}},
			{offer: []int{1, 2, 3, 4}, started: []int{3}, finish: []int{2, 3}},
			{offer: []int{4, 5, 6}, started: []int{4, 5}},
		}},
		{name: "a game is never started twice", maxGames: 3, steps: []step{
			{offer: []int{1, 1, 2}, started: []int{1, 2}, finish: []int{1}},
			{offer: []int{1, 2}},
		}},
		{name: "MaxGames below 1 plays one", maxGames: 0, steps: []step{
			{offer: []int{1, 2}, started: []int{1}},
		}},
		{name: "StopAfter started stops polling", maxGames: 3, stopAfter: 2, tickAtEnd: true, steps: []step{
			{offer: []int{1}, started: []int{1}},
			{offer: []int{2, 3}, started: []int{2, 3}, finish: []int{1, 2}},
		}},
		{name: "StopAfter finished ends Run while another plays", maxGames: 2, stopAfter: 1, pollUntilFinished: true, tickAtEnd: true, steps: []step{
			{offer: []int{1}, started: []int{1}},
			{offer: []int{2}, started: []int{2}, finish: []int{1}},
		}},
		{name: "PollUntilFinished polls after StopAfter started", maxGames: 3, stopAfter: 1, pollUntilFinished: true, steps: []step{
			{offer: []int{1}, started: []int{1}},
			{offer: []int{2}, started: []int{2}},
			{offer: nil},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { runLoopCase(t, tc) })
	}
}

// loopCase is one scripted run of TestLoop.
type loopCase struct {
	name              string
	maxGames          int
	stopAfter         int
	pollUntilFinished bool
	steps             []step
	// tickAtEnd lets the clock run once more after the last step: Run
	// must then return without polling again. Otherwise the test
	// cancels Run's context after the last step.
	tickAtEnd bool
}

// runLoopCase plays tc's steps against a Loop on the fake server and clock.
func runLoopCase(t *testing.T, tc loopCase) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	polled := make(chan []int)
	tick := make(chan time.Time, 1)
	reported := make(chan int, 100)
	var release sync.Map // id → chan struct{}
	gate := func(id int) chan struct{} {
		c, _ := release.LoadOrStore(id, make(chan struct{}))
		return c.(chan struct{})
	}
	round := 0
	var l *Loop[int, int]
	l = New(Config[int, int]{
		MaxGames: tc.maxGames, StopAfter: tc.stopAfter, PollUntilFinished: tc.pollUntilFinished,
		PollInterval: time.Hour, // never waited for: the fake clock ticks
		Poll: func(ctx context.Context) {
			var got []int
			if round < len(tc.steps) {
				for _, id := range tc.steps[round].offer {
					if l.Start(id, func() (int, error) { <-gate(id); return id * 10, nil }) {
						got = append(got, id)
					}
				}
			}
			round++
			polled <- got
		},
		OnGame: func(id, res int, err error) {
			if res != id*10 || err != nil {
				t.Errorf("OnGame(%d, %d, %v)", id, res, err)
			}
			if !l.Started(id) || l.Running() == 0 {
				t.Errorf("OnGame(%d) after its place was freed", id)
			}
			reported <- id
		},
		After: func(d time.Duration) (<-chan time.Time, func() bool) {
			if d != time.Hour {
				t.Errorf("After(%v), want the PollInterval", d)
			}
			return tick, func() bool { return true }
		},
	})
	runDone := make(chan struct{})
	go func() { l.Run(ctx); close(runDone) }()

	finished := map[int]bool{}
	for i, st := range tc.steps {
		var got []int
		select {
		case got = <-polled:
		case <-runDone:
			t.Fatalf("Run returned before poll %d", i)
		}
		if !slices.Equal(got, st.started) {
			t.Errorf("poll %d started %v, want %v", i, got, st.started)
		}
		for _, id := range st.finish {
			close(gate(id))
			if r := <-reported; r != id {
				t.Errorf("reported game %d, want %d", r, id)
			}
			finished[id] = true
		}
		waitRunning(t, l, tc.steps[:i+1], finished)
		if i < len(tc.steps)-1 || tc.tickAtEnd {
			tick <- time.Time{}
		}
	}
	if !tc.tickAtEnd {
		cancel()
	}
	select {
	case <-runDone:
	case got := <-polled:
		t.Fatalf("polled again (started %v) after the last step", got)
	}

	checkWait(t, l, tc.steps, finished, gate, reported)
}

// waitRunning waits until the games the steps so far started and did not
// finish are all that run: OnGame reports a game before its place is
// freed, so the next poll must not begin until the place is given back.
func waitRunning(t *testing.T, l *Loop[int, int], steps []step, finished map[int]bool) {
	t.Helper()
	want := 0
	for _, st := range steps {
		for _, id := range st.started {
			if !finished[id] {
				want++
			}
		}
	}
	for deadline := time.Now().Add(time.Minute); l.Running() != want; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("Running() = %d a minute after the step's games were reported, want %d", l.Running(), want)
		}
	}
}

// checkWait ends the games still running after Run and checks that Wait
// waits for all of them.
func checkWait(t *testing.T, l *Loop[int, int], steps []step, finished map[int]bool, gate func(int) chan struct{}, reported chan int) {
	running := l.Running()
	var left []int
	for _, st := range steps {
		for _, id := range st.started {
			if !finished[id] {
				left = append(left, id)
				close(gate(id))
			}
		}
	}
	if running != len(left) {
		t.Errorf("Running() = %d after Run, want %d", running, len(left))
	}
	l.Wait(slog.New(slog.DiscardHandler))
	if len(reported) != len(left) || l.Running() != 0 {
		t.Errorf("Wait returned with %d of %d games reported, %d running", len(reported), len(left), l.Running())
	}
}

// TestRoom: a new game has room while fewer than MaxGames run and fewer
// than StopAfter were started; a finished game gives its place back but
// still counts towards StopAfter.
func TestRoom(t *testing.T) {
	for _, tc := range []struct {
		name                string
		maxGames, stopAfter int
		start, finish       int
		want                bool
	}{
		{"empty", 2, 0, 0, 0, true},
		{"one of two running", 2, 0, 1, 0, true},
		{"two of two running", 2, 0, 2, 0, false},
		{"two started, one finished", 2, 0, 2, 1, true},
		{"StopAfter started", 3, 2, 2, 0, false},
		{"StopAfter started, all finished", 3, 2, 2, 2, false},
		{"below StopAfter", 3, 3, 2, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan int, tc.start)
			l := New(Config[int, struct{}]{MaxGames: tc.maxGames, StopAfter: tc.stopAfter,
				OnGame: func(id int, _ struct{}, _ error) { done <- id }})
			gates := make([]chan struct{}, tc.start)
			for i := range gates {
				gates[i] = make(chan struct{})
				g := gates[i]
				if !l.Start(i, func() (struct{}, error) { <-g; return struct{}{}, nil }) {
					t.Fatalf("Start(%d) refused", i)
				}
			}
			for i := range tc.finish {
				close(gates[i])
				<-done
			}
			// OnGame runs before the place is given back: wait until it is.
			for l.Running() != tc.start-tc.finish {
				time.Sleep(time.Millisecond)
			}
			if got := l.Room(); got != tc.want {
				t.Errorf("Room() = %v, want %v", got, tc.want)
			}
			for i := tc.finish; i < tc.start; i++ {
				close(gates[i])
			}
			l.Wait(slog.New(slog.DiscardHandler))
		})
	}
}

// TestRunStopsOnContext: Run polls after each pause until its context is
// done, and returns then, even with a tick of the clock waiting.
func TestRunStopsOnContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	polls := 0
	tick := make(chan time.Time, 1)
	l := New(Config[string, int]{
		PollInterval: time.Second,
		Poll: func(ctx context.Context) {
			polls++
			if polls == 3 {
				cancel()
			}
			tick <- time.Time{}
		},
		After: func(time.Duration) (<-chan time.Time, func() bool) { return tick, func() bool { return true } },
	})
	l.Run(ctx)
	if polls != 3 || !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("Run returned after %d polls (ctx %v), want 3 and cancelled", polls, ctx.Err())
	}
}

func TestDefaults(t *testing.T) {
	if Logger(nil) == nil {
		t.Error("Logger(nil) is nil")
	}
	log := slog.New(slog.DiscardHandler)
	if Logger(log) != log {
		t.Error("Logger(log) is not log")
	}
	ctx, cancel := context.WithCancel(context.Background())
	games := GameContext(ctx, nil)
	cancel()
	if games.Err() != nil {
		t.Errorf("the default games' context is cancelled with Listen's: %v", games.Err())
	}
	own, stop := context.WithCancel(context.Background())
	defer stop()
	if GameContext(ctx, own) != own {
		t.Error("GameContext(ctx, own) is not own")
	}
}
