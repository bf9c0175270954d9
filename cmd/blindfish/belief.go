package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/report"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// beliefConfig is the parsed command line of `blindfish belief`.
type beliefConfig struct {
	samplers []string
	colors   []rbc.Color
	json     bool
	html     string // the page to write, "" for none
	perTurn  bool
	opts     sampler.Options
	sense    senseChooser
	paths    []string // records, archives and folders of them (rbc.Records)
}

// senseChooser picks the square a replayed turn senses. The recorded choice
// is the default; a sense strategy run on recorded games plugs in here (the
// result is then read off the true board).
type senseChooser func(ctx context.Context, s sampler.Sampler, t *sampler.ObservedTurn) (rbc.Square, error)

// parseColors reads --color: white, black or both.
func parseColors(s string) ([]rbc.Color, error) {
	switch s {
	case "both":
		return []rbc.Color{rbc.White, rbc.Black}, nil
	case "white", "black":
		c, _ := rbc.ParseColor(s)
		return []rbc.Color{c}, nil
	}
	return nil, fmt.Errorf("--color must be white, black or both, not %q", s)
}

// recordedSense senses what the player sensed in the game.
func recordedSense(_ context.Context, _ sampler.Sampler, t *sampler.ObservedTurn) (rbc.Square, error) {
	return t.Sense, nil
}

// beliefTurn is one replayed turn's report.
type beliefTurn struct {
	Turn int `json:"turn"` // 1-based
	// SizeBefore and SizeAfter are the belief's size after the capture notice
	// (before the sense) and after the sense.
	SizeBefore int     `json:"size_before"`
	SizeAfter  int     `json:"size_after"`
	Reduction  float64 `json:"reduction"` // 1 − after/before
	// Refilled is true when the belief took in boards right after the sense
	// (a recovery, or exact's backlog replayed): after then measures the
	// refill, not the sense, and the turn is left out of the mean reduction.
	Refilled bool    `json:"refilled_after_sense,omitempty"`
	Entropy  float64 `json:"entropy_bits"`
	Deferred int     `json:"deferred"` // exact's backlog after the turn
	// Present is true when the true board was in the belief at every check of
	// the turn (after the notice, after the sense, after the move).
	Present       bool    `json:"present"`
	PresentNotice bool    `json:"present_after_notice"`
	PresentSense  bool    `json:"present_after_sense"`
	PresentMove   bool    `json:"present_after_move"`
	UpdateMillis  float64 `json:"update_ms"` // notice + sense + move, waits included
	Recoveries    int     `json:"recoveries"`
}

// beliefGame is one game replayed from one side through one sampler.
type beliefGame struct {
	// record is where the game's record is, for the page's link.
	record  report.RecordPlace
	File    string       `json:"file"`
	Color   string       `json:"color"`
	Sampler string       `json:"sampler"`
	Turns   []beliefTurn `json:"turns"`
	Stats   struct {
		MaxBoards  int   `json:"max_boards"`
		Recoveries int   `json:"recoveries"`
		PeakBytes  int64 `json:"peak_bytes,omitempty"`
		// exact: the most disk the spilled backlog took, and deferred boards
		// dropped over the memory and disk budgets.
		PeakSpillBytes int64 `json:"peak_spill_bytes,omitempty"`
		Dropped        int64 `json:"dropped,omitempty"`
	} `json:"stats"`
}

// beliefTotals sums one sampler's games.
type beliefTotals struct {
	Sampler       string  `json:"sampler"`
	Games         int     `json:"games"`
	Turns         int     `json:"turns"`
	Present       int     `json:"present"`
	Recall        float64 `json:"recall"` // percent
	MeanBefore    float64 `json:"mean_size_before"`
	MeanAfter     float64 `json:"mean_size_after"`
	MeanReduction float64 `json:"mean_reduction"` // over the turns not refilled after the sense
	MeanEntropy   float64 `json:"mean_entropy_bits"`
	MeanMillis    float64 `json:"mean_update_ms"`
	MaxMillis     float64 `json:"max_update_ms"`
	MaxBoards     int     `json:"max_boards"`
	Recoveries    int     `json:"recoveries"`
	PeakSpillMiB  float64 `json:"peak_spill_mib"` // the largest spilled backlog of one game
	Dropped       int64   `json:"dropped"`
}

type beliefReport struct {
	Games    []*beliefGame  `json:"games"`
	Samplers []beliefTotals `json:"samplers"`
	Turns    int            `json:"turns"`
	Recall   float64        `json:"recall"` // percent, over all samplers' turns
}

