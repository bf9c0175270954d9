package match

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/texttable"
)

// PairingKey identifies a row group of the results table: the bot, its
// opponent, the clock and the game variant (games at different clocks, or
// of different games, are different experiments).
type PairingKey struct{ Bot, Opponent, Clock, Variant string }

// Pairing collects the games of one pairing key.
type Pairing struct {
	Key     PairingKey
	ByColor [2]Stats // by the bot's colour
	Both    Stats
	Games   []*Result // seen from Key.Bot (BotColor flipped if need be)
}

// GroupPairings sorts games into pairings in order of first appearance (nil
// results are skipped). Void games (Outcome.Void) count only in the Stats'
// Void and Errors, never in Games. A game whose bot and opponent are the other way round
// from an existing pairing joins it with colours swapped, so that folders
// written with the bots given in either order (or bare harness histories,
// which only know White and Black) merge into one row.
func GroupPairings(results []*Result) []*Pairing {
	var out []*Pairing
	index := map[PairingKey]*Pairing{}
	for _, r := range results {
		if r == nil {
			continue
		}
		k := PairingKey{r.Bot(), r.Opponent(), r.Clock, r.Variant}
		p := index[k]
		if p == nil {
			if q := index[PairingKey{k.Opponent, k.Bot, k.Clock, k.Variant}]; q != nil {
				flipped := *r
				flipped.BotColor = r.BotColor.Other()
				r, p = &flipped, q
			}
		}
		if p == nil {
			p = &Pairing{Key: k}
			index[k] = p
			out = append(out, p)
		}
		p.ByColor[r.BotColor].Add(r)
		p.Both.Add(r)
		if !r.Outcome.Void() {
			p.Games = append(p.Games, r)
		}
	}
	return out
}

// Stats sums the games of one row of the table, seen from the bot.
type Stats struct {
	Games, Wins, Draws, Losses int
	// Void counts the games a bot's failure voided, which are not in Games
	// or anything else below but Reasons (ERROR) and Errors.
	Void       int
	Reasons    map[string]int // games by how they ended ("" for no reason given)
	Turns      int            // both sides' turns
	TimeLosses [2]int         // the bot's, the opponent's
	// Errors counts, of the bot and of the opponent, the games lost by an
	// illegal action or a failed callback (resignation: logs written
	// before void games) and the games voided by the side's failure.
	Errors [2]int
	// Degraded sums the degradation counts (DegradationReporter) of the bot
	// and of the opponent over their games, void ones too, that report
	// them; DegradedGames counts those games (0: unknown, not none).
	Degraded, DegradedGames [2]int
	BotTurns, OppTurns      int           // of timed games
	BotTime, OppTime        time.Duration // of timed games
}

// Add counts one game.
func (s *Stats) Add(r *Result) {
	if s.Reasons == nil {
		s.Reasons = map[string]int{}
	}
	for side, c := range [2]chess.Color{r.BotColor, r.BotColor.Other()} {
		if d := r.Degraded[c]; d != nil {
			s.Degraded[side] += sum(d)
			s.DegradedGames[side]++
		}
	}
	if r.Outcome.Void() {
		s.Void++
		s.Reasons[r.Outcome.Reason]++
		side := 0 // the bot failed
		if r.Outcome.Failed != r.BotColor {
			side = 1
		}
		s.Errors[side]++
		return
	}
	s.Games++
	switch r.score() {
	case 0:
		s.Wins++
	case 1:
		s.Draws++
	default:
		s.Losses++
	}
	s.Reasons[r.Outcome.Reason]++
	if r.Outcome.HasWinner {
		side := 0 // the bot lost
		if r.Outcome.Winner == r.BotColor {
			side = 1 // the opponent lost
		}
		switch r.Outcome.Reason {
		case ReasonTimeout:
			s.TimeLosses[side]++
		case ReasonIllegal, ReasonResign:
			s.Errors[side]++
		}
	}
	s.Turns += r.Turns[chess.White] + r.Turns[chess.Black]
	if r.Timed {
		s.BotTurns += r.Turns[r.BotColor]
		s.OppTurns += r.Turns[r.BotColor.Other()]
		s.BotTime += r.Used[r.BotColor]
		s.OppTime += r.Used[r.BotColor.Other()]
	}
}

// Elo returns the bot's Elo difference to the opponent with its 95%
// interval.
func (s *Stats) Elo() Estimate { return EstimateElo(s.Wins, s.Draws, s.Losses) }

// Table is a results table as data (texttable.Table): the command line
// aligns and prints it, another program may render it otherwise.
type Table = texttable.Table

