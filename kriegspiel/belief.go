package kriegspiel

// The exact belief of one player: every board consistent with what it has
// heard. It lives beside the referee because it asks the referee's own
// questions of each board it keeps — "what would you have answered if this
// were the true board?" — so the belief and the rules can never disagree.

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// ErrEmptyBelief is returned when no board is consistent with what was heard:
// a bug, or a record that is not a game of these rules.
var ErrEmptyBelief = errors.New("kriegspiel: no board is consistent with what was heard")

// ErrBeliefTooLarge is returned when the opponent's turn would leave more
// boards than the belief's limit; the belief is then unchanged and a caller
// falls back to sampling.
var ErrBeliefTooLarge = errors.New("kriegspiel: the belief would exceed its limit")

// ctxCheckEvery is how many boards Own asks between looks at its context
// (Opponent, whose boards cost about sixteen times as much, looks sixteen
// times as often): often enough to stop within a millisecond or so, rarely
// enough to cost nothing.
const ctxCheckEvery = 1024

// DefaultBeliefLimit is the most boards a belief keeps unless told otherwise
// (about 100 MB of boards).
const DefaultBeliefLimit = 1 << 20

// Belief is the exact set of boards one player thinks possible: its own men
// are known, the opponent's are not. Each of the player's own answers keeps
// the boards on which the referee would have answered the same (and makes the
// move on them); the opponent's turn expands each board by every legal move
// whose public announcements equal the ones heard. It never drops the true
// board, and keeps no board the announcements rule out, with one exception:
// under rules that announce an opponent's illegal tries (berkeley), how many
// it made is not used.
//
// Its boards are kept, deduplicated and spilled by the machinery of RBC's
// exact belief (sampler.Boards, sampler.KeySet, sampler.SpilledBoards): in a
// flat slice while they fit in memory, in a set of which all but the newest
// part may be on disk once they pass SetMemory's budget. Past its limit an
// opponent's turn is ErrBeliefTooLarge, unless SetCut asked for a sample
// (then the belief says it is no longer Exact).
type Belief struct {
	color  chess.Color
	rules  Ruleset
	boards []chess.Board
	// big holds the boards instead of boards once a part went to disk.
	big   *boardSet
	limit int
	// workers is how many goroutines an update runs on.
	workers int
	// budget and dir are the spill settings (budget 0: never spill).
	budget int64
	dir    string
	// cut makes an opponent's turn past the limit keep a sample rather than
	// fail; exact is false from the first cut (or Thin) on, and weight is
	// how many boards of the exact set each board kept stands for.
	cut   bool
	exact bool
	// weightedCut makes a cut keep a sample weighted by the opponent model
	// rather than a uniform one (weight.go).
	weightedCut bool
	weight      float64
	cuts        int
	// The referee's state of the turn in progress, the same on every board
	// the belief keeps: pawn tries announced to the player to move, moves
	// refused (our own; an opponent's are unknown and never matter to what
	// we hear), and the state of "any?".
	tries    int
	refused  []chess.Move
	anyAsked bool
	anyYes   bool
	// noSeenFilter turns off the workers' seen filter in Opponent (see
	// maxSeenBits) and judging children after the dedup (opponentTurn.judge),
	// for the test that they change nothing: every child is then judged.
	noSeenFilter bool
	// judged is how many children the last Opponent built and judged, for
	// the test that it judges each distinct child once.
	judged int
}

// NewBelief returns the belief of the player of color at the start of a game
// from start, with the pawn tries announced before the first move (-1 when
// the rules announce none).
func NewBelief(color chess.Color, rules Ruleset, start chess.Board, pawnTries int) *Belief {
	return &Belief{color: color, rules: rules, boards: []chess.Board{start}, limit: DefaultBeliefLimit, tries: pawnTries,
		workers: 1, exact: true, weight: 1}
}

// SetLimit sets the most boards the belief may hold (at least 1).
func (bl *Belief) SetLimit(n int) { bl.limit = max(n, 1) }

// SetWorkers sets how many goroutines an update runs on (at least 1, the
// default). The boards come out in the same order whatever the number.
func (bl *Belief) SetWorkers(n int) { bl.workers = max(n, 1) }

