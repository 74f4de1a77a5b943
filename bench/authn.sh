#!/usr/bin/env bash
# Per-authenticator latency (JMH, sample time): x509, token file, service-account JWT, OIDC JWT, webhook,
# and the token ones through the token cache; see src/test/java/io/kapi/bench/authn/AuthenticatorBenchmark.java.
# Usage: bench/authn.sh [JMH options, e.g. -wi 2 -i 3]. Prints the median (p0.50) µs per authentication.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/authn.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -o -DskipTests test-compile
mvn -q -B -o dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-cp.txt >/dev/null
out=target/authn-bench.csv
"$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:$(cat target/test-cp.txt)" \
  org.openjdk.jmh.Main AuthenticatorBenchmark -rf csv -rff "$out" "$@" >&2
# the p0.50 rows: benchmark, median µs
awk -F, 'NR > 1 { gsub(/"/, ""); if ($1 ~ /:p0\.50$/) { name = $1; sub(/^.*AuthenticatorBenchmark\./, "", name); sub(/:.*$/, "", name); printf "%-26s %10.2f\n", name, $5 } }' "$out" \
  | sort | awk 'BEGIN { printf "%-26s %10s\n", "authenticator", "median µs" } { print }'
