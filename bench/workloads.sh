#!/usr/bin/env bash
# The workload controllers (issue 38): a Deployment of N replicas (default 100) on bin/kapi --controllers=*,
# the time to its ReplicaSet and to all N Pods; then idle CPU over S seconds (default 20) with the controllers
# on and with bin/kapi's default set; with D, D Deployments of 3 replicas at once (time to all rolled out, memory).
# Usage: bench/workloads.sh [N] [S] [D]. Loopback only; servers stop at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/workloads.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.bench.WorkloadBench "$@"
