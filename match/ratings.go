package match

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
)

// A rating list: one Elo scale fitted to every game of every pairing.
//
// The results table rates each pairing on its own, so a bot that played
// random, attacker and trout has three Elo differences that need not add up.
// The list fits one rating per bot to all the games at once by maximum
// likelihood in the logistic (Bradley-Terry) model that Ordo and BayesElo
// use: a bot rated d above its opponent scores 1/(1+10^(-d/400)) on average,
// each game counting as a Bernoulli trial whose outcome is the score (1,
// ½ or 0: a draw is half a win and half a loss; no separate draw model).
// Colours are ignored: the schedules alternate them.
//
// A bot that won or lost every game has no finite maximum; so that such a
// bot still gets a rating (and a finite interval), every bot plays Prior
// virtual draws against the average of its group (the mean rating, a moving
// target), a weak pull towards the middle as BayesElo's virtual draws are.
// One virtual draw against hundreds of real games moves nothing; a bot with
// 17 wins in 17 games ends some hundreds of points above its opponent rather
// than at infinity.
//
// The intervals come from the curvature of the log-likelihood (the prior
// included) at its maximum: the inverse of the information matrix is the
// covariance of the ratings (the Laplace approximation), and a bot's 95%
// interval is its rating ± 1.96 standard deviations of its difference to the
// anchor.
//
// Only bots that are linked to the anchor by a chain of games get ratings on
// its scale. Groups of bots that never met it (directly or through others)
// are rated apart, each on a scale of its own whose mean is 0: their numbers
// cannot be compared with the main list's.

// DefaultAnchor is the bot a rating list puts at 0 unless told otherwise:
// the random mover, which every engine is measured against first.
const DefaultAnchor = "random"

// RatingOptions say how a rating list is fitted.
type RatingOptions struct {
	// Anchor is the bot rated 0. When no game names it, the main group is
	// the one with the most games and its mean is 0.
	Anchor string
	// Prior is the number of virtual draws each bot plays against the
	// average of its group (0: none, and then a bot that won or lost every
	// game makes the fit fail).
	Prior float64
}

// Rating is one bot of a rating list.
type Rating struct {
	Bot string
	// Elo is the rating; Err95 the half-width of its 95% interval (0 for
	// the anchor, whose rating is fixed).
	Elo, Err95          float64
	Games               int // real games, not virtual ones
	Wins, Draws, Losses int
}

// Score returns the bot's score fraction over its games.
func (r Rating) Score() float64 {
	if r.Games == 0 {
		return math.NaN()
	}
	return (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games)
}

// RatingGroup is a set of bots linked by games, rated on one scale, best
// first.
type RatingGroup struct {
	Ratings []Rating
	// Anchor is the bot rated 0; "" when the group's mean is 0.
	Anchor string
	Games  int
}

// RatingList is the result of fitting ratings to a set of games.
type RatingList struct {
	Options RatingOptions
	// Main is the anchor's group (or, when no game names the anchor, the
	// group with the most games, its mean at 0); Apart the other groups, each
	// with its own scale, largest first.
	Main  RatingGroup
	Apart []RatingGroup
	// AnchorFound is false when no game names Options.Anchor.
	AnchorFound bool
	// Games counts the games rated; Void those without a result (a game
	// the harness ended in an error: no winner and no reason), SelfPlay
	// those of a bot against itself (they say nothing about ratings); both
	// are left out.
	Games, Void, SelfPlay int
}

// ErrNoMaximum is returned when the likelihood has no finite maximum (a bot
// that won or lost every game, without a prior).
var ErrNoMaximum = errors.New("match: ratings: no finite maximum (a bot won or lost every game; use a prior)")

// RatingName is the name a bot is rated under: its spec, and the game in
// brackets when it is not RBC, so that a bot of one name in two games is two
// bots.
func RatingName(spec, variant string) string {
	if variant == "" {
		return spec
	}
	return spec + " [" + variant + "]"
}

// resolveAnchor returns the rated name the anchor spec stands for: itself
// when a game names it so, or else the one name that is the spec in a
// variant (RatingName), so that the default "random" anchors a list of
// Kriegspiel or invisible-chess games, whose names carry their variant. Two
// variants of it leave the anchor unresolved: which one is the user's to say.
func resolveAnchor(names []string, anchor string) string {
	if slices.Contains(names, anchor) {
		return anchor
	}
	found := ""
	for _, n := range names {
		if strings.HasPrefix(n, anchor+" [") && strings.HasSuffix(n, "]") {
			if found != "" {
				return anchor
			}
			found = n
		}
	}
	if found == "" {
		return anchor
	}
	return found
}

