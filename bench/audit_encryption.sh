#!/usr/bin/env bash
# Benchmarks what auditing and encryption at rest cost (issue 16) and writes
# bench/RESULTS-audit-encryption.md. Two groups of servers, each started alike with its
# own data dir and measured alternately round after round in the same run, --rounds times:
#   audit       CREATE (POST, generateName) and GET of one ConfigMap against
#               none             no audit flags (the baseline);
#               metadata         --audit-policy-file with one rule `level: Metadata`,
#                                --audit-log-path=<file in the work dir>, --audit-log-mode=batch;
#               requestresponse  the same with `level: RequestResponse`.
#   encryption  CREATE and GET of one Secret against --encryption-provider-config with
#               identity  `identity: {}` for secrets (the baseline);
#               aescbc    one aescbc key;   aesgcm  one aesgcm key;
#               kms       KMS v2 (`apiVersion: v2`) against `kas-baseline --kms-plugin`,
#                         a plugin on a unix socket sealing DEK seeds with a local AES key.
# The report gives the median round per server, operation and connection count, and the
# ratios against the group's baseline with issue 16's targets marked.
#
#   bench/audit_encryption.sh [--duration 5s] [--warmup 1s] [--rounds 4] [--connections "1 32"]
#                             [--only audit|encryption] [--skip-build] [--out FILE]
# QUIET=1 says in the report that nothing else ran on the machine (the default report
# warns that it was shared).
# BIN=target/debug bench/audit_encryption.sh --skip-build ...  runs the debug binaries (a
# harness check, not a measurement); BIN=<dir> COMMIT=<sha> … runs binaries built from a
# clean export of that commit (the shared checkout may hold others' unfinished edits).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DURATION=${DURATION:-5s}
WARMUP=${WARMUP:-1s}
ROUNDS=${ROUNDS:-4}
CONNECTIONS=${CONNECTIONS:-"1 32"}
ONLY=${ONLY:-}
QUIET=${QUIET:-0}
OUT=${OUT:-$ROOT/bench/RESULTS-audit-encryption.md}
while [[ $# -gt 0 ]]; do
    case $1 in
        --duration) DURATION=$2; shift 2 ;;
        --warmup) WARMUP=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --connections) CONNECTIONS=$2; shift 2 ;;
        --only) ONLY=$2; shift 2 ;;
        --skip-build) SKIP_BUILD=1; shift ;;
        --out) OUT=$2; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 64 ;;
    esac
done
case $ONLY in
    '') GROUPS_RUN="audit encryption" ;;
    audit | encryption) GROUPS_RUN=$ONLY ;;
    *) echo "--only takes audit or encryption" >&2; exit 64 ;;
esac
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=${BIN:-$TARGET_DIR/release}
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

# start NAME [FLAGS...]: a server on a free port with its own data dir; sets PORT_<NAME>
# and SPID_<NAME> (the supervisor's pid).
start() {
    local name=$1 port data
    shift
    port=$(free_port)
    data=$WORK/$name
    mkdir -p "$data"
    "$SERVER" --secure-port="$port" --bind-address=127.0.0.1 --data-dir="$data" "$@" \
        >"$WORK/$name.log" 2>&1 &
    PIDS+=($!)
    printf -v "SPID_$name" '%s' "$!"
    "$LOAD" wait --url "https://127.0.0.1:$port/readyz" --timeout 60s \
        --cert "$data/pki/admin.crt" --key "$data/pki/admin.key" >/dev/null
    printf -v "PORT_$name" '%s' "$port"
    kubectl --kubeconfig "$data/admin.kubeconfig" create namespace bench >/dev/null
}

# stop NAME...: SIGTERM to the supervisors, waiting for them, so the next group has the
# CPUs to itself.
stop() {
    local name pid
    for name in "$@"; do
        pid=SPID_$name
        kill "${!pid}" 2>/dev/null || true
        wait "${!pid}" 2>/dev/null || true
    done
}

VALUE=$(head -c 256 /dev/zero | tr '\0' v)
VALUE_B64=$(printf '%s' "$VALUE" | base64 -w0)
printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"c-"},"data":{"k":"%s"}}' \
    "$VALUE" >"$WORK/configmap.json"
printf '{"apiVersion":"v1","kind":"Secret","metadata":{"generateName":"s-"},"data":{"k":"%s"}}' \
    "$VALUE_B64" >"$WORK/secret.json"

