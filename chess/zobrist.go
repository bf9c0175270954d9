package chess

// Zobrist keys, drawn once at initialisation from a fixed seed so that keys
// are the same in every run and on every machine.
var (
	zobristPiece    [16][64]uint64 // indexed by Piece
	zobristCastling [16]uint64     // indexed by the whole Castling set
	zobristEP       [8]uint64      // indexed by file
	zobristBlack    uint64
)

func init() {
	seed := uint64(0x2545F4914F6CDD1D)
	for p := range zobristPiece {
		for s := range zobristPiece[p] {
			zobristPiece[p][s] = rand64(&seed)
		}
	}
	for i := range zobristCastling {
		zobristCastling[i] = rand64(&seed)
	}
	zobristCastling[0] = 0
	for i := range zobristEP {
		zobristEP[i] = rand64(&seed)
	}
	zobristBlack = rand64(&seed)
}
