package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/evaluator/embedded"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// Scoring evaluates requested moves on sampled boards for the strategies: it
// resolves each request on each board as the harness would, scores every
// distinct taken move once (the MoveScorer caches by board and taken move, so
// the sense decision's work is reused by the move decision), and runs the
// evaluations in parallel up to a deadline. It also measures its throughput
// (evaluations per second, for logs and tuning).
type Scoring struct {
	scorer  *evaluator.MoveScorer
	lim     evaluator.Limits
	workers int
	static  bool // no engine: static scores only (Emergency mode, fallbacks)

	rate *rateMeter
	// lastOffered and lastDone count the boards offered to and fully scored
	// by the latest Score call (for the player's depth control).
	lastOffered, lastDone int
}

// scoringState is a player's evaluation machinery over its game, from which
// each decision's Scoring is made (Player.scoring).
type scoringState struct {
	eval   evaluator.Evaluator
	owned  bool // the player opened eval and closes it
	scorer *evaluator.MoveScorer
	// rate measures the evaluations a second the decisions got, scanRate
	// how many belief boards a second the prior weighs.
	rate, scanRate rateMeter
	depth          int // the adaptive engine depth (Player.adaptDepth)
}

// embedded reports whether the evaluation is the embedded search (or none
// is open yet), which plans by core and by its own depths.
func (s *scoringState) embedded() bool {
	return s.eval == nil || s.eval.Name() == "embedded"
}

// rateMeter keeps a moving estimate of evaluations per second.
type rateMeter struct {
	mu   sync.Mutex
	rate float64 // evaluations per second; 0 until measured
}

func (r *rateMeter) observe(evals int, d time.Duration) {
	if evals < 4 || d < time.Millisecond {
		return
	}
	x := float64(evals) / d.Seconds()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rate == 0 {
		r.rate = x
	} else {
		r.rate = 0.6*r.rate + 0.4*x
	}
}

func (r *rateMeter) get() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rate
}

// Rate returns the measured evaluations per second (0 until measured).
func (s *Scoring) Rate() float64 {
	if s == nil || s.rate == nil {
		return 0
	}
	return s.rate.get()
}

// Limits returns the evaluation limits in use.
func (s *Scoring) Limits() evaluator.Limits { return s.lim }

// Requests returns the requests worth scoring among the move actions, plus
// the pass: the harness's queen default applied (so a bare promotion and the
// explicit queen one count once), bishop and rook promotions dropped (a
// queen does everything they do). Each request is returned as it appears in
// actions, so it can be sent as it is. ref is any board of the belief (our
// own pieces are the same on all of them).
func Requests(actions []chess.Move, ref *chess.Board) []chess.Move {
	out := []chess.Move{{}}
	seen := map[chess.Move]bool{{}: true}
	for _, m := range actions {
		if m.IsNull() || m.Promotion == chess.Bishop || m.Promotion == chess.Rook {
			continue
		}
		q := rbc.WithQueenDefault(ref, m)
		if seen[q] {
			continue
		}
		seen[q] = true
		out = append(out, m)
	}
	return out
}

// Outcome is what one request becomes on one board.
type Outcome struct {
	Taken   chess.Move
	Capture chess.Square
	// Value is the taken move's score for us (MoveTerms scale).
	Value float64
	// KingCapture: the request captures the enemy king on this board.
	KingCapture bool
	// Exposed: after the request our king can be captured on this board.
	Exposed bool
}

// Matrix holds the scores of requests on the boards that were fully scored.
type Matrix struct {
	Requests []chess.Move
	// Boards are the fully scored boards, Weights their belief weights
	// (renormalised over them).
	Boards  []chess.Board
	Weights []float64
	// Out[i][j] is request j on board i.
	Out [][]Outcome
	// Static reports that the scores are static (material) values, not
	// engine evaluations.
	Static bool
	// Offered counts the boards offered, Evals the evaluations run.
	Offered, Evals int
	// Depth is the engine depth of the scores (0: static).
	Depth int
}

// Len returns the number of fully scored boards.
func (m *Matrix) Len() int { return len(m.Boards) }

// minSearchTime is the least time before the deadline worth starting an
// evaluation in: a search sent to an engine right at the deadline is only
// stopped again (and a deadline passing while the command is written makes
// the UCI client kill the engine).
const minSearchTime = 3 * time.Millisecond

// boardJob is one board's share of a matrix: its distinct taken moves.
type boardJob struct {
	board   chess.Board
	weight  float64
	takens  []chess.Move
	slot    []int // request j → index into takens
	capture []chess.Square
	values  []float64
	done    atomic.Int32
	failed  atomic.Bool
}

// Score fills a matrix of requests on boards (in the given order: put the
// boards that matter most first). It stops at ctx's end and keeps only the
// boards whose every taken move was scored, so a deadline costs boards, not
// correctness. It fails only on errors other than the deadline.
func (s *Scoring) Score(ctx context.Context, boards []sampler.Weighted, reqs []chess.Move) (*Matrix, error) {
	if s.static {
		return StaticMatrix(boards, reqs), nil
	}
	jobs := make([]*boardJob, len(boards))
	for i, w := range boards {
		jobs[i] = newBoardJob(w, reqs)
	}
	start := time.Now()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(s.workers, 1))
	var evals atomic.Int64
	var firstErr error
	var errOnce sync.Once
