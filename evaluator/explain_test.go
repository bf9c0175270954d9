package evaluator

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// TestParseRequest: a pass and a move action are accepted, a move the
// harness would reject is not.
func TestParseRequest(t *testing.T) {
	b := chess.StartBoard()
	for _, s := range []string{"0000", "e2e4"} {
		if _, err := ParseRequest(b, s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	if _, err := ParseRequest(b, "e2e5"); err == nil || !strings.Contains(err.Error(), "not a move action") {
		t.Errorf("e2e5: %v", err)
	}
	if _, err := ParseRequest(b, "zz"); err == nil {
		t.Error("zz: no error")
	}
}

// TestExplain: the position's lines, then with a request its resolution
// and move score.
func TestExplain(t *testing.T) {
	e := NewEmbedded()
	defer e.Close()
	var buf bytes.Buffer
	if err := Explain(context.Background(), &buf, e, chess.StartBoard(), Limits{Depth: 1}, "0000"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"evaluator: embedded", "guard:", "score:", "move:      0000 requested, taken: no move (pass)", "move score: "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	buf.Reset()
	if err := Explain(context.Background(), &buf, e, chess.StartBoard(), Limits{Depth: 1}, ""); err != nil || strings.Contains(buf.String(), "move score") {
		t.Errorf("no request: %v\n%s", err, buf.String())
	}
}
