#!/usr/bin/env bash
# Benchmarks what authorization costs per request and writes bench/RESULTS-authz.md: GET of
# one ConfigMap as a service account (bearer token, so not system:masters, whom
# authorization never asks about) against two servers seeded alike, one with the default
# `--authorization-mode=Node,RBAC` and one with `AlwaysAllow`, measured in the same run,
# alternating, --rounds times; the report gives the median round and the ratio
# RBAC / AlwaysAllow. The RBAC policy is realistic: the bootstrap roles plus --bindings
# RoleBindings spread over 100 namespaces, with the reader's own binding among them.
#
#   bench/authz.sh [--duration 5s] [--warmup 1s] [--rounds 4] [--connections "1 32"]
#                  [--bindings 1000] [--skip-build] [--out FILE]
#
# RBAC_MODE=AlwaysAllow runs the "RBAC" server with AlwaysAllow too: the ratio then shows
# the harness's own bias (two identical servers), to read the real result against.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DURATION=${DURATION:-5s}
WARMUP=${WARMUP:-1s}
ROUNDS=${ROUNDS:-4}
CONNECTIONS=${CONNECTIONS:-"1 32"}
BINDINGS=${BINDINGS:-1000}
OUT=${OUT:-$ROOT/bench/RESULTS-authz.md}
while [[ $# -gt 0 ]]; do
    case $1 in
        --duration) DURATION=$2; shift 2 ;;
        --warmup) WARMUP=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --connections) CONNECTIONS=$2; shift 2 ;;
        --bindings) BINDINGS=$2; shift 2 ;;
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

# start NAME MODE: a server on a free port with its own data dir; sets PORT_<NAME>.
start() {
    local name=$1 mode=$2 port data
    port=$(free_port)
    data=$WORK/$name
    mkdir -p "$data"
    "$SERVER" --secure-port="$port" --bind-address=127.0.0.1 --data-dir="$data" \
        --authorization-mode="$mode" >"$WORK/$name.log" 2>&1 &
    PIDS+=($!)
    "$LOAD" wait --url "https://127.0.0.1:$port/readyz" --timeout 60s \
        --cert "$data/pki/admin.crt" --key "$data/pki/admin.key" >/dev/null
    printf -v "PORT_$name" '%s' "$port"
}

# seed NAME: namespaces, the ConfigMap read, the reader with view in `bench`, and
# BINDINGS RoleBindings in all; prints the reader's token.
seed() {
    local name=$1 kubectl=(kubectl --kubeconfig "$WORK/$1/admin.kubeconfig")
    python3 - "$BINDINGS" >"$WORK/$name-seed.json" <<'EOF'
import json, sys
n = int(sys.argv[1])
items = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": f"team-{i}"}} for i in range(100)]
items += [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "bench"}},
          {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm", "namespace": "bench"},
           "data": {"k": "v" * 512}},
          {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "reader", "namespace": "bench"}}]
for i in range(n - 1):
    items.append({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
                  "metadata": {"name": f"rb-{i}", "namespace": f"team-{i % 100}"},
                  "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "edit"},
                  "subjects": [{"kind": "ServiceAccount", "name": f"sa-{i}", "namespace": f"team-{i % 100}"}]})
items.append({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
              "metadata": {"name": "reader-view", "namespace": "bench"},
              "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
              "subjects": [{"kind": "ServiceAccount", "name": "reader", "namespace": "bench"}]})
print(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
EOF
    "${kubectl[@]}" create -f "$WORK/$name-seed.json" >/dev/null
    "${kubectl[@]}" create token reader -n bench --duration=2h
}

log "starting the RBAC and AlwaysAllow servers"
start rbac "${RBAC_MODE:-Node,RBAC}"
start allow AlwaysAllow
TOKEN_rbac=$(seed rbac)
TOKEN_allow=$(seed allow)
PATH_CM=/api/v1/namespaces/bench/configmaps/cm

load() { # name connections
    local port_var=PORT_$1 token_var=TOKEN_$1
    "$LOAD" --url "https://127.0.0.1:${!port_var}$PATH_CM" --cacert "$WORK/$1/pki/ca.crt" \
        -H "Authorization: Bearer ${!token_var}" -c "$2" \
        --duration "$DURATION" --warmup "$WARMUP"
}

# Both must answer 200 before measuring (the reader's binding is in the cache).
for name in rbac allow; do
    port_var=PORT_$name token_var=TOKEN_$name
    for _ in $(seq 100); do
        code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$WORK/$name/pki/ca.crt" \
            -H "Authorization: Bearer ${!token_var}" "https://127.0.0.1:${!port_var}$PATH_CM")
        [[ $code == 200 ]] && break
        sleep 0.1
    done
    [[ $code == 200 ]] || { echo "$name: GET as the reader answers $code" >&2; exit 1; }
done

results=$WORK/results.jsonl
for round in $(seq "$ROUNDS"); do
    # Which server goes first alternates, so neither gains from the order.
    order="rbac allow"
    ((round % 2 == 0)) && order="allow rbac"
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
w("# Benchmark results: authorization" + ("" if "${RBAC_MODE:-Node,RBAC}" == "Node,RBAC" else " (harness check: both servers ${RBAC_MODE:-})"))
w()
w("Written by \`bench/authz.sh\`. GET of one ConfigMap (512-byte value) by a service account")
w("with a bearer token, HTTP/2 over TLS, one request in flight per connection, against two")
w("servers seeded alike and measured alternately in the same run: \`--authorization-mode=Node,RBAC\`")
w("(the default) with the bootstrap policy plus $BINDINGS RoleBindings over 100 namespaces, and")
w("\`AlwaysAllow\`. RBAC decides from the front door's in-memory policy (kept by etcd watches),")
w("so a decision reads no storage. Median of $ROUNDS rounds of $WARMUP warm-up + $DURATION.")
w()
w("* date: $(date -u '+%Y-%m-%d %H:%M UTC')")
w("* commit: \`$commit\`$([[ $dirty == 0 ]] || echo " (+$dirty uncommitted changes)")")
w("* machine: $(nproc) CPUs, ${model:-unknown CPU}, $memory RAM, Linux $(uname -r); load generator and servers share the CPUs")
w()
w("| conns | RBAC req/s | AlwaysAllow req/s | **RBAC / AlwaysAllow** | RBAC p50 / p99 ms | AlwaysAllow p50 / p99 ms | failed |")
w("|---:|---:|---:|---:|---:|---:|---:|")
for c in sorted({r["connections"] for r in rows}):
    def med(name, key):
        return statistics.median(r["report"][key] for r in rows if r["server"] == name and r["connections"] == c)
    def failed(name):
        return sum(r["report"].get("errors", 0) + r["report"].get("non_2xx", 0) for r in rows if r["server"] == name and r["connections"] == c)
    rr, ar = med("rbac", "rps"), med("allow", "rps")
    w(f"| {c} | {rr:.0f} | {ar:.0f} | **{rr / ar:.2f}** | {med('rbac', 'p50_us') / 1e3:.2f} / {med('rbac', 'p99_us') / 1e3:.2f} | "
      f"{med('allow', 'p50_us') / 1e3:.2f} / {med('allow', 'p99_us') / 1e3:.2f} | {failed('rbac') + failed('allow')} |")
EOF
log "wrote $OUT"
