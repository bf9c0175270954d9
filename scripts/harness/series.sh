#!/usr/bin/env bash
# series.sh: a series of games between Blindfish and a Python bot under the
# reference harness (reconchess), one game at a time, colours alternating.
#
#   scripts/harness/series.sh BLINDFISH OPPONENT SECONDS GAMES OUT [white|black]
#
# BLINDFISH is a built blindfish binary, OPPONENT a harness bot (a module name
# such as reconchess.bots.trout_bot, or the path of a bot file such as the
# StrangeFish2 wrapper of shared/docs/reconchess-local.md), SECONDS each
# player's clock, GAMES how many games, OUT a folder (games already in it are
# kept and the series goes on after them), and the last argument Blindfish's
# colour in the first game (white by default).
#
# A/B: with BLINDFISH_OPTIONS_B set, the games alternate in pairs (both
# colours each) between Blindfish with BLINDFISH_OPTIONS (A: games 1-2, 5-6,
# ...) and with BLINDFISH_OPTIONS_B (B: games 3-4, 7-8, ...), engine options
# as the bridge reads them (name=value,name=value), and each summary line
# names its side: one series then compares two settings against the same
# opponent under the same conditions.
#
# The harness and its python-chess must be on PYTHONPATH (the harness is not
# part of this project; see docs/protocol.md). Each game gets its own folder
# OUT/gNN with the harness's history JSON, the harness's output
# (harness.log) and Blindfish's engine log (engine.log.gz); OUT/summary.txt
# gets one line per game: its number, Blindfish's colour, the harness's
# verdict and the wall time.
set -uo pipefail

if [ $# -lt 5 ]; then
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
bin=$(readlink -f "$1")
opponent=$2
seconds=$3
games=$4
out=$5
first=${6:-white}
here=$(cd "$(dirname "$0")/../.." && pwd)
bridge="$here/protocol/reconchess/blindfish_player.py"
python=${PYTHON:-/usr/bin/python3}

case "$first" in white|black) ;; *) echo "series.sh: colour $first is neither white nor black" >&2; exit 2 ;; esac
[ -x "$bin" ] || { echo "series.sh: $bin is not an executable" >&2; exit 2; }
# A bot file is given to the harness by its absolute path, as the games run
# in their own folders.
if [ -f "$opponent" ]; then opponent=$(readlink -f "$opponent"); fi
export STOCKFISH_EXECUTABLE=${STOCKFISH_EXECUTABLE:-/usr/games/stockfish}
# Without the harness on PYTHONPATH every game would fail in its first
# second and the series would fill OUT with error games; say so once instead.
if ! "$python" -c 'import reconchess.scripts.rc_bot_match' 2>/dev/null; then
  echo "series.sh: $python cannot import the harness (reconchess.scripts.rc_bot_match); put it and its python-chess on PYTHONPATH (docs/protocol.md)" >&2
  exit 2
fi

mkdir -p "$out"
out=$(readlink -f "$out")
summary="$out/summary.txt"
[ -f "$summary" ] || echo "# $(basename "$bin") vs $opponent, ${seconds} s, reference harness; bf = Blindfish's colour" >"$summary"

for ((n = 1; n <= games; n++)); do
  dir=$(printf '%s/g%02d' "$out" "$n")
  if [ -d "$dir" ] && grep -q "^g$(printf %02d "$n") " "$summary"; then continue; fi
  mkdir -p "$dir"
  colour=$first
  if (( n % 2 == 0 )); then
    if [ "$first" = white ]; then colour=black; else colour=white; fi
  fi
  if [ "$colour" = white ]; then w=$bridge; b=$opponent; else w=$opponent; b=$bridge; fi
  opts=${BLINDFISH_OPTIONS:-}
  side=""
  if [ -n "${BLINDFISH_OPTIONS_B+set}" ]; then
    side=" A(${opts:-default})"
    if (( (n - 1) / 2 % 2 == 1 )); then opts=$BLINDFISH_OPTIONS_B; side=" B(${opts:-default})"; fi
  fi
  start=$(date +%s)
  # The harness's process can outlive the game (a bot's threads keep it
  # alive after it saved the history), so it is stopped once the history is
  # saved, and in any case after six times the clock and twenty minutes more
  # (the increments make a long game last far beyond twice the clock).
  (
    cd "$dir" &&
      BLINDFISH_ENGINE="$bin" BLINDFISH_LOG="$dir/engine.log" BLINDFISH_OPTIONS="$opts" \
        exec setsid "$python" -m reconchess.scripts.rc_bot_match --seconds_per_player "$seconds" "$w" "$b"
  ) >"$dir/harness.log" 2>&1 &
  pid=$!
  limit=$(( $(date +%s) + 6 * ${seconds%.*} + 1200 ))
  saved=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    if grep -q '^Saving replay to' "$dir/harness.log"; then saved=$((saved + 5)); fi
    if (( saved > 30 )) || (( $(date +%s) > limit )); then
      kill -TERM -- "-$pid" 2>/dev/null; sleep 5; kill -KILL -- "-$pid" 2>/dev/null
      break
    fi
  done
  wait "$pid" 2>/dev/null
  rc=$?
  if grep -q '^Saving replay to' "$dir/harness.log"; then rc=0; fi
  secs=$(( $(date +%s) - start ))
  gzip -f "$dir/engine.log" 2>/dev/null
  # The harness prints "Winner: white!" (or Draw, or ERROR); the reason is in
  # the history JSON it saved.
  winner=$(sed -n 's/^Winner: \(.*\)!$/\1/p' "$dir/harness.log" | tail -1)
  reason=$(grep -ao '"win_reason": {[^}]*}' "$dir"/*.json 2>/dev/null | sed -n 's/.*"value": *"\([A-Z_]*\)".*/\1/p' | head -1)
  case "$winner" in
    "$colour") verdict="Blindfish won" ;;
    white|black) verdict="opponent won" ;;
    Draw) verdict="draw" ;;
    *) verdict="ERROR (see harness.log)" ;;
  esac
  [ -n "$reason" ] && verdict="$verdict ($reason)"
  [ $rc -eq 0 ] || verdict="$verdict, harness exit $rc"
  printf 'g%02d bf=%s%s  %s, %d s\n' "$n" "$colour" "$side" "$verdict" "$secs" >>"$summary"
done
