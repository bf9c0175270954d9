// Package chess is the chess core every game of Blindfish is played on: the
// board as bitboards (a value type, copied freely), attack tables with magic
// bitboards, FEN, Zobrist keys, pseudo-legal and legal move generation,
// applying a move, and piece values.
//
// It knows nothing of hidden information. What a game adds lives in the
// game's own package on top of this one: RBC's sense windows and move
// resolution in rbc, Kriegspiel's referee in kriegspiel, invisible chess in
// invisible. Two of its generators exist because those games share them:
// AppendOptions (every pseudo-legal move and the pass, the moves an unseen
// opponent may have made) and AppendMoveActions (the moves a player may try
// knowing only its own men).
package chess
