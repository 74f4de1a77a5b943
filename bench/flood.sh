#!/usr/bin/env bash
# API Priority and Fairness under a flood (issue 35, part 7 a-c): one server of this checkout, users A
# (LIST floods), B (GETs), C and D (equal demand in one level) and an admin, all on loopback.
# Usage: bench/flood.sh [--objects=10000] [--flooders=64] [--getters=8] [--seconds=20] [--rounds=3] [--admin=process|thread]
#        [--server-ahead=false|true]
# The server is stopped and its data deleted at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.bench.FloodBench "$@"
