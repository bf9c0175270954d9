package players

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator/embedded"
	"github.com/blindfish-rbc/blindfish/invisible"
)

// AdvisorConfig is the paper's program's settings.
type AdvisorConfig struct {
	// Hide and Seek are the weights of the move-hide and move-seek
	// advisors against the strategic advisor's (weight 1, its utility in
	// pawns).
	Hide, Seek float64
	// Depth is the strategic search's depth in plies, the try itself the
	// first (1: the try, then a capture search).
	Depth int
	// Boards is the most possible boards scored, the most probable first
	// (0: all). The paper enumerates all; the cap keeps a decision within
	// its time when two invisible pieces have spread over a thousand
	// placements, and the boards left out are the least probable.
	Boards int
	// Repeat is the pawns taken off a try for each earlier time the board
	// it leads to (as the player sees it) arose: the paper's program ran GNU
	// Chess, which knows repetitions; without this two advisors shuffle
	// into a drawn repetition in most games.
	Repeat float64
	// Noise is the spread, in pawns, of a random term added to each try's
	// sum, so that two deterministic programs do not play one game over
	// and over; far below any real difference of the strategic advisor.
	Noise float64
	// Model is the opponent model of the player's belief (invisible.Model):
	// the paper's uniform one unless set.
	Model invisible.Model
	// Risk is the weight, in [0, 1], of a try's worst board in its
	// strategic utility, against the belief's expectation: the
	// expectation takes a try that loses the queen on one board in five
	// for a pawn on the other four, and the opponent's pieces are not
	// where a uniform spread puts them but where they hurt (0: the
	// paper's expectation alone).
	Risk float64
}

// DefaultAdvisor is the paper's strategic advisor alone at depth 1.
var DefaultAdvisor = AdvisorConfig{Depth: 1, Boards: 0, Repeat: 0.5, Noise: 0.05}

// Advisor is the paper's maximiser: it scores every try on every possible
// board with the strategic advisor, adds the hide and seek advisors'
// utilities by their weights, and tries the best.
type Advisor struct {
	cfg  AdvisorConfig
	log  *slog.Logger
	rng  *rand.Rand
	tr   *invisible.Tracker
	hide *hideModel
	// tried are this turn's illegal tries, never tried again.
	tried map[chess.Move]bool
	// seen counts the views the game has passed through.
	seen map[uint64]int
	s    searcher
	buf  []chess.Move
	// Decisions counts the tries chosen, Spent the time spent choosing
	// them (for the speed benchmark and the logs).
	Decisions int
	Spent     time.Duration
}

// NewAdvisor returns the paper's program with cfg.
func NewAdvisor(cfg AdvisorConfig, seed int64, log *slog.Logger) *Advisor {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.Depth < 1 {
		cfg.Depth = 1
	}
	return &Advisor{cfg: cfg, log: log, rng: rand.New(rand.NewPCG(uint64(seed), 0x496e7669)), tried: map[chess.Move]bool{}, seen: map[uint64]int{}}
}

// Tracker is the player's knowledge of the game (nil before it starts).
func (p *Advisor) Tracker() *invisible.Tracker { return p.tr }

// HandleGameStart starts the tracker and the hide model.
func (p *Advisor) HandleGameStart(_ context.Context, s invisible.GameStart) error {
	p.tr = invisible.NewTracker(s.Color, s.Configs)
	p.tr.Model = p.cfg.Model
	p.hide = newHideModel(p.tr.Own)
	clear(p.tried)
	clear(p.seen)
	p.seen[p.tr.View.Key()]++
	return nil
}

