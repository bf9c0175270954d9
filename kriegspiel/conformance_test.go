package kriegspiel

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// The cross-check with the reference referee. testdata/kriegspiel/ holds
// games the reference played (scripts/kriegspiel/dump_reference.py wrote
// them; docs/kriegspiel.md says how to make more): every question and every
// field of every answer, who heard it, and how many questions the player to
// move could ask next. Each game is replayed through our Game and must agree
// everywhere. BLINDFISH_KRIEGSPIEL_DUMPS names more dump files (a
// colon-separated list, .jsonl or .jsonl.gz) to replay the same way.

// referenceGame is one line of a dump.
type referenceGame struct {
	Ruleset   string   `json:"ruleset"`
	Seed      int      `json:"seed"`
	Name      string   `json:"name"` // a hand-made case's name
	FEN       string   `json:"fen"`
	Questions int      `json:"questions"`
	PawnTries *int     `json:"pawn_tries"`
	Events    []string `json:"events"`
	Over      bool     `json:"over"`
	FinalFEN  string   `json:"final_fen"`
}

// referenceEvent is one question and answer of a dump, parsed.
type referenceEvent struct {
	question  Question
	answer    Answer
	own, opp  bool // on the asker's scoresheet, on the opponent's
	questions int  // questions the player to move may ask afterwards
}

// parseReferenceEvent reads "QUESTION MAIN CAPTURE KIND SPECIAL CHECK1
// CHECK2 TRIES HEARD N" (see the dump script).
func parseReferenceEvent(s string) (referenceEvent, error) {
	f := strings.Fields(s)
	if len(f) != 10 {
		return referenceEvent{}, fmt.Errorf("want 10 fields, got %d", len(f))
	}
	var e referenceEvent
	var err error
	if e.question, err = ParseQuestion(f[0]); err != nil {
		return e, err
	}
	e.answer = VerdictOnly(0)
	if e.answer.Verdict, err = ParseVerdict(f[1]); err != nil {
		return e, err
	}
	if f[2] != "-" {
		if e.answer.Capture, err = chess.ParseSquare(f[2]); err != nil {
			return e, err
		}
	}
	if f[3] != "-" {
		if e.answer.Captured, err = ParseCaptureKind(f[3]); err != nil {
			return e, err
		}
	}
	switch special := f[4]; {
	case special == "CHECK_DOUBLE":
		if e.answer.Checks[0], err = ParseCheck(f[5]); err != nil {
			return e, err
		}
		if e.answer.Checks[1], err = ParseCheck(f[6]); err != nil {
			return e, err
		}
	case strings.HasPrefix(special, "CHECK_"):
		if e.answer.Checks[0], err = ParseCheck(special); err != nil {
			return e, err
		}
	default:
		if e.answer.End, err = ParseEnding(special); err != nil {
			return e, err
		}
	}
	if f[7] != "-" {
		if e.answer.PawnTries, err = strconv.Atoi(f[7]); err != nil {
			return e, err
		}
	}
	if len(f[8]) != 2 {
		return e, fmt.Errorf("heard %q: want two digits", f[8])
	}
	e.own, e.opp = f[8][0] == '1', f[8][1] == '1'
	if e.questions, err = strconv.Atoi(f[9]); err != nil {
		return e, err
	}
	return e, nil
}

// readReferenceGames reads a dump, gzipped or not.
func readReferenceGames(path string) ([]referenceGame, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer z.Close()
		r = z
	}
	var games []referenceGame
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<26)
	for line := 1; sc.Scan(); line++ {
		var g referenceGame
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		games = append(games, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return games, nil
}

// replayReferenceGame plays one reference game through our referee and
// returns the number of answers compared, or the first disagreement.
func replayReferenceGame(rg referenceGame) (int, error) {
	rules, err := ParseRuleset(rg.Ruleset)
	if err != nil {
		return 0, err
	}
	g, err := NewGameFromFEN(rules, rg.FEN)
	if err != nil {
		return 0, err
	}
	wantTries := -1
	if rg.PawnTries != nil {
		wantTries = *rg.PawnTries
	}
	if got := g.PawnTries(); got != wantTries {
		return 0, fmt.Errorf("start: pawn tries %d, reference %d", got, wantTries)
	}
	if got := len(g.Questions(nil)); got != rg.Questions {
		return 0, fmt.Errorf("start: %d questions, reference %d: ours %v", got, rg.Questions, g.Questions(nil))
	}
	for i, s := range rg.Events {
		e, err := parseReferenceEvent(s)
		if err != nil {
			return i, fmt.Errorf("event %d %q: %w", i, s, err)
		}
		before := g.Board()
		canAsk := g.CanAsk(e.question)
		questions := g.Questions(nil)
		a, err := g.Ask(e.question)
		if err != nil {
			return i, fmt.Errorf("event %d %q: %w", i, s, err)
		}
		if a != e.answer {
			return i, fmt.Errorf("event %d on %s: %s answered %q, reference %q (askable %v; askable were %v)",
				i, before.FEN(), e.question, a, e.answer, canAsk, questions)
		}
		if own, opp := a.Verdict != Impossible, rules.HeardByOpponent(a); own != e.own || opp != e.opp {
			return i, fmt.Errorf("event %d on %s: %s heard by asker %v, opponent %v; reference %v, %v",
				i, before.FEN(), s, own, opp, e.own, e.opp)
		}
		if got := g.Questions(nil); len(got) != e.questions {
			b := g.Board()
			return i, fmt.Errorf("event %d: after %s, %d questions on %s, reference %d: ours %v",
				i, s, len(got), b.FEN(), e.questions, got)
		}
	}
	b := g.Board()
	if b.FEN() != rg.FinalFEN {
		return len(rg.Events), fmt.Errorf("final position %s, reference %s", b.FEN(), rg.FinalFEN)
	}
	if g.Over() != rg.Over {
		return len(rg.Events), fmt.Errorf("over %v, reference %v", g.Over(), rg.Over)
	}
	return len(rg.Events), nil
}

// TestAnswersEqualReference replays every game of the reference dumps.
func TestAnswersEqualReference(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "kriegspiel", "*.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if extra := os.Getenv("BLINDFISH_KRIEGSPIEL_DUMPS"); extra != "" {
		paths = append(paths, strings.Split(extra, ":")...)
	}
	if len(paths) == 0 {
		t.Fatal("no reference dumps in testdata/kriegspiel")
	}
	games, answers := 0, 0
	byRuleset := map[string]int{}
	endings := map[string]int{}
	for _, path := range paths {
		rgs, err := readReferenceGames(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, rg := range rgs {
			n, err := replayReferenceGame(rg)
			answers += n
			if err != nil {
				t.Errorf("%s: game seed %d %q (%s from %s): %v", filepath.Base(path), rg.Seed, rg.Name, rg.Ruleset, rg.FEN, err)
				continue
			}
			games++
			byRuleset[rg.Ruleset]++
			if rg.Over && len(rg.Events) > 0 {
				endings[strings.Fields(rg.Events[len(rg.Events)-1])[4]]++
			}
		}
	}
	t.Logf("%d games (%v), %d answers equal the reference's; endings %v", games, byRuleset, answers, endings)
}
