#!/usr/bin/env bash
# CustomResourceDefinitions at scale; see src/test/java/io/kapi/bench/CrdScaleBench.java. Usage:
#   bench/crd-scale.sh [--count=500] [--clients=4] [--rounds=5] [--limit-seconds=60]
# One bin/kapi (memory storage) on loopback: memory and discovery/OpenAPI latencies empty (the baseline)
# and with --count CRDs, the time from each create to Established and until all are, the create latency
# of a custom resource with a CEL rule. CRDs not Established within --limit-seconds are reported as such
# (a loaded 2-core machine took 70-82 s for 500). The server is stopped and its data deleted at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/crd-scale.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.bench.CrdScaleBench "$@"
