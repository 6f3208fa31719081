#!/usr/bin/env bash
# Builds everything and runs every test (unit, ranks-as-threads, ranks-as-processes).
set -euo pipefail
cd "$(dirname "$0")"
exec mvn -B -ntp "$@" install