// SetMemory makes the belief keep at most about budget bytes of boards in
// memory and write the rest to temporary files in dir (the system's
// temporary folder when empty); 0, the default, keeps every board in memory.
// The key set that deduplicates an update's boards (about 12 bytes a board)
// stays in memory. Close frees the files. A belief that spills must not be
// copied (its copies would share the files, which an update frees).
func (bl *Belief) SetMemory(budget int64, dir string) { bl.budget, bl.dir = max(budget, 0), dir }

// SetCut makes an opponent's turn that would pass the limit keep a uniform
// sample of its boards (chosen by a hash of each board's key, so the same
// board is kept or dropped wherever it comes from) of at most the limit,
// rather than fail with ErrBeliefTooLarge. From then on the belief is not
// Exact: it may have lost the true board.
func (bl *Belief) SetCut(on bool) { bl.cut = on }

// SetWeightedCut makes a cut keep each board in proportion to the opponent
// model's weight of it (oppmodel.Kriegspiel) rather than every board with
// the same chance (weight.go). It keeps the true board less often on the
// committed records (docs/kriegspiel.md), so it is off by default.
func (bl *Belief) SetWeightedCut(on bool) { bl.weightedCut = on }

// Exact reports whether the belief still holds every board consistent with
// what was heard: false after a cut, a Thin or an update stopped by its
// context.
func (bl *Belief) Exact() bool { return bl.exact }

// Weight returns how many boards of the exact set each board of the belief
// stands for (1 while it is exact; after cuts, the inverse of the share they
// kept).
func (bl *Belief) Weight() float64 { return bl.weight }

// Cuts returns the number of opponent's turns that were cut to a sample.
func (bl *Belief) Cuts() int { return bl.cuts }

// Close frees the temporary files of a spilled belief; it holds no boards
// afterwards.
func (bl *Belief) Close() {
	if bl.big != nil {
		bl.big.close()
		bl.big = nil
	}
	bl.boards = nil
}

// Thin keeps n boards of the belief chosen at random by rng (all of them if
// it holds no more). The belief is then no longer exact: it may have lost
// the true board, and a later answer may empty it (ErrEmptyBelief). It is
// what a player does when the exact set outgrows its memory or its time.
func (bl *Belief) Thin(n int, rng *rand.Rand) {
	if n < 1 || bl.Len() <= n {
		return
	}
	boards := bl.Boards()
	bl.Close()
	rng.Shuffle(len(boards), func(i, j int) { boards[i], boards[j] = boards[j], boards[i] })
	bl.boards = slices.Clip(boards[:n])
	bl.exact = false
}

// Len returns the number of boards.
func (bl *Belief) Len() int {
	if bl.big != nil {
		return bl.big.n
	}
	return len(bl.boards)
}

// Boards returns the boards; the caller must not modify them. A spilled
// belief is read back into memory for it (a read that fails gives the boards
// read until then).
func (bl *Belief) Boards() []chess.Board {
	if bl.big == nil {
		return bl.boards
	}
	boards, _ := bl.big.flat()
	return boards
}

// Contains reports whether a board with b's placement, side to move,
// castling rights, en-passant square and half-move clock is in the belief.
// A spilled belief is read back a piece at a time; a read that fails is an
// error, never a false.
func (bl *Belief) Contains(b *chess.Board) bool {
	ok, _ := bl.Has(b)
	return ok
}

// Has is Contains with the error of a spilled belief's read.
func (bl *Belief) Has(b *chess.Board) (bool, error) {
	found := false
	err := bl.eachPiece(func(boards []chess.Board) error {
		for i := range boards {
			if sameBoard(&boards[i], b) {
				found = true
				return errStop
			}
		}
		return nil
	})
	if found {
		return true, nil
	}
	return false, err
}

// errStop ends a walk over the boards that found what it looked for.
var errStop = errors.New("kriegspiel: stop")

func sameBoard(a, b *chess.Board) bool { return boardKey(a) == boardKey(b) }

// boardKey identifies a board as the referee tells boards apart: the
// position and the half-move clock (which can end the game).
func boardKey(b *chess.Board) [2]uint64 { return [2]uint64{b.Key(), uint64(b.HalfmoveClock())} }

