#!/usr/bin/env bash
# Storage at scale (issue 14's benchmark): loads N ConfigMaps (1 KiB of data each)
# through the API into the embedded store, then into Debian's etcd (the server started
# with --etcd-servers), and reports for each: the store process's RSS, its size on disk,
# GET / LIST (first page of 500) / POST throughput and p99 at 1 and 16 connections, and
# the time from a restart to /readyz with the data in place. Writes
# bench/RESULTS-storage-scale.md.
#
#   bench/storage_scale.sh [--objects 200000] [--duration 5s] [--skip-build] [--out FILE]
#
# Needs etcd (Debian's etcd-server) and curl on PATH.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=$TARGET_DIR/release
OUT=$ROOT/bench/RESULTS-storage-scale.md
OBJECTS=200000
DURATION=5s
SKIP_BUILD=0
while [[ $# -gt 0 ]]; do
    case $1 in
        --objects) OBJECTS=$2; shift 2 ;;
        --duration) DURATION=$2; shift 2 ;;
        --skip-build) SKIP_BUILD=1; shift ;;
        --out) OUT=$2; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done

log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

if [[ $SKIP_BUILD != 1 ]]; then
    log "building kas-bench and kube-apiserver (release)"
    (cd "$ROOT" && cargo build --release -p kas-bench -p kube-apiserver)
fi
SERVER=$BIN/kube-apiserver
OBJ=$BIN/kas-objects
LOAD=$BIN/kas-load
ETCD=$(command -v etcd || true)
[[ -n $ETCD ]] || { echo "etcd is not on PATH (apt-get install etcd-server)" >&2; exit 1; }

WORK=$(mktemp -d)
RESULTS=$WORK/results.jsonl
SERVER_PID=
ETCD_PID=
cleanup() {
    [[ -n $SERVER_PID ]] && kill "$SERVER_PID" 2>/dev/null || true
    [[ -n $ETCD_PID ]] && kill "$ETCD_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

record() { # kind labels-json result-json
    printf '{"kind":"%s","labels":%s,"result":%s}\n' "$1" "$2" "$3" >>"$RESULTS"
}

start_server() { # data-dir port [flags...]
    local data=$1 port=$2
    shift 2
    "$SERVER" --secure-port="$port" --bind-address=127.0.0.1 --data-dir="$data" \
        --shutdown-delay-duration=0s "$@" >>"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
}

# Milliseconds until /readyz answers ok (polled every ~5 ms once the admin cert exists).
wait_ready() { # data-dir port started-ms
    local data=$1 port=$2 started=$3 deadline=$(( $3 + 120000 ))
    while (( $(now_ms) < deadline )); do
        if [[ -f $data/pki/admin.key ]] &&
            curl -sk --max-time 2 --cert "$data/pki/admin.crt" --key "$data/pki/admin.key" \
                "https://127.0.0.1:$port/readyz" 2>/dev/null | grep -qx ok; then
            echo $(( $(now_ms) - started ))
            return 0
        fi
        sleep 0.005
    done
    echo "the server never became ready" >&2
    return 1
}

stop_server() {
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
}

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
hwm_kib() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }
worker_pid() { # role
    "$OBJ" rss --pid "$SERVER_PID" | python3 -c "import json,sys; print(next(w['pid'] for w in json.load(sys.stdin)['workers'] if w['role']=='$1'))"
}

for target in embedded etcd; do
    data=$WORK/$target
    port=$(free_port)
    flags=()
    store_dir=$data/store
    if [[ $target == etcd ]]; then
        client=$(free_port)
        peer=$(free_port)
        store_dir=$WORK/etcd-data
        start_etcd() {
            "$ETCD" --data-dir "$store_dir" --listen-client-urls "http://127.0.0.1:$client" \
                --advertise-client-urls "http://127.0.0.1:$client" \
                --listen-peer-urls "http://127.0.0.1:$peer" >>"$WORK/etcd.log" 2>&1 &
            ETCD_PID=$!
        }
        start_etcd
        "$LOAD" etcd --endpoint "http://127.0.0.1:$client" --wait-only 30s >/dev/null
        flags=(--etcd-servers="http://127.0.0.1:$client")
    fi
    log "$target: starting the server"
    started=$(now_ms)
    start_server "$data" "$port" "${flags[@]}"
    wait_ready "$data" "$port" "$started" >/dev/null
    API=(--url "https://127.0.0.1:$port" --cacert "$data/pki/ca.crt" --cert "$data/pki/admin.crt" --key "$data/pki/admin.key")

    log "$target: seeding $OBJECTS ConfigMaps"
    record seed "{\"target\":\"$target\"}" "$("$OBJ" seed "${API[@]}" --count "$OBJECTS" -c 32)"
    if [[ $target == etcd ]]; then store_pid=$ETCD_PID; else store_pid=$(worker_pid storage); fi
    kube_api=$(worker_pid kube-api)
    record memory "{\"target\":\"$target\",\"stage\":\"loaded\"}" \
        "{\"store_rss_kib\":$(rss_kib "$store_pid"),\"store_hwm_kib\":$(hwm_kib "$store_pid"),\"kube_api_rss_kib\":$(rss_kib "$kube_api"),\"disk_bytes\":$(du -sb "$store_dir" | cut -f1)}"

    for op in get list create; do
        for c in 1 16; do
            log "$target: $op, $c connections"
            extra=()
            [[ $op == list ]] && extra=(--limit 500)
            record api "{\"target\":\"$target\",\"op\":\"$op\",\"connections\":$c}" \
                "$("$OBJ" load "${API[@]}" --op "$op" --objects "$OBJECTS" -c "$c" --duration "$DURATION" "${extra[@]}")"
        done
    done
    record memory "{\"target\":\"$target\",\"stage\":\"after the loads\"}" \
        "{\"store_rss_kib\":$(rss_kib "$store_pid"),\"store_hwm_kib\":$(hwm_kib "$store_pid"),\"kube_api_rss_kib\":$(rss_kib "$kube_api"),\"disk_bytes\":$(du -sb "$store_dir" | cut -f1)}"

    log "$target: restarting with the data in place"
    stop_server
    etcd_ms=0
    if [[ $target == etcd ]]; then
        kill -TERM "$ETCD_PID"
        wait "$ETCD_PID" 2>/dev/null || true
        started=$(now_ms)
        start_etcd
        "$LOAD" etcd --endpoint "http://127.0.0.1:$client" --wait-only 60s >/dev/null
        etcd_ms=$(( $(now_ms) - started ))
    fi
    started=$(now_ms)
    start_server "$data" "$port" "${flags[@]}"
    ready_ms=$(wait_ready "$data" "$port" "$started")
    if [[ $target == etcd ]]; then store_pid=$ETCD_PID; else store_pid=$(worker_pid storage); fi
    record restart "{\"target\":\"$target\"}" \
        "{\"store_ms\":$etcd_ms,\"server_ms\":$ready_ms,\"store_rss_kib\":$(rss_kib "$store_pid")}"
    stop_server
    if [[ -n $ETCD_PID ]]; then
        kill -TERM "$ETCD_PID"
        wait "$ETCD_PID" 2>/dev/null || true
        ETCD_PID=
    fi
done

commit=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null || echo none)
python3 "$ROOT/bench/report_storage_scale.py" "$RESULTS" \
    --objects "$OBJECTS" --duration "$DURATION" --commit "$commit" \
    --etcd-version "$("$ETCD" --version | head -1)" >"$OUT"
log "wrote $OUT"
