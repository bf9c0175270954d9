package beliefbench

import (
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// TestParseViews: a list, all, and an unknown name.
func TestParseViews(t *testing.T) {
	if got, err := ParseViews("exact,hybrid"); err != nil || strings.Join(got, ",") != "exact,hybrid" {
		t.Errorf("list: %v, %v", got, err)
	}
	if got, err := ParseViews("all"); err != nil || len(got) != len(kriegspiel.ViewNames()) {
		t.Errorf("all: %v, %v", got, err)
	}
	if _, err := ParseViews("exact,nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown: %v", err)
	}
}

// TestFollowTextHelpers: the stop reasons, percentages and shortened names
// of the follow table.
func TestFollowTextHelpers(t *testing.T) {
	if got := stopReason(kriegspiel.ErrBeliefTooLarge); got != "past the limit" {
		t.Errorf("stopReason(too large) = %q", got)
	}
	if got := stopReason(kriegspiel.ErrEmptyBelief); got != "no board left" {
		t.Errorf("stopReason(empty) = %q", got)
	}
	if percent(1, 0) != "-" || percent(1, 3) != "33.3%" {
		t.Errorf("percent: %q, %q", percent(1, 0), percent(1, 3))
	}
	if got := shorten("abcdef", 4); got != "…def" {
		t.Errorf("shorten = %q", got)
	}
}
