package main

import (
	"fmt"
	"strings"

	"github.com/blindfish-rbc/blindfish/match"
)

// The SPRT of `match --sprt` and `match --merge --sprt`: the statistics are
// the match package's; here games become pairs and the result a line.
//
// A pair is games 2k and 2k+1 of one session (folder and seed) of one
// pairing, played with the bot on different colours: a match that alternates
// plays exactly these with colours swapped. Nothing beyond the results log's
// seed and game number is needed to find them again, so a merged folder
// gives the line the match printed.

// pairKey names pair k of a session.
type pairKey struct {
	dir  string
	seed int64
	k    int
}

// pairPoints returns the half-points the bot scored in two games, 0..4: the
// Penta index of the pair.
func pairPoints(a, b *gameResult) int { return 4 - score(a) - score(b) }

// pentaOf counts the complete pairs among games (all seen from one bot) and
// the games outside them.
func pentaOf(games []*gameResult) (p match.Penta, unpaired int) {
	type slot struct{ even, odd []*gameResult }
	slots := map[pairKey]*slot{}
	var keys []pairKey
	for _, r := range games {
		if r == nil {
			continue
		}
		if !r.numbered {
			unpaired++
			continue
		}
		k := pairKey{r.dir, r.seed, r.game / 2}
		s := slots[k]
		if s == nil {
			s = &slot{}
			slots[k] = s
			keys = append(keys, k)
		}
		if r.game%2 == 0 {
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
			if a.botColor == b.botColor { // not alternating: no pair
				unpaired += 2
				continue
			}
			p[pairPoints(a, b)]++
		}
		unpaired += len(s.even) + len(s.odd) - 2*n
	}
	return p, unpaired
}

// trinomialOf counts games by the bot's result: losses, draws, wins.
func trinomialOf(games []*gameResult) (t match.Trinomial) {
	for _, r := range games {
		if r != nil {
			t[2-score(r)]++
		}
	}
	return t
}

// sprtLine is the SPRT's verdict on games as the match prints it:
//
//	SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05: pairs 57 [3 10 20 15 9] LLR 2.97 (-2.94, 2.94) H1 accepted
//
// Games outside complete pairs are left out and counted in a note. With
// singles set and no complete pair at all (a session that did not alternate
// colours), the games are tested one by one instead (trinomial).
func sprtLine(s match.SPRT, games []*gameResult, singles bool) string {
	p, unpaired := pentaOf(games)
	lo, hi := s.Bounds()
	var b strings.Builder
	fmt.Fprintf(&b, "SPRT %s: ", s)
	var llr float64
	if singles && p.Pairs() == 0 && unpaired > 0 {
		t := trinomialOf(games)
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

// mergedSPRTLines are the SPRT lines of merged pairings, one per pairing of
// two different bots, each naming its pairing.
func mergedSPRTLines(s match.SPRT, pairings []*pairing) []string {
	var out []string
	for _, p := range pairings {
		if p.key.bot == p.key.opponent {
			continue
		}
		line := sprtLine(s, p.games, true)
		head, rest, _ := strings.Cut(line, ": ")
		out = append(out, fmt.Sprintf("%s: %s vs %s at %s: %s", head, p.key.bot, p.key.opponent, p.key.clock, rest))
	}
	return out
}
