// Package sampler keeps a player's belief about the hidden board of a game of
// Reconnaissance Blind Chess: the set (or a sample) of boards consistent with
// what the player has observed.
//
// Every belief implements Sampler and is fed the player's observations in the
// order of the game (the order of rbc.Player's callbacks): the game start, the
// opponent's capture notice at each turn start, our sense result and our move
// result. It answers with weighted samples of boards for move and sense
// selection, its size, an entropy estimate and, for evaluation, whether a
// given board is in it.
//
// Five beliefs are registered by name (see New and Names):
//   - exact: the full information set, expanded in parallel and kept within a
//     memory budget by a backlog that never loses a consistent board;
//   - aosp: a fixed-size pool of boards consistent with all observations;
//   - los: boards consistent with the latest observations only;
//   - hybrid: aosp topped up with los boards as the pool thins;
//   - particle: weighted particles moved by a pluggable opponent model.
//
// No belief ever leaves the player with nothing: when a set or pool becomes
// empty (the true board was lost, or the opponent did something the model does
// not allow), it recovers from boards consistent with the latest observations,
// logs a warning once and counts the recovery in Stats.
package sampler

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Sampler is a belief about the hidden board, fed by one player's
// observations. Observation methods must be called in the order of the game
// and from one goroutine; they may block (waiting for work started by an
// earlier observation) and return ctx.Err() when ctx ends first, in which case
// the observation was not applied and may be given again. Queries (Size,
// Entropy, Contains, Sample, ForEach) describe the belief after the latest
// observation and never change it; they must not run concurrently with an
// observation method.
type Sampler interface {
	// Name returns the name the sampler is registered under.
	Name() string

	// HandleGameStart starts a game: our colour and the starting board
	// (White to move).
	HandleGameStart(ctx context.Context, color chess.Color, board chess.Board) error
	// HandleOpponentMoveResult is the notice at the start of each of our turns
	// (White's first one too): whether the opponent's move captured one of our
	// pieces, and where.
	HandleOpponentMoveResult(ctx context.Context, captured bool, square chess.Square) error
	// HandleSenseResult is our sense result in the harness's order; an empty
	// result stands for a passed sense.
	HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) error
	// HandleMoveResult is what became of our move request: the move as
	// requested, the move taken (null if none), and the capture square.
	HandleMoveResult(ctx context.Context, requested, taken chess.Move, captured bool, square chess.Square) error

	// Sample returns up to n boards drawn from the belief with weights that
	// sum to one. Samplers that hold few enough boards return all of them.
	Sample(ctx context.Context, n int, rng *rand.Rand) ([]Weighted, error)
	// ForEach calls fn with every board of the belief (the whole set for
	// exact, the pool otherwise), in chunks, from several goroutines at once:
	// worker identifies the calling goroutine (0 ≤ worker < Workers) so that fn
	// can keep per-worker results without locking. weights is nil when all
	// boards weigh the same. The slices are valid only during the call and
	// must not be changed. It exists for sense strategies, which scan the
	// belief many times per turn.
	ForEach(ctx context.Context, fn func(worker int, boards []chess.Board, weights []float64) error) error
	// Workers returns the number of goroutines ForEach uses.
	Workers() int

	// Size reports how many boards the belief holds.
	Size() Size
	// Entropy estimates, in bits, the uncertainty about the hidden board:
	// log2 of the number of consistent boards, exact for exact and estimated
	// by the sampling beliefs (see each one's Entropy).
	Entropy() float64
	// Contains reports whether the belief gives b positive weight (compared by
	// chess.Board.Key). For evaluation only: it may scan the whole belief. It
	// never answers false for boards it could not look at: a belief that can
	// fail to look (exact, whose backlog may be on disk) logs a warning and
	// answers true, as those boards still count in Size. Evaluation that must
	// tell "absent" from "could not look" calls ContainsErr or Present.
	Contains(b *chess.Board) bool
	// Stats returns counters for reports and benchmarks.
	Stats() BeliefStats

	// Close stops background work. The sampler must not be used afterwards.
	Close() error
}

