#!/usr/bin/env bash
# Start-to-ready, heap and RSS of in-process servers (io.kapi:kapi-testing's KapiServer); see
# testing/src/test/java/io/kapi/testing/StartBenchmark.java. Usage:
#   bench/testing-start.sh warm [N=20]      one JVM: a first server, then N more; p50/p99 of the N
#   bench/testing-start.sh cold [N=20]      N fresh JVMs, each timing its first server; heap and RSS of it idle
#   bench/testing-start.sh cold-junit [N=20] as cold, each first server started by a test the JUnit Platform
#                                           runs, as in a Maven test run (JUnit has opened the jars first)
#   bench/testing-start.sh cold-floor [N=20] N rounds of two fresh JVMs: a cold one, and one doing only what Kapi's
#                                           dependencies cost any first start (StartFloor: Jackson, four P-256
#                                           keys, a Jetty HTTPS listener); both, and their ratio (host speed out)
#   bench/testing-start.sh loopback [N=20]   N fresh JVMs, each timing 300 configmap creates through the API's loopback
#                                           client after its first server started (the bootstrap hooks' cold path)
#   bench/testing-start.sh restore [N=20]   restores of a snapshot of 300 configmaps after 300 changes each; p50/p99
#   bench/testing-start.sh cold-aot [N=20]  cold with a JDK 25 AOT cache: one training JVM (-XX:AOTCacheOutput)
#                                           makes testing/target/start-bench.aot, then N fresh JVMs start with it
#                                           (how much of a first start is class loading, linking and profiling)
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/testing-start.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mode="${1:-warm}"
java=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED)
mvn -q -B -f reactor.xml package -DskipTests dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt
# The class path of a Maven project's tests that depends on io.kapi:kapi-testing: its test classes (here the
# benchmark), the library's jar, then its dependencies in the order Maven resolved them, the server's jar
# first. Not filtered: build-classpath's artifact filters lose that order (MDEP-501), which put the
# server's own dependencies behind a hundred test jars.
# The two jars are copied out of target/ first: the server's manifest names target/lib's jars on its
# Class-Path (for java -jar), which a JVM would add behind it; beside an installed jar there are none.
jars=testing/target/bench-jars
rm -rf "$jars" && mkdir -p "$jars"
server="$(ls target/kapi-*.jar | grep -v -e '-sources\.jar$' -e '-tests\.jar$' | head -n 1)"
built_library="$(ls testing/target/kapi-testing-*.jar | grep -v -e '-sources\.jar$' -e '-tests\.jar$' | head -n 1)"
cp "$server" "$built_library" "$jars/"
library="$jars/$(basename "$built_library")"
deps="$(tr ':' '\n' < testing/target/test-classpath.txt | sed "s#^.*/target/$(basename "$server")\$#$jars/$(basename "$server")#" | paste -sd:)"
if [[ "$mode" != "cold-aot" ]]; then
  exec "${java[@]}" -cp "testing/target/test-classes:$library:$deps" io.kapi.testing.StartBenchmark "$@"
fi
# An AOT cache takes jars only (no directories): the benchmark's classes go into a jar of their own.
# Every class of the benchmark's own (StartBenchmark and its nested classes, StartFloor).
bench_classes=()
for class in testing/target/test-classes/io/kapi/testing/Start{Benchmark,Floor}*.class; do
  bench_classes+=(-C testing/target/test-classes "${class#testing/target/test-classes/}")
done
"$JAVA_HOME/bin/jar" cf testing/target/start-bench.jar "${bench_classes[@]}"
cp="testing/target/start-bench.jar:$library:$deps"
aot=testing/target/start-bench.aot
rm -f "$aot"
echo "training run (makes $aot):"
"${java[@]}" -XX:AOTCacheOutput="$aot" -Xlog:aot=warning -Xlog:cds=warning -cp "$cp" io.kapi.testing.StartBenchmark once
shift || true
exec "${java[@]}" -XX:AOTCache="$aot" -Xlog:aot=warning -Xlog:cds=warning -cp "$cp" io.kapi.testing.StartBenchmark cold "$@"
