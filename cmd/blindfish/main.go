// Command blindfish is the one command-line tool of the Blindfish engine for
// Reconnaissance Blind Chess: play and referee games, replay and check game
// records, benchmark beliefs and evaluators, and speak to tournament harnesses.
//
// Usage:
//
//	blindfish <command> [flags] [args]
//	blindfish <command> --help
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

// command is one subcommand: its name, a one-line summary and its entry point.
// run gets the arguments after the command name and writes to the given streams.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands lists every subcommand; each lives in a file of its own name.
func commands() []command {
	return []command{
		{"replay", "re-referee recorded games and check them against the record", runReplay},
		{"match", "play games between bots and tabulate the results", runMatch},
		{"play", "play a game against a bot in the terminal", runPlay},
		{"belief", "replay recorded games through a belief sampler and report its accuracy", runBelief},
		{"analyze", "replay a recorded game through a bot and show where it would sense and move", runAnalyze},
		{"view", "write an HTML page that replays a recorded game with the belief drawn on the board", runView},
		{"eval", "score a position (and a move) as the player would", runEval},
		{"engine", "serve a bot over the rbcp line protocol on stdin/stdout", runEngine},
		{"connect", "play on a reconchess tournament server (rc-connect, natively), or on kriegspiel.org (--game kriegspiel)", runConnect},
		{"ksserver", "serve a local kriegspiel.org (its bot API on our referee) for the site's public bots and ours", runKSServer},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopProfile := startProfile(os.Getenv("BLINDFISH_CPUPROFILE"), os.Stderr)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfile()
	stop()
	os.Exit(code)
}

// startProfile writes a CPU profile of the whole command to path (none when
// path is empty) until the returned function is called: how to see where a
// match's or an engine's time goes (go tool pprof FILE). An environment
// variable rather than a flag, so that every command has it, a harness-run
// engine included.
func startProfile(path string, stderr io.Writer) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(stderr, "blindfish: BLINDFISH_CPUPROFILE: %v\n", err)
		if f != nil {
			f.Close()
		}
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "blindfish: BLINDFISH_CPUPROFILE: %v\n", err)
		}
	}
}

// run executes one command line and returns the process exit code:
// 0 success, 1 failure of the work itself, 2 bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, args[1:], stdout, stderr)
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, new(reportedError)):
			return 1
		case errors.As(err, new(usageError)):
			fmt.Fprintf(stderr, "blindfish %s: %v\n", c.name, err)
			return 2
		default:
			fmt.Fprintf(stderr, "blindfish %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "blindfish: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Blindfish: an engine and toolkit for Reconnaissance Blind Chess.")
	fmt.Fprintln(w, "\nUsage: blindfish <command> [flags] [args]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'blindfish <command> --help' for a command's flags.")
}

// usageError marks an error in the command line itself (exit code 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// reportedError is a failure the command has already reported on its own
// output (exit code 1, nothing more printed).
type reportedError struct{ msg string }

func (e reportedError) Error() string { return e.msg }

// newFlagSet returns a flag set for a subcommand that reports errors instead
// of exiting, and prints its usage to stderr.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("blindfish "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: blindfish %s %s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, turning flag errors into usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	return nil
}
