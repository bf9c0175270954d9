package sampler

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// losGen draws boards consistent with the latest observations only (Parker,
// Nau & Subrahmanian's last-observation sampling): our own pieces exactly, as
// many opponent pieces as we have not captured, exactly what this turn's sense
// showed, an opponent piece where we were just captured, and what our last
// move result showed about the squares it crossed. The opponent's other pieces
// are placed by a prior that favours where each kind of piece was last seen
// (fading with age), its start squares, and a little of everywhere, so every
// board the latest observations allow has a chance.
//
// It is the fallback of every belief: whatever went wrong before, these boards
// agree with what the player has just been told.
type losGen struct {
	templates map[losTemplate]chess.Board
}

type losTemplate struct {
	turn     chess.Color
	castling chess.Castling
}

// startCounts is each side's material at the start, by piece type.
var startCounts = [chess.King + 1]int{chess.Pawn: 8, chess.Knight: 2, chess.Bishop: 2, chess.Rook: 2, chess.Queen: 1, chess.King: 1}

// losPlan is what one call of generate works from.
type losPlan struct {
	us, them  chess.Color
	turn      chess.Color
	ours      chess.Bitboard
	fixed     [64]chess.Piece // opponent pieces known exactly
	fixedBB   chess.Bitboard
	empty     chess.Bitboard // squares known empty (not ours)
	mustOpp   chess.Bitboard // squares known to hold some opponent piece
	epNotice  chess.Square   // with a notice on our double-pushed pawn: where an en-passant capturer stands
	noticeSq  chess.Square
	total     int // opponent pieces on the board
	counts    [chess.King + 1]int
	unknown   int // captures of unknown type still to take from counts
	prior     [chess.King + 1][64]float64
	ownRights chess.Castling
	oppRights chess.Castling
	ep        chess.Square // our just-made double push (opponent to move)
}

func (g *losGen) plan(k *knowledge) *losPlan {
	p := &losPlan{us: k.color, them: k.color.Other(), noticeSq: chess.NoSquare, epNotice: chess.NoSquare, ep: chess.NoSquare}
	p.turn = p.us
	if k.stage == oppToMove {
		p.turn = p.them
	}
	p.ours = k.own.Pieces(p.us)
	p.ownRights, p.oppRights = k.ownRights, k.oppRights

	if k.sensed {
		for w := k.sense.window &^ p.ours; w != 0; {
			s := w.PopFirst()
			pc := k.sense.pieceAt(s)
			gone := k.stage == oppToMove && s == k.lastMove.square // we captured it (en passant too)
			if pc != chess.NoPiece && pc.Color() == p.them && !gone {
				p.fixed[s] = pc
				p.fixedBB |= s.Bit()
			} else {
				p.empty |= s.Bit()
			}
		}
	}
	if k.stage == oppToMove {
		p.empty |= k.mustEmpty &^ p.ours &^ p.fixedBB
		p.mustOpp |= k.mustOpp &^ p.ours &^ p.fixedBB &^ p.empty
		if t := k.lastMove.taken; !t.IsNull() && k.own.PieceAt(t.To).Type() == chess.Pawn && (t.To-t.From == 16 || t.From-t.To == 16) {
			p.ep = (t.From + t.To) / 2
		}
	} else if s := k.notice; s.Valid() {
		p.noticeSq = s
		// Our pawn that had just made a double push may have been taken en passant.
		if t := k.lastMove.taken; !t.IsNull() && t.To == s && (t.To-t.From == 16 || t.From-t.To == 16) &&
			k.lastMove.requested.From == t.From {
			p.epNotice = (t.From + t.To) / 2
		}
		if !p.fixedBB.Has(s) && !p.empty.Has(s) && p.epNotice == chess.NoSquare {
			p.mustOpp |= s.Bit()
		}
	}

	// Material: what is left after our captures. A seen type is taken off
	// (from the pawns when that type has run out: a promotion).
	p.total = 16 - k.captured
	p.counts = startCounts
	for t := chess.Pawn; t < chess.King; t++ {
		for range k.capturedTypes[t] {
			takePiece(&p.counts, t)
		}
	}
	p.unknown = k.captured
	for t := chess.Pawn; t <= chess.King; t++ {
		p.unknown -= k.capturedTypes[t]
	}

	// The prior of each piece type over the squares.
	for t := chess.Pawn; t <= chess.King; t++ {
		for s := chess.A1; s <= chess.H8; s++ {
			if t == chess.Pawn && (s.Rank() == 0 || s.Rank() == 7) {
				continue
			}
			p.prior[t][s] = 1
		}
	}
	start := chess.StartBoard()
	for s := chess.A1; s <= chess.H8; s++ {
		if pc := start.PieceAt(s); pc != chess.NoPiece && pc.Color() == p.them && k.seenTurn[s] == 0 {
			p.prior[pc.Type()][s] += 30
		}
		sp := k.lastSeen[s]
		if sp.piece == chess.NoPiece {
			continue
		}
		t := sp.piece.Type()
		age := float64(k.turn - sp.turn)
		p.prior[t][s] += 400 / (1 + age)
		var reach chess.Bitboard
		switch t {
		case chess.Pawn:
			reach = pawnPushes(p.them, s)
		case chess.Knight:
			reach = chess.KnightAttacks(s)
		case chess.Bishop:
			reach = chess.BishopAttacks(s, p.ours)
		case chess.Rook:
			reach = chess.RookAttacks(s, p.ours)
		case chess.Queen:
			reach = chess.QueenAttacks(s, p.ours)
		case chess.King:
			reach = chess.KingAttacks(s)
		}
		for reach != 0 {
			r := reach.PopFirst()
			if p.prior[t][r] > 0 {
				p.prior[t][r] += 40 / (1 + age)
			}
		}
	}
	return p
}

