#!/usr/bin/env bash
# bcast=auto against every forced bcast algorithm in ONE job per model, alternating rounds (issue 14:
# auto within 10 % of the fastest forced algorithm at 1 KiB, 64 KiB and 1 MiB on plain TCP).
# Runs twice: on the default model, and on a model calibrated on this machine first (mpirun-j calibrate).
# Usage: benchmarks/auto-vs-forced.sh [np] [rounds]   (default 8 processes, 7 rounds)
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
np="${1:-8}"
rounds="${2:-7}"
cd "$root"
./mpirun-j --version >/dev/null # builds what is missing or stale (benchmarks included)
model="$(mktemp -d)/tcp-model.json"
run() { # $@ = extra launcher options
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    ./mpirun-j -np "$np" --coll-report "$@" -cp benchmarks/target/classes io.mpirunj.benchmarks.AutoVsForced \
        1024,65536,1048576 "" "$rounds" 2>&1
    echo "# done $(date -u '+%H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
echo "== default model =="
run
echo
echo "== model calibrated on this machine (mpirun-j calibrate -np $np --out ...) =="
./mpirun-j calibrate -np "$np" --sizes 1024,65536,1048576 --out "$model" | tail -n 3
run --model "$model"
