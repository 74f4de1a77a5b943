#!/usr/bin/env bash
# ListEncodeBenchmark of this checkout against another revision, side by side in one JVM (see
# src/test/java/io/kapi/bench/protobuf/SideBySide.java): the encoding thread's CPU time per LIST of 5,000
# pods, medians over interleaved rounds, for a machine too busy for separate JMH runs to compare.
# Usage: bench/protobuf-ab.sh <base-rev> [methods, default json,protobufFirst] [rounds, default 40]
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
base_rev="$1" methods="${2:-json,protobufFirst}" rounds="${3:-40}"
base="$(mktemp -d "${TMPDIR:-/tmp}/kapi-ab.XXXXXX")"
trap 'git worktree remove --force "$base"' EXIT
git worktree add --detach "$base" "$base_rev" >/dev/null
for dir in "$base" "$PWD"; do
  (cd "$dir" && mvn -q -B -o -DskipTests test-compile \
     && mvn -q -B -o dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-cp.txt >/dev/null)
done
cp="target/test-classes:target/classes:$(cat target/test-cp.txt)"
for compact in false true; do
  for managed in true false; do
    "$JAVA_HOME/bin/java" -Xmx3g -cp "$cp" io.kapi.bench.protobuf.SideBySide "$base,$PWD" "$methods" \
      "$managed" "$compact" "$rounds" 20
  done
done
