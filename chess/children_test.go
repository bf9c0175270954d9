package chess

import "testing"

// checkChildren fails unless AppendChildren lists exactly the options of
// AppendOptions, in order, each with the key and capture square that
// applying it to a copy of b gives, and KeyAfter and AppendKeysAfter give
// each the same key.
func checkChildren(t *testing.T, b *Board, moves []Move, children []Child) {
	t.Helper()
	moves = b.AppendOptions(moves[:0])
	children = b.AppendChildren(children[:0])
	if len(children) != len(moves) {
		t.Fatalf("%s: %d children, %d options", b.FEN(), len(children), len(moves))
	}
	keys := b.AppendKeysAfter(nil, moves)
	for i, m := range moves {
		c := *b
		capture := c.Apply(m)
		if keys[i] != c.Key() {
			t.Fatalf("%s: AppendKeysAfter's key %d (%v) is %x, want %x", b.FEN(), i, m, keys[i], c.Key())
		}
		got := children[i]
		if got.Move != m || got.Capture != capture || got.Key != c.Key() {
			t.Fatalf("%s: child %d is %v (capture %v, key %x), want %v (capture %v, key %x)",
				b.FEN(), i, got.Move, got.Capture, got.Key, m, capture, c.Key())
		}
		if k := b.KeyAfter(m); k != c.Key() {
			t.Fatalf("%s: KeyAfter(%v) is %x, want %x", b.FEN(), m, k, c.Key())
		}
		if c.Key() != c.computeKey() {
			t.Fatalf("%s: %v: the applied board's key is stale", b.FEN(), m)
		}
	}
}

// childrenFENs are boards that reach every kind of move: castling both ways
// with rights partly lost, promotions with and without capture (onto rook
// squares, which clears rights), en passant usable and not, double pushes
// that do and do not give the opponent en passant, and several kings.
var childrenFENs = []string{
	StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
	"r3k2r/pPp1pppp/8/8/8/8/PpP1PPPP/R3K2R w KQkq - 0 1",
	"r3k2r/pPp1pppp/8/8/8/8/PpP1PPPP/R3K2R b Kq - 0 1",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
	"rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2",
	"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
	"4k3/8/8/8/1p1p4/8/2P5/4K3 w - - 0 1",
	"4k3/2p5/8/1P1P4/8/8/8/4K3 b - - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"kk6/8/8/8/8/8/8/KK6 w - - 0 1",
	"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
	"4k3/8/8/8/8/8/8/4K3 w - - 0 1",
}

// TestChildrenMatchApply checks AppendChildren and KeyAfter against copying and applying
// every option, on hand-made boards and on every recorded board and its
// children.
func TestChildrenMatchApply(t *testing.T) {
	var moves []Move
	var children []Child
	for _, fen := range childrenFENs {
		b := MustParseFEN(fen)
		checkChildren(t, &b, moves, children)
	}
	n := 20_000
	if testing.Short() {
		n = 2_000
	}
	boards := benchBoards(t, n)
	for i := range boards {
		checkChildren(t, &boards[i], moves, children)
	}
}

// FuzzChildren checks AppendChildren and KeyAfter against Apply on any board the FEN
// reader accepts, and on each of its children.
func FuzzChildren(f *testing.F) {
	for _, fen := range childrenFENs {
		f.Add(fen)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		b, err := ParseFEN(fen)
		if err != nil {
			return
		}
		checkChildren(t, &b, nil, nil)
		for _, m := range b.AppendOptions(nil) {
			c := b
			c.Apply(m)
			checkChildren(t, &c, nil, nil)
		}
	})
}
