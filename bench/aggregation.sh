#!/usr/bin/env bash
# Benchmarks what the aggregator's proxy to a remote APIService costs and writes
# bench/RESULTS-aggregation.md: GET of one object of a remote group-version
# (bench.example.com/v1) through the server (authentication, authorization, the proxy
# with its TLS client and X-Remote-* headers) against the same GET straight to the
# remote server, measured alternately in the same run, --rounds times. The remote server
# is kas-baseline (bare hyper + rustls, a fixed APIResourceList body on every path),
# registered with an APIService behind an ExternalName Service naming localhost.
# The report gives the median round, the throughput ratio (aggregated / direct) and the
# p50 latency the aggregator adds at one connection.
#
#   bench/aggregation.sh [--duration 5s] [--warmup 1s] [--rounds 4] [--connections "1 32"]
#                        [--skip-build] [--out FILE]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DURATION=${DURATION:-5s}
WARMUP=${WARMUP:-1s}
ROUNDS=${ROUNDS:-4}
CONNECTIONS=${CONNECTIONS:-"1 32"}
OUT=${OUT:-$ROOT/bench/RESULTS-aggregation.md}
while [[ $# -gt 0 ]]; do
    case $1 in
        --duration) DURATION=$2; shift 2 ;;
        --warmup) WARMUP=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --connections) CONNECTIONS=$2; shift 2 ;;
        --skip-build) SKIP_BUILD=1; shift ;;
        --out) OUT=$2; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 64 ;;
    esac
done
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=$TARGET_DIR/release
log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

if [[ ${SKIP_BUILD:-0} != 1 ]]; then
    log "building kas-bench and kube-apiserver (release)"
    (cd "$ROOT" && cargo build --release -p kas-bench -p kube-apiserver)
fi
LOAD=$BIN/kas-load
SERVER=${SERVER:-$BIN/kube-apiserver}
BASELINE=$BIN/kas-baseline

WORK=$(mktemp -d)
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

log "starting the remote API server (kas-baseline)"
REMOTE_PORT=$(free_port)
cat >"$WORK/resources.json" <<'EOF'
{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"bench.example.com/v1","resources":[{"name":"widgets","singularName":"widget","namespaced":true,"kind":"Widget","verbs":["get","list"]}]}
EOF
"$BASELINE" --port "$REMOTE_PORT" --self-signed-dir "$WORK/remote" \
    --body-file "$WORK/resources.json" --content-type application/json \
    >"$WORK/remote.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do grep -q listening "$WORK/remote.log" 2>/dev/null && break; sleep 0.05; done

log "starting the server"
PORT=$(free_port)
DATA=$WORK/server
mkdir -p "$DATA"
"$SERVER" --secure-port="$PORT" --bind-address=127.0.0.1 --data-dir="$DATA" \
    >"$WORK/server.log" 2>&1 &
PIDS+=($!)
"$LOAD" wait --url "https://127.0.0.1:$PORT/readyz" --timeout 60s \
    --cert "$DATA/pki/admin.crt" --key "$DATA/pki/admin.key" >/dev/null
kubectl --kubeconfig "$DATA/admin.kubeconfig" apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Namespace
metadata:
  name: bench
---
apiVersion: v1
kind: Service
metadata:
  name: remote
  namespace: bench
spec:
  type: ExternalName
  externalName: localhost
  ports:
  - name: https
    port: $REMOTE_PORT
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1.bench.example.com
spec:
  group: bench.example.com
  version: v1
  groupPriorityMinimum: 1000
  versionPriority: 15
  insecureSkipTLSVerify: true
  service:
    namespace: bench
    name: remote
    port: $REMOTE_PORT
EOF
kubectl --kubeconfig "$DATA/admin.kubeconfig" wait --for=condition=Available \
    apiservice/v1.bench.example.com --timeout=60s >/dev/null
OBJECT=/apis/bench.example.com/v1/namespaces/bench/widgets/one

load() { # name connections
    if [[ $1 == aggregated ]]; then
        "$LOAD" --url "https://127.0.0.1:$PORT$OBJECT" --cacert "$DATA/pki/ca.crt" \
            --cert "$DATA/pki/admin.crt" --key "$DATA/pki/admin.key" -c "$2" \
            --duration "$DURATION" --warmup "$WARMUP"
    else
        "$LOAD" --url "https://127.0.0.1:$REMOTE_PORT$OBJECT" --insecure -c "$2" \
            --duration "$DURATION" --warmup "$WARMUP"
    fi
}

results=$WORK/results.jsonl
for round in $(seq "$ROUNDS"); do
    # Which side goes first alternates, so neither gains from the order.
    order="aggregated direct"
    ((round % 2 == 0)) && order="direct aggregated"
    for c in $CONNECTIONS; do
        for name in $order; do
            log "round $round: $name x$c"
            printf '{"round": %s, "server": "%s", "connections": %s, "report": %s}\n' \
                "$round" "$name" "$c" "$(load "$name" "$c")" >>"$results"
        done
    done
done

model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
memory=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
commit=$(git -C "$ROOT" rev-parse --verify -q HEAD || echo "none")
dirty=$(git -C "$ROOT" status --porcelain 2>/dev/null | wc -l)
python3 - "$results" "$OUT" <<EOF
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
out = open(sys.argv[2], "w")
w = lambda s="": out.write(s + "\n")
w("# Benchmark results: the aggregator's proxy to a remote APIService")
w()
w("Written by \`bench/aggregation.sh\`. GET of one object of a remote group-version, HTTP/2 over")
w("TLS, one request in flight per connection: *aggregated* goes through the server (client")
w("certificate authentication, RBAC, the proxy's TLS client with the X-Remote-* headers) to the")
w("remote server; *direct* asks the remote server itself. The remote server is \`kas-baseline\`")
w("(bare hyper + rustls, fixed bytes) behind an ExternalName Service. Measured alternately in")
w("the same run; median of $ROUNDS rounds of $WARMUP warm-up + $DURATION.")
w()
w("* date: $(date -u '+%Y-%m-%d %H:%M UTC')")
w("* commit: \`$commit\`$([[ $dirty == 0 ]] || echo " (+$dirty uncommitted changes)")")
w("* machine: $(nproc) CPUs, ${model:-unknown CPU}, $memory RAM, Linux $(uname -r); load generator, server and remote server share the CPUs")
w()
w("| conns | aggregated req/s | direct req/s | **aggregated / direct** | aggregated p50 / p99 ms | direct p50 / p99 ms | **added p50 µs** | failed |")
w("|---:|---:|---:|---:|---:|---:|---:|---:|")
for c in sorted({r["connections"] for r in rows}):
    def med(name, key):
        return statistics.median(r["report"][key] for r in rows if r["server"] == name and r["connections"] == c)
    def failed(name):
        return sum(r["report"].get("errors", 0) + r["report"].get("non_2xx", 0) for r in rows if r["server"] == name and r["connections"] == c)
    ar, dr = med("aggregated", "rps"), med("direct", "rps")
    added = med("aggregated", "p50_us") - med("direct", "p50_us")
    w(f"| {c} | {ar:.0f} | {dr:.0f} | **{ar / dr:.2f}** | {med('aggregated', 'p50_us') / 1e3:.2f} / {med('aggregated', 'p99_us') / 1e3:.2f} | "
      f"{med('direct', 'p50_us') / 1e3:.2f} / {med('direct', 'p99_us') / 1e3:.2f} | **{added:.0f}** | {failed('aggregated') + failed('direct')} |")
w()
w("Targets (issue 13): added p50 < 150 µs; aggregated / direct ≥ 0.70.")
EOF
log "wrote $OUT"