// pawnPushes returns the squares a pawn of colour c on s can push to.
func pawnPushes(c chess.Color, s chess.Square) chess.Bitboard {
	step, startRank := 8, 1
	if c == chess.Black {
		step, startRank = -8, 6
	}
	next := int(s) + step
	if next < 0 || next > 63 {
		return 0
	}
	bb := chess.Square(next).Bit()
	if s.Rank() == startRank {
		bb |= chess.Square(next + step).Bit()
	}
	return bb
}

// takePiece removes one piece of type t from counts, or a pawn (promoted) if
// none is left, or else any non-king piece, so that the total stays right.
func takePiece(counts *[chess.King + 1]int, t chess.PieceType) {
	switch {
	case counts[t] > 0:
		counts[t]--
	case counts[chess.Pawn] > 0:
		counts[chess.Pawn]--
	default:
		for u := chess.Queen; u >= chess.Knight; u-- {
			if counts[u] > 0 {
				counts[u]--
				return
			}
		}
	}
}

// generate draws n boards consistent with the latest observations.
func (g *losGen) generate(k *knowledge, n int, rng *rand.Rand) []chess.Board {
	p := g.plan(k)
	out := make([]chess.Board, 0, n)
	for range n {
		out = append(out, g.draw(k, p, rng))
	}
	return out
}

// distinct draws up to n distinct boards consistent with the latest
// observations (DrawLOS from rbcLastObs). It runs whatever the caller's
// context: no belief leaves the player with nothing, and n draws take
// milliseconds.
func (g *losGen) distinct(k *knowledge, n int, rng *rand.Rand) []chess.Board {
	return DrawLOS(context.Background(), &rbcLastObs{g: g, k: k, p: g.plan(k)}, rng, n, n)
}

// rbcLastObs is RBC's LastObservation: losGen's draws from the plan of the
// latest observations. They agree with those observations by construction
// (TestLOSSupport checks the support), so Fits keeps every one.
type rbcLastObs struct {
	g *losGen
	k *knowledge
	p *losPlan
}

func (o *rbcLastObs) Propose(rng *rand.Rand) (chess.Board, bool) {
	return o.g.draw(o.k, o.p, rng), true
}
func (o *rbcLastObs) Fits(*chess.Board) bool    { return true }
func (o *rbcLastObs) Key(b *chess.Board) uint64 { return b.Key() }