// ContainsChecker is implemented by beliefs whose membership test can fail to
// look at every board: exact, whose backlog may be on disk. ContainsErr is
// Contains that returns an error (ctx ended, a spilled segment could not be
// read back) where Contains could only answer true or false.
//
// The error is a method of its own rather than a change to Contains because
// a bool is all the other beliefs can answer (they hold their boards in
// memory) and all a player needs; only evaluation must never count a board
// as lost because the belief could not look, and it goes through
// ContainsErr and Present.
type ContainsChecker interface {
	ContainsErr(ctx context.Context, b *chess.Board) (bool, error)
}

// ContainsErr reports whether s gives b positive weight: by s.ContainsErr
// when s implements ContainsChecker, else by Contains (which cannot fail).
func ContainsErr(ctx context.Context, s Sampler, b *chess.Board) (bool, error) {
	if c, ok := s.(ContainsChecker); ok {
		return c.ContainsErr(ctx, b)
	}
	return s.Contains(b), nil
}

// PathChecker is implemented by beliefs that may hold boards back (exact's
// backlog), for evaluation against a recorded game. Given the true board
// after each observation so far (path[0] the starting board, path[i] the
// board after the i-th observation: notices, senses and move results in the
// order they were given) it reports exactly whether the true board is in the
// belief, where Contains could only search the backlog's futures within a
// bounded effort. Like ContainsErr it returns an error, never false, when it
// could not look.
type PathChecker interface {
	ContainsPath(ctx context.Context, path []chess.Board) (bool, error)
}

// Present reports whether the true board is in the belief: by ContainsPath
// when s implements PathChecker, else by ContainsErr of the path's last
// board. An error means the belief could not tell (it is not an absence).
func Present(ctx context.Context, s Sampler, path []chess.Board) (bool, error) {
	if pc, ok := s.(PathChecker); ok {
		return pc.ContainsPath(ctx, path)
	}
	return ContainsErr(ctx, s, &path[len(path)-1])
}

// Weighted is a board of a sample and its weight.
type Weighted struct {
	Board  chess.Board
	Weight float64
}

// Size is how many boards a belief holds.
type Size struct {
	// Boards is the number of boards held: the exact count of consistent
	// boards for exact, the pool or particle count otherwise.
	Boards int
	// Exact is true when Boards is the whole information set: exact, with
	// nothing deferred and no recovery since the game started.
	Exact bool
	// Deferred counts the boards that exact keeps in its backlog because the
	// memory budget was reached; their consistent descendants are not in
	// Boards yet but will be replayed before the live set runs dry.
	Deferred int
}

// BeliefStats are a belief's counters over a game (Sampler.Stats), for
// reports and benchmarks: what the belief cost, not what the player did
// (that is player.PlayerStats).
type BeliefStats struct {
	// Recoveries counts the times the belief became empty and was refilled
	// from the latest observations.
	Recoveries int
	// Expanded and Children count the boards expanded by opponent options and
	// the children produced (before deduplication).
	Expanded, Children int64
	// MaxBoards is the largest number of boards held at once.
	MaxBoards int
	// Deferred is the number of boards in the backlog now; Replayed counts
	// backlog boards replayed so far.
	Deferred int
	Replayed int64
	// Spilled is the number of backlog boards on disk now, PeakSpillBytes
	// the most disk space they took at once.
	Spilled        int64
	PeakSpillBytes int64
	// Dropped counts deferred boards dropped because the backlog passed both
	// its memory and its disk budget.
	Dropped int64
	// PeakBytes is the most memory the belief's boards took at once (exact).
	PeakBytes int64
}

