// Package kriegspielorg plays Kriegspiel on kriegspiel.org as a bot, through
// the HTTP API of its server (the open ks-backend): a bot registers with the
// site's registration key and plays with the bearer token it gets back; it
// lists its games, opens lobby games or joins them by code, polls a game's
// state and asks the referee its questions (a move to try, or "any?").
//
// The server tells a player what it heard of its opponent only as the words
// of its scoresheet; scoresheet.go reads them back into the referee's
// answers, so that the players of package kriegspiel (and the exact belief)
// hear on the site exactly what they hear from our own referee. A finished
// game's transcript is rebuilt into a kriegspiel.Record and re-refereed.
//
// Calls are retried on 5xx answers and dropped connections (package
// internal/httpapi, shared with the reconchess client); a try is never
// repeated blindly — the scoresheet says whether a try whose answer was lost
// counted. The tests play whole games against package ksserver, a server of
// the same API on our referee (the one `blindfish ksserver` serves), with
// injected faults.
package kriegspielorg
