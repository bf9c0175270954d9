package bots

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/chessclock"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// TestBotsMateALoneKing: from won endings (queen or rook against a lone
// king whose square White does not know) both bots mate the random player
// within the fifty-move rule in most games (the mater converts KRK in
// about nine games of ten, see BenchmarkMates) and never lose: the endgame
// hook chooses their tries. The sampling player is given no evaluator,
// which it would need (and panic without, resigning) had its own search
// been asked.
func TestBotsMateALoneKing(t *testing.T) {
	positions := []string{
		"8/8/8/2k5/8/8/8/4K2Q w - - 0 1",
		"7k/8/8/8/8/8/8/R3K3 w - - 0 1",
		"8/2k5/8/8/8/5K2/8/1R6 w - - 0 1",
	}
	for name, mk := range endgameBots() {
		for _, rules := range []kriegspiel.Ruleset{kriegspiel.Wild16(), kriegspiel.Berkeley()} {
			mates := 0
			for i, fen := range positions {
				opts := kriegspiel.DefaultOptions()
				opts.Rules = rules.WithChessDraws()
				opts.StartFEN = fen
				opts.InitialTime, opts.Increment = time.Hour, 0
				opts.Clock = chessclock.NewManual(time.Unix(0, 0))
				opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
				res, err := kriegspiel.PlayGame(context.Background(), mk(), kriegspiel.NewRandomPlayer(uint64(i)), opts)
				if err != nil {
					t.Fatal(err)
				}
				switch r := res.Record.Result; {
				case r.HasWinner && r.Winner == chess.White:
					mates++
				case r.HasWinner || r.Reason == kriegspiel.Resign:
					t.Errorf("%s, %s, %s: %s", name, rules.Name, fen, r)
				default:
					t.Logf("%s, %s, %s: %s", name, rules.Name, fen, r)
				}
			}
			if mates < len(positions)-1 {
				t.Errorf("%s, %s: %d mates in %d games", name, rules.Name, mates, len(positions))
			}
		}
	}
}

// TestBotsPromoteAPawn: from king and pawn against a lone king, placed so
// that the pawn wins wherever the king stands (the bot's belief starts as
// every square its men do not attack), both bots, with White or Black (the
// third position is the fourth mirrored), escort the pawn, promote and
// mate the random player: the endgame hook plays the pawn ending
// (kriegspiel/endgame's KPK planner) and hands the queen to its mater.
func TestBotsPromoteAPawn(t *testing.T) {
	positions := []struct {
		fen string
		bot chess.Color
	}{
		{"7k/8/8/4K3/8/4P3/8/8 w - - 0 1", chess.White},
		{"k7/8/8/2K5/8/2P5/8/8 w - - 0 1", chess.White},
		{"8/8/3p4/8/3k4/8/8/7K b - - 0 1", chess.Black},
		{"7k/8/8/3K4/8/3P4/8/8 w - - 0 1", chess.White},
	}
	for name, mk := range endgameBots() {
		for _, rules := range []kriegspiel.Ruleset{kriegspiel.Wild16(), kriegspiel.Berkeley()} {
			for i, pos := range positions {
				opts := kriegspiel.DefaultOptions()
				opts.Rules = rules.WithChessDraws()
				opts.StartFEN = pos.fen
				opts.InitialTime, opts.Increment = time.Hour, 0
				opts.Clock = chessclock.NewManual(time.Unix(0, 0))
				opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
				white, black := mk(), kriegspiel.Player(kriegspiel.NewRandomPlayer(uint64(i)))
				if pos.bot == chess.Black {
					white, black = black, white
				}
				res, err := kriegspiel.PlayGame(context.Background(), white, black, opts)
				if err != nil {
					t.Fatal(err)
				}
				if r := res.Record.Result; !r.HasWinner || r.Winner != pos.bot {
					t.Errorf("%s, %s, %s: %s", name, rules.Name, pos.fen, r)
					for _, tu := range res.Record.Turns {
						t.Logf("%s %s", tu.Move, tu.FENAfter)
					}
				}
			}
		}
	}
}

// endgameBots are the two bots the ending tests play: each asks
// kriegspiel/endgame's tracker first once the opponent has a lone king.
func endgameBots() map[string]func() kriegspiel.Player {
	return map[string]func() kriegspiel.Player{
		"sampling": func() kriegspiel.Player { return NewSampling(DefaultSamplingConfig(), nil, 1, nil) },
		"mcts": func() kriegspiel.Player {
			cfg := DefaultMCTSConfig()
			cfg.Iterations = 200
			return NewMCTS(cfg, 1, nil)
		},
	}
}
