package match

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/record"
)

// Match results on disk.
//
// A match folder holds one harness history per game (<white>-<black>-<seed>-
// <NNN>.json) and a results log with a line per game for what the history
// cannot say: which bot the match was about, the clock and each side's
// thinking time. The log is a separate file, not a sidecar per game, so that
// tools reading a folder's *.json as histories (replay, belief) never meet
// it, and it is appended to, so several sessions can write into one folder.
//
// A whole match appends to results.jsonl; shard K of N appends to
// results.shard-K-of-N.jsonl instead. The shards of a cluster job usually
// share one folder on a network file system, where appends from several
// machines to one file can overwrite each other (NFS emulates O_APPEND on the
// client); with a file each, no line is lost. Readers take all of a folder's
// logs.

// LogName is the results log of a match folder (of a whole match; a shard
// writes its own, ShardLogName).
const LogName = "results.jsonl"

// shardLogGlob matches the logs of shards in a folder.
const shardLogGlob = "results.shard-*-of-*.jsonl"

// ShardLogName is the results log that shard s appends to, so that shards
// sharing a folder never append to one file.
func ShardLogName(s Shard) string {
	if s.Whole() {
		return LogName
	}
	return fmt.Sprintf("results.shard-%d-of-%d.jsonl", s.K, s.N)
}

// LogLine is one line of a results log.
type LogLine struct {
	Record string `json:"record,omitempty"` // the history's file name, "" if not saved
	Bot    string `json:"bot"`              // the --white spec: the bot the table is about
	// BotColor is the bot's colour in this game ("white" or "black"). The
	// specs alone cannot tell it when a bot plays itself (Bot, White and
	// Black all the same spec), and then a log without it (one written
	// before it) reads as the bot playing White in every game.
	BotColor string `json:"bot_color,omitempty"`
	Opponent string `json:"opponent"`
	White    string `json:"white"`
	Black    string `json:"black"`
	Winner   string `json:"winner"` // "white", "black" or "" for a draw
	Reason   string `json:"reason"` // the harness's win reason, "" if none
	Detail   string `json:"detail,omitempty"`
	// Failed is the side whose failure voided the game (reason "ERROR",
	// winner ""): the game counts for neither side.
	Failed string     `json:"failed,omitempty"`
	Turns  [2]int     `json:"turns"`  // turns played by White, Black
	UsedS  [2]float64 `json:"used_s"` // clock seconds used by White, Black
	// TurnS holds the clock seconds charged at each turn, White's turns
	// then Black's (three significant digits: built-in bots take
	// microseconds, engines seconds); absent in logs written before it.
	TurnS [][]float64 `json:"turn_s,omitempty"`
	// Degraded holds White's then Black's degradation counts by kind
	// (DegradationReporter; zero counts left out), null for a side that
	// reports none; absent when neither does, and in logs written before it.
	Degraded []map[string]int `json:"degraded,omitempty"`
	Clock    string           `json:"clock"` // INITIAL+INCREMENT in seconds
	// Variant names the game when it is not RBC ("kriegspiel/wild16").
	Variant  string `json:"variant,omitempty"`
	Seed     int64  `json:"seed"`
	Game     int    `json:"game"`
	Finished string `json:"finished"` // RFC 3339
}

// Result is one finished game of a match, seen from the match's bot (the
// bot the table is about), whether just played or read back from a folder.
type Result struct {
	White, Black string // specs
	BotColor     chess.Color
	Outcome      Outcome
	Turns        [2]int           // turns played by White, Black
	Used         [2]time.Duration // clock time charged to White, Black
	// TurnTimes is the time charged at each turn of White, of Black (nil
	// when not known: bare histories, logs written before it).
	TurnTimes [2][]time.Duration
	// Degraded is the degradation counts of White, of Black, by kind (see
	// DegradationReporter); nil for a side that reports none.
	Degraded [2]map[string]int
	Clock    string // "60+1"; "?" for games read from a bare history
	// colorGuessed is set for a line read from a log written before
	// bot_color whose bot played itself: BotColor (White) is a guess.
	colorGuessed bool
	Variant      string // the game when not RBC (Referee.Variant)
	Timed        bool   // Used is known
	Record       string // the history's path or name, "" if not saved
	// Where the game stands in its session, for pairing games for the SPRT
	// and for resuming: the session's folder (absolute; "" when not read from
	// one), its seed and the game number. Numbered is false for bare
	// histories, which know none of this.
	Dir      string
	Seed     int64
	Game     int
	Numbered bool
}

