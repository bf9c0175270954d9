package bots

import (
	"context"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/kriegspiel/endgame"
	"github.com/blindfish-rbc/blindfish/kriegspiel/metapos"
)

// DarkboardConfig tunes the Darkboard player.
type DarkboardConfig struct {
	// Depth is the most of our moves a line of the search holds (each
	// level a full move: ours, and the opponent's one metamove).
	Depth int
	// Alpha is the prediction coefficient in (0, 1): a node's value is
	// Alpha times its own evaluation plus 1 − Alpha times its best child's,
	// so that deeper guesses, less sure, weigh less.
	Alpha float64
	// MoveTime caps the time a decision may take (the clock's share caps
	// it too); deeper levels are searched only while it lasts.
	MoveTime time.Duration
	// Nodes is the most metapositions a decision evaluates: a level is
	// searched only when its estimated size fits (the paper's program
	// looked at about 10,000 a move). A budget in nodes rather than time
	// plays the same game on a loaded machine as on an idle one.
	Nodes int
}

// DefaultDarkboardConfig returns the settings the player is measured with.
func DefaultDarkboardConfig() DarkboardConfig {
	return DarkboardConfig{Depth: 3, Alpha: 0.5, MoveTime: time.Second, Nodes: 20_000}
}

// Darkboard is the program of Ciancarini and Favini's "Representing
// Kriegspiel states with metapositions" (IJCAI 2007), rebuilt from the
// paper: it keeps one metaposition (package metapos), and chooses its move by
// weighed maximax over metapositions, each of our moves answered by the
// simulated referee and followed by the opponent's one metamove, with the
// three-part evaluation (material safety, position, information). The
// ranking it computes at the first question of a turn is kept for the turn:
// an illegal try proves nothing certain to the metaposition, so the next
// best move is tried.
//
// Where the paper's program had its own endgame play, this one hands the
// game to package endgame once the opponent has only its king (as our
// other players do): the paper does not give its endgame rules.
type Darkboard struct {
	cfg    DarkboardConfig
	log    *slog.Logger
	rng    *rand.Rand
	color  chess.Color
	meta   metapos.Metaposition
	ending *endgame.Tracker
	tries  int // our pawn tries, as last announced (-1: none)
	ranked []chess.Move
	plan   timePlan
	// Questions and Moves count the game's questions asked and moves made:
	// their ratio is the paper's tries per move. Nodes counts the
	// metapositions the searches evaluated.
	Questions, Moves, Nodes int
}

// NewDarkboard returns a Darkboard player whose ties follow from seed.
func NewDarkboard(cfg DarkboardConfig, seed uint64, log *slog.Logger) *Darkboard {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Darkboard{cfg: cfg, log: log, rng: rand.New(rand.NewPCG(seed, 0x6461726b))}
}

// HandleGameStart starts the metaposition and the ending's tracker.
func (p *Darkboard) HandleGameStart(_ context.Context, color chess.Color, rules kriegspiel.Ruleset, start chess.Board, pawnTries int, _ string) error {
	p.color, p.tries = color, pawnTries
	p.meta = metapos.New(color, start)
	p.ending = endgame.NewTracker(color, rules, start, 1)
	p.plan = timePlan{turnsLeft: 40}
	p.ranked = nil
	p.Questions, p.Moves, p.Nodes = 0, 0, 0
	return nil
}

// HandleOpponentTurn takes the opponent's move into the metaposition (the
// meta update) and the tracker.
func (p *Darkboard) HandleOpponentTurn(_ context.Context, heard []kriegspiel.Heard) error {
	p.plan.startTurn(time.Now())
	if err := p.meta.Opponent(heard); err != nil {
		p.log.Warn("kriegspiel darkboard metaposition", "color", p.color, "err", err)
	}
	if err := p.ending.Opponent(heard); err != nil {
		p.log.Warn("kriegspiel darkboard endgame belief lost", "color", p.color, "err", err)
	}
	p.tries = lastPawnTries(heard, p.tries)
	p.ranked = nil
	return nil
}

