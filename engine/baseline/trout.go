package baseline

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/evaluator/embedded"
	"github.com/blindfish-rbc/blindfish/evaluator/uci"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// DefaultTroutMoveTime is the reference Trout's Stockfish budget per call
// (chess.engine.Limit(time=0.5)). Trout calls Stockfish twice a turn: once
// while choosing its sense (to see where its planned move lands) and once to
// move.
const DefaultTroutMoveTime = 500 * time.Millisecond

// troutHangGrace is how long past its movetime a Stockfish search may run
// before Trout gives the engine up. The reference Trout would wait for ever
// (and lose on time); ours stops waiting so that a hung engine cannot hold a
// match.
const troutHangGrace = 5 * time.Second

// troutNodesWait is how long a search bounded by nodes (TroutConfig.Nodes)
// may take before the engine counts as hung: long enough for a starved
// machine, short enough that a hung engine cannot stall a game for good.
const troutNodesWait = time.Minute

// TroutConfig configures a Trout.
type TroutConfig struct {
	// EnginePath is the Stockfish binary; empty means evaluator.FindStockfish.
	EnginePath string
	// MoveTime is the budget of each Stockfish call; 0 means
	// DefaultTroutMoveTime.
	MoveTime time.Duration
	// Nodes, if positive, bounds each Stockfish call by nodes in place of
	// MoveTime: the same search on any machine however loaded, where a
	// timed search reaches fewer nodes on a busy one (and so, for the
	// faithful Trout, finds the lines Stockfish crashes on later or not at
	// all). For tests and reproducible runs; the reference bot is timed.
	Nodes int64
	// Robust selects the hardened variant. The default (false) is faithful:
	// it sends Stockfish exactly the board the reference Trout sends, and
	// once the engine dies (Stockfish segfaults on many of Trout's
	// impossible-in-chess boards) it passes every move for the rest of the
	// game, as the reference bot does. Robust Trout makes the same sense and
	// king-capture decisions but repairs the board before Stockfish sees it
	// (one enemy king, the one Trout believes in; the guard's castling and
	// en-passant cleaning), scores boards the guard keeps from engines with
	// the embedded search, and restarts a dead engine, so it never gives up.
	Robust bool
	// CommandTimeout bounds Stockfish's start-up handshake and each command
	// other than a search (0 means uci.DefaultCommandTimeout). Tests on a
	// starved machine raise it: an engine there may take a minute to start.
	CommandTimeout time.Duration
	// Rand draws the random senses; nil means a randomly seeded generator.
	// The Trout owns it from then on.
	Rand *rand.Rand
	// Logger receives Trout's notices (engine deaths, rejected moves); nil
	// means slog.Default().
	Logger *slog.Logger
}

// TroutStats counts what happened to a Trout's engine over its life.
type TroutStats struct {
	// Searches counts Stockfish calls made.
	Searches int
	// EngineDeaths counts engines that died (crash, hang or protocol error).
	EngineDeaths int
	// Rejected counts Stockfish moves refused as illegal in chess on
	// Trout's board (python-chess's "bad state": Trout passes that turn).
	Rejected int
	// Fallbacks counts robust-mode moves chosen by the embedded search.
	Fallbacks int
}

// Trout is the reference harness's trout_bot rebuilt in Go, decision for
// decision, so that benchmarks against it mean what they mean against the
// Python bot.
//
// It keeps one board of what it has seen: the start position, changed by its
// own taken moves, by removing its pieces the opponent captured and by
// writing in every sensed square. It senses where it was just captured
// (unless that square is a1: the reference tests the square's truth value);
// else, if the move it would play now lands on a square its board shows
// occupied, there; else a random square its board does not show one of its
// own pieces on. It moves by capturing the enemy king when its board shows
// one in reach (the highest such king, the lowest attacker, as python-chess
// orders them; never a king on a1, for the same truth-value reason);
// otherwise it asks Stockfish for 0.5 s on its board with itself to move,
// plays the answer if python-chess would accept it as legal, and passes if
// not or if the engine is dead. See TroutConfig.Robust for the hardened
// variant.
//
// A Trout plays one game at a time; it can be reused for further games.
type Trout struct {
	cfg TroutConfig
	log *slog.Logger
	rng *rand.Rand
	emb *embedded.Engine // robust mode's fallback search

	mu       sync.Mutex // guards engine against Close from another goroutine
	engine   *uci.Client
	dead     bool // faithful mode: the engine died; pass from now on
	newGame  bool // ucinewgame is due before the next search
	color    chess.Color
	board    troutBoard
	captured chess.Square // my_piece_captured_square
	stats    TroutStats
}

