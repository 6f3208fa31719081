#!/usr/bin/env bash
# Our yardstick (issue 9): benchmarks/c/yardstick.c under Open MPI over TCP, side by side in one run
# with `mpirun-j bench` as processes and as threads, at 1 B, 1 KiB, 64 KiB and 1 MiB; prints the
# ratios to Open MPI. Skips with one line when Open MPI (mpicc, mpirun) is absent.
# Usage: benchmarks/yardstick.sh [NP [BENCH...]]   (NP for the collectives, default 8; latency and
# bandwidth always use 2 ranks; BENCH from: latency bw bcast alltoall allreduce)
# YARDSTICK_MJ_OPTS adds options to the process run of `mpirun-j bench`, e.g. "-J -Dmpirunj.tcp.ioThreads=2"
# (Netty event-loop threads instead of progress driven by the waiting rank) for a before/after pair.
# YARDSTICK_OMPI_BTL sets Open MPI's byte transfer layers (default self,tcp, as issue 9 measured it);
# self,vader is its own same-host shared-memory path, for comparison with mpirun-j's same-host path
# (mpirunj.tcp.localSockets: Unix domain sockets), which the default pits against Open MPI's TCP.
# The C collectives time each call with a barrier after it, as osu_bcast.c and `mpirun-j bench`;
# YARDSTICK_LOOP=back-to-back runs Open MPI's calls back to back instead (the loop before 25 Nov 2026,
# which let a small bcast's eager sends overlap the next calls: not what `mpirun-j bench` measures).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
np="${1:-8}"
shift || true
benches=("$@")
[[ ${#benches[@]} -gt 0 ]] || benches=(latency bw bcast alltoall allreduce)
if ! command -v mpicc >/dev/null || ! command -v mpirun >/dev/null; then
  echo "yardstick: skipped (Open MPI not found: apt-get install -y openmpi-bin libopenmpi-dev)"
  exit 0
fi
read -r -a mj_opts <<<"${YARDSTICK_MJ_OPTS:-}"
cd "$root"
./mpirun-j --version >/dev/null # builds what is missing or stale (benchmarks included)
out="benchmarks/target/yardstick"
mkdir -p "$out"
mpicc -O2 -o "$out/yardstick" benchmarks/c/yardstick.c
# Open MPI over TCP only, yielding when idle (the machine is oversubscribed), as issue 9 measured it.
# Loopback only: with other interfaces (docker0, eth0) np 8 did not finish in 7 minutes here.
btl="${YARDSTICK_OMPI_BTL:-self,tcp}"
ompi=(mpirun --allow-run-as-root --oversubscribe --bind-to none --mca btl "$btl" --mca btl_tcp_if_include lo
  --mca oob_tcp_if_include lo --mca mpi_yield_when_idle 1)
loop="${YARDSTICK_LOOP:-osu}"
[[ $loop == osu ]] || ompi+=(-x "YARDSTICK_LOOP=$loop")

# "SIZE VALUE" rows of an OSU-style table, for the sizes we compare.
sizes=()
rows() { awk -v want=" ${sizes[*]} " '$1 ~ /^[0-9]+$/ && index(want, " " $1 " ") { print $1, $2 }'; }
value() { awk -v s="$2" '$1 == s { print $2 }' <<<"$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }

echo "== yardstick: Open MPI $(mpirun --version 2>/dev/null | head -1 | grep -o '[0-9.]*$') (btl $btl) vs mpirun-j;" \
  "C loop: $loop; ${YARDSTICK_MJ_OPTS:+mpirun-j options: $YARDSTICK_MJ_OPTS; }$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ) =="
printf '%-10s %4s %9s %12s %12s %12s %9s %9s\n' bench np size "open-mpi" "mj-procs" "mj-threads" "procs/ompi" "thr/ompi"
for b in "${benches[@]}"; do
  case $b in
    latency|bw) n=2 ;;
    *) n=$np ;;
  esac
  sizes=(1 1024 65536 1048576)
  [[ $b == allreduce ]] && sizes=(4 1024 65536 1048576) # whole floats, as osu_allreduce
  c=$(timeout 600 "${ompi[@]}" -np "$n" "$out/yardstick" "$b" "${sizes[@]}" | awk '{ print $2, $3 }')
  p=$(timeout 600 ./mpirun-j bench "osu_$b" -np "$n" -m 1:1048576 "${mj_opts[@]}" | rows)
  t=$(timeout 600 ./mpirun-j bench "osu_$b" -np "$n" --threads -m 1:1048576 | rows)
  for s in "${sizes[@]}"; do
    cv=$(value "$c" "$s"); pv=$(value "$p" "$s"); tv=$(value "$t" "$s")
    printf '%-10s %4s %9s %12s %12s %12s %9s %9s\n' "$b" "$n" "$s" "$cv" "$pv" "$tv" "$(ratio "$pv" "$cv")" "$(ratio "$tv" "$cv")"
  done
done
echo "(µs, lower is better; bw in MB/s, higher is better: its ratios above 1 mean mpirun-j is faster)"
