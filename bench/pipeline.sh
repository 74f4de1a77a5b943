#!/usr/bin/env bash
# Write-path benchmark: two builds of Kapi side by side (creates, gets, merge patches, server-side applies).
# Usage: bench/pipeline.sh --builds=before=/path/to/baseline,after=. [--backend=embedded] [--clients=8] [--rounds=3] [--warmup=500]
#        [--java.NAME='JVM options'] [--flags.NAME='--server-flag=value ...'] (extra server flags for the build NAME; one checkout may run
#        under two names: --builds=plain=.,audited=. --flags.audited='--audit-policy-file=...')
# Loopback only, bounded in requests and time; each server is stopped and its data deleted at the end.
# [--resident=true [--instances=N]]: N servers per build (default 1), started and warmed once, the rounds taking turns
# on them (the steady state; two servers of one build differ by up to 10 %, so give N of 3 or more, rounds a multiple
# of N).
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/e2e.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
# package: main classes, test classes (the load generator lives in src/test) and target/lib.
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.bench.PipelineBench "$@"
