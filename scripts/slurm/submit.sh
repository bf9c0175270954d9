#!/usr/bin/env bash
# Submit a sharded blindfish match to Slurm: a job array of N shards
# (match.sbatch) and the merge that runs when all of them ended well
# (merge.sbatch, --dependency=afterok). Prints the two job ids.
#
#   scripts/slurm/submit.sh N OUT MATCH-FLAGS...
#   e.g. scripts/slurm/submit.sh 16 /shared/sprt-x --white blindfish \
#          --black build:caa3c9153960 --games 4000 --seed 1 --clock 15+0.2 --sprt 0,10
#
# --sprt in MATCH-FLAGS is passed on to the merge (the shards do not stop
# early; the merged folder gives the verdict). SBATCH_ARGS adds options to
# both sbatch calls (--partition=..., --time=..., --account=...).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ $# -lt 3 ]; then
  echo "usage: $0 N OUT MATCH-FLAGS..." >&2
  exit 2
fi
n=$1 out=$2
shift 2
case $n in
  '' | *[!0-9]* | 0) echo "$0: N must be a positive number, not '$n'" >&2; exit 2 ;;
esac

merge=()
args=("$@")
for i in "${!args[@]}"; do
  case ${args[$i]} in
    --sprt=* | -sprt=*) merge+=("${args[$i]}") ;;
    --sprt | -sprt) merge+=("--sprt" "${args[$((i + 1))]:-}") ;;
  esac
done

mkdir -p "$out"
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="0-$((n - 1))" "$here/match.sbatch" "$out" "$@")
array=${array%%;*} # --parsable prints "jobid[;cluster]"
# shellcheck disable=SC2086
merged=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency="afterok:$array" "$here/merge.sbatch" "$out" "${merge[@]}")
merged=${merged%%;*}
echo "array $array merge $merged"
