package rbcp

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

func TestParseRequestExamples(t *testing.T) {
	e4, _ := chess.ParseSquare("e4")
	cases := []struct {
		line string
		want Request
	}{
		{"rbcp 1", Hello{1}},
		{"setoption name bot value random", SetOption{"bot", "random"}},
		{"setoption name bot value blindfish: a b", SetOption{"bot", "blindfish: a b"}},
		{"setoption name bot value", SetOption{"bot", ""}},
		{"isready", IsReady{}},
		{"newgame color black fen " + chess.StartFEN + " opponent Trout Bot",
			NewGame{chess.Black, chess.StartFEN, "Trout Bot"}},
		{"opponentmove capture -", OpponentMove{chess.NoSquare}},
		{"opponentmove capture e4", OpponentMove{e4}},
		{"choosesense time 899.5", ChooseSense{SecondsLeft: 899500 * time.Millisecond}},
		{"choosesense time 1 moves", ChooseSense{SecondsLeft: time.Second, Moves: []chess.Move{}}},
		{"choosesense time 1 senses e4 moves e2e4",
			ChooseSense{SecondsLeft: time.Second, Senses: []chess.Square{e4}, Moves: []chess.Move{mv("e2e4")}}},
		{"senseresult", SenseResult{[]rbc.SquarePiece{}}},
		{"senseresult e4:- d5:q", SenseResult{[]rbc.SquarePiece{{Square: e4}, {Square: sq("d5"), Piece: chess.MakePiece(chess.Black, chess.Queen)}}}},
		{"choosemove time 0.25 moves e2e4 a7a8q", ChooseMove{250 * time.Millisecond, []chess.Move{mv("e2e4"), mv("a7a8q")}}},
		{"moveresult requested a1a8 taken a1a5 capture a5", MoveResult{mv("a1a8"), mv("a1a5"), sq("a5")}},
		{"moveresult requested 0000 taken 0000 capture -", MoveResult{Capture: chess.NoSquare}},
		{"gameend winner white reason KING_CAPTURE", GameEnd{chess.White, true, rbc.KingCapture}},
		{"gameend winner none reason MOVE_LIMIT", GameEnd{Reason: rbc.MoveLimit}},
		{"gameend winner none reason none", GameEnd{}},
		{"quit", Quit{}},
		{"  isready \r", IsReady{}},
		{"\tquit", Quit{}},
	}
	for _, c := range cases {
		got, err := ParseRequest(c.line)
		if err != nil {
			t.Errorf("ParseRequest(%q): %v", c.line, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseRequest(%q) = %#v, want %#v", c.line, got, c.want)
		}
		again, err := ParseRequest(got.String())
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("round trip of %q via %q: %#v, %v", c.line, got.String(), again, err)
		}
	}
}

func TestParseReplyExamples(t *testing.T) {
	cases := []struct {
		line string
		want Reply
	}{
		{"id name Blindfish 0.1", ID{"name", "Blindfish 0.1"}},
		{"id author The Blindfish authors", ID{"author", "The Blindfish authors"}},
		{"option name bot type string default random", Option{Name: "bot", Type: "string", Default: "random", HasDefault: true}},
		{"option name sampler type combo default exact var exact var aosp", Option{Name: "sampler", Type: "combo", Default: "exact", HasDefault: true, Vars: []string{"exact", "aosp"}}},
		{"option name threads type spin default 1 min 1 max 64", Option{Name: "threads", Type: "spin", Default: "1", HasDefault: true, Min: 1, Max: 64}},
		{"option name log type check default false", Option{Name: "log", Type: "check", Default: "false", HasDefault: true}},
		{"option name note type string", Option{Name: "note", Type: "string"}},
		{"rbcpok 1", HelloOK{1}},
		{"readyok", ReadyOK{}},
		{"ok", OK{}},
		{"sense e4", Sense{sq("e4")}},
		{"sense pass", Sense{chess.NoSquare}},
		{"move e7e8n", Move{mv("e7e8n")}},
		{"move pass", Move{}},
		{"move 0000", Move{}},
		{"info belief 1234 boards, entropy 3.2 bits", Info{"belief 1234 boards, entropy 3.2 bits"}},
		{"info", Info{""}},
		{"error unexpected \"senseresult\"", Error{"unexpected \"senseresult\""}},
	}
	for _, c := range cases {
		got, err := ParseReply(c.line)
		if err != nil {
			t.Errorf("ParseReply(%q): %v", c.line, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseReply(%q) = %#v, want %#v", c.line, got, c.want)
		}
		again, err := ParseReply(got.String())
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("round trip of %q via %q: %#v, %v", c.line, got.String(), again, err)
		}
	}
}