// draw places the opponent's pieces for one board.
func (g *losGen) draw(k *knowledge, p *losPlan, rng *rand.Rand) chess.Board {
	counts := p.counts
	for range p.unknown {
		takePiece(&counts, weightedType(&counts, rng))
	}
	var place [64]chess.Piece
	used := p.ours
	for w := p.fixedBB; w != 0; {
		s := w.PopFirst()
		place[s] = p.fixed[s]
		used |= s.Bit()
		takePiece(&counts, p.fixed[s].Type())
	}
	left := 0
	for _, c := range counts {
		left += c
	}
	left = min(left, p.total-p.fixedBB.Count())
	must := p.mustOpp
	if p.epNotice != chess.NoSquare && !used.Has(p.epNotice) && !p.empty.Has(p.epNotice) && counts[chess.Pawn] > 0 &&
		(rng.IntN(2) == 0 || used.Has(p.noticeSq) || p.empty.Has(p.noticeSq)) {
		place[p.epNotice] = chess.MakePiece(p.them, chess.Pawn)
		used |= p.epNotice.Bit()
		counts[chess.Pawn]--
		left--
	} else if p.noticeSq.Valid() && !used.Has(p.noticeSq) && !p.empty.Has(p.noticeSq) {
		must |= p.noticeSq.Bit()
	}
	// The squares known to hold some opponent piece take a type by the prior.
	for must != 0 && left > 0 {
		s := must.PopFirst()
		if used.Has(s) {
			continue
		}
		var w [chess.King + 1]float64
		total := 0.0
		for t := chess.Pawn; t <= chess.King; t++ {
			if counts[t] > 0 {
				w[t] = p.prior[t][s] * float64(counts[t])
				total += w[t]
			}
		}
		if total == 0 {
			continue
		}
		x := rng.Float64() * total
		t := chess.Pawn
		for ; t < chess.King && x >= w[t]; t++ {
			x -= w[t]
		}
		for counts[t] == 0 {
			t--
		}
		place[s] = chess.MakePiece(p.them, t)
		used |= s.Bit()
		counts[t]--
		left--
	}
	// The rest, the king first, by the prior over the free squares.
	blocked := used | p.empty
	for t := chess.King; t >= chess.Pawn && left > 0; t-- {
		for ; counts[t] > 0 && left > 0; counts[t]-- {
			s := drawSquare(&p.prior[t], blocked, rng)
			if s == chess.NoSquare {
				break
			}
			place[s] = chess.MakePiece(p.them, t)
			blocked |= s.Bit()
			left--
		}
	}

	// Castling rights: ours as known; theirs where king and rook stand at home.
	rights := p.ownRights
	for _, r := range []chess.Castling{chess.WhiteKingside, chess.WhiteQueenside, chess.BlackKingside, chess.BlackQueenside} {
		if p.oppRights&r == 0 {
			continue
		}
		king, rook := castlingHome(r)
		if place[king] == chess.MakePiece(p.them, chess.King) && place[rook] == chess.MakePiece(p.them, chess.Rook) && rng.IntN(8) != 0 {
			rights |= r
		}
	}
	b := g.template(p.turn, rights)
	for s := chess.A1; s <= chess.H8; s++ {
		if pc := k.own.PieceAt(s); pc != chess.NoPiece {
			b.SetPiece(s, pc)
		} else if place[s] != chess.NoPiece {
			b.SetPiece(s, place[s])
		}
	}
	if ep := g.chooseEP(&b, p, rng); ep != chess.NoSquare {
		b = withEP(b, ep)
	}
	return b
}

// chooseEP returns an en-passant square for b when one is plausible and
// usable: after our double push (opponent to move), or, with some chance,
// after an opponent pawn that may just have made one (us to move).
func (g *losGen) chooseEP(b *chess.Board, p *losPlan, rng *rand.Rand) chess.Square {
	if p.turn == p.them {
		return p.ep
	}
	rank, step := 4, 8 // a black pawn that came from the 7th rank
	if p.them == chess.White {
		rank, step = 3, -8
	}
	var cands []chess.Square
	for pawns := b.PiecesOf(p.them, chess.Pawn); pawns != 0; {
		s := pawns.PopFirst()
		if s.Rank() != rank {
			continue
		}
		behind, start := s+chess.Square(step), s+chess.Square(2*step)
		if b.Occupied().Has(behind) || b.Occupied().Has(start) ||
			chess.PawnAttacks(p.them, behind)&b.PiecesOf(p.us, chess.Pawn) == 0 {
			continue
		}
		cands = append(cands, behind)
	}
	if len(cands) == 0 || rng.IntN(4) != 0 {
		return chess.NoSquare
	}
	return cands[rng.IntN(len(cands))]
}

// withEP returns b with its en-passant square set (through its FEN, which
// recomputes the key).
func withEP(b chess.Board, ep chess.Square) chess.Board {
	f := strings.Fields(b.FEN())
	f[3] = ep.String()
	nb, err := chess.ParseFEN(strings.Join(f, " "))
	if err != nil {
		return b
	}
	return nb
}

// castlingHome returns the king's and the rook's home squares for a right.
func castlingHome(r chess.Castling) (king, rook chess.Square) {
	switch r {
	case chess.WhiteKingside:
		return chess.E1, chess.H1
	case chess.WhiteQueenside:
		return chess.E1, chess.A1
	case chess.BlackKingside:
		return chess.E8, chess.H8
	}
	return chess.E8, chess.A8
}

