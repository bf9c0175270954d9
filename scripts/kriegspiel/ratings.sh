#!/usr/bin/env bash
# The rating list of every Kriegspiel bot run for the programs' papers
# (results/ks-programs/ratings.txt) from the results logs committed there:
# each log is unpacked into a folder of its own, as `match --merge` reads
# a run, and the folders are merged into one list.
#
#   scripts/kriegspiel/ratings.sh [BLINDFISH]
#
# BLINDFISH is the binary (default: go run of this checkout). The list goes
# to standard output.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in results/ks-programs/*-results.jsonl* results/ks-programs/fig10/*-results.jsonl.gz \
  results/ks-programs/sampling/*-results.jsonl.gz; do
  name=$(basename "$f" | sed -E 's/-results\.jsonl(\.gz)?$//')
  mkdir "$tmp/$name"
  case $f in
  *.gz) gzip -dc "$f" >"$tmp/$name/results.jsonl" ;;
  *) cp "$f" "$tmp/$name/results.jsonl" ;;
  esac
done
if [ $# -gt 0 ]; then
  "$1" match --merge --ratings "$tmp"/*/
else
  go run ./cmd/blindfish match --merge --ratings "$tmp"/*/
fi
