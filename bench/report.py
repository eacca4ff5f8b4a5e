#!/usr/bin/env python3
"""Formats the JSON lines written by bench/run.sh as bench/RESULTS.md (on stdout)."""

import argparse
import datetime
import json
import os
import platform
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_api import api_section, fanout_section, rss_section  # noqa: E402

BASELINE_NAME = "kas-baseline (bare hyper+rustls)"

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


def merged(rounds, metrics=("rps", "p50_us", "p99_us"), counts=("errors", "non_2xx")):
    """Median of each metric over the rounds of one case; counts are summed."""
    results = [r for _, r in rounds]
    out = {m: median([r[m] for r in results]) for m in metrics}
    out.update({c: sum(r[c] for r in results) for c in counts})
    return out


def paired_ratios(server, baseline, metric):
    """server / baseline (or embedded / etcd) for each round (the two ran back to back)."""
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


def span(summary):
    return f"{ms(summary, 'median_ms')} ({ms(summary, 'min_ms')} – {ms(summary, 'max_ms')})"


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
        "| | first start | warm start |",
        "| --- | --- | --- |",
    ]
    keys = ("first", "warm")
    for target, name in (("server", server), ("baseline", BASELINE_NAME)):
        if target in by:
            out.append(f"| {name} | " + " | ".join(span(by[target][k]) for k in keys) + " |")
    if "server" in by and "baseline" in by:
        s, b = by["server"], by["baseline"]
        cells = [ratio(s[k]["median_ms"], b[k]["median_ms"]) for k in keys]
        out.append("| **ratio of medians** | " + " | ".join(f"**{c}×**" for c in cells) + " |")
    return out + [""]


def stop_section(rows, server):
    by = {r["labels"]["target"]: r["result"] for r in rows}
    out = ["## SIGTERM → exit", ""]
    if not by:
        return out + ["(not measured)", ""]
    runs = next(iter(by.values()))["runs"]
    out += [
        f"The stops of the start-up runs above ({2 * runs} per server: after each first and "
        "warm start), no load, `--shutdown-delay-duration=0s`: SIGTERM to the supervisor "
        "→ the process has exited (every worker stopped before it). Times in ms: median "
        "(min – max).",
        "",
        "| | SIGTERM → exit |",
        "| --- | --- |",
    ]
    for target, name in (("server", server), ("baseline", BASELINE_NAME)):
        if target in by:
            out.append(f"| {name} | {span(by[target]['stop'])} |")
    if "server" in by and "baseline" in by:
        c = ratio(by["server"]["stop"]["median_ms"], by["baseline"]["stop"]["median_ms"])
        out.append(f"| **ratio of medians** | **{c}×** |")
    return out + [""]


