package engine

import (
	"bytes"
	"context"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chessclock"
	"github.com/blindfish-rbc/blindfish/engine/baseline"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// TestNewPlayerBuildsBaselines: the two harness baselines are known by name.
func TestNewPlayerBuildsBaselines(t *testing.T) {
	p, err := NewPlayer("random", 1)
	if _, ok := p.(*baseline.Random); err != nil || !ok {
		t.Errorf("random: %T %v", p, err)
	}
	p, err = NewPlayer("attacker", 1)
	if _, ok := p.(*baseline.Attacker); err != nil || !ok {
		t.Errorf("attacker: %T %v", p, err)
	}
}

// TestNewPlayerErrorsAreClear: an unknown name lists the known ones; a
// setting the bot lacks is named.
func TestNewPlayerErrorsAreClear(t *testing.T) {
	cases := map[string]string{
		"stockfish":       `engine: unknown bot "stockfish" (known: random, attacker`,
		"random:depth=3":  `engine: bot "random:depth=3": engine: bot "random" takes no settings, got depth`,
		"":                `engine: bad bot spec "": no bot name`,
		"attacker:x":      `engine: bad bot spec "attacker:x": setting "x" is not key=value`,
		"attacker:x=1,x=": `engine: bad bot spec "attacker:x=1,x=": setting "x" given twice`,
	}
	for spec, want := range cases {
		if _, err := NewPlayer(spec, 1); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want %s", spec, err, want)
		}
	}
}

// TestParseSpecSplitsSettings: "name:k=v,..." gives the name and settings.
func TestParseSpecSplitsSettings(t *testing.T) {
	name, p, err := ParseSpec("blindfish:k=8,sampler=hybrid,empty=")
	if err != nil || name != "blindfish" || !reflect.DeepEqual(p, Params{"k": "8", "sampler": "hybrid", "empty": ""}) {
		t.Errorf("got %q %v %v", name, p, err)
	}
	if err := p.Check("blindfish", "k", "sampler"); err == nil || !strings.Contains(err.Error(), "has no setting empty (it has k, sampler)") {
		t.Errorf("Check: %v", err)
	}
}

// TestBaselinesPlayRefereedGames: every pairing of the baselines plays whole
// games under the referee without an illegal request, and a seed replays a
// game exactly.
func TestBaselinesPlayRefereedGames(t *testing.T) {
	specs := []string{"random", "attacker"}
	play := func(w, b string, seed int64) *rbc.History {
		white, err := NewPlayer(w, seed)
		if err != nil {
			t.Fatal(err)
		}
		black, err := NewPlayer(b, seed+1000)
		if err != nil {
			t.Fatal(err)
		}
		opts := rbc.DefaultOptions()
		opts.WhiteName, opts.BlackName = w, b
		opts.Clock = chessclock.NewManual(time.Unix(0, 0))
		res, err := rbc.PlayLocalGame(context.Background(), white, black, opts)
		if err != nil {
			t.Fatal(err)
		}
		return res.History
	}
	for _, w := range specs {
		for _, b := range specs {
			for seed := range int64(10) {
				h := play(w, b, seed)
				switch h.Outcome.Reason {
				case rbc.KingCapture, rbc.MoveLimit:
				default:
					t.Errorf("%s vs %s seed %d: %v", w, b, seed, h.Outcome)
				}
				var x, y bytes.Buffer
				record.WriteHistory(h, &x)
				record.WriteHistory(play(w, b, seed), &y)
				if !bytes.Equal(x.Bytes(), y.Bytes()) {
					t.Errorf("%s vs %s seed %d: the same seed played a different game", w, b, seed)
				}
			}
		}
	}
}

// NewLoggingPlayer gives the blindfish bot the logger, with the spec's
// settings, and builds the other bots as NewPlayer does.
func TestNewLoggingPlayer(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	p, err := NewLoggingPlayer("blindfish:depth=5", 1, log)
	if err != nil {
		t.Fatal(err)
	}
	bf, ok := p.(*Player)
	if !ok {
		t.Fatalf("got a %T, want the blindfish *Player", p)
	}
	defer bf.Close()
	if bf.opts.Logger != log || bf.Config().Depth != 5 {
		t.Fatalf("logger %p (want %p), depth %d (want 5)", bf.opts.Logger, log, bf.Config().Depth)
	}
	if p, err := NewLoggingPlayer("random", 1, log); err != nil || p == nil {
		t.Fatalf("random: %v", err)
	}
	for _, spec := range []string{"blindfish:depth=99", "nosuchbot", ":x"} {
		if _, err := NewLoggingPlayer(spec, 1, log); err == nil {
			t.Errorf("%q accepted", spec)
		}
	}
}
