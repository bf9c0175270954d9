#!/usr/bin/env bash
# The papers' belief comparisons in Kriegspiel (issue 15): AOSP, LOS and the
# hybrid, each driving the same sampling player as the beliefs are
# (recover=none: a belief that empties stays empty), against each other and
# against random; wild16, 30+0.5, colours alternating. The hybrid against AOSP
# is results/ks-beliefs-30 (seed 3301); these are the rest.
#
#   scripts/kriegspiel/beliefs.sh OUT [GAMES] [BLINDFISH]
#
# GAMES per match (default 100); BLINDFISH the binary (default: go build of
# this checkout into OUT/blindfish); KS_CONCURRENCY games at once (default 2:
# both cores, each game one player's turn at a time). Resumable: rerun the
# same command and each match plays only what is missing. Each match writes
# OUT/NAME/ (results.jsonl, games.tar.gz) and OUT/NAME.txt (its table).
set -euo pipefail
out=${1:?usage: beliefs.sh OUT [GAMES] [BLINDFISH]}
games=${2:-100}
bin=${3:-}
mkdir -p "$out"
if [ -z "$bin" ]; then
	bin=$out/blindfish
	go build -o "$bin" ./cmd/blindfish
fi
player=sampling:eval=embedded,depth=2,samples=16,size=200,recover=none,belief=
matches=(
	"los-aosp ${player}los ${player}aosp"
	"los-hybrid ${player}los ${player}hybrid"
	"aosp-random ${player}aosp random"
	"los-random ${player}los random"
	"hybrid-random ${player}hybrid random"
)
n=2
for m in "${matches[@]}"; do
	read -r name white black <<< "$m"
	echo "== $name $(date -u +%FT%TZ)"
	"$bin" match -v --game kriegspiel --ruleset wild16 --white "$white" --black "$black" \
		--games "$games" --alternate --clock 30+0.5 --seed $((3300 + n)) \
		--concurrency "${KS_CONCURRENCY:-2}" --out "$out/$name" --archive --index=false \
		2>> "$out/$name.log" | tee "$out/$name.txt"
	n=$((n + 1))
done
"$bin" match --merge "$out"/*/ > "$out/table.txt"
cat "$out/table.txt"
