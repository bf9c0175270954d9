package evaluator

import (
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

func TestGuardRules(t *testing.T) {
	cases := []struct {
		name  string
		fen   string
		route Route
		rule  GuardRule
		term  Terminal
		mate  int
		clean string // the engine FEN, for RouteEngine
		fixes Fix
	}{
		{name: "start position", fen: chess.StartFEN, route: RouteEngine,
			clean: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{name: "counters reset", fen: "4k3/8/8/8/8/8/8/4K3 b - - 37 80", route: RouteEngine,
			clean: "4k3/8/8/8/8/8/8/4K3 b - - 0 1"},
		{name: "side to move can capture the king", fen: "k7/8/8/8/8/8/8/R3K3 w - - 0 1",
			route: RouteTerminal, rule: RuleKingCapturable, term: CanCaptureKing, mate: 1},
		{name: "kings adjacent", fen: "8/8/8/3kK3/8/8/8/8 b - - 0 1",
			route: RouteTerminal, rule: RuleKingCapturable, term: CanCaptureKing, mate: 1},
		{name: "own king missing", fen: "k7/8/8/8/8/8/8/R7 w - - 0 1",
			route: RouteTerminal, rule: RuleOwnKingMissing, term: OwnKingMissing},
		{name: "enemy king missing", fen: "8/8/8/8/8/8/8/R3K3 w - - 0 1",
			route: RouteTerminal, rule: RuleEnemyKingMissing, term: EnemyKingMissing},
		{name: "no kings", fen: "8/8/8/8/8/8/8/R7 b - - 0 1",
			route: RouteTerminal, rule: RuleNoKings, term: NoKings},
		{name: "two white kings", fen: "k7/8/8/8/8/8/8/K3K3 w - - 0 1",
			route: RouteEmbedded, rule: RuleExtraKings},
		{name: "two black kings, black to move", fen: "k6k/8/8/8/8/8/8/4K3 b - - 0 1",
			route: RouteEmbedded, rule: RuleExtraKings},
		{name: "king capturable beats extra kings", fen: "k6k/8/8/8/8/8/8/R3K3 w - - 0 1",
			route: RouteTerminal, rule: RuleKingCapturable, term: CanCaptureKing, mate: 1},
		{name: "impossible material", fen: "k7/8/8/8/8/8/PPPPPPPP/QQ2K3 w - - 0 1",
			route: RouteEmbedded, rule: RuleImpossibleMaterial},
		{name: "promoted material is possible", fen: "k7/8/8/8/8/8/PPPPPPP1/QQ2K3 w - - 0 1",
			route: RouteEngine, clean: "k7/8/8/8/8/8/PPPPPPP1/QQ2K3 w - - 0 1"},
		{name: "triple check", fen: "4k3/8/3N4/1B6/8/8/8/4R1K1 b - - 0 1",
			route: RouteEmbedded, rule: RuleTooManyCheckers},
		{name: "two knights check", fen: "4k3/8/3N1N2/8/8/8/8/6K1 b - - 0 1",
			route: RouteEmbedded, rule: RuleImpossibleCheck},
		{name: "pawn and knight check", fen: "4k3/3P4/5N2/8/8/8/8/6K1 b - - 0 1",
			route: RouteEmbedded, rule: RuleImpossibleCheck},
		{name: "rook and knight double check is chess", fen: "4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1",
			route: RouteEngine, clean: "4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1"},
		{name: "single check", fen: "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1",
			route: RouteEngine, clean: "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1"},
		{name: "castling kept", fen: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
			route: RouteEngine, clean: "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
		{name: "castling without rooks", fen: "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1",
			route: RouteEngine, clean: "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1", fixes: FixCastling},
		{name: "castling with king moved", fen: "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1",
			route: RouteEngine, clean: "r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1", fixes: FixCastling},
		{name: "castling rook of the wrong colour", fen: "r3kb1R/8/8/8/8/8/8/R3Kb1r w KQkq - 0 1",
			route: RouteEngine, clean: "r3kb1R/8/8/8/8/8/8/R3Kb1r w Qq - 0 1", fixes: FixCastling},
		{name: "en passant nobody can use", fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
			route: RouteEngine, clean: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", fixes: FixEnPassant},
		{name: "en passant usable", fen: "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
			route: RouteEngine, clean: "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
		{name: "en passant without the pushed pawn", fen: "4k3/8/8/8/3p4/8/8/4K3 b - e3 0 1",
			route: RouteEngine, clean: "4k3/8/8/8/3p4/8/8/4K3 b - - 0 1", fixes: FixEnPassant},
		{name: "en passant square occupied", fen: "4k3/8/8/8/3pP3/4N3/8/4K3 b - e3 0 1",
			route: RouteEngine, clean: "4k3/8/8/8/3pP3/4N3/8/4K3 b - - 0 1", fixes: FixEnPassant},
		{name: "en passant while checked by another piece", fen: "2b1kb2/r2qn3/1p6/p2BppPp/Pn1rp1P1/RPPp3P/2QNK3/2B3NR w - h6 0 1",
			route: RouteEngine, clean: "2b1kb2/r2qn3/1p6/p2BppPp/Pn1rp1P1/RPPp3P/2QNK3/2B3NR w - - 0 1", fixes: FixEnPassant},
		{name: "en passant while checked by another pawn", fen: "r1bqkbnr/1pp2pp1/2n5/pP1pp3/3P4/4PB2/P1PB1p1P/RN1QK1NR w KQkq a6 0 1",
			route: RouteEngine, clean: "r1bqkbnr/1pp2pp1/2n5/pP1pp3/3P4/4PB2/P1PB1p1P/RN1QK1NR w KQkq - 0 1", fixes: FixEnPassant},
		{name: "en passant while checked by the pushed pawn", fen: "4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 1",
			route: RouteEngine, clean: "4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 1"},
		{name: "both fixes", fen: "r3k3/8/8/8/4P3/8/8/4K3 b KQkq e3 0 1",
			route: RouteEngine, clean: "r3k3/8/8/8/4P3/8/8/4K3 b q - 0 1", fixes: FixCastling | FixEnPassant},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := chess.MustParseFEN(c.fen)
			g := Guard(&b)
			if g.Route != c.route || g.Rule != c.rule {
				t.Fatalf("route %v rule %v, want %v %v", g.Route, g.Rule, c.route, c.rule)
			}
			switch c.route {
			case RouteTerminal:
				if g.Score.Terminal != c.term || g.Score.Mate != c.mate || g.Score.Source != FromGuard || g.Score.Rule != c.rule {
					t.Fatalf("score %+v, want terminal %v mate %d", g.Score, c.term, c.mate)
				}
			case RouteEngine:
				if g.FEN != c.clean || g.Fixes != c.fixes {
					t.Fatalf("FEN %q fixes %q, want %q %q", g.FEN, g.Fixes, c.clean, c.fixes)
				}
				// A cleaned FEN parses and passes the guard unchanged.
				cb := chess.MustParseFEN(g.FEN)
				if g2 := Guard(&cb); g2.Route != RouteEngine || g2.FEN != g.FEN || g2.Fixes != 0 {
					t.Fatalf("cleaned board guards to %+v", g2)
				}
			}
		})
	}
}

func TestCheckers(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want []chess.Square
	}{
		{chess.StartFEN, nil},
		{"4k3/8/3N4/1B6/8/8/8/4R1K1 b - - 0 1", []chess.Square{chess.E1, chess.B5, chess.D6}},
		{"4k3/3P4/5N2/8/8/8/8/6K1 b - - 0 1", []chess.Square{chess.F6, chess.D7}},
		{"4k3/4p3/8/8/8/8/8/4R1K1 b - - 0 1", nil}, // blocked
		{"8/8/8/8/8/8/8/4R1K1 b - - 0 1", nil},     // no king
	} {
		b := chess.MustParseFEN(c.fen)
		var want chess.Bitboard
		for _, s := range c.want {
			want |= s.Bit()
		}
		if got := Checkers(&b); got != want {
			t.Errorf("%s: checkers %v, want %v", c.fen, got.Squares(), c.want)
		}
	}
}

func TestGuardEveryRouteHasKings(t *testing.T) {
	// Whatever the route, an engine-bound board has exactly one king per side
	// and the side to move cannot capture the enemy king.
	b := chess.StartBoard()
	var buf [256]chess.Move
	seen := 0
	for ply := 0; ply < 400; ply++ {
		g := Guard(&b)
		if g.Route == RouteEngine {
			if b.PiecesOf(chess.White, chess.King).Count() != 1 || b.PiecesOf(chess.Black, chess.King).Count() != 1 || b.KingCapturable() {
				t.Fatalf("engine route for %s", b.FEN())
			}
			seen++
		}
		if g.Route == RouteTerminal {
			b = chess.StartBoard()
			continue
		}
		opts := b.AppendOptions(buf[:0])
		b.Apply(opts[(ply*7919)%len(opts)])
	}
	if seen == 0 {
		t.Fatal("no engine-bound board seen")
	}
}

// BenchmarkGuard measures the guard's cost per board (engine-bound boards
// pay for the cleaned FEN string).
func BenchmarkGuard(b *testing.B) {
	var boards []chess.Board
	for i, fen := range recordedFENs(b) {
		if i%10 == 0 {
			boards = append(boards, chess.MustParseFEN(fen))
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = Guard(&boards[i%len(boards)])
	}
}

// Guarded.String says the route, the rule and the cleanings in words.
func TestGuardedString(t *testing.T) {
	for fen, want := range map[string]string{
		"k7/8/8/8/8/8/8/R3K3 w - - 0 1":                            "terminal: side to move can capture the king",
		"rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 9": "engine-safe after dropping castling (rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qq - 0 1)",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1": "engine-safe (rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1)",
	} {
		b, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := Guard(&b).String(); got != want {
			t.Errorf("Guard(%s) = %q, want %q", fen, got, want)
		}
	}
}

// Score.Provenance names the source and, for a search, its depth and nodes.
func TestScoreProvenance(t *testing.T) {
	for _, c := range []struct {
		s    Score
		want string
	}{
		{Score{Source: FromGuard, Mate: 1}, "by guard"},
		{Score{Source: FromEngine, Depth: 8, Nodes: 1234}, "by engine, depth 8, 1234 nodes"},
		{Score{Source: FromEmbedded, Depth: 3}, "by embedded, depth 3"},
	} {
		if got := c.s.Provenance(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}
