#!/usr/bin/env bash
# Value-type microbenchmark (JMH): label selector matching and parsing, quantity canonicalisation, check
# and parsing; see src/test/java/io/kapi/bench/values/ValuesBenchmark.java.
# Usage: bench/values.sh [--baseline=DIR] [--rounds=2] [JMH options, e.g. -f 1 -wi 3 -i 5]
#   --baseline=DIR: a tree holding a ValuesBenchmark of the same workloads against its own API (an older
#   Kapi); its rounds and this tree's alternate, baseline first, and the medians are printed side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "bench/values.sh: needs JDK 25 (set JAVA_HOME; tried $JAVA_HOME)" >&2
  exit 1
fi
baseline="" rounds=2 jmh=()
for arg in "$@"; do
  case "$arg" in
    --baseline=*) baseline="${arg#--baseline=}" ;;
    --rounds=*) rounds="${arg#--rounds=}" ;;
    *) jmh+=("$arg") ;;
  esac
done
build() {
  (cd "$1" && mvn -q -B -DskipTests test-compile \
    && mvn -q -B dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-cp.txt >/dev/null)
}
run() { # tree label round
  local out="target/values-bench-$2-$3.csv"
  (cd "$1" && "$JAVA_HOME/bin/java" -cp "target/test-classes:target/classes:$(cat target/test-cp.txt)" \
    org.openjdk.jmh.Main ValuesBenchmark -rf csv -rff "$OLDPWD/$out" "${jmh[@]}" >&2)
  echo "$out"
}
build .
[ -n "$baseline" ] && build "$baseline"
results=()
for ((r = 1; r <= rounds; r++)); do
  [ -n "$baseline" ] && results+=("before:$(run "$baseline" before "$r")")
  results+=("after:$(run . after "$r")")
done
# median of the per-round scores, per benchmark and side
printf '%s\n' "${results[@]}" | while IFS=: read -r side file; do
  tail -n +2 "$file" | awk -F, -v side="$side" '{gsub(/"/, ""); n = split($1, p, "."); print p[n], side, $5}'
done | sort -k1,1 -k2,2 -k3,3g | awk '
  { key = $1 " " $2; n[key]++; v[key, n[key]] = $3; names[$1] = 1 }
  function median(k,   c) { c = n[k]; if (c == 0) return ""; return c % 2 ? v[k, (c + 1) / 2] : (v[k, c / 2] + v[k, c / 2 + 1]) / 2 }
  END {
    printf "%-20s %12s %12s %7s\n", "benchmark (ns/op)", "before", "after", "ratio"
    for (b in names) {
      before = median(b " before"); after = median(b " after")
      printf "%-20s %12s %12s %7s\n", b, before, after, (before != "" && after != "" ? sprintf("%.2f", after / before) : "")
    }
  }'