func TestParseRejects(t *testing.T) {
	requests := []string{
		"", "   ", "hello", "rbcp", "rbcp x", "rbcp 0", "rbcp 1 2", "isready now",
		"setoption bot value x", "setoption name bot", "setoption name bot val x",
		"newgame", "newgame color red fen " + chess.StartFEN + " opponent x",
		"newgame color white fen " + chess.StartFEN, "newgame color white fen opponent x",
		"newgame color white fen nonsense w - - 0 1 opponent x",
		"newgame color white fen " + chess.StartFEN + " opponent",
		"newgame color true fen " + chess.StartFEN + " opponent x",
		"opponentmove", "opponentmove capture", "opponentmove capture i9", "opponentmove capture 28", "opponentmove e4",
		"choosesense", "choosesense time", "choosesense time x", "choosesense time NaN", "choosesense time 1e300",
		"choosesense time 1 moves e2e9", "choosesense time 1 moves 0000", "choosesense time 1 senses e4 e9",
		"choosesense time 1 foo", "choosesense 1",
		"senseresult e4", "senseresult e4:", "senseresult e4:x", "senseresult e4:pp", "senseresult e4:- e4:p",
		"senseresult a1:- a2:- a3:- a4:- a5:- a6:- a7:- a8:- b1:- b2:-",
		"choosemove time 1", "choosemove time 1 e2e4", "choosemove moves e2e4",
		"moveresult requested e2e4 taken e2e4", "moveresult requested e2e4 taken e2e4 capture 99",
		"moveresult requested e2e2 taken 0000 capture -",
		"gameend winner white", "gameend winner grey reason KING_CAPTURE", "gameend winner white reason CHECKMATE",
		"quit now", "sense e4", "ok", "isready\x00", "isready\nquit",
		"isready " + strings.Repeat("x", MaxLineBytes),
	}
	for _, l := range requests {
		if r, err := ParseRequest(l); err == nil {
			t.Errorf("ParseRequest(%q) = %#v, want an error", l, r)
		} else if !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseRequest(%q): error %v does not wrap ErrSyntax", l, err)
		}
	}
	replies := []string{
		"", "id", "id name", "id version 3", "option name x type float", "option name x type spin default 1",
		"option name x type spin min 3 max 1", "option name x type check default maybe", "option name x type string var",
		"rbcpok", "readyok now", "sense", "sense e4 e5", "sense none", "move", "move e2", "move e2e4 e7e5",
		"bestmove e2e4", "choosemove time 1 moves",
	}
	for _, l := range replies {
		if r, err := ParseReply(l); err == nil {
			t.Errorf("ParseReply(%q) = %#v, want an error", l, r)
		}
	}
}

func TestFormatIsSafe(t *testing.T) {
	// Free text with newlines must not forge a second message.
	for _, s := range []string{
		Info{"a\nquit"}.String(), Error{"x\r\ny"}.String(), NewGame{chess.White, chess.StartFEN, "evil\nquit"}.String(),
		SetOption{"n\nm", "v\nquit"}.String(), ID{"name", "a\nb"}.String(),
	} {
		if strings.ContainsAny(s, "\r\n") {
			t.Errorf("formatted line %q holds a line break", s)
		}
	}
	if got := (NewGame{chess.White, chess.StartFEN, "  "}).String(); !strings.HasSuffix(got, " opponent ?") {
		t.Errorf("empty opponent name formats as %q", got)
	}
}

func mv(s string) chess.Move {
	m, err := chess.ParseMove(s)
	if err != nil {
		panic(err)
	}
	return m
}

func sq(s string) chess.Square {
	q, err := chess.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return q
}

func TestSplitCommand(t *testing.T) {
	cases := map[string][]string{
		"blindfish engine":              {"blindfish", "engine"},
		"  ./bf   engine --bot random ": {"./bf", "engine", "--bot", "random"},
		`"/opt/my engine/bf" engine`:    {"/opt/my engine/bf", "engine"},
		`bf --bot 'blindfish:a=1, b=2'`: {"bf", "--bot", "blindfish:a=1, b=2"},
		`a\ b "c\"d" 'e\f' x""y`:        {"a b", `c"d`, `e\f`, "xy"},
		`python3 -c "print('hi')"`:      {"python3", "-c", "print('hi')"},
		`''`:                            {""},
	}
	for in, want := range cases {
		got, err := SplitCommand(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "   ", `"open`, "'open", `trailing\`} {
		if got, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q) = %q, want an error", bad, got)
		}
	}
}
