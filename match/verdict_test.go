package match

import (
	"fmt"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// game returns a numbered game of session (dir, seed 1) from the bot's side:
// result 0 a win, 1 a draw, 2 a loss.
func game(dir string, i int, botColor chess.Color, result int) *Result {
	r := &Result{White: "a", Black: "b", BotColor: botColor, Dir: dir, Seed: 1, Game: i, Numbered: true}
	if botColor == chess.Black {
		r.White, r.Black = "b", "a"
	}
	switch result {
	case 0:
		r.Outcome = Outcome{HasWinner: true, Winner: botColor, Reason: "KING_CAPTURE"}
	case 2:
		r.Outcome = Outcome{HasWinner: true, Winner: botColor.Other(), Reason: "KING_CAPTURE"}
	}
	return r
}

// TestPentaOfPairsGames: games 2k and 2k+1 of one session with the bot on
// both colours make a pair; a lone game, a game without its mate, games of a
// session that did not alternate and bare histories are left out.
func TestPentaOfPairsGames(t *testing.T) {
	W, B := chess.White, chess.Black
	games := []*Result{
		game("x", 0, W, 0), game("x", 1, B, 0), // 2–0
		game("x", 3, B, 1), game("x", 2, W, 2), // ½: a loss and a draw, in any order
		game("x", 4, W, 1), game("x", 5, B, 1), // 1
		game("y", 4, W, 0),                     // its mate is in another folder's session: alone
		game("x", 6, W, 0),                     // game 7 never finished
		game("z", 0, W, 0), game("z", 1, W, 2), // not alternating
		{White: "a", Black: "b", BotColor: W}, // a bare history
		nil,
	}
	p, unpaired := PentaOf(games)
	if want := (Penta{0, 1, 1, 0, 1}); p != want || unpaired != 5 {
		t.Errorf("penta %v, %d unpaired; want %v, 5", p, unpaired, want)
	}
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	want := fmt.Sprintf("SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05: pairs 3 [0 1 1 0 1] LLR %.2f (-2.94, 2.94) no verdict (5 games outside pairs left out)", s.LLR(p))
	if got := SPRTLine(s, games, true); got != want {
		t.Errorf("line\n%s\nwant\n%s", got, want)
	}

	// Without a single pair, merging falls back to single games.
	single := []*Result{game("z", 0, W, 0), game("z", 1, W, 0), game("z", 2, W, 1), game("z", 3, W, 2)}
	want = fmt.Sprintf("SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05: games 4 [1 1 2] (single games: no colour-swapped pairs) LLR %.2f (-2.94, 2.94) no verdict",
		s.LLRTrinomial(Trinomial{1, 1, 2}))
	if got := SPRTLine(s, single, true); got != want {
		t.Errorf("line\n%s\nwant\n%s", got, want)
	}
	if got := SPRTLine(s, single, false); !strings.Contains(got, "pairs 0 [0 0 0 0 0] LLR 0.00") {
		t.Errorf("live line without pairs: %s", got)
	}
}

// TestPentaOfPairsAcrossFolders: games without a mate in their own folder
// pair with their mate in another folder (shards written into folders of
// their own), but a folder's own pairs come first.
func TestPentaOfPairsAcrossFolders(t *testing.T) {
	W, B := chess.White, chess.Black
	games := []*Result{
		game("even", 0, W, 0), game("even", 2, W, 1), game("even", 4, W, 2),
		game("odd", 1, B, 0), game("odd", 3, B, 1),
		game("both", 2, W, 0), game("both", 3, B, 0), // a pair of their own
	}
	p, unpaired := PentaOf(games)
	// 0+1: 2–0; 2+3: a draw and a draw from the two folders; 4 alone.
	if want := (Penta{0, 0, 1, 0, 2}); p != want || unpaired != 1 {
		t.Errorf("penta %v, %d unpaired; want %v, 1", p, unpaired, want)
	}
}

// TestLLROfIsTheLinesLLR: LLROf gives the LLR that SPRTLine prints, over
// pairs and, for sessions without a pair, over single games.
func TestLLROfIsTheLinesLLR(t *testing.T) {
	W, B := chess.White, chess.Black
	s := SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	paired := []*Result{game("x", 0, W, 0), game("x", 1, B, 0), game("x", 2, W, 1), game("x", 3, B, 2), game("x", 4, W, 0)}
	single := []*Result{game("z", 0, W, 0), game("z", 1, W, 0), game("z", 2, W, 1)}
	for _, tc := range []struct {
		name    string
		games   []*Result
		singles bool
	}{{"pairs", paired, false}, {"pairs, singles allowed", paired, true}, {"no pair", single, false}, {"single games", single, true}} {
		got := fmt.Sprintf("LLR %.2f ", LLROf(s, tc.games, tc.singles))
		if line := SPRTLine(s, tc.games, tc.singles); !strings.Contains(line, got) {
			t.Errorf("%s: LLROf gives %q, the line is %q", tc.name, got, line)
		}
	}
	if LLROf(s, single, true) == 0 || LLROf(s, single, false) != 0 {
		t.Errorf("single games: LLR %v with singles, %v without (want non-zero, 0)", LLROf(s, single, true), LLROf(s, single, false))
	}
}
