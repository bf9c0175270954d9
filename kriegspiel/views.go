package kriegspiel

// The sampling beliefs of Parker, Nau and Subrahmanian (IJCAI 2005), for
// when the exact set is too large: AOSP keeps a pool of boards consistent
// with every observation, LOS draws boards consistent with the last one, and
// the hybrid tops up AOSP's pool with LOS's boards. LOS's draw and the
// hybrid's top-up are package sampler's, shared with RBC's beliefs
// (sampler.DrawLOS, sampler.TopUp): what is Kriegspiel's own is lastObs,
// how a board is proposed and checked against the last observation. The
// pool is an exact Belief cut to size, and AOSP's search of the whole game
// when it empties (RBC's AOSP refills from LOS instead) stays here.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// View is a belief a Kriegspiel player keeps: the exact set (Belief) or one
// of the sampling beliefs. Its callbacks are those of a Player's: the
// answers to our own questions, and what we heard of the opponent's turn.
//
// Both callbacks take a context: the exact belief can take seconds on a
// large set, and a player on a clock stops it (see Belief.Own and
// Belief.Opponent for what is kept then).
type View interface {
	Own(ctx context.Context, q Question, a Answer) error
	Opponent(ctx context.Context, heard []Heard) error
	// Boards returns the boards the player thinks possible (a sample for
	// the sampling beliefs); the caller must not modify them.
	Boards() []chess.Board
	// Name is the belief's name as NewView reads it.
	Name() string
}

// ViewNames lists the beliefs NewView makes.
func ViewNames() []string { return []string{"exact", "aosp", "los", "hybrid"} }

// NewView returns the named belief of the player of color, from the start
// of a game: "exact" (at most size boards; an opponent's turn past that is
// ErrBeliefTooLarge), or a sampling belief of size boards drawn with rng.
func NewView(name string, color chess.Color, rules Ruleset, start chess.Board, pawnTries, size int, rng *rand.Rand) (View, error) {
	if size < 1 {
		return nil, fmt.Errorf("kriegspiel: belief size %d, want at least 1", size)
	}
	switch name {
	case "exact":
		b := NewBelief(color, rules, start, pawnTries)
		b.SetLimit(size)
		return b, nil
	case "aosp", "los", "hybrid":
		return newSampled(name, color, rules, start, pawnTries, size, rng), nil
	}
	return nil, fmt.Errorf("kriegspiel: unknown belief %q (want one of %v)", name, ViewNames())
}

// Name returns "exact".
func (bl *Belief) Name() string { return "exact" }

// observation is one callback of the game so far, kept so that a sampling
// belief can search the whole game again.
type observation struct {
	own   bool
	q     Question
	a     Answer
	heard []Heard
}

// sampled is AOSP, LOS or the hybrid. It keeps a pool of boards (an exact
// Belief cut to size), every observation, and what LOS draws from (lastObs).
type sampled struct {
	name      string
	color     chess.Color
	rules     Ruleset
	start     chess.Board
	pawnTries int
	size      int
	rng       *rand.Rand
	pool      *Belief
	log       []observation
	// What LOS draws from: the latest observation, and our own
	// observations since.
	lastObs lastObs
	since   []observation
	// Regenerations counts the pool's refills by search (AOSP, hybrid) and
	// Draws the boards LOS drew.
	Regenerations, Draws int
}

func newSampled(name string, color chess.Color, rules Ruleset, start chess.Board, pawnTries, size int, rng *rand.Rand) *sampled {
	s := &sampled{name: name, color: color, rules: rules, start: start, pawnTries: pawnTries, size: size, rng: rng}
	s.pool = NewBelief(color, rules, start, pawnTries)
	s.pool.SetLimit(max(256*size, 10_000)) // a pool of size boards always expands within it
	s.lastObs = lastObs{color: color, mine: start}
	for bb := start.Pieces(color.Other()); bb != 0; {
		s.lastObs.mine.SetPiece(bb.PopFirst(), chess.NoPiece)
	}
	return s
}

func (s *sampled) Name() string          { return s.name }
func (s *sampled) Boards() []chess.Board { return s.pool.Boards() }

