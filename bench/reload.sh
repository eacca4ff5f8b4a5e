#!/usr/bin/env bash
# Reload and binary upgrade under load (issue 18): kas-reload starts the release server
# from a copy of its binary with NOTIFY_SOCKET pointing at itself, runs GET clients,
# ConfigMap writers and watches, sends SIGHUP (a reload), then replaces the binary by
# rename and sends SIGHUP again (an upgrade). The steady state before the reload is the
# baseline of the same run. Writes bench/RESULTS-reload.md.
#
#   bench/reload.sh                    (builds the release binaries first)
#   SKIP_BUILD=1 STEADY=10s GETTERS=12 WRITERS=4 WATCHERS=100 OUT=/tmp/r.md bench/reload.sh
#   KAS_RELOAD_SAMPLES=/tmp/s.csv …     every request from the reload to the upgrade's end, as CSV
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release}
OUT=${OUT:-$ROOT/bench/RESULTS-reload.md}
STEADY=${STEADY:-10s}; GETTERS=${GETTERS:-12}; WRITERS=${WRITERS:-4}; WATCHERS=${WATCHERS:-100}
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
    cargo build --release -p kube-apiserver -p kas-bench --manifest-path "$ROOT/Cargo.toml"
fi
report=$("$BIN/kas-reload" --server "$BIN/kube-apiserver" --steady "$STEADY" \
    --getters "$GETTERS" --writers "$WRITERS" --watchers "$WATCHERS" --markdown)
{
    echo "# Reload and binary upgrade under load"
    echo
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') at $(git -C "$ROOT" rev-parse --short HEAD) on"
    echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')),"
    echo "$(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -sr); release build, embedded store. \`bench/reload.sh\`."
    echo
    echo "$report"
} >"$OUT"
cat "$OUT"
