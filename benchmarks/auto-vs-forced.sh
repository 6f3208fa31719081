#!/usr/bin/env bash
# bcast=auto against every forced bcast algorithm (issue 14: auto within 10 % of the fastest forced algorithm at
# 1 KiB, 64 KiB and 1 MiB on plain TCP), with `mpirun-j bench osu_bcast --coll bcast=auto+all --interleave`: one
# job per size times all of them, in rounds of one block of calls each in a shuffled order, and prints each one's
# average and paired ratio to the fastest, auto's held-out ratio, and auto against the fastest *schedule* (names that
# build one schedule for the model, ranks and size pooled).
# Usage: benchmarks/auto-vs-forced.sh [np] [default|calibrated|both] [sizes] [bench options...]
#   (default 8, both, 1024,65536,1048576; e.g. `auto-vs-forced.sh 8 default 65536 -i 1000`; without -i each size
#   times blocks of 100, 50 or 10 calls, see iterations() below). "default" runs
#   without --model (processes on TCP: the built-in TCP model, plus cpus=CORES,wake=W when the ranks outnumber this host's
#   cores), "calibrated" on a model `mpirun-j calibrate` measured on this machine first. Each size is one job, so a
#   caller can take the bench lock per size. ALGOS=auto+all+binomial-p2p (the --coll bcast= list, default
#   auto+all) adds copies (a name twice: a noise control).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
np="${1:-8}"
which="${2:-both}"
sizes="${3:-1024,65536,1048576}"
shift $(($# < 3 ? $# : 3))
if [[ ! $which =~ ^(default|calibrated|both)$ ]]; then
    echo "auto-vs-forced.sh: second argument '$which' (expected: default, calibrated or both; the rounds argument" \
        "of earlier versions is gone: bench times 100 rounds)" >&2
    exit 2
fi
cd "$root"
./mpirun-j --version >/dev/null # builds what is missing or stale (benchmarks included)
model="$(mktemp -d)/tcp-model.json"
# Timed calls per size unless the caller sets -i: blocks of 100 (up to 8 KiB), 50 (up to 64 KiB) or 10 calls in each
# of bench's 100 rounds. OSU's own counts (1,000 and 100) made blocks of 10 and 1: one call per round put the flat tree
# 3-7 % behind the binomial trees at 1 MiB, blocks of 10 (calls in a row, as OSU's loop makes them) 23 %, and the
# intervals at 64 KiB and 1 MiB were +-15-30 % wide (benchmarks/README.md, session 15). The warm-up dominates a job's
# time (about 40 s), so the longer blocks add seconds.
iterations() { # $1 = size; $2... = the caller's bench options
    local s="$1" a
    shift
    for a in "$@"; do
        [[ $a == -i || $a == --iterations || $a == --iterations=* || $a == -i[0-9]* ]] && return 0
    done
    if ((s <= 8192)); then echo "-i 10000"; elif ((s <= 65536)); then echo "-i 5000"; else echo "-i 1000"; fi
}
run() { # $@ = extra bench options
    local s
    for s in ${sizes//,/ }; do
        echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
        # shellcheck disable=SC2046 # "-i N" is two words on purpose
        ./mpirun-j bench osu_bcast -np "$np" --coll "bcast=${ALGOS:-auto+all}" --interleave -m "$s:$s" \
            $(iterations "$s" "$@") "$@" 2>&1
    done
    echo "# done $(date -u '+%H:%M:%S UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
if [[ $which != calibrated ]]; then
    echo "== no --model (built-in TCP model) =="
    run "$@"
    echo
fi
[[ $which == default ]] && exit 0
echo "== model calibrated on this machine (mpirun-j calibrate -np $np --out ...) =="
./mpirun-j calibrate -np "$np" --sizes "$sizes" --out "$model" | tail -n 3
run --model "$model" "$@"