// ChooseQuestion asks the best move of the turn's ranking that the referee
// still allows, searching for the ranking at the turn's first question.
func (p *Darkboard) ChooseQuestion(ctx context.Context, questions []kriegspiel.Question, timeLeft time.Duration) (kriegspiel.Question, error) {
	if q, ok, err := p.ending.Choose(questions); ok {
		return q, nil
	} else if err != nil {
		p.log.Warn("kriegspiel darkboard endgame belief lost", "color", p.color, "err", err)
	}
	moves, only, err := movesOf(questions)
	if len(moves) == 0 {
		return only, err
	}
	now := time.Now()
	p.plan.told(timeLeft)
	defer func() { p.plan.used(time.Since(now)) }()
	if p.ranked == nil {
		deadline := p.plan.questionDeadline(now, timeLeft)
		if d := now.Add(p.cfg.MoveTime); d.Before(deadline) {
			deadline = d
		}
		// The context's deadline is not read: it is on the referee's clock
		// (a test's manual clock shows another time), and the plan keeps
		// within a quarter of what is left; a context done still stops.
		p.ranked = p.rank(ctx, moves, deadline)
	}
	for _, m := range p.ranked {
		if slices.Contains(moves, m) {
			return kriegspiel.TryMove(m), nil
		}
	}
	return kriegspiel.TryMove(moves[p.rng.IntN(len(moves))]), nil
}

// HandleAnswer takes our answer into the metaposition (the pseudo update)
// and the tracker.
func (p *Darkboard) HandleAnswer(_ context.Context, q kriegspiel.Question, a kriegspiel.Answer) error {
	p.Questions++
	p.meta.Own(q, a)
	if err := p.ending.Own(q, a); err != nil {
		p.log.Warn("kriegspiel darkboard endgame belief lost", "color", p.color, "err", err)
	}
	if a.Verdict.Done() {
		p.Moves++
		p.tries = -1
		p.ranked = nil
	}
	return nil
}

// HandleGameEnd logs the game's tries per move and the search's size.
func (p *Darkboard) HandleGameEnd(_ context.Context, res kriegspiel.Result, _ *kriegspiel.Record) error {
	p.log.Info("kriegspiel darkboard game end", "color", p.color, "result", res.String(), "questions", p.Questions,
		"moves", p.Moves, "nodes", p.Nodes)
	return nil
}

// rank orders the root's moves by weighed maximax, deepening one level at
// a time while the deadline allows (the time guard: a level not finished
// in time is not used, so the clock is never lost to the search).
func (p *Darkboard) rank(ctx context.Context, moves []chess.Move, deadline time.Time) []chess.Move {
	root := rootMoves(&p.meta, moves, p.tries)
	if len(root) == 0 {
		root = moves
	}
	order := slices.Clone(root)
	p.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	s := search{cfg: p.cfg, deadline: deadline, ctx: ctx}
	last, growth := 0, float64(len(order))
	for depth := 1; depth <= p.cfg.Depth; depth++ {
		if depth > 1 && p.cfg.Nodes > 0 && float64(last)*growth > float64(p.cfg.Nodes) {
			break // the next level would not fit the budget
		}
		begin := s.nodes
		values := make([]float64, len(order))
		done := true
		for i, m := range order {
			values[i] = s.value(&p.meta, m, depth)
			if s.stopped() {
				done = false
				break
			}
		}
		if !done && depth > 1 {
			break
		}
		idx := make([]int, len(order))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			switch {
			case values[a] > values[b]:
				return -1
			case values[a] < values[b]:
				return 1
			}
			return 0
		})
		next := make([]chess.Move, len(order))
		for i, j := range idx {
			next[i] = order[j]
		}
		order = next
		if !done {
			break
		}
		if n := s.nodes - begin; last > 0 {
			growth = max(float64(n)/float64(last), 1)
			last = n
		} else {
			last = n
		}
	}
	p.Nodes += s.nodes
	order = finish(&p.meta, order)
	// The moves left out of the search (pawn captures onto squares
	// certainly empty, under-promotions) follow, should all the others be
	// refused.
	for _, m := range moves {
		if !slices.Contains(order, m) {
			order = append(order, m)
		}
	}
	return order
}

