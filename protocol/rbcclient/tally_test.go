package rbcclient_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/protocol/rbcclient"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// A Tally says one line per invitation, saves the records under names made
// safe, and sums up; a record that did not parse is saved as it came.
func TestTally(t *testing.T) {
	h, err := record.LoadHistoryFile(filepath.Join("..", "..", "testdata", "histories", "attacker_bot-attacker_bot-gen-000.json"))
	if err != nil {
		t.Fatal(err)
	}
	h.WhiteName = "../white"
	var raw json.RawMessage
	if raw, err = json.Marshal(h); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var out strings.Builder
	tally := rbcclient.NewTally(dir, &out, nil)
	win := rbc.Outcome{Winner: chess.White, HasWinner: true, Reason: rbc.KingCapture}
	tally.Record(1, &rbcclient.Result{GameID: 7, Color: chess.White, Opponent: "opp", Outcome: win, HistoryJSON: raw, History: h}, nil)
	tally.Record(2, &rbcclient.Result{GameID: 8, Color: chess.Black, Opponent: "opp", Outcome: win, HistoryJSON: []byte(`{"not":"parsed"}`)}, nil)
	tally.Record(3, &rbcclient.Result{GameID: 9, Color: chess.White, Opponent: "opp"}, errors.New("the bot failed"))
	tally.Record(4, nil, errors.New("declined"))
	tally.WriteSummary()

	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 5:\n%s", len(lines), out.String())
	}
	for i, want := range []string{
		"game 7 as white vs opp: won (" + win.String() + "), saved " + dir + string(filepath.Separator),
		"game 8 as black vs opp: lost (",
		"game 9 as white vs opp: error-resigned: the bot failed",
		"invitation 4: not played: declined",
		"3 games: 1 won, 0 drawn, 1 lost, 1 error-resigned; 1 invitations not played",
	} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d = %q, want it to start with %q", i+1, lines[i], want)
		}
	}
	if !strings.HasSuffix(lines[0], "-game7-.._white-"+h.BlackName+".json") {
		t.Errorf("record name in %q not made safe", lines[0])
	}
	_, saved, _ := strings.Cut(lines[0], ", saved ")
	if back, err := record.LoadHistoryFile(saved); err != nil || back.WhiteName != "../white" {
		t.Errorf("the saved record does not load back: %v", err)
	}
	unparsed, _ := filepath.Glob(filepath.Join(dir, "*-game8-us-us.json"))
	if len(unparsed) != 1 {
		t.Fatalf("the unparsed record was saved as %q", unparsed)
	}
	if data, err := os.ReadFile(unparsed[0]); err != nil || string(data) != `{"not":"parsed"}` {
		t.Errorf("the unparsed record was not kept as it came: %q, %v", data, err)
	}
}
