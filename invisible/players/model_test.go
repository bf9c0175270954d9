package players

import (
	"context"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
)

// TestAdvisorModelSetting: model= sets the opponent model of the advisor's
// belief (uniform unless set), and an unknown model is refused.
func TestAdvisorModelSetting(t *testing.T) {
	for spec, want := range map[string]invisible.Model{"advisor": invisible.Uniform, "advisor:model=uniform": invisible.Uniform,
		"advisor:model=greedy,hide=5": invisible.Greedy} {
		p, err := New(spec, 1, nil)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		a := p.(*Advisor)
		if err := a.HandleGameStart(context.Background(), invisible.GameStart{Color: chess.White, Configs: [2]invisible.Config{invisible.B2, invisible.B2}}); err != nil {
			t.Fatal(err)
		}
		if a.Tracker().Model != want {
			t.Errorf("%s: model %v, want %v", spec, a.Tracker().Model, want)
		}
	}
	if _, err := New("advisor:model=clever", 1, nil); err == nil {
		t.Error("model=clever: no error")
	}
}