// rootMoves returns the moves worth searching at the root: a pawn's
// capture only onto a square that may hold a man (and while pawn tries are
// announced), a promotion only to a queen.
func rootMoves(m *metapos.Metaposition, moves []chess.Move, tries int) []chess.Move {
	var out []chess.Move
	for _, mv := range moves {
		if worthSearching(m, mv) && (tries != 0 || !isPawnDiagonal(m, mv)) {
			out = append(out, mv)
		}
	}
	return out
}

func isPawnDiagonal(m *metapos.Metaposition, mv chess.Move) bool {
	return m.Mine.PieceAt(mv.From).Type() == chess.Pawn && mv.From.File() != mv.To.File()
}

// worthSearching: pawn captures need a man that may be there, promotions
// are to a queen.
func worthSearching(m *metapos.Metaposition, mv chess.Move) bool {
	if isPawnDiagonal(m, mv) && m.Sq[mv.To]&metapos.Men == 0 {
		return false
	}
	if m.Mine.PieceAt(mv.From).Type() == chess.Pawn && (mv.To.Rank() == 0 || mv.To.Rank() == 7) {
		return mv.Promotion == chess.Queen
	}
	return true
}

// search is one decision's weighed maximax.
type search struct {
	cfg      DarkboardConfig
	deadline time.Time
	ctx      context.Context
	nodes    int
	stop     bool
	// checked is the count of nodes at the last look at the clock.
	checked int
}

// stopped reports whether the deadline or the context has passed, looking
// at the clock once 256 nodes have been searched since the last look. (It
// is not called at the leaves: a test of nodes%256 == 0 here, where the
// count is rarely a multiple of 256, let a search run far past its time.)
func (s *search) stopped() bool {
	if !s.stop && s.nodes-s.checked >= 256 {
		s.checked = s.nodes
		s.stop = s.ctx.Err() != nil || !time.Now().Before(s.deadline)
	}
	return s.stop
}

// value is the paper's value(M, move, depth): the simulated referee's
// answer to our move, its evaluation, and below it, after the opponent's
// metamove, the best of our next moves, weighed by Alpha.
func (s *search) value(m *metapos.Metaposition, mv chess.Move, depth int) float64 {
	s.nodes++
	after, captured := m.Simulate(mv)
	v := evaluate(m, mv, &after, captured)
	if depth <= 1 || math.IsInf(v, 0) || s.stopped() {
		return v
	}
	next := after.Metamove()
	var buf [256]chess.Move
	best := math.Inf(-1)
	for _, x := range next.Mine.AppendMoveActions(buf[:0]) {
		if !worthSearching(&next, x) || (isPawnDiagonal(&next, x) && !next.Certain().Has(x.To)) {
			continue // the simulated opponent never gives us pawn tries
		}
		best = max(best, s.value(&next, x, depth-1))
		if s.stop {
			break
		}
	}
	if math.IsInf(best, -1) {
		return v
	}
	return s.cfg.Alpha*v + (1-s.cfg.Alpha)*best
}

// theirPiece is what the opponent's piece of unknown kind is worth: the
// mean of its seven pieces at the start.
const theirPiece = (2*300 + 2*310 + 2*500 + 900) / 7.0

// evaluate scores the metaposition after our move mv (the opponent to
// move), in centipawns for us: the paper's three parts.
func evaluate(before *metapos.Metaposition, mv chess.Move, after *metapos.Metaposition, captured bool) float64 {
	return material(after) + safety(after, mv) + position(after) + information(before, after, captured, mv)
}

