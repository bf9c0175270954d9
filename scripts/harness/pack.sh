#!/usr/bin/env bash
# pack.sh: packs a series played by series.sh for results/: one compressed
# archive of its games and its summary, not hundreds of loose files.
#
#   scripts/harness/pack.sh SERIES DEST [BLINDFISH]
#
# SERIES is series.sh's OUT folder, DEST the folder under results/ (made if
# missing). DEST/games.tar.gz gets, for every game gNN that has a history, the
# harness's history JSON, Blindfish's engine log (engine.log.gz) and the
# harness's last lines without the logging tracebacks StrangeFish2's engine
# log prints (harness-tail.txt), and DEST/summary.txt the series' summary. An
# archive already in DEST is kept: the new one is named games-2.tar.gz (-3,
# ...), as match archives are, and DEST/summary.txt keeps its lines with the
# series' new ones after them. With BLINDFISH (a built blindfish), the packed
# records are re-refereed (replay --check) and the verdict printed.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
series=$(readlink -f "$1")
dest=$2
bin=${3:-}
[ -f "$series/summary.txt" ] || { echo "pack.sh: $series has no summary.txt (not a series folder)" >&2; exit 2; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
n=0
for dir in "$series"/g[0-9]*/; do
  g=$(basename "$dir")
  shopt -s nullglob
  histories=("$dir"*.json)
  shopt -u nullglob
  [ ${#histories[@]} -gt 0 ] || continue
  mkdir -p "$stage/$g"
  cp "${histories[@]}" "$stage/$g/"
  if [ -f "$dir/engine.log.gz" ]; then
    cp "$dir/engine.log.gz" "$stage/$g/"
  elif [ -f "$dir/engine.log" ]; then
    gzip -c "$dir/engine.log" >"$stage/$g/engine.log.gz"
  fi
  if [ -f "$dir/harness.log" ]; then
    # A logging traceback runs from "--- Logging error ---" to its
    # "Arguments:" line; what is left is the harness's own word.
    awk '/^--- Logging error ---/ {skip = 1} !skip {print} skip && /^Arguments:/ {skip = 0}' "$dir/harness.log" |
      tail -n 40 >"$stage/$g/harness-tail.txt"
  fi
  n=$((n + 1))
done
[ $n -gt 0 ] || { echo "pack.sh: no game of $series has a history" >&2; exit 1; }

mkdir -p "$dest"
archive=$dest/games.tar.gz
k=2
while [ -e "$archive" ]; do archive=$dest/games-$k.tar.gz; k=$((k + 1)); done
tar -C "$stage" -czf "$archive" .
# A summary already in DEST (a series resumed in another session) keeps its
# lines; the series' new ones follow.
touch "$dest/summary.txt"
cat "$dest/summary.txt" "$series/summary.txt" | awk '!seen[$0]++' >"$stage/summary.txt"
mv "$stage/summary.txt" "$dest/summary.txt"
echo "$n games packed into $archive"
if [ -n "$bin" ]; then
  "$bin" replay --check "$archive"
fi