// NewTrout returns a Trout. It fails with evaluator.ErrNoStockfish when no
// Stockfish binary can be found, since Trout cannot play without one.
func NewTrout(cfg TroutConfig) (*Trout, error) {
	if cfg.EnginePath == "" {
		path, ok := evaluator.FindStockfish()
		if !ok {
			if path != "" {
				return nil, fmt.Errorf("baseline: trout: %w: $%s=%q is not an executable file", evaluator.ErrNoStockfish, evaluator.StockfishEnv, path)
			}
			return nil, fmt.Errorf("baseline: trout: %w", evaluator.ErrNoStockfish)
		}
		cfg.EnginePath = path
	}
	if cfg.MoveTime <= 0 {
		cfg.MoveTime = DefaultTroutMoveTime
	}
	rng := cfg.Rand
	if rng == nil {
		rng = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	t := &Trout{cfg: cfg, log: log.With("bot", "trout"), rng: rng}
	if cfg.Robust {
		t.emb = embedded.New()
	}
	return t, nil
}

// Stats returns the engine counters so far.
func (t *Trout) Stats() TroutStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stats
}

// HandleGameStart takes the starting board as Trout's board and starts
// Stockfish (a fresh process per game, as each reference Trout has its own).
func (t *Trout) HandleGameStart(ctx context.Context, color chess.Color, board chess.Board, opponentName string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.color = color
	t.board = newTroutBoard(board)
	t.captured = chess.NoSquare
	t.dead = false
	t.newGame = true
	if t.engine == nil {
		// Stockfish crashing on Trout's boards is part of Trout's play, not
		// a fault to warn about: the client's own logs are kept to errors.
		c, err := uci.NewClient(uci.Config{Path: t.cfg.EnginePath, CommandTimeout: t.cfg.CommandTimeout, Logger: slog.New(minLevel{t.log.Handler(), slog.LevelError})})
		if err != nil {
			return fmt.Errorf("baseline: trout: %w", err)
		}
		t.engine = c
	}
	if err := t.engine.Start(ctx); err != nil {
		return fmt.Errorf("baseline: trout: starting Stockfish: %w", err)
	}
	return nil
}

// HandleOpponentMoveResult removes Trout's captured piece from its board and
// remembers the square for the sense.
func (t *Trout) HandleOpponentMoveResult(ctx context.Context, capturedMyPiece bool, captureSquare chess.Square) error {
	t.captured = captureSquare
	if capturedMyPiece && captureSquare.Valid() {
		t.board.setPiece(captureSquare, chess.NoPiece)
	}
	return nil
}

