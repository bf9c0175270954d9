// Package uci is a small, defensive client for chess engines that speak the
// Universal Chess Interface (UCI), written for driving Stockfish from
// Blindfish.
//
// The package knows nothing about chess rules: positions are FEN strings and
// moves are UCI move strings ("e2e4", "e7e8q"). A [Client] owns at most one
// engine process at a time. Every call takes a [context.Context]; when the
// context ends, the engine crashes, or it prints output the client cannot
// parse, the process is killed and reaped and the call returns an error that
// wraps one of the sentinel errors ([ErrTimeout], [ErrCanceled],
// [ErrEngineDied], [ErrProtocol], ...). The next call starts a fresh engine
// and replays the configured options, so callers only see the failed call.
//
// A search whose context ends is first stopped gracefully: the client sends
// "stop" and waits [Config.StopGrace] for the engine's "bestmove". If it
// arrives, the partial result is returned together with the timeout error and
// the engine is kept; otherwise the engine is killed, or, with
// [Config.DrainGrace], given that much longer in the background to answer
// (the search returns at StopGrace either way, and the client is busy
// meanwhile: [Client.Draining], [Client.WaitIdle]).
//
// Design: each engine process has exactly one reader goroutine that turns its
// standard output into a channel of lines and reaps the process once output
// ends. Commands are written from the calling goroutine with a write
// deadline. A Client serialises its calls; use several clients (see package
// evaluator) for parallel searches.
package uci