def restart_section(rows, server, ready_path):
    out = [f"## Restart: `kill -9` of one worker → `GET {ready_path}` 200 again", ""]
    if not rows:
        return out + ["(not measured)", ""]
    r = rows[0]["result"]
    out += [
        f"{r['runs']} kills per worker role. Each run starts {server} (warm data dir), waits "
        f"for `{ready_path}`, then kills each worker once (order rotated per run), 100 ms "
        "after the previous one was back. *Back* = a 200 from a probe sent after the "
        "supervisor's new child for that role was seen in `/proc` (for the aggregator, "
        "whose old process cannot answer, any 200 with the new process present). Every "
        "kill is that worker's first crash, which the supervisor restarts at once; a "
        "second crash within 10 s waits 250 ms, doubling to 5 s. Polled over TLS (a new "
        "connection per probe) every ~1 ms. *Red seen* = samples in which a probe failed "
        "or answered non-200 before the worker was back. Times in ms.",
        "",
        "| worker | median | min | max | red seen |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for role in r["roles"]:
        t = role["restart"]
        out.append(
            f"| {role['role']} | **{ms(t, 'median_ms')}** | {ms(t, 'min_ms')} | "
            f"{ms(t, 'max_ms')} | {role['red_seen']}/{len(t['samples_ms'])} |"
        )
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


STORAGE_OPS = {
    "put": "put of one key, ~1 KiB value",
    "range": "range of a prefix holding 100 keys (~100 KiB)",
    "get": "range of one key",
}


def storage_section(rows, store, etcd_version):
    out = ["## Storage: embedded store vs etcd", ""]
    if not rows:
        return out + ["(not measured)", ""]
    if "stand-in" in store:
        embedded = "a second etcd standing in for the embedded store (a check of the harness)"
    else:
        embedded = (
            f"the {store} on its unix socket `<data-dir>/run/storage.sock` (the whole "
            "kube-apiserver running, as users get it)"
        )
    out += [
        f"Both through `etcd-client` 0.21 in `kas-load etcd`, in the same run on the same "
        f"machine: {embedded} and {etcd_version or 'etcd'} "
        "(`/usr/bin/etcd`, one member on 127.0.0.1, its own data dir on the same disk). Both "
        "fsync every commit and group-commit concurrent writes; reads are linearizable (the "
        "etcd-client default). Each client has its own gRPC connection with one call in "
        "flight; values are 1 KiB. Absolute numbers are medians over the rounds; *ratio* = "
        "embedded / etcd, the median of the per-round ratios (the two ran back to back, "
        "order alternating), range in brackets. Latency in µs.",
        "",
        "| operation | clients | embedded ops/s | etcd ops/s | **ops/s ratio** | embedded p50 | "
        "etcd p50 | p50 ratio | embedded p99 | etcd p99 | p99 ratio | errors (embedded, etcd) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    groups = {}
    for r in rows:
        l = r["labels"]
        case = groups.setdefault((l["op"], l["clients"]), {"embedded": [], "etcd": []})
        case[l["target"]].append((l, r["result"]))
    metrics = ("ops_per_s", "p50_us", "p99_us")
    watch = []
    for (op, clients), t in groups.items():
        if not t["embedded"] or not t["etcd"]:
            continue
        e, d = merged(t["embedded"], metrics, ("errors",)), merged(t["etcd"], metrics, ("errors",))
        r = {m: paired_ratios(t["embedded"], t["etcd"], m) for m in metrics}
        if op == "watch":
            watch.append((e, d, r))
            continue
        out.append(
            f"| {op}: {STORAGE_OPS.get(op, op)} | {clients} | {e['ops_per_s']:.0f} | "
            f"{d['ops_per_s']:.0f} | {ratio_cell(r['ops_per_s'], bold=True)} | "
            f"{e['p50_us']:.0f} | {d['p50_us']:.0f} | {ratio_cell(r['p50_us'])} | "
            f"{e['p99_us']:.0f} | {d['p99_us']:.0f} | {ratio_cell(r['p99_us'])} | "
            f"{e['errors']}, {d['errors']} |"
        )
    out.append("")
    if watch:
        out += [
            "### Watch: put → event",
            "",
            "One watcher on a prefix, one client putting under it, one put at a time: the "
            "latency runs from just before the put is issued to the watcher task receiving "
            "the event of that revision (so it includes the put's commit). Lower is better; "
            "ratio = embedded / etcd.",
            "",
            "| | embedded | etcd | ratio |",
            "| --- | ---: | ---: | ---: |",
        ]
        for e, d, r in watch:
            out += [
                f"| p50 µs | {e['p50_us']:.0f} | {d['p50_us']:.0f} | {ratio_cell(r['p50_us'], bold=True)} |",
                f"| p99 µs | {e['p99_us']:.0f} | {d['p99_us']:.0f} | {ratio_cell(r['p99_us'])} |",
                f"| events/s (sequential) | {e['ops_per_s']:.0f} | {d['ops_per_s']:.0f} | "
                f"{ratio_cell(r['ops_per_s'])} |",
                f"| errors | {e['errors']} | {d['errors']} | |",
            ]
        out.append("")
    return out


# Which kinds of rows each section of bench/run.sh writes.
SECTION_KINDS = {
    "startup": ("startup",),
    "restart": ("restart",),
    "requests": ("load",),
    "storage": ("etcd",),
    "api": ("api", "seed", "fanout", "rss"),
}


def previous_rows(path):
    """The raw rows of an earlier results file, each tagged with the run it came from."""
    if not path or not os.path.exists(path):
        return []
    with open(path) as f:
        text = f.read()
    date = re.search(r"^\* date: (.+)$", text, re.M)
    commit = re.search(r"^\* commit: `([^`]+)`", text, re.M)
    origin = {
        "date": date.group(1).strip() if date else "unknown date",
        "commit": commit.group(1)[:12] if commit else "unknown commit",
    }
    block = re.search(r"```json\n(.*?)```", text, re.S)
    rows = []
    for line in (block.group(1) if block else "").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            row = json.loads(line)
        except ValueError:
            continue
        row.setdefault("from", origin)
        rows.append(row)
    return rows


def carried_note(rows):
    """A note for a section whose rows come from an earlier run, else None."""
    origins = {(r["from"]["date"], r["from"]["commit"]) for r in rows if "from" in r}
    if not origins:
        return None
    runs = "; ".join(f"{d}, commit `{c}`" for d, c in sorted(origins))
    return f"> **Not re-run in this run**: these numbers were measured on {runs}."


def with_note(lines, note):
    if not note:
        return lines
    return lines[:2] + [note, ""] + lines[2:]


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("results")
    p.add_argument("--commit", default="unknown")
    p.add_argument("--dirty", default="0")
    p.add_argument("--server", default="kube-apiserver")
    p.add_argument("--settings", default="")
    p.add_argument("--ready-path", default="/readyz")
    p.add_argument("--etcd-version", default="")
    p.add_argument("--store", default="")
    p.add_argument("--previous", default="", help="earlier results file")
    p.add_argument("--server-binary", default="", help="server binary, if not this tree's")
    p.add_argument("--skipped", default="", help="sections not run, comma-separated")
    args = p.parse_args()

    with open(args.results) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    # A skipped section keeps the rows of the previous results file, marked with their run.
    skipped = [s for s in args.skipped.split(",") if s]
    carried_kinds = {k for s in skipped for k in SECTION_KINDS.get(s, ())}
    fresh_kinds = {r["kind"] for r in rows}
    rows += [
        r for r in previous_rows(args.previous)
        if r.get("kind") in carried_kinds and r.get("kind") not in fresh_kinds
    ]
    of = lambda *kinds: [r for r in rows if r["kind"] in kinds]  # noqa: E731
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
        *([f"* server binary: {args.server_binary}"] if args.server_binary else []),
        f"* settings: {args.settings}",
        f"* load generator and servers share the machine's CPUs; load average (1/5/15 min) "
        f"when the report was written: {m['load']}.",
        "",
    ]
    note = lambda *kinds: carried_note(of(*kinds))  # noqa: E731
    out += with_note(startup_section(of("startup"), args.server, args.ready_path), note("startup"))
    out += with_note(stop_section(of("startup"), args.server), note("startup"))
    out += with_note(
        restart_section(of("restart"), args.server, args.ready_path), note("restart")
    )
    out += with_note(load_section(of("load"), args.server), note("load"))
    etcd_rows = of("etcd")
    out += with_note(
        storage_section(
            etcd_rows,
            args.store or (etcd_rows and "embedded store (storage worker)") or "embedded store",
            args.etcd_version or "etcd",
        ),
        note("etcd"),
    )
    out += api_section(of("api"), of("seed"), note("api", "seed"))
    out += fanout_section(of("fanout"), note("fanout"))
    out += rss_section(of("rss"), note("rss"))
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