// runBelief replays recorded games through belief samplers from one side's
// point of view and reports, turn by turn and in total, how well each
// sampler tracked the true board.
func runBelief(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if hasSenseFlag(args) {
		return runSenseBench(ctx, args, stdout, stderr) // the offline sense benchmark: sensebench.go
	}
	if hasFlag(args, "game") {
		return runKriegspielBelief(ctx, args, stdout, stderr) // Kriegspiel records: kbelief.go
	}
	if hasFlag(args, "calibrate") {
		return runCalibrate(ctx, args, stdout, stderr) // the opponent model against the games: calibrate.go
	}
	cfg, err := parseBeliefFlags(args, stderr)
	if err != nil {
		return err
	}
	rep := &beliefReport{}
	for rec, err := range rbc.Records(cfg.paths...) {
		if err != nil {
			return fmt.Errorf("belief: %w", err)
		}
		h, err := rec.History()
		if err != nil {
			return fmt.Errorf("belief: %w", err)
		}
		file := rec.Base()
		for _, name := range cfg.samplers {
			for _, c := range cfg.colors {
				g, err := replayBelief(ctx, cfg, h, file, name, c)
				if err != nil {
					return fmt.Errorf("belief: %s as %v with %s: %w", filepath.Base(file), c, name, err)
				}
				g.record = report.RecordPlace{File: rec.Path, Member: rec.Member}
				rep.Games = append(rep.Games, g)
			}
		}
	}
	rep.total(cfg.samplers)
	if cfg.html != "" {
		if err := rep.writePage(cfg); err != nil {
			return fmt.Errorf("belief: %w", err)
		}
	}
	if cfg.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("belief: %w", err)
		}
		return nil
	}
	return rep.print(stdout, cfg.perTurn)
}