// ChooseSense follows Trout's three rules (see Trout).
func (t *Trout) ChooseSense(ctx context.Context, senseActions []chess.Square, moveActions []chess.Move, secondsLeft time.Duration) (chess.Square, error) {
	// The reference tests "if square:", so a capture on a1 (square 0) is
	// not sensed.
	if t.captured.Valid() && t.captured != chess.A1 {
		return t.captured, nil
	}
	planned, err := t.ChooseMove(ctx, moveActions, secondsLeft)
	if err != nil {
		return chess.NoSquare, err
	}
	if !planned.IsNull() && t.board.at(planned.To) != chess.NoPiece {
		return planned.To, nil
	}
	own := t.board.pieces.Pieces(t.color)
	cands := make([]chess.Square, 0, len(senseActions))
	for _, s := range senseActions {
		if !s.Valid() || !own.Has(s) {
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 {
		return chess.NoSquare, nil
	}
	return cands[t.rng.IntN(len(cands))], nil
}

// HandleSenseResult writes every sensed square into Trout's board.
func (t *Trout) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) error {
	for _, sp := range result {
		t.board.setPiece(sp.Square, sp.Piece)
	}
	return nil
}

// ChooseMove captures a king Trout's board shows in reach, else asks
// Stockfish (see Trout). The move is always one of moveActions or a pass:
// Trout's own pieces on its board are exact, so its choices are move actions
// anyway, and anything else would lose the game by an illegal request.
func (t *Trout) ChooseMove(ctx context.Context, moveActions []chess.Move, secondsLeft time.Duration) (chess.Move, error) {
	m, err := t.chooseMove(ctx)
	if err != nil || m.IsNull() {
		return chess.Move{}, err
	}
	if !isMoveAction(moveActions, m) {
		t.log.Warn("trout: chosen move is not a move action; passing", "move", m.String(), "fen", t.board.engineFEN())
		return chess.Move{}, nil
	}
	return m, nil
}

// chooseMove is the reference choose_move.
func (t *Trout) chooseMove(ctx context.Context) (chess.Move, error) {
	// "if enemy_king_square:" — a king on a1 (square 0) is not seen.
	if k := t.board.king(t.color.Other()); k.Valid() && k != chess.A1 {
		if att := t.board.attackers(t.color, k); att != 0 {
			return chess.Move{From: att.First(), To: k}, nil
		}
	}
	t.board.turn = t.color
	t.board.clearStack()
	if t.cfg.Robust {
		return t.robustMove(ctx)
	}
	return t.faithfulMove(ctx)
}

// faithfulMove asks Stockfish about Trout's board exactly as python-chess
// would and applies python-chess's verdicts: a dead engine stays dead (pass),
// "(none)" is a pass, a move illegal in chess on the board is a pass.
func (t *Trout) faithfulMove(ctx context.Context) (chess.Move, error) {
	if t.dead {
		return chess.Move{}, nil
	}
	fen := t.board.engineFEN()
	res, err := t.search(ctx, fen)
	if err != nil {
		if ctx.Err() != nil {
			return chess.Move{}, fmt.Errorf("baseline: trout: %w", ctx.Err())
		}
		t.mu.Lock()
		t.dead = true
		t.stats.EngineDeaths++
		t.mu.Unlock()
		t.log.Debug("trout: Stockfish died; passing from now on, as the reference Trout does", "fen", fen, "err", err)
		t.closeEngine()
		return chess.Move{}, nil
	}
	return t.acceptMove(res, fen), nil
}

// acceptMove turns Stockfish's answer into Trout's move: null for "(none)"
// or for a move python-chess would reject on Trout's board.
func (t *Trout) acceptMove(res uci.Result, fen string) chess.Move {
	if !res.HasMove() {
		return chess.Move{}
	}
	m, err := chess.ParseMove(res.BestMove)
	if err == nil {
		var b chess.Board
		if b, err = t.board.chessBoard(); err == nil && !isChessLegal(&b, m) {
			err = errors.New("illegal in chess on Trout's board")
		}
	}
	if err != nil {
		t.mu.Lock()
		t.stats.Rejected++
		t.mu.Unlock()
		t.log.Debug("trout: Stockfish bad state; passing this turn", "fen", fen, "bestmove", res.BestMove, "err", err)
		return chess.Move{}
	}
	return m
}

// robustMove is the hardened variant's engine call (see TroutConfig.Robust).
func (t *Trout) robustMove(ctx context.Context) (chess.Move, error) {
	b, err := t.board.chessBoard()
	if err != nil {
		return chess.Move{}, nil // cannot happen for boards built from harness observations
	}
	if k := b.PiecesOf(t.color.Other(), chess.King); k.Count() > 1 {
		believed := t.board.king(t.color.Other())
		for rest := k &^ believed.Bit(); rest != 0; {
			b.SetPiece(rest.PopFirst(), chess.NoPiece)
		}
	}
	g := evaluator.Guard(&b)
	if g.Route == evaluator.RouteEngine {
		res, err := t.search(ctx, g.FEN)
		switch {
		case err == nil:
			if res.HasMove() {
				if m, perr := chess.ParseMove(res.BestMove); perr == nil && isChessLegal(&b, m) {
					return m, nil
				}
			}
			t.mu.Lock()
			t.stats.Rejected++
			t.mu.Unlock()
		case ctx.Err() != nil:
			return chess.Move{}, fmt.Errorf("baseline: trout: %w", ctx.Err())
		default:
			t.mu.Lock()
			t.stats.EngineDeaths++
			t.mu.Unlock()
			t.log.Debug("trout: Stockfish failed; using the embedded search this turn", "fen", g.FEN, "err", err)
		}
	}
	t.mu.Lock()
	t.stats.Fallbacks++
	t.mu.Unlock()
	sctx, cancel := context.WithTimeout(ctx, t.cfg.MoveTime)
	defer cancel()
	r, err := t.emb.Search(sctx, b, embedded.Limits{})
	if err != nil {
		if ctx.Err() != nil {
			return chess.Move{}, fmt.Errorf("baseline: trout: %w", ctx.Err())
		}
		return chess.Move{}, nil
	}
	return r.Best, nil
}

// search runs one Stockfish call of MoveTime (or Nodes), with ucinewgame first in a new
// game as python-chess sends it.
func (t *Trout) search(ctx context.Context, fen string) (uci.Result, error) {
	t.mu.Lock()
	eng := t.engine
	t.stats.Searches++
	t.mu.Unlock()
	if eng == nil {
		return uci.Result{}, errors.New("baseline: trout: no engine (game not started)")
	}
	lim, wait := uci.Limits{MoveTime: t.cfg.MoveTime}, t.cfg.MoveTime+troutHangGrace
	if t.cfg.Nodes > 0 {
		lim, wait = uci.Limits{Nodes: t.cfg.Nodes}, troutNodesWait
	}
	sctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	if t.newGame {
		if err := eng.NewGame(sctx); err != nil {
			return uci.Result{}, err
		}
		t.newGame = false
	}
	return eng.Search(sctx, uci.Position{FEN: fen}, lim)
}

// HandleMoveResult pushes the taken move onto Trout's board.
func (t *Trout) HandleMoveResult(ctx context.Context, requested, taken chess.Move, capturedOpponentPiece bool, captureSquare chess.Square) error {
	if !taken.IsNull() {
		t.board.push(taken)
	}
	return nil
}

// HandleGameEnd stops Stockfish.
func (t *Trout) HandleGameEnd(ctx context.Context, outcome rbc.Outcome, history *rbc.History) error {
	t.closeEngine()
	return nil
}

// Close stops Stockfish if a game left it running (an aborted game).
func (t *Trout) Close() error {
	t.closeEngine()
	return nil
}

func (t *Trout) closeEngine() {
	t.mu.Lock()
	eng := t.engine
	t.engine = nil
	t.mu.Unlock()
	if eng != nil {
		if err := eng.Close(); err != nil {
			t.log.Debug("trout: closing Stockfish", "err", err)
		}
	}
}

// isMoveAction reports whether m (or m with the harness's queen default) is
// among actions.
func isMoveAction(actions []chess.Move, m chess.Move) bool {
	if slices.Contains(actions, m) {
		return true
	}
	if m.Promotion == chess.NoPieceType && (m.To.Rank() == 0 || m.To.Rank() == 7) {
		return slices.Contains(actions, chess.Move{From: m.From, To: m.To, Promotion: chess.Queen})
	}
	return false
}

// minLevel is a slog handler that drops records below a level.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(attrs), h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}
