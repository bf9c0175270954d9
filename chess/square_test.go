package chess

import "testing"

// TestParseSides: white, black, both in White-then-Black order, and an
// error for anything else.
func TestParseSides(t *testing.T) {
	for s, want := range map[string][]Color{"white": {White}, "black": {Black}, "both": {White, Black}} {
		got, err := ParseSides(s)
		if err != nil || len(got) != len(want) || got[0] != want[0] || got[len(got)-1] != want[len(want)-1] {
			t.Errorf("ParseSides(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseSides("none"); err == nil {
		t.Error("ParseSides(none): no error")
	}
}
