#!/usr/bin/env bash
# Fits the built-in TCP model's oversubscription term (ModelProvider.TCP_SHARED_CORES: wake=W) on this machine:
# times one name per bcast schedule with `mpirun-j bench osu_bcast -np NP --coll bcast=... --interleave` at each
# size (one job per size, each under the bench lock), then io.mpirunj.benchmarks.osu.WakeFit finds the wake whose
# simulated mean time in the call (plus one offset common to all: OSU's loop) matches the averages best, and
# prints it with measured against predicted per row.
# Usage: benchmarks/fit-tcp-wake.sh [np] [sizes] [bench options...]   (default 8, 1024,8192,65536,262144,1048576)
#   Run with the ranks outnumbering the cores (wake only applies then). ALGOS= the --coll bcast= list (default
#   one name per schedule the built-in model builds at np 8: binomial-p2p+linear-p2p+chain+fibonacci+ecef, and
#   copies binomial, sequential as a noise control). OUT=DIR keeps the bench outputs (default a temporary dir).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
np="${1:-8}"
sizes="${2:-1024,8192,65536,262144,1048576}"
shift $(($# < 2 ? $# : 2))
cd "$root"
./mpirun-j --version >/dev/null # builds what is missing or stale (benchmarks included)
cores="$(nproc)"
if ((np <= cores)); then
    echo "fit-tcp-wake.sh: -np $np does not outnumber this host's $cores cores: the model has no wake term then" >&2
    exit 2
fi
out="${OUT:-$(mktemp -d)}"
mkdir -p "$out"
lock=()
[[ -n ${BENCH_LOCK:-} ]] && lock=(flock "$BENCH_LOCK") # e.g. BENCH_LOCK=/work/wt/bench.lock: one lock per size
for s in ${sizes//,/ }; do
    echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $s B" >&2
    "${lock[@]}" ./mpirun-j bench osu_bcast -np "$np" \
        --coll "bcast=${ALGOS:-binomial-p2p+linear-p2p+chain+fibonacci+ecef+binomial+sequential}" --interleave \
        -m "$s:$s" -i "${ITERS:-1000}" "$@" > "$out/bcast-$s.txt" 2>&1
done
java -cp "benchmarks/target/classes:launcher/target/lib/*" io.mpirunj.benchmarks.osu.WakeFit "$np" \
    "tcp,cpus=$cores" "$out"/bcast-*.txt
echo "# bench outputs in $out" >&2
