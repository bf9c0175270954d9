package kriegspiel_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/chessclock"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

// quietOptions returns options for tests: a manual clock that never runs
// (so games are deterministic and instant) and a silent logger.
func quietOptions(rules kriegspiel.Ruleset) kriegspiel.Options {
	o := kriegspiel.DefaultOptions()
	o.Rules = rules
	o.Clock = chessclock.NewManual(time.Unix(0, 0))
	o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	o.GameEndTimeout = time.Second
	return o
}

// listener is a random player that keeps what it is told.
type listener struct {
	*kriegspiel.RandomPlayer
	color     chess.Color
	pawnTries int
	heard     []kriegspiel.Heard // everything heard, own answers included
	result    kriegspiel.Result
	rec       *kriegspiel.Record
}

func (l *listener) HandleGameStart(_ context.Context, c chess.Color, _ kriegspiel.Ruleset, _ chess.Board, pawnTries int, _ string) error {
	l.color, l.pawnTries = c, pawnTries
	return nil
}

func (l *listener) HandleOpponentTurn(_ context.Context, heard []kriegspiel.Heard) error {
	l.heard = append(l.heard, heard...)
	return nil
}

func (l *listener) HandleAnswer(_ context.Context, q kriegspiel.Question, a kriegspiel.Answer) error {
	l.heard = append(l.heard, kriegspiel.Heard{Own: true, Question: q, Answer: a})
	return nil
}

func (l *listener) HandleGameEnd(_ context.Context, r kriegspiel.Result, rec *kriegspiel.Record) error {
	l.result, l.rec = r, rec
	return nil
}

// TestRandomGames plays random players against each other under each
// ruleset and checks that every game ends by the rules, that its record
// replays, and that each player heard exactly what the record says it heard.
func TestRandomGames(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 3
	}
	endings := map[kriegspiel.Ending]int{}
	for i := range games {
		rules := []kriegspiel.Ruleset{kriegspiel.Wild16(), kriegspiel.Berkeley(), kriegspiel.BerkeleyAny()}[i%3]
		w := &listener{RandomPlayer: kriegspiel.NewRandomPlayer(uint64(2 * i))}
		b := &listener{RandomPlayer: kriegspiel.NewRandomPlayer(uint64(2*i + 1))}
		res, err := kriegspiel.PlayGame(context.Background(), w, b, quietOptions(rules))
		if err != nil {
			t.Fatal(err)
		}
		rec := res.Record
		if rec.Result.Reason != kriegspiel.ByRules {
			t.Fatalf("game %d: %v, want an ending by the rules", i, rec.Result)
		}
		endings[rec.Result.End]++
		if _, err := rec.Replay(); err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		for _, l := range []*listener{w, b} {
			if l.result != rec.Result || !l.rec.Equal(rec) {
				t.Errorf("game %d: %s was told %v", i, l.color, l.result)
			}
			heard := rec.Heard(l.color)
			// What the opponent's last turn announced comes only with the
			// record: there is no next turn to start with it.
			n := len(l.heard)
			if n > len(heard) || !equalHeard(l.heard, heard[:n]) {
				t.Errorf("game %d: %s heard %d answers, the record says %d", i, l.color, n, len(heard))
				continue
			}
			for _, h := range heard[n:] {
				if h.Own {
					t.Errorf("game %d: %s was not told the answer %v to its own question", i, l.color, h)
				}
			}
		}
		if w.pawnTries != 0 && rules.PawnTries || w.pawnTries != -1 && !rules.PawnTries {
			t.Errorf("game %d: pawn tries at the start %d", i, w.pawnTries)
		}
	}
	t.Logf("%d games: %v", games, endings)
}

func equalHeard(a, b []kriegspiel.Heard) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// scripted is a player whose ChooseQuestion is a function.
type scripted struct {
	kriegspiel.RandomPlayer
	choose func(ctx context.Context, questions []kriegspiel.Question) (kriegspiel.Question, error)
}

func (s *scripted) ChooseQuestion(ctx context.Context, questions []kriegspiel.Question, _ time.Duration) (kriegspiel.Question, error) {
	return s.choose(ctx, questions)
}

