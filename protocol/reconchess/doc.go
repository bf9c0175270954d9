// Package reconchess joins Blindfish and the reference harness (the
// reconchess Python package) in both directions, over the rbcp line protocol
// (docs/protocol.md):
//
//   - blindfish_player.py is a reconchess bot that starts `blindfish engine`
//     and relays the harness's Player callbacks to it, so the harness plays
//     Blindfish;
//   - rbcp_host.py is an rbcp engine that loads a reconchess bot and turns
//     each request into the Player call the harness would make, so that
//     Blindfish's tools play any reconchess bot (the py: bot spec, which runs
//     the copy HostScript returns).
//
// The host's tests (host_test.go) play tiny bots written for them
// (testdata/tiny_bot.py, testdata/raising_bot.py) through the host on the
// standard library alone, wherever python3 runs (under CI=true a missing
// python3 fails them), and through python-chess too where it is importable.
//
// The rest of the Go side tests the bridge, in two kinds of tests.
//
// The stand-in tests (standin_test.go) run wherever python3 runs, CI
// included (under CI=true a missing python3 fails them): testdata/standin
// holds small stand-ins, written for these tests, for the two modules the
// bridge imports (reconchess and chess), and testdata/drive_bridge.py calls
// the bridge's callbacks as the harness would, for a Go player that the
// referee plays. They play whole games on a real `blindfish engine --bot
// random`, and check that an engine that dies or stalls mid-game makes the
// callback raise BlindfishEngineError in time and is killed.
//
// The harness tests (bridge_test.go) play the bridge in the real harness.
// They run when reconchess can be imported: `pip install reconchess`, or set
// RC_ENV to a shell script that exports PYTHONPATH for a source checkout
// (TroutBot's Stockfish is found as the other Stockfish tests find it). CI
// has no PyPI access, so they skip there.
package reconchess