// hypothesis returns the referee as it would be with b for the true board
// and the turn so far as the belief knows it. Its refused list shares no
// memory with the belief's.
func (bl *Belief) hypothesis(b chess.Board) Game {
	return Game{rules: bl.rules, board: b, tries: bl.tries,
		refused: bl.refused[:len(bl.refused):len(bl.refused)], anyAsked: bl.anyAsked, anyYes: bl.anyYes}
}

// eachPiece calls fn with the belief's boards a slice at a time, in order.
func (bl *Belief) eachPiece(fn func(boards []chess.Board) error) error {
	if bl.big == nil {
		if len(bl.boards) == 0 {
			return nil
		}
		return fn(bl.boards)
	}
	return bl.big.pieces(func(st *sampler.Boards) error {
		for _, c := range st.Chunks() {
			if err := fn(c); err != nil {
				return err
			}
		}
		return nil
	})
}

// set installs out as the belief's boards, in a flat slice unless a part
// of it is on disk.
func (bl *Belief) set(out *boardSet) error {
	if bl.big != nil {
		bl.big.close()
		bl.big = nil
	}
	if out.diskBytes() > 0 {
		bl.boards, bl.big = nil, out
		return nil
	}
	boards, err := out.flat()
	bl.boards = boards
	return err
}

// runOut is what an update made of one run of boards, in order.
type runOut struct {
	boards []chess.Board
	// keys holds the boards' keys, when the update deduplicates them with
	// a sampler.PartitionedKeys.
	keys sampler.KeyRun
	// run and children are Opponent's: the run's parents, and for each of
	// keys' keys the child it stands for (see opponentTurn.judge).
	run      []chess.Board
	children []childRef
	// fresh holds, after the dedup, the indexes in children of those no
	// earlier child duplicates, in order.
	fresh []int32
	// base is the index of run's first board in the belief.
	base int
	// judged counts the children built and judged.
	judged int
	done   bool
}

// childRef is a child of an opponent's turn: its board's index in its
// runOut's boards, or notJudged, failed or passed, and the parent (an index
// in the run) and move that make it.
type childRef struct {
	board  int32
	parent int32
	move   chess.Move
}

// A childRef's board before its child is built and judged, after it
// failed, and after it passed when its board is not kept (the turn keeps
// boardRefs, see opponentTurn.refs).
const (
	notJudged = -1
	failed    = -2
	passed    = -3
)

// boardRef names a board an opponent's turn keeps by its parent, an index
// in the belief, and the move that makes it: 8 bytes where the board takes
// 80. The board is built once, where the new belief stores it.
type boardRef struct {
	parent uint32
	move   chess.Move
}

