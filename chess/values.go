package chess

// pieceValues holds the material value of each piece type in centipawns,
// indexed by PieceType. The king has none: losing it ends the game, which a
// search scores itself.
var pieceValues = [7]int{0, 100, 320, 330, 500, 960, 0}

// PieceValue returns the material value of a piece type in centipawns (0 for
// the king and for no piece): the one scale the embedded evaluator, the
// opponent model and the games' bots count material on.
func PieceValue(t PieceType) int {
	if int(t) >= len(pieceValues) {
		return 0
	}
	return pieceValues[t]
}