// Bot returns the spec of the match's bot.
func (r *Result) Bot() string {
	if r.BotColor == chess.White {
		return r.White
	}
	return r.Black
}

// Opponent returns the spec of the bot's opponent.
func (r *Result) Opponent() string {
	if r.BotColor == chess.White {
		return r.Black
	}
	return r.White
}

// Points returns the half-points the bot scored: 2 for a win, 1 for a draw,
// 0 for a loss.
func (r *Result) Points() int { return 2 - r.score() }

// score returns 0, 1 or 2 for a win, draw or loss of the match's bot: the
// index of its W/D/L count.
func (r *Result) score() int {
	switch {
	case !r.Outcome.HasWinner:
		return 1
	case r.Outcome.Winner == r.BotColor:
		return 0
	}
	return 2
}

// Line renders r for the results log, finished at now.
func (r *Result) Line(now time.Time) LogLine {
	l := LogLine{
		Record: filepath.Base(r.Record), Bot: r.Bot(), BotColor: r.BotColor.String(), Opponent: r.Opponent(), White: r.White, Black: r.Black,
		Detail: r.Outcome.Detail, Turns: r.Turns, Clock: r.Clock, Variant: r.Variant, Seed: r.Seed, Game: r.Game,
		UsedS:    [2]float64{r.Used[0].Seconds(), r.Used[1].Seconds()},
		Finished: now.UTC().Format(time.RFC3339),
	}
	if r.Record == "" {
		l.Record = ""
	}
	if r.TurnTimes[0] != nil || r.TurnTimes[1] != nil {
		l.TurnS = make([][]float64, 2)
		for c, times := range r.TurnTimes {
			l.TurnS[c] = make([]float64, len(times))
			for i, d := range times {
				l.TurnS[c][i] = threeDigits(d.Seconds())
			}
		}
	}
	if r.Degraded[0] != nil || r.Degraded[1] != nil {
		l.Degraded = r.Degraded[:]
	}
	if r.Outcome.HasWinner {
		l.Winner = r.Outcome.Winner.String()
	}
	if r.Outcome.Void() {
		l.Failed = r.Outcome.Failed.String()
	}
	l.Reason = r.Outcome.Reason
	return l
}

// FromLine reads a results-log line back.
func FromLine(l LogLine) (*Result, error) {
	r := &Result{White: l.White, Black: l.Black, Turns: l.Turns, Clock: l.Clock, Variant: l.Variant, Timed: true, Record: l.Record,
		Seed: l.Seed, Game: l.Game, Numbered: true}
	for c, secs := range l.UsedS {
		d, err := secondsDuration(secs)
		if err != nil {
			return nil, fmt.Errorf("used_s: %w", err)
		}
		r.Used[c] = d
	}
	switch {
	case l.BotColor != "":
		c, err := chess.ParseColor(l.BotColor)
		if err != nil {
			return nil, fmt.Errorf("bot_color: %w", err)
		}
		if spec := [2]string{l.White, l.Black}[c]; spec != l.Bot {
			return nil, fmt.Errorf("bot %q does not play %s (%q)", l.Bot, c, spec)
		}
		r.BotColor = c
	case l.Bot == l.White:
		r.BotColor = chess.White
		r.colorGuessed = l.White == l.Black
	case l.Bot == l.Black:
		r.BotColor = chess.Black
	default:
		return nil, fmt.Errorf("bot %q plays neither colour (%q, %q)", l.Bot, l.White, l.Black)
	}
	r.Outcome.Detail = l.Detail
	switch len(l.TurnS) {
	case 0:
	case 2:
		for c, secs := range l.TurnS {
			r.TurnTimes[c] = make([]time.Duration, len(secs))
			for i, x := range secs {
				d, err := secondsDuration(x)
				if err != nil {
					return nil, fmt.Errorf("turn_s: %w", err)
				}
				r.TurnTimes[c][i] = d
			}
		}
	default:
		return nil, fmt.Errorf("turn_s: %d lists, want White's and Black's", len(l.TurnS))
	}
	switch len(l.Degraded) {
	case 0:
	case 2:
		r.Degraded = [2]map[string]int(l.Degraded)
	default:
		return nil, fmt.Errorf("match: degraded: %d entries, want White's and Black's", len(l.Degraded))
	}
	if l.Winner != "" {
		c, err := chess.ParseColor(l.Winner)
		if err != nil {
			return nil, fmt.Errorf("match: winner: %w", err)
		}
		r.Outcome.Winner, r.Outcome.HasWinner = c, true
	}
	r.Outcome.Reason = l.Reason
	if r.Outcome.Void() {
		c, err := chess.ParseColor(l.Failed)
		if err != nil {
			return nil, fmt.Errorf("match: failed: %w", err)
		}
		if r.Outcome.HasWinner {
			return nil, fmt.Errorf("a void game (reason %s) with a winner", ReasonError)
		}
		r.Outcome.Failed = c
	}
	return r, nil
}

