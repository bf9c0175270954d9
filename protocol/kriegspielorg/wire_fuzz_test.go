package kriegspielorg

import (
	"encoding/json"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// FuzzMoveResult: whatever the site answers to a question becomes a
// referee's answer the belief can use, or an error; never a panic, a
// capture off the board or a negative count of pawn tries (which the
// belief would read as "not announced").
func FuzzMoveResult(f *testing.F) {
	for _, s := range []string{
		`{"move_done": true, "announcement": "REGULAR_MOVE", "special_announcement": "CHECK_RANK", "next_turn_pawn_tries": 2}`,
		`{"move_done": true, "announcement": "CAPTURE_DONE", "capture_square": "E5", "captured_piece_announcement": "PAWN"}`,
		`{"move_done": false, "announcement": "ILLEGAL_MOVE"}`,
		`{"move_done": true, "announcement": "REGULAR_MOVE", "special_announcement": "CHECK_DOUBLE", "checks": ["CHECK_RANK", "CHECK_KNIGHT"]}`,
		`{"move_done": true, "announcement": "REGULAR_MOVE", "special_announcement": "CHECKMATE_WHITE_WINS"}`,
		`{"move_done": true, "announcement": "REGULAR_MOVE", "next_turn_pawn_tries": -3}`,
		`{}`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var m MoveResult
		if json.Unmarshal(raw, &m) != nil {
			return
		}
		a, err := m.Answer()
		if err != nil {
			return
		}
		if a.Capture != chess.NoSquare && !a.Capture.Valid() {
			t.Errorf("%s: capture square %v", raw, a.Capture)
		}
		if a.PawnTries < -1 {
			t.Errorf("%s: pawn tries %d", raw, a.PawnTries)
		}
		if m.NextTurnTries != nil && a.PawnTries == -1 && a.End == kriegspiel.NotOver {
			t.Errorf("%s: %d pawn tries sent, read as none announced", raw, *m.NextTurnTries)
		}
	})
}
