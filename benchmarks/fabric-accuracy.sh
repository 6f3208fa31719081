#!/usr/bin/env bash
# Emulation accuracy against time scale: runs `mpirun-j calibrate` on the emulated mesh:4x4 with the
# paper's flit parameters (np 16, ranks as threads) at each time scale (microseconds per model unit) and
# prints, per scale, the worst relative error of the measured t_hold and t_end (model units) against what
# the wormhole engine predicts for the same protocol, 1 KiB to 64 KiB, with the wall time and the load.
# Usage: benchmarks/fabric-accuracy.sh [SCALES]   (default 0.1,0.25,0.5,1,2)
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
scales="${1:-0.1,0.25,0.5,1,2}"
cd "$root"
./mpirun-j --version >/dev/null # builds what is missing or stale
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# mpirun-j calibrate -np 16 --threads --fabric mesh:4x4 --fabric-params ss=2000,sd=2,cd=2,rs=3500,rd=3"
printf '%-14s %-14s %-14s %-10s\n' "us_per_unit" "worst_t_hold" "worst_t_end" "wall_s"
for scale in ${scales//,/ }; do
    start=$(date +%s.%N)
    json=$(./mpirun-j calibrate -np 16 --threads --fabric mesh:4x4 \
        --fabric-params ss=2000,sd=2,cd=2,rs=3500,rd=3 --fabric-time-scale "$scale" \
        --sizes 1024,4096,16384,65536 --json)
    end=$(date +%s.%N)
    python3 - "$scale" "$start" "$end" <<PY
import json, sys
d = json.loads('''$json''')
def worst(field):
    m, p = d["modelUnits"][field], d["predicted"][field]
    return max(abs(a / b - 1) for a, b in zip(m, p))
scale, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
print(f"{scale:<14} {worst('tHold'):<14.1%} {worst('tEnd'):<14.1%} {end - start:<10.1f}")
PY
done
