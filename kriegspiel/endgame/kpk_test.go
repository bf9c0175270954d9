package endgame

import (
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// sq parses a square's name.
func sq(s string) chess.Square { return chess.MakeSquare(int(s[0]-'a'), int(s[1]-'1')) }

// TestKPKTable checks the table against textbook positions of the ending.
// kpkPlacements calls f for every placement of our king k, pawn p (White)
// and the enemy king e that may stand with us to move.
func kpkPlacements(f func(k, p, e chess.Square)) {
	for k := chess.Square(0); k < 64; k++ {
		for p := chess.A2; p <= chess.H7; p++ {
			for e := chess.Square(0); e < 64; e++ {
				if k == p || k == e || p == e || chess.KingAttacks(k).Has(e) || chess.PawnAttacks(chess.White, p).Has(e) {
					continue
				}
				f(k, p, e)
			}
		}
	}
}

// TestKPKTable checks the table against facts of the ending: about three
// placements in four are won with the pawn's side to move, the longest
// takes 19 moves to promote, and textbook positions.
func TestKPKTable(t *testing.T) {
	tb := kpk()
	won, all, longest := 0, 0, 0
	kpkPlacements(func(k, p, e chess.Square) {
		all++
		if v := tb.us[kpkIndex(k, p, e)]; v != kpkDraw {
			won++
			longest = max(longest, int(v))
		}
	})
	// Six of them are won only by promoting to a rook (the queen would
	// stalemate).
	if all != 163328 || won != 124960 || longest != 19 {
		t.Errorf("%d of %d placements won, longest %d moves; want 124960 of 163328, 19", won, all, longest)
	}
	const draw = kpkDraw
	for _, c := range []struct {
		name     string
		k, p, e  string
		us, them int // the value with us to move, with the king to move; -1: won, any distance
	}{
		{"the king on the sixth ahead of its pawn wins", "e6", "e5", "e8", -1, -1},
		{"the rook pawn with the king in the corner draws", "h6", "h5", "h8", draw, draw},
		{"the opposition: whoever moves loses it", "e5", "e4", "e7", draw, -1},
		{"the king to move is stalemated", "e6", "e7", "e8", -1, draw},
		{"the promotion wins at once", "a1", "b7", "h8", 1, -1},
		{"the queen's promotion stalemates, a rook's wins", "a4", "b7", "a6", 1, draw},
		{"the queen's promotion stalemates, a rook's wins, on the other side", "h5", "f7", "h7", 1, draw},
		{"a king next to an unguarded pawn takes it", "a1", "e4", "d5", draw, draw},
		{"outside the square of a rook pawn, unless the king moves first", "h1", "a5", "e8", 3, draw},
		{"inside the square of a rook pawn", "h1", "a5", "d8", draw, draw},
		{"a pawn on its first rank steps two: inside", "h1", "b2", "g4", draw, draw},
		{"a pawn on its first rank steps two: outside", "h1", "b2", "h4", 5, draw},
	} {
		i := kpkIndex(sq(c.k), sq(c.p), sq(c.e))
		for _, side := range []struct {
			name      string
			got, want int
		}{{"us", int(tb.us[i]), c.us}, {"the king", int(tb.them[i]), c.them}} {
			if side.want == -1 && side.got == draw || side.want != -1 && side.got != side.want {
				t.Errorf("%s: K%s P%s k%s, %s to move: %d, want %d (-1: won)", c.name, c.k, c.p, c.e, side.name, side.got, side.want)
			}
		}
	}
}

// TestKPKRuleOfTheSquare checks the table against the rule of the square:
// wherever the rule says the pawn runs through, the table wins too, in
// sixteen placements by promoting at once to a rook where the queen would
// stalemate.
func TestKPKRuleOfTheSquare(t *testing.T) {
	tb := kpk()
	ruled, rooks := 0, 0
	kpkPlacements(func(k, p, e chess.Square) {
		if !outsideSquare(chess.White, k, p, e) {
			return
		}
		ruled++
		if tb.us[kpkIndex(k, p, e)] == kpkDraw {
			t.Errorf("K%s P%s k%s: outside the square, but the table draws", k, p, e)
		}
		if p.Rank() == 6 && kpkPromotion(k, p+8, e) == chess.Rook {
			rooks++
		}
	})
	if ruled == 0 || rooks != 16 {
		t.Errorf("%d placements outside the square, %d won by a rook's promotion; want 16", ruled, rooks)
	}
}

// The KPK harness: random placements of our king and pawn against the
// lone king, White to move, with the king's square known or one of a small
// set; a placement counts as won when the table wins it for every square of
// that set, and only those are played.

// kpkBelief is how much White knows of the king's square at the start.
type kpkBelief struct {
	name string
	// squares returns the starting set for the king on e.
	squares func(e chess.Square) chess.Bitboard
}

var kpkBeliefs = []kpkBelief{
	{"known", func(e chess.Square) chess.Bitboard { return e.Bit() }},
	{"near", func(e chess.Square) chess.Bitboard { return e.Bit() | chess.KingAttacks(e) }},
}

// kpkStart is a generated start: its FEN, the starting belief (the squares
// of the kpkBelief's set that the start allows) and whether the table wins
// it for every one of them.
type kpkStart struct {
	fen    string
	belief chess.Bitboard
	won    bool
}

// randomKPK returns a legal placement of White's king and pawn against
// Black's lone king, White to move, not over, with its belief under kb.
func randomKPK(rng *rand.Rand, kb kpkBelief) kpkStart {
	for {
		sq := rng.Perm(64)
		k, p, e := chess.Square(sq[0]), chess.Square(sq[1]), chess.Square(sq[2])
		if p.Rank() == 0 || p.Rank() == 7 {
			continue
		}
		b := chess.MustParseFEN("8/8/8/8/8/8/8/8 w - - 0 1")
		b.SetPiece(k, chess.MakePiece(chess.White, chess.King))
		b.SetPiece(p, chess.MakePiece(chess.White, chess.Pawn))
		b.SetPiece(e, chess.MakePiece(chess.Black, chess.King))
		if chess.Attackers(&b, e, chess.White) != 0 {
			continue
		}
		g, err := kriegspiel.NewGameFromFEN(kriegspiel.Wild16(), b.FEN())
		if err != nil || g.Over() {
			continue
		}
		bl, err := NewBelief(kriegspiel.Wild16(), b, chess.NoSquare)
		if err != nil {
			continue
		}
		set := bl.Squares() & kb.squares(e)
		won, _ := kpkWon(chess.White, k, p, set)
		return kpkStart{fen: b.FEN(), belief: set, won: won}
	}
}

// runKPK generates n starts under kb and plays the won ones out under rules
// against the defender; it returns their tally and how many were won.
func runKPK(tb testing.TB, rules kriegspiel.Ruleset, kb kpkBelief, mk func(*rand.Rand) defender, n int, seed uint64) (t *tally, won int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	t = &tally{}
	for i := range n {
		s := randomKPK(rng, kb)
		if !s.won {
			continue
		}
		won++
		p := playFrom(rules, s.fen, s.belief, mk(rand.New(rand.NewPCG(seed, uint64(i)))), seed+uint64(i), kpkLimit)
		if p.end != kriegspiel.CheckmateWhiteWins || p.missed || p.declined || p.err != nil {
			tb.Logf("%s %s %v (placement %d) vs %s: %s after %d moves: missed %v declined %v taken %v err %v", rules.Name, s.fen,
				s.belief.Squares(), i, mk(rng).name(), p.end, p.moves, p.missed, p.declined, p.taken, p.err)
		}
		t.add(p)
	}
	return t, won
}

// kpkLimit bounds a KPK game's White moves: the pawn's run, then the queen's
// mate (the fifty-move rule ends a slower game first).
const kpkLimit = 150

// TestKPKConverts plays generated KPK placements that the table wins for
// every square of the starting belief out against both defenders under
// both rulesets, and checks that the belief holds the king throughout and
// that all but at most one game per case are mated (BenchmarkKPK
// measures the rate on many more: a placement won for every square is not
// always won over the belief, which the king's unseen moves spread, so the
// adversary, which sees the board, draws about one game in a hundred).
func TestKPKConverts(t *testing.T) {
	for _, rules := range rulesets()[:2] {
		for _, kb := range kpkBeliefs {
			for _, mk := range []func(*rand.Rand) defender{
				func(r *rand.Rand) defender { return randomDefender{r} },
				func(r *rand.Rand) defender { return adversary{r} },
			} {
				t.Run(rules.Name+"/"+kb.name+"/"+mk(nil).name(), func(t *testing.T) {
					tl, won := runKPK(t, rules, kb, mk, games(12), 5)
					if won == 0 && !testing.Short() {
						t.Fatalf("no won placement among %d", games(12))
					}
					if tl.mates < tl.games-1 || tl.missed > 0 || tl.declined > 0 {
						t.Errorf("%s", tl)
					}
				})
			}
		}
	}
}

// TestKPKTraps replays games the planner once drew: a king move that
// stalemates the king in the corner (a score the search read as safe), a
// pawn pushed while the adversary stood where it could take it (the
// planner gave up waiting too soon, while its king was still walking up),
// a draw by repetition while a far, random king could be anywhere, and one
// against the adversary when every other try lost on some square a few
// moves on (a loss at once scored the same as a later one). The defender's
// stream and the tracker's seed are those the games were played with (the
// last is BenchmarkKPK' 145th known placement), and three games where the
// planner repeated the position a third time or gambled to avoid it.
func TestKPKTraps(t *testing.T) {
	for _, c := range []struct {
		name, fen string
		known     chess.Bitboard
		adversary bool
		// stream seeds the defender (seed, stream), seed the tracker.
		seed, stream, tracker uint64
	}{
		{"stalemate in the corner", "8/kPK5/8/8/8/8/8/8 w - - 0 1", chess.A7.Bit(), true, 1, 7, 1},
		{"the pawn taken", "8/8/8/8/8/7k/4P3/4K3 w - - 0 1", chess.H3.Bit(), true, 1, 7, 1},
		{"repetition", "8/8/8/7k/1K1P4/8/8/8 w - - 0 1", chess.H5.Bit() | chess.KingAttacks(chess.H5), false, 1, 7, 1},
		{"a loss later", "8/8/8/4k3/8/1P6/1K6/8 w - - 0 1", chess.E5.Bit(), true, 1, 145, 146},
		// Seed 2's 89th, 169th and 175th known placements: the knight's
		// pawn against a king in its corner, where the planner's safe
		// king moves went round in a circle and the only move that kept
		// the pawn won stood the position a third time (the search did
		// not know it), or took a risk to avoid it.
		{"a third repetition", "8/3K4/k7/8/8/1P6/8/8 w - - 0 1", chess.A6.Bit(), true, 2, 89, 91},
		{"a third repetition, from afar", "3k4/8/8/8/8/8/1P6/1K6 w - - 0 1", chess.D8.Bit(), true, 2, 169, 171},
		{"a risk to avoid a repetition", "8/8/8/5k2/8/8/1P1K4/8 w - - 0 1", chess.F5.Bit(), true, 2, 175, 177},
		// Seed 2's 144th known placement: a king known at the start and
		// then unseen for eight moves while our king escorts the pawn, so
		// that the belief may hold squares both in front of the pawn and
		// behind it, where no try is safe for all: the pawn is still won
		// against the adversary.
		{"unseen in front and behind, the pawn at home", "8/8/8/8/8/2k5/5KP1/8 w - - 0 1", chess.C3.Bit(), true, 2, 144, 146},
		// Seed 5's 587th and 698th known placements: one move after the
		// king was known, every try draws on some square it may have
		// stepped to (a push leaves the pawn to a king beside it, our
		// king's step to another), and the planner, waiting for a safe
		// try that could not come, gave the pawn away on the likeliest
		// square.
		{"no safe try, a move after the king was seen", "8/8/2K5/8/8/7k/5P2/8 w - - 0 1", chess.H3.Bit(), true, 5, 587, 592},
		{"no safe try, beside the pawn on its sixth", "3k4/8/8/6P1/3K4/8/8/8 w - - 0 1", chess.D8.Bit(), true, 5, 698, 703},
		// Seed 6's 596th known placement: our king went d4, c4, d4, c4
		// while the king stood on c6 and d6, and the king's step made
		// the position with us to move a third time, which the search
		// did not count (it counted only those its own moves make).
		{"a third repetition by the king's step", "8/8/8/8/8/6k1/2P5/2K5 w - - 0 1", chess.G3.Bit(), true, 6, 596, 602},
		// Seed 2's 78th and 188th and seed 6's 27th known placements: the
		// pawn reaches its fifth rank with our king beside it while the
		// adversary, unseen for several moves, waits on the promotion
		// rank; once no try is safe, a guess mostly of a wandering king
		// weighed the squares in front of the pawn at a few per cent and
		// the king stood on one. The referee's answers tell how much the
		// king behaves like one that knows the ending (see weigh).
		{"a knowing king in front, the pawn on the fifth", "8/8/7k/4P3/8/1K6/8/8 w - - 0 1", chess.H6.Bit(), true, 2, 78, 80},
		{"a knowing king in front, the pawn at home", "8/8/8/8/8/3k1K2/5P2/8 w - - 0 1", chess.D3.Bit(), true, 2, 188, 190},
		{"a knowing king in front, the king far", "8/8/4k3/K7/8/2P5/8/8 w - - 0 1", chess.E6.Bit(), true, 6, 27, 33},
		// Seed 7's 88th near placement and seed 6's 266th known one: the
		// planner took a try that draws at once on a square the king may
		// be on (our king steps off the pawn it guards), where another
		// keeps every square won until our next turn and risks only
		// squares a move later; the king took the pawn.
		{"a loss now for a feared one later", "8/8/8/6k1/8/K1P5/8/8 w - - 0 1", chess.G5.Bit() | chess.KingAttacks(chess.G5), true, 7, 88, 95},
		{"a loss now for a feared one later, the king known", "8/8/8/k7/3P3K/8/8/8 w - - 0 1", chess.A5.Bit(), true, 6, 266, 272},
		// Seed 7's 522nd and 269th near placements: the search scored a
		// try that draws at once on some square by that loss alone, not
		// by what it loses later on the others, and the planner's king
		// went where both came (a repetition, the pawn taken).
		{"what a loss now loses later", "8/8/6k1/8/K7/2P5/8/8 w - - 0 1", chess.G6.Bit() | chess.KingAttacks(chess.G6), true, 7, 522, 529},
		{"what a loss now loses later, the pawn at home", "8/8/8/8/8/3k2P1/7K/8 w - - 0 1", chess.D3.Bit() | chess.KingAttacks(chess.D3), true, 7, 269, 276},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, rules := range rulesets()[:2] {
				var d defender = randomDefender{rand.New(rand.NewPCG(c.seed, c.stream))}
				if c.adversary {
					d = adversary{rand.New(rand.NewPCG(c.seed, c.stream))}
				}
				p := playFrom(rules, c.fen, c.known, d, c.tracker, kpkLimit)
				if p.end != kriegspiel.CheckmateWhiteWins || p.missed || p.err != nil {
					t.Errorf("%s %s: %s after %d moves (taken %v, belief lost %v, err %v)", rules.Name, c.fen, p.end, p.moves, p.taken, p.missed, p.err)
				}
			}
		})
	}
}

