#!/usr/bin/env bash
# Memory and start-up of real bin/kapi processes, one checkout or several side by side; see
# src/test/java/io/kapi/bench/MemoryBench.java. Usage:
#   bench/memory.sh [--projects=after=.,before=/path/to/a/main/checkout] [--small=12000] [--large=100000]
#                   [--restarts=10] [--clients=8] [--watchers=20] [--idle=20] [--warmup=3000]
# Each checkout's own bin/kapi is used (its build and its JVM options). Servers are stopped and their
# data deleted at the end. Compare against main with a worktree: git worktree add ../kapi-main main
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/memory.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.bench.MemoryBench "$@"
