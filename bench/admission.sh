#!/usr/bin/env bash
# Benchmarks what admission costs per write and writes bench/RESULTS-admission.md: CREATE
# of ConfigMaps (generateName, so every request creates one) through the API against four
# servers started alike and measured alternately in the same run, --rounds times:
#   none     every default admission plugin disabled (the baseline);
#   default  no flags: kube-apiserver v1.33's default plugin set;
#   webhook  default plus one no-op ValidatingWebhookConfiguration matching the creates,
#            answered by kas-baseline --admission-review over HTTPS on loopback;
#   vap      default plus a ValidatingAdmissionPolicy with 10 validations bound (Deny) to
#            the creates.
# The report gives the median round and the ratios default/none, webhook/default (with
# the p50 latency a webhook call adds at one connection) and vap/default.
#
#   bench/admission.sh [--duration 5s] [--warmup 1s] [--rounds 4] [--connections "1 32"]
#                      [--skip-build] [--out FILE]
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DURATION=${DURATION:-5s}
WARMUP=${WARMUP:-1s}
ROUNDS=${ROUNDS:-4}
CONNECTIONS=${CONNECTIONS:-"1 32"}
OUT=${OUT:-$ROOT/bench/RESULTS-admission.md}
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

# kube-apiserver v1.33's default admission plugins, all off for the baseline.
DEFAULT_PLUGINS=NamespaceLifecycle,LimitRanger,ServiceAccount,DefaultStorageClass,PersistentVolumeClaimResize,DefaultTolerationSeconds,MutatingAdmissionWebhook,ValidatingAdmissionWebhook,ResourceQuota,StorageObjectInUseProtection,Priority,TaintNodesByCondition,RuntimeClass,CertificateApproval,CertificateSigning,ClusterTrustBundleAttest,CertificateSubjectRestriction,DefaultIngressClass,PodSecurity,PodTopologyLabels,MutatingAdmissionPolicy,ValidatingAdmissionPolicy

# start NAME [FLAGS...]: a server on a free port with its own data dir; sets PORT_<NAME>.
start() {
    local name=$1 port data
    shift
    port=$(free_port)
    data=$WORK/$name
    mkdir -p "$data"
    "$SERVER" --secure-port="$port" --bind-address=127.0.0.1 --data-dir="$data" "$@" \
        >"$WORK/$name.log" 2>&1 &
    PIDS+=($!)
    "$LOAD" wait --url "https://127.0.0.1:$port/readyz" --timeout 60s \
        --cert "$data/pki/admin.crt" --key "$data/pki/admin.key" >/dev/null
    printf -v "PORT_$name" '%s' "$port"
    kubectl --kubeconfig "$data/admin.kubeconfig" create namespace bench >/dev/null
}

log "starting the no-op webhook"
WEBHOOK_PORT=$(free_port)
"$BASELINE" --port "$WEBHOOK_PORT" --self-signed-dir "$WORK/noop" --admission-review \
    >"$WORK/webhook.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [[ -s $WORK/noop/ca.crt ]] && grep -q listening "$WORK/webhook.log" && break; sleep 0.05; done
CA_BUNDLE=$(base64 -w0 <"$WORK/noop/ca.crt")

log "starting the four servers"
start none --disable-admission-plugins="$DEFAULT_PLUGINS"
start default
start webhook
start vap

kubectl --kubeconfig "$WORK/webhook/admin.kubeconfig" apply -f - >/dev/null <<EOF
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: noop
webhooks:
- name: noop.bench.example.com
  clientConfig:
    url: https://127.0.0.1:$WEBHOOK_PORT/validate
    caBundle: $CA_BUNDLE
  rules:
  - operations: [CREATE]
    apiGroups: [""]
    apiVersions: [v1]
    resources: [configmaps]
  sideEffects: None
  admissionReviewVersions: [v1]
  failurePolicy: Fail
EOF
python3 - >"$WORK/vap.yaml" <<'EOF'
rules = [
    "object.metadata.name.size() < 64",
    "!has(object.metadata.labels) || object.metadata.labels.size() < 20",
    "!has(object.data) || object.data.size() < 100",
    "!has(object.data) || object.data.all(k, k.size() < 64)",
    "!has(object.data) || object.data.all(k, object.data[k].size() < 4096)",
    "!has(object.metadata.annotations) || object.metadata.annotations.size() < 20",
    "object.metadata.namespace != 'forbidden'",
    "!has(object.binaryData)",
    "!has(object.immutable) || !object.immutable || has(object.data)",
    "request.operation == 'CREATE' || request.operation == 'UPDATE'",
]
print("""apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: ten-rules
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [configmaps]
  validations:""")
