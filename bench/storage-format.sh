#!/usr/bin/env bash
# Protobuf against JSON storage (--storage-media-type) on the embedded backend: bytes of the store, resident
# memory and restart time at --configmaps configmaps and at --pods pods; see
# src/test/java/io/kapi/bench/StorageFormatBench.java. Usage:
#   bench/storage-format.sh [--configmaps=100000] [--pods=10000] [--clients=8] [--restarts=5] [--idle=20]
#                           [--media-types=application/json,application/vnd.kubernetes.protobuf]
# Servers are stopped and their data deleted at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/storage-format.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.bench.StorageFormatBench "$@"
