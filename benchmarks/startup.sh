#!/usr/bin/env bash
# Start-up cost of mpirun-j: wall time of `mpirun-j -np 16 io.mpirunj.examples.Hello` with the ranks
# as processes and as threads (1 warm-up + 5 runs each, median/min/max, conditions printed).
# Usage: benchmarks/startup.sh [np [reps]]
#   MPIRUNJ_CDS=off benchmarks/startup.sh        # without the ranks' class-data archive
#   STARTUP_BENCH_OPTS="-J -XX:+UseSerialGC" ...  # extra launcher options for both modes
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
cd "$root"
./mpirun-j --version >/dev/null # builds the launcher and examples if needed
classes="benchmarks/target/classes"
if [[ ! -f $classes/io/mpirunj/benchmarks/startup/StartupBench.class ]]; then
    mkdir -p "$classes"
    javac -d "$classes" benchmarks/src/main/java/io/mpirunj/benchmarks/startup/StartupBench.java
fi
exec java -cp "$classes" io.mpirunj.benchmarks.startup.StartupBench "$root/mpirun-j" "${1:-16}" "${2:-5}"
