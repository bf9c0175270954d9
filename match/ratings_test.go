package match

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// played returns n games of a against b, a playing White in every other
// one, with the given wins, draws and losses of a.
func played(a, b string, wins, draws, losses int) []*Result {
	var out []*Result
	add := func(k int, outcome func(aWhite bool) Outcome) {
		for i := range k {
			aWhite := (len(out)+i)%2 == 0
			r := &Result{White: a, Black: b, Outcome: outcome(aWhite)}
			if !aWhite {
				r.White, r.Black = b, a
			}
			out = append(out, r)
		}
	}
	win := func(aWins bool) func(bool) Outcome {
		return func(aWhite bool) Outcome {
			c := chess.White
			if aWhite != aWins {
				c = chess.Black
			}
			return Outcome{Winner: c, HasWinner: true, Reason: "KING_CAPTURE"}
		}
	}
	add(wins, win(true))
	add(draws, func(bool) Outcome { return Outcome{Reason: "MOVE_LIMIT"} })
	add(losses, win(false))
	return out
}

func concat(parts ...[]*Result) []*Result {
	var out []*Result
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// byBot returns the ratings of a group by bot.
func byBot(g RatingGroup) map[string]Rating {
	m := map[string]Rating{}
	for _, r := range g.Ratings {
		m[r.Bot] = r
	}
	return m
}

// TestRatingsTwoBotsClosedForm checks the fit against the closed form for
// two bots without a prior: the difference is 400·log10(s/(1−s)) and its
// standard deviation 1/(c·sqrt(n·s·(1−s))), c = ln 10/400.
func TestRatingsTwoBotsClosedForm(t *testing.T) {
	tests := []struct {
		name                string
		wins, draws, losses int
	}{
		{"even", 20, 10, 20},
		{"ahead", 30, 10, 20},
		{"far ahead", 90, 5, 5},
		{"behind", 3, 1, 16},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, err := Ratings(played("a", "random", tc.wins, tc.draws, tc.losses), RatingOptions{Anchor: "random"})
			if err != nil {
				t.Fatal(err)
			}
			n := float64(tc.wins + tc.draws + tc.losses)
			s := (float64(tc.wins) + float64(tc.draws)/2) / n
			want := 400 * math.Log10(s/(1-s))
			wantErr := Z95 / (eloScale * math.Sqrt(n*s*(1-s)))
			got := byBot(list.Main)
			if a := got["a"]; !near(a.Elo, want, 1e-6) || !near(a.Err95, wantErr, 1e-6) {
				t.Errorf("a = %+.6f ± %.6f, want %+.6f ± %.6f", a.Elo, a.Err95, want, wantErr)
			}
			if r := got["random"]; r.Elo != 0 || r.Err95 != 0 {
				t.Errorf("the anchor = %v ± %v, want exactly 0 ± 0", r.Elo, r.Err95)
			}
			if a := got["a"]; a.Games != int(n) || !near(a.Score(), s, 1e-12) {
				t.Errorf("a: %d games, score %v; want %v, %v", a.Games, a.Score(), n, s)
			}
		})
	}
}

// TestRatingsSymmetric checks that bots that score evenly against each
// other are rated equal, whichever is the anchor.
func TestRatingsSymmetric(t *testing.T) {
	games := concat(played("a", "b", 10, 4, 10), played("b", "c", 7, 0, 7), played("c", "a", 5, 10, 5))
	for _, anchor := range []string{"a", "b", "c"} {
		for _, prior := range []float64{0, 1} {
			list, err := Ratings(games, RatingOptions{Anchor: anchor, Prior: prior})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range list.Main.Ratings {
				if !near(r.Elo, 0, 1e-6) {
					t.Errorf("anchor %s, prior %v: %s = %v, want 0", anchor, prior, r.Bot, r.Elo)
				}
			}
		}
	}
}

