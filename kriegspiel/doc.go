// Package kriegspiel implements the rules of Kriegspiel — chess in which
// neither player sees the other's men and a referee answers each tried move —
// on the bitboards and move generation of package chess.
//
// Kriegspiel plays by the ordinary laws of chess (a king is mated, never
// captured), so the package adds what RBC's rules lack: legal-move generation
// with check, pins, mate and stalemate (legal.go), the draw rules (draws.go),
// and the referee's messages (answer.go) under the rulesets of the reference
// referee, the Python package kriegspiel of kriegspiel.org: wild16 (the
// Internet Chess Club's rules, also the Computer Olympiad's), berkeley and
// berkeley_any (ruleset.go). A Game (game.go) is the referee's view of one
// game: it answers each question a player asks and keeps the true board.
// A Record (record.go, record_json.go) keeps a whole game — every question,
// every answer and who heard it — and re-referees it; PlayGame (referee.go)
// plays two Players (player.go) under chess clocks.
//
// The answers equal the reference referee's try for try; see docs/kriegspiel.md
// for every rule and message and for how that is checked.
package kriegspiel