// threeDigits rounds x to three significant digits, which keeps a log line
// of a long game short.
func threeDigits(x float64) float64 {
	y, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
	if err != nil {
		return x
	}
	return y
}

// secondsDuration reads a log's seconds: a time spent, so never negative,
// and within what a Duration holds (a larger float would wrap round).
func secondsDuration(s float64) (time.Duration, error) {
	ns := math.Round(s * float64(time.Second))
	switch {
	case !(ns >= 0):
		return 0, fmt.Errorf("%v seconds: a time spent is not negative", s)
	case ns >= math.MaxInt64:
		return 0, fmt.Errorf("%v seconds: more than a Duration holds", s)
	}
	return time.Duration(ns), nil
}

// Log appends lines to a results log; it is safe for a match's concurrent
// games.
//
// A log must survive a full disk or a killed machine with at most its last
// line cut short, and a line cut short must cost only its own game: every
// line is written whole in one write (and synced), a write that fails half
// way is cut off again, an append never starts on a line left without its
// newline, and Repair sets a torn last line aside before a match appends.
type Log struct {
	mu   sync.Mutex
	path string
}

// NewLog returns the results log of shard s (Shard{}: the whole match) in
// dir.
func NewLog(dir string, s Shard) *Log {
	return &Log{path: filepath.Join(dir, ShardLogName(s))}
}

// Path returns the log's file.
func (l *Log) Path() string { return l.path }

// TornSuffix is added to a log's name for the file that keeps the torn lines
// Repair set aside (results.jsonl.torn): evidence, never read as results.
const TornSuffix = ".torn"

