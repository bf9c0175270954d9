package view

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/analysis"
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/sampler"
)

var both = []chess.Color{chess.White, chess.Black}

// pageData pulls the embedded JSON back out of a page (a Page or a
// KriegspielPage), as the page's script does, so that tests check what the
// browser will read.
func pageData[T any](t *testing.T, html []byte) *T {
	t.Helper()
	const open = `<script id="data" type="application/json">`
	_, rest, ok := bytes.Cut(html, []byte(open))
	if !ok {
		t.Fatal("page lacks its data script")
	}
	data, _, ok := bytes.Cut(rest, []byte("</script>"))
	if !ok {
		t.Fatal("data script not closed")
	}
	var p T
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatalf("page data does not parse: %v", err)
	}
	return &p
}

func load(t *testing.T, name string) *rbc.History {
	t.Helper()
	h, err := record.LoadHistoryFile(filepath.Join("..", "testdata", "histories", name))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// checkPage checks a page's data against its record: every turn of both
// players in order, the belief of each side for each of its turns, and
// probabilities that are probabilities.
func checkPage(t *testing.T, name string, h *rbc.History, p *Page, colors []chess.Color) {
	t.Helper()
	nw, nb := len(h.Turns[chess.White]), len(h.Turns[chess.Black])
	if len(p.Plies) != nw+nb {
		t.Fatalf("%s: %d plies, want %d", name, len(p.Plies), nw+nb)
	}
	for i, ply := range p.Plies {
		want := "white"
		if i%2 == 1 {
			want = "black"
		}
		if ply.Color != want || ply.Turn != i/2 {
			t.Fatalf("%s: ply %d is %s's turn %d, want %s's turn %d", name, i, ply.Color, ply.Turn, want, i/2)
		}
	}
	for _, c := range colors {
		tbs := p.Beliefs[c.String()]
		if len(tbs) != len(h.Turns[c]) {
			t.Fatalf("%s: %d %v beliefs, want %d", name, len(tbs), c, len(h.Turns[c]))
		}
		for i, tb := range tbs {
			for _, b := range []*Belief{tb.Start, tb.Sensed, tb.Moved} {
				if b == nil {
					continue
				}
				if len(b.P) != 6*64 {
					t.Fatalf("%s: %v turn %d: %d probabilities", name, c, i, len(b.P))
				}
				for sq := range 64 {
					sum := 0
					for k := range 6 {
						if v := b.P[k*64+sq]; v < 0 || v > 1000 {
							t.Fatalf("%s: %v turn %d: P=%d", name, c, i, v)
						}
						sum += b.P[k*64+sq]
					}
					if sum > 1006 { // six roundings of at most half a thousandth
						t.Fatalf("%s: %v turn %d: square %d sums to %d", name, c, i, sq, sum)
					}
				}
			}
			if tb.Sensed == nil || (h.Turns[c][i].HasMove != (tb.Moved != nil)) {
				t.Fatalf("%s: %v turn %d: moments missing", name, c, i)
			}
		}
	}
}

// TestCorpus makes a page, with both beliefs by a cheap sampler (a small
// aosp pool), for every recorded game, and reads it back.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "histories", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no records: %v", err)
	}
	if testing.Short() {
		files = files[:10]
	}
	for _, f := range files {
		name := filepath.Base(f)
		h := load(t, name)
		p, err := Build(context.Background(), h, Options{Colors: both, Sampler: "aosp",
			SamplerOptions: sampler.Options{PoolSize: 100, Workers: 1}, Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, p); err != nil {
			t.Fatal(err)
		}
		checkPage(t, name, h, pageData[Page](t, buf.Bytes()), both)
	}
}

