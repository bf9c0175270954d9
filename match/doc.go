// Package match plays matches between bots and reads them back: the runner
// that plays a schedule of games on a pool of workers (Play), whole or one
// deterministic shard of it, the results log every game is written to
// (results.jsonl), the merge of match folders into pairings, the data of the
// results table, Elo estimates with their interval, the rating list (one
// Elo scale fitted to the games of many bots), and the sequential
// probability ratio test (SPRT) that decides, game pair by game pair, whether
// one build is stronger than another.
//
// It lives outside cmd/blindfish so that a Go program (a tournament script, a
// test) runs the same matches and reads the same numbers as the command line,
// and so that a long match can be split over the machines of a cluster: the
// command is flags and printing on top of this package. It knows bots only
// through a BotFactory, so nothing here depends on how bot specs are parsed
// or how external engines are started.
package match
