package match

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/botspec"
)

// TestSetBots: canonical specs, the alternating default between two bots,
// and an SPRT refused for a bot against itself.
func TestSetBots(t *testing.T) {
	ctx := context.Background()
	r := botspec.NewResolver(nil, "")
	var cfg Config
	if err := cfg.SetBots(ctx, r, "random", "attacker", true, nil); err != nil {
		t.Fatal(err)
	}
	if cfg.Bot != "random" || cfg.Opponent != "attacker" || !cfg.Alternate || cfg.NewBot == nil || cfg.Referee != nil {
		t.Errorf("rbc: %+v", cfg)
	}
	cfg = Config{SPRT: &SPRT{}}
	err := cfg.SetBots(ctx, r, "random", "random", true, nil)
	if err == nil || !strings.Contains(err.Error(), "two different bots") {
		t.Errorf("SPRT of a bot against itself: %v", err)
	}
}

// TestArchiveFoldersSaysWhatItDid: a folder without loose records is said
// to have none.
func TestArchiveFoldersSaysWhatItDid(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := ArchiveFolders([]string{dir}, &buf, ReadRBCRecord); err != nil {
		t.Fatal(err)
	}
	if buf.String() != dir+": no loose records\n" {
		t.Errorf("got %q", buf.String())
	}
}
