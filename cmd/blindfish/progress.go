package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progressBar draws a one-line progress bar that redraws itself in place. It
// is only for terminals: piped into a file the carriage returns would be
// garbage, so newProgressBar returns nil there, and a nil bar does nothing.
type progressBar struct {
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

// newProgressBar returns a bar for total steps on w, or nil when w is not a
// terminal (checked without a terminal library: a character device).
func newProgressBar(w io.Writer, total int) *progressBar {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return &progressBar{w: w, total: total, start: time.Now(), width: 30}
}

// update redraws the bar at done steps with a status text after it, at most
// ten times a second (fast games would flood a slow terminal) and always at
// the last step.
func (p *progressBar) update(done int, status string) {
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
	p.draw(progressLineFrom(done, p.base, p.total, p.width, time.Since(p.start), status))
}

func (p *progressBar) draw(line string) {
	pad := max(p.last-len(line), 0)
	fmt.Fprintf(p.w, "\r%s%s", line, strings.Repeat(" ", pad))
	p.last = len(line)
}

// finish clears the bar so that what follows starts on a clean line.
func (p *progressBar) finish() { p.clear() }

// clear blanks the bar's line, so that a message can be written on it; the
// next update draws the bar again.
func (p *progressBar) clear() {
	if p == nil {
		return
	}
	p.draw("")
	fmt.Fprint(p.w, "\r")
	p.drawn = time.Time{}
}

// progressLine renders "[#####.....] 5/10  12s  status", with an estimate of
// the time left once a step is done.
func progressLine(done, total, width int, elapsed time.Duration, status string) string {
	return progressLineFrom(done, 0, total, width, elapsed, status)
}

// progressLineFrom is progressLine for a bar that started with base steps
// done: the estimate extrapolates from the steps done since.
func progressLineFrom(done, base, total, width int, elapsed time.Duration, status string) string {
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
