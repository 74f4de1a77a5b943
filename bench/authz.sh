#!/usr/bin/env bash
# RBAC authorizer microbenchmark (JMH, SampleTime: p50/p99 per request) with 10,000 RoleBindings; see
# src/test/java/io/kapi/bench/authz/RbacAuthorizerBenchmark.java.
# Usage: bench/authz.sh [JMH options, e.g. -p namespaces=100 -wi 2 -i 3]
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/authz.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -DskipTests test-compile
mvn -q -B dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-cp.txt >/dev/null
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:$(cat target/test-cp.txt)" \
  org.openjdk.jmh.Main RbacAuthorizerBenchmark "$@"