# load NAME KIND(configmaps|secrets) OP(create|get) CONNECTIONS
load() {
    local port_var=PORT_$1 url body
    url="https://127.0.0.1:${!port_var}/api/v1/namespaces/bench/$2"
    local args=(--cacert "$WORK/$1/pki/ca.crt" --cert "$WORK/$1/pki/admin.crt"
        --key "$WORK/$1/pki/admin.key" -c "$4" --duration "$DURATION" --warmup "$WARMUP")
    if [[ $3 == create ]]; then
        [[ $2 == secrets ]] && body=$WORK/secret.json || body=$WORK/configmap.json
        "$LOAD" --url "$url" "${args[@]}" -X POST -H "Content-Type: application/json" \
            --body-file "$body"
    else
        "$LOAD" --url "$url/get-me" "${args[@]}"
    fi
}

# rounds GROUP KIND SERVER...: every round, every operation and connection count, each
# server once, the order rotating so none gains from going first.
results=$WORK/results.jsonl
: >"$results"
rounds() {
    local group=$1 kind=$2
    shift 2
    local servers=("$@") n=$# round c op i name
    for round in $(seq "$ROUNDS"); do
        for op in create get; do
            for c in $CONNECTIONS; do
                for i in $(seq 0 $((n - 1))); do
                    name=${servers[$(((i + round) % n))]}
                    log "$group round $round: $name $op x$c"
                    printf '{"group": "%s", "round": %s, "server": "%s", "op": "%s", "connections": %s, "report": %s}\n' \
                        "$group" "$round" "$name" "$op" "$c" "$(load "$name" "$kind" "$op" "$c")" >>"$results"
                done
            done
        done
    done
}

# What the servers wrote besides answering: audit events per log, dropped-event warnings.
facts=$WORK/facts.jsonl
: >"$facts"

if [[ " $GROUPS_RUN " == *" audit "* ]]; then
    for level in Metadata RequestResponse; do
        printf 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: %s\n' "$level" \
            >"$WORK/policy-$level.yaml"
    done
    audit_flags() { # LEVEL NAME
        echo "--audit-policy-file=$WORK/policy-$1.yaml" "--audit-log-path=$WORK/$2/audit.log" \
            --audit-log-mode=batch
    }
    log "starting the audit servers"
    start none
    # shellcheck disable=SC2046 # the flags are words without spaces (mktemp paths)
    start metadata $(audit_flags Metadata metadata)
    # shellcheck disable=SC2046
    start requestresponse $(audit_flags RequestResponse requestresponse)
    for name in none metadata requestresponse; do
        kubectl --kubeconfig "$WORK/$name/admin.kubeconfig" -n bench create configmap get-me \
            --from-literal=k="$VALUE" >/dev/null
    done
    rounds audit configmaps none metadata requestresponse
    stop none metadata requestresponse
    for name in metadata requestresponse; do
        events=$(cat "$WORK/$name"/audit*.log 2>/dev/null | wc -l)
        bytes=$(cat "$WORK/$name"/audit*.log 2>/dev/null | wc -c)
        # The aggregator's count at shutdown: written, dropped_full, … per backend.
        stats=$(grep -h 'audit events since start' "$WORK/$name.log" | tail -1 | tr -d '"\\' || true)
        printf '{"server": "%s", "events": %s, "bytes": %s, "stats": "%s"}\n' \
            "$name" "$events" "$bytes" "$stats" >>"$facts"
    done
fi

