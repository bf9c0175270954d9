package match

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// checkVoid fails unless rep holds no counted game and the void games of
// failed (the spec that failed in each), and the table shows them as that
// side's errors, never as a win of the other.
func checkVoid(t *testing.T, cfg Config, rep Report, failed string) {
	t.Helper()
	if rep.Finished() != 0 || len(rep.Void) != cfg.Games {
		t.Fatalf("%d games counted, %d void; want all %d void", rep.Finished(), len(rep.Void), cfg.Games)
	}
	for _, r := range rep.Void {
		if !r.Outcome.Void() || r.Outcome.HasWinner || [2]string{r.White, r.Black}[r.Outcome.Failed] != failed {
			t.Errorf("game %d: %s, want void by %s", r.Game, r.Outcome, failed)
		}
	}
	side := 1 // the errors column's side of failed: bot/opponent
	if failed == cfg.Bot {
		side = 0
	}
	errs := [2]int{}
	errs[side] = cfg.Games
	table := cellsWithoutTimes(MatchTable(cfg.Bot, cfg.Opponent, append(rep.Results, rep.Void...)))
	both := table[len(table)-1]
	// bot, opponent, as, games, wins, draws, losses, score, elo, interval,
	// turns, time losses, errors, degraded, reasons
	if both[2] != "both" || both[3] != "0" || both[4] != "0" || both[6] != "0" ||
		both[12] != fmt.Sprintf("%d/%d", errs[0], errs[1]) || both[14] != fmt.Sprintf("ERROR %d", cfg.Games) {
		t.Errorf("table row %v: want no game counted, %d errors of %s", both, cfg.Games, failed)
	}
	if cfg.Out == "" {
		return
	}
	f, err := ReadMatchFolders([]string{cfg.Out}, ReadRBCRecord)
	if err != nil || len(f.Results) != 0 || f.Bare != 0 || len(f.Void) != cfg.Games {
		t.Errorf("read back: %d games, %d bare, %d void, %v", len(f.Results), f.Bare, len(f.Void), err)
	}
}

// TestEngineThatCannotStartVoidsGames: an external engine that does not
// start is no loss by resignation: its games are void, its failure is told
// once, and the match fails naming the bot and the error. A resumed match
// plays the void games again.
func TestEngineThatCannotStartVoidsGames(t *testing.T) {
	const spec = "cmd:/nonexistent/engine"
	cfg := testConfig(t.TempDir(), 2)
	cfg.Opponent = spec
	cfg.NewBot = botspec.NewResolver(nil, "").NewPlayer
	var told notices
	cfg.Notice = told.add
	rep, err := Play(context.Background(), cfg)
	if !errors.Is(err, ErrBotFailed) || !strings.Contains(err.Error(), `"`+spec+`"`) ||
		!strings.Contains(err.Error(), "/nonexistent/engine") {
		t.Errorf("err %v, want ErrBotFailed naming %s and its error", err, spec)
	}
	checkVoid(t, cfg, rep, spec)
	if len(told.msgs) != 1 || !strings.Contains(told.msgs[0], spec) || !strings.Contains(told.msgs[0], "/nonexistent/engine") {
		t.Errorf("notices %q: want the failure once", told.msgs)
	}

	cfg.Resume = true
	rep, err = Play(context.Background(), cfg)
	if !errors.Is(err, ErrBotFailed) || rep.Resumed != 0 || len(rep.Void) != 2 {
		t.Errorf("resumed over void games: resumed %d, void %d, %v", rep.Resumed, len(rep.Void), err)
	}
}

// fakeStockfish sets $STOCKFISH_EXECUTABLE to a program that exits at once,
// as a broken Stockfish does.
func fakeStockfish(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake Stockfish is a shell script")
	}
	path := filepath.Join(t.TempDir(), "stockfish")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("STOCKFISH_EXECUTABLE", path)
}

// TestBrokenStockfishVoidsTroutGames: Trout whose Stockfish cannot start
// forfeits nothing: its games are void and the match fails naming it.
func TestBrokenStockfishVoidsTroutGames(t *testing.T) {
	fakeStockfish(t)
	cfg := testConfig(t.TempDir(), 2)
	cfg.Bot = "trout"
	var told notices
	cfg.Notice = told.add
	rep, err := Play(context.Background(), cfg)
	if !errors.Is(err, ErrBotFailed) || !strings.Contains(err.Error(), `"trout"`) || !strings.Contains(err.Error(), "Stockfish") {
		t.Errorf("err %v, want ErrBotFailed naming trout and Stockfish", err)
	}
	checkVoid(t, cfg, rep, "trout")
	if len(told.msgs) == 0 || len(told.msgs) > 2 {
		t.Errorf("notices %q: want each distinct failure once", told.msgs)
	}

	// A Stockfish that does not exist at all fails the bot's factory: an
	// error of the match, and no game counted either.
	t.Setenv("STOCKFISH_EXECUTABLE", "/nonexistent")
	rep, err = Play(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "/nonexistent") || rep.Finished() != 0 {
		t.Errorf("trout without Stockfish: %d counted, %v", rep.Finished(), err)
	}
}

// flaky is a random player that fails at its second move when it plays
// White, by an error or a panic.
type flaky struct {
	rbc.Player
	panics bool
	white  bool
	moves  int
}

func (f *flaky) HandleGameStart(ctx context.Context, c chess.Color, b chess.Board, opp string) error {
	f.white = c == chess.White
	return f.Player.HandleGameStart(ctx, c, b, opp)
}

func (f *flaky) ChooseMove(ctx context.Context, moves []chess.Move, left time.Duration) (chess.Move, error) {
	if f.moves++; f.white && f.moves == 2 {
		if f.panics {
			panic("flaky: out of its mind")
		}
		return chess.Move{}, errors.New("flaky: lost its engine")
	}
	return f.Player.ChooseMove(ctx, moves, left)
}

// TestFailureMidGameVoidsOnlyThatGame: a bot whose callback fails (an error
// or a panic) in the middle of a game voids that game alone; its other
// games count, and the match does not fail.
func TestFailureMidGameVoidsOnlyThatGame(t *testing.T) {
	for _, panics := range []bool{false, true} {
		cfg := testConfig(t.TempDir(), 2) // flaky is White in game 1
		cfg.Opponent = "flaky"
		cfg.NewBot = func(spec string, seed int64) (rbc.Player, error) {
			if spec != "flaky" {
				return builtinBots(spec, seed)
			}
			p, err := builtinBots("random", seed)
			return &flaky{Player: p, panics: panics}, err
		}
		var told notices
		cfg.Notice = told.add
		rep, err := Play(context.Background(), cfg)
		if err != nil {
			t.Fatalf("panics %v: %v", panics, err)
		}
		if rep.Results[0] == nil || rep.Results[1] != nil || len(rep.Void) != 1 ||
			rep.Void[0].Game != 1 || rep.Void[0].Outcome.Failed != chess.White || rep.Void[0].Turns[chess.White] != 2 {
			t.Fatalf("panics %v: results %v, void %v", panics, rep.Results, rep.Void)
		}
		if msg := told.all(); !strings.Contains(msg, `"flaky"`) || !strings.Contains(msg, "game 1") {
			t.Errorf("panics %v: notices %q", panics, msg)
		}
		s := GroupPairings(append(rep.Results, rep.Void...))[0].Both
		if s.Games != 1 || s.Void != 1 || s.Errors != [2]int{0, 1} || s.Wins+s.Draws+s.Losses != 1 {
			t.Errorf("panics %v: stats %+v", panics, s)
		}
	}
}