// material is our men's value less the opponent's, whose pieces are known
// only by count (a capture is announced as pawn or piece).
func material(m *metapos.Metaposition) float64 {
	v := 0.0
	for t := chess.Pawn; t < chess.King; t++ {
		v += metapos.PieceValue[t] * float64(m.Mine.PiecesOf(m.Us, t).Count())
	}
	pawns := min(m.PawnsAtMost, m.Left)
	return v - 100*float64(pawns) - theirPiece*float64(m.Left-pawns)
}

// safety is the material-safety part: for each of our men, what it may
// lose on the opponent's move, by the pseudopieces that may attack it (a man
// certainly there counts in full, a man that may be there half, less the
// older our knowledge of the square is not: a fresh square is likelier
// empty); a defended man risks only the exchange's difference. The largest
// risk counts in full, the rest a quarter, and the man just moved is
// riskier (it walked into what it cannot see).
func safety(m *metapos.Metaposition, moved chess.Move) float64 {
	own := m.Mine.Occupied()
	blockers := own | m.Certain()
	worst, rest := 0.0, 0.0
	for bb := m.Mine.Pieces(m.Us) &^ m.Mine.PiecesOf(m.Us, chess.King); bb != 0; {
		s := bb.PopFirst()
		t := m.Mine.PieceAt(s).Type()
		danger, cheapest := threat(m, s, blockers)
		if danger == 0 {
			continue
		}
		loss := danger * metapos.PieceValue[t]
		if m.Mine.Attacked(s, m.Us) {
			loss = danger * max(metapos.PieceValue[t]-cheapest, 0.1*metapos.PieceValue[t])
		}
		if s == moved.To {
			loss *= 1.25
		}
		if loss > worst {
			worst, rest = loss, rest+worst
		} else {
			rest += loss
		}
	}
	return -(worst + rest/4)
}

// threat returns how likely the man on s is to be taken by the opponent's
// next move (0 to 1) and the value of the cheapest man that may take it.
func threat(m *metapos.Metaposition, s chess.Square, blockers chess.Bitboard) (danger, cheapest float64) {
	cheapest = math.Inf(1)
	consider := func(from chess.Square, t chess.PieceType) {
		k := m.Sq[from]
		if !k.Has(t) {
			return
		}
		d := 0.9
		if k.MayBeEmpty() {
			d = 0.35
		}
		danger = max(danger, d)
		cheapest = min(cheapest, metapos.PieceValue[t])
	}
	for bb := chess.PawnAttacks(m.Us, s); bb != 0; {
		consider(bb.PopFirst(), chess.Pawn)
	}
	for bb := chess.KnightAttacks(s); bb != 0; {
		consider(bb.PopFirst(), chess.Knight)
	}
	if !m.Mine.Attacked(s, m.Us) {
		for bb := chess.KingAttacks(s); bb != 0; {
			consider(bb.PopFirst(), chess.King)
		}
	}
	for bb := chess.BishopAttacks(s, blockers) &^ m.Mine.Occupied(); bb != 0; {
		from := bb.PopFirst()
		if pathMayBeEmpty(m, chess.Between(from, s)) {
			consider(from, chess.Bishop)
			consider(from, chess.Queen)
		}
	}
	for bb := chess.RookAttacks(s, blockers) &^ m.Mine.Occupied(); bb != 0; {
		from := bb.PopFirst()
		if pathMayBeEmpty(m, chess.Between(from, s)) {
			consider(from, chess.Rook)
			consider(from, chess.Queen)
		}
	}
	if math.IsInf(cheapest, 1) {
		cheapest = 0
	}
	return danger, cheapest
}

// pathMayBeEmpty reports whether every square of path may be empty.
func pathMayBeEmpty(m *metapos.Metaposition, path chess.Bitboard) bool {
	for path != 0 {
		if !m.Sq[path.PopFirst()].MayBeEmpty() {
			return false
		}
	}
	return true
}