func (s *sampled) Own(ctx context.Context, q Question, a Answer) error {
	if a.Verdict == Impossible {
		return nil
	}
	s.log = append(s.log, observation{own: true, q: q, a: a})
	s.since = append(s.since, observation{own: true, q: q, a: a})
	if a.Verdict == Captured {
		s.lastObs.took(a.Captured)
	}
	if s.name == "los" {
		return s.drawLOS(ctx)
	}
	err := s.pool.Own(ctx, q, a)
	if errors.Is(err, ErrEmptyBelief) {
		return s.refill(ctx)
	}
	return err
}

func (s *sampled) Opponent(ctx context.Context, heard []Heard) error {
	s.log = append(s.log, observation{heard: slices.Clone(heard)})
	if s.lastObs.opponentMoved(s.since, heard) {
		s.since = nil
	}
	if s.name == "los" {
		return s.drawLOS(ctx)
	}
	err := s.pool.Opponent(ctx, heard)
	if errors.Is(err, ErrBeliefTooLarge) {
		s.pool.Thin(s.size, s.rng)
		err = s.pool.Opponent(ctx, heard)
	}
	switch {
	case errors.Is(err, ErrEmptyBelief):
		return s.refill(ctx)
	case err != nil:
		return err
	}
	s.pool.Thin(s.size, s.rng)
	if s.name == "hybrid" && s.pool.Len() < s.size/2 {
		s.topUp(ctx)
	}
	return nil
}

// refill replaces an emptied pool: AOSP searches the whole game again for
// boards consistent with every observation; the hybrid, when that search
// finds too few, adds LOS's boards.
func (s *sampled) refill(ctx context.Context) error {
	s.Regenerations++
	// A caller short of time gives the search half of what is left, so
	// that the hybrid's draws, which are cheap, have the other half.
	sctx := ctx
	if d, ok := ctx.Deadline(); ok && s.name == "hybrid" {
		var cancel context.CancelFunc
		sctx, cancel = context.WithDeadline(ctx, time.Now().Add(time.Until(d)/2))
		defer cancel()
	}
	s.pool = s.search(sctx, s.size, searchBudget(s.size))
	if s.name == "hybrid" && s.pool.Len() < s.size/2 {
		s.topUp(ctx)
	}
	if s.pool.Len() == 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("kriegspiel: the search of the whole game stopped before it found a board: %w", err)
		}
		return fmt.Errorf("%w (the search of the whole game found no board)", ErrEmptyBelief)
	}
	return nil
}

// searchBudget is how many boards AOSP's search of the whole game may
// visit to refill a pool of size boards: a hundred a board, at least
// 20,000 (the default pool of 2,000 boards gets 200,000). A small pool
// empties often, and a fixed large budget made each of its refills cost
// as much as a large pool's.
func searchBudget(size int) int { return max(100*size, 20_000) }

// replaced returns a pool holding boards, in the state of the turn now.
func (s *sampled) replaced(boards []chess.Board) *Belief {
	p := *s.pool
	p.boards = boards
	p.refused = slices.Clone(s.pool.refused)
	return &p
}

// search looks for up to n boards consistent with every observation, by a
// depth-first search over the opponent's moves in random order that visits
// at most budget boards: AOSP's regeneration. The belief it returns holds
// them, in the state of the turn now.
func (s *sampled) search(ctx context.Context, n, budget int) *Belief {
	var out []chess.Board
	var state *Belief
	seen := sampler.NewKeySet(n)
	var walk func(bl *Belief, at int)
	walk = func(bl *Belief, at int) {
		for ; at < len(s.log) && budget > 0; at++ {
			o := s.log[at]
			if !o.own {
				break
			}
			if bl.Own(ctx, o.q, o.a) != nil {
				return
			}
		}
		if budget <= 0 || len(out) >= n {
			return
		}
		if at == len(s.log) {
			if state == nil {
				st := *bl
				st.refused = slices.Clone(bl.refused)
				state = &st
			}
			for _, b := range bl.boards {
				if seen.Add(setKey(&b)) {
					out = append(out, b)
				}
			}
			return
		}
		// An opponent's turn: its children in random order, each followed
		// on its own.
		if bl.Opponent(ctx, s.log[at].heard) != nil {
			return
		}
		children := bl.boards
		budget -= len(children)
		s.rng.Shuffle(len(children), func(i, j int) { children[i], children[j] = children[j], children[i] })
		for _, c := range children {
			if len(out) >= n || budget <= 0 || ctx.Err() != nil {
				return
			}
			one := *bl
			one.boards = []chess.Board{c}
			one.refused = nil
			walk(&one, at+1)
		}
	}
	root := NewBelief(s.color, s.rules, s.start, s.pawnTries)
	root.SetLimit(1 << 20)
	walk(root, 0)
	if state == nil {
		state = NewBelief(s.color, s.rules, s.start, s.pawnTries)
	}
	state.boards = out
	state.limit = s.pool.limit
	return state
}

