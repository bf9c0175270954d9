// Package reconchess holds the bridge that lets the reference harness
// (the reconchess Python package) play Blindfish: blindfish_player.py is a
// reconchess bot that starts `blindfish engine` and relays the harness's
// Player callbacks to it over the rbcp line protocol (docs/protocol.md).
//
// The Go side is only the test that plays the bridge in the harness. It runs
// when reconchess can be imported: `pip install reconchess`, or set RC_ENV to
// a shell script that exports PYTHONPATH (and STOCKFISH_EXECUTABLE for
// TroutBot) for a source checkout. CI has no PyPI access, so it skips there.
package reconchess
