package view

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/blindfish-rbc/blindfish/analysis"
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/record"
)

// NewBot makes the bot of spec (engine.NewLoggingPlayer, seeded with
// seed) to ask on color's side, told it has left at every turn, its
// decisions' log lines captured for the page. The caller closes its
// Player when done.
func NewBot(spec string, color chess.Color, seed int64, left time.Duration) (*BotOptions, error) {
	capture := analysis.NewCapture(slog.LevelDebug, 200)
	p, err := engine.NewLoggingPlayer(spec, seed, slog.New(capture))
	if err != nil {
		return nil, err
	}
	return &BotOptions{Spec: spec, Color: color, Player: p, Left: left, Log: capture}, nil
}

// PageWriter builds the page of one game's record with opts and writes it
// to path, returning the number of turns it shows: WriteRBCPage and
// WriteKriegspielPage, one a game (the table of games, package game, says
// which is whose).
type PageWriter func(ctx context.Context, rec *record.Record, path string, opts Options) (turns int, err error)

// BuildFile builds the page of the record spec names (a file, or a member
// of an archive: record.LoadRecord) with the PageWriter pageOf gives for
// it, opts, and its Source the link back to the record, and writes it to
// out (PagePath's default when ""), atomically: the record is read and its
// beliefs replayed before anything is written, so a bad record never leaves
// a partial page behind. It returns the page's path, the number of turns it
// shows and the file's size in bytes.
func BuildFile(ctx context.Context, spec, out string, opts Options, pageOf func(*record.Record) (PageWriter, error)) (path string, turns int, size int64, err error) {
	rec, err := record.LoadRecord(spec)
	if err != nil {
		return "", 0, 0, err
	}
	write, err := pageOf(rec)
	if err != nil {
		return "", 0, 0, err
	}
	path = PagePath(rec, out)
	opts.Source = RecordLink(path, rec.Path)
	if turns, err = write(ctx, rec, path, opts); err != nil {
		return "", 0, 0, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", 0, 0, err
	}
	return path, turns, st.Size(), nil
}

// WriteRBCPage writes the page of an RBC record (Build).
func WriteRBCPage(ctx context.Context, rec *record.Record, path string, opts Options) (int, error) {
	h, err := rec.History()
	if err != nil {
		return 0, err
	}
	page, err := Build(ctx, h, opts)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", rec.Name(), err)
	}
	return len(page.Plies), WriteFile(path, page)
}
