#!/usr/bin/env bash
# A long fuzzing campaign against a real Kapi (bin/test runs a short one, FuzzIT):
#   bench/fuzz.sh [--seconds=600] [--seed=N] [--workers=4] [--max-requests=10000000]
# Mutated requests of every verb, body format and patch type; fails (exit 1) on any 5xx, hang (> 5 s),
# lost stream or dead request thread, and prints the request count and status histogram.
# Loopback only, bounded in time and count; the server is stopped and its data deleted at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/fuzz.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.e2e.fuzz.Campaign "$@"
