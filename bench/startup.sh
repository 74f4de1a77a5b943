#!/usr/bin/env bash
# Start-to-ready of bin/kapi, builds side by side: bench/startup.sh --builds=before=DIR,after=DIR [--rounds=10]
# Each round starts every build once, in turn, on a fresh data directory (a first start: CA, keys, bootstrap
# objects), and times from the exec to the first 200 of /readyz (polled every 10 ms with curl); then stops it.
# Prints each build's times, their median, and each build's median against the first build's.
# Loopback only; every server is stopped and its data deleted.
set -euo pipefail
builds="" rounds=10
for a in "$@"; do
  case "$a" in
    --builds=*) builds="${a#--builds=}" ;;
    --rounds=*) rounds="${a#--rounds=}" ;;
    *) echo "startup.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done
[[ -n "$builds" ]] || { echo "usage: bench/startup.sh --builds=name=DIR,name=DIR [--rounds=N]" >&2; exit 2; }
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
IFS=, read -ra pairs <<< "$builds"
declare -A times
for ((r = 1; r <= rounds; r++)); do
  for p in "${pairs[@]}"; do
    name="${p%%=*}" dir="${p#*=}"
    data=$(mktemp -d) port=$((20000 + RANDOM % 20000))
    t0=$(date +%s%N)
    "$dir/bin/kapi" --secure-port=$port --bind-address=127.0.0.1 --data-dir="$data" > "$data/log" 2>&1 &
    pid=$!
    until curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$port/readyz" 2>/dev/null | grep -q 200; do
      kill -0 $pid 2>/dev/null || { echo "startup.sh: $name exited: $(tail -5 "$data/log")" >&2; exit 1; }
      sleep 0.01
    done
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    times[$name]="${times[$name]:-} $ms"
    kill $pid; wait $pid 2>/dev/null || true
    rm -rf "$data"
  done
done
median() { tr ' ' '\n' <<< "$1" | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
first=""
for p in "${pairs[@]}"; do
  name="${p%%=*}" m=$(median "${times[$name]}")
  [[ -n "$first" ]] || first=$m
  printf '%-12s median %6s ms  ratio %.2f  (ms:%s)\n' "$name" "$m" "$(echo "$m / $first" | bc -l)" "${times[$name]}"
done