// sweep runs work over the belief's boards in runs of runLen, on the
// belief's workers a batch of runs at a time, and calls drain with each
// run's output in the boards' order. The order, and so the belief, is the
// same whatever the number of workers. When ctx ends, the runs done before
// the first one left undone are drained and the error is returned. mid, when
// not nil, sees the batch's finished runs before they are drained. work is
// told which worker runs it: each worker takes its runs in increasing order,
// over the whole sweep.
func (bl *Belief) sweep(ctx context.Context, runLen int, work func(worker int, run []chess.Board, out *runOut),
	mid func(outs []runOut) error, drain func(out *runOut) error) error {
	batch := bl.workers * 4
	outs := make([]runOut, batch)
	var runs [][]chess.Board
	var bases []int
	at := 0 // the index in the belief of the next run's first board
	flush := func() error {
		for i := range runs {
			o := &outs[i]
			o.boards, o.done = o.boards[:0], false
			o.keys.Reset()
			o.run, o.children, o.fresh, o.judged, o.base = nil, o.children[:0], o.fresh[:0], 0, bases[i]
		}
		err := sampler.ParallelFor(ctx, bl.workers, len(runs), func(w, i int) error {
			work(w, runs[i], &outs[i])
			outs[i].done = true
			return nil
		})
		done := 0
		for done < len(runs) && outs[done].done {
			done++
		}
		if mid != nil && done > 0 {
			if merr := mid(outs[:done]); merr != nil {
				return merr
			}
		}
		for i := range done {
			if derr := drain(&outs[i]); derr != nil {
				return derr
			}
		}
		runs, bases = runs[:0], bases[:0]
		return err
	}
	err := bl.eachPiece(func(boards []chess.Board) error {
		for lo := 0; lo < len(boards); lo += runLen {
			runs = append(runs, boards[lo:min(len(boards), lo+runLen)])
			bases = append(bases, at+lo)
			if len(runs) == batch {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		at += len(boards)
		return nil
	})
	if err == nil {
		err = flush()
	}
	return err
}

// Own takes the answer a to the player's own question q: the boards on which
// the referee would have answered otherwise go, and a move that was made is
// made on the rest. If ctx is done before every board is asked, the belief
// keeps the boards found consistent so far (no longer exact, as after Thin)
// and the error wraps ctx.Err(): a player short of time keeps what it has.
func (bl *Belief) Own(ctx context.Context, q Question, a Answer) error {
	if a.Verdict == Impossible {
		return nil // nothing was asked of the board
	}
	// A move can make two boards one: they differed only in the man it
	// took (a knight or a bishop, both "a piece"), or in the half-move
	// clock a pawn move or capture resets.
	var seen *sampler.KeySet
	if a.Verdict.Done() {
		seen = sampler.NewKeySet(bl.Len())
	}
	out := newBoardSet(&boardSet{budget: bl.budget, dir: bl.dir})
	var first *chess.Board // a board before the answer that is consistent with it
	err := bl.sweep(ctx, ctxCheckEvery, func(_ int, run []chess.Board, o *runOut) {
		for _, b := range run {
			g := bl.hypothesis(b)
			if !sameAnswer(g.answer(q), a) {
				continue
			}
			o.boards = append(o.boards, b, g.board) // before and after
		}
	}, nil, func(o *runOut) error {
		for i := 0; i < len(o.boards); i += 2 {
			after := &o.boards[i+1]
			if seen != nil && !seen.Add(setKey(after)) {
				continue
			}
			if first == nil {
				b := o.boards[i]
				first = &b
			}
			if err := out.add(ctx, after); err != nil {
				return err
			}
		}
		return nil
	})
	stopped := ctx.Err()
	if err != nil && stopped == nil {
		out.close()
		return err
	}
	if err := bl.set(out); err != nil {
		return err
	}
	if first == nil {
		if stopped != nil {
			return fmt.Errorf("kriegspiel: belief stopped before a board was found consistent with %s: %w", q, stopped)
		}
		return fmt.Errorf("%w (after %s answered %s)", ErrEmptyBelief, q, a)
	}
	// The state of the turn is the referee's on every kept board.
	if a.Verdict.Done() {
		// The opponent's turn starts: its pawn tries are in our answer.
		bl.tries, bl.refused, bl.anyAsked, bl.anyYes = a.PawnTries, nil, false, false
	} else {
		state := bl.hypothesis(*first)
		state.answer(q)
		bl.refused = append(bl.refused[:0], state.refused...)
		bl.anyAsked, bl.anyYes = state.anyAsked, state.anyYes
	}
	if stopped != nil {
		bl.exact = false
		return fmt.Errorf("kriegspiel: belief cut to the %d boards found consistent before it stopped: %w", bl.Len(), stopped)
	}
	return nil
}

// Opponent takes what the player heard of the opponent's turn, in order (as
// Player.HandleOpponentTurn receives it): its "any?" answers and its move's
// announcements. Each board is replaced by the boards its legal moves lead to
// that announce what was heard. On ErrBeliefTooLarge, or when ctx is done
// first (the error wraps ctx.Err()), the belief is unchanged.
func (bl *Belief) Opponent(ctx context.Context, heard []Heard) error {
	move, anyAsked, anyYes, err := opponentMove(heard)
	if err != nil || move == nil {
		return err // move nil: the opponent has not moved (the game ended, or White's first turn)
	}
	t := bl.newOpponentTurn(*move, anyAsked, anyYes)
	err = bl.sweep(ctx, ctxCheckEvery/16, t.expandRun, func(outs []runOut) error {
		if err := t.keys.Mark(ctx, bl.workers, len(outs), func(i int) *sampler.KeyRun { return &outs[i].keys }); err != nil {
			return err
		}
		return sampler.ParallelFor(ctx, bl.workers, len(outs), func(_, i int) error {
			o := &outs[i]
			o.fresh = appendFresh(o.fresh[:0], o.keys.Dup)
			if t.tried != nil { // else every child was judged before its key was kept
				t.judge(o)
			}
			return nil
		})
	}, func(o *runOut) error { return t.drain(ctx, o) })
	if err != nil {
		t.out.close()
		if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
			err = fmt.Errorf("%w: %w", err, ctxErr)
		}
		if errors.Is(err, ErrBeliefTooLarge) {
			return err
		}
		return fmt.Errorf("kriegspiel: belief stopped: %w", err)
	}
	if t.out.n == 0 && t.refs.n == 0 {
		t.out.close()
		return fmt.Errorf("%w (after the opponent's move announced %s)", ErrEmptyBelief, move)
	}
	if t.byRef {
		// Each board is built once, straight into its place.
		boards, err := buildRefs(ctx, bl.workers, bl.boards, &t.refs)
		if err != nil {
			return fmt.Errorf("kriegspiel: belief stopped: %w", err)
		}
		bl.boards = boards
	} else {
		if t.cut.cutting() {
			bl.exact = false
			bl.cuts++
			bl.weight *= t.cut.stands(t.out.n) / float64(t.out.n)
		}
		if err := bl.set(t.out); err != nil {
			return err
		}
	}
	bl.judged = t.judged
	bl.tries, bl.refused, bl.anyAsked, bl.anyYes = move.PawnTries, nil, false, false
	return nil
}

// opponentMove picks out of what was heard of the opponent's turn the
// answer to its move (nil when it made none) and the answer to "any?", if it
// asked. The player's own answers have no place there.
func opponentMove(heard []Heard) (move *Answer, anyAsked, anyYes bool, err error) {
	for i := range heard {
		h := &heard[i]
		switch {
		case h.Own:
			return nil, false, false, fmt.Errorf("kriegspiel: Belief.Opponent given the player's own answer %s", h.Answer)
		case h.Question.AskAny:
			anyAsked, anyYes = true, h.Answer.Verdict == HasAny
		case h.Answer.Verdict.Done():
			move = &h.Answer
		}
	}
	return move, anyAsked, anyYes, nil
}

// opponentTurn is one Belief.Opponent's working state: what was heard, the
// boards kept so far, the keys that deduplicate them, the cut's bound and
// the workers' seen filters.
type opponentTurn struct {
	bl               *Belief
	f                moveFilter
	anyAsked, anyYes bool
	out              *boardSet
	keys             *sampler.PartitionedKeys
	// cut keeps a sample of the boards once they pass the limit (weight.go).
	cut *turnCut
	// tried[w] holds keys of children worker w has met on the fast path,
	// judged already or left for judge (see maxSeenBits); nil when the
	// filter is off. Each worker's is made at its first run, 1<<seenBits
	// keys.
	tried    []*sampler.SeenFilter
	seenBits int
	// judged counts the children built and judged in the runs drained.
	judged int
	// byRef is true while the turn keeps its boards as refs, children of
	// the belief's flat slice of boards (bl.boards), rather than in out:
	// then a child is built to be judged but stored only once, where the
	// new belief keeps it (buildRefs), where out would copy it into its
	// store and then again into the belief's slice. It is on when the
	// belief's boards are in memory and must never spill, and goes off
	// (unref) if the turn reaches the belief's limit, where the cut (or
	// ErrBeliefTooLarge) takes over with out.
	byRef bool
	refs  refList
}

// newOpponentTurn prepares the expansion of the belief by an opponent's move
// that announced move, after the answer to "any?" if it was asked.
func (bl *Belief) newOpponentTurn(move Answer, anyAsked, anyYes bool) *opponentTurn {
	t := &opponentTurn{
		bl:       bl,
		f:        newMoveFilter(bl.rules, move),
		anyAsked: anyAsked,
		anyYes:   anyYes,
		out:      newBoardSet(&boardSet{budget: bl.budget, dir: bl.dir}),
		keys:     sampler.NewPartitionedKeys(min(bl.Len()*8, bl.limit), bl.workers),
		cut:      bl.newTurnCut(),
		seenBits: min(max(bits.Len(uint(bl.Len())*8), 10), maxSeenBits),
	}
	if t.f.fast && !bl.noSeenFilter {
		t.tried = make([]*sampler.SeenFilter, bl.workers)
	}
	t.byRef = bl.big == nil && bl.budget <= 0
	return t
}

// unref moves the boards the turn kept as refs into out, in order, through
// the cut, which sees them as it would have had out kept them from the
// start: none has passed the limit, so none is cut.
func (t *opponentTurn) unref(ctx context.Context) error {
	t.byRef = false
	for _, chunk := range t.refs.chunks {
		for _, r := range chunk {
			b := t.bl.boards[r.parent]
			b.Apply(r.move)
			var err error
			if t.out, err = t.cut.add(ctx, t.out, &b, setKey(&b), -1, t.bl.limit); err != nil {
				return err
			}
		}
	}
	t.refs = refList{}
	return nil
}

// refList is an opponent's turn's boardRefs, in order, in chunks of
// refChunk: past the first chunk it grows a chunk at a time, where one
// slice grown by append would copy each ref about four times over (a
// large slice grows by a quarter).
type refList struct {
	chunks [][]boardRef
	n      int
}

// refChunk is the length of a refList's chunks, and the work of one
// buildRefs item.
const refChunk = 1 << 14

// add appends r. The first chunk grows as a slice does, so that a small
// belief's turn takes little memory.
func (l *refList) add(r boardRef) {
	if l.n%refChunk == 0 {
		var c []boardRef
		if l.n > 0 {
			c = make([]boardRef, 0, refChunk)
		}
		l.chunks = append(l.chunks, c)
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = append(*c, r)
	l.n++
}

// buildRefs returns the boards refs name, children of parents, on up to
// workers workers, each written once, in its place.
func buildRefs(ctx context.Context, workers int, parents []chess.Board, refs *refList) ([]chess.Board, error) {
	boards := make([]chess.Board, refs.n)
	err := sampler.ParallelFor(ctx, workers, len(refs.chunks), func(_, p int) error {
		out := boards[p*refChunk:]
		for i, r := range refs.chunks[p] {
			b := &out[i]
			*b = parents[r.parent]
			b.Apply(r.move)
		}
		return nil
	})
	return boards, err
}

// expandRun is worker w's work on a run of parents: the key of every child
// whose move can announce what was heard, in the parents' and moves' order,
// with the child built and judged (kept only when the referee would have
// answered so), or, on the fast path, left for judge. Children the cut
// already rules out, or whose key the worker's seen filter has, are never
// built.
func (t *opponentTurn) expandRun(w int, run []chess.Board, o *runOut) {
	var buf [256]chess.Move
	var keyBuf [256]uint64
	f, anyAsked, anyYes := &t.f, t.anyAsked, t.anyYes
	// Only a typed capture heard needs more of moveFilter.before than the
	// capture's square.
	typed := f.fast && f.rules.TypedCaptures && f.heard.Capture != chess.NoSquare
	var seen *sampler.SeenFilter
	if t.tried != nil {
		if t.tried[w] == nil {
			t.tried[w] = sampler.NewSeenFilter(t.seenBits)
		}
		seen = t.tried[w]
	}
	o.run = run
	for i := range run {
		b := &run[i]
		if anyAsked && (countPawnCaptures(b) > 0) != anyYes {
			continue
		}
		// On the fast path moveFilter.after judges a child by itself alone
		// (see maxSeenBits): the seen filter may skip it and judge may
		// judge it after the dedup, only once per key.
		later := seen != nil && b.KingSquare(b.Turn().Other()) != chess.NoSquare
		moves := chess.AppendLegalMoves(b, buf[:0])
		// Every key at once: nearly every move passes the tests before
		// its key, and what a board's children share is worked out once.
		keys := b.AppendKeysAfter(keyBuf[:0], moves)
		pf := factsOf(b)
		for j, m := range moves {
			// Board.CaptureSquare, isPawnCapture and childSetKeyFrom from the
			// parent's facts, worked out once for all its moves.
			capture, pawn := pf.theirs.Has(m.To), pf.pawns.Has(m.From)
			pawnCapture := pawn && m.From.File() != m.To.File()
			if anyAsked && pawnCapture != anyYes {
				continue
			}
			at := chess.NoSquare
			switch {
			case capture:
				at = m.To
			case m.To == pf.ep && pawnCapture:
				at = pf.epTaken
			}
			if at != f.heard.Capture || typed && !f.before(b, m) {
				continue // the cheap test first: most moves fail it
			}
			// The child's key first: a child skipped is never built.
			k := keys[j] ^ pf.clockKept
			if pawn || capture {
				k = keys[j] ^ pf.clockReset
			}
			if t.cut.skipKey(k) {
				continue
			}
			if later {
				if seen.Seen(k) {
					continue // an earlier child had this key: written, or failed as this one would
				}
				o.children = append(o.children, childRef{board: notJudged, parent: int32(i), move: m})
				t.keys.Append(&o.keys, k)
				continue
			}
			o.judged++
			if t.byRef {
				child := *b
				child.Apply(m)
				if !f.after(b, m, &child) {
					continue
				}
				o.children = append(o.children, childRef{board: passed, parent: int32(i), move: m})
				t.keys.Append(&o.keys, k)
				continue
			}
			o.boards = append(o.boards, *b)
			child := &o.boards[len(o.boards)-1]
			child.Apply(m)
			if !f.after(b, m, child) {
				o.boards = o.boards[:len(o.boards)-1]
				continue
			}
			o.children = append(o.children, childRef{board: int32(len(o.boards) - 1), parent: int32(i), move: m})
			t.keys.Append(&o.keys, k)
		}
	}
}

// parentFacts is what the tests before a child's key ask of its parent,
// worked out once for all its moves.
type parentFacts struct {
	// theirs and pawns are the men of the side not to move and the pawns
	// of the side to move.
	theirs, pawns chess.Bitboard
	// ep is the en-passant square and epTaken the square of the pawn an
	// en-passant capture takes.
	ep, epTaken chess.Square
	// clockKept and clockReset are what childSetKeyFrom mixes into a
	// child's key for the half-move clock: the parent's plus one, or 0
	// after a pawn move or a capture.
	clockKept, clockReset uint64
}

// factsOf returns b's parentFacts.
func factsOf(b *chess.Board) parentFacts {
	us := b.Turn()
	return parentFacts{theirs: b.Pieces(us.Other()), pawns: b.PiecesOf(us, chess.Pawn), ep: b.EnPassant(), epTaken: b.EnPassantTaken(),
		clockKept: clockMix(uint64(uint16(b.HalfmoveClock()) + 1)), clockReset: clockMix(0)}
}

// judge builds and judges, once the run's keys are marked, the children
// expandRun left for it that no earlier child duplicates. A duplicate is
// never built: its first is judged and would be judged the same, for on the
// fast path moveFilter.after looks at nothing but the child, and the child
// is all its key says. About a third of the children the seen filter lets
// through are such duplicates of children far back in the belief.
func (t *opponentTurn) judge(o *runOut) {
	for _, i := range o.fresh {
		c := &o.children[i]
		if c.board != notJudged {
			continue
		}
		o.judged++
		parent := &o.run[c.parent]
		if t.byRef {
			child := *parent
			child.Apply(c.move)
			c.board = failed
			if t.f.after(parent, c.move, &child) {
				c.board = passed
			}
			continue
		}
		o.boards = append(o.boards, *parent)
		child := &o.boards[len(o.boards)-1]
		child.Apply(c.move)
		if t.f.after(parent, c.move, child) {
			c.board = int32(len(o.boards) - 1)
		} else {
			o.boards = o.boards[:len(o.boards)-1]
			c.board = failed
		}
	}
}

// appendFresh appends to dst the indexes of dup's false entries, in order,
// without a branch on each: about half of a turn's children are
// duplicates, and a branch on which would be mispredicted as often.
func appendFresh(dst []int32, dup []bool) []int32 {
	dst = slices.Grow(dst, len(dup))
	fresh := dst[len(dst) : len(dst)+len(dup)]
	n := 0
	for i, d := range dup {
		fresh[n] = int32(i)
		inc := 1
		if d {
			inc = 0
		}
		n += inc
	}
	return dst[:len(dst)+n]
}

// drain adds a run's children that no earlier child duplicates to the
// boards kept, in order (as refs while byRef, else in out, a child judged
// but not stored built here from its parent), cutting them to a sample when
// they pass the limit and the belief may be cut (ErrBeliefTooLarge
// otherwise). A child's
// priority in a weighted cut is its key's and its board's alone, so the cut
// weighs it here, once it is known to be kept.
func (t *opponentTurn) drain(ctx context.Context, o *runOut) error {
	t.judged += o.judged
	limit := t.bl.limit
	var built chess.Board
	for _, i := range o.fresh {
		c := &o.children[i]
		if c.board == failed {
			continue
		}
		if t.byRef {
			if t.refs.n < limit {
				t.refs.add(boardRef{parent: uint32(o.base + int(c.parent)), move: c.move})
				continue
			}
			if !t.cut.on {
				return fmt.Errorf("%w of %d boards", ErrBeliefTooLarge, limit)
			}
			if err := t.unref(ctx); err != nil {
				return err
			}
		}
		b := &built
		if c.board == passed {
			built = o.run[c.parent]
			built.Apply(c.move)
		} else {
			b = &o.boards[c.board]
		}
		var err error
		if t.out, err = t.cut.add(ctx, t.out, b, o.keys.Keys[i], -1, limit); err != nil {
			return err
		}
	}
	return nil
}

// maxSeenBits bounds a worker's filter (a sampler.SeenFilter) of the
// children it has met on the fast path in Belief.Opponent: 1<<maxSeenBits
// keys (64 KiB, which stays in a core's L2 cache beside the rest of the
// work), fewer for a belief of fewer than 512 boards. Duplicate children
// come mostly from parents near each other in the belief's order: on the
// benchmark's 55k parents a filter of 4k keys skips 0.50 M of the 1.73 M
// children that pass moveFilter.before, one of 8k keys 0.57 M, 16k keys
// 0.64 M and 64k keys 0.78 M (of 1.16 M duplicates), each before the child
// is built, judged and sent through the dedup tables. The larger filters
// skip more, but their probe misses the cache on nearly every child, which
// costs more than the dedup of the children they would have skipped.
//
// Skipping is exact. A worker takes runs in increasing order, so the key in
// the filter belongs to a child before this one in the belief's order,
// which the dedup keeps first and judge judges: if it is kept, this one is
// its duplicate; if it fails, this one fails too,
// for on the fast path (no ending heard, the mover's opponent has a king)
// moveFilter.after judges the child alone, and the child is all its key
// says (the position, the side to move, castling, a capturable en-passant
// square and the half-move clock). The tests before it, which look at the
// parent and the move, are still made for every child.
const maxSeenBits = 13

// mixKey hashes a key so that keeping the keys below a bound keeps a
// uniform share of boards whatever their keys have in common.
func mixKey(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xFF51AFD7ED558CCD
	k ^= k >> 33
	k *= 0xC4CEB9FE1A85EC53
	k ^= k >> 33
	return k
}

// sameAnswer reports whether the referee's answer on a board, got, is the one
// heard. A repetition ending depends on the game's history, which a board
// does not carry: heard, it matches a board whose answer is otherwise equal
// and not over.
func sameAnswer(got, heard Answer) bool {
	if heard.End == DrawRepetition && got.End == NotOver {
		got.End, got.Checks, got.PawnTries = DrawRepetition, heard.Checks, heard.PawnTries
	}
	return got == heard
}

// isPawnCapture reports whether the legal move m is a pawn capture, en
// passant included.
func isPawnCapture(b *chess.Board, m chess.Move) bool {
	return b.PiecesOf(b.Turn(), chess.Pawn).Has(m.From) && m.From.File() != m.To.File()
}
