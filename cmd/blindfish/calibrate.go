package main

import (
	"context"
	"fmt"
	"io"

	"github.com/blindfish-rbc/blindfish/engine"
)

// runCalibrate is `blindfish belief calibrate` (and `blindfish belief
// --calibrate`, its older form): it measures the player's opponent model
// against recorded games (engine.PriorCalibration): how often the true board
// left material en prise or bore on our king, against the share of the
// belief that did.
func runCalibrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("belief calibrate", "[--budget MiB] [--max-boards N] [--opponent NAME] FILE|DIR...", stderr)
	budget := fs.Int64("budget", 256, "exact's memory budget in `MiB`")
	maxBoards := fs.Int("max-boards", 2000000, "skip turns whose belief holds more boards than this (their scan is slow)")
	opponent := fs.String("opponent", "", "measure only the sides that played against the player of this `name` (as the records spell it), so that the model is that opponent's")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError{"no game records given (history files or folders of them)"}
	}
	cal := engine.NewPriorCalibration()
	games, records, err := cal.ObserveRecords(ctx, fs.Args(),
		engine.CalibrationOptions{MemoryBudget: *budget << 20, MaxBoards: *maxBoards, Opponent: *opponent})
	if err != nil {
		return err
	}
	if games == 0 {
		return fmt.Errorf("no record of a game against %q among %d", *opponent, records)
	}
	return cal.WriteText(stdout, games, *opponent)
}
