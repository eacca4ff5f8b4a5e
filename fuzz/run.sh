#!/usr/bin/env bash
# Runs the fuzz targets of this crate (every [[bin]] in fuzz/Cargo.toml, found by
# `cargo fuzz list`). See fuzz/README.md.
#
#   fuzz/run.sh ci                      build every target once, replay fuzz/regressions/<t>/,
#                                       then fuzz each target FUZZ_SECONDS (10) over its seeds;
#                                       non-zero on any crash, naming the crashing input
#   fuzz/run.sh long [seconds] [t...]   longer sessions (default 300 s each, all targets);
#                                       appends one line per target to fuzz/RESULTS.md
#
# Environment: FUZZ_SECONDS (ci: seconds per target), FUZZ_JOBS (ci: targets fuzzed at
# once, default the number of cores), FUZZ_TIMEOUT (seconds one input may
# take before it counts as a finding, default 10), FUZZ_RSS_MB (memory limit, 2048),
# FUZZ_BUILD=0 (long only: use the targets already built), FUZZ_PROFILE=dev (a faster
# build without optimisations, for short runs). cargo-fuzz is installed if missing.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
# FUZZ_PROFILE=dev builds without optimisations: a third of the build time, for short runs
# (CI); long sessions want the default, release.
profile=${FUZZ_PROFILE:-release}
case "$profile" in
release) build_flags=() ;;
dev) build_flags=(--dev) ;;
*) echo "FUZZ_PROFILE must be release or dev" >&2; exit 2 ;;
esac
bin_dir=target/x86_64-unknown-linux-gnu/$([ "$profile" = dev ] && echo debug || echo release)
timeout_s=${FUZZ_TIMEOUT:-10}
rss_mb=${FUZZ_RSS_MB:-2048}
logs=target/run-logs
mkdir -p "$logs"

