package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Match results on disk.
//
// A match folder holds one harness history per game (<white>-<black>-<seed>-
// <NNN>.json) and one results log, results.jsonl, with a line per game for
// what the history cannot say: which bot the match was about, the clock and
// each side's thinking time. The log is a separate file, not a sidecar per
// game, so that tools reading a folder's *.json as histories (replay,
// belief) never meet it, and it is appended to, so several sessions can
// write into one folder. `blindfish match --merge DIR...` reads folders back:
// log lines first, then any history the logs do not mention (for example
// games of the reference harness), which counts without timings.

// resultsLogName is the results log in a match folder.
const resultsLogName = "results.jsonl"

// resultLine is one line of results.jsonl.
type resultLine struct {
	Record   string     `json:"record,omitempty"` // the history's file name, "" if not saved
	Bot      string     `json:"bot"`              // the --white spec: the bot the table is about
	Opponent string     `json:"opponent"`
	White    string     `json:"white"`
	Black    string     `json:"black"`
	Winner   string     `json:"winner"` // "white", "black" or "" for a draw
	Reason   string     `json:"reason"` // the harness's win reason, "" if none
	Detail   string     `json:"detail,omitempty"`
	Turns    [2]int     `json:"turns"`  // turns played by White, Black
	UsedS    [2]float64 `json:"used_s"` // clock seconds used by White, Black
	Clock    string     `json:"clock"`  // INITIAL+INCREMENT in seconds
	Seed     int64      `json:"seed"`
	Game     int        `json:"game"`
	Finished string     `json:"finished"` // RFC 3339
}

// gameResult is one finished game of a match, seen from the match's bot.
type gameResult struct {
	white, black string // specs
	botColor     rbc.Color
	outcome      rbc.Outcome
	turns        [2]int
	used         [2]time.Duration
	clock        string // "60+1"; "?" for games read from a bare history
	timed        bool   // used is known
	record       string // the history's path or name
	// Where the game stands in its session, for pairing games for the SPRT
	// (sprt.go): the session's folder, its seed and the game number; numbered
	// is false for bare histories, which know none of this.
	dir      string
	seed     int64
	game     int
	numbered bool
}

// bot and opponent return the specs of the match's bot and its opponent.
func (r *gameResult) bot() string {
	if r.botColor == rbc.White {
		return r.white
	}
	return r.black
}

func (r *gameResult) opponent() string {
	if r.botColor == rbc.White {
		return r.black
	}
	return r.white
}

// line renders r for the results log.
func (r *gameResult) line(seed int64, game int, now time.Time) resultLine {
	l := resultLine{
		Record: filepath.Base(r.record), Bot: r.bot(), Opponent: r.opponent(), White: r.white, Black: r.black,
		Detail: r.outcome.Detail, Turns: r.turns, Clock: r.clock, Seed: seed, Game: game,
		UsedS:    [2]float64{r.used[0].Seconds(), r.used[1].Seconds()},
		Finished: now.UTC().Format(time.RFC3339),
	}
	if r.record == "" {
		l.Record = ""
	}
	if r.outcome.HasWinner {
		l.Winner = r.outcome.Winner.String()
	}
	if r.outcome.Reason != rbc.NoReason {
		l.Reason = r.outcome.Reason.String()
	}
	return l
}

// fromLine reads a results-log line back.
func fromLine(l resultLine) (*gameResult, error) {
	r := &gameResult{white: l.White, black: l.Black, turns: l.Turns, clock: l.Clock, timed: true, record: l.Record,
		used: [2]time.Duration{secondsDuration(l.UsedS[0]), secondsDuration(l.UsedS[1])},
		seed: l.Seed, game: l.Game, numbered: true}
	switch {
	case l.Bot == l.White:
		r.botColor = rbc.White
	case l.Bot == l.Black:
		r.botColor = rbc.Black
	default:
		return nil, fmt.Errorf("bot %q plays neither colour (%q, %q)", l.Bot, l.White, l.Black)
	}
	r.outcome.Detail = l.Detail
	if l.Winner != "" {
		c, err := rbc.ParseColor(l.Winner)
		if err != nil {
			return nil, err
		}
		r.outcome.Winner, r.outcome.HasWinner = c, true
	}
	if l.Reason != "" {
		reason, err := rbc.ParseWinReason(l.Reason)
		if err != nil {
			return nil, err
		}
		r.outcome.Reason = reason
	}
	return r, nil
}

