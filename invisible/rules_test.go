package invisible

import (
	"context"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

func sq(t *testing.T, s string) chess.Square {
	t.Helper()
	q, err := chess.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func mv(t *testing.T, s string) chess.Move {
	t.Helper()
	m, err := chess.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func place(t *testing.T, squares ...string) Placement {
	t.Helper()
	pl := EmptyPlacement
	for i, s := range squares {
		pl[i] = sq(t, s)
	}
	return pl
}

// TestClassify is the referee's verdicts, the paper's two figures first;
// the opponent's invisible pieces are the placement's.
func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		inv       []string // the opponent's invisible pieces, by id
		try       string
		want      Answer
	}{
		// Figure 1: the bishop c1-a3 runs into the invisible bishop on b2:
		// impossible, the turn is forfeited.
		{"Figure1", "4k3/8/8/8/8/8/1b6/2B1K3 w - - 0 1", []string{"b2"}, "c1a3", Answer{Outcome: Impossible, Captured: -1}},
		// Figure 2: in check from the bishop on a5, the king takes the
		// invisible knight on f1, where the invisible bishop on c4 would
		// check it: illegal, the reason is the bishop (id 0), try again.
		{"Figure2", "4k3/8/8/b7/2b5/8/8/4Kn2 w - - 0 1", []string{"c4", "f1"}, "e1f1", Answer{Outcome: Illegal, Reason: Check, Checkers: 1, Captured: -1}},
		// R3: rejected while in check: illegal (blocked), not a forfeit.
		{"R3BlockedInCheck", "4k3/8/8/b7/8/8/1b6/2B1K3 w - - 0 1", []string{"b2"}, "c1a3", Answer{Outcome: Illegal, Reason: Blocked, Captured: -1}},
		// R4: leaving the king to a visible piece names no invisible one.
		{"R4VisibleCheck", "4k3/8/8/b7/8/8/3B4/4K3 w - - 0 1", nil, "d2e3", Answer{Outcome: Illegal, Reason: Check, Captured: -1}},
		// R6: taking an invisible piece: the capturer learns which.
		{"R6CaptureNamesThePiece", "4k3/8/8/8/8/8/1b5n/2B1K3 w - - 0 1", []string{"b2", "h2"}, "c1b2", Answer{Outcome: Possible, Captured: 0}},
		{"R6KingTakesInvisible", "4k3/8/8/8/8/8/8/4Kn2 w - - 0 1", []string{"f1"}, "e1f1", Answer{Outcome: Possible, Captured: 0}},
		// R8: a pawn's diagonal onto an empty square, a push onto an
		// invisible piece, a double push through one: impossible.
		{"R8PawnTakesNothing", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", nil, "e2d3", Answer{Outcome: Impossible, Captured: -1}},
		{"R8PawnTakesInvisible", "4k3/8/8/8/8/3n4/4P3/4K3 w - - 0 1", []string{"d3"}, "e2d3", Answer{Outcome: Possible, Captured: 0}},
		{"R8PushOntoInvisible", "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", []string{"e3"}, "e2e3", Answer{Outcome: Impossible, Captured: -1}},
		{"R8DoublePushThrough", "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", []string{"e3"}, "e2e4", Answer{Outcome: Impossible, Captured: -1}},
		{"R8EnPassant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", nil, "e5d6", Answer{Outcome: Possible, Captured: -1}},
		// R7: castling through an invisible piece is impossible, through a
		// square one attacks illegal (naming it), otherwise possible.
		{"R7CastleThroughInvisible", "4k3/8/8/8/8/8/8/4K1nR w K - 0 1", []string{"g1"}, "e1g1", Answer{Outcome: Impossible, Captured: -1}},
		{"R7CastleThroughAttack", "4k3/8/8/8/2b5/8/8/4K2R w K - 0 1", []string{"c4"}, "e1g1", Answer{Outcome: Illegal, Reason: Check, Checkers: 1, Captured: -1}},
		{"R7Castle", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", nil, "e1g1", Answer{Outcome: Possible, Captured: -1}},
		{"Possible", chess.StartFEN, []string{"c8"}, "e2e4", Answer{Outcome: Possible, Captured: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := chess.MustParseFEN(tc.fen)
			if got := Classify(&b, place(t, tc.inv...), mv(t, tc.try)); got != tc.want {
				t.Errorf("Classify(%s, %v, %s) = %+v, want %+v", tc.fen, tc.inv, tc.try, got, tc.want)
			}
			v := strip(b, place(t, tc.inv...))
			if !IsTry(&v, mv(t, tc.try)) {
				t.Errorf("%s is not a try on the mover's view", tc.try)
			}
		})
	}
}

// TestR1TriesAreWhatTheMoverSees: a try stops at the men the mover sees and
// ignores check; a slider through a visible man is no try.
func TestR1TriesAreWhatTheMoverSees(t *testing.T) {
	v := chess.MustParseFEN("4k3/8/8/b7/8/8/1P6/2B1K3 w - - 0 1")
	for _, tc := range []struct {
		try  string
		want bool
	}{{"c1a3", false}, {"c1b2", false}, {"c1d2", true}, {"c1h6", true}, {"b2a3", true}, {"b2c3", true}, {"e1d2", true}, {"e1e2", true}} {
		if got := IsTry(&v, mv(t, tc.try)); got != tc.want {
			t.Errorf("IsTry(%s) = %v, want %v", tc.try, got, tc.want)
		}
	}
}

// TestSeenAnnouncements: what the opponent is told of a move (R2: which
// invisible piece moved, not where; R5: check by an invisible piece with its
// identity; R6: the square of a man an invisible piece takes; R7: castling
// is the king's move, seen, and an invisible rook goes with it).
func TestSeenAnnouncements(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		inv       []string // the mover's invisible pieces
		move      string
		want      Seen
		wantInv   []string
	}{
		{"R2InvisibleMove", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", []string{"c1"}, "c1e3", Seen{Moved: 0, Capture: chess.NoSquare}, []string{"e3"}},
		{"R2VisibleMove", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", nil, "c1e3", Seen{Move: chess.Move{From: chess.C1, To: chess.E3}, Moved: -1, Capture: chess.NoSquare}, nil},
		{"R5InvisibleCheck", "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", []string{"c1", "f1"}, "f1b5", Seen{Moved: 1, Capture: chess.NoSquare, Checkers: 2}, []string{"c1", "b5"}},
		{"R6InvisibleCaptures", "4k3/8/8/8/8/4n3/8/2B1K3 w - - 0 1", []string{"c1"}, "c1e3", Seen{Moved: 0, Capture: chess.E3}, []string{"e3"}},
		{"R7CastleWithInvisibleRook", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", []string{"h1"}, "e1g1", Seen{Move: chess.Move{From: chess.E1, To: chess.G1}, Moved: -1, Capture: chess.NoSquare}, []string{"f1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos := Position{Board: chess.MustParseFEN(tc.fen), Inv: [2]Placement{place(t, tc.inv...), EmptyPlacement}}
			if got := pos.Play(mv(t, tc.move)); got != tc.want {
				t.Errorf("Play(%s) tells %+v, want %+v", tc.move, got, tc.want)
			}
			if got := pos.Inv[chess.White]; got != place(t, tc.wantInv...) {
				t.Errorf("invisible pieces at %v, want %v", got, tc.wantInv)
			}
		})
	}
}

// TestR11ImpossibleForfeits: an impossible try passes the turn; the mover
// is told only "impossible", the opponent only that the turn was forfeited.
func TestR11ImpossibleForfeits(t *testing.T) {
	pos := Position{Board: chess.MustParseFEN("4k3/8/8/8/8/8/1b6/2B1K3 w - - 0 1"), Inv: [2]Placement{EmptyPlacement, place(t, "b2")}}
	a := Classify(&pos.Board, pos.Inv[chess.Black], mv(t, "c1a3"))
	if a != (Answer{Outcome: Impossible, Captured: -1}) {
		t.Fatalf("answer %+v", a)
	}
	s := pos.Forfeit()
	if s != (Seen{Forfeit: true, Moved: -1, Capture: chess.NoSquare}) || pos.Board.Turn() != chess.Black {
		t.Errorf("forfeit tells %+v, %v to move", s, pos.Board.Turn())
	}
}

// TestR9R10GameEnd: the end of a game, told on the true board before the
// side to move's turn.
func TestR9R10GameEnd(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		turns     int
		reps      int
		want      string
		winner    bool
	}{
		{"Checkmate", "4k3/8/8/8/8/8/5PPP/r5K1 w - - 0 1", 0, 1, ReasonCheckmate, true},
		{"Stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 0, 1, ReasonStalemate, false},
		{"Repetition", chess.StartFEN, 0, 3, ReasonRepetition, false},
		{"FiftyMoves", "4k3/8/8/8/8/8/4P3/4K3 w - - 100 80", 0, 1, ReasonFiftyMoves, false},
		{"Insufficient", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", 0, 1, ReasonInsufficient, false},
		{"TurnLimit", chess.StartFEN, 600, 1, ReasonTurnLimit, false},
		{"GoesOn", chess.StartFEN, 10, 2, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pos := Position{Board: chess.MustParseFEN(tc.fen), Inv: [2]Placement{EmptyPlacement, EmptyPlacement}}
			r, over := Ended(&pos, map[uint64]int{pos.Board.Key(): tc.reps}, tc.turns, DefaultTurnLimit)
			if over != (tc.want != "") || r.Reason != tc.want || r.HasWinner != tc.winner {
				t.Errorf("Ended = %v, %v; want %q", r, over, tc.want)
			}
		})
	}
}

// scripted plays a fixed list of tries.
type scripted struct {
	tries []chess.Move
	got   []Answer
	sleep time.Duration
}

func (s *scripted) HandleGameStart(context.Context, GameStart) error { return nil }
func (s *scripted) HandleOpponentTurn(context.Context, Seen) error   { return nil }
func (s *scripted) HandleGameEnd(context.Context, Result) error      { return nil }
func (s *scripted) HandleAnswer(_ context.Context, _ chess.Move, a Answer) error {
	s.got = append(s.got, a)
	return nil
}
func (s *scripted) ChooseTry(context.Context, time.Duration) (chess.Move, error) {
	time.Sleep(s.sleep)
	if len(s.tries) == 0 {
		return chess.Move{}, nil
	}
	m := s.tries[0]
	s.tries = s.tries[1:]
	return m, nil
}

// TestR1RefereeRefusesNonTries: a try that is not one (a slider through a
// man the mover sees, a repeated illegal try) loses the game.
func TestR1RefereeRefusesNonTries(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tries []string
	}{{"ThroughOwnPawn", []string{"c1a3"}}, {"NullMove", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			var ms []chess.Move
			for _, s := range tc.tries {
				ms = append(ms, mv(t, s))
			}
			p, err := PlayGame(context.Background(), &scripted{tries: ms}, &scripted{}, Options{Configs: [2]Config{B1, B1}})
			if err != nil {
				t.Fatal(err)
			}
			if r := p.Record.Result; r.Reason != ReasonIllegal || r.Winner != chess.Black {
				t.Errorf("result %v, want a loss by illegal action", r)
			}
			if _, err := p.Record.Replay(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestR12ClockChargesTheWholeTurn: a side's clock runs through its whole
// turn; past it, the side loses on time.
func TestR12ClockChargesTheWholeTurn(t *testing.T) {
	w := &scripted{tries: []chess.Move{mv(t, "e2e4")}, sleep: 30 * time.Millisecond}
	p, err := PlayGame(context.Background(), w, &scripted{}, Options{Configs: [2]Config{None, None}, InitialTime: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if r := p.Record.Result; r.Reason != ReasonTimeout || r.Winner != chess.Black {
		t.Errorf("result %v, want White's loss on time", r)
	}
	if _, err := p.Record.Replay(); err != nil {
		t.Error(err)
	}
}

// TestParsePair: the configurations as the command line names them.
func TestParsePair(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want [2]Config
		ok   bool
	}{{"2B:1R", [2]Config{B2, R1}, true}, {"1q", [2]Config{Q1, Q1}, true}, {"N.I.:none", [2]Config{None, None}, true}, {"3B:1R", [2]Config{}, false}} {
		got, err := ParsePair(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParsePair(%q) = %v, %v", tc.in, got, err)
		}
	}
	if got := Q1.Starts(chess.Black); len(got) != 1 || got[0] != chess.D8 {
		t.Errorf("1Q's black piece starts on %v", got)
	}
}