// template returns an empty board with the given side to move and castling
// rights, its key computed by the FEN parser (the rbc package sets these
// fields only that way).
func (g *losGen) template(turn chess.Color, rights chess.Castling) chess.Board {
	key := losTemplate{turn, rights}
	if b, ok := g.templates[key]; ok {
		return b
	}
	side := "w"
	if turn == chess.Black {
		side = "b"
	}
	b := chess.MustParseFEN("8/8/8/8/8/8/8/8 " + side + " " + rights.String() + " - 0 1")
	if g.templates == nil {
		g.templates = make(map[losTemplate]chess.Board)
	}
	g.templates[key] = b
	return b
}

// weightedType draws a piece type in proportion to counts (never the king).
func weightedType(counts *[chess.King + 1]int, rng *rand.Rand) chess.PieceType {
	total := 0
	for t := chess.Pawn; t < chess.King; t++ {
		total += counts[t]
	}
	if total == 0 {
		return chess.Pawn
	}
	x := rng.IntN(total)
	for t := chess.Pawn; t < chess.King; t++ {
		if x < counts[t] {
			return t
		}
		x -= counts[t]
	}
	return chess.Pawn
}

// drawSquare draws a square outside blocked in proportion to weights.
func drawSquare(weights *[64]float64, blocked chess.Bitboard, rng *rand.Rand) chess.Square {
	total := 0.0
	for s := range 64 {
		if !blocked.Has(chess.Square(s)) {
			total += weights[s]
		}
	}
	if total <= 0 {
		return chess.NoSquare
	}
	x := rng.Float64() * total
	last := chess.NoSquare
	for s := range 64 {
		if blocked.Has(chess.Square(s)) || weights[s] == 0 {
			continue
		}
		last = chess.Square(s)
		if x < weights[s] {
			return last
		}
		x -= weights[s]
	}
	return last
}

// consistent reports whether b agrees with the latest observations, the
// support of the boards generate draws from.
func (g *losGen) consistent(k *knowledge, b *chess.Board) bool {
	p := g.plan(k)
	if b.Turn() != p.turn {
		return false
	}
	for t := chess.Pawn; t <= chess.King; t++ {
		if b.PiecesOf(p.us, t) != k.own.PiecesOf(p.us, t) {
			return false
		}
	}
	ourMask := chess.WhiteKingside | chess.WhiteQueenside
	if p.us == chess.Black {
		ourMask = chess.BlackKingside | chess.BlackQueenside
	}
	if b.Castling()&ourMask != p.ownRights || b.Castling()&^ourMask&^p.oppRights != 0 {
		return false
	}
	theirs := b.Pieces(p.them)
	for w := p.fixedBB; w != 0; {
		s := w.PopFirst()
		if b.PieceAt(s) != p.fixed[s] {
			return false
		}
	}
	if theirs&p.empty != 0 || theirs&p.mustOpp != p.mustOpp {
		return false
	}
	if s := p.noticeSq; s.Valid() && !theirs.Has(s) &&
		(p.epNotice == chess.NoSquare || !b.PiecesOf(p.them, chess.Pawn).Has(p.epNotice)) {
		return false
	}
	// One king, or none just after one of our captures (the king's: game over).
	kings := b.PiecesOf(p.them, chess.King).Count()
	kingTaken := k.stage == oppToMove && k.lastMove.square.Valid()
	if theirs.Count() != p.total || kings > 1 || kings == 0 && !kingTaken {
		return false
	}
	pawns := b.PiecesOf(p.them, chess.Pawn)
	if pawns&0xFF000000000000FF != 0 {
		return false
	}
	extra := 0
	for t := chess.Knight; t <= chess.Queen; t++ {
		extra += max(0, b.PiecesOf(p.them, t).Count()-startCounts[t])
	}
	return extra <= 8-pawns.Count()
}

// entropy estimates log2 of the number of boards the latest observations
// allow: the ways to place the unseen opponent pieces on the free squares.
func (g *losGen) entropy(k *knowledge) float64 {
	p := g.plan(k)
	free := 64 - (p.ours | p.fixedBB | p.empty | p.mustOpp).Count()
	m := p.total - p.fixedBB.Count() - p.mustOpp.Count()
	if m <= 0 || free <= 0 {
		return 0
	}
	m = min(m, free)
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	// Ordered placements, divided by the orders of identical pieces (taken as
	// the start material's proportions).
	bitsVal := lg(free) - lg(free-m)
	counts := p.counts
	left := 0
	for _, c := range counts {
		left += c
	}
	for t := chess.Pawn; t <= chess.King; t++ {
		if left > 0 {
			bitsVal -= lg(counts[t] * m / left)
		}
	}
	return max(0, bitsVal/math.Ln2)
}

