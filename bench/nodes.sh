#!/usr/bin/env bash
# Simulated nodes (issue 39): bin/kapi --simulated-nodes=N (default 1000) until every node has its Lease, then
# RSS and CPU over S idle seconds (default 30: the heartbeats alone); with P, P Pods bound round-robin to the
# nodes until all are Running. The same idle figures without simulated nodes last.
# Usage: bench/nodes.sh [N] [S] [P]. Loopback only; servers stop at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/nodes.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.bench.NodesBench "$@"
