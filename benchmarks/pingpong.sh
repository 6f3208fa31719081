#!/usr/bin/env bash
# Ping-pong latency and bandwidth, 1 B .. 4 MiB: mpirun-j between processes, between threads, and
# a bare Netty ping-pong over the same loopback (the floor for our TCP path). Prints three OSU-style
# tables with the conditions above each. Usage: benchmarks/pingpong.sh [maxBytes]
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
max="${1:-4194304}"
cd "$root"
./mpirun-j --version >/dev/null # builds what is missing or stale (benchmarks included)
# the launcher's lib holds the benchmarks jar and all its runtime dependencies (Netty included)
bench_cp="benchmarks/target/classes:launcher/target/lib/*"

echo "== mpirun-j, 2 processes (Netty TCP over loopback) =="
./mpirun-j -np 2 -cp benchmarks/target/classes io.mpirunj.benchmarks.PingPong "$max"
echo
echo "== mpirun-j, 2 threads (in-JVM transport) =="
./mpirun-j -np 2 --threads -cp benchmarks/target/classes io.mpirunj.benchmarks.PingPong "$max"
echo
echo "== bare Netty =="
java -cp "$bench_cp" io.mpirunj.benchmarks.NettyPingPong "$max"
