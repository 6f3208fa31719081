#!/usr/bin/env bash
# The random point-to-point soak (runtime test class io.mpirunj.testing.Soak) at full size: NP ranks,
# MESSAGES in total (ANY_SOURCE/ANY_TAG, probes, 0 B..200 KiB around the eager limit), as processes
# and as threads. Every message is checked against the seeded plan: lost, duplicated, corrupted or
# reordered messages fail the run. Usage: benchmarks/soak.sh [MESSAGES [NP [SEED]]]
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
total="${1:-200000}"
np="${2:-4}"
seed="${3:-1}"
per_rank=$(( (total + np - 1) / np ))
cd "$root"
./mpirun-j --version >/dev/null # builds what is missing or stale
mvn -B -ntp -o -q -pl runtime test-compile
echo "== soak: $np ranks x $per_rank messages, seed $seed; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) =="
for mode in processes threads; do
  flag=(); [[ $mode == threads ]] && flag=(--threads)
  start=$(date +%s.%N)
  ./mpirun-j -np "$np" "${flag[@]}" -cp runtime/target/test-classes io.mpirunj.testing.SoakMain "$per_rank" "$seed" \
    | sort
  echo "-- $mode: $(( np * per_rank )) messages, all checked, in $(echo "$(date +%s.%N) - $start" | bc) s wall"
done
