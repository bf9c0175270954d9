package match

import (
	"fmt"
	"strings"
)

// The SPRT applied to games: games become pairs and the verdict a line.
//
// A pair is games 2k and 2k+1 of one session (seed) of one pairing, played
// with the bot on different colours: a match that alternates plays exactly
// these with colours swapped. Nothing beyond the results log's seed and game
// number is needed to find them again, so a merged folder gives the line the
// match printed. Games pair within their folder first; games still without a
// mate then pair across folders, so that shards written into folders of
// their own (shard 0 of 2 holds only even games) pair up again when merged.

// pairKey names pair k of a session in folder dir ("" across folders).
type pairKey struct {
	dir  string
	seed int64
	k    int
}

// pairPoints returns the half-points the bot scored in two games, 0..4: the
// Penta index of the pair.
func pairPoints(a, b *Result) int { return a.Points() + b.Points() }

// PentaOf counts the complete pairs among games (all seen from one bot, as
// in a Pairing) and the games outside them.
func PentaOf(games []*Result) (p Penta, unpaired int) {
	var numbered []*Result
	for _, r := range games {
		switch {
		case r == nil || r.Outcome.Void():
		case !r.Numbered:
			unpaired++
		default:
			numbered = append(numbered, r)
		}
	}
	left := pairUp(numbered, func(r *Result) string { return r.Dir }, &p, &unpaired)
	left = pairUp(left, func(*Result) string { return "" }, &p, &unpaired)
	return p, unpaired + len(left)
}

// pairUp pairs games 2k and 2k+1 of one seed and one folder as dir names it,
// in order, counting pairs into p; a would-be pair with the bot on one
// colour twice (a session that did not alternate) counts as two unpaired
// games. It returns the games left without a mate, in order.
func pairUp(games []*Result, dir func(*Result) string, p *Penta, unpaired *int) (left []*Result) {
	type slot struct{ even, odd []*Result }
	slots := map[pairKey]*slot{}
	var keys []pairKey
	for _, r := range games {
		k := pairKey{dir(r), r.Seed, r.Game / 2}
		s := slots[k]
		if s == nil {
			s = &slot{}
			slots[k] = s
			keys = append(keys, k)
		}
		if r.Game%2 == 0 {
			s.even = append(s.even, r)
		} else {
			s.odd = append(s.odd, r)
		}
	}
	for _, k := range keys {
		s := slots[k]
		// A session run twice into one folder with one seed logs each game
		// twice: pair them in order.
		n := min(len(s.even), len(s.odd))
		for i := range n {
			a, b := s.even[i], s.odd[i]
			if a.BotColor == b.BotColor { // not alternating: no pair
				*unpaired += 2
				continue
			}
			p[pairPoints(a, b)]++
		}
		left = append(left, s.even[n:]...)
		left = append(left, s.odd[n:]...)
	}
	return left
}

// TrinomialOf counts games by the bot's result: losses, draws, wins.
func TrinomialOf(games []*Result) (t Trinomial) {
	for _, r := range games {
		if r != nil && !r.Outcome.Void() {
			t[r.Points()]++
		}
	}
	return t
}

// LLROf returns the log-likelihood ratio of games as SPRTLine computes it:
// over the complete colour-swapped pairs, or, with singles set and no
// complete pair at all, over the games one by one. A report plots it over
// the games played, to show how a test approached its verdict.
func LLROf(s SPRT, games []*Result, singles bool) float64 {
	p, unpaired := PentaOf(games)
	if singles && p.Pairs() == 0 && unpaired > 0 {
		return s.LLRTrinomial(TrinomialOf(games))
	}
	return s.LLR(p)
}

// SPRTLine is the SPRT's verdict on games as the match prints it:
//
//	SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05: pairs 57 [3 10 20 15 9] LLR 2.97 (-2.94, 2.94) H1 accepted
//
// Games outside complete pairs are left out and counted in a note. With
// singles set and no complete pair at all (a session that did not alternate
// colours), the games are tested one by one instead (trinomial).
func SPRTLine(s SPRT, games []*Result, singles bool) string {
	p, unpaired := PentaOf(games)
	lo, hi := s.Bounds()
	var b strings.Builder
	fmt.Fprintf(&b, "SPRT %s: ", s)
	var llr float64
	if singles && p.Pairs() == 0 && unpaired > 0 {
		t := TrinomialOf(games)
		llr = s.LLRTrinomial(t)
		fmt.Fprintf(&b, "games %d [%d %d %d] (single games: no colour-swapped pairs)", t.Games(), t[0], t[1], t[2])
		unpaired = 0
	} else {
		llr = s.LLR(p)
		fmt.Fprintf(&b, "pairs %d [%d %d %d %d %d]", p.Pairs(), p[0], p[1], p[2], p[3], p[4])
	}
	fmt.Fprintf(&b, " LLR %.2f (%.2f, %.2f) %s", llr, lo, hi, s.Decide(llr))
	switch unpaired {
	case 0:
	case 1:
		b.WriteString(" (1 game outside a pair left out)")
	default:
		fmt.Fprintf(&b, " (%d games outside pairs left out)", unpaired)
	}
	return b.String()
}

// MergedSPRTLines are the SPRT lines of merged pairings, one per pairing of
// two different bots, each naming its pairing.
func MergedSPRTLines(s SPRT, pairings []*Pairing) []string {
	var out []string
	for _, p := range pairings {
		if p.Key.Bot == p.Key.Opponent {
			continue
		}
		line := SPRTLine(s, p.Games, true)
		head, rest, _ := strings.Cut(line, ": ")
		out = append(out, fmt.Sprintf("%s: %s vs %s at %s: %s", head, p.Key.Bot, p.Key.Opponent, p.Key.Clock, rest))
	}
	return out
}