// HandleOpponentTurn updates the belief and the hide model.
func (p *Advisor) HandleOpponentTurn(_ context.Context, s invisible.Seen) error {
	switch {
	case s.Forfeit:
	case s.Moved < 0:
		m := s.Move
		if id, ok := p.tr.Own.Has(m.To); ok {
			p.hide.set(p.hide.filter(chess.Between(m.From, m.To)), p.tr.Own)
			p.hide.captured(id, m.To, p.tr.Own)
		} else {
			p.hide.set(p.hide.filter(pathOf(m)), p.tr.Own)
		}
	default:
		if id, ok := p.tr.Own.Has(s.Capture); ok {
			p.hide.captured(id, s.Capture, p.tr.Own)
		}
	}
	if err := p.tr.OnSeen(s); err != nil {
		return fmt.Errorf("players: %w", err)
	}
	p.seen[p.tr.View.Key()]++
	clear(p.tried)
	return nil
}

// HandleAnswer updates the belief, and the hide model by what the opponent
// is told of a possible try.
func (p *Advisor) HandleAnswer(_ context.Context, m chess.Move, a invisible.Answer) error {
	if a.Outcome == invisible.Possible {
		p.hide.set(p.hideAfter(m), p.tr.Own)
	}
	if err := p.tr.OnAnswer(m, a); err != nil {
		return fmt.Errorf("players: %w", err)
	}
	if a.Outcome == invisible.Illegal {
		p.tried[m] = true
	} else {
		clear(p.tried)
		p.seen[p.tr.View.Key()]++
	}
	return nil
}

// HandleGameEnd does nothing.
func (p *Advisor) HandleGameEnd(context.Context, invisible.Result) error { return nil }

// hideAfter is the hide model after the possible try m, as the opponent is
// told it.
func (p *Advisor) hideAfter(m chess.Move) map[invisible.Placement]float64 {
	id, ok := p.tr.Own.Has(m.From)
	if !ok {
		return p.hide.filter(pathOf(m))
	}
	v := p.tr.View
	for _, s := range p.tr.Own {
		if s != chess.NoSquare {
			v.SetPiece(s, chess.NoPiece)
		}
	}
	capture := chess.NoSquare
	if v.Pieces(v.Turn().Other()).Has(m.To) {
		capture = m.To
	}
	np := p.tr.Own
	np[id] = m.To
	var checkers uint8
	if k := v.KingSquare(v.Turn().Other()); k != chess.NoSquare {
		checkers = checkersAt(np, p.tr.OwnKinds, k, (v.Occupied()|np.Bits())&^m.From.Bit())
	}
	return p.hide.spread(&v, p.tr.OwnKinds, int8(id), capture, checkers)
}

// lowTime is the clock below which the advisor searches one ply only.
const lowTime = 10 * time.Second

// scored is a try and its advisors' utilities.
type scored struct {
	m                   chess.Move
	strategic, hide, sk float64
	total               float64
}

// ChooseTry tries the move of the highest weighted sum of the advisors.
// With under lowTime on a running clock it searches one ply: a deeper search
// is the one thing that could flag it.
func (p *Advisor) ChooseTry(ctx context.Context, left time.Duration) (chess.Move, error) {
	start := time.Now()
	defer func() { p.Decisions++; p.Spent += time.Since(start) }()
	depth := p.cfg.Depth
	if left > 0 && left < lowTime {
		depth = 1
	}
	best, err := p.score(ctx, depth, p.cfg.Boards)
	if err != nil {
		return chess.Move{}, err
	}
	return best.m, nil
}

// strategic is the strategic advisor's utility, in pawns, of each try on
// each board, and the referee's answer to it there.
func (p *Advisor) strategic(ctx context.Context, bel invisible.Belief, cands []chess.Move, depth int) ([][]float64, [][]invisible.Answer, error) {
	answers := make([][]invisible.Answer, len(cands))
	utils := make([][]float64, len(cands))
	for i := range cands {
		answers[i] = make([]invisible.Answer, len(bel.Places))
		utils[i] = make([]float64, len(bel.Places))
	}
	for j, pl := range bel.Places {
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("players: %w", err)
		}
		b := p.tr.Board(pl)
		here := float64(embedded.Evaluate(&b))
		var forfeit float64
		forfeitDone := false
		for i, m := range cands {
			a := invisible.Classify(&b, pl, m)
			answers[i][j] = a
			var u float64
			switch a.Outcome {
			case invisible.Possible:
				c := b
				c.Apply(m)
				u = -float64(p.s.search(&c, depth-1, -mate-1, mate+1, 1))
			case invisible.Impossible:
				if !forfeitDone {
					c := b
					c.Apply(chess.Move{})
					forfeit = -float64(p.s.search(&c, depth-1, -mate-1, mate+1, 1))
					forfeitDone = true
				}
				u = forfeit
			default:
				u = here - 5 // tried again: the position stays, a try spent
			}
			utils[i][j] = u / 100
		}
	}
	return utils, answers, nil
}

