package match

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// ParseClock reads a clock as INITIAL+INCREMENT: seconds ("900+5", "0.5+0")
// or Go durations ("2s+100ms"); without "+" the increment is 0.
func ParseClock(s string) (initial, incr time.Duration, err error) {
	a, b, hasIncr := strings.Cut(s, "+")
	if initial, err = ParseSeconds(a); err != nil || initial <= 0 {
		return 0, 0, fmt.Errorf("bad --clock %q: want INITIAL+INCREMENT in seconds with INITIAL > 0, e.g. 900+5", s)
	}
	if hasIncr {
		if incr, err = ParseSeconds(b); err != nil || incr < 0 {
			return 0, 0, fmt.Errorf("bad --clock %q: the increment must be seconds, 0 or more", s)
		}
	}
	return initial, incr, nil
}

// ParseSeconds reads a duration as seconds ("60", "0.5") or as a Go
// duration ("2s").
func ParseSeconds(s string) (time.Duration, error) {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f > 1e9 || f < -1e9 {
			return 0, fmt.Errorf("%s seconds is out of range", s)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	return time.ParseDuration(s)
}

// ProgressBar draws a one-line progress bar that redraws itself in place.
// It is only for terminals: piped into a file the carriage returns would be
// garbage, so NewProgressBar returns nil there, and a nil bar does nothing.
type ProgressBar struct {
	w     io.Writer
	total int
	start time.Time
	width int // of the bar itself, in characters
	last  int // length of the last line drawn, to blank leftovers
	drawn time.Time
	// base is the count of the first update: steps done before the bar
	// started (games a match resumed) took none of its time, so the
	// estimate of the time left leaves them out.
	base    int
	started bool
}

// NewProgressBar returns a bar for total steps on w, or nil when w is not a
// terminal (checked without a terminal library: a character device).
func NewProgressBar(w io.Writer, total int) *ProgressBar {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return &ProgressBar{w: w, total: total, start: time.Now(), width: 30}
}

// Update redraws the bar at done steps with a status text after it, at most
// ten times a second (fast games would flood a slow terminal) and always at
// the last step.
func (p *ProgressBar) Update(done int, status string) {
	if p == nil {
		return
	}
	if !p.started {
		p.started, p.base = true, done
	}
	now := time.Now()
	if done < p.total && done > 0 && now.Sub(p.drawn) < 100*time.Millisecond {
		return
	}
	p.drawn = now
	p.draw(ProgressLine(done, p.base, p.total, p.width, time.Since(p.start), status))
}

func (p *ProgressBar) draw(line string) {
	pad := max(p.last-len(line), 0)
	fmt.Fprintf(p.w, "\r%s%s", line, strings.Repeat(" ", pad))
	p.last = len(line)
}

// Clear blanks the bar's line, so that a message can be written on it (or
// what follows the match starts on a clean line); the next Update draws the
// bar again.
func (p *ProgressBar) Clear() {
	if p == nil {
		return
	}
	p.draw("")
	fmt.Fprint(p.w, "\r")
	p.drawn = time.Time{}
}

// ProgressLine renders "[#####.....] 5/10  12s  status" for a bar that
// started with base steps done, with an estimate of the time left once a
// step is done: extrapolated from the steps done since the start, since
// the base steps (games a match resumed) took none of the time.
func ProgressLine(done, base, total, width int, elapsed time.Duration, status string) string {
	filled := 0
	if total > 0 {
		filled = min(done*width/total, width)
	}
	s := fmt.Sprintf("[%s%s] %d/%d  %s", strings.Repeat("#", filled), strings.Repeat(".", width-filled),
		done, total, elapsed.Round(time.Second))
	if done > base && done < total {
		left := time.Duration(float64(elapsed) / float64(done-base) * float64(total-done))
		s += fmt.Sprintf(" (about %s left)", left.Round(time.Second))
	}
	if status != "" {
		s += "  " + status
	}
	return s
}

// Status is the text after a match's progress bar: the bot's +W =D -L and
// score, and the running LLR of the SPRT (sprt is the match's).
func (p Progress) Status(bot string, sprt *SPRT) string {
	counted := p.Wins + p.Draws + p.Losses
	if counted == 0 && p.Void == 0 {
		return ""
	}
	s := fmt.Sprintf("%s: +%d =%d -%d", bot, p.Wins, p.Draws, p.Losses)
	if counted > 0 {
		pts := float64(p.Wins) + float64(p.Draws)/2
		s += fmt.Sprintf(" (%.1f%%)", 100*pts/float64(counted))
	}
	if p.Void > 0 {
		s += fmt.Sprintf(" void %d", p.Void)
	}
	if p.HasLLR && sprt != nil {
		lo, hi := sprt.Bounds()
		s += fmt.Sprintf("  LLR %.2f (%.2f, %.2f)", p.LLR, lo, hi)
	}
	return s
}
