#!/usr/bin/env bash
# Makes a Docker engine reachable on this machine, idempotently: installs Debian's docker.io if there
# is no dockerd, and starts dockerd if nothing answers on its socket. Never starts a second dockerd
# (one with --bridge=none would delete docker0 under the first). Exits non-zero if no engine answers.
set -euo pipefail

if docker info >/dev/null 2>&1; then
    exit 0
fi
if ! command -v dockerd >/dev/null 2>&1; then
    echo "ensure-docker: installing docker.io" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq docker.io >/dev/null
fi
if ! pgrep -x dockerd >/dev/null 2>&1; then
    echo "ensure-docker: starting dockerd (log: /var/log/dockerd.log)" >&2
    nohup dockerd >/var/log/dockerd.log 2>&1 &
fi
for _ in $(seq 1 60); do
    if docker info >/dev/null 2>&1; then
        exit 0
    fi
    sleep 1
done
echo "ensure-docker: no Docker engine answers after 60 s (see /var/log/dockerd.log)" >&2
exit 1