// TestExact draws the exact belief on two short games: the true enemy
// placement is always in the set, so its probability is positive, and every
// enemy piece of the true board is on a square of positive probability.
func TestExact(t *testing.T) {
	for _, name := range []string{"attacker_bot-random_bot-3-000.json", "attacker_bot-trout_bot-gen-001.json"} {
		h := load(t, name)
		p, err := Build(context.Background(), h, Options{Colors: both, Sampler: "exact", Seed: 1,
			SamplerOptions: sampler.Options{MemoryBudget: 64 << 20}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkPage(t, name, h, p, both)
		for _, c := range both {
			for i, tb := range p.Beliefs[c.String()] {
				if tb.Sensed.Sampled || !tb.Sensed.Exact {
					continue
				}
				if tb.Sensed.Truth <= 0 {
					t.Errorf("%s: %v turn %d: the true placement has probability 0", name, c, i)
				}
				before := chess.MustParseFEN(h.Turns[c][i].FENBefore)
				if !h.Turns[c][i].HasMove {
					continue
				}
				enemy := before.Pieces(c.Other())
				for enemy != 0 {
					sq := enemy.PopFirst()
					k := before.PieceAt(sq).Type() - 1
					if tb.Sensed.P[int(k)*64+int(sq)] == 0 {
						t.Errorf("%s: %v turn %d: the enemy piece on %v has probability 0", name, c, i, sq)
					}
				}
			}
		}
	}
}

// TestCapped checks that a belief larger than MaxBoards is sampled, and
// says so.
func TestCapped(t *testing.T) {
	h := load(t, "attacker_bot-trout_bot-gen-001.json")
	p, err := Build(context.Background(), h, Options{Colors: []chess.Color{chess.White}, Sampler: "aosp",
		SamplerOptions: sampler.Options{PoolSize: 300}, MaxBoards: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b := p.Beliefs["white"][1].Sensed
	if !b.Sampled || b.Counted > 10 {
		t.Errorf("belief of %d boards counted %d, sampled=%v; want a sample of at most 10", b.Size, b.Counted, b.Sampled)
	}
}

// TestWriteFile checks the atomic write: the page lands whole at its path
// and no temporary file is left beside it.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	h := load(t, "attacker_bot-random_bot-3-000.json")
	p, err := Build(context.Background(), h, Options{Source: "game.json"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "game.html")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("<!DOCTYPE html>")) || !bytes.HasSuffix(bytes.TrimSpace(data), []byte("</html>")) {
		t.Error("page is not a whole HTML document")
	}
	if got := pageData[Page](t, data); len(got.Plies) != 7 || got.Beliefs != nil || got.Source != "game.json" {
		t.Errorf("page data: %d plies, beliefs %v, source %q", len(got.Plies), got.Beliefs != nil, got.Source)
	}
	// No network at view time: nothing is fetched from elsewhere.
	for _, s := range []string{"http://", "https://", "src=", "@import"} {
		if i := bytes.Index(data, []byte(s)); i >= 0 && !strings.Contains(string(data[i:min(len(data), i+40)]), "www.w3.org/2000/svg") {
			t.Errorf("page refers outside itself: %q", data[i:min(len(data), i+40)])
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d files, want only the page", len(entries))
	}
	// A folder that does not exist: an error, and nothing written.
	if err := WriteFile(filepath.Join(dir, "no", "such.html"), p); err == nil {
		t.Error("WriteFile into a missing folder succeeded")
	}
}

// TestNoScriptEscape checks that names from the record cannot end the data
// script early.
func TestNoScriptEscape(t *testing.T) {
	h := load(t, "attacker_bot-random_bot-3-000.json")
	h.WhiteName = "</script><script>alert(1)</script>"
	p, err := Build(context.Background(), h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "alert(1)</script>") {
		t.Error("a player name closed the data script")
	}
	if got := pageData[Page](t, buf.Bytes()); got.White != h.WhiteName {
		t.Errorf("white's name came back as %q", got.White)
	}
}

// loggingBot senses a1 and moves the first move action, logging its move
// with runners-up as the Blindfish player does.
type loggingBot struct {
	log   *slog.Logger
	turns int
}

func (b *loggingBot) HandleGameStart(context.Context, chess.Color, chess.Board, string) error {
	return nil
}
func (b *loggingBot) HandleOpponentMoveResult(context.Context, bool, chess.Square) error { return nil }
func (b *loggingBot) ChooseSense(context.Context, []chess.Square, []chess.Move, time.Duration) (chess.Square, error) {
	b.log.Debug("sense", "square", "a1", "value", 3)
	return chess.Square(0), nil
}
func (b *loggingBot) HandleSenseResult(context.Context, []rbc.SquarePiece) error { return nil }
func (b *loggingBot) ChooseMove(_ context.Context, actions []chess.Move, _ time.Duration) (chess.Move, error) {
	b.turns++
	next := actions[0].String() + ":12 0000:-3"
	if b.turns == 2 {
		next = "not a list" // another bot's log: no alternatives
	}
	b.log.Debug("move", "move", actions[0].String(), "next", next)
	return actions[0], nil
}
func (b *loggingBot) HandleMoveResult(context.Context, chess.Move, chess.Move, bool, chess.Square) error {
	return nil
}
func (b *loggingBot) HandleGameEnd(context.Context, rbc.Outcome, *rbc.History) error { return nil }

// TestBotChoices: with a bot, the page holds its sense and move at every
// turn of its side, the runners-up it logged and its log lines, and the
// page's script has what it needs to draw them.
func TestBotChoices(t *testing.T) {
	h := load(t, "attacker_bot-random_bot-3-000.json")
	capture := analysis.NewCapture(slog.LevelDebug, 50)
	bot := &loggingBot{log: slog.New(capture)}
	p, err := Build(context.Background(), h, Options{Bot: &BotOptions{Spec: "logger", Color: chess.Black, Player: bot, Left: time.Minute, Log: capture}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		t.Fatal(err)
	}
	got := pageData[Page](t, buf.Bytes()).Bot
	if got == nil || got.Spec != "logger" || got.Color != "black" || got.LeftS != 60 || len(got.Turns) != len(h.Turns[chess.Black]) {
		t.Fatalf("bot analysis %+v, want black's %d turns", got, len(h.Turns[chess.Black]))
	}
	first := got.Turns[0]
	if first.Sense != "a1" || !first.HasMove || first.Move == "" || len(first.Top) != 2 || first.Top[0].Move != first.Move ||
		first.Top[0].Value != 12 || first.Top[1].Move != "0000" || first.Top[1].Value != -3 {
		t.Errorf("first turn %+v", first)
	}
	if len(first.Log) != 2 || first.Log[0] != "sense square=a1 value=3" || !strings.HasPrefix(first.Log[1], "move move=") {
		t.Errorf("first turn's log %q", first.Log)
	}
	if len(got.Turns[1].Top) != 0 || len(got.Turns[1].Log) != 2 {
		t.Errorf("second turn: alternatives %v from a log that has none, log %q", got.Turns[1].Top, got.Turns[1].Log)
	}
	for _, want := range []string{"D.bot.turns[ply.turn]", `id="showbot"`, "would move"} {
		if !bytes.Contains(buf.Bytes(), []byte(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestParseAlternatives reads the runners-up the Blindfish player logs and
// refuses anything else.
func TestParseAlternatives(t *testing.T) {
	if got := parseAlternatives("e2e4:35 e7e8q:-1.5 0000:0"); len(got) != 3 || got[1] != (Alternative{"e7e8q", -1.5}) || got[2].Move != "0000" {
		t.Errorf("parsed %+v", got)
	}
	for _, bad := range []string{"e2e4", "e2e4:x", "zz99:3", "e2e4:NaN", "e2e4:3 junk"} {
		if got := parseAlternatives(bad); got != nil {
			t.Errorf("%q parsed as %+v", bad, got)
		}
	}
}
