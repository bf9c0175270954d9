package kriegspielorg_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/protocol/internal/faults"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg/ksserver"
)

const key = "registration-key-for-tests"

// listener wraps a player and keeps what it heard.
type listener struct {
	kriegspiel.Player
	mu    sync.Mutex
	heard []kriegspiel.Heard
	own   []kriegspiel.Heard
	ended bool
}

func (l *listener) HandleOpponentTurn(ctx context.Context, h []kriegspiel.Heard) error {
	l.mu.Lock()
	l.heard = append(l.heard, h...)
	l.mu.Unlock()
	return l.Player.HandleOpponentTurn(ctx, h)
}

func (l *listener) HandleAnswer(ctx context.Context, q kriegspiel.Question, a kriegspiel.Answer) error {
	l.mu.Lock()
	l.own = append(l.own, kriegspiel.Heard{Own: true, Question: q, Answer: a})
	l.mu.Unlock()
	return l.Player.HandleAnswer(ctx, q, a)
}

func (l *listener) HandleGameEnd(ctx context.Context, r kriegspiel.Result, rec *kriegspiel.Record) error {
	l.mu.Lock()
	l.ended = true
	l.mu.Unlock()
	return l.Player.HandleGameEnd(ctx, r, rec)
}

// rig is a loopback server with two registered bots.
type rig struct {
	srv     *ksserver.Server
	url     string
	clients [2]*kriegspielorg.Client
}

func newRig(t *testing.T, f faults.Faults) *rig {
	t.Helper()
	// The site's one join per minute, made short: the listeners' tests
	// join games back to back, and meet the cooldown all the same.
	cfg := ksserver.Config{RegistrationKey: key, Faults: f, JoinCooldown: 20 * time.Millisecond}
	if testing.Short() {
		cfg.TurnLimit = 30 // short games: the race pass is slow
	}
	srv := ksserver.New(cfg)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	r := &rig{srv: srv, url: ts.URL}
	for i, name := range []string{"alpha", "beta"} {
		cfg := kriegspielorg.Config{URL: ts.URL, RetryInterval: time.Millisecond, RetryFor: 10 * time.Second,
			Token: srv.AddBot(name)}
		var err error
		if r.clients[i], err = kriegspielorg.NewClient(cfg); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// play has alpha create a game as White and beta join it, both play it
// with random players, and returns what each heard and the results.
func (r *rig) play(t *testing.T, variant string, seed uint64) (string, [2]*listener, [2]*kriegspielorg.Result) {
	t.Helper()
	// The deadline guards against a hang, not slowness: a random game runs
	// to hundreds of turns of HTTP polls, and on a starved machine (the CI
	// run beside two games at once) four of them in parallel took more than
	// two minutes each.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	created, err := r.clients[0].Create(ctx, kriegspielorg.CreateRequest{RuleVariant: variant, PlayAs: "white"})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if _, err := r.clients[1].Join(ctx, created.GameCode); err != nil {
		t.Fatalf("join: %v", err)
	}
	rules, err := kriegspiel.ParseRuleset(variant)
	if err != nil {
		t.Fatal(err)
	}
	var players [2]*listener
	var results [2]*kriegspielorg.Result
	var errs [2]error
	var wg sync.WaitGroup
	for c := range 2 {
		players[c] = &listener{Player: kriegspiel.NewRandomPlayer(seed + uint64(c))}
		wg.Go(func() {
			results[c], errs[c] = kriegspielorg.PlayGame(ctx, r.clients[c], created.GameID, players[c],
				kriegspielorg.PlayOptions{Rules: rules, PollInterval: 5 * time.Millisecond, Self: []string{"alpha", "beta"}[c],
					Opponent: []string{"beta", "alpha"}[c]})
		})
	}
	wg.Wait()
	for c, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", chess.Color(c), err)
		}
	}
	return created.GameID, players, results
}