func secondsDuration(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// resultsLog appends lines to a folder's results.jsonl; it is safe for the
// match's concurrent games.
type resultsLog struct {
	mu   sync.Mutex
	path string
}

func newResultsLog(dir string) *resultsLog {
	return &resultsLog{path: filepath.Join(dir, resultsLogName)}
}

// append writes one line, opening and closing the file each time so that a
// killed match loses nothing already played.
func (l *resultsLog) append(line resultLine) (err error) {
	data, err := json.Marshal(line)
	if err != nil {
		return fmt.Errorf("results log: %w", err)
	}
	data = append(data, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("results log: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("results log: %w", cerr)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("results log: %w", err)
	}
	return nil
}

// readResults reads the games of match folders: every results-log line, and
// every history (*.json) no line mentions. Unreadable lines and histories are
// errors that name the file.
func readResults(dirs []string) (results []*gameResult, bare int, err error) {
	seen := map[string]bool{}
	for _, dir := range dirs {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, 0, err
		}
		if seen[abs] {
			continue
		}
		seen[abs] = true
		fi, err := os.Stat(dir)
		if err != nil {
			return nil, 0, err
		}
		if !fi.IsDir() {
			return nil, 0, fmt.Errorf("%s is not a folder", dir)
		}
		logged := map[string]bool{}
		lines, err := readResultsLog(filepath.Join(dir, resultsLogName))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, 0, err
		}
		for _, r := range lines {
			r.dir = abs
			if r.record != "" {
				logged[r.record] = true
				r.record = filepath.Join(dir, r.record)
			}
			results = append(results, r)
		}
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			return nil, 0, err
		}
		sort.Strings(files)
		for _, f := range files {
			if logged[filepath.Base(f)] {
				continue
			}
			h, err := rbc.LoadHistoryFile(f)
			if err != nil {
				return nil, 0, err
			}
			results = append(results, &gameResult{
				white: h.WhiteName, black: h.BlackName, botColor: rbc.White, outcome: h.Outcome,
				turns: [2]int{len(h.Turns[rbc.White]), len(h.Turns[rbc.Black])}, clock: "?", record: f,
			})
			bare++
		}
	}
	return results, bare, nil
}

// readResultsLog reads one results.jsonl.
func readResultsLog(path string) ([]*gameResult, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*gameResult
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var l resultLine
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		r, err := fromLine(l)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// pairingKey identifies a row group of the table: the bot, its opponent and
// the clock (games at different clocks are different experiments).
type pairingKey struct{ bot, opponent, clock string }

// pairing collects the games of one pairing key.
type pairing struct {
	key     pairingKey
	byColor [2]pairStats
	both    pairStats
	games   []*gameResult // seen from key.bot (botColor flipped if need be)
}

// groupPairings sorts games into pairings in order of first appearance. A
// game whose bot and opponent are the other way round from an existing
// pairing joins it with colours swapped, so that folders written with the
// bots given in either order (or bare harness histories, which only know
// White and Black) merge into one row.
func groupPairings(results []*gameResult) []*pairing {
	var out []*pairing
	index := map[pairingKey]*pairing{}
	for _, r := range results {
		if r == nil {
			continue
		}
		k := pairingKey{r.bot(), r.opponent(), r.clock}
		p := index[k]
		if p == nil {
			if q := index[pairingKey{k.opponent, k.bot, k.clock}]; q != nil {
				flipped := *r
				flipped.botColor = r.botColor.Other()
				r, p = &flipped, q
			}
		}
		if p == nil {
			p = &pairing{key: k}
			index[k] = p
			out = append(out, p)
		}
		p.byColor[r.botColor].add(r)
		p.both.add(r)
		p.games = append(p.games, r)
	}
	return out
}

// pairStats sums the games of one row of the table, seen from the bot.
type pairStats struct {
	games, wins, draws, losses int
	reasons                    [rbc.IllegalAction + 1]int
	turns                      int
	timeLosses                 [2]int // the bot's, the opponent's
	errors                     [2]int // losses by an illegal action or a failed callback (resignation)
	botTurns, oppTurns         int    // of timed games
	botTime, oppTime           time.Duration
}

func (s *pairStats) add(r *gameResult) {
	s.games++
	switch score(r) {
	case 0:
		s.wins++
	case 1:
		s.draws++
	default:
		s.losses++
	}
	if int(r.outcome.Reason) < len(s.reasons) {
		s.reasons[r.outcome.Reason]++
	}
	if r.outcome.HasWinner {
		side := 0 // the bot lost
		if r.outcome.Winner == r.botColor {
			side = 1 // the opponent lost
		}
		switch r.outcome.Reason {
		case rbc.Timeout:
			s.timeLosses[side]++
		case rbc.IllegalAction, rbc.Resign:
			s.errors[side]++
		}
	}
	s.turns += r.turns[rbc.White] + r.turns[rbc.Black]
	if r.timed {
		s.botTurns += r.turns[r.botColor]
		s.oppTurns += r.turns[r.botColor.Other()]
		s.botTime += r.used[r.botColor]
		s.oppTime += r.used[r.botColor.Other()]
	}
}

// score returns 0, 1 or 2 for a win, draw or loss of the match's bot.
func score(r *gameResult) int {
	switch {
	case !r.outcome.HasWinner:
		return 1
	case r.outcome.Winner == r.botColor:
		return 0
	}
	return 2
}

// resultsTable is the table of pairings: per pairing a row for each colour
// the bot played and, when it played both, one for both together (the row
// the Elo difference is best read from: colour advantage cancels out).
//
// Columns: W/D/L and the score of the bot; its Elo difference to the
// opponent with a 95% interval (match.EstimateElo); mean turns per game (both
// sides' turns); mean clock time per turn of each side; losses on time and
// losses by an error (an illegal request, or a callback that failed and so
// resigned) as bot/opponent; how the games ended.
func resultsTable(pairings []*pairing, withClock bool) *table {
	header := []string{"bot", "opponent", "as", "games", "wins", "draws", "losses", "score", "elo", "elo 95%",
		"turns/game", "time/turn bot", "time/turn opp", "time losses", "errors", "end reasons"}
	right := []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}
	if withClock {
		header = append(header[:3], append([]string{"clock"}, header[3:]...)...)
		for i := range right {
			right[i]++
		}
	}
	t := newTable(header, right...)
	for _, p := range pairings {
		row := func(as string, s *pairStats) {
			e := match.EstimateElo(s.wins, s.draws, s.losses)
			cells := []string{p.key.bot, p.key.opponent, as}
			if withClock {
				cells = append(cells, p.key.clock)
			}
			cells = append(cells, strconv.Itoa(s.games), strconv.Itoa(s.wins), strconv.Itoa(s.draws),
				strconv.Itoa(s.losses), pct(s), match.FormatElo(e.Elo), e.Interval(), ratio(float64(s.turns), s.games),
				perTurn(s.botTime, s.botTurns), perTurn(s.oppTime, s.oppTurns),
				fmt.Sprintf("%d/%d", s.timeLosses[0], s.timeLosses[1]), fmt.Sprintf("%d/%d", s.errors[0], s.errors[1]),
				reasonsText(s))
			t.add(cells...)
		}
		for c := rbc.White; c <= rbc.Black; c++ {
			if p.byColor[c].games > 0 {
				row(c.String(), &p.byColor[c])
			}
		}
		if p.byColor[rbc.White].games > 0 && p.byColor[rbc.Black].games > 0 {
			row("both", &p.both)
		}
	}
	return t
}

