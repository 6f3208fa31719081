#!/usr/bin/env bash
# Overhead of package mpi (Open MPI Java bindings API) over the Comm API: ping-pong and bcast written
# against each, in alternating rounds, as threads and as processes. Prints the conditions above each
# table. Usage: benchmarks/mpi-overhead.sh [np] [maxBytes]
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
np="${1:-4}"
max="${2:-1048576}"
cd "$root"
./mpirun-j --version >/dev/null # builds what is missing or stale (benchmarks included)
echo "== $np threads (in-JVM transport) =="
./mpirun-j -np "$np" --threads -cp benchmarks/target/classes io.mpirunj.benchmarks.compat.MpiOverhead "$max"
echo
echo "== $np processes (Netty TCP over loopback) =="
./mpirun-j -np "$np" -cp benchmarks/target/classes io.mpirunj.benchmarks.compat.MpiOverhead "$max"
