// Package tally counts a client's finished games by verdict. The RBC
// tournament client and the kriegspiel.org client report their games the
// same way (a line per game, a count at the end); the verdict and the count
// live here once so that the two reports cannot drift apart.
package tally

import (
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Count is the number of games won, drawn, lost and failed (ended by an
// error on our side). The zero value is an empty count; it is not safe for
// concurrent use (the clients' tallies hold their own lock).
type Count struct {
	Won, Drew, Lost, Failed int
}

// Add counts one game that we played as us and that ended with the given
// winner (none when hasWinner is false), or failed with err, and returns its
// verdict: "won", "lost", "draw", or failed (the caller's word for a game
// ended by an error) when err is non-nil.
func (c *Count) Add(us chess.Color, hasWinner bool, winner chess.Color, err error, failed string) string {
	switch {
	case err != nil:
		c.Failed++
		return failed
	case !hasWinner:
		c.Drew++
		return "draw"
	case winner == us:
		c.Won++
		return "won"
	default:
		c.Lost++
		return "lost"
	}
}

// Games is the number of games counted.
func (c Count) Games() int { return c.Won + c.Drew + c.Lost + c.Failed }

// Write writes "N games: W won, D drawn, L lost" to w, followed by ", F
// <failed>" when some games failed, without a line end.
func (c Count) Write(w io.Writer, failed string) {
	fmt.Fprintf(w, "%d games: %d won, %d drawn, %d lost", c.Games(), c.Won, c.Drew, c.Lost)
	if c.Failed > 0 {
		fmt.Fprintf(w, ", %d %s", c.Failed, failed)
	}
}

// Log reports the games a client's Listen plays as they end: a line per
// game on Out (what the game was, our verdict, where its record went) and
// at the end a count, so that an unattended run leaves a log a person can
// read. Tally embeds it and says each client's games its own way. It is
// safe for concurrent use.
type Log struct {
	// Dir is the folder the game records are saved in ("" saves nothing).
	// It must exist.
	Dir string
	// Out receives the lines.
	Out io.Writer
	// Logger gets the records that could not be saved; nil discards them.
	Logger *slog.Logger

	mu       sync.Mutex
	count    Count
	unplayed int
}

// Game is one game that ended, as a client tells its Log.
type Game struct {
	// Line names the game and our side ("game 7 as white vs bot"): the
	// verdict follows it.
	Line string
	// ID names the game in the log of a record that could not be saved.
	ID any
	// Us, HasWinner and Winner are our colour and the game's winner.
	Us        chess.Color
	HasWinner bool
	Winner    chess.Color
	// Outcome says how the game ended, in words.
	Outcome string
	// Err is the error that ended the game on our side, nil if none.
	Err error
	// Failed is the verdict of a game ended by Err.
	Failed string
	// Save, when not nil, saves the game's record in a folder and returns
	// its path.
	Save func(dir string) (string, error)
}

// Played counts g and writes its line: g.Line, the verdict, then the
// error or the outcome, and where the record was saved.
func (l *Log) Played(g Game) {
	l.mu.Lock()
	defer l.mu.Unlock()
	line := g.Line + ": " + l.count.Add(g.Us, g.HasWinner, g.Winner, g.Err, g.Failed)
	if g.Err != nil {
		line += ": " + g.Err.Error()
	} else {
		line += " (" + g.Outcome + ")"
	}
	if l.Dir != "" && g.Save != nil {
		switch path, err := g.Save(l.Dir); {
		case err == nil:
			line += ", saved " + path
		case l.Logger != nil:
			l.Logger.Warn("could not save the game record", "game", g.ID, "err", err)
		}
	}
	fmt.Fprintln(l.Out, line)
}

// NotPlayed writes line (a game that could not be played, and why) and
// counts the game among the failed ones, or when failed is false apart
// from them, among the unplayed.
func (l *Log) NotPlayed(line string, failed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if failed {
		l.count.Failed++
	} else {
		l.unplayed++
	}
	fmt.Fprintln(l.Out, line)
}

// Summary writes the count of the games so far to Out ("N games: W won, D
// drawn, L lost", then ", F <failed>" when some failed, then "; U
// <unplayed>" when some were not played) and a line end; nothing when
// there were none.
func (l *Log) Summary(failed, unplayed string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.count.Games() == 0 && l.unplayed == 0 {
		return
	}
	l.count.Write(l.Out, failed)
	if l.unplayed > 0 {
		fmt.Fprintf(l.Out, "; %d %s", l.unplayed, unplayed)
	}
	fmt.Fprintln(l.Out)
}

// Tally is a client's report of the games its Listen plays: Record is the
// client's ListenConfig.OnGame, WriteSummary writes the count at the end.
// K is what the client's Listen names an invitation or a game by, R the
// client's result of a game; Words says them the client's way. Make one
// with New; it is safe for concurrent use.
type Tally[K, R any] struct {
	Log
	words Words[K, R]
}

// Words is what differs between the clients' reports: how they name their
// games and their verdicts.
type Words[K, R any] struct {
	// Failed is the verdict of a game that an error of ours ended, and
	// FailedCount the name of such games in the summary.
	Failed, FailedCount string
	// Unplayed names the games not played in the summary; when it is
	// empty they count among the failed.
	Unplayed string
	// NotPlayed is the line of game k, not played because of err.
	NotPlayed func(k K, err error) string
	// Played describes game k, which ended with res: all of Game but Err
	// and Failed, which Record fills in.
	Played func(k K, res *R) Game
}

// New returns a Tally with the Dir, Out and Logger of Log that says its
// games with words.
func New[K, R any](dir string, out io.Writer, log *slog.Logger, words Words[K, R]) *Tally[K, R] {
	return &Tally[K, R]{Log: Log{Dir: dir, Out: out, Logger: log}, words: words}
}

// Record counts and reports game k: res nil is a game not played (because
// of err), err non-nil with a result one that an error of ours ended.
func (t *Tally[K, R]) Record(k K, res *R, err error) {
	if res == nil {
		t.NotPlayed(t.words.NotPlayed(k, err), t.words.Unplayed == "")
		return
	}
	g := t.words.Played(k, res)
	g.Err, g.Failed = err, t.words.Failed
	t.Played(g)
}

// WriteSummary writes the count of the games so far to Out (Log.Summary
// in the client's words); nothing when there were none.
func (t *Tally[K, R]) WriteSummary() { t.Summary(t.words.FailedCount, t.words.Unplayed) }
