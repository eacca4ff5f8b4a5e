#!/usr/bin/env bash
# What the storage codec costs end to end (issue 16): GET and CREATE (generateName) of one
# Deployment at 1 and 32 connections against two servers started alike but for
# --storage-media-type (application/json vs the default protobuf), embedded store,
# measured alternately round after round. Prints one JSON line per measurement and the
# median round's ratios on stderr.
#
#   ROUNDS=3 DURATION=4s bench/storage_format.sh          (release binaries in target/)
#   BIN=<dir> bench/storage_format.sh                     (binaries built elsewhere)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release}
ROUNDS=${ROUNDS:-3}; DURATION=${DURATION:-4s}; WARMUP=${WARMUP:-1s}
WORK=$(mktemp -d); PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
start() {
    local name=$1 port data; shift
    port=$(free_port); data=$WORK/$name; mkdir -p "$data"
    "$BIN/kube-apiserver" --secure-port="$port" --bind-address=127.0.0.1 --data-dir="$data" "$@" >"$WORK/$name.log" 2>&1 &
    PIDS+=($!)
    "$BIN/kas-load" wait --url "https://127.0.0.1:$port/readyz" --timeout 60s --cert "$data/pki/admin.crt" --key "$data/pki/admin.key" >/dev/null
    printf -v "PORT_$name" '%s' "$port"
    kubectl --kubeconfig "$data/admin.kubeconfig" create namespace bench >/dev/null
    kubectl --kubeconfig "$data/admin.kubeconfig" -n bench create -f "$WORK/get-me.json" >/dev/null
}
cat >"$WORK/deploy.json" <<'J'
{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generateName":"d-","labels":{"app":"web"}},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.27","ports":[{"containerPort":80}],"env":[{"name":"MODE","value":"fast"}],"resources":{"limits":{"cpu":"500m","memory":"128Mi"}}}]}}}}
J
python3 - "$WORK" <<'P'
import json,sys
d=json.load(open(sys.argv[1]+'/deploy.json')); d['metadata']={'name':'get-me','labels':{'app':'web'}}
json.dump(d,open(sys.argv[1]+'/get-me.json','w'))
P
start json --storage-media-type=application/json
start protobuf
load() {
    local port_var=PORT_$1 url
    url="https://127.0.0.1:${!port_var}/apis/apps/v1/namespaces/bench/deployments"
    local args=(--cacert "$WORK/$1/pki/ca.crt" --cert "$WORK/$1/pki/admin.crt" --key "$WORK/$1/pki/admin.key" -c "$3" --duration "$DURATION" --warmup "$WARMUP")
    if [[ $2 == create ]]; then
        "$BIN/kas-load" --url "$url" "${args[@]}" -X POST -H "Content-Type: application/json" --body-file "$WORK/deploy.json"
    else
        "$BIN/kas-load" --url "$url/get-me" "${args[@]}"
    fi
}
{
for round in $(seq "$ROUNDS"); do
  for op in get create; do
    for c in 1 32; do
      for name in $( ((round % 2)) && echo "json protobuf" || echo "protobuf json"); do
        printf '{"round": %s, "server": "%s", "op": "%s", "c": %s, "report": %s}\n' "$round" "$name" "$op" "$c" "$(load "$name" "$op" "$c")"
      done
    done
  done
done
} | tee "$WORK/results.jsonl"
python3 - "$WORK/results.jsonl" >&2 <<'P'
import collections, json, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[(r["op"], r["c"], r["server"])].append(r["report"]["rps"])
for op in ("get", "create"):
    for c in (1, 32):
        j, p = (statistics.median(runs[(op, c, s)]) for s in ("json", "protobuf"))
        print(f"{op} x{c}: json {j:.0f}/s, protobuf {p:.0f}/s, protobuf/json {p / j:.2f}")
P
