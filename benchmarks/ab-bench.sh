#!/usr/bin/env bash
# Two builds of mpirun-j side by side: the same `mpirun-j bench` cells from tree A ("before") and tree B
# ("after"), run alternately (order swapped every round), median per cell, ratio after/before.
# Both trees must be built already (./mpirun-j --version in each); nothing is built here, so the runs are
# not disturbed by Maven.
#
# Usage: benchmarks/ab-bench.sh BEFORE_TREE AFTER_TREE [ROUNDS]        (default 3 rounds)
# Environment (space-separated lists):
#   BENCHES  default "osu_bcast osu_allreduce osu_alltoall"
#   NPS      default "4 8"
#   MODES    default "processes threads"
#   SIZES    default "1024:1048576" (powers of two, as -m takes them)
#   ITER     default 50
#   BENCH_LOCK  a file to hold a lock on for each run (flock), when others share the machine
set -euo pipefail
before="$(cd "${1:?before tree}" && pwd)"
after="$(cd "${2:?after tree}" && pwd)"
rounds="${3:-3}"
benches="${BENCHES:-osu_bcast osu_allreduce osu_alltoall}"
nps="${NPS:-4 8}"
modes="${MODES:-processes threads}"
sizes="${SIZES:-1024:1048576}"
iter="${ITER:-50}"
raw="$(mktemp)"
loads="$(mktemp)"
table="$(mktemp)"

one() { # $1 = tree, $2 = label, $3 = bench, $4 = np, $5 = mode: appends "bench np mode label size avg" rows
    local tree=$1 label=$2 bench=$3 np=$4 mode=$5 extra=() lock=()
    [[ $mode == threads ]] && extra=(--threads)
    [[ -n ${BENCH_LOCK:-} ]] && lock=(flock "$BENCH_LOCK")
    cut -d' ' -f1 /proc/loadavg >>"$loads"
    (cd "$tree" && MPIRUNJ_NO_BUILD=1 "${lock[@]}" ./mpirun-j bench "$bench" -np "$np" "${extra[@]}" \
        -m "$sizes" -i "$iter" 2>&1) |
        awk -v b="$bench" -v n="$np" -v m="$mode" -v l="$label" '/^[0-9]+[ \t]+[0-9.]+$/ { print b, n, m, l, $1, $2 }' \
        >>"$raw"
}

start="$(date -u '+%Y-%m-%d %H:%M:%S')"
for r in $(seq 1 "$rounds"); do
    for bench in $benches; do
        for np in $nps; do
            for mode in $modes; do
                if (( r % 2 )); then
                    one "$before" before "$bench" "$np" "$mode"; one "$after" after "$bench" "$np" "$mode"
                else
                    one "$after" after "$bench" "$np" "$mode"; one "$before" before "$bench" "$np" "$mode"
                fi
            done
        done
    done
    echo "# round $r of $rounds done $(date -u '+%H:%M:%S') UTC, load $(cut -d' ' -f1 /proc/loadavg)" >&2
done
end="$(date -u '+%H:%M:%S')"
lo="$(sort -n "$loads" | head -n 1)"
hi="$(sort -n "$loads" | tail -n 1)"
echo "# $(nproc) cores, load at run starts $lo-$hi, $start-$end UTC, $rounds rounds alternating, -i $iter, median per cell (us)"
echo "# before=$(git -C "$before" rev-parse --short HEAD) after=$(git -C "$after" rev-parse --short HEAD)"
awk '
    { key = $1 " " $2 " " $3 " " $5; v[key, $4, ++c[key, $4]] = $6; keys[key] = 1 }
    function median(key, label,    n, i, j, t, a) {
        n = c[key, label]
        if (n == 0) return -1
        for (i = 1; i <= n; i++) a[i] = v[key, label, i]
        for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    END {
        printf "%-14s %3s %-9s %8s %12s %12s %6s\n", "bench", "np", "mode", "size", "before_us", "after_us", "ratio"
        for (key in keys) {
            b = median(key, "before"); a = median(key, "after")
            split(key, k, " ")
            printf "%-14s %3s %-9s %8s %12.2f %12.2f %6.2f\n", k[1], k[2], k[3], k[4], b, a, (b > 0 ? a / b : 0)
        }
    }' "$raw" | { read -r header; echo "$header"; sort -k1,1 -k2,2n -k3,3 -k4,4n; } | tee "$table"
# One number per (bench, np, mode): the geometric mean of its sizes' ratios, steadier than any one cell.
echo
echo "# geometric mean of after/before over the sizes"
awk 'NR > 1 && $7 > 0 { k = $1 " " $2 " " $3; s[k] += log($7); n[k]++ }
    END { for (k in s) printf "%-28s %6.2f  (%d sizes)\n", k, exp(s[k] / n[k]), n[k] }' "$table" | sort -k1,1 -k2,2n
rm -f "$raw" "$loads" "$table"