// Append writes one line, opening and closing the file each time so that a
// killed match loses nothing already played.
func (l *Log) Append(line LogLine) (err error) {
	data, err := json.Marshal(line)
	if err != nil {
		return fmt.Errorf("results log: %w", err)
	}
	data = append(data, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("results log: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("results log: %w", cerr)
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("results log: %w", err)
	}
	size := fi.Size()
	if size > 0 {
		// Another writer may have left a line without its newline since
		// Repair: never glue onto it.
		var last [1]byte
		if _, err := f.ReadAt(last[:], size-1); err != nil {
			return fmt.Errorf("results log: %w", err)
		}
		if last[0] != '\n' {
			data = append([]byte{'\n'}, data...)
		}
	}
	if n, err := f.Write(data); err != nil {
		// Part of the line may be on disk (a full disk): cut it off again,
		// unless someone else appended meanwhile.
		if fi, serr := f.Stat(); n > 0 && serr == nil && fi.Size() == size+int64(n) {
			f.Truncate(size)
		}
		return fmt.Errorf("results log: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("results log: %w", err)
	}
	return nil
}

// Repair makes the log end on a whole line before a match appends to it. A
// last line that does not decode (cut short by a full disk or a killed
// machine: it has no newline, or a later session glued a line onto it) is
// appended to the log's name + TornSuffix and the log truncated back to the
// line before it, so that its game counts as not played (a resumed match
// plays it again) and no later line is glued onto it. A last line that is
// whole but lacks its newline gets one. Repair returns the line it set
// aside, naming file and line number, or nil.
func (l *Log) Repair() (*LineError, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	data, err := os.ReadFile(l.path)
	if errors.Is(err, fs.ErrNotExist) || len(data) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("results log: %w", err)
	}
	endsLine := data[len(data)-1] == '\n'
	body := data
	if endsLine {
		body = data[:len(data)-1]
	}
	start := bytes.LastIndexByte(body, '\n') + 1
	last := bytes.TrimSpace(body[start:])
	_, derr := parseLine(last)
	if len(last) == 0 || derr == nil {
		if endsLine {
			return nil, nil
		}
		return nil, appendBytes(l.path, []byte{'\n'})
	}
	torn := l.path + TornSuffix
	if err := appendBytes(torn, append(bytes.Clone(body[start:]), '\n')); err != nil {
		return nil, fmt.Errorf("results log: setting a torn line aside: %w", err)
	}
	if err := os.Truncate(l.path, int64(start)); err != nil {
		return nil, fmt.Errorf("results log: %w", err)
	}
	n := bytes.Count(data[:start], []byte{'\n'}) + 1
	return &LineError{Path: l.path, Line: n,
		Err: fmt.Errorf("torn last line (%d bytes: %w) moved to %s", len(data)-start, derr, filepath.Base(torn))}, nil
}

// appendBytes appends data to the file at path in one write and syncs it.
func appendBytes(path string, data []byte) (err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Sync()
}

// LineError is a results-log line that cannot be read, named by file and
// line number. Readers leave such a line out and go on: one bad line must
// not cost the games of all the others.
type LineError struct {
	Path string
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

// parseLine reads one line of a results log.
func parseLine(text []byte) (*Result, error) {
	var l LogLine
	if err := json.Unmarshal(text, &l); err != nil {
		return nil, err
	}
	return FromLine(l)
}

// ReadLog reads one results log; a line it cannot read is an error (a
// *LineError). Its results have Record as the log names it (a file name)
// and no Dir.
func ReadLog(path string) ([]*Result, error) {
	out, bad, err := readLog(path, nil)
	if err != nil {
		return nil, err
	}
	if len(bad) > 0 {
		return nil, bad[0]
	}
	return out, nil
}

// readLog reads one results log, leaving out (and returning) the lines it
// cannot read: a line in the middle that does not decode, or a last line cut
// short. A log whose name ends in CompressedSuffix is read through gzip. A
// line whose text is in seen (when not nil) is left out as read already, and
// each line read is added to it.
func readLog(path string, seen map[string]bool) (out []*Result, bad []*LineError, err error) {
	data, err := readLogData(path)
	if err != nil {
		return nil, nil, err
	}
	for n, text := range bytes.Split(data, []byte{'\n'}) {
		text = bytes.TrimSpace(text)
		if len(text) == 0 {
			continue
		}
		if seen != nil {
			if seen[string(text)] {
				continue
			}
			seen[string(text)] = true
		}
		r, err := parseLine(text)
		if err != nil {
			bad = append(bad, &LineError{Path: path, Line: n + 1, Err: err})
			continue
		}
		out = append(out, r)
	}
	return out, bad, nil
}

// readLogData returns a results log's bytes, decompressed when its name
// ends in CompressedSuffix.
func readLogData(path string) ([]byte, error) {
	if !strings.HasSuffix(path, CompressedSuffix) {
		return os.ReadFile(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("results log %s: %w", path, err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		return nil, fmt.Errorf("results log %s: %w", path, err)
	}
	return data, nil
}

// CompressedSuffix ends the name of a results log compressed with gzip
// (results.jsonl.gz), as a finished run's log may be kept to save space:
// readers take it as they take the plain log, and a run resumed into the
// folder appends to a new plain log beside it.
const CompressedSuffix = ".gz"

// folderLogs returns the results logs of a folder in the order they were
// written: results.jsonl (its compressed part first, then the plain one),
// then the shards' logs in name order, each likewise. A name that is not
// there is in the list all the same (readers skip it).
func folderLogs(dir string) ([]string, error) {
	var shards []string
	for _, glob := range []string{shardLogGlob, shardLogGlob + CompressedSuffix} {
		found, err := filepath.Glob(filepath.Join(dir, glob))
		if err != nil {
			return nil, fmt.Errorf("results logs of %s: %w", dir, err)
		}
		for _, f := range found {
			shards = append(shards, strings.TrimSuffix(f, CompressedSuffix))
		}
	}
	sort.Strings(shards)
	shards = slices.Compact(shards)
	logs := []string{filepath.Join(dir, LogName) + CompressedSuffix, filepath.Join(dir, LogName)}
	for _, s := range shards {
		logs = append(logs, s+CompressedSuffix, s)
	}
	return logs, nil
}

// readFolderLogs reads every results log of dir (none is no error), with
// Dir set to abs and Record to the history's path; the lines it cannot read
// are left out and returned.
func readFolderLogs(dir, abs string) (out []*Result, bad []*LineError, err error) {
	logs, err := folderLogs(dir)
	if err != nil {
		return nil, nil, err
	}
	// A line met twice is one game read twice: a log compressed with
	// gzip -k beside its plain self, say. Each line holds its game's clock
	// times and the moment it finished, so two games never write the same.
	seen := map[string]bool{}
	for _, path := range logs {
		lines, skipped, err := readLog(path, seen)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		for _, r := range lines {
			r.Dir = abs
			if r.Record != "" {
				r.Record = filepath.Join(dir, r.Record)
			}
		}
		out = append(out, lines...)
		bad = append(bad, skipped...)
	}
	return out, bad, nil
}

// RecordReader reads the result of a recorded game from its record alone
// (no clock times, clock "?"): how the results reader counts the games no
// results log mentions (records a tournament server saved, say) and how
// Archive checks each record before it packs it. The table of games
// (game.ReadResult) reads the records of every game; ReadRBCRecord reads
// RBC's alone.
type RecordReader func(rec *record.Record) (*Result, error)

// ReadRBCRecord reads an RBC record's result: the RecordReader of RBC, the
// game a match plays when Config.Referee is nil.
func ReadRBCRecord(rec *record.Record) (*Result, error) {
	h, err := rec.History()
	if err != nil {
		return nil, err
	}
	return &Result{
		White: h.WhiteName, Black: h.BlackName, BotColor: chess.White, Outcome: RBCOutcome(h.Outcome),
		Turns: [2]int{len(h.Turns[chess.White]), len(h.Turns[chess.Black])}, Clock: "?", Record: rec.Name(),
	}, nil
}

// Folders is what ReadMatchFolders found in match folders.
type Folders struct {
	// Results holds the games that count: every results-log line but the
	// void ones, and every record no line mentions (a bare game).
	Results []*Result
	Bare    int // of Results, the bare games
	// Void holds the games a bot's failure voided (Outcome.Void) that were
	// not played again later into the same folder: they count for neither
	// side, only in the table's errors column.
	Void []*Result
	// Skipped holds the results-log lines that could not be read (a line
	// cut short, a damaged one), which are left out.
	Skipped []*LineError
}

// voidKey is a game of a session in a folder, as resume finds it.
type voidKey struct {
	dir, white, black, clock, variant string
	seed                              int64
	game                              int
}

func voidKeyOf(r *Result) voidKey {
	return voidKey{r.Dir, r.White, r.Black, r.Clock, r.Variant, r.Seed, r.Game}
}

// ReadMatchFolders reads the games of match folders: every results-log
// line, and every record no line mentions (an RBC history or a Kriegspiel
// record; loose, *.json or *.json.gz, or in the folder's archives, see
// record.FolderRecords), which counts as a bare game (no times, clock "?"). A
// folder named twice counts once. A harness series folder (one with a
// summary.txt, see series.go) adds the histories of its gNN subfolders. A
// log line that cannot be read is left out and listed in Skipped;
// unreadable records and archives are errors that name the file. read reads
// the bare records.
func ReadMatchFolders(dirs []string, read RecordReader) (*Folders, error) {
	out := &Folders{}
	seen := map[string]bool{}
	for _, dir := range dirs {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, fmt.Errorf("match folder %s: %w", dir, err)
		}
		if seen[abs] {
			continue
		}
		seen[abs] = true
		fi, err := os.Stat(dir)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("%s is not a folder", dir)
		}
		lines, bad, err := readFolderLogs(dir, abs)
		if err != nil {
			return nil, err
		}
		out.Skipped = append(out.Skipped, bad...)
		logged := map[string]bool{}
		played := map[voidKey]bool{}
		for _, r := range lines {
			if r.Record != "" {
				logged[filepath.Base(r.Record)] = true
			}
			if !r.Outcome.Void() {
				played[voidKeyOf(r)] = true
				out.Results = append(out.Results, r)
			}
		}
		for _, r := range lines {
			if r.Outcome.Void() && !played[voidKeyOf(r)] {
				out.Void = append(out.Void, r)
			}
		}
		series, err := readSeriesSummary(dir)
		if err != nil {
			return nil, err
		}
		recordDirs := []string{dir}
		if series != nil {
			games, err := seriesGameDirs(dir)
			if err != nil {
				return nil, err
			}
			recordDirs = append(recordDirs, games...)
		}
		for _, rd := range recordDirs {
			for rec, err := range record.FolderRecords(rd) {
				if err != nil {
					return nil, err
				}
				if logged[rec.Base()] {
					continue
				}
				r, err := read(rec)
				if err != nil {
					return nil, err
				}
				if series != nil {
					nameSeriesSide(r, series)
				}
				out.Results = append(out.Results, r)
				out.Bare++
			}
		}
	}
	return out, nil
}

// ReadFolders reads the games that count in match folders (see
// ReadMatchFolders): void games and unreadable log lines are left out.
func ReadFolders(dirs []string, read RecordReader) (results []*Result, bare int, err error) {
	f, err := ReadMatchFolders(dirs, read)
	if err != nil {
		return nil, 0, err
	}
	return f.Results, f.Bare, nil
}