// ResultsTable is the table of pairings: per pairing a row for each colour
// the bot played and, when it played both, one for both together (the row
// the Elo difference is best read from: colour advantage cancels out).
// withClock adds a clock column after "as" (merged folders mix clocks).
//
// Columns: W/D/L and the score of the bot; its Elo difference to the
// opponent with a 95% interval (EstimateElo); mean turns per game (both
// sides' turns); mean clock time per turn of each side; losses on time and
// errors (losses by an illegal request, games void because a side failed)
// as bot/opponent; degradations as bot/opponent (Stats.Degraded; "-" for a
// side none of whose games reported them); how the games ended (void games
// as ERROR). The games column and everything computed from it leave void
// games out.
func ResultsTable(pairings []*Pairing, withClock bool) Table {
	header := []string{"bot", "opponent", "as", "games", "wins", "draws", "losses", "score", "elo", "elo 95%",
		"turns/game", "time/turn bot", "time/turn opp", "time losses", "errors", "degraded", "end reasons"}
	right := []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	if withClock {
		header = append(header[:3], append([]string{"clock"}, header[3:]...)...)
		for i := range right {
			right[i]++
		}
	}
	t := Table{Header: header, Numeric: right}
	for _, p := range pairings {
		row := func(as string, s *Stats) {
			e := s.Elo()
			cells := []string{p.Key.Bot, p.Key.Opponent, as}
			if withClock {
				clock := p.Key.Clock
				if p.Key.Variant != "" {
					clock = p.Key.Variant + " " + clock
				}
				cells = append(cells, clock)
			}
			cells = append(cells, strconv.Itoa(s.Games), strconv.Itoa(s.Wins), strconv.Itoa(s.Draws),
				strconv.Itoa(s.Losses), pct(s), FormatElo(e.Elo), e.Interval(), ratio(float64(s.Turns), s.Games),
				FormatPerTurn(s.BotTime, s.BotTurns), FormatPerTurn(s.OppTime, s.OppTurns),
				fmt.Sprintf("%d/%d", s.TimeLosses[0], s.TimeLosses[1]), fmt.Sprintf("%d/%d", s.Errors[0], s.Errors[1]),
				degradedText(s), reasonsText(s))
			t.Rows = append(t.Rows, cells)
		}
		played := func(c chess.Color) bool { return p.ByColor[c].Games+p.ByColor[c].Void > 0 }
		for c := chess.White; c <= chess.Black; c++ {
			if played(c) {
				row(c.String(), &p.ByColor[c])
			}
		}
		if played(chess.White) && played(chess.Black) {
			row("both", &p.Both)
		}
	}
	return t
}

// MatchTable is the table of one match of bot against opponent: the bot's
// rows for the colours it played (and both); a match without a finished game
// shows an empty row rather than no table. Void games may be among results
// (they show as errors).
func MatchTable(bot, opponent string, results []*Result) Table {
	t := ResultsTable(GroupPairings(results), false)
	if len(t.Rows) == 0 {
		t.Rows = append(t.Rows, []string{bot, opponent, "white", "0", "0", "0", "0", "-", "-", "-", "-", "-", "-", "0/0", "0/0", "-/-", "-"})
	}
	return t
}

func pct(s *Stats) string {
	if s.Games == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*(float64(s.Wins)+float64(s.Draws)/2)/float64(s.Games), 'f', 1, 64) + "%"
}

func ratio(x float64, n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.FormatFloat(x/float64(n), 'f', 1, 64)
}

// FormatPerTurn shows the mean time per turn, d over turns, as every
// table of timings does (texttable.PerTurn: "12.3ms", "-" for no turns).
func FormatPerTurn(d time.Duration, turns int) string { return texttable.PerTurn(d, turns) }

// degradedText shows the degradation counts as bot/opponent, "-" for a side
// whose count is unknown.
func degradedText(s *Stats) string {
	side := func(i int) string {
		if s.DegradedGames[i] == 0 {
			return "-"
		}
		return strconv.Itoa(s.Degraded[i])
	}
	return side(0) + "/" + side(1)
}

// reasonsText lists how the games ended: "KING_CAPTURE 9, MOVE_LIMIT 1".
func reasonsText(s *Stats) string {
	reasons := make([]string, 0, len(s.Reasons))
	for r, n := range s.Reasons {
		if n > 0 {
			reasons = append(reasons, r)
		}
	}
	slices.SortFunc(reasons, func(a, b string) int {
		if c := cmp.Compare(reasonOrder(a), reasonOrder(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, r := range reasons {
		name := r
		if r == "" {
			name = "NONE"
		}
		parts = append(parts, name+" "+strconv.Itoa(s.Reasons[r]))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}