// topUp adds LOS boards to the pool until it holds size boards.
func (s *sampled) topUp(ctx context.Context) {
	fresh := s.los(ctx, s.size-len(s.pool.boards)).boards
	boards := sampler.TopUp(slices.Clone(s.pool.boards), fresh, func(b chess.Board) chess.Board { return b }, setKey)
	s.pool = s.replaced(boards)
}

// drawLOS replaces the pool by LOS's boards: LOS keeps no pool between
// observations.
func (s *sampled) drawLOS(ctx context.Context) error {
	s.pool = s.los(ctx, s.size)
	if s.pool.Len() == 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("kriegspiel: LOS stopped before it drew a board: %w", err)
		}
		return fmt.Errorf("%w (LOS drew no board consistent with the last observation)", ErrEmptyBelief)
	}
	return nil
}

// los draws up to n distinct boards consistent with the last observation:
// up to 2n from 200n proposals of lastObs (sampler.DrawLOS), then our
// questions since are asked of each (Belief.Own), and n are kept at random.
// Before the opponent's first move the position is the start.
func (s *sampled) los(ctx context.Context, n int) *Belief {
	base := NewBelief(s.color, s.rules, s.start, s.pawnTries)
	base.SetLimit(s.pool.limit)
	if s.lastObs.last == nil {
		base.boards = []chess.Board{s.start}
	} else {
		base.tries = s.lastObs.last.PawnTries
		base.boards = sampler.DrawLOS(ctx, &s.lastObs, s.rng, 200*n, 2*n)
	}
	for _, o := range s.since {
		if base.Own(ctx, o.q, o.a) != nil {
			base.boards = nil
			break
		}
	}
	s.Draws += len(base.boards)
	base.Thin(n, s.rng)
	return base
}

// lastObs is Kriegspiel's sampler.LastObservation: what LOS draws from at
// the start of our turn. It proposes the opponent's men we have not taken,
// placed at random around ours as they stand, and keeps a board when the
// opponent's last move's announcements (its checks, our pawn tries) hold
// on it.
type lastObs struct {
	color chess.Color
	// mine is our men at the start of our turn (a board whose opponent
	// men are meaningless), last the opponent's last move's answer (nil
	// before its first move).
	mine chess.Board
	last *Answer
	// captured counts the opponent's men we took: pawns, pieces, and
	// captures of unknown kind (rules that name only the square).
	captured [3]int
}

// took counts a capture of ours, of the kind the referee named.
func (o *lastObs) took(kind CaptureKind) {
	switch kind {
	case CapturedPawn:
		o.captured[0]++
	case CapturedPiece:
		o.captured[1]++
	default:
		o.captured[2]++
	}
}

// opponentMoved moves our men to the start of our next turn when heard
// holds the opponent's move: our own move (the last of since, our
// observations since the last time, if one was made), then the opponent's,
// of which we know only what it captured. It reports whether the opponent
// moved (since is then spent).
func (o *lastObs) opponentMoved(since []observation, heard []Heard) bool {
	var move *Answer
	for i := range heard {
		if heard[i].Answer.Verdict.Done() {
			move = &heard[i].Answer
		}
	}
	if move == nil {
		return false
	}
	for _, ob := range since {
		if ob.a.Verdict.Done() {
			o.mine.Apply(ob.q.Move)
		}
	}
	if o.mine.Turn() != o.color.Other() {
		o.mine.Apply(chess.Move{}) // Black's first turn: White moved from the start
	}
	o.mine.Apply(chess.Move{}) // the opponent's move, unseen
	if move.Capture != chess.NoSquare {
		o.mine.SetPiece(move.Capture, chess.NoPiece)
	}
	a := *move
	o.last = &a
	return true
}

// Key tells boards apart as the referee does (setKey: the position and the
// half-move clock).
func (o *lastObs) Key(b *chess.Board) uint64 { return setKey(b) }

