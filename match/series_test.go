package match

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// TestReadFoldersSeries checks that a harness series folder's gNN
// histories are read, that an A/B series names Blindfish's side by its
// options, and that a void game (the harness's ERROR) is rated as none.
func TestReadFoldersSeries(t *testing.T) {
	dir := t.TempDir()
	summary := "# bf vs sf2, 300 s\n" +
		"g01 bf=white A(default)  Blindfish won (KING_CAPTURE), 600 s\n" +
		"g02 bf=black A(default)  opponent won (KING_CAPTURE), 900 s\n" +
		"g03 bf=white B(reply=50)  Blindfish won (KING_CAPTURE), 700 s\n" +
		"g04 bf=black B(reply=50)  ERROR (see harness.log), 40 s\n"
	if err := os.WriteFile(filepath.Join(dir, SeriesSummary), []byte(summary), 0o644); err != nil {
		t.Fatal(err)
	}
	win := func(c chess.Color) rbc.Outcome {
		return rbc.Outcome{Winner: c, HasWinner: true, Reason: rbc.KingCapture}
	}
	games := []struct {
		white, black string
		outcome      rbc.Outcome
	}{
		{"Blindfish", "SF2", win(chess.White)},
		{"SF2", "Blindfish", win(chess.White)},
		{"Blindfish", "SF2", win(chess.White)},
		{"SF2", "Blindfish", rbc.Outcome{}},
	}
	for i, g := range games {
		sub := filepath.Join(dir, "g0"+string(rune('1'+i)))
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		h := &rbc.History{WhiteName: g.white, BlackName: g.black, Outcome: g.outcome}
		if err := record.SaveHistoryFile(filepath.Join(sub, g.white+"-"+g.black+".json"), h); err != nil {
			t.Fatal(err)
		}
	}
	results, bare, err := ReadFolders([]string{dir}, ReadRBCRecord)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 4 || bare != 4 {
		t.Fatalf("%d results, %d bare; want 4, 4", len(results), bare)
	}
	want := [][2]string{{"blindfish", "SF2"}, {"SF2", "blindfish"}, {"blindfish:reply=50", "SF2"}, {"SF2", "blindfish:reply=50"}}
	for i, r := range results {
		if [2]string{r.White, r.Black} != want[i] {
			t.Errorf("game %d: %s vs %s, want %v", i+1, r.White, r.Black, want[i])
		}
	}
	list, err := Ratings(results, RatingOptions{Anchor: "SF2", Prior: 1})
	if err != nil {
		t.Fatal(err)
	}
	if list.Void != 1 || list.Games != 3 || len(list.Main.Ratings) != 3 {
		t.Errorf("void %d, games %d, bots %+v", list.Void, list.Games, list.Main.Ratings)
	}
}