// TestKPKNoSafeTry checks the planner where every try draws on some
// square of the belief at once, so that waiting for a safe one is no
// choice: it takes the try that draws only where the king is least
// likely, however few turns it has waited. With our king on d5 and the
// pawn on f2 against a king on g2, h2, g4 or h4, the push f4 loses the
// pawn to a king on g4 and our king's step to e4 loses it to one on g2
// (nothing keeps both); with our king on f5 and the pawn on g6 against
// one on d6, d7, d8, e8 or f8, our king's step to f6 gives a king on e8
// the opposition and the step to e6 leaves the pawn to one on f8.
func TestKPKNoSafeTry(t *testing.T) {
	for _, c := range []struct {
		name, fen string
		weights   map[string]float64
		want      chess.Move
	}{
		{"the king likelier on g4", "8/8/8/3K4/8/8/5P2/8 w - - 2 2", map[string]float64{"g2": 0.1, "h2": 0.1, "g4": 0.7, "h4": 0.1}, chess.Move{From: chess.D5, To: chess.E4}},
		{"the king likelier on g2", "8/8/8/3K4/8/8/5P2/8 w - - 2 2", map[string]float64{"g2": 0.7, "h2": 0.1, "g4": 0.1, "h4": 0.1}, chess.Move{From: chess.F2, To: chess.F4}},
		{"the king likelier on e8", "8/8/6P1/5K2/8/8/8/8 w - - 5 4", map[string]float64{"d6": 0.1, "d7": 0.1, "d8": 0.1, "e8": 0.6, "f8": 0.1}, chess.Move{From: chess.F5, To: chess.E6}},
		{"the king likelier on f8", "8/8/6P1/5K2/8/8/8/8 w - - 5 4", map[string]float64{"d6": 0.1, "d7": 0.1, "d8": 0.1, "e8": 0.1, "f8": 0.6}, chess.Move{From: chess.F5, To: chess.F6}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := chess.MustParseFEN(c.fen)
			mt := NewMater(1)
			var set chess.Bitboard
			for s, w := range c.weights {
				set |= sq(s).Bit()
				mt.knowing[sq(s)], mt.wandering[sq(s)] = w, w // the two kings agree
			}
			mt.knowingShare = kpkKnowingPrior
			mt.weighedAt = b.FullmoveNumber() // the guess is this turn's
			pl := kpkPlan{us: chess.White, t: kpk()}
			if pl.safeNow(&b, set, chess.LegalMoves(&b)) {
				t.Fatalf("%s %v: a try is safe for every square", c.fen, set.Squares())
			}
			got, ok := mt.choosePawn(&b, chess.White, set, chess.LegalMoves(&b))
			if !ok || got != c.want {
				t.Errorf("%s %v: chose %s (ok %v), want %s", c.fen, set.Squares(), got, ok, c.want)
			}
		})
	}
}