usage() {
    sed -n '4,15p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

all_targets() {
    cargo +nightly fuzz list 2>/dev/null
}

build() {
    if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
        echo "== installing cargo-fuzz"
        cargo install cargo-fuzz --locked || { echo "FAIL: cannot install cargo-fuzz" >&2; exit 1; }
    fi
    echo "== building every fuzz target (cargo +nightly fuzz build -s none ${build_flags[*]})"
    if ! cargo +nightly fuzz build -s none "${build_flags[@]}"; then
        echo "FAIL: the fuzz targets do not build" >&2
        exit 1
    fi
}

# The crashing input libFuzzer wrote, from its log.
finding_in() {
    grep -oE '(Test unit written to|written to) [^ ]+' "$1" | awk '{print $NF}' | tail -1
}

# Replays every file in regressions/<t>/ once; 0 when all pass.
replay() {
    local t=$1 dir=regressions/$1
    [ -d "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ] || return 0
    local log=$logs/$t.regressions.log
    if "$bin_dir/$t" -runs=0 -timeout="$timeout_s" -rss_limit_mb="$rss_mb" "$dir" >"$log" 2>&1; then
        echo "   $t: $(ls "$dir" | wc -l) regression inputs pass"
        return 0
    fi
    echo "FAIL: $t: a regression input fails again; log $fuzz_rel/$log" >&2
    grep -E 'Running: |panicked|ERROR' "$log" | tail -5 >&2
    return 1
}

# Fuzzes target $1 for $2 seconds over corpus/<t> (kept, not committed) and seeds/<t>.
# Sets: runs, corpus_size, finding (path or empty). Returns libFuzzer's status.
fuzz_one() {
    local t=$1 seconds=$2
    local log=$logs/$t.log
    mkdir -p "corpus/$t" "artifacts/$t"
    local dirs=("corpus/$t")
    [ -d "seeds/$t" ] && dirs+=("seeds/$t")
    "$bin_dir/$t" -max_total_time="$seconds" -timeout="$timeout_s" -rss_limit_mb="$rss_mb" \
        -artifact_prefix="artifacts/$t/" -print_final_stats=1 "${dirs[@]}" >"$log" 2>&1
    local rc=$?
    runs=$(grep -oE '^Done [0-9]+ runs' "$log" | awk '{print $2}' | tail -1)
    if [ -z "$runs" ]; then
        runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | awk '{print $2}' | tail -1)
    fi
    runs=${runs:-0}
    corpus_size=$(ls "corpus/$t" | wc -l)
    finding=""
    if [ $rc -ne 0 ]; then
        finding=$(finding_in "$log")
        finding=${finding:-"(no input written; see $fuzz_rel/$log)"}
    fi
    return $rc
}

fuzz_rel=fuzz
mode=${1:-}
case "$mode" in
ci)
    start=$(date +%s)
    seconds=${FUZZ_SECONDS:-10}
    build
    mapfile -t targets < <(all_targets)
    [ ${#targets[@]} -gt 0 ] || { echo "FAIL: no fuzz targets" >&2; exit 1; }
    failed=0
    echo "== replaying fuzz/regressions/"
    for t in "${targets[@]}"; do
        replay "$t" || failed=1
    done
    # Each libFuzzer run uses one core: as many at once as there are cores.
    parallel=${FUZZ_JOBS:-$(nproc)}
    echo "== fuzzing ${#targets[@]} targets, $seconds s each, $parallel at a time"
    for t in "${targets[@]}"; do
        (
            fuzz_one "$t" "$seconds"
            rc=$?
            printf '%s\t%s\t%s\t%s\n' "$rc" "$runs" "$corpus_size" "$finding" >"$logs/$t.result"
        ) &
        while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do
            wait -n
        done
    done
    wait
    for t in "${targets[@]}"; do
        IFS=$'\t' read -r rc runs corpus_size finding <"$logs/$t.result" || rc=1
        if [ "$rc" = 0 ]; then
            echo "   $t: $runs runs, corpus $corpus_size"
        else
            failed=1
            echo "FAIL: $t: crash; input $fuzz_rel/$finding (log $fuzz_rel/$logs/$t.log)" >&2
            grep -E 'panicked|ERROR: libFuzzer|SUMMARY' "$logs/$t.log" | head -5 >&2
        fi
    done
    echo "== fuzz ci: $(( $(date +%s) - start )) s in all"
    exit $failed
    ;;
long)
    shift
    seconds=300
    if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
        seconds=$1
        shift
    fi
    [ "${FUZZ_BUILD:-1}" = 0 ] || build
    if [ $# -gt 0 ]; then
        targets=("$@")
    else
        mapfile -t targets < <(all_targets)
    fi
    if [ ! -f RESULTS.md ]; then
        cat >RESULTS.md <<'EOF'
# Fuzzing results

Long sessions of `fuzz/run.sh long`, one line per target and session, newest last.
Machine: the project's `rust` machine kind, 2 cores (24 GiB) shared with other builds;
one target at a time, one libFuzzer process (no `-jobs`), `-s none` (no sanitizer).
Executions are libFuzzer's final `Done N runs`; corpus is the size of fuzz/corpus/<target>
after the session (seeds not counted); findings name the input libFuzzer wrote.

| date (UTC) | commit | target | seconds | executions | corpus | findings |
| --- | --- | --- | --- | --- | --- | --- |
EOF
    fi
    commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
    failed=0
    for t in "${targets[@]}"; do
        [ -x "$bin_dir/$t" ] || { echo "FAIL: no target $t" >&2; failed=1; continue; }
        echo "== $t: $seconds s"
        if fuzz_one "$t" "$seconds"; then
            found="none"
        else
            failed=1
            found="crash: \`$fuzz_rel/$finding\`"
        fi
        line="| $(date -u +%Y-%m-%dT%H:%MZ) | $commit | $t | $seconds | $runs | $corpus_size | $found |"
        echo "$line" >>RESULTS.md
        echo "   $t: $runs runs, corpus $corpus_size, findings: $found"
    done
    exit $failed
    ;;
*)
    usage
    ;;
esac
