package kriegspielorg_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/faults"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg"
)

// TestListenersPlayEachOther: one bot keeps a lobby game open, the other
// joins open games; both play several games at once through a flaky server
// until each has finished its share, and every game ends with a checked
// record.
func TestListenersPlayEachOther(t *testing.T) {
	r := newRig(t, faults.Faults{Seed: 3, Burst5xx: 0.02, Drop: 0.02, DropAfter: 0.02})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	const games = 3
	var mu sync.Mutex
	results := map[string][]*kriegspielorg.Result{}
	var wg sync.WaitGroup
	for i, name := range []string{"alpha", "beta"} {
		seed := uint64(100 * (i + 1))
		cfg := kriegspielorg.ListenConfig{
			Client: r.clients[i], Username: name, Variants: []string{"wild16+chessdraws"},
			Create: i == 0, JoinOpen: i == 1, MaxGames: 2, StopAfter: games, PollInterval: 10 * time.Millisecond,
			Play: kriegspielorg.PlayOptions{PollInterval: 5 * time.Millisecond},
			NewPlayer: func(kriegspiel.Ruleset) (kriegspiel.Player, error) {
				mu.Lock()
				defer mu.Unlock()
				seed++
				return kriegspiel.NewRandomPlayer(seed), nil
			},
			OnGame: func(id string, res *kriegspielorg.Result, err error) {
				if err != nil {
					t.Errorf("%s: game %s: %v", name, id, err)
				}
				mu.Lock()
				results[name] = append(results[name], res)
				mu.Unlock()
			},
		}
		wg.Go(func() {
			if err := kriegspielorg.Listen(ctx, cfg); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		})
	}
	wg.Wait()
	for _, name := range []string{"alpha", "beta"} {
		if len(results[name]) < games {
			t.Errorf("%s finished %d games, want %d", name, len(results[name]), games)
		}
		for _, res := range results[name] {
			if res == nil || res.Record == nil || res.Result.Reason == kriegspiel.Unfinished {
				t.Errorf("%s: a game without its result or record: %+v", name, res)
				continue
			}
			truth, ok := r.srv.Record(res.GameID)
			if !ok || truth.Result != res.Result {
				t.Errorf("%s: game %s: result %v, the server's %v", name, res.GameID, res.Result, truth.Result)
			}
			if res.Record.White == "" || res.Record.Black == "" || res.Record.White == res.Record.Black {
				t.Errorf("%s: game %s: players %q and %q", name, res.GameID, res.Record.White, res.Record.Black)
			}
		}
	}
	t.Logf("faults %v", r.srv.FaultCounts())
}

// TestListenStopsCleanly: once its context is done, a listener starts no
// new game, lets the running one finish, and only then returns.
func TestListenStopsCleanly(t *testing.T) {
	r := newRig(t, faults.Faults{})
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	oppCtx, oppStop := context.WithTimeout(context.Background(), 2*time.Minute)
	defer oppStop()
	newRandom := func(kriegspiel.Ruleset) (kriegspiel.Player, error) { return kriegspiel.NewRandomPlayer(9), nil }
	started := make(chan string, 4)
	var finished []string
	var mu sync.Mutex
	done := make(chan error, 1)
	go func() {
		done <- kriegspielorg.Listen(ctx, kriegspielorg.ListenConfig{Client: r.clients[0], Username: "alpha",
			Variants: []string{"wild16+chessdraws"}, Create: true, PollInterval: 5 * time.Millisecond,
			Play: kriegspielorg.PlayOptions{PollInterval: 5 * time.Millisecond},
			NewPlayer: func(rules kriegspiel.Ruleset) (kriegspiel.Player, error) {
				started <- "game"
				return newRandom(rules)
			},
			OnGame: func(id string, res *kriegspielorg.Result, err error) {
				mu.Lock()
				finished = append(finished, id)
				mu.Unlock()
			}})
	}()
	go kriegspielorg.Listen(oppCtx, kriegspielorg.ListenConfig{Client: r.clients[1], Username: "beta",
		Variants: []string{"wild16+chessdraws"}, JoinOpen: true, PollInterval: 5 * time.Millisecond,
		Play: kriegspielorg.PlayOptions{PollInterval: 5 * time.Millisecond}, NewPlayer: newRandom})
	select {
	case <-started:
	case <-time.After(time.Minute):
		t.Fatal("no game started")
	}
	stop()
	if err := <-done; err != nil {
		t.Fatalf("Listen: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(finished) != 1 {
		t.Fatalf("Listen returned with %d games finished, want the 1 it was playing", len(finished))
	}
	if rec, ok := r.srv.Record(finished[0]); !ok || rec.Result.Reason == kriegspiel.Unfinished {
		t.Errorf("the game was not played to its end: %+v", rec)
	}
	if len(started) != 0 {
		t.Error("a game was started after the stop")
	}
}
