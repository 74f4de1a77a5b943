#!/usr/bin/env bash
# Warm-up after a restart (issue 32): how soon each build serves at its peak; builds side by side, interleaved.
# Usage: bench/warmup.sh --builds=before=/path/to/baseline,after=. [--starts=3] [--rounds=10] [--seconds=8]
#        [--clients=8] [--configmaps=1000] [--flags.NAME='--server-flag ...'] [--java.NAME='JVM options']
# (--java.NAME goes to bin/kapi as KAPI_JAVA_OPTS: one checkout may run under two names with other JVM options.)
# Loopback only; each server is stopped and its data deleted at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/warmup.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
# package: main classes, test classes (the load generator lives in src/test) and target/lib.
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.bench.WarmupBench "$@"
