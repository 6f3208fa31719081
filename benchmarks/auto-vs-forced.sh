#!/usr/bin/env bash
# bcast=auto against every forced bcast algorithm in ONE job per model, rounds in shuffled order (issue 14:
# auto within 10 % of the fastest forced algorithm at 1 KiB, 64 KiB and 1 MiB on plain TCP).
# Runs twice: without --model (processes on TCP: the built-in TCP model, plus cpus=CORES when the ranks
# outnumber this host's cores), and on a model calibrated on this machine first (mpirun-j calibrate).
# Usage: benchmarks/auto-vs-forced.sh [np] [rounds] [default|calibrated|both] [sizes]
#   (default 8, 15, both, 1024,65536,1048576); each part is one job, so a caller can take the bench lock per
#   part, and per size (e.g. `auto-vs-forced.sh 8 21 default 1048576`). Each run shuffles with a new seed
#   (printed in its header). Per size it prints two verdicts: auto against the fastest forced name, and against
#   the fastest schedule (names that build one schedule for the model, ranks and size pooled per round).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
np="${1:-8}"
rounds="${2:-15}"
which="${3:-both}"
sizes="${4:-1024,65536,1048576}"
cd "$root"
./mpirun-j --version >/dev/null # builds what is missing or stale (benchmarks included)
model="$(mktemp -d)/tcp-model.json"
run() { # $@ = extra launcher options
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    ./mpirun-j -np "$np" --coll-report "$@" -cp benchmarks/target/classes io.mpirunj.benchmarks.AutoVsForced \
        "$sizes" "" "$rounds" 2>&1
    echo "# done $(date -u '+%H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
if [[ $which != calibrated ]]; then
    echo "== no --model (built-in TCP model) =="
    run
    echo
fi
[[ $which == default ]] && exit 0
echo "== model calibrated on this machine (mpirun-j calibrate -np $np --out ...) =="
./mpirun-j calibrate -np "$np" --sizes "$sizes" --out "$model" | tail -n 3
run --model "$model"
