#!/usr/bin/env bash
# Benchmarks kube-apiserver-rs in one run and writes bench/RESULTS.md: start-up time,
# SIGTERM → exit, restart latency of each worker after kill -9, requests/s and latency
# over TLS for three paths (HTTP/2 and HTTP/1.1, at each connection count) against a bare
# hyper + rustls server (kas-baseline), and the embedded store against a real etcd
# (/usr/bin/etcd) through etcd-client. Every number is also given as a ratio to the
# baseline measured by this same run.
#
#   bench/run.sh [--duration 5s] [--warmup 1s] [--runs 10] [--restarts 10]
#                [--connections "1 32"] [--rounds 3] [--threads N] [--ready-path /readyz]
#                [--skip-storage] [--skip-api] [--skip startup,restart,requests,storage,api]
#                [--only api] [--objects 100] [--large-objects 10000] [--watchers 1000]
#                [--large-duration 15s]
#                [--baseline-only] [--skip-build] [--keep] [--out FILE]
#
# The API section (5) seeds ConfigMaps in namespace `bench` and measures GET, LIST,
# CREATE and UPDATE through the API against the same operations straight on the storage
# worker's socket ("raw etcd"), watch fan-out to --watchers watchers against as many etcd
# watches, and the RSS of every process with --large-objects ConfigMaps stored.
# Sections skipped by --skip/--only keep their tables from the previous results file,
# marked with the date and commit they were measured at.
#
# --baseline-only stands a second kas-baseline in for the real server and a second etcd
# in for the embedded store (ratios ≈ 1: a check of the harness itself; no restarts).
# Each load measurement is repeated --rounds times, server and baseline interleaved, and
# the report gives the median round. The same settings can come from the environment:
# DURATION, WARMUP, RUNS, RESTARTS, ROUNDS, CONNECTIONS, THREADS, READY_PATH,
# SKIP_STORAGE=1, SKIP (comma-separated sections), OBJECTS, LARGE_OBJECTS, WATCHERS,
# WATCH_CONNECTIONS, WATCH_WRITES, LARGE_DURATION, SERVER (the kube-apiserver binary),
# BASELINE_ONLY=1, SKIP_BUILD=1, KEEP=1, OUT, and ETCD (the etcd binary;
# the storage section is skipped with a note when it is missing). --ready-path polls
# another path than /readyz for readiness; the report says which path was polled.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DURATION=${DURATION:-5s}
WARMUP=${WARMUP:-1s}
RUNS=${RUNS:-10}
RESTARTS=${RESTARTS:-10}
ROUNDS=${ROUNDS:-3}
READY_PATH=${READY_PATH:-/readyz}
CONNECTIONS=${CONNECTIONS:-1 32}
THREADS=${THREADS:-}
BASELINE_ONLY=${BASELINE_ONLY:-0}
SKIP_STORAGE=${SKIP_STORAGE:-0}
ETCD=${ETCD:-/usr/bin/etcd}
SKIP_BUILD=${SKIP_BUILD:-0}
KEEP=${KEEP:-0}
OUT=${OUT:-$ROOT/bench/RESULTS.md}
SKIP=${SKIP:-}
OBJECTS=${OBJECTS:-100}
LARGE_OBJECTS=${LARGE_OBJECTS:-10000}
WATCHERS=${WATCHERS:-1000}
WATCH_CONNECTIONS=${WATCH_CONNECTIONS:-10}
WATCH_WRITES=${WATCH_WRITES:-10}
# A LIST of 10,000 objects takes a good fraction of a second alone, and 32 of them at once
# several seconds: the large LIST gets a longer window than --duration.
LARGE_DURATION=${LARGE_DURATION:-15s}
SECTIONS=(startup restart requests storage api)
PATHS=(/version /api /apis/apiextensions.k8s.io)

usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
    case $1 in
        --duration) DURATION=$2; shift 2 ;;
        --warmup) WARMUP=$2; shift 2 ;;
        --runs) RUNS=$2; shift 2 ;;
        --restarts) RESTARTS=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --connections) CONNECTIONS=$2; shift 2 ;;
        --threads) THREADS=$2; shift 2 ;;
        --ready-path) READY_PATH=$2; shift 2 ;;
        --skip-storage) SKIP_STORAGE=1; shift ;;
        --skip-api) SKIP=$SKIP,api; shift ;;
        --skip) SKIP=$SKIP,$2; shift 2 ;;
        --only)
            SKIP=
            for section in "${SECTIONS[@]}"; do
                [[ ,$2, == *,$section,* ]] || SKIP=$SKIP,$section
            done
            shift 2 ;;
        --objects) OBJECTS=$2; shift 2 ;;
        --large-objects) LARGE_OBJECTS=$2; shift 2 ;;
        --watchers) WATCHERS=$2; shift 2 ;;
        --large-duration) LARGE_DURATION=$2; shift 2 ;;
        --baseline-only) BASELINE_ONLY=1; shift ;;
        --skip-build) SKIP_BUILD=1; shift ;;
        --keep) KEEP=1; shift ;;
        --out) OUT=$2; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) echo "unknown argument: $1" >&2; usage >&2; exit 2 ;;
    esac
