#!/usr/bin/env bash
# Slow and greedy clients against real Kapi servers, one build after another, side by side:
#   bench/hostile.sh [--projects=after:.,before:/path/to/older/checkout] [--slowloris=200] [--slow-bodies=50]
#                    [--slow-seconds=70] [--idle=2000] [--objects=10000] [--lists=16] [--list-seconds=30]
#                    [--server-args=-v=2,--flag=value]   (extra bin/kapi flags, comma-separated)
# Each project must be a built Kapi checkout (bin/kapi builds it when stale). Loopback only (attackers from
# 127.0.0.2 and 127.0.0.3), bounded in count and time; servers are stopped and their data deleted.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/hostile.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
mvn -q -B -DskipTests package
exec "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:target/lib/*" \
  -Dkapi.e2e.projectDir="$PWD" io.kapi.bench.hostile.HostileBench "$@"
