package engine

import (
	"context"
	"log/slog"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// logRecords is a slog handler that keeps every record, its attributes
// flattened to text, for tests that assert what a player logs.
type logRecords struct {
	mu      *sync.Mutex
	records *[]loggedRecord
	attrs   []slog.Attr
}

type loggedRecord struct {
	level slog.Level
	msg   string
	attrs map[string]string
}

func newLogRecords() *logRecords {
	return &logRecords{mu: &sync.Mutex{}, records: &[]loggedRecord{}}
}

func (h *logRecords) Enabled(context.Context, slog.Level) bool { return true }

func (h *logRecords) Handle(_ context.Context, r slog.Record) error {
	rec := loggedRecord{level: r.Level, msg: r.Message, attrs: map[string]string{}}
	for _, a := range h.attrs {
		rec.attrs[a.Key] = a.Value.String()
	}
	r.Attrs(func(a slog.Attr) bool {
		rec.attrs[a.Key] = a.Value.String()
		return true
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	*h.records = append(*h.records, rec)
	return nil
}

func (h *logRecords) WithAttrs(as []slog.Attr) slog.Handler {
	return &logRecords{mu: h.mu, records: h.records, attrs: append(h.attrs[:len(h.attrs):len(h.attrs)], as...)}
}

func (h *logRecords) WithGroup(string) slog.Handler { return h }

// all returns the records so far.
func (h *logRecords) all() []loggedRecord {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]loggedRecord(nil), *h.records...)
}

// checkNoWarnings fails t for any record at Warn or above, and for any
// attribute logged as <nil> (a nil error passed as a value).
func checkNoWarnings(t *testing.T, h *logRecords) {
	t.Helper()
	for _, r := range h.all() {
		if r.level >= slog.LevelWarn {
			t.Errorf("%s record %q %v: routine degradation must be counted, not warned", r.level, r.msg, r.attrs)
		}
		for k, v := range r.attrs {
			if v == "<nil>" {
				t.Errorf("record %q logs %s=<nil>", r.msg, k)
			}
		}
	}
}

// TestRoutineDegradationIsCountedNotWarned: on a starved machine a
// decision is cut off at its hard deadline, the belief updates wait for it
// and then miss their own deadlines until the belief is replaced. All of
// it is routine there: it shows as counters (cut-offs, held and late
// updates, failovers) in the game-end line, and nothing is logged at Warn,
// which is kept for faults.
func TestRoutineDegradationIsCountedNotWarned(t *testing.T) {
	ctx := context.Background()

	// A decision cut off, and the sense result held back by it.
	logs := newLogRecords()
	f := newFixed(t, knightBoards...)
	p := testPlayer(t, f, DefaultConfig())
	p.log = slog.New(logs)
	s := stubborn{release: make(chan struct{})}
	p.sense, p.move = s, s
	within(t, 10*time.Second, "ChooseSense", func() {
		if _, err := p.ChooseSense(ctx, allSquares(), f.boards[0].MoveActions(), 2*time.Second); err != nil {
			t.Error(err)
		}
	})
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := p.HandleSenseResult(short, nil); err != nil {
		t.Fatal(err)
	}
	close(s.release)
	if st := p.Stats(); st.Cutoffs != 1 || st.HeldUpdates != 1 {
		t.Errorf("cut-offs %d, held updates %d: want 1 and 1", st.Cutoffs, st.HeldUpdates)
	}
	checkNoWarnings(t, logs)

	// Belief updates that miss their deadlines until the belief is
	// replaced, and the game-end line that counts them.
	logs = newLogRecords()
	cfg := DefaultConfig()
	cfg.Eval = evaluator.KindEmbedded
	p, err := NewBlindfish(cfg, Options{Seed: 3, Logger: slog.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	b := chess.StartBoard()
	if err := p.HandleGameStart(ctx, chess.White, b, "nobody"); err != nil {
		t.Fatal(err)
	}
	p.beliefs.ensure(time.Minute)
	p.beliefs.belief = stuckBelief{p.beliefs.belief}
	short2, cancel2 := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel2()
	if err := p.HandleOpponentMoveResult(short2, false, chess.NoSquare); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < failoverStreak && p.Stats().Failovers == 0; i++ {
		if _, err := p.ChooseSense(ctx, allSquares(), b.MoveActions(), 3*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.HandleGameEnd(ctx, rbc.Outcome{Winner: chess.White, HasWinner: true, Reason: rbc.KingCapture}, nil); err != nil {
		t.Fatal(err)
	}
	st := p.Stats()
	if st.LateUpdates < failoverStreak || st.Failovers != 1 {
		t.Errorf("late updates %d, failovers %d: want at least %d and 1", st.LateUpdates, st.Failovers, failoverStreak)
	}
	if d := p.Degradations(); d["late_updates"] != st.LateUpdates || d["failovers"] != 1 || d["held_updates"] != st.HeldUpdates {
		t.Errorf("degradations %v: want the game's %d late updates, %d held and 1 failover", d, st.LateUpdates, st.HeldUpdates)
	}
	checkNoWarnings(t, logs)
	var late, end bool
	for _, r := range logs.all() {
		switch {
		case strings.HasPrefix(r.msg, "belief update not done in time"):
			late = true
			if r.attrs["why"] == "" {
				t.Errorf("a late update does not say why: %v", r.attrs)
			}
		case r.msg == "game end":
			end = true
			if r.attrs["late updates"] == "0" || r.attrs["failovers"] != "1" || r.attrs["held updates"] == "" {
				t.Errorf("game-end line %v: want the late updates, held updates and failovers counted", r.attrs)
			}
		}
	}
	if !late || !end {
		t.Errorf("late-update record logged: %v, game-end line: %v", late, end)
	}
}

// TestDegradationsCountEachEventOnce: a match sums a player's degradation
// counts, so a cut-off (which the stats count as a fallback too) counts
// once, zero counts are left out, and a player that never degraded reports
// an empty map (known: none), not nil.
func TestDegradationsCountEachEventOnce(t *testing.T) {
	p, err := NewBlindfish(DefaultConfig(), Options{Seed: 1, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if d := p.Degradations(); d == nil || len(d) != 0 {
		t.Errorf("a fresh player's degradations %v: want an empty map", d)
	}
	p.stats = PlayerStats{Turns: 40, FastTurns: 7, Panics: 1, Emergencies: 2, Cutoffs: 3, Fallbacks: 5}
	p.beliefs.counts = beliefCounts{late: 4, held: 1}
	want := map[string]int{"emergencies": 2, "cutoffs": 3, "fallbacks": 2, "late_updates": 4, "held_updates": 1}
	if d := p.Degradations(); !maps.Equal(d, want) {
		t.Errorf("degradations %v, want %v", d, want)
	}
}