// Options configure a sampler. The zero value gives the defaults.
type Options struct {
	// MemoryBudget bounds the memory of exact's board set in bytes
	// (default 2 GiB). Past it, boards wait in the backlog.
	MemoryBudget int64
	// PoolSize is the number of boards of aosp and hybrid, the number of
	// particles, the number of boards los generates, and the size of the
	// refill after a recovery (default 2,000).
	PoolSize int
	// Workers is the number of goroutines of parallel work (default GOMAXPROCS).
	Workers int
	// MinLive makes exact replay its backlog whenever fewer live boards remain
	// (default 256).
	MinLive int
	// BacklogBudget bounds the memory of exact's backlog (default: the
	// MemoryBudget). Past it the deferred boards that have seen the fewest
	// observations are written to temporary files in SpillDir, up to
	// SpillBudget bytes of disk. Backlogs that large arise against random
	// movers sensed at random, whose information sets multiply by tens each
	// turn.
	BacklogBudget int64
	// SpillBudget bounds the disk space of exact's spilled backlog (default
	// 16 GiB; negative: never spill). Past it the oldest deferred boards are
	// dropped, counted in BeliefStats.Dropped and warned about once: from
	// then on the set may lack consistent boards (Size.Exact is false).
	SpillBudget int64
	// SpillDir is where the backlog spills (default: os.TempDir()).
	SpillDir string
	// MaxReplay bounds the work exact spends per observation replaying its
	// backlog, counted in boards processed (each replayed board once per
	// observation it is brought through, children included; default 8 M,
	// about half a second), so that an update takes bounded time. While the
	// live set is empty it may do 4 times as much before it falls back to
	// boards consistent with the latest observations (the backlog is kept
	// and replayed later). Evaluation that wants exactness whatever the time
	// sets it very large.
	MaxReplay int
	// Seed seeds the sampler's own randomness (pool subsampling, los
	// generation, particle moves), so that runs are reproducible.
	Seed uint64
	// Logger receives warnings (default slog.Default()).
	Logger *slog.Logger
	// Opponent is the particle filter's model of the opponent's moves
	// (default Uniform).
	Opponent OpponentModel
}

// DefaultMemoryBudget is exact's default memory budget: 2 GiB.
const DefaultMemoryBudget = 2 << 30

// DefaultSpillBudget is the default disk space exact's backlog may take: 16 GiB.
const DefaultSpillBudget = 16 << 30

// DefaultPoolSize is the default pool size of the sampling beliefs.
const DefaultPoolSize = 2000

func (o Options) withDefaults() Options {
	if o.MemoryBudget <= 0 {
		o.MemoryBudget = DefaultMemoryBudget
	}
	if o.BacklogBudget <= 0 {
		o.BacklogBudget = o.MemoryBudget
	}
	switch {
	case o.SpillBudget == 0:
		o.SpillBudget = DefaultSpillBudget
	case o.SpillBudget < 0:
		o.SpillBudget = 0
	}
	if o.PoolSize <= 0 {
		o.PoolSize = DefaultPoolSize
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.MinLive <= 0 {
		o.MinLive = 256
	}
	if o.MaxReplay <= 0 {
		o.MaxReplay = 8 << 20
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Opponent == nil {
		o.Opponent = Uniform{}
	}
	return o
}

// entry is one registered sampler.
type entry struct {
	name    string
	summary string
	build   func(Options) Sampler
}

// registry lists the samplers by name. To add one, write its file and add a
// line here.
func registry() []entry {
	return []entry{
		{"exact", "the full information set, within a memory budget, with a backlog", newExact},
		{"aosp", "a pool of boards consistent with all observations (Parker et al. 2005)", newAOSP},
		{"los", "boards consistent with the latest observations only", newLOS},
		{"hybrid", "aosp topped up with los boards as the pool thins", newHybrid},
		{"particle", "weighted particles moved by an opponent model", newParticle},
	}
}

// New returns the sampler registered under name, configured by opts.
func New(name string, opts Options) (Sampler, error) {
	for _, e := range registry() {
		if e.name == name {
			return e.build(opts.withDefaults()), nil
		}
	}
	return nil, fmt.Errorf("sampler: unknown sampler %q (have %s)", name, strings.Join(Names(), ", "))
}

// Names returns the registered sampler names in the registry's order.
func Names() []string {
	var names []string
	for _, e := range registry() {
		names = append(names, e.name)
	}
	return names
}

// ParseNames reads a list of sampler names, comma-separated (blanks
// around a name ignored), or "all" for every registered one in the
// registry's order.
func ParseNames(s string) ([]string, error) {
	if s == "all" {
		return Names(), nil
	}
	var names []string
	for n := range strings.SplitSeq(s, ",") {
		n = strings.TrimSpace(n)
		if !slices.Contains(Names(), n) {
			return nil, fmt.Errorf("unknown sampler %q (have %s)", n, strings.Join(Names(), ", "))
		}
		names = append(names, n)
	}
	return names, nil
}

// Summary returns the one-line description of a registered sampler, or "".
func Summary(name string) string {
	i := slices.IndexFunc(registry(), func(e entry) bool { return e.name == name })
	if i < 0 {
		return ""
	}
	return registry()[i].summary
}
