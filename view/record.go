package view

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/blindfish-rbc/blindfish/analysis"
	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// NewBot makes the bot of spec (engine.NewLoggingPlayer, seeded with
// seed) to ask on color's side, told it has left at every turn, its
// decisions' log lines captured for the page. The caller closes its
// Player when done.
func NewBot(spec string, color rbc.Color, seed int64, left time.Duration) (*BotOptions, error) {
	capture := analysis.NewCapture(slog.LevelDebug, 200)
	p, err := engine.NewLoggingPlayer(spec, seed, slog.New(capture))
	if err != nil {
		return nil, err
	}
	return &BotOptions{Spec: spec, Color: color, Player: p, Left: left, Log: capture}, nil
}

// BuildFile builds the page of the record spec names (a file, or a member
// of an archive: rbc.LoadRecord) with opts, its Source the link back to
// the record, and writes it to out (PagePath's default when ""),
// atomically: the record is read and its beliefs replayed before anything
// is written, so a bad record never leaves a partial page behind. It
// returns the page's path, the page and the file's size in bytes.
func BuildFile(ctx context.Context, spec, out string, opts Options) (path string, page *Page, size int64, err error) {
	rec, err := rbc.LoadRecord(spec)
	if err != nil {
		return "", nil, 0, err
	}
	h, err := rec.History()
	if err != nil {
		return "", nil, 0, err
	}
	path = PagePath(rec, out)
	opts.Source = RecordLink(path, rec.Path)
	if page, err = Build(ctx, h, opts); err != nil {
		return "", nil, 0, fmt.Errorf("%s: %w", rec.Name(), err)
	}
	if err := WriteFile(path, page); err != nil {
		return "", nil, 0, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", nil, 0, err
	}
	return path, page, st.Size(), nil
}