// TestGamesHearWhatOurRefereeSays plays whole games through the API and
// checks that each player heard, from the words of its scoresheet, exactly
// what our referee says it hears, and that the record rebuilt from the
// transcript is the server's.
func TestGamesHearWhatOurRefereeSays(t *testing.T) {
	for _, tc := range []struct {
		name, variant string
		f             faults.Faults
	}{
		{"wild16", "wild16+chessdraws", faults.Faults{}},
		{"berkeley", "berkeley+chessdraws", faults.Faults{}},
		{"berkeley_any", "berkeley_any+chessdraws", faults.Faults{}},
		{"wild16 with faults", "wild16+chessdraws", faults.Faults{Seed: 7, Burst5xx: 0.03, Drop: 0.03, DropAfter: 0.05, Malformed: 0.02}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.f == (faults.Faults{}) {
				t.Skip("short mode plays the game with faults only")
			}
			t.Parallel()
			r := newRig(t, tc.f)
			id, players, results := r.play(t, tc.variant, 11)
			truth, ok := r.srv.Record(id)
			if !ok {
				t.Fatal("the server lost the game")
			}
			for c := range 2 {
				var want []kriegspiel.Heard
				var wantOwn []kriegspiel.Heard
				for _, h := range truth.Heard(chess.Color(c)) {
					if h.Own {
						wantOwn = append(wantOwn, h)
					} else {
						want = append(want, h)
					}
				}
				p := players[c]
				// The last answers to our opponent's questions are heard only
				// by a player still to move; a game that ended on the
				// opponent's move leaves them unheard.
				if len(p.heard) > len(want) || !slices.Equal(p.heard, want[:len(p.heard)]) {
					t.Errorf("%s heard %d answers of its opponent's, want a prefix of the %d the referee gave", chess.Color(c), len(p.heard), len(want))
				}
				unheard := 0 // the public answers of the game's last turn, if the opponent's
				if last := truth.Turns[len(truth.Turns)-1]; last.Color != chess.Color(c) {
					for _, try := range last.Tries {
						if try.Public {
							unheard++
						}
					}
				}
				if len(want)-len(p.heard) > unheard {
					t.Errorf("%s missed %d of its opponent's answers (%d from the last turn may go unheard)", chess.Color(c), len(want)-len(p.heard), unheard)
				}
				if !slices.Equal(p.own, wantOwn) {
					t.Errorf("%s's own answers differ from the referee's (%d vs %d)", chess.Color(c), len(p.own), len(wantOwn))
				}
				if !p.ended {
					t.Errorf("%s never heard the game end", chess.Color(c))
				}
				res := results[c]
				if res.Result != truth.Result {
					t.Errorf("%s: result %v, want %v", chess.Color(c), res.Result, truth.Result)
				}
				if res.Record == nil {
					t.Fatalf("%s: no record", chess.Color(c))
				}
				if !slices.EqualFunc(res.Record.Turns, truth.Turns, func(a, b kriegspiel.Turn) bool {
					return a.Color == b.Color && a.Move == b.Move && slices.Equal(a.Tries, b.Tries)
				}) || res.Record.FinalFEN != truth.FinalFEN {
					t.Errorf("%s: the record from the transcript differs from the server's", chess.Color(c))
				}
			}
			t.Logf("%s: %d turns, %v; faults %v", tc.name, len(truth.Turns), truth.Result, r.srv.FaultCounts())
		})
	}
}

// TestBadCredentials: a wrong registration key and an unknown token get
// clear errors that do not quote them.
func TestBadCredentials(t *testing.T) {
	r := newRig(t, faults.Faults{})
	reg, err := kriegspielorg.Register(context.Background(), kriegspielorg.Config{URL: r.url}, key,
		kriegspielorg.BotProfile{Username: "delta", DisplayName: "Delta", OwnerEmail: "d@example.org"})
	if err != nil || reg.APIToken == "" {
		t.Fatalf("register with the right key: %v", err)
	}
	_, err = kriegspielorg.Register(context.Background(), kriegspielorg.Config{URL: r.url}, "wrong-key-123",
		kriegspielorg.BotProfile{Username: "gamma", DisplayName: "Gamma", OwnerEmail: "g@example.org"})
	var se *kriegspielorg.StatusError
	if !errors.As(err, &se) || se.Code != 401 {
		t.Fatalf("register with a wrong key: %v, want a 401", err)
	}
	c, err := kriegspielorg.NewClient(kriegspielorg.Config{URL: r.url, Token: "not-a-token-456"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ActiveGames(context.Background())
	if !errors.As(err, &se) || se.Code != 401 {
		t.Fatalf("an unknown token: %v, want a 401", err)
	}
	for _, secret := range []string{"wrong-key-123", "not-a-token-456"} {
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("the error quotes a secret: %v", err)
		}
	}
	if _, err := kriegspielorg.NewClient(kriegspielorg.Config{URL: "ftp://example.org"}); err == nil {
		t.Error("an ftp URL was accepted")
	}
}

// TestLoopbackShowsOnlyOurMen: during a game the state shows a player its
// own men only, and the public material count, as the site does.
func TestLoopbackShowsOnlyOurMen(t *testing.T) {
	r := newRig(t, faults.Faults{})
	ctx := context.Background()
	created, err := r.clients[0].Create(ctx, kriegspielorg.CreateRequest{RuleVariant: "wild16", PlayAs: "black"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.clients[1].Join(ctx, created.GameCode); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"rnbqkbnr/pppppppp/8/8/8/8/8/8 w - - 0 1", "8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"} {
		st, err := r.clients[i].State(ctx, created.GameID)
		if err != nil {
			t.Fatal(err)
		}
		if st.YourFEN != want {
			t.Errorf("%s sees %q, want %q", st.YourColor, st.YourFEN, want)
		}
		if m, ok := st.MaterialSummary["white"].(map[string]any); !ok || m["pieces_remaining"] != 16.0 || m["pawns_captured"] != 0.0 {
			t.Errorf("material summary %v", st.MaterialSummary)
		}
	}
}