submit:
	for _, job := range jobs {
		for k := range job.takens {
			if gctx.Err() != nil {
				break submit
			}
			g.Go(func() (err error) {
				defer func() {
					if v := recover(); v != nil {
						// A panic here would kill the process: drop the board.
						job.failed.Store(true)
						errOnce.Do(func() { firstErr = fmt.Errorf("engine: evaluation panicked: %v", v) })
					}
				}()
				if dl, ok := gctx.Deadline(); ok && time.Until(dl) < minSearchTime {
					job.failed.Store(true) // too late to start a search
					return nil
				}
				ms, err := s.scorer.ScoreTaken(gctx, job.board, job.takens[k], s.lim)
				if err != nil {
					job.failed.Store(true)
					if gctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
						errOnce.Do(func() { firstErr = err })
					}
					return nil // a failed board is dropped; others go on
				}
				evals.Add(1)
				job.values[k] = float64(ms.Value)
				job.done.Add(1)
				return nil
			})
		}
	}
	_ = g.Wait() // the jobs never fail the group
	n := int(evals.Load())
	s.rate.observe(n, time.Since(start))
	m := &Matrix{Requests: reqs, Offered: len(boards), Evals: n, Depth: s.lim.Depth}
	for _, job := range jobs {
		if job.failed.Load() || int(job.done.Load()) != len(job.takens) {
			continue
		}
		m.add(job, reqs)
	}
	m.normalise()
	s.lastOffered, s.lastDone = len(boards), m.Len()
	if m.Len() == 0 && firstErr != nil {
		return m, fmt.Errorf("engine: scoring moves: %w", firstErr)
	}
	return m, nil
}

func newBoardJob(w sampler.Weighted, reqs []chess.Move) *boardJob {
	job := &boardJob{board: w.Board, weight: w.Weight, slot: make([]int, len(reqs))}
	index := make(map[chess.Move]int, len(reqs))
	for j, r := range reqs {
		taken, capture := rbc.Resolve(&w.Board, rbc.WithQueenDefault(&w.Board, r))
		k, ok := index[taken]
		if !ok {
			k = len(job.takens)
			index[taken] = k
			job.takens = append(job.takens, taken)
			job.capture = append(job.capture, capture)
		}
		job.slot[j] = k
	}
	job.values = make([]float64, len(job.takens))
	return job
}

// add appends a fully scored board.
func (m *Matrix) add(job *boardJob, reqs []chess.Move) {
	them := job.board.Turn().Other()
	king := job.board.KingSquare(them)
	exposed := make([]bool, len(job.takens))
	for k, taken := range job.takens {
		exposed[k] = leavesKingCapturable(&job.board, taken)
	}
	row := make([]Outcome, len(reqs))
	for j := range reqs {
		k := job.slot[j]
		c := job.capture[k]
		row[j] = Outcome{Taken: job.takens[k], Capture: c, Value: job.values[k],
			KingCapture: c != chess.NoSquare && c == king, Exposed: exposed[k]}
	}
	m.Boards = append(m.Boards, job.board)
	m.Weights = append(m.Weights, job.weight)
	m.Out = append(m.Out, row)
}

// leavesKingCapturable reports whether after the taken move the opponent can
// capture the mover's king (a move that captures the enemy king ends the
// game and leaves nothing capturable).
func leavesKingCapturable(b *chess.Board, taken chess.Move) bool {
	after := *b
	after.Apply(taken)
	return !after.KingMissing(b.Turn().Other()) && after.KingCapturable()
}

// normalise makes the weights sum to one (uniform if they sum to nothing).
func (m *Matrix) normalise() {
	sum := 0.0
	for _, w := range m.Weights {
		sum += w
	}
	for i := range m.Weights {
		if sum > 0 {
			m.Weights[i] /= sum
		} else {
			m.Weights[i] = 1 / float64(len(m.Weights))
		}
	}
}

// StaticMatrix scores requests on boards without any engine: the RBC terms
// (king captured, own king left capturable), the embedded evaluator's static
// score after the move, and a penalty for a piece moved onto an attacked
// square. It is the fallback when the clock is nearly out or the engine
// produced nothing in time, and it takes microseconds per board.
func StaticMatrix(boards []sampler.Weighted, reqs []chess.Move) *Matrix {
	terms := evaluator.DefaultMoveTerms()
	m := &Matrix{Requests: reqs, Static: true, Offered: len(boards)}
	for _, w := range boards {
		job := newBoardJob(w, reqs)
		for k, taken := range job.takens {
			job.values[k] = float64(staticValue(terms, &job.board, taken))
		}
		m.add(job, reqs)
	}
	m.normalise()
	return m
}

// staticValue is the taken move's value for the mover with a static
// evaluation in place of a search.
func staticValue(terms evaluator.MoveTerms, b *chess.Board, taken chess.Move) int {
	after := *b
	capture := after.Apply(taken)
	var s evaluator.Score
	if evaluator.NeedsEval(b, &after, capture) {
		s.CP = embedded.Evaluate(&after)
		if !taken.IsNull() && after.Attacked(taken.To, after.Turn()) {
			// The piece that moved can be taken: count most of it lost
			// unless it is defended.
			v := chess.PieceValue(after.PieceAt(taken.To).Type())
			if after.Attacked(taken.To, b.Turn()) {
				v /= 3
			}
			s.CP += v
		}
	}
	v, _ := terms.Value(b, &after, capture, s)
	return v
}