// position is the positional part: pawns' advance (worth more when our
// mating material is short), a bonus for each queen, the squares our men
// control where the opponent's men may stand (a man there will be taken
// or must leave), and, once the opponent is down to a few men, the mating
// term: the pseudo-king's squares few and at the edge, our king near them;
// less our king's open lines while the opponent has men to use them, and
// the risk of a stalemate (against pawns at most: fewer squares hemmed in,
// no third queen).
func position(m *metapos.Metaposition) float64 {
	us := m.Us
	v := 0.0
	heavy := m.Mine.PiecesOf(us, chess.Queen).Count() + m.Mine.PiecesOf(us, chess.Rook).Count()
	pawnWeight := 1.0
	if heavy == 0 {
		pawnWeight = 2
	}
	for bb := m.Mine.PiecesOf(us, chess.Pawn); bb != 0; {
		v += pawnWeight * metapos.Advance(us, bb.PopFirst())
	}
	// A queen more is a bonus, up to two: more queens than that only
	// cover the squares a lone king needs not to be stalemated.
	queens := m.Mine.PiecesOf(us, chess.Queen).Count()
	v += 50 * float64(min(queens, 2))
	occ := m.Mine.Occupied()
	var control chess.Bitboard
	for bb := m.Mine.Pieces(us) &^ m.Mine.PiecesOf(us, chess.King); bb != 0; {
		s := bb.PopFirst()
		control |= chess.AttacksFrom(m.Mine.PieceAt(s), s, occ)
	}
	for bb := control &^ occ; bb != 0; {
		s := bb.PopFirst()
		if m.Sq[s]&metapos.Men != 0 {
			v += 3
		} else {
			v++
		}
	}
	if k := m.Mine.KingSquare(us); k.Valid() && m.Left >= 4 {
		// Our king's open lines: a blind opponent's random checks and
		// mates come along them.
		v -= 5 * float64((chess.QueenAttacks(k, occ) &^ occ).Count())
	}
	if m.Left <= 3 && heavy > 0 {
		v += mating(m, control|chess.AttacksFrom(chess.MakePiece(us, chess.King), m.Mine.KingSquare(us), occ))
	}
	return v
}

// information is the information part: the change of the chessboard's
// entropy from before our move to after it, each square's uncertainty the
// age of what we know of it, counted only where it is unsure (it may be
// empty and may hold a man); squares on our half weigh double, where the
// opponent's men are most dangerous, our second rank most. A move that
// crosses old squares lowers the entropy. A probe onto a square that may
// hold a man gains a little of what it may find.
func information(before, after *metapos.Metaposition, captured bool, mv chess.Move) float64 {
	v := -2 * (entropy(after) - entropy(before))
	if k := before.Sq[mv.To]; !captured && k&metapos.Men != 0 {
		least := math.Inf(1)
		for t := chess.Pawn; t < chess.King; t++ {
			if k.Has(t) {
				least = min(least, metapos.PieceValue[t])
			}
		}
		share := 0.15
		if after.Left <= 2 {
			share = 0.5 // the last men: each one found brings the mate nearer
		}
		if !math.IsInf(least, 1) {
			v += share * least
		}
	}
	return v
}

// entropy is the age-weighted uncertainty of the board (information).
func entropy(m *metapos.Metaposition) float64 {
	e := 0.0
	for s := range chess.Square(64) {
		k := m.Sq[s]
		if !k.MayBeEmpty() || k&metapos.Men == 0 {
			continue
		}
		w := 1.0
		r := s.Rank()
		if m.Us == chess.Black {
			r = 7 - r
		}
		switch {
		case r == 1:
			w = 3
		case r < 4:
			w = 2
		}
		e += w * math.Log1p(float64(m.Age[s]))
	}
	return e
}

