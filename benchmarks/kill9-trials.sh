#!/usr/bin/env bash
# kill -9 trials: TRIALS jobs of NP rank processes running benchmarks/kill9/Kill9Loop.java (bcast, allreduce,
# alltoall and a ring sendrecv in a loop); once every rank has printed its pid, after a random 0.1-2.0 s, one random
# rank is killed with kill -9. A trial passes when the launcher exits by itself (no hang: HANG_LIMIT s at most)
# with status 137 and the line "rank V exited with status 137 (killed by signal 9, SIGKILL)", every survivor
# printed "caught RankFailedException naming rank V", and no rank process is left. Prints one line a trial
# (the time from the kill to the launcher's exit, and the load) and a summary; exits 1 if a trial failed.
# Usage: benchmarks/kill9-trials.sh [TRIALS [NP [SEED]]]   (timings: run it under flock /work/wt/bench.lock)
set -uo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
trials="${1:-20}"
np="${2:-4}"
RANDOM="${3:-$$}"
start_limit="${START_LIMIT:-180}" # seconds for every rank to print its pid
hang_limit="${HANG_LIMIT:-60}"    # seconds from the kill to the launcher's exit before the trial counts as a hang
cd "$root"
./mpirun-j --version >/dev/null || exit 1 # builds what is missing or stale
work=$(mktemp -d /tmp/kill9-trials.XXXXXX)
program="$root/benchmarks/kill9/Kill9Loop.java"
now_ms() { date +%s%3N; }
echo "== kill -9 trials: $trials x np $np; $(nproc) cores; $(date -u '+%F %T') UTC; load $(cut -d' ' -f1-3 /proc/loadavg); logs in $work"
passed=0
hung=0
times=()
for ((t = 1; t <= trials; t++)); do
    out="$work/trial-$t.out"
    err="$work/trial-$t.err"
    MPIRUNJ_NO_BUILD=1 ./mpirun-j -np "$np" "$program" >"$out" 2>"$err" </dev/null &
    launcher=$!
    deadline=$(($(now_ms) + start_limit * 1000))
    while (($(grep -c '^rank [0-9]* pid [0-9]*$' "$out") < np)) && kill -0 "$launcher" 2>/dev/null \
        && (($(now_ms) < deadline)); do
        sleep 0.05
    done
    mapfile -t pids < <(sed -n 's/^rank \([0-9]*\) pid \([0-9]*\)$/\1 \2/p' "$out" | sort -n | cut -d' ' -f2)
    if ((${#pids[@]} < np)); then
        echo "trial $t: FAIL: only ${#pids[@]} of $np ranks started (see $out, $err)"
        kill -9 "$launcher" 2>/dev/null
        wait "$launcher" 2>/dev/null
        for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
        continue
    fi
    delay_ms=$((100 + RANDOM % 1901))
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    victim=$((RANDOM % np))
    killed=$(now_ms)
    kill -9 "${pids[victim]}"
    while kill -0 "$launcher" 2>/dev/null && (($(now_ms) - killed < hang_limit * 1000)); do
        sleep 0.01
    done
    if kill -0 "$launcher" 2>/dev/null; then
        took="hang"
        hung=$((hung + 1))
        kill -9 "$launcher" 2>/dev/null
    else
        ms=$(($(now_ms) - killed))
        took="$ms ms"
        times+=("$ms")
    fi
    wait "$launcher"
    code=$?
    turns=$(sed -n 's/^rank [0-9]* caught .* after \([0-9]*\) turns.*/\1/p' "$out" | sort -n | head -1)
    reported=$(grep -c "^rank [0-9]* caught RankFailedException naming rank $victim after" "$out")
    other=$(grep -c "^rank [0-9]* caught" "$out")
    named=$(grep -c "rank $victim exited with status 137 (killed by signal 9, SIGKILL)" "$err")
    left=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && left=$((left + 1)); done
    verdict=FAIL
    if [[ $took != hang && $code == 137 && $named -ge 1 && $reported == $((np - 1)) && $other == "$reported" \
        && $left == 0 ]]; then
        verdict=ok
        passed=$((passed + 1))
    fi
    echo "trial $t: $verdict: killed rank $victim ${delay_ms} ms after the start line (survivors at turn ${turns:-?}); launcher exit $code ${took} after the kill; named the rank: $named; survivors reporting RankFailedException: $reported/$((np - 1)) (other reports $((other - reported))); ranks left: $left; load $(cut -d' ' -f1 /proc/loadavg)"
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
done
summary="no launcher exit timed"
if ((${#times[@]} > 0)); then
    summary=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "kill to launcher exit: min %d ms, median %d ms, max %d ms", a[1], a[int((NR+1)/2)], a[NR]}')
fi
echo "== $passed/$trials trials passed, $hung hung; $summary; $(date -u '+%T') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
((passed == trials))
