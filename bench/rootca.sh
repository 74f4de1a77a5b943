#!/usr/bin/env bash
# How soon a new namespace has its kube-root-ca.crt ConfigMap and its default ServiceAccount, on a bin/kapi
# started with --authorization-mode=Node,RBAC (the publisher and the account controller act under their own
# identities). A watch of both kinds runs from the start; N namespaces are created one after another, and each
# object's latency is the time from the namespace's 201 to the watch event that brought it. Prints p50, p90
# and max in milliseconds. Usage: bench/rootca.sh [N=50]. Loopback only; the server and its data go at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-50}
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
bin/kapi --data-dir="$work/data" --secure-port="$port" --bind-address=127.0.0.1 \
  --authorization-mode=Node,RBAC > "$work/server.log" 2>&1 &
server=$!
watchers=()
cleanup() {
  for p in "${watchers[@]}"; do kill "$p" 2>/dev/null || true; done
  kill -TERM "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
until grep -q "Kapi is ready" "$work/server.log"; do
  kill -0 "$server" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.2
done
kc="$work/data/admin.kubeconfig"
field() { grep "$1" "$kc" | head -1 | awk '{print $2}' | base64 -d > "$work/$2"; }
field client-certificate-data admin.crt
field client-key-data admin.key
field certificate-authority-data ca.crt
api="https://127.0.0.1:$port"
curlx() { curl -sS --cacert "$work/ca.crt" --cert "$work/admin.crt" --key "$work/admin.key" "$@"; }
stamp() { while IFS= read -r line; do printf '%s %s\n' "$(date +%s%N)" "$line"; done; }
rv=$(curlx "$api/api/v1/configmaps?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["resourceVersion"])')
for what in "configmaps?fieldSelector=metadata.name%3Dkube-root-ca.crt" "serviceaccounts?fieldSelector=metadata.name%3Ddefault"; do
  curlx -N "$api/api/v1/$what&watch=1&resourceVersion=$rv" | stamp >> "$work/events" &
  watchers+=($!)
done
sleep 1
for i in $(seq "$n"); do
  curlx -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -X POST "$api/api/v1/namespaces" \
    -d "{\"metadata\":{\"name\":\"rootca-$i\"}}" | grep -q 201
  printf '%s rootca-%s\n' "$(date +%s%N)" "$i" >> "$work/created"
  sleep 0.05
done
sleep 2
python3 - "$work/created" "$work/events" <<'PY'
import json, sys
created = {}
for line in open(sys.argv[1]):
    t, ns = line.split()
    created[ns] = int(t)
lat = {"ConfigMap": [], "ServiceAccount": []}
for line in open(sys.argv[2]):
    t, body = line.split(" ", 1)
    event = json.loads(body)
    obj = event["object"]
    ns = obj["metadata"].get("namespace")
    if event["type"] == "ADDED" and ns in created:
        lat[obj["kind"]].append((int(t) - created[ns]) / 1e6)
for kind, xs in lat.items():
    xs.sort()
    if len(xs) < len(created):
        print(f"{kind}: only {len(xs)} of {len(created)} namespaces")
    if xs:
        pick = lambda q: xs[min(len(xs) - 1, int(q * len(xs)))]
        print(f"{kind:15s} n={len(xs)} p50={pick(0.5):.1f} ms p90={pick(0.9):.1f} ms max={xs[-1]:.1f} ms "
              "(from the namespace's 201 to the watch event)")
PY
