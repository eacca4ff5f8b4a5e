#!/usr/bin/env bash
# Benchmarks custom resources and writes bench/RESULTS-crd.md: custom resource GET, LIST
# and CREATE against ConfigMaps of the same size in the same run (ratio CR/ConfigMap) at
# each connection count, CRD create → Established → first LIST over the CRDs created, and
# the VmRSS and idle CPU of the extensions worker before any CRD and as CRDs are added.
# kas-crd-bench starts the release kube-apiserver itself (temporary data dir, port 0).
#
#   bench/crd.sh [kas-crd-bench flags: --duration 5s --warmup 1s -c 1,32 --crds 100
#                 --window 20 --objects 100 --value-size 1024 …]
#
# Environment: SKIP_BUILD=1 (use the binaries already built), CARGO_TARGET_DIR (where they
# are built), SERVER (another kube-apiserver binary to measure; SERVER_SOURCE says which
# for the report), OUT (default bench/RESULTS-crd.md), JSON (also keep every number,
# each CRD's timings included, as JSON in this file).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=$TARGET_DIR/release
OUT=${OUT:-$ROOT/bench/RESULTS-crd.md}
export RUST_LIB_BACKTRACE=0

log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

if [[ ${SKIP_BUILD:-0} != 1 ]]; then
    log "building kas-bench and kube-apiserver (release, target dir $TARGET_DIR)"
    (cd "$ROOT" && cargo build --release -p kas-bench -p kube-apiserver)
fi
BENCH=$BIN/kas-crd-bench
SERVER=${SERVER:-$BIN/kube-apiserver}
for bin in "$BENCH" "$SERVER"; do
    [[ -x $bin ]] || { echo "missing $bin" >&2; exit 1; }
done

model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
memory=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
commit=$(git -C "$ROOT" rev-parse --verify -q HEAD || echo "none (no commit yet)")
dirty=$(git -C "$ROOT" status --porcelain 2>/dev/null | wc -l)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u '+%Y-%m-%d %H:%M UTC')

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log "running kas-crd-bench $*"
"$BENCH" --server "$SERVER" --json "$tmp/crd.json" "$@" >"$tmp/crd.md"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
[[ -z ${JSON:-} ]] || cp "$tmp/crd.json" "$JSON"

{
    echo "# Benchmark results: custom resources (CRDs)"
    echo
    echo "Written by \`bench/crd.sh\` (the \`kas-crd-bench\` binary); every custom-resource number"
    echo "is given next to ConfigMaps measured in the same run against the same server."
    echo
    echo "* date: $started"
    echo "* commit: \`$commit\`$([[ $dirty == 0 ]] || echo " (+$dirty uncommitted changes in the working tree)")"
    echo "* machine: $(nproc) CPUs, ${model:-unknown CPU}, $memory RAM, Linux $(uname -r)"
    echo "* server binary: \`$SERVER\`${SERVER_SOURCE:+ ($SERVER_SOURCE)}"
    echo "* settings: kas-crd-bench ${*:-with its defaults} (defaults: 100 objects of 1024 bytes, connections 1 and 32, 1 s warm-up + 5 s per row, 100 CRDs, windows of 20)"
    echo "* load generator and server share the machine's CPUs; load average (1/5/15 min) before the run: $load_before, after: $load_after."
    echo
    cat "$tmp/crd.md"
} >"$OUT"
log "wrote $OUT"
