// Command blindfish is the one command-line tool of the Blindfish engine for
// Reconnaissance Blind Chess: play and referee games, replay and check game
// records, benchmark beliefs and evaluators, and speak to tournament harnesses.
//
// Usage:
//
//	blindfish <command> [flags] [args]
//	blindfish <command> --help
//	blindfish help <command>
//	blindfish --version
//
// A command's flags may come before or after its arguments; "--" ends them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/buildinfo"
	"github.com/blindfish-rbc/blindfish/internal/cpuprofile"
	"github.com/blindfish-rbc/blindfish/invisible/paper"
	"github.com/blindfish-rbc/blindfish/match"
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
		{"play", "play a bot in a browser: a page on this machine (RBC, Kriegspiel)", runPlay},
		{"belief", "replay recorded games through a belief sampler and report its accuracy", runBelief},
		{"analyze", "replay a recorded game through a bot and show where it would sense and move", runAnalyze},
		{"view", "write an HTML page that replays a recorded game with the belief drawn on the board", runView},
		{"eval", "score a position (and a move) as the player would", runEval},
		{"engine", "serve a bot over the rbcp line protocol on stdin/stdout", runEngine},
		{"connect", "play on a reconchess tournament server (rc-connect, natively), or on kriegspiel.org (connect kriegspiel)", runConnect},
		{"ksserver", "serve a local kriegspiel.org (its bot API on our referee) for the site's public bots and ours", runKSServer},
		{"invisible", "play the invisible-chess paper's tables (table1, table2, figure3) and our bot against its advisor (versus)", paper.Run},
		{"version", "print the version, the VCS revision it was built from and the Go version", runVersion},
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
	stopCPU, err := cpuprofile.Start(path)
	if err != nil {
		fmt.Fprintf(stderr, "blindfish: BLINDFISH_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		if err := stopCPU(); err != nil {
			fmt.Fprintf(stderr, "blindfish: BLINDFISH_CPUPROFILE: %v\n", err)
		}
	}
}

// run executes one command line and returns the process exit code:
// 0 success, 1 failure of the work itself, 2 bad usage.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	switch args[0] {
	case "help":
		// help CMD is CMD --help, so that both print the same flags.
		if len(args) == 1 || args[1] == "help" {
			usage(stderr)
			return 0
		}
		args = []string{args[1], "--help"}
	case "--version", "-version":
		args = append([]string{"version"}, args[1:]...)
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, args[1:], stdout, stderr)
		switch {
		case err == nil, errors.Is(err, flag.ErrHelp):
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
	fmt.Fprintln(w, "Blindfish: an engine and toolkit for Reconnaissance Blind Chess.\n\nUsage: blindfish <command> [flags] [args]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'blindfish help <command>' (or 'blindfish <command> --help') for a command's flags;")
	fmt.Fprintln(w, "they may come before or after its arguments, and '--' ends them.")
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

// parseFlags parses args, turning flag errors into usage errors. Flags may
// come before, between or after the positional arguments, as the docs write
// them (`blindfish view GAME.json -o game.html`): the flag package alone
// stops at the first argument that is not a flag and would leave the rest
// unread. "--" ends the flags; what follows it is positional.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(flagsFirst(fs, args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err.Error()}
	}
	return nil
}

// parseNoArgs is parseFlags for a command that takes no positional
// argument: one left is a usage error.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	return nil
}

// botClockFlag declares --clock, the clock time a bot asked about a
// recorded game is told it has left at every turn (analyze and view), and
// returns its reader: a usage error unless it is a positive time.
func botClockFlag(fs *flag.FlagSet) func() (time.Duration, error) {
	clock := fs.String("clock", "60", "clock time the bot is told it has left at every turn (seconds or a duration)")
	return func() (time.Duration, error) {
		left, err := match.ParseSeconds(*clock)
		if err != nil || left <= 0 {
			return 0, usageError{fmt.Sprintf("bad --clock %q", *clock)}
		}
		return left, nil
	}
}

// newLogger logs a command's diagnostics to stderr from level up, or from
// debug up when verbose (the commands' -v).
func newLogger(stderr io.Writer, level slog.Level, verbose bool) *slog.Logger {
	if verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
}

// flagsFirst reorders args into fs's flags, with their values, then "--",
// then the positional arguments in their order, so that one fs.Parse reads
// every flag and leaves fs.Args() the positionals. A flag takes the next
// argument as its value unless it is a boolean flag or has "=value": a
// boolean flag before a file leaves the file positional. Flags fs does not
// define stay in place for fs.Parse to report, as does a last flag that
// lacks its value.
func flagsFirst(fs *flag.FlagSet, args []string) []string {
	var flags, positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			positional = append(positional, args[i+1:]...)
			return append(append(flags, "--"), positional...)
		case len(a) < 2 || a[0] != '-': // "-" alone is an argument (stdin), as for the flag package
			positional = append(positional, a)
		default:
			flags = append(flags, a)
			name, _, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
			if hasValue || !takesValue(fs, name) {
				continue
			}
			if i+1 == len(args) {
				return flags // the value is missing: fs.Parse says so
			}
			i++
			flags = append(flags, args[i])
		}
	}
	return append(append(flags, "--"), positional...)
}

// takesValue reports whether fs defines the flag name and it needs a value
// (it is not a boolean flag).
func takesValue(fs *flag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// runVersion is `blindfish version` (and `blindfish --version`).
func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "", stderr)
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	bi, _ := debug.ReadBuildInfo()
	_, err := io.WriteString(stdout, buildinfo.Text(bi))
	return err
}