// TestKPKPawnTaken checks that a pawn the king takes ends the game drawn
// without troubling the tracker: its belief follows the capture, and the
// playout records it.
func TestKPKPawnTaken(t *testing.T) {
	// The king stands in front of the pawn, which our king cannot reach.
	fen := "8/8/8/8/8/4k3/4P3/K7 w - - 0 1"
	for _, rules := range rulesets()[:2] {
		p := playFrom(rules, fen, chess.E3.Bit(), adversary{rand.New(rand.NewPCG(3, 3))}, 3, kpkLimit)
		if p.end != kriegspiel.DrawInsufficient || !p.taken || p.missed || p.declined || p.err != nil {
			t.Errorf("%s: %s after %d moves (taken %v, belief lost %v, declined %v, err %v)", rules.Name, p.end, p.moves, p.taken, p.missed, p.declined, p.err)
		}
	}
}

// TestKPKAvoidsStalemate checks the planner on every won placement, king
// known, where one of our king's moves would stalemate it: that move is
// judged a draw, and the planner's choice keeps the placement won.
func TestKPKAvoidsStalemate(t *testing.T) {
	tb := kpk()
	pl := kpkPlan{us: chess.White, t: tb}
	mt := NewMater(1)
	checked := 0
	kpkPlacements(func(k, p, e chess.Square) {
		if tb.us[kpkIndex(k, p, e)] == kpkDraw || checked >= games(300) {
			return
		}
		var stalemating chess.Move
		for to := chess.KingAttacks(k) &^ chess.KingAttacks(e) &^ p.Bit(); to != 0; {
			k2 := to.PopFirst()
			free := chess.KingAttacks(e) &^ chess.KingAttacks(k2) &^ chess.PawnAttacks(chess.White, p)
			if free == 0 && !chess.PawnAttacks(chess.White, p).Has(e) {
				stalemating = chess.Move{From: k, To: k2}
			}
		}
		if stalemating.IsNull() {
			return
		}
		checked++
		b := chess.MustParseFEN("8/8/8/8/8/8/8/8 w - - 0 1")
		b.SetPiece(k, chess.MakePiece(chess.White, chess.King))
		b.SetPiece(p, chess.MakePiece(chess.White, chess.Pawn))
		set := e.Bit()
		// A draw costs kpkLostCost less the few moves the search looks ahead.
		if v, ok := pl.try(&b, set, stalemating, kpkDepth, kpkRefusals); !ok || v < kpkLostCost/2 {
			t.Errorf("K%s P%s k%s: %s stalemates, judged %v (ok %v)", k, p, e, stalemating, v, ok)
		}
		got, ok := mt.choosePawn(&b, chess.White, set, chess.LegalMoves(&b))
		after := b
		after.Apply(got)
		k2, p2 := after.KingSquare(chess.White), after.PiecesOf(chess.White, chess.Pawn)
		switch {
		case !ok:
			t.Errorf("K%s P%s k%s: no choice", k, p, e)
		case got.Promotion != chess.NoPieceType:
			if !kpkPromotionWins(got.Promotion, k2, got.To, e) {
				t.Errorf("K%s P%s k%s: %s promotes into a draw", k, p, e, got)
			}
		case tb.them[kpkIndex(k2, p2.First(), e)] == kpkDraw:
			t.Errorf("K%s P%s k%s: chose %s, which draws", k, p, e, got)
		}
	})
	if checked == 0 {
		t.Fatal("no placement with a stalemating move")
	}
}

