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
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/browsertest"
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
		Bot: &BotOptions{Spec: "logger", Color: chess.Black, Player: &loggingBot{log: slog.New(capture)}, Left: time.Minute, Log: capture}})
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

// TestBrowserKriegspiel opens the page of a Kriegspiel game in headless
// Chromium and steps through it: the true board with a belief's heat map,
// → to the next turn (other pieces, other answers), an illegal try and a
// capture in words with its square crossed, End and Home, and on a
// player's page whose belief stopped at a limit, its own men only and the
// note where the belief is missing. It runs as TestBrowser does.
func TestBrowserKriegspiel(t *testing.T) {
	exe := browsertest.Chromium(t)
	rec := scriptedGame(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "ks.html")
	p, err := BuildKriegspiel(context.Background(), rec, Options{Colors: both})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteKriegspielFile(page, p); err != nil {
		t.Fatal(err)
	}
	b := browsertest.Open(t, exe, 1200, 900)
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(browsertest.URL(page)), chromedp.WaitVisible(chromedp.CSS("#board .sq"))); err != nil {
		t.Fatalf("open the page: %v", err)
	}
	const labelJS = `document.querySelector("#turnlabel").textContent`
	const triesJS = `document.querySelector("#tries").textContent`
	const piecesJS = `[...document.querySelectorAll("#board .sq")].map(s => s.querySelector(".pc").textContent || ".").join("")`
	const heatedJS = `String([...document.querySelectorAll("#board .heat")].filter(e => parseFloat(e.style.opacity) > 0).length)`
	const marksJS = `String(document.querySelectorAll("#overlay .move").length) + " " + document.querySelectorAll("#overlay .capture").length`
	if got := b.Eval(t, `String(document.querySelectorAll("#board .sq").length)`); got != "64" {
		t.Errorf("%s squares drawn, want 64", got)
	}
	// White's belief at the start: Black's 16 men, in the one board.
	if got := b.Eval(t, heatedJS); got != "16" {
		t.Errorf("%s squares shaded at the start, want Black's 16", got)
	}
	label, tries, pieces := b.Eval(t, labelJS), b.Eval(t, triesJS), b.Eval(t, piecesJS)
	if label != "1 / 7" || !strings.Contains(tries, "e2e4legal") || strings.Count(pieces, ".") != 32 {
		t.Errorf("first frame: label %q, tries %q, pieces %q", label, tries, pieces)
	}
	step := func(key string) {
		t.Helper()
		if err := chromedp.Do(b.Ctx, chromedp.KeyEvent(key)); err != nil {
			t.Fatalf("press %q: %v", key, err)
		}
	}
	step(kb.ArrowRight)
	if got := b.Eval(t, piecesJS); got == pieces {
		t.Errorf("→ did not change the pieces: %q", got)
	}
	step(kb.ArrowRight)
	if label, tries := b.Eval(t, labelJS), b.Eval(t, triesJS); label != "3 / 7" ||
		!strings.Contains(tries, "e4e5illegal (heard by white only)") || !strings.Contains(tries, "d2d4legal; black's pawn tries: 1") {
		t.Errorf("White's second turn: label %q, tries %q", label, tries)
	}
	step(kb.ArrowRight)
	if tries, marks := b.Eval(t, triesJS), b.Eval(t, marksJS); !strings.Contains(tries, "captures on d4 (a pawn)") || marks != "1 1" {
		t.Errorf("Black's capture: tries %q, move and capture marks %q", tries, marks)
	}
	b.Screenshot(t, dir, "kriegspiel.png")
	step(kb.End)
	if label, head := b.Eval(t, labelJS), b.Eval(t, `document.querySelector("#turnhead").textContent`); label != "7 / 7" || head != "End of the game" {
		t.Errorf("End: label %q, head %q", label, head)
	}
	step(kb.Home)
	if got := b.Eval(t, labelJS); got != "1 / 7" {
		t.Errorf("Home: label %q", got)
	}

	// Black's own page, its belief stopped past 30 boards.
	p, err = BuildKriegspiel(context.Background(), rec, Options{Colors: []chess.Color{chess.Black}, MaxBoards: 30})
	if err != nil {
		t.Fatal(err)
	}
	page = filepath.Join(dir, "ks-black.html")
	if err := WriteKriegspielFile(page, p); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(browsertest.URL(page)+"#3"), chromedp.WaitVisible(chromedp.CSS("#board .sq"))); err != nil {
		t.Fatalf("open black's page: %v", err)
	}
	const noteJS = `document.querySelector("#beliefnote").textContent`
	if label, tries, note := b.Eval(t, labelJS), b.Eval(t, triesJS), b.Eval(t, noteJS); label != "3 / 7" ||
		strings.Contains(tries, "e4e5") || !strings.Contains(tries, "a movelegal") || note != "" {
		t.Errorf("White's second turn as Black heard it: label %q, tries %q, note %q", label, tries, note)
	}
	if got := b.Eval(t, piecesJS); strings.Count(got, ".") != 48 {
		t.Errorf("black's board shows %d men, want its own 16: %q", 64-strings.Count(got, "."), got)
	}
	step(kb.ArrowRight)
	if note, heated := b.Eval(t, noteJS), b.Eval(t, heatedJS); !strings.Contains(note, "not followed from frame 4 on") || heated != "0" {
		t.Errorf("past the limit: note %q, %s squares shaded", note, heated)
	}
	b.Screenshot(t, dir, "kriegspiel-black.png")
	for _, pr := range b.Problems() {
		t.Error(pr)
	}
}
