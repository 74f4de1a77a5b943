#!/usr/bin/env bash
# The latency admission adds to a create (none, one HTTPS webhook, one CEL policy), in memory; see
# src/test/java/io/kapi/bench/admission/AdmissionLatencyBench.java.
# Usage: bench/admission.sh [--rounds=3] [--creates=2000]
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
mvn -q -B -DskipTests test-compile
mvn -q -B dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-cp.txt >/dev/null
"$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:$(cat target/test-cp.txt)" \
  io.kapi.bench.admission.AdmissionLatencyBench "$@"
