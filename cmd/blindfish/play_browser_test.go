package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/blindfish-rbc/blindfish/game"
	"github.com/blindfish-rbc/blindfish/internal/browsertest"
	"github.com/blindfish-rbc/blindfish/internal/syncbuf"
	"github.com/blindfish-rbc/blindfish/protocol/web"
	"github.com/blindfish-rbc/blindfish/record"
)

// TestBrowserPlay plays a whole game of each game through the page in
// headless Chromium, as a person would: a click on a square senses, a
// click on a man and one on its target moves (or tries) it, the page
// follows the game to its end and opens the replay, and the saved record
// re-referees (RBC, Kriegspiel, and invisible chess under its default
// pieces). BLINDFISH_PLAY_SCREENSHOT=FILE also saves the page in the
// middle of the RBC game (docs/play.png is one). It runs when
// BLINDFISH_BROWSER_TESTS=1 or CI=true (see internal/browsertest).
func TestBrowserPlay(t *testing.T) {
	exe := browsertest.Chromium(t)
	for _, c := range []struct{ game, color string }{{"rbc", "white"}, {"kriegspiel", "black"}, {"invisible", "white"}} {
		t.Run(c.game, func(t *testing.T) {
			dir := t.TempDir()
			var out, errs syncbuf.Buffer
			// A hang guard, not a bound on speed: under the race detector on
			// a loaded machine an RBC game through the page took 139 s.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			done := make(chan error, 1)
			go func() {
				done <- runPlay(ctx, []string{"--game", c.game, "--color", c.color, "--bot", "random", "--clock", "300+5",
					"--turn-limit", "10", "--seed", "7", "--open=false", "--linger", "1m", "--out", dir}, &out, &errs)
			}()
			url := waitForURL(t, &out, done)
			b := browsertest.Open(t, exe, 1100, 800)
			if err := chromedp.Do(b.Ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#board .sq"))); err != nil {
				t.Fatalf("open the page: %v", err)
			}
			clicks := playThroughPage(t, b, c.game == "rbc")
			if err := <-done; err != nil {
				t.Fatalf("play: %v\n%s%s", err, out.String(), errs.String())
			}
			if loc, _ := chromedp.Run(b.Ctx, chromedp.Location()); !strings.Contains(loc, "/game") {
				t.Errorf("the page did not open the replay: at %s", loc)
			}
			recs, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			if len(recs) != 1 {
				t.Fatalf("records %v", recs)
			}
			r, err := record.LoadRecord(recs[0])
			if err != nil {
				t.Fatal(err)
			}
			if line, ok, err := game.Check(context.Background(), r, false); !ok || err != nil {
				t.Errorf("replay --check: %s %v", line, err)
			}
			if p := b.Problems(); len(p) > 0 {
				t.Errorf("the page reported: %v", p)
			}
			t.Logf("%d clicks; %s", clicks, strings.TrimSpace(out.String()))
		})
	}
}