// TestKPKUnderpromotes plays out the six placements that only a rook's
// promotion wins (the queen's would stalemate the king, and any other move
// lets it take the pawn), the king's square known, against
// both defenders under both rulesets: the planner promotes to a rook and
// the rook ending's mater mates.
func TestKPKUnderpromotes(t *testing.T) {
	for _, c := range []struct{ k, p, e string }{
		{"a4", "b7", "a6"}, {"b4", "b7", "a6"}, {"g4", "g7", "h6"},
		{"h4", "g7", "h6"}, {"a5", "c7", "a7"}, {"h5", "f7", "h7"},
	} {
		b := chess.MustParseFEN("8/8/8/8/8/8/8/8 w - - 0 1")
		b.SetPiece(sq(c.k), chess.MakePiece(chess.White, chess.King))
		b.SetPiece(sq(c.p), chess.MakePiece(chess.White, chess.Pawn))
		b.SetPiece(sq(c.e), chess.MakePiece(chess.Black, chess.King))
		for _, rules := range rulesets()[:2] {
			for i, d := range []defender{randomDefender{rand.New(rand.NewPCG(4, 4))}, adversary{rand.New(rand.NewPCG(4, 4))}} {
				p := playFrom(rules, b.FEN(), sq(c.e).Bit(), d, 4+uint64(i), kpkLimit)
				if p.end != kriegspiel.CheckmateWhiteWins || p.missed || p.declined || p.err != nil {
					t.Errorf("%s %s vs %s: %s after %d moves (taken %v, belief lost %v, declined %v, err %v)",
						rules.Name, b.FEN(), d.name(), p.end, p.moves, p.taken, p.missed, p.declined, p.err)
				}
			}
		}
	}
}

// TestMaterRepeats checks that a placement of our men made a third time
// draws on the squares the king may have stood on both times before, and
// only there.
func TestMaterRepeats(t *testing.T) {
	mt := NewMater(1)
	after := chess.MustParseFEN("8/8/8/8/1P6/2K5/8/8 b - - 1 1")
	mt.Played(&after, chess.A7.Bit()|chess.B7.Bit())
	if got := mt.repeats(&after, chess.A7.Bit()|chess.B7.Bit()|chess.C7.Bit()); got != 0 {
		t.Errorf("after one visit: repeats %v, want none", got.Squares())
	}
	mt.Played(&after, chess.B7.Bit()|chess.C7.Bit())
	if got, want := mt.repeats(&after, chess.A7.Bit()|chess.B7.Bit()|chess.C7.Bit()), chess.B7.Bit(); got != want {
		t.Errorf("after two visits: repeats %v, want %v", got.Squares(), want.Squares())
	}
	other := chess.MustParseFEN("8/8/8/8/1P6/1K6/8/8 b - - 1 1")
	if got := mt.repeats(&other, chess.B7.Bit()); got != 0 {
		t.Errorf("another placement: repeats %v, want none", got.Squares())
	}
}