for r in rules:
    print(f"  - expression: \"{r}\"")
print("""---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: ten-rules
spec:
  policyName: ten-rules
  validationActions: [Deny]""")
EOF
kubectl --kubeconfig "$WORK/vap/admin.kubeconfig" apply -f "$WORK/vap.yaml" >/dev/null

BODY=$WORK/cm.json
printf '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"c-"},"data":{"k":"%s"}}' \
    "$(head -c 256 /dev/zero | tr '\0' v)" >"$BODY"
PATH_CM=/api/v1/namespaces/bench/configmaps

load() { # name connections
    local port_var=PORT_$1
    "$LOAD" --url "https://127.0.0.1:${!port_var}$PATH_CM" --cacert "$WORK/$1/pki/ca.crt" \
        --cert "$WORK/$1/pki/admin.crt" --key "$WORK/$1/pki/admin.key" \
        -X POST -H "Content-Type: application/json" --body-file "$BODY" -c "$2" \
        --duration "$DURATION" --warmup "$WARMUP"
}

# The webhook and the policy must be in force before measuring: a create of a name the
# policy refuses fails on vap; the webhook's calls show in its server's answers (a create
# through a webhook that is down would fail closed).
for _ in $(seq 100); do
    code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$WORK/vap/pki/ca.crt" \
        --cert "$WORK/vap/pki/admin.crt" --key "$WORK/vap/pki/admin.key" \
        -H 'Content-Type: application/json' -X POST \
        -d '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"probe"},"binaryData":{"b":"AA=="}}' \
        "https://127.0.0.1:$PORT_vap$PATH_CM")
    [[ $code == 422 ]] && break
    sleep 0.1
done
[[ $code == 422 ]] || { echo "vap: the policy is not in force ($code)" >&2; exit 1; }
sleep 1 # the webhook configuration's watch (~0.2 s) has no probe that leaves no object

results=$WORK/results.jsonl
SERVERS=(none default webhook vap)
for round in $(seq "$ROUNDS"); do
    for c in $CONNECTIONS; do
        # Which server goes first rotates, so none gains from the order.
        for i in 0 1 2 3; do
            name=${SERVERS[$(((i + round) % 4))]}
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
w("# Benchmark results: admission")
w()
w("Written by \`bench/admission.sh\`. CREATE of a ConfigMap (256-byte value, generateName) as the")
w("admin over HTTP/2 and TLS, one request in flight per connection, against four servers")
w("started alike and measured alternately in the same run: **none** (every default admission")
w("plugin disabled), **default** (kube-apiserver v1.33's default set, no flags), **webhook**")
w("(default plus one no-op validating webhook on loopback, kas-baseline answering")
w("AdmissionReviews) and **vap** (default plus a ValidatingAdmissionPolicy of 10 CEL")
w("validations bound with Deny). Median of $ROUNDS rounds of $WARMUP warm-up + $DURATION.")
w()
w("* date: $(date -u '+%Y-%m-%d %H:%M UTC')")
w("* commit: \`$commit\`$([[ $dirty == 0 ]] || echo " (+$dirty uncommitted changes)")")
w("* machine: $(nproc) CPUs, ${model:-unknown CPU}, $memory RAM, Linux $(uname -r); load generator, servers and webhook share the CPUs")
w()
w("| conns | server | creates/s | p50 / p99 ms | ratio | target | failed |")
w("|---:|---|---:|---:|---:|---|---:|")
def med(name, c, key):
    return statistics.median(r["report"][key] for r in rows if r["server"] == name and r["connections"] == c)
def failed(name, c):
    return sum(r["report"].get("errors", 0) + r["report"].get("non_2xx", 0) for r in rows if r["server"] == name and r["connections"] == c)
for c in sorted({r["connections"] for r in rows}):
    ref = {"none": None, "default": "none", "webhook": "default", "vap": "default"}
    target = {"none": "", "default": "≥ 0.90 of none", "webhook": "< 1 ms added (p50)", "vap": "≥ 0.80 of default"}
    for name in ["none", "default", "webhook", "vap"]:
        rps = med(name, c, "rps")
        ratio = "" if ref[name] is None else f"**{rps / med(ref[name], c, 'rps'):.2f}**"
        extra = ""
        if name == "webhook":
            added = (med("webhook", c, "p50_us") - med("default", c, "p50_us")) / 1e3
            extra = f" (+{added:.2f} ms p50)"
        w(f"| {c} | {name} | {rps:.0f} | {med(name, c, 'p50_us') / 1e3:.2f} / {med(name, c, 'p99_us') / 1e3:.2f} | {ratio}{extra} | {target[name]} | {failed(name, c)} |")
EOF
log "wrote $OUT"
