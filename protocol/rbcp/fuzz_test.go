package rbcp

import (
	"reflect"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

var fuzzSeeds = []string{
	"rbcp 1", "isready", "quit", "setoption name seed value 3",
	"newgame color white fen " + chess.StartFEN + " opponent Trout",
	"opponentmove capture e4", "opponentmove capture -",
	"choosesense time 12.5 senses a1 h8 moves e2e4 a7a8q", "choosesense time -0.1",
	"senseresult a1:R b1:- a2:p", "choosemove time 3 moves g1f3",
	"moveresult requested a1a8 taken a1a5 capture a5", "gameend winner none reason TURN_LIMIT",
	"id name X", "option name s type spin default 1 min 0 max 9 var x", "rbcpok 1", "sense pass", "move e7e8q",
	"info a\tb", "error bad", "senseresult a1:-\tb1:k", "choosesense time 1e3", "choosesense time 0x10",
	"newgame color black fen 8/8/8/8/8/8/8/K6k w - - 0 1 opponent  spaced  name ",
}

// FuzzParseRequest: parsing never panics, and whatever parses formats to a
// line that parses back to the same message.
func FuzzParseRequest(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		m, err := ParseRequest(line)
		if err != nil {
			return
		}
		out := m.String()
		if strings.ContainsAny(out, "\r\n") {
			t.Fatalf("%q formats with a line break: %q", line, out)
		}
		again, err := ParseRequest(out)
		if err != nil {
			t.Fatalf("%q parsed to %#v, which formats to %q that does not parse: %v", line, m, out, err)
		}
		if !reflect.DeepEqual(again, m) {
			t.Fatalf("%q: %#v formats to %q, which parses to %#v", line, m, out, again)
		}
	})
}

// FuzzParseReply is FuzzParseRequest for the engine's side.
func FuzzParseReply(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		m, err := ParseReply(line)
		if err != nil {
			return
		}
		out := m.String()
		again, err := ParseReply(out)
		if err != nil {
			t.Fatalf("%q parsed to %#v, which formats to %q that does not parse: %v", line, m, out, err)
		}
		if !reflect.DeepEqual(again, m) {
			t.Fatalf("%q: %#v formats to %q, which parses to %#v", line, m, out, again)
		}
	})
}

// FuzzServeKeepsState sends an arbitrary line at some point of a game (step
// picks where). A line that does not parse must get an error reply and leave
// the session able to finish the game; any line must leave Serve alive and
// answering.
func FuzzServeKeepsState(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add(s, uint8(i))
	}
	f.Add("senseresult e4:x", uint8(3))
	f.Add("choosemove time 1 moves e2e4", uint8(1))
	f.Fuzz(func(t *testing.T, line string, step uint8) {
		if strings.ContainsAny(line, "\n") {
			return // one line at a time; the reader splits lines itself
		}
		req, parseErr := ParseRequest(line)
		if _, quit := req.(Quit); quit {
			return
		}
		s := startSession(t, testEngine(nil))
		defer s.close()
		s.handshake()
		s.expect("newgame color white fen "+chess.StartFEN+" opponent x", "ok")
		script := []struct{ line, want string }{
			{"opponentmove capture -", "ok"},
			{"choosesense time 10 senses e4 moves e2e4", "sense"},
			{"senseresult e4:-", "ok"},
			{"choosemove time 10 moves e2e4", "move"},
			{"moveresult requested e2e4 taken e2e4 capture -", "ok"},
			{"opponentmove capture e2", "ok"},
			{"gameend winner white reason KING_CAPTURE", "ok"},
		}
		at := int(step) % len(script)
		for i, l := range script {
			if i == at {
				got := s.send(line)
				if parseErr != nil {
					if !strings.HasPrefix(got, "error") {
						t.Fatalf("malformed %q got %q, want an error", line, got)
					}
				} else {
					// A well-formed line may move the game on (or end it):
					// the script is no longer valid, but Serve must answer.
					s.expect("isready", "readyok")
					return
				}
			}
			if got := s.send(l.line); !strings.HasPrefix(got, l.want) {
				t.Fatalf("after %q at step %d: %q got %q, want %s", line, at, l.line, got, l.want)
			}
		}
	})
}