if [[ " $GROUPS_RUN " == *" encryption "* ]]; then
    log "starting the KMS v2 plugin"
    KMS_SOCKET=$WORK/kms.sock
    "$BASELINE" --kms-plugin "$KMS_SOCKET" >"$WORK/kms.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 200); do [[ -S $KMS_SOCKET ]] && break; sleep 0.05; done
    [[ -S $KMS_SOCKET ]] || { echo "the KMS plugin did not start:" >&2; cat "$WORK/kms.log" >&2; exit 1; }
    # Fixed 32-byte keys: the benchmark measures the ciphers, not the keys' secrecy.
    KEY=$(head -c 32 /dev/zero | tr '\0' k | base64 -w0)
    providers() {
        case $1 in
            identity) echo "      - identity: {}" ;;
            aescbc) echo "      - aescbc: {keys: [{name: key1, secret: $KEY}]}" ;;
            aesgcm) echo "      - aesgcm: {keys: [{name: key1, secret: $KEY}]}" ;;
            kms) echo "      - kms: {apiVersion: v2, name: kms1, endpoint: 'unix://$KMS_SOCKET', timeout: 3s}" ;;
        esac
    }
    log "starting the encryption servers"
    for name in identity aescbc aesgcm kms; do
        printf 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n%s\n' \
            "$(providers $name)" >"$WORK/encryption-$name.yaml"
        start "$name" --encryption-provider-config="$WORK/encryption-$name.yaml"
        kubectl --kubeconfig "$WORK/$name/admin.kubeconfig" -n bench create secret generic get-me \
            --from-literal=k="$VALUE" >/dev/null
    done
    # The Secret must come back as written, through the cipher under test.
    for name in identity aescbc aesgcm kms; do
        got=$(kubectl --kubeconfig "$WORK/$name/admin.kubeconfig" -n bench get secret get-me \
            -o jsonpath='{.data.k}')
        [[ $got == "$VALUE_B64" ]] || { echo "$name: the Secret reads back wrong" >&2; exit 1; }
    done
    # … and be stored encrypted: the embedded store's file holds the provider's prefix.
    for prefix in aescbc:k8s:enc:aescbc:v1:key1: aesgcm:k8s:enc:aesgcm:v1:key1: kms:k8s:enc:kms:v2:kms1:; do
        name=${prefix%%:*}
        grep -qaF "${prefix#*:}" -r "$WORK/$name/store" ||
            { echo "$name: no ${prefix#*:} value in the store" >&2; exit 1; }
    done
    rounds encryption secrets identity aescbc aesgcm kms
    stop identity aescbc aesgcm kms
fi

model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
memory=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
commit=$(git -C "$ROOT" rev-parse --verify -q HEAD || echo "none")
dirty=$(git -C "$ROOT" status --porcelain 2>/dev/null | wc -l)
if [[ -n ${COMMIT:-} ]]; then # binaries built elsewhere (BIN=…) from a clean export of COMMIT
    commit=$COMMIT
    dirty=0
fi
python3 - "$results" "$facts" "$OUT" <<EOF
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
facts = [json.loads(l) for l in open(sys.argv[2])]
out = open(sys.argv[3], "w")
w = lambda s="": out.write(s + "\n")
w("# Benchmark results: audit and encryption at rest")
w()
w("Written by \`bench/audit_encryption.sh\` (issue 16). Requests as the admin over HTTP/2 and TLS,")
w("one request in flight per connection, at $(echo $CONNECTIONS | sed 's/ / and /') connections; CREATE is a POST with")
w("\`generateName\` (every request makes a new object, 256-byte value), GET reads one object")
w("(\`get-me\`, no resourceVersion). Servers of a group are started alike, each with its own data")
w("dir and the embedded store, and measured alternately in the same run, the order rotating")
w("every round; the numbers are the median of $ROUNDS rounds of $WARMUP warm-up + $DURATION, and every")
w("ratio is against the baseline of the same group and run.")
w()
w("* **audit** (ConfigMaps): **none** (no audit flags), **metadata** and **requestresponse**:")
w("  \`--audit-policy-file\` with the one rule \`- level: Metadata\` / \`- level: RequestResponse\`")
w("  (no omitStages, so two events per request: RequestReceived and ResponseComplete),")
w("  \`--audit-log-path=<file in the work dir>\` (json format, the default rotation at 100 MB),")
w("  \`--audit-log-mode=batch\` with the batch defaults.")
w("* **encryption** (Secrets): \`--encryption-provider-config\` with one provider for")
w("  \`secrets\`: **identity** (the baseline), **aescbc** and **aesgcm** (one 32-byte key each),")
w("  **kms** (KMS v2, \`timeout: 3s\`) against \`kas-baseline --kms-plugin <socket>\`, a plugin")
w("  process sealing DEK seeds with a local AES-256-GCM key (called once per seed, not per")
w("  object: the server caches the seed).")
w()
w("* date: $(date -u '+%Y-%m-%d %H:%M UTC')")
w("* commit: \`$commit\`$([[ $dirty == 0 ]] || echo " (+$dirty uncommitted changes in the shared checkout)")")
w("* machine: $(nproc) CPUs, ${model:-unknown CPU}, $memory RAM, Linux $(uname -r); load generator,")
if "$QUIET" == "1":
    w("  servers and plugin share the CPUs; nothing else ran on the machine during the run, but")
    w("  it is a 2-CPU virtual machine, so rounds still vary (every round is below) and only the")
    w("  medians and same-run ratios mean much")
else:
    w("  servers and plugin share the CPUs, and **the machine was shared**: other engineers were")
    w("  building the project at the same time, so single runs are noisy and only the medians")
    w("  and same-run ratios mean much")
