#!/usr/bin/env bash
# Builds the mpirun-j node image without a registry: FROM scratch with a jlink'd Java runtime, the
# libraries ldd lists for it, and the rank classpath of this checkout's launcher (at the same absolute
# paths, as on a shared file system, so the launcher's command lines work unchanged in every node).
#
#   docker/build-image.sh [TAG]        (default TAG: mpirun-j-node:latest)
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
tag="${1:-mpirun-j-node:latest}"
cd "$root"
mvn -q -B -DskipTests install -pl docker,examples -am
lib="$root/launcher/target/lib"
launcher_jar=$(ls -t launcher/target/mpirunj-launcher-*.jar | grep -v -e '-tests\.jar$' -e '-sources\.jar$' | head -n 1)
examples_jar=$(ls -t examples/target/mpirunj-examples-*.jar | grep -v -e '-tests\.jar$' -e '-sources\.jar$' | head -n 1)
docker_jar=$(ls -t docker/target/mpirunj-docker-*.jar | grep -v -e '-tests\.jar$' -e '-sources\.jar$' | head -n 1)
# every jar of the launcher (the benchmarks module too: mpirun-j bench runs its classes in the ranks)
cp="$root/$launcher_jar:$root/$examples_jar"
for j in "$lib"/*.jar; do cp="$cp:$j"; done
java -cp "$root/$docker_jar:$cp" io.mpirunj.docker.NodeImage "$tag" "$cp"
