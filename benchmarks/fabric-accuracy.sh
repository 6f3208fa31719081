#!/usr/bin/env bash
# Emulation accuracy against time scale: runs `mpirun-j calibrate` on the emulated mesh:4x4 with the
# paper's flit parameters at each time scale (microseconds per model unit) and prints, per scale and
# statistic (median or minimum of the repetitions), the worst relative error of the measured t_hold and
# t_end (model units) against what the wormhole engine predicts for the same protocol, 1 KiB to 64 KiB,
# with the wall time and the load. Ranks as threads (np 16) unless MODE=processes (np 8).
# Usage: [MODE=threads|processes] [STATS=median,min] benchmarks/fabric-accuracy.sh [SCALES]
#        (default scales 0.1,0.25,0.5,1,2)
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
scales="${1:-0.1,0.25,0.5,1,2}"
stats="${STATS:-median,min}"
mode="${MODE:-threads}"
case "$mode" in
    threads) ranks=(-np 16 --threads) ;;
    processes) ranks=(-np 8) ;;
    *) echo "fabric-accuracy.sh: MODE=$mode (expected: threads or processes)" >&2; exit 2 ;;
esac
cd "$root"
./mpirun-j --version >/dev/null # builds what is missing or stale
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# mpirun-j calibrate ${ranks[*]} --fabric mesh:4x4 --fabric-params ss=2000,sd=2,cd=2,rs=3500,rd=3 --reps 5"
printf '%-12s %-10s %-14s %-14s %-8s %s\n' "us_per_unit" "statistic" "worst_t_hold" "worst_t_end" "wall_s" "load"
for scale in ${scales//,/ }; do
    for stat in ${stats//,/ }; do
        start=$(date +%s.%N)
        json=$(./mpirun-j calibrate "${ranks[@]}" --fabric mesh:4x4 \
            --fabric-params ss=2000,sd=2,cd=2,rs=3500,rd=3 --fabric-time-scale "$scale" \
            --sizes 1024,4096,16384,65536 --reps 5 --statistic "$stat" --json)
        end=$(date +%s.%N)
        python3 - "$scale" "$stat" "$start" "$end" "$(cut -d' ' -f1 /proc/loadavg)" <<PY
import json, sys
d = json.loads('''$json''')
def worst(field):
    m, p = d["modelUnits"][field], d["predicted"][field]
    return max((a / b - 1 for a, b in zip(m, p)), key=abs)
scale, stat, start, end, load = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
print(f"{scale:<12} {stat:<10} {worst('tHold'):<+14.1%} {worst('tEnd'):<+14.1%} {end - start:<8.1f} {load}")
PY
    done
done