w()
def sel(g, name, op, c):
    return [r["report"] for r in rows if r["group"] == g and r["server"] == name and r["op"] == op and r["connections"] == c]
def med(g, name, op, c, key):
    return statistics.median(r[key] for r in sel(g, name, op, c))
def failed(g, name, op, c):
    return sum(r.get("errors", 0) + r.get("non_2xx", 0) for r in sel(g, name, op, c))
def round_ratio(g, name, base, op, c):
    # Each round's server / baseline, measured seconds apart: steadier than the ratio of
    # medians when the machine's load drifts over the run.
    by = lambda n: {r["round"]: r["report"]["rps"] for r in rows if r["group"] == g and r["server"] == n and r["op"] == op and r["connections"] == c}
    mine, theirs = by(name), by(base)
    return statistics.median(mine[i] / theirs[i] for i in mine if theirs.get(i))
groups = {
    "audit": ("none", ["none", "metadata", "requestresponse"],
              {"metadata": 0.85, "requestresponse": 0.70}),
    "encryption": ("identity", ["identity", "aescbc", "aesgcm", "kms"],
                   {"aesgcm": 0.85, "kms": 0.70}),
}
verdicts = []
for g, (base, servers, targets) in groups.items():
    if not any(r["group"] == g for r in rows):
        continue
    w(f"## {g}")
    w()
    w("| op | conns | server | requests/s | p50 / p99 ms | ratio of medians | median of round ratios | target | failed |")
    w("|---|---:|---|---:|---:|---:|---:|---|---:|")
    for op in ["create", "get"]:
        for c in sorted({r["connections"] for r in rows if r["group"] == g}):
            for name in servers:
                rps = med(g, name, op, c, "rps")
                ratio = paired = target = ""
                if name != base:
                    q = rps / med(g, base, op, c, "rps")
                    p = round_ratio(g, name, base, op, c)
                    ratio, paired = f"**{q:.2f}**", f"{p:.2f}"
                    if name in targets:
                        t = targets[name]
                        verdict = "met" if min(q, p) >= t else "**not met**" if max(q, p) < t else "unclear (noise)"
                        target = f"≥ {t:.2f}: {verdict}"
                        verdicts.append((g, name, op, c, q, p, t, verdict))
                w(f"| {op} | {c} | {name} | {rps:.0f} | {med(g, name, op, c, 'p50_us') / 1e3:.2f} / {med(g, name, op, c, 'p99_us') / 1e3:.2f} | {ratio} | {paired} | {target} | {failed(g, name, op, c)} |")
    w()
    w("Every round (requests/s):")
    w()
    rounds_ = sorted({r["round"] for r in rows if r["group"] == g})
    w("| op | conns | server | " + " | ".join(f"round {i}" for i in rounds_) + " |")
    w("|---|---:|---|" + "---:|" * len(rounds_))
    for op in ["create", "get"]:
        for c in sorted({r["connections"] for r in rows if r["group"] == g}):
            for name in servers:
                by = {r["round"]: r["report"]["rps"] for r in rows if r["group"] == g and r["server"] == name and r["op"] == op and r["connections"] == c}
                w(f"| {op} | {c} | {name} | " + " | ".join(f"{by.get(i, 0):.0f}" for i in rounds_) + " |")
    w()
    if g == "audit" and facts:
        w("Audit logs at the end of the run (all rounds, warm-up included):")
        w()
        w("| server | events in the file | MB | the aggregator's count at shutdown |")
        w("|---|---:|---:|---|")
        for f in facts:
            w(f"| {f['server']} | {f['events']} | {f['bytes'] / 1e6:.1f} | \`{f['stats'] or 'not logged'}\` |")
        w()
if verdicts:
    w("## Issue 16's targets")
    w()
    w("A target is *met* when both the ratio of medians and the median of the per-round ratios")
    w("reach it, *not met* when neither does, and *unclear* when they disagree (the noise of")
    w("the shared machine is larger than the difference).")
    w()
    met = sum(v[7] == "met" for v in verdicts)
    w(f"{met} of {len(verdicts)} met:")
    w()
    for g, name, op, c, q, p, t, verdict in verdicts:
        w(f"* {name} {op} at {c} connection{'s' if c != 1 else ''}: {q:.2f} (ratio of medians), {p:.2f} (median of round ratios); target ≥ {t:.2f} — {verdict}")
w()
w("<details><summary>Raw JSON lines of this run</summary>")
w()
w("\`\`\`")
for r in rows:
    w(json.dumps(r))
w("\`\`\`")
w()
w("</details>")
EOF
log "wrote $OUT"
