package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/engine/baseline"
	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/invisible/players"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// page is a browser tab on a test server: it reads the state and acts.
type page struct {
	t     *testing.T
	base  string
	token string
}

func newTestServer(t *testing.T, d *Desk) (*Server, *page) {
	t.Helper()
	srv, err := NewServer(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return srv, &page{t: t, base: ts.URL, token: srv.token}
}

// do sends a request with the token and returns the status and body.
func (p *page) do(ctx context.Context, method, path, body string, header map[string]string) (int, string) {
	p.t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, p.base+path, strings.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set(TokenHeader, p.token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// state reads the state past version since.
func (p *page) state(since int) State {
	p.t.Helper()
	code, body := p.do(context.Background(), "GET", fmt.Sprintf("/api/state?since=%d", since), "", nil)
	if code != http.StatusOK {
		p.t.Fatalf("state: %d %s", code, body)
	}
	var s State
	if err := json.Unmarshal([]byte(body), &s); err != nil {
		p.t.Fatal(err)
	}
	return s
}

func (p *page) act(a Action) (int, string) {
	data, _ := json.Marshal(a)
	return p.do(context.Background(), "POST", "/api/act", string(data), nil)
}

// play answers every question with its first choice until the game is
// over, as a person clicking would, and returns the last state.
func (p *page) play(ctx context.Context) State {
	p.t.Helper()
	since := -1
	for ctx.Err() == nil {
		s := p.state(since)
		since = s.Version
		var a Action
		switch s.Phase {
		case "over":
			return s
		case "sense":
			a = Action{Kind: "sense", Square: s.Senses[0], Question: s.Question}
		case "move", "try":
			a = Action{Kind: "move", Move: s.Moves[len(s.Moves)/2], Question: s.Question}
		default:
			continue
		}
		if code, body := p.act(a); code != http.StatusOK && code != http.StatusConflict {
			p.t.Fatalf("%s: %d %s", a.Kind, code, body)
		}
	}
	p.t.Fatal("the game did not end")
	return State{}
}

// TestPageFullRBCGame: a person playing through the API plays a whole RBC
// game against the random bot, and the record is one rbc replays.
func TestPageFullRBCGame(t *testing.T) {
	d := NewDesk("rbc", chess.White, "random")
	_, p := newTestServer(t, d)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	g := Game{Color: chess.White, Bot: "random", Initial: 60 * time.Second, Increment: time.Second, TurnLimit: 12}
	done := make(chan *rbc.History, 1)
	go func() {
		h, err := g.PlayRBC(ctx, d, baseline.NewRandom(rand.New(rand.NewPCG(3, 3))))
		if err != nil {
			t.Error(err)
		}
		done <- h
	}()
	last := p.play(ctx)
	h := <-done
	if h == nil || last.Result == "" || len(h.Turns[chess.White]) == 0 {
		t.Fatalf("result %q, history %v", last.Result, h)
	}
	if h.WhiteName != "you" || h.BlackName != "random" {
		t.Errorf("names %q %q", h.WhiteName, h.BlackName)
	}
	rp, err := rbc.ReplayHistory(ctx, h)
	if err != nil || rp.Divergence != nil {
		t.Errorf("replay: %v %v", err, rp.Divergence)
	}
	// The page's board is the person's men alone, as the true board has them.
	truth := chess.MustParseFEN(h.Turns[chess.White][len(h.Turns[chess.White])-1].FENAfter)
	for s := chess.Square(0); s < 64; s++ {
		want := ""
		if pc := truth.PieceAt(s); pc != chess.NoPiece && pc.Color() == chess.White {
			want = pc.String()
		}
		if last.Board[s] != want && len(h.Turns[chess.Black]) < len(h.Turns[chess.White]) {
			t.Errorf("%s: the page shows %q, the board has %q", s, last.Board[s], want)
		}
	}
}

// TestPageFullKriegspielGame: the same for Kriegspiel under wild16.
func TestPageFullKriegspielGame(t *testing.T) {
	d := NewDesk("kriegspiel", chess.Black, "random")
	_, p := newTestServer(t, d)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	g := Game{Color: chess.Black, Bot: "random", Initial: 60 * time.Second, Increment: time.Second, TurnLimit: 12}
	done := make(chan *kriegspiel.Record, 1)
	go func() {
		rec, err := g.PlayKriegspiel(ctx, d, kriegspiel.Wild16(), kriegspiel.NewRandomPlayer(5))
		if err != nil {
			t.Error(err)
		}
		done <- rec
	}()
	last := p.play(ctx)
	rec := <-done
	if rec == nil || last.Result == "" {
		t.Fatalf("result %q, record %v", last.Result, rec)
	}
	if _, err := rec.Replay(); err != nil {
		t.Errorf("replay: %v", err)
	}
	if !strings.Contains(strings.Join(last.Log, "\n"), "You tried") {
		t.Errorf("the log shows no try: %v", last.Log)
	}
}

// TestPageFullInvisibleGame: a person playing through the API plays a whole
// invisible-chess game (2B:1R) against the random bot; the record
// re-referees, and the page's last state is what the rules let the person
// know: the opponent's invisible rook is not on the board, its square is
// in the belief's heat map, which sums to the opponent's invisible pieces
// left, and the person's own invisible bishops are marked.
func TestPageFullInvisibleGame(t *testing.T) {
	d := NewDesk("invisible", chess.White, "random")
	_, p := newTestServer(t, d)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bot, err := players.New("random", 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	configs := [2]invisible.Config{invisible.B2, invisible.R1}
	g := Game{Color: chess.White, Bot: "random", Initial: 60 * time.Second, Increment: time.Second, TurnLimit: 40}
	done := make(chan *invisible.Record, 1)
	go func() {
		rec, err := g.PlayInvisible(ctx, d, configs, bot)
		if err != nil {
			t.Error(err)
		}
		done <- rec
	}()
	last := p.play(ctx)
	rec := <-done
	if rec == nil || last.Result == "" {
		t.Fatalf("result %q, record %v", last.Result, rec)
	}
	if rec.White != "you" || rec.Black != "random" || len(rec.Turns) == 0 {
		t.Errorf("record %q %q, %d turns", rec.White, rec.Black, len(rec.Turns))
	}
	pos, err := rec.Replay()
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	t.Logf("%d turns, %v, %d placements", len(rec.Turns), rec.Result, last.Placements)
	if !strings.Contains(strings.Join(last.Log, "\n"), "You tried") {
		t.Errorf("the log shows no try: %v", last.Log)
	}
	if len(last.Heat) != 64 || last.Placements < 1 {
		t.Fatalf("heat %d squares, %d placements", len(last.Heat), last.Placements)
	}
	sum, alive := 0.0, 0
	for _, q := range last.Heat {
		sum += q
	}
	for _, s := range pos.Inv[chess.Black] {
		if s == chess.NoSquare {
			continue
		}
		alive++
		if last.Heat[s] <= 0 || last.Board[s] != "" {
			t.Errorf("the invisible rook on %s: heat %v, board %q", s, last.Heat[s], last.Board[s])
		}
	}
	if math.Abs(sum-float64(alive)) > 1e-6 {
		t.Errorf("the heat sums to %v, with %d invisible pieces left", sum, alive)
	}
	var hidden []string
	for _, s := range pos.Inv[chess.White] {
		if s != chess.NoSquare {
			hidden = append(hidden, s.String())
		}
	}
	if strings.Join(last.Hidden, ",") != strings.Join(hidden, ",") {
		t.Errorf("own invisible pieces shown %v, on the board %v", last.Hidden, hidden)
	}
	for s := chess.Square(0); s < 64; s++ {
		if pc := pos.Board.PieceAt(s); pc != chess.NoPiece && pc.Color() == chess.Black && last.Board[s] != pc.String() {
			if _, inv := pos.Inv[chess.Black].Has(s); !inv {
				t.Errorf("%s: the visible %v is not shown (%q)", s, pc, last.Board[s])
			}
		}
	}
}

// askOnce opens a sense question on d and returns a channel of its answer.
func askOnce(d *Desk, squares ...string) <-chan Action {
	out := make(chan Action, 1)
	go func() {
		a, _ := d.Ask(context.Background(), "sense", func(s *State) { s.Senses = squares }, func(a Action) error {
			if a.Kind != "sense" {
				return fmt.Errorf("%w: a sense", ErrNotAsked)
			}
			if a.Square != squares[0] {
				return errors.New("web: not a square to sense")
			}
			return nil
		})
		out <- a
	}()
	return out
}

// waitPhase waits until the desk asks phase.
func waitPhase(t *testing.T, p *page, phase string) State {
	t.Helper()
	since := -1
	for range 50 {
		s := p.state(since)
		if s.Phase == phase {
			return s
		}
		since = s.Version
	}
	t.Fatalf("never in phase %s", phase)
	return State{}
}

// TestTwoTabsOneAnswer: two tabs answering the same question at once: one
// is taken, the other is told why not (409), and the game goes on once.
func TestTwoTabsOneAnswer(t *testing.T) {
	d := NewDesk("rbc", chess.White, "bot")
	_, p := newTestServer(t, d)
	answer := askOnce(d, "e4")
	waitPhase(t, p, "sense")
	var wg sync.WaitGroup
	codes := make([]int, 2)
	bodies := make([]string, 2)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], bodies[i] = p.act(Action{Kind: "sense", Square: "e4"})
		}()
	}
	wg.Wait()
	ok, conflict := 0, 0
	for i, c := range codes {
		switch c {
		case http.StatusOK:
			ok++
		case http.StatusConflict:
			conflict++
			if !strings.Contains(bodies[i], "not asked now") {
				t.Errorf("409 without the reason: %s", bodies[i])
			}
		}
	}
	if ok != 1 || conflict != 1 {
		t.Errorf("codes %v: want one 200 and one 409", codes)
	}
	if a := <-answer; a.Square != "e4" {
		t.Errorf("answer %+v", a)
	}
}

// TestStaleQuestion: an action that answers a question no longer open (a
// page drawn before the next one opened) is refused with 409, not played
// into the new one.
func TestStaleQuestion(t *testing.T) {
	d := NewDesk("rbc", chess.White, "bot")
	_, p := newTestServer(t, d)
	first := askOnce(d, "e4")
	old := waitPhase(t, p, "sense")
	p.act(Action{Kind: "sense", Square: "e4", Question: old.Question})
	<-first
	second := askOnce(d, "e4")
	s := waitPhase(t, p, "sense")
	for s.Question == old.Question {
		s = waitPhase(t, p, "sense")
	}
	if code, body := p.act(Action{Kind: "sense", Square: "e4", Question: old.Question}); code != http.StatusConflict || !strings.Contains(body, "another is asked") {
		t.Errorf("stale: %d %s", code, body)
	}
	if code, body := p.act(Action{Kind: "sense", Square: "e4", Question: s.Question}); code != http.StatusOK {
		t.Errorf("current: %d %s", code, body)
	}
	<-second
}

// TestReloadResumes: a new page (a reload, a second tab) gets the game as
// the server holds it, question and log included, and can answer it.
func TestReloadResumes(t *testing.T) {
	d := NewDesk("rbc", chess.White, "bot")
	d.Logf("something happened")
	_, p := newTestServer(t, d)
	answer := askOnce(d, "d5")
	waitPhase(t, p, "sense")
	fresh := p.state(-1) // the reloaded page asks from scratch
	if fresh.Phase != "sense" || len(fresh.Senses) != 1 || len(fresh.Log) != 1 {
		t.Fatalf("reloaded state %+v", fresh)
	}
	if code, body := p.act(Action{Kind: "sense", Square: "d5"}); code != http.StatusOK {
		t.Fatalf("act: %d %s", code, body)
	}
	<-answer
}

// TestClosedTab: a page that goes away in the middle of a long poll leaves
// the game as it was; the next page reads it.
func TestClosedTab(t *testing.T) {
	d := NewDesk("rbc", chess.White, "bot")
	_, p := newTestServer(t, d)
	s := p.state(-1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	if code, _ := p.do(ctx, "GET", fmt.Sprintf("/api/state?since=%d", s.Version), "", nil); code != 0 {
		t.Errorf("the closed poll answered %d", code)
	}
	d.Logf("after the tab closed")
	if got := p.state(s.Version); len(got.Log) != 1 {
		t.Errorf("the next page reads %+v", got)
	}
}

// TestBadRequests: each bad request gets its code and a reason, and
// changes nothing.
func TestBadRequests(t *testing.T) {
	d := NewDesk("rbc", chess.White, "bot")
	_, p := newTestServer(t, d)
	answer := askOnce(d, "e4")
	waitPhase(t, p, "sense")
	before := d.State().Version
	big := `{"kind":"sense","square":"` + strings.Repeat("x", 5000) + `"}`
	for _, c := range []struct {
		name, method, path, body string
		header                   map[string]string
		code                     int
		says                     string
	}{
		{"no token", "GET", "/api/state", "", map[string]string{TokenHeader: ""}, 403, "token"},
		{"wrong token", "POST", "/api/act", `{"kind":"pass"}`, map[string]string{TokenHeader: "nope"}, 403, "token"},
		{"not JSON", "POST", "/api/act", `{"kind":`, nil, 400, "does not parse"},
		{"unknown field", "POST", "/api/act", `{"kind":"sense","what":1}`, nil, 400, "does not parse"},
		{"unknown kind", "POST", "/api/act", `{"kind":"castle"}`, nil, 400, "unknown action"},
		{"too large", "POST", "/api/act", big, nil, 413, "bytes"},
		{"not JSON typed", "POST", "/api/act", `{"kind":"pass"}`, map[string]string{"Content-Type": "text/plain"}, 415, "JSON"},
		{"wrong square", "POST", "/api/act", `{"kind":"sense","square":"a1"}`, nil, 422, "not a square"},
		{"wrong phase", "POST", "/api/act", `{"kind":"move","move":"e2e4"}`, nil, 409, "not asked"},
		{"bad version", "GET", "/api/state?since=x", "", nil, 400, "not a version"},
		{"other host", "GET", "/api/state", "", map[string]string{"Host": "evil.example:80"}, 421, "loopback"},
		{"no replay yet", "GET", "/game", "", nil, 404, "over"},
	} {
		req, _ := http.NewRequest(c.method, p.base+c.path, bytes.NewBufferString(c.body))
		req.Header.Set(TokenHeader, p.token)
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for k, v := range c.header {
			if k == "Host" {
				req.Host = v
			}
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || !strings.Contains(string(data), c.says) {
			t.Errorf("%s: %d %s, want %d saying %q", c.name, resp.StatusCode, data, c.code, c.says)
		}
	}
	if s := d.State(); s.Phase != "sense" || s.Version != before {
		t.Errorf("a bad request changed the game: %+v", s)
	}
	p.act(Action{Kind: "sense", Square: "e4"})
	<-answer
}

// TestPageServed: the page and its assets are embedded and served.
func TestPageServed(t *testing.T) {
	_, p := newTestServer(t, NewDesk("rbc", chess.White, "bot"))
	for _, path := range []string{"/", "/page.js", "/page.css"} {
		if code, body := p.do(context.Background(), "GET", path, "", nil); code != 200 || len(body) < 100 {
			t.Errorf("%s: %d, %d bytes", path, code, len(body))
		}
	}
}
