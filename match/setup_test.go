package match

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/botspec"
)

// TestSetPlayers: canonical specs, the alternating default between two
// bots, an SPRT refused for a bot against itself, a Kriegspiel referee,
// and an unknown game.
func TestSetPlayers(t *testing.T) {
	ctx := context.Background()
	r := botspec.NewResolver(nil, "")
	var cfg Config
	if err := cfg.SetPlayers(ctx, r, Players{White: "random", Black: "attacker", Game: "rbc", DefaultAlternate: true}); err != nil {
		t.Fatal(err)
	}
	if cfg.Bot != "random" || cfg.Opponent != "attacker" || !cfg.Alternate || cfg.NewBot == nil || cfg.Referee != nil {
		t.Errorf("rbc: %+v", cfg)
	}
	cfg = Config{SPRT: &SPRT{}}
	err := cfg.SetPlayers(ctx, r, Players{White: "random", Black: "random", Game: "rbc", DefaultAlternate: true})
	if err == nil || !strings.Contains(err.Error(), "two different bots") {
		t.Errorf("SPRT of a bot against itself: %v", err)
	}
	cfg = Config{}
	err = cfg.SetPlayers(ctx, r, Players{White: "random", Black: "random", Game: "kriegspiel", Ruleset: "wild16"})
	if err != nil || cfg.Referee == nil {
		t.Errorf("kriegspiel: %v, referee %v", err, cfg.Referee)
	}
	err = cfg.SetPlayers(ctx, r, Players{White: "random", Black: "random", Game: "chess"})
	if err == nil || !strings.Contains(err.Error(), "want rbc or kriegspiel") {
		t.Errorf("chess: %v", err)
	}
}

// TestArchiveFoldersSaysWhatItDid: a folder without loose records is said
// to have none.
func TestArchiveFoldersSaysWhatItDid(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := ArchiveFolders([]string{dir}, &buf); err != nil {
		t.Fatal(err)
	}
	if buf.String() != dir+": no loose records\n" {
		t.Errorf("got %q", buf.String())
	}
}
