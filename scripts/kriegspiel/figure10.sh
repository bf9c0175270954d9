#!/usr/bin/env bash
# Figure 10 of the MCTS paper at this machine's scale
# (results/ks-programs/fig10/figure10.svg) from the results logs committed
# under results/ks-programs: each log is unpacked into a folder of its own,
# as scripts/ksfig10 reads a match, and the figure drawn from them. C is the
# current approach C (mcts-c2/); "C before" the build of fig10/ before the
# change that won its SPRT; B and A play as in fig10/ (mcts-b/README.txt).
#
#   scripts/kriegspiel/figure10.sh [FIG.svg]
#
# The table of each run goes to standard output.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-results/ks-programs/fig10/figure10.svg}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=()
while read -r series seconds log; do
  dir="$tmp/$(basename "$log" -results.jsonl.gz)-$series"
  mkdir -p "$dir"
  gzip -dc "results/ks-programs/$log" >"$dir/results.jsonl"
  args+=("$series:$seconds:$dir")
done <<'RUNS'
C 0.01 mcts-c2/darkboard-10ms-results.jsonl.gz
C 0.04 mcts-c2/darkboard-40ms-results.jsonl.gz
B1 0.01 fig10/s-b1-results.jsonl.gz
B1 0.04 fig10/l-b1-results.jsonl.gz
B3 0.01 fig10/s-b3-results.jsonl.gz
B3 0.04 fig10/l-b3-results.jsonl.gz
B10 0.01 fig10/s-b10-results.jsonl.gz
B10 0.04 fig10/l-b10-results.jsonl.gz
A 0.01 fig10/s-a-results.jsonl.gz
C-before 0.01 fig10/s-c-results.jsonl.gz
C-before 0.04 fig10/l-c-results.jsonl.gz
RUNS
go run ./scripts/ksfig10 -o "$out" "${args[@]}"
