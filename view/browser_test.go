package view

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/blindfish-rbc/blindfish/analysis"
	"github.com/blindfish-rbc/blindfish/internal/browsertest"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// TestBrowser opens a page in headless Chromium, as a person would: the
// board and the heat map are drawn, the script logs no error, the → key
// moves to the next turn and changes the pieces on the board, End and Home
// jump to the ends, a bot's choices are drawn on its turns, the board fits a
// phone's screen, and screenshots are saved. It runs when
// BLINDFISH_BROWSER_TESTS=1 or CI=true (see internal/browsertest).
func TestBrowser(t *testing.T) {
	exe := browsertest.Chromium(t)
	h := load(t, "attacker_bot-trout_bot-gen-001.json")
	capture := analysis.NewCapture(slog.LevelDebug, 50)
	p, err := Build(context.Background(), h, Options{Colors: both, Sampler: "aosp",
		SamplerOptions: sampler.Options{PoolSize: 500}, Seed: 1,
		Bot: &BotOptions{Spec: "logger", Color: rbc.Black, Player: &loggingBot{log: slog.New(capture)}, Left: time.Minute, Log: capture}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "game.html")
	if err := WriteFile(page, p); err != nil {
		t.Fatal(err)
	}

	b := browsertest.Open(t, exe, 1200, 900)
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(browsertest.URL(page)), chromedp.WaitVisible(chromedp.CSS("#board .sq"))); err != nil {
		t.Fatalf("open the page: %v", err)
	}
	squares := b.Eval(t, `String(document.querySelectorAll("#board .sq").length)`)
	// White's first turn: Black is still on its starting squares, which
	// the belief knows, so their squares are shaded.
	heated := b.Eval(t, `String([...document.querySelectorAll("#board .heat")].filter(e => parseFloat(e.style.opacity) > 0).length)`)
	const labelJS = `document.querySelector("#turnlabel").textContent`
	const factsJS = `document.querySelector("#facts").textContent`
	const botJS = `String(document.querySelectorAll("#overlay .botsense").length) + " " + document.querySelector("#bot").textContent`
	// The pieces on the board, square by square.
	const piecesJS = `[...document.querySelectorAll("#board .sq")].map(s => s.querySelector(".pc").textContent || ".").join("")`
	label, facts, bot, pieces := b.Eval(t, labelJS), b.Eval(t, factsJS), b.Eval(t, botJS), b.Eval(t, piecesJS)
	if err := chromedp.Do(b.Ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatalf("press →: %v", err)
	}
	label2, facts2, bot2, pieces2 := b.Eval(t, labelJS), b.Eval(t, factsJS), b.Eval(t, botJS), b.Eval(t, piecesJS)
	// White's first move (b1c3) is on the board of Black's first turn.
	if pieces == pieces2 || strings.Count(pieces, ".") != 32 {
		t.Errorf("→ did not change the pieces on the board: %q → %q", pieces, pieces2)
	}
	if squares != "64" {
		t.Errorf("%s squares drawn, want 64", squares)
	}
	if n, _ := strconv.Atoi(heated); n < 16 {
		t.Errorf("%s squares shaded on white's first turn, want Black's 16 at least", heated)
	}
	if label == label2 || facts == facts2 {
		t.Errorf("→ did not change the turn: %q → %q", label, label2)
	}
	if !strings.HasPrefix(label2, "2 /") {
		t.Errorf("after →, turn label %q, want turn 2", label2)
	}
	// The bot plays Black: nothing of it on White's first turn, its window
	// and its choices on Black's first.
	if !strings.HasPrefix(bot, "0 ") || !strings.Contains(bot, "not the bot's side") {
		t.Errorf("white's turn: bot overlay %q", bot)
	}
	if !strings.HasPrefix(bot2, "1 ") || !strings.Contains(bot2, "would sensea1") || !strings.Contains(bot2, "its best moves") {
		t.Errorf("black's turn: bot overlay %q", bot2)
	}
	b.Screenshot(t, dir, "viewer.png")

	// End and Home jump to the last and the first frame.
	frames := strings.TrimSpace(label[strings.Index(label, "/")+1:])
	for _, k := range []struct{ key, want string }{{kb.End, frames + " / " + frames}, {kb.Home, "1 / " + frames}, {kb.ArrowLeft, "1 / " + frames}} {
		if err := chromedp.Do(b.Ctx, chromedp.KeyEvent(k.key)); err != nil {
			t.Fatalf("press %q: %v", k.key, err)
		}
		if got := b.Eval(t, labelJS); got != k.want {
			t.Errorf("after %q: turn label %q, want %q", k.key, got, k.want)
		}
	}
	if got := b.Eval(t, piecesJS); got != pieces {
		t.Errorf("Home: pieces %q, want the first turn's %q", got, pieces)
	}

	// On a phone's screen the board fits the width, whole, and nothing
	// scrolls sideways.
	if err := chromedp.Do(b.Ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)); err != nil {
		t.Fatalf("phone viewport: %v", err)
	}
	fit := b.Eval(t, `(() => { const r = document.querySelector("#board").getBoundingClientRect();
		return [Math.round(r.left), Math.round(r.right), Math.round(r.width), document.documentElement.scrollWidth, window.innerWidth].join(" "); })()`)
	var left, right, width, scroll, inner int
	if _, err := fmt.Sscan(fit, &left, &right, &width, &scroll, &inner); err != nil || inner != 390 ||
		left < 0 || right > inner || width < 300 || scroll > inner {
		t.Errorf("on a 390 px wide screen: board left, right, width, page scroll width, window width = %s (%v)", fit, err)
	}
	b.Screenshot(t, dir, "viewer-phone.png")
	for _, pr := range b.Problems() {
		t.Error(pr)
	}
}
