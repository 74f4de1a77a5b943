#!/usr/bin/env bash
# Contention on one object through a real bin/kapi, as a new user would try it: N clients (curl processes,
# one TLS connection per request) each send M unconditional merge patches of one configmap, each adding its
# own key; prints the status codes, the time taken and how many of the N*M keys are in the stored object.
# Usage: bench/contention.sh [clients=16] [patches=100]
# Loopback only; the server and its data directory are removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
clients="${1:-16}"
patches="${2:-100}"
work="$(mktemp -d "${TMPDIR:-/tmp}/kapi-contention.XXXXXX")"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
bin/kapi --data-dir="$work/data" --bind-address=127.0.0.1 --secure-port="$port" >"$work/kapi.log" 2>&1 &
kapi=$!
trap 'kill "$kapi" 2>/dev/null || true; wait "$kapi" 2>/dev/null || true; rm -rf "$work"' EXIT
until curl -sk "https://127.0.0.1:$port/readyz" 2>/dev/null | grep -q '^ok'; do
  kill -0 "$kapi" 2>/dev/null || { echo "bench/contention.sh: the server did not start" >&2; tail "$work/kapi.log" >&2; exit 1; }
  sleep 0.2
done
python3 - "$work/data/admin.kubeconfig" "$work" <<'PY'
import base64, re, sys
text = open(sys.argv[1]).read()
for field, name in [("certificate-authority-data", "ca"), ("client-certificate-data", "cert"), ("client-key-data", "key")]:
    open(f"{sys.argv[2]}/{name}.pem", "wb").write(base64.b64decode(re.search(field + r": (\S+)", text).group(1)))
PY
tls=(--cacert "$work/ca.pem" --cert "$work/cert.pem" --key "$work/key.pem")
url="https://127.0.0.1:$port/api/v1/namespaces/default/configmaps"
curl -s "${tls[@]}" -X POST -H 'Content-Type: application/json' "$url" -d '{"metadata":{"name":"hot"}}' -o /dev/null
export url patches
export tls_args="${tls[*]}"
start=$(date +%s%N)
seq 0 $((clients - 1)) | xargs -P "$clients" -I{} bash -c '
  for i in $(seq 0 $((patches - 1))); do
    # shellcheck disable=SC2086 # tls_args is a list of options
    curl -s $tls_args -X PATCH -H "Content-Type: application/merge-patch+json" "$url/hot" \
      -d "{\"data\":{\"c{}-$i\":\"v\"}}" -o /dev/null -w "%{http_code}\n"
  done' >"$work/codes"
end=$(date +%s%N)
echo "$clients clients x $patches merge patches of one configmap: $(sort "$work/codes" | uniq -c | awk '{printf "%s x %s ", $1, $2}')in $(( (end - start) / 1000000 )) ms"
keys=$(curl -s "${tls[@]}" "$url/hot" | python3 -c 'import json, sys; print(len(json.load(sys.stdin).get("data", {})))')
echo "keys present: $keys of $((clients * patches))"
