package sampler

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// feedLog is a Sampler that writes down the observations it is fed (the
// queries are not used by Replay and stay unimplemented).
type feedLog struct {
	Sampler
	log []string
}

func (f *feedLog) HandleGameStart(_ context.Context, c chess.Color, b chess.Board) error {
	f.log = append(f.log, fmt.Sprintf("start %v %s", c, b.FEN()))
	return nil
}

func (f *feedLog) HandleOpponentMoveResult(_ context.Context, captured bool, sq chess.Square) error {
	f.log = append(f.log, fmt.Sprintf("notice %v %v", captured, sq))
	return nil
}

func (f *feedLog) HandleSenseResult(_ context.Context, result []rbc.SquarePiece) error {
	f.log = append(f.log, fmt.Sprintf("sense %v", result))
	return nil
}

func (f *feedLog) HandleMoveResult(_ context.Context, req, taken chess.Move, captured bool, sq chess.Square) error {
	f.log = append(f.log, fmt.Sprintf("move %v %v %v %v", req, taken, captured, sq))
	return nil
}

// recordedFeed is what a player of colour c was told in the recorded game
// h, in the order of play, and the true board at each hook (after the
// notice, after the sense, after the move), read straight off the record.
func recordedFeed(t *testing.T, h *rbc.History, c chess.Color) (feed, truths []string) {
	t.Helper()
	board := chess.StartBoard()
	if w := h.Turns[chess.White]; len(w) > 0 && w[0].HasMove {
		board = mustParse(t, w[0].FENBefore)
	}
	feed = []string{fmt.Sprintf("start %v %s", c, board.FEN())}
	notice := chess.NoSquare // the capture of the opponent's latest move
	for i := range max(len(h.Turns[chess.White]), len(h.Turns[chess.Black])) {
		for _, side := range []chess.Color{chess.White, chess.Black} {
			if i >= len(h.Turns[side]) {
				continue
			}
			rec := h.Turns[side][i]
			if side != c {
				notice = chess.NoSquare
				if rec.HasMove {
					notice = rec.Capture
					board = mustParse(t, rec.FENAfter)
				}
				continue
			}
			feed = append(feed, fmt.Sprintf("notice %v %v", notice.Valid(), notice),
				fmt.Sprintf("sense %v", rec.SenseResult))
			if rec.HasMove && rec.FENBefore != board.FEN() {
				t.Fatalf("%v's turn %d: the record's board before is %s, the play's %s", c, i, rec.FENBefore, board.FEN())
			}
			truths = append(truths, fmt.Sprintf("%d noticed %s", i, board.FEN()), fmt.Sprintf("%d sensed %s", i, board.FEN()))
			if rec.HasMove {
				board = mustParse(t, rec.FENAfter)
				feed = append(feed, fmt.Sprintf("move %v %v %v %v", rec.Requested, rec.Taken, rec.Capture.Valid(), rec.Capture))
				truths = append(truths, fmt.Sprintf("%d moved %s", i, board.FEN()))
			}
		}
	}
	return feed, truths
}

func mustParse(t *testing.T, fen string) chess.Board {
	t.Helper()
	b, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReplayFeedsTheRecord replays every committed record from both sides:
// the belief is told exactly what the player was told, in order, and every
// hook sees the true board the record gives (also as the path's last board).
func TestReplayFeedsTheRecord(t *testing.T) {
	for _, file := range historyFiles(t) {
		h, err := record.LoadHistoryFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []chess.Color{chess.White, chess.Black} {
			t.Run(filepath.Base(file)+"/"+c.String(), func(t *testing.T) {
				wantFeed, wantTruths := recordedFeed(t, h, c)
				var truths []string
				s := &feedLog{}
				hook := func(at string) func(context.Context, *ReplayTurn) error {
					return func(_ context.Context, rt *ReplayTurn) error {
						truth := rt.Before
						if at == "moved" {
							truth = rt.After
						}
						if last := rt.Path[len(rt.Path)-1]; last != truth {
							t.Errorf("turn %d %s: the path ends at %s, the true board is %s", rt.Index, at, last.FEN(), truth.FEN())
						}
						// The path holds the start and a board per observation.
						if len(rt.Path) != len(s.log) {
							t.Errorf("turn %d %s: path of %d boards after %d observations", rt.Index, at, len(rt.Path), len(s.log))
						}
						if rt.Turns != len(h.Turns[c]) {
							t.Errorf("Turns = %d, the record has %d", rt.Turns, len(h.Turns[c]))
						}
						truths = append(truths, fmt.Sprintf("%d %s %s", rt.Index, at, truth.FEN()))
						return nil
					}
				}
				r := &Replay{Noticed: hook("noticed"), Sensed: hook("sensed"), Moved: hook("moved")}
				if err := r.Run(context.Background(), s, h, c); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(s.log, wantFeed) {
					t.Errorf("fed\n%q\nwant\n%q", s.log, wantFeed)
				}
				if !slices.Equal(truths, wantTruths) {
					t.Errorf("true boards\n%q\nwant\n%q", truths, wantTruths)
				}
			})
		}
	}
}

// TestReplayHooks checks the hooks' contract on one game: Sense picks the
// square and its result comes off the true board, ErrStopReplay ends the
// replay without an error, and another hook error is returned as it is.
func TestReplayHooks(t *testing.T) {
	h, err := record.LoadHistoryFile("../testdata/histories/random_bot-random_bot-1-002.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	s := &feedLog{}
	r := &Replay{Sense: func(_ context.Context, t *ReplayTurn) (chess.Square, error) { return chess.E2, nil }}
	if err := r.Run(ctx, s, h, chess.Black); err != nil {
		t.Fatal(err)
	}
	_, turns, err := Observations(h, chess.Black)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("sense %v", rbc.Sense(&turns[0].Before, chess.E2))
	if s.log[2] != want {
		t.Errorf("first sense fed %q, want %q (e2 off the true board)", s.log[2], want)
	}

	noticed := 0
	r = &Replay{Noticed: func(_ context.Context, t *ReplayTurn) error {
		noticed++
		if t.Index == 2 {
			return ErrStopReplay
		}
		return nil
	}}
	if err := r.Run(ctx, &feedLog{}, h, chess.White); err != nil || noticed != 3 {
		t.Errorf("stopped at turn 2: err %v after %d turns, want nil after 3", err, noticed)
	}

	boom := errors.New("boom")
	r = &Replay{Moved: func(context.Context, *ReplayTurn) error { return boom }}
	if err := r.Run(ctx, &feedLog{}, h, chess.White); err != boom {
		t.Errorf("hook error: got %v, want it as it is", err)
	}
}
