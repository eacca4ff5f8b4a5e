#!/usr/bin/env python3
"""Formats the JSON lines written by bench/run.sh as bench/RESULTS.md (on stdout)."""

import argparse
import datetime
import json
import os
import platform

DESCRIPTIONS = {
    "/version": "answered by the front process",
    "/api": "delegated to the kube-api worker",
    "/apis/apiextensions.k8s.io": "delegated to the extensions worker",
}


def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = "unknown"
    try:
        with open("/proc/loadavg") as f:
            load = " ".join(f.read().split()[:3])
    except OSError:
        pass
    mem = "unknown"
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                    break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "model": model,
        "memory": mem,
        "kernel": platform.release(),
        "load": load,
    }


def ratio(a, b):
    return f"{a / b:.2f}" if b else "–"


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def merged(rounds):
    """Median of each metric over the rounds of one case; error counts are summed."""
    results = [r for _, r in rounds]
    return {
        "rps": median([r["rps"] for r in results]),
        "p50_us": median([r["p50_us"] for r in results]),
        "p99_us": median([r["p99_us"] for r in results]),
        "errors": sum(r["errors"] for r in results),
        "non_2xx": sum(r["non_2xx"] for r in results),
    }


def paired_ratios(server, baseline, metric):
    """server / baseline for each round (the two ran back to back), as a list."""
    b_by_round = {l["round"]: r for l, r in baseline}
    return [
        r[metric] / b_by_round[l["round"]][metric]
        for l, r in server
        if l["round"] in b_by_round and b_by_round[l["round"]][metric]
    ]


def ratio_cell(ratios, bold=False):
    if not ratios:
        return "–"
    mid = f"{median(ratios):.2f}"
    if bold:
        mid = f"**{mid}**"
    if len(ratios) == 1:
        return mid
    return f"{mid} ({min(ratios):.2f}–{max(ratios):.2f})"


def ms(summary, key):
    return f"{summary[key]:.1f}"


def startup_section(rows, server, ready_path):
    by = {r["labels"]["target"]: r["result"] for r in rows}
    out = [f"## Start-up: exec → first `GET {ready_path}` 200", ""]
    if not by:
        return out + ["(not measured)", ""]
    runs = next(iter(by.values()))["runs"]
    out += [
        f"{runs} runs, each with a fresh data dir; polled over TLS every ~1 ms. "
        "*First* = empty data dir (certificates generated), *warm* = the same data dir "
        "again. Times in ms: median (min – max).",
        "",
        "| | first start | warm start | stop (SIGTERM → exit) |",
        "| --- | --- | --- | --- |",
    ]
    for target, name in (("server", server), ("baseline", "kas-baseline (bare hyper+rustls)")):
        if target not in by:
            continue
        r = by[target]
        cells = [
            f"{ms(r[k], 'median_ms')} ({ms(r[k], 'min_ms')} – {ms(r[k], 'max_ms')})"
            for k in ("first", "warm", "stop")
        ]
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    if "server" in by and "baseline" in by:
        s, b = by["server"], by["baseline"]
        cells = [ratio(s[k]["median_ms"], b[k]["median_ms"]) for k in ("first", "warm", "stop")]
        out.append("| **ratio of medians** | " + " | ".join(f"**{c}×**" for c in cells) + " |")
    return out + [""]


def load_section(rows, server):
    out = [
        "## Requests over TLS: closed loop, one request in flight per connection",
        "",
        f"Each row: {server} vs kas-baseline serving the same bytes with the same "
        "content type and the server's own certificate. *rps ratio* = server / baseline "
        "(higher is better, 1 = as fast as bare hyper); latency ratios = server / baseline "
        "(lower is better). Latency in µs. Absolute numbers are medians over the rounds; "
        "a ratio is the median of the per-round ratios (server and baseline of one round "
        "ran back to back), with their range in brackets; errors are summed.",
        "",
    ]
    groups = {}
    for r in rows:
        l = r["labels"]
        key = (l["protocol"], l["connections"])
        case = groups.setdefault(l["path"], {}).setdefault(key, {"server": [], "baseline": []})
        case[l["target"]].append((l, r["result"]))
    for path, cases in groups.items():
        first = next(iter(cases.values()))["server"][0][0]
        out += [
            f"### GET {path} ({DESCRIPTIONS.get(path, '')})",
            "",
            f"Body: {first['bytes']} bytes, `{first['content_type']}`.",
            "",
            "| protocol | conns | server rps | baseline rps | **rps ratio** | server p50 | "
            "baseline p50 | p50 ratio | server p99 | baseline p99 | p99 ratio | "
            "errors / non-2xx (server, baseline) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
        ]
        for (protocol, conns), t in cases.items():
            if not t["server"] or not t["baseline"]:
                continue
            s, b = merged(t["server"]), merged(t["baseline"])
            r = {m: paired_ratios(t["server"], t["baseline"], m) for m in ("rps", "p50_us", "p99_us")}
            out.append(
                f"| {protocol} | {conns} | {s['rps']:.0f} | {b['rps']:.0f} | "
                f"{ratio_cell(r['rps'], bold=True)} | {s['p50_us']:.0f} | {b['p50_us']:.0f} | "
                f"{ratio_cell(r['p50_us'])} | {s['p99_us']:.0f} | {b['p99_us']:.0f} | "
                f"{ratio_cell(r['p99_us'])} | "
                f"{s['errors']}/{s['non_2xx']}, {b['errors']}/{b['non_2xx']} |"
            )
        out.append("")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("results")
    p.add_argument("--commit", default="unknown")
    p.add_argument("--dirty", default="0")
    p.add_argument("--server", default="kube-apiserver")
    p.add_argument("--settings", default="")
    p.add_argument("--ready-path", default="/readyz")
    args = p.parse_args()

    with open(args.results) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    m = machine()
    dirty = f" (+{args.dirty} uncommitted changes)" if args.dirty not in ("", "0") else ""
    out = [
        "# Benchmark results",
        "",
        "Written by `bench/run.sh`; every ratio is against a baseline measured in the same run.",
        "",
        f"* date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}",
        f"* commit: `{args.commit}`{dirty}",
        f"* machine: {m['nproc']} CPUs, {m['model']}, {m['memory']} RAM, Linux {m['kernel']}",
        f"* server under test: `{args.server}`"
        + (" (stand-in: baseline vs baseline, a check of the harness)" if args.server == "kas-baseline" else ""),
        f"* settings: {args.settings}",
        f"* load generator and servers share the machine's CPUs; load average (1/5/15 min) "
        f"when the report was written: {m['load']}.",
        "",
    ]
    out += startup_section(
        [r for r in rows if r["kind"] == "startup"], args.server, args.ready_path
    )
    out += load_section([r for r in rows if r["kind"] == "load"], args.server)
    out += [
        "<details><summary>Raw results (JSON lines)</summary>",
        "",
        "```json",
        *(json.dumps(r, separators=(",", ":")) for r in rows),
        "```",
        "",
        "</details>",
        "",
    ]
    print("\n".join(out))


if __name__ == "__main__":
    main()