done

[[ $SKIP_STORAGE != 1 ]] || SKIP=$SKIP,storage
for section in ${SKIP//,/ }; do
    [[ " ${SECTIONS[*]} " == *" $section "* ]] || { echo "unknown section: $section" >&2; exit 2; }
done
skipped() { [[ ,$SKIP, == *,$1,* ]]; }

# Errors from the binaries are one line each, not an anyhow backtrace.
export RUST_LIB_BACKTRACE=0

log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

# --- build -----------------------------------------------------------------------------
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=$TARGET_DIR/release
if [[ $SKIP_BUILD != 1 ]]; then
    packages=(-p kas-bench)
    [[ $BASELINE_ONLY == 1 ]] || packages+=(-p kube-apiserver)
    log "building ${packages[*]} (release, target dir $TARGET_DIR)"
    (cd "$ROOT" && cargo build --release "${packages[@]}")
fi
LOAD=$BIN/kas-load
OBJECTS_BIN=$BIN/kas-objects
BASELINE=$BIN/kas-baseline
# SERVER: another kube-apiserver binary to measure (e.g. one built from a clean export of
# a commit; SERVER_SOURCE says which, for the report).
SERVER=${SERVER:-$BIN/kube-apiserver}
for bin in "$LOAD" "$BASELINE" "$OBJECTS_BIN"; do
    [[ -x $bin ]] || { echo "missing $bin" >&2; exit 1; }
done
if [[ $BASELINE_ONLY != 1 && ! -x $SERVER ]]; then
    echo "missing $SERVER (build it, or run with --baseline-only)" >&2
    exit 1
fi
THREAD_ARGS=()
[[ -z $THREADS ]] || THREAD_ARGS=(--threads "$THREADS")

# --- processes we start, and their cleanup -------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kas-bench.XXXXXX")
PIDS=()

# SIGTERM, wait up to 10 s, then SIGKILL; the way the server is meant to be stopped.
stop_pid() {
    local pid=$1 i
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 1000; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.01
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
    if [[ $KEEP == 1 ]]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The server under test, or a kas-baseline standing in for it, as SERVER_ARGV.
server_argv() { # port data_dir
    if [[ $BASELINE_ONLY == 1 ]]; then
        SERVER_ARGV=("$BASELINE" --port "$1" --self-signed-dir "$2/pki"
            --content-type application/json --body-file "$WORK/stand-in.json" "${THREAD_ARGS[@]}")
    else
        # --shutdown-delay-duration=0s (the default, said out loud): SIGTERM → exit is then
        # the drain and the workers' stop, not a configured wait.
        SERVER_ARGV=("$SERVER" --secure-port="$1" --bind-address=127.0.0.1 --data-dir="$2"
            --shutdown-delay-duration=0s)
    fi
}
SERVER_NAME=kube-apiserver
[[ $BASELINE_ONLY != 1 ]] || SERVER_NAME=kas-baseline
printf '{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[]}\n' \
    >"$WORK/stand-in.json"

RESULTS=$WORK/results.jsonl
: >"$RESULTS"
record() { # kind labels-json result-json
    printf '{"kind":"%s","labels":%s,"result":%s}\n' "$1" "$2" "$3" >>"$RESULTS"
}

# --- 1. start-up -------------------------------------------------------------------------
server_argv '{port}' '{data_dir}'
if skipped startup; then
    log "start-up: skipped"
else
log "start-up: $SERVER_NAME, $RUNS runs"
json=$("$LOAD" startup -n "$RUNS" --work-dir "$WORK/startup-server" --ready-path "$READY_PATH" \
    --cert-rel pki/admin.crt --key-rel pki/admin.key -- "${SERVER_ARGV[@]}")
record startup "{\"target\":\"server\",\"name\":\"$SERVER_NAME\"}" "$json"
log "start-up: kas-baseline, $RUNS runs"
json=$("$LOAD" startup -n "$RUNS" --work-dir "$WORK/startup-baseline" --ready-path "$READY_PATH" \
    -- "$BASELINE" --port '{port}' --self-signed-dir '{data_dir}/pki' "${THREAD_ARGS[@]}")
record startup '{"target":"baseline","name":"kas-baseline"}' "$json"
fi

# --- 1b. restart after kill -9, per worker ---------------------------------------------------
if [[ $BASELINE_ONLY != 1 && $RESTARTS -gt 0 ]] && ! skipped restart; then
    log "restart: kill -9 of each worker, $RESTARTS times"
    json=$("$LOAD" restart -n "$RESTARTS" --work-dir "$WORK/restart" --ready-path "$READY_PATH" \
        --cert-rel pki/admin.crt --key-rel pki/admin.key -- "${SERVER_ARGV[@]}")
    record restart "{\"target\":\"server\",\"name\":\"$SERVER_NAME\"}" "$json"
fi

# --- 2. throughput and latency ---------------------------------------------------------------
PORT=$(free_port)
DATA=$WORK/server-data
mkdir -p "$DATA"
log "starting $SERVER_NAME on 127.0.0.1:$PORT"
server_argv "$PORT" "$DATA"
"${SERVER_ARGV[@]}" >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
PIDS+=("$SERVER_PID")
PKI=$DATA/pki
if ! "$LOAD" wait --url "https://127.0.0.1:$PORT$READY_PATH" --timeout 60s \
    --cert "$PKI/admin.crt" --key "$PKI/admin.key" >/dev/null; then
    echo "server did not become ready; its log:" >&2
    tail -n 50 "$WORK/server.log" >&2
    exit 1
fi
TLS=(--cacert "$PKI/ca.crt")
[[ -f $PKI/admin.crt && -f $PKI/admin.key ]] && TLS+=(--cert "$PKI/admin.crt" --key "$PKI/admin.key")

load() { # port path protocol-flag connections
    "$LOAD" --url "https://127.0.0.1:$1$2" "${TLS[@]}" "$3" -c "$4" \
        --duration "$DURATION" --warmup "$WARMUP" "${THREAD_ARGS[@]}"
}

i=0
skipped requests && { log "requests: skipped"; PATHS=(); }
for path in "${PATHS[@]}"; do
    i=$((i + 1))
    body=$WORK/body-$i
    content_type=$("$LOAD" fetch --url "https://127.0.0.1:$PORT$path" "${TLS[@]}" --out "$body")
    bport=$(free_port)
    "$BASELINE" --port "$bport" --cert "$PKI/apiserver.crt" --key "$PKI/apiserver.key" \
        --body-file "$body" --content-type "${content_type:-application/octet-stream}" \
        "${THREAD_ARGS[@]}" >"$WORK/baseline-$i.log" 2>&1 &
    bpid=$!
    PIDS+=("$bpid")
    "$LOAD" wait --url "https://127.0.0.1:$bport/" --timeout 10s >/dev/null
    for ((round = 1; round <= ROUNDS; round++)); do
        for protocol in --http2 --http1; do
            for c in $CONNECTIONS; do
                labels="{\"path\":\"$path\",\"protocol\":\"${protocol#--}\",\"connections\":$c,\"round\":$round,\"bytes\":$(stat -c %s "$body"),\"content_type\":\"$content_type\""
                # Odd rounds run the server first, even rounds the baseline first.
                order=(server baseline)
                ((round % 2)) || order=(baseline server)
                for target in "${order[@]}"; do
                    port=$PORT
                    [[ $target == server ]] || port=$bport
                    log "GET $path ${protocol#--} c=$c round $round/$ROUNDS: $target"
                    record load "$labels,\"target\":\"$target\"}" "$(load "$port" "$path" "$protocol" "$c")"
                done
            done
        done
    done
    stop_pid "$bpid"
done

# --- 3. storage: the embedded store vs etcd --------------------------------------------------
# etcd on 127.0.0.1 with free client and peer ports and its own data dir under $WORK,
# stopped at the end of this section (or by cleanup).
start_etcd() { # name -> ETCD_ENDPOINT, ETCD_PID
    local name=$1 client peer
    client=$(free_port)
    peer=$(free_port)
    "$ETCD" --name "$name" --data-dir "$WORK/$name-data" \
        --listen-client-urls "http://127.0.0.1:$client" --advertise-client-urls "http://127.0.0.1:$client" \
        --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
        --initial-cluster "$name=http://127.0.0.1:$peer" >"$WORK/$name.log" 2>&1 &
    ETCD_PID=$!
    PIDS+=("$ETCD_PID")
    ETCD_ENDPOINT=http://127.0.0.1:$client
}

ETCD_VERSION=
# Also when skipped: the carried-over storage table names the etcd it ran against.
[[ ! -x $ETCD ]] || ETCD_VERSION=$("$ETCD" --version 2>/dev/null | head -n 1 | sed 's/^etcd Version: /etcd /' || true)
if skipped storage; then
    log "storage: skipped"
elif [[ ! -x $ETCD ]]; then
    log "storage: skipped, no etcd at $ETCD (apt-get install etcd-server, or set ETCD)"
else
    if [[ $BASELINE_ONLY == 1 ]]; then
        start_etcd stand-in-etcd
        STORE_ENDPOINT=$ETCD_ENDPOINT
        STORE_NAME="etcd (stand-in)"
    else
        STORE_ENDPOINT=unix://$DATA/run/storage.sock
        STORE_NAME="embedded store (storage worker)"
    fi
    start_etcd etcd
    for endpoint in "$STORE_ENDPOINT" "$ETCD_ENDPOINT"; do
        if ! "$LOAD" etcd --endpoint "$endpoint" --wait-only 30s >/dev/null; then
            echo "$endpoint did not answer; logs in $WORK (run with --keep)" >&2
            exit 1
        fi
    done
    etcd_load() { # endpoint op clients
        "$LOAD" etcd --endpoint "$1" --op "$2" -c "$3" --duration "$DURATION" --warmup "$WARMUP"
    }
    for ((round = 1; round <= ROUNDS; round++)); do
        cases=()
        for op in put range get; do
            for c in $CONNECTIONS; do cases+=("$op $c"); done
        done
        cases+=("watch 1")
        for case in "${cases[@]}"; do
            read -r op c <<<"$case"
            labels="{\"op\":\"$op\",\"clients\":$c,\"round\":$round"
            # Odd rounds run the embedded store first, even rounds etcd first.
            order=(embedded etcd)
            ((round % 2)) || order=(etcd embedded)
            for target in "${order[@]}"; do
                endpoint=$STORE_ENDPOINT
                [[ $target == embedded ]] || endpoint=$ETCD_ENDPOINT
                log "storage $op c=$c round $round/$ROUNDS: $target"
                json=$(etcd_load "$endpoint" "$op" "$c")
                record etcd "$labels,\"target\":\"$target\"}" "$json"
            done
        done
    done
    for pid in "${PIDS[@]}"; do
        [[ $pid == "$SERVER_PID" ]] || stop_pid "$pid"
    done
fi
# --- 5. built-in API: ConfigMaps through the API vs the same operations on the store ------------
# Everything in namespace `bench`: cm-0 … cm-(OBJECTS-1) first (GET, small LIST), then up
# to LARGE_OBJECTS (large LIST, memory), then UPDATE of the first OBJECTS, the watch
# fan-out (PUTs of cm-0), and CREATE last (it leaves its objects behind). The raw baseline
# reads the same keys on the storage worker's socket and writes under /kas-bench-raw/,
# outside the server's key space.
if skipped api; then
    log "api: skipped"
elif [[ $BASELINE_ONLY == 1 ]]; then
    log "api: skipped (no API in --baseline-only)"
else
    STORE=unix://$DATA/run/storage.sock
    API=(--url "https://127.0.0.1:$PORT" --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key")
    "$LOAD" etcd --endpoint "$STORE" --wait-only 30s >/dev/null
    rss() { # stage
        record rss "{\"stage\":\"$1\",\"objects\":${2:-0},\"load\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}" \
            "$("$OBJECTS_BIN" rss --pid "$SERVER_PID")"
    }
    api_case() { # op objects connections round [duration]
        local op=$1 n=$2 c=$3 round=$4 duration=${5:-$DURATION} target json
        local labels="{\"op\":\"$op\",\"objects\":$n,\"connections\":$c,\"round\":$round"
        local order=(api raw)
        ((round % 2)) || order=(raw api)
        for target in "${order[@]}"; do
            log "api $op n=$n c=$c round $round/$ROUNDS: $target"
            if [[ $target == api ]]; then
                json=$("$OBJECTS_BIN" load "${API[@]}" --op "$op" --objects "$n" -c "$c" \
                    --duration "$duration" --warmup "$WARMUP")
            else
                json=$("$OBJECTS_BIN" raw --endpoint "$STORE" --op "$op" --objects "$n" -c "$c" \
                    --duration "$duration" --warmup "$WARMUP")
            fi
            record api "$labels,\"target\":\"$target\"}" "$json"
        done
    }
    rss idle 0
    log "api: seeding $OBJECTS ConfigMaps"
    record seed "{\"objects\":$OBJECTS}" "$("$OBJECTS_BIN" seed "${API[@]}" --count "$OBJECTS")"
    # Reads of the small set first; writes come after the memory readings, so that those
    # hold the large set and not the history of the write loops.
    for ((round = 1; round <= ROUNDS; round++)); do
        for op in get list; do
            for c in $CONNECTIONS; do api_case "$op" "$OBJECTS" "$c" "$round"; done
        done
    done
    log "api: seeding up to $LARGE_OBJECTS ConfigMaps"
    record seed "{\"objects\":$LARGE_OBJECTS}" \
        "$("$OBJECTS_BIN" seed "${API[@]}" --from "$OBJECTS" --count $((LARGE_OBJECTS - OBJECTS)) -c 32)"
    "$LOAD" fetch --url "https://127.0.0.1:$PORT/api/v1/namespaces/bench/configmaps" "${TLS[@]}" \
        --out "$WORK/list.json" >/dev/null
    rss "after one LIST" "$LARGE_OBJECTS"
    for ((round = 1; round <= ROUNDS; round++)); do
        for c in $CONNECTIONS; do api_case list "$LARGE_OBJECTS" "$c" "$round" "$LARGE_DURATION"; done
    done
    rss "after the LIST load" "$LARGE_OBJECTS"
    # UPDATE cycles over cm-0 … cm-(OBJECTS-1), now among LARGE_OBJECTS.
    for ((round = 1; round <= ROUNDS; round++)); do
        for c in $CONNECTIONS; do api_case update "$OBJECTS" "$c" "$round"; done
    done
    for ((round = 1; round <= ROUNDS; round++)); do
        order=(api raw)
        ((round % 2)) || order=(raw api)
        for target in "${order[@]}"; do
            log "watch fan-out: $WATCHERS watchers, round $round/$ROUNDS: $target"
            if [[ $target == api ]]; then
                json=$("$OBJECTS_BIN" fanout "${API[@]}" -w "$WATCHERS" -c "$WATCH_CONNECTIONS" -n "$WATCH_WRITES")
            else
                json=$("$OBJECTS_BIN" fanout --endpoint "$STORE" -w "$WATCHERS" -c "$WATCH_CONNECTIONS" -n "$WATCH_WRITES")
            fi
            record fanout "{\"round\":$round,\"target\":\"$target\"}" "$json"
        done
    done
    for ((round = 1; round <= ROUNDS; round++)); do
        for c in $CONNECTIONS; do api_case create "$OBJECTS" "$c" "$round"; done
    done
    rss "at the end" "$LARGE_OBJECTS"
fi

stop_pid "$SERVER_PID"

# --- 4. report -------------------------------------------------------------------------------
commit=$(git -C "$ROOT" rev-parse --verify -q HEAD || echo "none (no commit yet)")
dirty=$(git -C "$ROOT" status --porcelain 2>/dev/null | wc -l)
server_note=
[[ $SERVER == "$BIN/kube-apiserver" ]] || server_note="$SERVER${SERVER_SOURCE:+ ($SERVER_SOURCE)}"
previous=$WORK/previous.md
if [[ -f $OUT ]]; then cp "$OUT" "$previous"; else : >"$previous"; fi
python3 "$ROOT/bench/report.py" "$RESULTS" --previous "$previous" --skipped "${SKIP#,}" --server-binary "$server_note" \
    --commit "$commit" --dirty "$dirty" --server "$SERVER_NAME" --ready-path "$READY_PATH" \
    --etcd-version "$ETCD_VERSION" --store "${STORE_NAME:-}" \
    --settings "duration $DURATION after $WARMUP warm-up; $RUNS start-up runs; $RESTARTS kills per worker; median of $ROUNDS rounds; connections / storage clients: $CONNECTIONS; client threads: ${THREADS:-one per CPU}; API: $OBJECTS and $LARGE_OBJECTS ConfigMaps, $WATCHERS watchers over $WATCH_CONNECTIONS connections, $WATCH_WRITES writes; large LIST window $LARGE_DURATION; sections not re-run: ${SKIP#,}" \
    >"$OUT"
log "wrote $OUT"