// pairTally sums the games between bots i and j (i < j): how many, and the
// points of i.
type pairTally struct {
	i, j   int
	n, pts float64
}

// Ratings fits a rating list to results (nil entries skipped).
func Ratings(results []*Result, opts RatingOptions) (*RatingList, error) {
	if opts.Prior < 0 || math.IsNaN(opts.Prior) || math.IsInf(opts.Prior, 0) {
		return nil, fmt.Errorf("match: ratings: prior %g: want a number of virtual draws, 0 or more", opts.Prior)
	}
	list := &RatingList{Options: opts}
	index := map[string]int{}
	var names []string
	var tallies [][3]int // per bot: wins, draws, losses
	id := func(name string) int {
		k, ok := index[name]
		if !ok {
			k = len(names)
			index[name] = k
			names = append(names, name)
			tallies = append(tallies, [3]int{})
		}
		return k
	}
	pairs := map[[2]int]*pairTally{}
	for _, r := range results {
		if r == nil {
			continue
		}
		if !r.Outcome.HasWinner && r.Outcome.Reason == "" {
			list.Void++
			continue
		}
		w, b := RatingName(r.White, r.Variant), RatingName(r.Black, r.Variant)
		if w == b {
			list.SelfPlay++
			continue
		}
		list.Games++
		wi, bi := id(w), id(b)
		ptsW := 0.5
		switch {
		case !r.Outcome.HasWinner:
			tallies[wi][1]++
			tallies[bi][1]++
		case r.Outcome.Winner == chess.White:
			ptsW = 1
			tallies[wi][0]++
			tallies[bi][2]++
		default:
			ptsW = 0
			tallies[wi][2]++
			tallies[bi][0]++
		}
		i, j, pts := wi, bi, ptsW
		if i > j {
			i, j, pts = j, i, 1-ptsW
		}
		p := pairs[[2]int{i, j}]
		if p == nil {
			p = &pairTally{i: i, j: j}
			pairs[[2]int{i, j}] = p
		}
		p.n++
		p.pts += pts
	}
	groups := components(len(names), pairs)
	anchorName := resolveAnchor(names, opts.Anchor)
	_, list.AnchorFound = index[anchorName]
	main := -1
	if list.AnchorFound {
		for g, members := range groups {
			if slices.Contains(members, index[anchorName]) {
				main = g
			}
		}
	}
	var rated []RatingGroup
	for g, members := range groups {
		anchor := -1
		if g == main {
			anchor = index[anchorName]
		}
		rg, err := fitGroup(members, anchor, pairs, names, tallies, opts.Prior)
		if err != nil {
			return nil, err
		}
		if g == main {
			list.Main = rg
			continue
		}
		rated = append(rated, rg)
	}
	// Largest first, then by the best bot's name, so that the list reads
	// the same every time.
	slices.SortStableFunc(rated, func(a, b RatingGroup) int {
		return cmp.Or(cmp.Compare(b.Games, a.Games), cmp.Compare(a.Ratings[0].Bot, b.Ratings[0].Bot))
	})
	if main < 0 && len(rated) > 0 {
		list.Main, rated = rated[0], rated[1:]
	}
	list.Apart = rated
	return list, nil
}

// components splits the bots into groups linked by games (union-find), each
// group's members in order of first appearance, groups in order of their
// first member.
func components(n int, pairs map[[2]int]*pairTally) [][]int {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for k := range pairs {
		a, b := find(k[0]), find(k[1])
		if a != b {
			parent[max(a, b)] = min(a, b)
		}
	}
	var out [][]int
	at := map[int]int{}
	for i := range n {
		root := find(i)
		g, ok := at[root]
		if !ok {
			g = len(out)
			at[root] = g
			out = append(out, nil)
		}
		out[g] = append(out[g], i)
	}
	return out
}

