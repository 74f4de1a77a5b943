#!/usr/bin/env bash
# List and watch benchmark against a real bin/kapi process (loopback, TLS, HTTP/2); see
# src/test/java/io/kapi/bench/watch/WatchBench.java. Usage:
#   bench/watch.sh [--configmaps=10000] [--lists=50] [--watchers=100] [--creates=2000] [--backend=embedded|memory]
#                  [--java-opts=-Xmx1g]  (KAPI_JAVA_OPTS of the server)
#                  [--resource=configmaps|pods] [--accept=json|protobuf] [--rounds=R] [--replay=R] [--write-rate=N]
#   --replay=R: the deliveries alone, JSON against protobuf (writes once, then watchers replaying them; WatchBench)
# The server it starts is stopped and its data deleted at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/watch.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.projectDir="$PWD" io.kapi.bench.watch.WatchBench "$@"
