#!/usr/bin/env bash
# The embedded store's own write ceiling (JMH): 8 threads of durable creates against RocksDB with group
# commit, one watch on the prefix; see src/test/java/io/kapi/bench/storage/StoreWriteBenchmark.java.
# Usage: bench/store.sh [JMH options, e.g. -f 1 -i 5]. Compare with bench/pipeline.sh's creates/s (8 clients).
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/store.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -o -DskipTests test-compile
mvn -q -B -o dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-cp.txt >/dev/null
cp="target/test-classes:target/classes:$(cat target/test-cp.txt)"
exec "$JAVA_HOME/bin/java" -cp "$cp" org.openjdk.jmh.Main 'StoreWriteBenchmark' -jvmArgs "--enable-native-access=ALL-UNNAMED -Dkapi.rocksdb.libraryDir=$PWD/target/native" "$@"
