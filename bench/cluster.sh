#!/usr/bin/env bash
# Issue 39's scale and speed: bin/kapi --simulated-nodes=N (the scheduler and the workload controllers on), N nodes
# (default 1,000) and P Pods (default 30,000) as Deployments of 1,000: Pods bound per second, time to all Available,
# CPU and RSS; a 3-replica Deployment's time to Available (cold, warm, at scale); idle CPU at that scale.
# Usage: bench/cluster.sh [N] [P]. Loopback only; the server stops at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/cluster.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.bench.ClusterBench "$@"