func TestRefereeEndings(t *testing.T) {
	random := func(seed uint64) kriegspiel.Player { return kriegspiel.NewRandomPlayer(seed) }
	clock := chessclock.NewManual(time.Unix(0, 0))
	for _, c := range []struct {
		name  string
		black kriegspiel.Player
		opts  func(*kriegspiel.Options)
		want  kriegspiel.Result
	}{
		{"error resigns", &scripted{choose: func(context.Context, []kriegspiel.Question) (kriegspiel.Question, error) {
			return kriegspiel.Question{}, errors.New("no idea")
		}}, nil, kriegspiel.Result{Reason: kriegspiel.Resign, Winner: chess.White, HasWinner: true,
			Detail: "black's ChooseQuestion failed: no idea"}},
		{"panic resigns", &scripted{choose: func(context.Context, []kriegspiel.Question) (kriegspiel.Question, error) {
			panic("boom")
		}}, nil, kriegspiel.Result{Reason: kriegspiel.Resign, Winner: chess.White, HasWinner: true,
			Detail: "black's ChooseQuestion failed: panic: boom"}},
		{"too many questions", &scripted{choose: func(context.Context, []kriegspiel.Question) (kriegspiel.Question, error) {
			return kriegspiel.TryMove(chess.Move{From: chess.A1, To: chess.H8}), nil // not even our piece
		}}, func(o *kriegspiel.Options) { o.QuestionLimit = 50 }, kriegspiel.Result{Reason: kriegspiel.Resign, Winner: chess.White, HasWinner: true,
			Detail: "black asked 50 questions in one turn without making a move"}},
		{"time", &scripted{choose: func(ctx context.Context, qs []kriegspiel.Question) (kriegspiel.Question, error) {
			clock.Advance(time.Hour)
			<-ctx.Done()
			return qs[0], nil
		}}, func(o *kriegspiel.Options) { o.Clock = clock }, kriegspiel.Result{Reason: kriegspiel.Timeout, Winner: chess.White, HasWinner: true}},
		{"turn limit", random(7), func(o *kriegspiel.Options) { o.TurnLimit = 5 }, kriegspiel.Result{Reason: kriegspiel.TurnLimit}},
		{"mate from the start", random(7), func(o *kriegspiel.Options) { o.StartFEN = "R6k/8/6K1/8/8/8/8/8 b - - 0 1" },
			kriegspiel.Result{Reason: kriegspiel.ByRules, End: kriegspiel.CheckmateWhiteWins, Winner: chess.White, HasWinner: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := quietOptions(kriegspiel.Wild16())
			if c.opts != nil {
				c.opts(&opts)
			}
			res, err := kriegspiel.PlayGame(context.Background(), random(1), c.black, opts)
			if err != nil {
				t.Fatal(err)
			}
			got := res.Record.Result
			if c.want.Detail == "" { // a loss on time says how it overran; either way will do
				got.Detail = ""
			}
			if got != c.want {
				t.Errorf("result %v, want %v", res.Record.Result, c.want)
			}
			if _, err := res.Record.Replay(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestPlayGameRefusesBadOptions(t *testing.T) {
	p := kriegspiel.NewRandomPlayer(1)
	for _, o := range []func(*kriegspiel.Options){
		func(o *kriegspiel.Options) { o.Rules = kriegspiel.Ruleset{} },
		func(o *kriegspiel.Options) { o.InitialTime = 0 },
		func(o *kriegspiel.Options) { o.Increment = -1 },
		func(o *kriegspiel.Options) { o.StartFEN = "8/8/8/8/8/8/8/8 w - - 0 1" },
	} {
		opts := quietOptions(kriegspiel.Wild16())
		o(&opts)
		if _, err := kriegspiel.PlayGame(context.Background(), p, p, opts); err == nil {
			t.Errorf("%+v accepted", opts)
		}
	}
	if _, err := kriegspiel.PlayGame(context.Background(), nil, p, quietOptions(kriegspiel.Wild16())); err == nil {
		t.Error("a nil player accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := kriegspiel.PlayGame(ctx, p, p, quietOptions(kriegspiel.Wild16())); !errors.Is(err, kriegspiel.ErrAborted) {
		t.Errorf("cancelled context: %v, want ErrAborted", err)
	}
}

// TestRecordJSONRoundTrip writes random games' records and reads them back.
func TestRecordJSONRoundTrip(t *testing.T) {
	for i, rules := range []kriegspiel.Ruleset{kriegspiel.Wild16(), kriegspiel.Berkeley(), kriegspiel.BerkeleyAny(), kriegspiel.Wild16().WithChessDraws()} {
		opts := quietOptions(rules)
		opts.WhiteName, opts.BlackName = "random", "random \"quoted\""
		res, err := kriegspiel.PlayGame(context.Background(), kriegspiel.NewRandomPlayer(uint64(i)), kriegspiel.NewRandomPlayer(uint64(i+10)), opts)
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		if err := ksrecord.Write(&sb, res.Record); err != nil {
			t.Fatal(err)
		}
		got, err := ksrecord.Read(strings.NewReader(sb.String()))
		if err != nil {
			t.Fatalf("%s: %v", rules.Name, err)
		}
		if !got.Equal(res.Record) {
			t.Errorf("%s: the record read back differs", rules.Name)
		}
		if _, err := got.Replay(); err != nil {
			t.Errorf("%s: %v", rules.Name, err)
		}
	}
	rec := &kriegspiel.Record{Ruleset: kriegspiel.Wild16(), StartFEN: chess.StartFEN, FinalFEN: chess.StartFEN, PawnTries: 0}
	rec.Ruleset.PublicIllegal = true
	if err := ksrecord.Write(io.Discard, rec); err == nil {
		t.Error("a changed ruleset was written under its old name")
	}
}