// matchTable is the table of one match: the bot's rows for the colours it
// played (and both); a match without a finished game shows an empty row.
func matchTable(cfg matchConfig, results []*gameResult) *table {
	t := resultsTable(groupPairings(results), false)
	if len(t.rows) == 0 {
		t.add(cfg.bot, cfg.opponent, "white", "0", "0", "0", "0", "-", "-", "-", "-", "-", "-", "0/0", "0/0", "-")
	}
	return t
}

// runMerge prints the merged table of match folders and, with an SPRT, its
// line for each pairing of two different bots.
func runMerge(dirs []string, stdout io.Writer, sprt *match.SPRT) error {
	if len(dirs) == 0 {
		return usageError{"--merge needs at least one folder"}
	}
	results, bare, err := readResults(dirs)
	if err != nil {
		return err
	}
	if len(results) == 0 {
		return fmt.Errorf("no games in %s (no %s, no *.json histories)", strings.Join(dirs, ", "), resultsLogName)
	}
	note := ""
	if bare > 0 {
		note = fmt.Sprintf(" (%d from histories without a results log: no times, clock ?)", bare)
	}
	fmt.Fprintf(stdout, "merged %d games from %d folders%s\n", len(results), len(dirs), note)
	pairings := groupPairings(results)
	if err := resultsTable(pairings, true).write(stdout); err != nil {
		return err
	}
	if sprt != nil {
		for _, line := range mergedSPRTLines(*sprt, pairings) {
			if _, err := fmt.Fprintln(stdout, line); err != nil {
				return err
			}
		}
	}
	return nil
}

func pct(s *pairStats) string {
	if s.games == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*(float64(s.wins)+float64(s.draws)/2)/float64(s.games), 'f', 1, 64) + "%"
}

func ratio(x float64, n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.FormatFloat(x/float64(n), 'f', 1, 64)
}

// perTurn shows the mean time per turn with three significant digits.
func perTurn(d time.Duration, turns int) string {
	if turns == 0 {
		return "-"
	}
	m := d / time.Duration(turns)
	switch {
	case m < time.Microsecond:
		return strconv.FormatInt(int64(m), 10) + "ns"
	case m < time.Millisecond:
		return strconv.FormatFloat(float64(m)/1e3, 'f', 1, 64) + "µs"
	case m < time.Second:
		return strconv.FormatFloat(float64(m)/1e6, 'f', 1, 64) + "ms"
	}
	return strconv.FormatFloat(m.Seconds(), 'f', 2, 64) + "s"
}

// reasonsText lists how the games ended: "KING_CAPTURE 9, MOVE_LIMIT 1".
func reasonsText(s *pairStats) string {
	var parts []string
	for r, n := range s.reasons {
		if n > 0 {
			name := rbc.WinReason(r).String()
			if r == int(rbc.NoReason) {
				name = "NONE"
			}
			parts = append(parts, name+" "+strconv.Itoa(n))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}