// fitGroup rates one group of linked bots: anchored at the bot anchor (an
// index into names) when it is not -1, else at the group's mean.
func fitGroup(members []int, anchor int, pairs map[[2]int]*pairTally, names []string, tallies [][3]int, prior float64) (RatingGroup, error) {
	local := make(map[int]int, len(members))
	for k, m := range members {
		local[m] = k
	}
	var ps []pairTally
	for _, p := range pairs {
		if _, ok := local[p.i]; ok {
			ps = append(ps, pairTally{i: local[p.i], j: local[p.j], n: p.n, pts: p.pts})
		}
	}
	// Map order must not reach the sums: the fit is then the same bit for
	// bit every time.
	slices.SortFunc(ps, func(a, b pairTally) int { return cmp.Or(cmp.Compare(a.i, b.i), cmp.Compare(a.j, b.j)) })
	fixed := 0
	if anchor >= 0 {
		fixed = local[anchor]
	}
	elo, cov, err := fitElo(len(members), ps, prior, fixed)
	if err != nil {
		return RatingGroup{}, err
	}
	if anchor < 0 {
		elo, cov = centre(elo, cov)
	}
	g := RatingGroup{}
	if anchor >= 0 {
		g.Anchor = names[anchor]
	}
	for k, m := range members {
		t := tallies[m]
		r := Rating{Bot: names[m], Elo: elo[k], Err95: Z95 * math.Sqrt(math.Max(cov[k][k], 0)),
			Games: t[0] + t[1] + t[2], Wins: t[0], Draws: t[1], Losses: t[2]}
		if k == fixed && anchor >= 0 {
			r.Elo, r.Err95 = 0, 0
		}
		g.Games += r.Games
		g.Ratings = append(g.Ratings, r)
	}
	g.Games /= 2 // each game counted for both bots
	slices.SortStableFunc(g.Ratings, func(a, b Rating) int {
		return cmp.Or(cmp.Compare(b.Elo, a.Elo), cmp.Compare(a.Bot, b.Bot))
	})
	return g, nil
}

// centre moves ratings fitted with one bot held at 0 to a scale whose mean
// is 0, and their covariance with them: r' = P·r with P = I − 11ᵀ/n.
func centre(elo []float64, cov [][]float64) ([]float64, [][]float64) {
	n := len(elo)
	mean := 0.0
	for _, x := range elo {
		mean += x
	}
	mean /= float64(n)
	out := make([]float64, n)
	for i, x := range elo {
		out[i] = x - mean
	}
	// (P C P)_ij = C_ij − rowmean_i − colmean_j + mean of all.
	row := make([]float64, n)
	all := 0.0
	for i := range n {
		for j := range n {
			row[i] += cov[i][j]
		}
		all += row[i]
		row[i] /= float64(n)
	}
	all /= float64(n * n)
	c := make([][]float64, n)
	for i := range n {
		c[i] = make([]float64, n)
		for j := range n {
			c[i][j] = cov[i][j] - row[i] - row[j] + all
		}
	}
	return out, c
}

// RatingTable is a group of a rating list as a table: rank, bot, rating,
// the half-width of its 95% interval, games and score.
func RatingTable(g RatingGroup) Table {
	t := Table{Header: []string{"rank", "bot", "elo", "±95%", "games", "score"}, Numeric: []int{0, 2, 3, 4, 5}}
	for i, r := range g.Ratings {
		half := strconv.FormatFloat(math.Round(r.Err95), 'f', 0, 64)
		if r.Bot == g.Anchor {
			half = "-"
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(i + 1), r.Bot, FormatElo(r.Elo), half, strconv.Itoa(r.Games),
			strconv.FormatFloat(100*r.Score(), 'f', 1, 64) + "%"})
	}
	return t
}

// Heading says what a group of the list is and on which scale it is rated:
// the main group first, then the groups apart.
func (l *RatingList) Heading(g *RatingGroup) string {
	size := fmt.Sprintf("%d bots, %d games", len(g.Ratings), g.Games)
	switch {
	case g != &l.Main:
		return fmt.Sprintf("not linked to %s by any game: %s, rated on their own scale (mean 0), not comparable with the list above", l.mainName(), size)
	case g.Anchor != "":
		return fmt.Sprintf("rating list: %s; %s = 0", size, g.Anchor)
	}
	return fmt.Sprintf("rating list: %s; no game names %s, so the mean of the group with the most games is 0", size, l.Options.Anchor)
}

// mainName names the main group's anchor, or the group.
func (l *RatingList) mainName() string {
	if l.Main.Anchor != "" {
		return l.Main.Anchor
	}
	return "the list above"
}

// Notes says what the list left out and how it was fitted.
func (l *RatingList) Notes() string {
	s := fmt.Sprintf("%d games rated", l.Games)
	if l.Void > 0 || l.SelfPlay > 0 {
		s += fmt.Sprintf(" (left out: %d void, without a result; %d of a bot against itself)", l.Void, l.SelfPlay)
	}
	s += fmt.Sprintf("; maximum likelihood in the logistic model, a draw half a win; prior: %g virtual draw(s) of each bot against its group's mean; ±95%%: 1.96 standard deviations from the likelihood's curvature", l.Options.Prior)
	return s
}

// Bots returns how many bots the list rates, in all its groups.
func (l *RatingList) Bots() int {
	n := len(l.Main.Ratings)
	for _, g := range l.Apart {
		n += len(g.Ratings)
	}
	return n
}