func parseBeliefFlags(args []string, stderr io.Writer) (*beliefConfig, error) {
	fs := newFlagSet("belief", "[flags] FILE...\n       blindfish belief --sense STRATEGY[,STRATEGY...] [flags] FILE...\n       blindfish belief --game kriegspiel [flags] FILE...\n       blindfish belief --calibrate [flags] FILE...", stderr)
	samplers := fs.String("sampler", "exact", "sampler `name`s, comma-separated, or all ("+strings.Join(sampler.Names(), ", ")+")")
	color := fs.String("color", "both", "replay from the point of view of white, black or both")
	asJSON := fs.Bool("json", false, "write the report as JSON")
	htmlOut := fs.String("html", "", "also write a page of plots to `FILE`: size, entropy, recall and time at each turn, one line per sampler, and the games with links to their records")
	perTurn := fs.Bool("turns", true, "list every turn (the totals are always printed)")
	budget := fs.Int64("budget", sampler.DefaultMemoryBudget>>20, "exact's memory budget in `MiB`")
	pool := fs.Int("pool", sampler.DefaultPoolSize, "pool size of the sampling beliefs (and particles)")
	seed := fs.Uint64("seed", 1, "seed of the samplers' randomness")
	workers := fs.Int("workers", 0, "goroutines for parallel work (0: all cores)")
	replay := fs.Int("replay", 0, "exact's backlog replay work per observation, in `boards` (0: the default, 8M; raise it for exactness whatever the time)")
	disk := fs.Int64("disk", sampler.DefaultSpillBudget>>20, "disk space exact's backlog may spill to, in `MiB` (0: never spill)")
	// The modes runBelief hands to other commands before this flag set reads
	// anything; defined here only so that belief --help lists them.
	fs.String("sense", "", "instead, run the offline sense benchmark: compare sense `STRATEGIES` (comma-separated, or all: "+strings.Join(engine.SenseNames(), ", ")+") on the games; 'blindfish belief --sense all --help' lists its flags")
	fs.String("game", "", "kriegspiel: instead, follow Kriegspiel records with Kriegspiel's beliefs; 'blindfish belief --game kriegspiel --help' lists its flags")
	fs.Bool("calibrate", false, "instead, measure the player's opponent model against the games; 'blindfish belief --calibrate --help' lists its flags")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	cfg := &beliefConfig{json: *asJSON, html: *htmlOut, perTurn: *perTurn, sense: recordedSense}
	if fs.NArg() == 0 {
		return nil, usageError{"no game records given (history files, archives or folders of them)"}
	}
	cfg.paths = fs.Args()
	if *samplers == "all" {
		cfg.samplers = sampler.Names()
	} else {
		for _, n := range strings.Split(*samplers, ",") {
			n = strings.TrimSpace(n)
			if !slices.Contains(sampler.Names(), n) {
				return nil, usageError{fmt.Sprintf("unknown sampler %q (have %s)", n, strings.Join(sampler.Names(), ", "))}
			}
			cfg.samplers = append(cfg.samplers, n)
		}
	}
	var err error
	if cfg.colors, err = parseColors(*color); err != nil {
		return nil, usageError{err.Error()}
	}
	if *budget <= 0 || *pool <= 0 || *workers < 0 || *replay < 0 || *disk < 0 {
		return nil, usageError{"--budget and --pool must be positive; --workers, --replay and --disk not negative"}
	}
	spill := *disk << 20
	if spill == 0 {
		spill = -1 // Options: negative means never
	}
	cfg.opts = sampler.Options{
		MemoryBudget: *budget << 20, PoolSize: *pool, Seed: *seed, Workers: *workers,
		MaxReplay: *replay, SpillBudget: spill,
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	return cfg, nil
}

// replayBelief feeds one game to a fresh sampler from colour c's point of view.
func replayBelief(ctx context.Context, cfg *beliefConfig, h *rbc.History, file, name string, c rbc.Color) (*beliefGame, error) {
	start, turns, err := sampler.Observations(h, c)
	if err != nil {
		return nil, err
	}
	s, err := sampler.New(name, cfg.opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	g := &beliefGame{File: filepath.Base(file), Color: c.String(), Sampler: name}
	if err := s.HandleGameStart(ctx, c, start); err != nil {
		return nil, err
	}
	// path holds the true board after every observation, for exact's backlog.
	path := []rbc.Board{start}
	// A belief that could not look (an unreadable spilled backlog) fails the
	// game rather than counting the true board as lost.
	present := func(truth rbc.Board) (bool, error) {
		path = append(path, truth)
		ok, err := sampler.Present(ctx, s, path)
		if err != nil {
			return false, fmt.Errorf("turn %d: %w", len(g.Turns)+1, err)
		}
		return ok, nil
	}
	for i := range turns {
		t := &turns[i]
		var bt beliefTurn
		bt.Turn = i + 1
		var spent time.Duration
		timed := func(f func() error) error {
			t0 := time.Now()
			err := f()
			spent += time.Since(t0)
			return err
		}
		if err := timed(func() error { return t.Notice(ctx, s) }); err != nil {
			return nil, err
		}
		bt.SizeBefore = s.Size().Boards
		if bt.PresentNotice, err = present(t.Before); err != nil {
			return nil, err
		}
		square, err := cfg.sense(ctx, s, t)
		if err != nil {
			return nil, err
		}
		st0 := s.Stats()
		if err := timed(func() error { return t.SenseWith(ctx, s, square) }); err != nil {
			return nil, err
		}
		st1 := s.Stats()
		bt.Refilled = st1.Recoveries != st0.Recoveries || st1.Replayed != st0.Replayed
		bt.SizeAfter = s.Size().Boards
		bt.Entropy = s.Entropy()
		if bt.PresentSense, err = present(t.Before); err != nil {
			return nil, err
		}
		if bt.SizeBefore > 0 {
			bt.Reduction = 1 - float64(bt.SizeAfter)/float64(bt.SizeBefore)
		}
		bt.PresentMove = true
		if t.HasMove {
			if err := timed(func() error { return t.Move(ctx, s) }); err != nil {
				return nil, err
			}
			if bt.PresentMove, err = present(t.After); err != nil {
				return nil, err
			}
		}
		bt.Present = bt.PresentNotice && bt.PresentSense && bt.PresentMove
		bt.Deferred = s.Size().Deferred
		bt.UpdateMillis = float64(spent.Microseconds()) / 1000
		bt.Recoveries = s.Stats().Recoveries
		g.Turns = append(g.Turns, bt)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	st := s.Stats()
	g.Stats.MaxBoards, g.Stats.Recoveries, g.Stats.PeakBytes = st.MaxBoards, st.Recoveries, st.PeakBytes
	g.Stats.Dropped, g.Stats.PeakSpillBytes = st.Dropped, st.PeakSpillBytes
	return g, nil
}

// total fills the per-sampler totals and the overall recall.
func (r *beliefReport) total(names []string) {
	present := 0
	for _, name := range names {
		tot := beliefTotals{Sampler: name}
		var before, after, red, ent, ms float64
		sensed := 0
		for _, g := range r.Games {
			if g.Sampler != name {
				continue
			}
			tot.Games++
			tot.Recoveries += g.Stats.Recoveries
			tot.Dropped += g.Stats.Dropped
			tot.PeakSpillMiB = max(tot.PeakSpillMiB, float64(g.Stats.PeakSpillBytes)/(1<<20))
			tot.MaxBoards = max(tot.MaxBoards, g.Stats.MaxBoards)
			for _, t := range g.Turns {
				tot.Turns++
				if t.Present {
					tot.Present++
				}
				before += float64(t.SizeBefore)
				after += float64(t.SizeAfter)
				if !t.Refilled {
					red += t.Reduction
					sensed++
				}
				ent += t.Entropy
				ms += t.UpdateMillis
				tot.MaxMillis = max(tot.MaxMillis, t.UpdateMillis)
			}
		}
		if n := float64(tot.Turns); n > 0 {
			tot.Recall = 100 * float64(tot.Present) / n
			tot.MeanBefore, tot.MeanAfter = before/n, after/n
			tot.MeanEntropy, tot.MeanMillis = ent/n, ms/n
		}
		if sensed > 0 {
			tot.MeanReduction = red / float64(sensed)
		}
		r.Samplers = append(r.Samplers, tot)
		r.Turns += tot.Turns
		present += tot.Present
	}
	if r.Turns > 0 {
		r.Recall = 100 * float64(present) / float64(r.Turns)
	}
}

func (r *beliefReport) print(w io.Writer, perTurn bool) error {
	if perTurn && len(r.Games) > 0 {
		t := newTable([]string{"game", "side", "sampler", "turn", "before", "after", "reduce", "H bits", "deferred", "true", "ms", "rec"},
			3, 4, 5, 6, 7, 8, 10, 11)
		for _, g := range r.Games {
			for _, bt := range g.Turns {
				t.add(g.File, g.Color, g.Sampler, fmt.Sprint(bt.Turn), fmt.Sprint(bt.SizeBefore), fmt.Sprint(bt.SizeAfter),
					fmt.Sprintf("%.1f%%", 100*bt.Reduction), fmt.Sprintf("%.2f", bt.Entropy), fmt.Sprint(bt.Deferred),
					yesNo(bt.Present), fmt.Sprintf("%.1f", bt.UpdateMillis), fmt.Sprint(bt.Recoveries))
			}
		}
		if err := t.write(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	header, numeric, rows := r.totalsTable()
	t := newTable(header, numeric...)
	for _, row := range rows {
		t.add(row...)
	}
	if err := t.write(w); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "recall %.1f%% over %d turns\n", r.Recall, r.Turns)
	return err
}

// totalsTable is the table of the samplers' totals, as printed and on the
// page.
func (r *beliefReport) totalsTable() (header []string, numeric []int, rows [][]string) {
	header = []string{"sampler", "games", "turns", "recall", "mean before", "mean after", "mean reduce", "mean H",
		"mean ms", "max ms", "max size", "recoveries", "disk MiB", "dropped"}
	numeric = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}
	for _, tot := range r.Samplers {
		rows = append(rows, []string{tot.Sampler, fmt.Sprint(tot.Games), fmt.Sprint(tot.Turns), fmt.Sprintf("%.1f%%", tot.Recall),
			compact(tot.MeanBefore), compact(tot.MeanAfter), fmt.Sprintf("%.1f%%", 100*tot.MeanReduction),
			fmt.Sprintf("%.2f", tot.MeanEntropy), fmt.Sprintf("%.1f", tot.MeanMillis), fmt.Sprintf("%.1f", tot.MaxMillis),
			fmt.Sprint(tot.MaxBoards), fmt.Sprint(tot.Recoveries), fmt.Sprintf("%.0f", tot.PeakSpillMiB), fmt.Sprint(tot.Dropped)})
	}
	return header, numeric, rows
}

// writePage writes the report's page (report.Belief) to cfg.html.
func (r *beliefReport) writePage(cfg *beliefConfig) error {
	var runs []report.BeliefRun
	for _, g := range r.Games {
		run := report.BeliefRun{Sampler: g.Sampler, Color: g.Color, Record: g.record}
		for _, t := range g.Turns {
			run.Turns = append(run.Turns, report.BeliefTurn{Size: t.SizeAfter, Entropy: t.Entropy, Present: t.Present, Millis: t.UpdateMillis})
		}
		runs = append(runs, run)
	}
	header, numeric, rows := r.totalsTable()
	colors := make([]string, len(cfg.colors))
	for i, c := range cfg.colors {
		colors[i] = c.String()
	}
	lines := []string{fmt.Sprintf("%d replays of recorded games (%s, sides: %s), recall %.1f%% over %d turns",
		len(r.Games), strings.Join(cfg.paths, ", "), strings.Join(colors, ", "), r.Recall, r.Turns)}
	page, err := report.Belief(runs, report.BeliefOptions{Title: "Beliefs: " + strings.Join(cfg.samplers, ", "), Lines: lines,
		Summary: report.TextTable(header, numeric, rows), Page: cfg.html})
	if err != nil {
		return err
	}
	return report.WriteFile(cfg.html, page)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

// compact prints a mean size with few digits: 12.3, 4567, 1.2M.
func compact(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 100 || x == math.Trunc(x):
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}
