#!/usr/bin/env bash
# One size of an np 8 process benchmark, many iterations (so the JIT has settled), with the job's context
# switches and CPU time (perf stat over the launcher and its ranks). Take the bench lock yourself:
#   flock /work/wt/bench.lock benchmarks/np8-steady.sh LABEL BENCH MIN:MAX ITER [bench options...]
#   e.g. benchmarks/np8-steady.sh loops bcast 1:1 15000 -J -Dmpirunj.tcp.ioThreads=2
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"
label=$1 b=$2 m=$3 i=$4
shift 4
perf_out=$(mktemp)
trap 'rm -f "$perf_out"' EXIT
start=$(date +%s)
MPIRUNJ_NO_BUILD=1 perf stat -x, -e context-switches,task-clock -o "$perf_out" \
  ./mpirun-j bench "osu_$b" -np 8 -m "$m" -i "$i" "$@" 2>&1 | grep -E '^[0-9]' | tr '\n' ' '
echo " | $label $b -i $i $* | load $(cut -d' ' -f1-3 /proc/loadavg) $(date -u +%T) $(($(date +%s) - start))s" \
  "$(awk -F, '/context/ {printf "cs=%s ", $1} /task-clock/ {printf "cpu_ms=%d", $1}' "$perf_out")"
