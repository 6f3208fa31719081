#!/usr/bin/env bash
# The containerised benchmark: four containers of the node image on one Docker network, the launcher on
# this host with --launch-agent "docker exec", and the OSU-style latency, bcast and alltoall benchmarks
# across them, written as CSV and PNG charts to OUT (default: bench-results/cluster in the checkout).
#
#   docker/bench-cluster.sh [OUT]
#
# Environment: NODES (4), SLOTS (ranks per node, 4), SIZES (-m range, 1:65536), BCAST (the bcast
# algorithms to sweep, all), ALLTOALL (the alltoall algorithms, all), ITER (-i, 200). Wall-clock
# numbers: the conditions are printed beside them.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
out="${1:-$root/bench-results/cluster}"
mkdir -p "$out"
out="$(cd "$out" && pwd)" # OUT is relative to where the script was called from
nodes="${NODES:-4}"; slots="${SLOTS:-4}"; sizes="${SIZES:-1:65536}"; bcast="${BCAST:-all}"; alltoall="${ALLTOALL:-all}"; iter="${ITER:-200}"
image=mpirun-j-node:bench
net="mpirunj-bench-$$"
cd "$root"
bash docker/ensure-docker.sh
docker/build-image.sh "$image"
hostfile=$(mktemp)
cleanup() {
    for i in $(seq 1 "$nodes"); do docker rm -f "$net-node$i" >/dev/null 2>&1 || true; done
    docker network rm "$net" >/dev/null 2>&1 || true
    rm -f "$hostfile"
}
trap cleanup EXIT
docker network create "$net" >/dev/null
gateway=$(docker network inspect -f '{{(index .IPAM.Config 0).Gateway}}' "$net")
for i in $(seq 1 "$nodes"); do
    docker run -d --name "$net-node$i" --hostname "$net-node$i" --network "$net" "$image" >/dev/null
    echo "$net-node$i slots=$slots" >>"$hostfile"
done
np=$((nodes * slots))
common=(--hostfile "$hostfile" --launch-agent "docker exec" --rendezvous-host "$gateway" --no-compare --out "$out")
conditions() { echo "# $nodes containers x $slots ranks on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"; }
conditions | tee "$out/conditions.txt"
# point-to-point between two containers: OSU's table (a sweep needs algorithms to compare)
MPIRUNJ_NO_BUILD=1 ./mpirun-j bench osu_latency -np 2 --hostfile "$hostfile" --map-by node \
    --launch-agent "docker exec" --rendezvous-host "$gateway" -m "$sizes" -i "$iter" | tee "$out/osu_latency.txt"
MPIRUNJ_NO_BUILD=1 ./mpirun-j bench osu_bcast -np "$np" "${common[@]}" -m "$sizes" -i "$iter" --coll "bcast=$bcast"
conditions | tee -a "$out/conditions.txt"
MPIRUNJ_NO_BUILD=1 ./mpirun-j bench osu_alltoall -np "$np" "${common[@]}" -m "$sizes" -i "$iter" --coll "alltoall=$alltoall"
conditions | tee -a "$out/conditions.txt"
