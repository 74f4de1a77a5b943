#!/usr/bin/env bash
# The scheduler (issue 39): NODES Ready Nodes (default 1000) and PODS Pods (default 30000) on
# bin/kapi --scheduler=true, timed until every Pod is bound: Pods bound per second, server CPU and RSS.
# Usage: bench/scheduler.sh [NODES] [PODS]. Loopback only; the server stops at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/scheduler.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.bench.SchedulerBench "$@"
