#!/usr/bin/env bash
# Runs the hostile-client scenarios of issue 21 at full size and writes
# bench/RESULTS-hostile.md: per scenario what was sent, for how long, the server's RSS
# (all its processes) before / at peak / after, another client's GET rate undisturbed and
# during, and whether the server stayed up. kas-hostile starts a fresh release
# kube-apiserver for each scenario (temporary data dir, port 0). The tests in
# tests/hostile run the same scenarios small.
#
#   bench/hostile.sh [kas-hostile flags: --only slowloris,"rapid reset" --divide 10]
#
# Environment: SKIP_BUILD=1 (use the binaries already built), CARGO_TARGET_DIR, SERVER
# (another kube-apiserver binary), OUT (default bench/RESULTS-hostile.md).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=$TARGET_DIR/release
OUT=${OUT:-$ROOT/bench/RESULTS-hostile.md}

log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }

if [[ ${SKIP_BUILD:-0} != 1 ]]; then
    log "building kas-bench and kube-apiserver (release, target dir $TARGET_DIR)"
    (cd "$ROOT" && cargo build --release -p kas-bench -p kube-apiserver)
fi
TOOL=$BIN/kas-hostile
SERVER=${SERVER:-$BIN/kube-apiserver}
for bin in "$TOOL" "$SERVER"; do
    [[ -x $bin ]] || { echo "missing $bin" >&2; exit 1; }
done

model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
memory=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
commit=$(git -C "$ROOT" rev-parse --verify -q HEAD || echo "none")
dirty=$(git -C "$ROOT" status --porcelain 2>/dev/null | wc -l)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u '+%Y-%m-%d %H:%M UTC')
# Thousands of connections: client and server each need a descriptor per connection.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log "running kas-hostile $*"
"$TOOL" --server "$SERVER" --out "$tmp/hostile.md" "$@" >/dev/null
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

{
    echo "# Hostile clients (issue 21): figures"
    echo
    echo "Written by \`bench/hostile.sh\` (the \`kas-hostile\` binary, the scenarios of \`bench/src/hostile\`,"
    echo "which \`tests/hostile\` runs small). Each scenario gets a fresh server; \"other client\" is one"
    echo "client GETting \`/api/v1/namespaces/default\` one request after another (a new HTTP/2"
    echo "connection every 20 requests), measured for 3 s before the scenario and for 3 s once it is fully"
    echo "set up. RSS is the sum over the supervisor and all its workers."
    echo
    echo "* date: $started"
    echo "* commit: \`$commit\`$([[ $dirty == 0 ]] || echo " (+$dirty uncommitted changes in the shared working tree)")"
    echo "* machine: $(nproc) CPUs (shared with other builds), ${model:-unknown CPU}, $memory RAM, Linux $(uname -r)"
    echo "* server binary: \`$SERVER\` (release), default flags"
    echo "* settings: kas-hostile ${*:-with its defaults}; the scenarios, the server and the other client share the CPUs; load average (1/5/15 min) before: $load_before, after: $load_after."
    echo
    cat "$tmp/hostile.md"
} >"$OUT"
log "wrote $OUT"