// waitForURL returns the address the command printed.
func waitForURL(t *testing.T, out *syncbuf.Buffer, done <-chan error) string {
	t.Helper()
	re := regexp.MustCompile(`Play at (http://\S+)`)
	// A hang guard, not a bound on speed: a starved machine is slow to
	// start the server.
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		if m := re.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-done:
			t.Fatalf("play ended before it served: %v\n%s", err, out.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatal("no address printed")
	return ""
}

// playThroughPage answers the page's questions by clicking, until the page
// opens the replay; it returns the clicks made.
func playThroughPage(t *testing.T, b *browsertest.Browser, shoot bool) int {
	t.Helper()
	clicks, version, moves, last := 0, -1, 0, ""
	defer func() {
		if t.Failed() {
			t.Logf("the page's last state: %s", last)
		}
	}()
	// The states handled are bounded (a game that never ends), and the time
	// only by a hang guard: the waits for the bot's turns are as long as
	// the machine makes them, and counting them let a slow game run out.
	deadline := time.Now().Add(10 * time.Minute)
	for handled := 0; handled < 4000 && time.Now().Before(deadline); {
		// The page navigates to the replay on its own at the end: an
		// evaluation it cuts short is asked again.
		raw, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`location.pathname === "/game" ? "replay" : JSON.stringify(window.bfState || null)`))
		if err != nil {
			if b.Ctx.Err() != nil {
				t.Fatalf("the browser tab ended before the game: %v", err)
			}
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if raw == "replay" {
			return clicks
		}
		last = raw
		var s web.State
		if raw == "null" || json.Unmarshal([]byte(raw), &s) != nil || s.Version == version {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		version = s.Version
		handled++
		var squares []string
		switch s.Phase {
		case "sense":
			squares = []string{s.Senses[(clicks*7)%len(s.Senses)]}
		case "move", "try":
			m := s.Moves[(clicks*5)%len(s.Moves)]
			squares = []string{m[:2], m[2:4]}
			moves++
		default:
			continue
		}
		if shoot && moves == 6 && s.Phase == "move" {
			if path := os.Getenv("BLINDFISH_PLAY_SCREENSHOT"); path != "" {
				b.Screenshot(t, filepath.Dir(path), filepath.Base(path))
			}
		}
		for _, sq := range squares {
			// A click fails when the page draws the board again under it
			// (a pick redraws it, and so does each state), and it waits for
			// its square for ever if the page has left the board. Either
			// way the state is read and answered again: the page's state
			// does not change for a click it missed, and waiting for a new
			// one (as this loop once did) waited until the hang guard.
			cctx, ccancel := context.WithTimeout(b.Ctx, 15*time.Second)
			err := chromedp.Do(cctx, chromedp.Click(chromedp.CSS(`#board .sq[data-square="`+sq+`"]`)))
			ccancel()
			if err != nil {
				t.Logf("click on %s in state %d: %v; answering it again", sq, s.Version, err)
				version = -1
				break
			}
			clicks++
		}
	}
	t.Fatal("the game did not end through the page")
	return clicks
}

// TestPageKeepsAPickMadeWhileAnAnswerIsOnItsWay: a man picked while the
// page's last action is still on its way to the server stays picked when
// the answer comes. A refused try is asked again at once, so the next
// question can be drawn, and clicked, before the page hears that its
// action was taken; a page that dropped its pick at the answer left the
// second click of the next try with nothing to move (a game through the
// page that waited for ever). The action's request is held in the page
// and answered there, so the server's game does not move on meanwhile.
func TestPageKeepsAPickMadeWhileAnAnswerIsOnItsWay(t *testing.T) {
	exe := browsertest.Chromium(t)
	dir := t.TempDir()
	var out, errs syncbuf.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	defer func() { cancel(); <-done }()
	go func() {
		done <- runPlay(ctx, []string{"--game", "kriegspiel", "--color", "white", "--bot", "random", "--clock", "300+5",
			"--seed", "7", "--open=false", "--linger", "1s", "--out", dir}, &out, &errs)
	}()
	url := waitForURL(t, &out, done)
	b := browsertest.Open(t, exe, 1100, 800)
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#board .sq"))); err != nil {
		t.Fatalf("open the page: %v", err)
	}
	var s web.State
	for s.Phase != "try" {
		if raw := b.Eval(t, `JSON.stringify(window.bfState || null)`); raw == "null" || json.Unmarshal([]byte(raw), &s) != nil || s.Phase != "try" {
			time.Sleep(20 * time.Millisecond)
		}
	}
	// Two tries from different men: the first is sent, the second's man
	// picked while the first is unanswered.
	first, other := s.Moves[0], ""
	for _, m := range s.Moves {
		if m[:2] != first[:2] {
			other = m[:2]
			break
		}
	}
	if other == "" {
		t.Fatalf("tries %v: want two men with a try", s.Moves)
	}
	b.Eval(t, `(() => {
		const real = window.fetch;
		window.fetch = (path, opts) => String(path).startsWith("/api/act")
			? new Promise(r => { window.answerAct = () => r(new Response("{}", {status: 200, headers: {"Content-Type": "application/json"}})); })
			: real(path, opts);
		return "held";
	})()`)
	click := func(sq string) {
		t.Helper()
		if err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.CSS(`#board .sq[data-square="`+sq+`"]`))); err != nil {
			t.Fatalf("click %s: %v", sq, err)
		}
	}
	click(first[:2])
	click(first[2:4])
	click(other)
	if got := b.Eval(t, `String(selected)`); got != other {
		t.Fatalf("picked %s before the answer, want %s", got, other)
	}
	b.Eval(t, `(window.answerAct(), "answered")`)
	// The answer is taken in the page's next turn of its event loop.
	got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`new Promise(r => setTimeout(() => r(String(selected)), 100))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if got != other {
		t.Errorf("picked %s after the answer came, want %s still", got, other)
	}
	if p := b.Problems(); len(p) > 0 {
		t.Errorf("the page reported: %v", p)
	}
}
