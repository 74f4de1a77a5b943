#!/usr/bin/env bash
# Start-to-ready, heap and RSS of in-process servers (io.kapi:kapi-testing's KapiServer); see
# testing/src/test/java/io/kapi/testing/StartBenchmark.java. Usage:
#   bench/testing-start.sh warm [N=20]   one JVM: a first server, then N more; p50/p99 of the N
#   bench/testing-start.sh cold [N=20]   N fresh JVMs, each timing its first server; heap and RSS of it idle
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/testing-start.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -f reactor.xml test-compile dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt \
  -Dmdep.includeScope=test -DexcludeArtifactIds=kapi
# the server's classes from this checkout, then the library's dependencies (the server's without the etcd client)
cp="testing/target/test-classes:testing/target/classes:target/classes:$(cat testing/target/bench-classpath.txt)"
exec "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp" io.kapi.testing.StartBenchmark "$@"