// score runs the advisors over the try candidates.
func (p *Advisor) score(ctx context.Context, depth, boards int) (scored, error) {
	p.buf = invisible.AppendTries(&p.tr.View, p.buf[:0])
	cands := p.buf[:0:0]
	for _, m := range p.buf {
		if !p.tried[m] {
			cands = append(cands, m)
		}
	}
	if len(cands) == 0 {
		return scored{}, fmt.Errorf("players: no untried try left")
	}
	bel := p.tr.Belief.Top(boards)
	scores := make([]scored, len(cands))
	for i := range scores {
		scores[i].m = cands[i]
	}
	utils, answers, err := p.strategic(ctx, bel, cands, depth)
	if err != nil {
		return scored{}, err
	}
	for i := range scores {
		for j, u := range utils[i] {
			scores[i].strategic += bel.Probs[j] * u
		}
	}
	if r := p.cfg.Risk; r > 0 {
		for i := range scores {
			scores[i].strategic = (1-r)*scores[i].strategic + r*slices.Min(utils[i])
		}
	}
	h0 := p.hide.entropy()
	hideCache := map[chess.Move]float64{}
	seekH := entropyProbs(bel.Probs)
	for i := range scores {
		s := &scores[i]
		s.total = s.strategic
		if p.cfg.Repeat > 0 {
			// The board after the try if it is played, after a pass if it
			// is impossible, each as likely as the boards say.
			v, pass := p.tr.View, p.tr.View
			v.Apply(s.m)
			pass.Apply(chess.Move{})
			for j, a := range answers[i] {
				switch a.Outcome {
				case invisible.Possible:
					s.total -= bel.Probs[j] * p.cfg.Repeat * float64(p.seen[v.Key()])
				case invisible.Impossible:
					s.total -= bel.Probs[j] * p.cfg.Repeat * float64(p.seen[pass.Key()])
				}
			}
		}
		if p.cfg.Hide != 0 {
			dh, ok := hideCache[s.m]
			if !ok {
				dh = entropyOf(p.hideAfter(s.m)) - h0
				hideCache[s.m] = dh
			}
			s.hide = math.Exp(dh)
			s.total += p.cfg.Hide * s.hide
		}
		if p.cfg.Seek != 0 {
			s.sk = math.Exp(seekH - expectedEntropy(answers[i], bel.Probs))
			s.total += p.cfg.Seek * s.sk
		}
		if p.cfg.Noise > 0 {
			s.total += p.cfg.Noise * p.rng.Float64()
		}
	}
	best := scores[0]
	for _, s := range scores[1:] {
		if s.total > best.total {
			best = s
		}
	}
	return best, nil
}

func entropyProbs(ps []float64) float64 {
	h := 0.0
	for _, p := range ps {
		if p > 0 {
			h -= p * math.Log2(p)
		}
	}
	return h
}

// expectedEntropy is the belief's expected entropy after a try whose answer
// on board j is answers[j]: Σ over answers o of P(o)·H(belief | o).
func expectedEntropy(answers []invisible.Answer, probs []float64) float64 {
	mass := map[invisible.Answer]float64{}
	for j, a := range answers {
		mass[a] += probs[j]
	}
	h := 0.0
	for j, a := range answers {
		if q := probs[j] / mass[a]; q > 0 && mass[a] > 0 {
			h -= probs[j] * math.Log2(q)
		}
	}
	return h
}
