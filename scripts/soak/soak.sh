#!/usr/bin/env bash
# The never-flag soak (issue 12): Blindfish plays random, attacker, trout and
# itself at 60+1 and at 30+0.5, two games at once; the 60+1 matches run on a
# quiet machine (so they are also the player's regression runs against the
# baselines), the 30+0.5 matches with two CPU hogs beside them; then one
# merged table, the peak memory of each match, the players' own memory, and
# the panics counted from the player's own logs.
#
#   scripts/soak/soak.sh OUT [GAMES] [BLINDFISH]
#
# GAMES is "mix" (the default: 1,000 games, the matches' shares below) or a
# number of games for every match (1 for a trial). BLINDFISH is the binary
# (default: go build of this checkout into OUT/blindfish). SOAK_HOGS
# (default 2) is the number of CPU hogs beside each 30+0.5 match.
# Resumable: rerun the same command and each match plays only what is
# missing. Commit OUT/table.txt, OUT/memory.txt and the results.jsonl files,
# not the records (the matches archive them into games.tar.gz).
set -euo pipefail
out=${1:?usage: soak.sh OUT [GAMES] [BLINDFISH]}
games=${2:-mix}
bin=${3:-}
if [ "$games" != mix ] && ! [[ "$games" =~ ^[1-9][0-9]*$ ]]; then
	echo "soak.sh: GAMES must be mix or a positive number, not $games" >&2
	exit 2
fi
mkdir -p "$out"
if [ -z "$bin" ]; then
	bin=$out/blindfish
	go build -o "$bin" ./cmd/blindfish
fi
touch "$out/memory.txt"
hogs=()
stop_hogs() {
	for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done
	hogs=()
}
trap stop_hogs EXIT
# The mix: opponent, clock, games. A self-play game costs the machine what
# four games against the baselines do (two Blindfish players a game, each
# game twice as long), so it has fewer games; the random and attacker
# matches beside the hogs have more. The order fixes each match's seed.
mix=(
	"random 60+1 125" "attacker 60+1 125" "trout 60+1 125" "blindfish 60+1 50"
	"random 30+0.5 200" "attacker 30+0.5 200" "trout 30+0.5 125" "blindfish 30+0.5 50"
)
n=0
for m in "${mix[@]}"; do
	read -r opp clock want <<< "$m"
	if [ "$games" != mix ]; then want=$games; fi
	name=$opp-$clock
	# A resumed soak skips the matches it finished; the logs of an
	# interrupted one are appended to, so that no run's panics are lost.
	done_games=0
	if [ -f "$out/$name/results.jsonl" ]; then done_games=$(wc -l < "$out/$name/results.jsonl"); fi
	if (( done_games >= want )); then n=$((n + 1)); continue; fi
	if [ "$clock" = 30+0.5 ]; then
		for ((h = 0; h < ${SOAK_HOGS:-2}; h++)); do
			yes > /dev/null & hogs+=($!)
		done
	fi
	echo "== $name (hogs: ${#hogs[@]}) $(date -u +%FT%TZ)" | tee -a "$out/memory.txt"
	"$bin" match --white blindfish --black "$opp" --alternate --games "$want" --clock "$clock" \
		--seed $((3000 + n)) --concurrency 2 --out "$out/$name" --archive --index=false \
		2>> "$out/$name.log" | tee -a "$out/$name.txt" | grep '^peak memory' >> "$out/memory.txt" || true
	stop_hogs
	n=$((n + 1))
done
"$bin" match --merge "$out"/*/ > "$out/table.txt"
# The players' logs, plain or gzipped (a finished soak's logs are packed).
logs() { local f; for f in "$out"/*.log "$out"/*.log.gz; do [ -e "$f" ] && zcat -f "$f"; done; return 0; }
{
	echo "panics (player logs): $(logs | grep -o 'panics=[0-9]*' | grep -vc 'panics=0' || true) games with a panic"
	echo "time losses and errors: see the table's columns (bot/opponent)"
	# The players' own memory, from their game-end lines (older binaries
	# did not log it): the belief's peak against its budget, the engines'.
	most() { logs | grep -o "\"$1\"=[0-9]*" | cut -d= -f2 | sort -n | tail -1; }
	echo "player memory (game-end lines): belief peak at most $(most 'belief peak MB') MB (budgets up to $(most 'belief MB') MB), engines' peak at most $(most 'engines peak MB') MB"
} >> "$out/table.txt"
cat "$out/table.txt"