// mating is the mating term, once the opponent has three men or fewer
// besides its king: the pseudo-king's squares few, far from the centre and
// near our king, with few squares to go to. Where the opponent has pawns
// at most, each of its squares with the pattern of a stalemate (the king
// not attacked, with nowhere to go) costs 150, up to 600: without it the
// player, far ahead, hemmed lone kings in with queens and drew a quarter of
// its won games (a reward for the pattern of a mate, tried beside it, drew
// more: the two patterns differ only by the check, which the search's
// referee never announces).
func mating(m *metapos.Metaposition, control chess.Bitboard) float64 {
	kings := m.Possible(chess.King)
	n := float64(kings.Count())
	if n == 0 {
		return 0
	}
	ours := m.Mine.KingSquare(m.Us)
	occ := m.Mine.Occupied()
	v := -4 * n
	pawnsOnly := onlyPawns(m)
	stuck := 0
	for bb := kings; bb != 0; {
		s := bb.PopFirst()
		free := (chess.KingAttacks(s) &^ control &^ occ).Count()
		w := 8*metapos.CentreDistance(s) - 3*metapos.Distance(s, ours) - 6*float64(free)
		v += w / n
		if free == 0 && pawnsOnly && !control.Has(s) {
			stuck++
		}
	}
	return v - float64(min(150*stuck, 600))
}

// onlyPawns reports whether the opponent has at most pawns besides its king.
func onlyPawns(m *metapos.Metaposition) bool { return m.Left <= min(m.PawnsAtMost, m.Left) }

// finish looks at the endings the search cannot see, once the opponent's
// men besides its king are all known pawns (each on a square that holds
// nothing else): the boards are then our men, those pawns and the king on
// each of its squares, few enough to play every move on. A move that mates
// on every board it is legal on goes first; a move that stalemates on any
// board goes last (the search's referee never announces the end of a game,
// and the player drew won games by stalemate). Otherwise order is kept.
func finish(m *metapos.Metaposition, order []chess.Move) []chess.Move {
	boards, ok := endingBoards(m)
	if !ok {
		return order
	}
	var mates, rest, stalemates []chess.Move
	for _, mv := range order {
		legal, mate, stale := 0, 0, 0
		for i := range boards {
			b := &boards[i]
			if !chess.IsLegal(b, mv) {
				continue
			}
			legal++
			after := *b
			after.Apply(mv)
			switch {
			case chess.IsCheckmate(&after):
				mate++
			case chess.IsStalemate(&after):
				stale++
			}
		}
		switch {
		case stale > 0:
			stalemates = append(stalemates, mv)
		case legal > 0 && mate == legal:
			mates = append(mates, mv)
		default:
			rest = append(rest, mv)
		}
	}
	return append(append(mates, rest...), stalemates...)
}

// endingBoards returns the boards of finish, with us to move, and false
// when the opponent's men are not all known pawns or the king has more
// than 40 squares.
func endingBoards(m *metapos.Metaposition) ([]chess.Board, bool) {
	if !onlyPawns(m) {
		return nil, false
	}
	pawns := m.Possible(chess.Pawn)
	if pawns.Count() != m.Left {
		return nil, false
	}
	for bb := pawns; bb != 0; {
		if m.Sq[bb.PopFirst()] != metapos.KindOf(chess.Pawn) {
			return nil, false
		}
	}
	kings := m.Possible(chess.King) &^ pawns
	if kings == 0 || kings.Count() > 40 {
		return nil, false
	}
	them := m.Them()
	base := m.Mine
	for bb := pawns; bb != 0; {
		base.SetPiece(bb.PopFirst(), chess.MakePiece(them, chess.Pawn))
	}
	var boards []chess.Board
	for bb := kings; bb != 0; {
		s := bb.PopFirst()
		b := base
		b.SetPiece(s, chess.MakePiece(them, chess.King))
		if b.Attacked(s, m.Us) {
			continue // its king in check on our move: not this game
		}
		boards = append(boards, b)
	}
	return boards, len(boards) > 0
}
