#!/usr/bin/env bash
# End-to-end benchmark: real Kapi processes (embedded store vs a real etcd started for the run), real TLS, HTTP/2
# clients: creates/s, gets/s, watch delivery.
# Usage: bench/e2e.sh [--backends=embedded,etcd] [--clients=8] [--creates=10000] [--gets=20000]
#                     [--watchers=10] [--watch-events=2000]  (backends: embedded, memory, etcd, etcd3 = 3 members)
#                     [--warmup=1000] [--phase-seconds=120]
# Loopback only, bounded in requests and time; each server is stopped and its data deleted at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/e2e.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
# package: main classes, test classes (the load generator lives in src/test) and target/lib.
mvn -q -B -DskipTests package
# the test class path too: the etcd backends start members with the tests' EtcdCluster
mvn -q -B dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt >/dev/null
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.bench.E2eBench "$@"
