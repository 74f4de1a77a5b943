#!/usr/bin/env bash
# Protobuf against JSON, encoding a LIST of running pods as the server streams it and a watch's initial
# events of them (JMH); see src/test/java/io/kapi/bench/protobuf/ListEncodeBenchmark.java and
# InitialEventsBenchmark.java. Prints the size of each encoding of the list, then JMH's times.
# Usage: bench/protobuf.sh [--pods=5000] [JMH options, e.g. -f 1 -wi 3 -i 5]
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/protobuf.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
pods=5000 jmh=()
for arg in "$@"; do
  case "$arg" in
    --pods=*) pods="${arg#--pods=}" ;;
    *) jmh+=("$arg") ;;
  esac
done
mvn -q -B -o -DskipTests test-compile
mvn -q -B -o dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-cp.txt >/dev/null
cp="target/test-classes:target/classes:$(cat target/test-cp.txt)"
"$JAVA_HOME/bin/java" -Xmx2g -cp "$cp" io.kapi.bench.protobuf.ListEncodeBenchmark "$pods"
exec "$JAVA_HOME/bin/java" -cp "$cp" org.openjdk.jmh.Main 'ListEncodeBenchmark|InitialEventsBenchmark' -p pods="$pods" "${jmh[@]}"
