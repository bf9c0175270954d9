package invrecord

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/invisible/players"
)

// TestRoundTrip: a record written and read back is the same game, and
// re-referees.
func TestRoundTrip(t *testing.T) {
	for i, cfg := range [][2]invisible.Config{{invisible.B2, invisible.R1}, {invisible.N2, invisible.Q1}, {invisible.R2, invisible.None}} {
		w, _ := players.New("random", int64(i), nil)
		b, _ := players.New("advisor", int64(i), nil)
		p, err := invisible.PlayGame(context.Background(), w, b, invisible.Options{Configs: cfg, TurnLimit: 200, WhiteName: "random", BlackName: "advisor"})
		if err != nil {
			t.Fatal(err)
		}
		var one bytes.Buffer
		if err := Write(&one, p.Record); err != nil {
			t.Fatal(err)
		}
		if !Is(one.Bytes()) {
			t.Fatal("Is does not know its own record")
		}
		r, err := Read(bytes.NewReader(one.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.Replay(); err != nil {
			t.Fatalf("the record read back does not re-referee: %v", err)
		}
		var two bytes.Buffer
		if err := Write(&two, r); err != nil {
			t.Fatal(err)
		}
		if one.String() != two.String() {
			t.Errorf("written, read and written again, the record changed:\n%s\n%s", one.String(), two.String())
		}
	}
}

// TestReadRefuses: what is not a record of the format.
func TestReadRefuses(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"Format", `{"format":"blindfish-kriegspiel","version":1,"invisible":"1B:1B","initial_ms":0,"increment_ms":0,"turns":[],"result":{"reason":""}}`, "format"},
		{"Config", `{"format":"blindfish-invisible","version":1,"invisible":"3B:1B","initial_ms":0,"increment_ms":0,"turns":[],"result":{"reason":""}}`, "configuration"},
		{"Unknown", `{"format":"blindfish-invisible","version":1,"extra":1}`, "unknown field"},
		{"Outcome", `{"format":"blindfish-invisible","version":1,"invisible":"1B","initial_ms":0,"increment_ms":0,"turns":[{"color":"white","tries":[{"move":"e2e4","outcome":"maybe"}],"seen":{},"used_ms":0}],"result":{"reason":""}}`, "outcome"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Read = %v, want an error about %s", err, tc.want)
			}
		})
	}
	if Is([]byte(`{"format":"blindfish-kriegspiel"}`)) {
		t.Error("Is takes a Kriegspiel record")
	}
}