// Propose puts the opponent's men we have not taken at random on the empty
// squares around ours: pawns off the back ranks, the king not beside ours
// and not attacked (it is our turn), a man on the square of the opponent's
// last capture. Castling rights stay only where king and rook are at home.
func (o *lastObs) Propose(rng *rand.Rand) (chess.Board, bool) {
	them := o.color.Other()
	men := []chess.PieceType{chess.Knight, chess.Knight, chess.Bishop, chess.Bishop, chess.Rook, chess.Rook, chess.Queen}
	rng.Shuffle(len(men), func(i, j int) { men[i], men[j] = men[j], men[i] })
	pawns := 8 - o.captured[0]
	men = men[:max(len(men)-o.captured[1], 0)]
	for range o.captured[2] {
		if rng.IntN(pawns+len(men)+1) < pawns {
			pawns--
		} else if len(men) > 0 {
			men = men[:len(men)-1]
		}
	}
	for range max(pawns, 0) {
		men = append(men, chess.Pawn)
	}
	b := o.mine
	var ours chess.Bitboard = b.Pieces(o.color)
	free := ^ours
	put := func(sq chess.Square, t chess.PieceType) {
		b.SetPiece(sq, chess.MakePiece(them, t))
		free &^= sq.Bit()
	}
	pick := func(from chess.Bitboard) (chess.Square, bool) {
		n := from.Count()
		if n == 0 {
			return chess.NoSquare, false
		}
		i := rng.IntN(n)
		for ; i > 0; i-- {
			from &= from - 1
		}
		return from.First(), true
	}
	if c := o.last.Capture; c != chess.NoSquare && free.Has(c) && len(men) > 0 {
		i := rng.IntN(len(men))
		if men[i] == chess.Pawn && chess.BackRanks.Has(c) {
			men[i] = chess.Queen // a pawn that captured onto the back rank promoted
		}
		put(c, men[i])
		men = slices.Delete(men, i, i+1)
	}
	ourKing := b.KingSquare(o.color)
	kingZone := chess.Bitboard(0)
	if ourKing != chess.NoSquare {
		kingZone = chess.KingAttacks(ourKing) | ourKing.Bit()
	}
	k, ok := pick(free &^ kingZone)
	if !ok {
		return b, false
	}
	put(k, chess.King)
	for _, t := range men {
		where := free
		if t == chess.Pawn {
			where &^= chess.BackRanks
		}
		sq, ok := pick(where)
		if !ok {
			return b, false
		}
		put(sq, t)
	}
	if b.Attacked(k, o.color) {
		return b, false
	}
	fixed, err := fixCastling(&b)
	return fixed, err == nil
}

// Fits reports whether the opponent's last move's announcements hold on b:
// the checks on our king and our pawn tries.
func (o *lastObs) Fits(b *chess.Board) bool {
	a := o.last
	if a.End != NotOver {
		return false // the game is over; nothing to draw
	}
	var checks [2]Check
	k := b.KingSquare(o.color)
	c := chess.Checkers(b)
	for i := 0; c != 0 && i < 2; i++ {
		checks[i] = checkDirection(c.PopFirst(), k)
	}
	if checks != a.Checks {
		return false
	}
	return a.PawnTries < 0 || countPawnCaptures(b) == a.PawnTries
}

// fixCastling returns b with the castling rights whose king and rook are
// not both on their home squares removed, through its FEN.
func fixCastling(b *chess.Board) (chess.Board, error) {
	fen := b.FEN()
	f := strings.Fields(fen)
	if len(f) < 3 {
		return *b, fmt.Errorf("kriegspiel: FEN %q", fen)
	}
	home := map[byte][2]chess.Square{'K': {4, 7}, 'Q': {4, 0}, 'k': {60, 63}, 'q': {60, 56}}
	rights := ""
	for i := 0; i < len(f[2]); i++ {
		r := f[2][i]
		sq, ok := home[r]
		if !ok {
			continue
		}
		color := chess.White
		if r >= 'a' {
			color = chess.Black
		}
		if b.PieceAt(sq[0]) == chess.MakePiece(color, chess.King) && b.PieceAt(sq[1]) == chess.MakePiece(color, chess.Rook) {
			rights += string(r)
		}
	}
	if rights == "" {
		rights = "-"
	}
	f[2] = rights
	f[3] = "-"
	return chess.ParseFEN(strings.Join(f, " "))
}