// TestRatingsRecoverTrueElo generates games between three bots of known
// strength (0, 200, 400) and checks that the fit finds each within its
// interval, with the anchor exactly at 0.
func TestRatingsRecoverTrueElo(t *testing.T) {
	truth := map[string]float64{"random": 0, "b": 200, "c": 400}
	names := []string{"random", "b", "c"}
	rng := rand.New(rand.NewPCG(25, 2))
	const perPair = 600
	const drawRate = 0.2
	var games []*Result
	for i, a := range names {
		for _, b := range names[i+1:] {
			s := Score(truth[a] - truth[b])
			// A draw in drawRate of the games, wins so that the expected
			// score is s: P(win) = s − drawRate/2.
			for range perPair {
				u := rng.Float64()
				switch {
				case u < drawRate:
					games = append(games, played(a, b, 0, 1, 0)...)
				case u < drawRate+s-drawRate/2:
					games = append(games, played(a, b, 1, 0, 0)...)
				default:
					games = append(games, played(a, b, 0, 0, 1)...)
				}
			}
		}
	}
	list, err := Ratings(games, RatingOptions{Anchor: "random", Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !list.AnchorFound || list.Main.Anchor != "random" || len(list.Apart) != 0 || list.Games != 3*perPair {
		t.Fatalf("list = %+v", list)
	}
	got := byBot(list.Main)
	for name, want := range truth {
		r := got[name]
		if name == "random" {
			if r.Elo != 0 || r.Err95 != 0 {
				t.Errorf("anchor %v ± %v", r.Elo, r.Err95)
			}
			continue
		}
		if math.Abs(r.Elo-want) > r.Err95 || r.Err95 > 60 {
			t.Errorf("%s = %.1f ± %.1f, true %v", name, r.Elo, r.Err95, want)
		}
	}
	if list.Main.Ratings[0].Bot != "c" || list.Main.Ratings[2].Bot != "random" {
		t.Errorf("order %+v", list.Main.Ratings)
	}
}

// TestRatingsGroups checks how bots not linked to the anchor are reported:
// apart, on their own scale with mean 0, and when no game names the anchor
// the largest group is the main one with its mean at 0.
func TestRatingsGroups(t *testing.T) {
	linked := concat(played("a", "random", 6, 2, 2), played("b", "a", 3, 0, 3))
	apart := played("x", "y", 7, 0, 3)
	small := played("p", "q", 1, 0, 1)
	tests := []struct {
		name        string
		games       []*Result
		anchor      string
		found       bool
		main        []string
		mainAnchor  string
		apart       [][]string
		meanZeroAll bool
	}{
		{"connected", linked, "random", true, []string{"a", "b", "random"}, "random", nil, false},
		{"one group apart", concat(apart, linked, small), "random", true, []string{"a", "b", "random"}, "random",
			[][]string{{"x", "y"}, {"p", "q"}}, false},
		{"no anchor", concat(small, apart), "random", false, []string{"x", "y"}, "", [][]string{{"p", "q"}}, true},
		{"other anchor", concat(linked, apart), "x", true, []string{"x", "y"}, "x", [][]string{{"a", "b", "random"}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, err := Ratings(tc.games, RatingOptions{Anchor: tc.anchor, Prior: 1})
			if err != nil {
				t.Fatal(err)
			}
			if list.AnchorFound != tc.found || list.Main.Anchor != tc.mainAnchor {
				t.Errorf("found %v, main anchor %q", list.AnchorFound, list.Main.Anchor)
			}
			sameBots := func(g RatingGroup, want []string) bool {
				m := byBot(g)
				if len(m) != len(want) {
					return false
				}
				for _, w := range want {
					if _, ok := m[w]; !ok {
						return false
					}
				}
				return true
			}
			if !sameBots(list.Main, tc.main) {
				t.Errorf("main %+v, want %v", list.Main.Ratings, tc.main)
			}
			if len(list.Apart) != len(tc.apart) {
				t.Fatalf("apart %+v, want %v", list.Apart, tc.apart)
			}
			for i, g := range list.Apart {
				if !sameBots(g, tc.apart[i]) || g.Anchor != "" {
					t.Errorf("apart %d: %+v, want %v", i, g, tc.apart[i])
				}
				sum := 0.0
				for _, r := range g.Ratings {
					sum += r.Elo
				}
				if !near(sum, 0, 1e-6) {
					t.Errorf("apart %d: mean %v, want 0", i, sum/float64(len(g.Ratings)))
				}
			}
			if tc.meanZeroAll {
				sum := 0.0
				for _, r := range list.Main.Ratings {
					sum += r.Elo
				}
				if !near(sum, 0, 1e-6) {
					t.Errorf("main mean %v, want 0", sum)
				}
			}
		})
	}
}

// TestRatingsPerfectScore checks that a bot that won (or lost) every game
// gets a finite rating and interval from the prior, and that without one the
// fit says it has no maximum.
func TestRatingsPerfectScore(t *testing.T) {
	tests := []struct {
		name  string
		games []*Result
		bot   string
		sign  float64
	}{
		{"all won", played("a", "random", 17, 0, 0), "a", 1},
		{"all lost", played("a", "random", 0, 0, 17), "a", -1},
		{"one game", played("a", "random", 1, 0, 0), "a", 1},
		{"won all in a chain", concat(played("a", "random", 30, 10, 10), played("b", "a", 25, 0, 0)), "b", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, err := Ratings(tc.games, RatingOptions{Anchor: "random", Prior: 1})
			if err != nil {
				t.Fatal(err)
			}
			r := byBot(list.Main)[tc.bot]
			if math.IsInf(r.Elo, 0) || math.IsNaN(r.Elo) || math.IsNaN(r.Err95) || math.IsInf(r.Err95, 0) ||
				r.Elo*tc.sign <= 0 || r.Err95 <= 0 {
				t.Errorf("%s = %v ± %v, want finite with sign %v", tc.bot, r.Elo, r.Err95, tc.sign)
			}
			if _, err := Ratings(tc.games, RatingOptions{Anchor: "random"}); !errors.Is(err, ErrNoMaximum) {
				t.Errorf("without a prior: %v, want ErrNoMaximum", err)
			}
		})
	}
}

// TestRatingsExcluded checks that void games (no winner, no reason: the
// harness's ERROR) and self-play are left out, and that bots of another game
// are rated apart under their variant's name.
func TestRatingsExcluded(t *testing.T) {
	games := played("a", "random", 3, 1, 2)
	games = append(games, &Result{White: "a", Black: "random"}, &Result{White: "random", Black: "random", Outcome: Outcome{Winner: chess.White, HasWinner: true, Reason: "KING_CAPTURE"}}, nil)
	ks := played("a", "random", 2, 0, 0)
	for _, r := range ks {
		r.Variant = "kriegspiel/wild16"
	}
	list, err := Ratings(append(games, ks...), RatingOptions{Anchor: "random", Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	if list.Games != 8 || list.Void != 1 || list.SelfPlay != 1 {
		t.Errorf("games %d, void %d, self-play %d; want 8, 1, 1", list.Games, list.Void, list.SelfPlay)
	}
	if a := byBot(list.Main)["a"]; a.Games != 6 || a.Wins != 3 || a.Draws != 1 || a.Losses != 2 {
		t.Errorf("a: %+v", a)
	}
	if len(list.Apart) != 1 || byBot(list.Apart[0])["a [kriegspiel/wild16]"].Games != 2 {
		t.Errorf("apart: %+v", list.Apart)
	}
}

// TestRatingsAnchorInAVariant: the default anchor "random" anchors a list
// whose names carry their variant (Kriegspiel's, invisible chess's), and is
// left to the user when two variants have one.
func TestRatingsAnchorInAVariant(t *testing.T) {
	inVariant := func(rs []*Result, v string) []*Result {
		for _, r := range rs {
			r.Variant = v
		}
		return rs
	}
	games := inVariant(concat(played("darkboard", "random", 8, 1, 1), played("mcts", "darkboard", 3, 1, 6)), "kriegspiel/wild16")
	list, err := Ratings(games, RatingOptions{Anchor: DefaultAnchor, Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := "random [kriegspiel/wild16]"; !list.AnchorFound || list.Main.Anchor != want {
		t.Errorf("found %v, main anchor %q; want %q", list.AnchorFound, list.Main.Anchor, want)
	}
	two := concat(games, inVariant(played("advisor", "random", 5, 0, 5), "invisible/1B:1B"))
	list, err = Ratings(two, RatingOptions{Anchor: DefaultAnchor, Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	if list.AnchorFound {
		t.Errorf("two variants' random: anchored at %q", list.Main.Anchor)
	}
}
