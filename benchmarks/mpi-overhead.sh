#!/usr/bin/env bash
# Overhead of package mpi (Open MPI Java bindings API) over the Comm API: ping-pong and bcast written
# against each, plus Comm again as a control, in rotating order each round, as threads and as processes.
# Prints the time (UTC) and load average above each table. Usage:
#   benchmarks/mpi-overhead.sh [np] [maxBytes] [rounds]      (np 1: the per-call cost, bcast only)
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
np="${1:-4}"
max="${2:-1048576}"
rounds="${3:-15}"
cd "$root"
./mpirun-j --version >/dev/null # builds what is missing or stale (benchmarks included)
conditions() {
    echo "# $(date -u '+%Y-%m-%d %H:%M:%S UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
echo "== $np threads (in-JVM transport) =="
conditions
./mpirun-j -np "$np" --threads -cp benchmarks/target/classes io.mpirunj.benchmarks.compat.MpiOverhead "$max" "$rounds"
conditions
echo
echo "== $np processes (Netty TCP over loopback) =="
conditions
./mpirun-j -np "$np" -cp benchmarks/target/classes io.mpirunj.benchmarks.compat.MpiOverhead "$max" "$rounds"
conditions