// los is the last-observation-sampling belief: a fresh set of boards drawn
// after every observation. Contains reports whether a board is among those
// drawn, like the other sampling beliefs, so that recall compares them fairly
// (every board the latest observations allow could be drawn: see
// TestLOSSupport).
type los struct {
	opts  Options
	know  knowledge
	gen   losGen
	rng   *rand.Rand
	pool  []chess.Board
	stats BeliefStats
}

func newLOS(opts Options) Sampler {
	return &los{opts: opts, rng: rand.New(rand.NewPCG(opts.Seed, 0x6c6f73))}
}

func (l *los) Name() string { return "los" }
func (l *los) Workers() int { return 1 }

func (l *los) refresh() {
	l.pool = l.gen.distinct(&l.know, l.opts.PoolSize, l.rng)
	l.stats.MaxBoards = max(l.stats.MaxBoards, len(l.pool))
}

func (l *los) HandleGameStart(ctx context.Context, color chess.Color, board chess.Board) error {
	l.know.start(color, board)
	l.stats = BeliefStats{}
	l.pool = []chess.Board{board}
	l.stats.MaxBoards = 1
	return nil
}

func (l *los) HandleOpponentMoveResult(ctx context.Context, captured bool, square chess.Square) error {
	if !captured {
		square = chess.NoSquare
	}
	l.know.onNotice(square)
	l.refresh()
	return nil
}

func (l *los) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) error {
	f, err := newSenseFilter(result)
	if err != nil {
		return err
	}
	l.know.onSense(f)
	l.refresh()
	return nil
}

func (l *los) HandleMoveResult(ctx context.Context, requested, taken chess.Move, captured bool, square chess.Square) error {
	if !captured {
		square = chess.NoSquare
	}
	l.know.onMove(observation{kind: obsMove, square: square, requested: requested, taken: taken})
	l.refresh()
	return nil
}

func (l *los) Sample(ctx context.Context, n int, rng *rand.Rand) ([]Weighted, error) {
	return samplePool(l.pool, nil, n, rng), nil
}

func (l *los) ForEach(ctx context.Context, fn func(worker int, boards []chess.Board, weights []float64) error) error {
	return fn(0, l.pool, nil)
}

func (l *los) Size() Size       { return Size{Boards: len(l.pool)} }
func (l *los) Entropy() float64 { return l.gen.entropy(&l.know) }
func (l *los) Contains(b *chess.Board) bool {
	k := b.Key()
	for i := range l.pool {
		if l.pool[i].Key() == k {
			return true
		}
	}
	return false
}
func (l *los) Stats() BeliefStats { return l.stats }
func (l *los) Close() error       { return nil }

// samplePool draws about n boards from a pool. Unweighted pools (weights nil)
// give n distinct boards of equal weight. Weighted pools give every board
// when n covers them, and otherwise n systematic draws in proportion to the
// weights, repeated draws merged, each board weighing its share of the draws.
// The returned weights sum to one.
func samplePool(pool []chess.Board, weights []float64, n int, rng *rand.Rand) []Weighted {
	if n <= 0 || len(pool) == 0 {
		return nil
	}
	var out []Weighted
	switch {
	case weights == nil && n >= len(pool):
		for i := range pool {
			out = append(out, Weighted{Board: pool[i], Weight: 1})
		}
	case weights == nil:
		for _, i := range rng.Perm(len(pool))[:n] {
			out = append(out, Weighted{Board: pool[i], Weight: 1})
		}
	default:
		total, positive := 0.0, 0
		for _, w := range weights {
			if w > 0 {
				total += w
				positive++
			}
		}
		if total == 0 {
			return nil
		}
		if n >= positive {
			for i, w := range weights {
				if w > 0 {
					out = append(out, Weighted{Board: pool[i], Weight: w})
				}
			}
			break
		}
		step := total / float64(n)
		x := rng.Float64() * step
		acc := 0.0
		for i, w := range weights {
			acc += w
			draws := 0
			for x < acc {
				draws++
				x += step
			}
			if draws > 0 {
				out = append(out, Weighted{Board: pool[i], Weight: float64(draws)})
			}
		}
	}
	total := 0.0
	for i := range out {
		total += out[i].Weight
	}
	for i := range out {
		out[i].Weight /= total
	}
	return out
}
