#!/usr/bin/env python3
"""Markdown report of bench/storage_scale.sh's JSON lines (on stdout)."""

import argparse
import datetime
import json
import os
import platform


def machine():
    model = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        total = int(f.readline().split()[1])
    return f"{os.cpu_count()} CPUs, {model}, {total / 1048576:.1f} GiB RAM, Linux {platform.release()}"


def mib(kib):
    return f"{kib / 1024:.0f} MiB"


def ratio(a, b):
    return f"{a / b:.2f}" if b else "–"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("results")
    p.add_argument("--objects", type=int)
    p.add_argument("--duration")
    p.add_argument("--commit")
    p.add_argument("--etcd-version")
    a = p.parse_args()
    rows = [json.loads(line) for line in open(a.results)]

    def find(kind, **labels):
        for r in rows:
            if r["kind"] == kind and all(r["labels"].get(k) == v for k, v in labels.items()):
                return r["result"]
        return None

    out = []
    w = out.append
    w("# Storage at scale: the embedded store and etcd under the same API load")
    w("")
    w("Written by `bench/storage_scale.sh` (issue 14's benchmark). The same release server is")
    w(f"loaded with {a.objects:,} ConfigMaps (1 KiB of data each, namespace `bench`) through the API,")
    w("once on its embedded store and once on Debian's etcd (`--etcd-servers`, one member on")
    w("loopback); then closed loops of GET, LIST (`?limit=500`, the first page, as kubectl's chunks)")
    w(f"and POST for {a.duration} at 1 and 16 connections (HTTP/2, admin client certificate), and a")
    w("restart with the data in place. *Store RSS* is the storage worker's (embedded) or etcd's")
    w("VmRSS; *disk* the store's directory.")
    w("")
    w(f"* date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}")
    w(f"* commit: `{a.commit}`")
    w(f"* machine: {machine()}; load generator, server and store share the CPUs")
    w(f"* etcd: {a.etcd_version}")
    w("")
    w("## Memory and disk")
    w("")
    w("| | embedded | etcd | **embedded / etcd** |")
    w("| --- | ---: | ---: | ---: |")
    em_l, et_l = find("memory", target="embedded", stage="loaded"), find("memory", target="etcd", stage="loaded")
    em_a, et_a = (find("memory", target="embedded", stage="after the loads"),
                  find("memory", target="etcd", stage="after the loads"))
    em_r, et_r = find("restart", target="embedded"), find("restart", target="etcd")
    if em_l and et_l:
        w(f"| store RSS, loaded | {mib(em_l['store_rss_kib'])} | {mib(et_l['store_rss_kib'])} | "
          f"**{ratio(em_l['store_rss_kib'], et_l['store_rss_kib'])}** |")
    if em_a and et_a:
        w(f"| store RSS after the loads (peak) | {mib(em_a['store_rss_kib'])} ({mib(em_a['store_hwm_kib'])}) | "
          f"{mib(et_a['store_rss_kib'])} ({mib(et_a['store_hwm_kib'])}) | "
          f"**{ratio(em_a['store_rss_kib'], et_a['store_rss_kib'])}** |")
    if em_r and et_r:
        w(f"| store RSS after a restart, ready | {mib(em_r['store_rss_kib'])} | {mib(et_r['store_rss_kib'])} | "
          f"**{ratio(em_r['store_rss_kib'], et_r['store_rss_kib'])}** |")
    if em_a and et_a:
        w(f"| kube-api worker RSS (its watch cache) | {mib(em_a['kube_api_rss_kib'])} | {mib(et_a['kube_api_rss_kib'])} | |")
        w(f"| disk | {em_a['disk_bytes'] / 1e6:.0f} MB | {et_a['disk_bytes'] / 1e6:.0f} MB | "
          f"{ratio(em_a['disk_bytes'], et_a['disk_bytes'])} |")
    w("")
    w("## Requests through the API")
    w("")
    w("| operation | conns | embedded rps | etcd rps | **rps ratio** | embedded p99 µs | etcd p99 µs | errors (embedded, etcd) |")
    w("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for op in ["get", "list", "create"]:
        for c in [1, 16]:
            em, et = find("api", target="embedded", op=op, connections=c), find("api", target="etcd", op=op, connections=c)
            if not em or not et:
                continue
            name = {"get": "GET one ConfigMap", "list": "LIST, first page of 500", "create": "POST a ConfigMap"}[op]
            w(f"| {name} | {c} | {em['rps']:.0f} | {et['rps']:.0f} | **{ratio(em['rps'], et['rps'])}** | "
              f"{em['p99_us']:.0f} | {et['p99_us']:.0f} | {em['errors'] + em['non_2xx']}, {et['errors'] + et['non_2xx']} |")
    w("")
    w("## Seeding and restart")
    w("")
    w("| | embedded | etcd |")
    w("| --- | ---: | ---: |")
    em_s, et_s = find("seed", target="embedded"), find("seed", target="etcd")
    if em_s and et_s:
        w(f"| seeding, creates/s (32 connections) | {em_s['creates_per_s']:.0f} | {et_s['creates_per_s']:.0f} |")
    if em_r and et_r:
        w(f"| etcd restart → healthy, ms | – | {et_r['store_ms']} |")
        w(f"| server restart → `/readyz` ok, ms | {em_r['server_ms']} | {et_r['server_ms']} |")
    w("")
    w("<details><summary>Raw results (JSON lines)</summary>")
    w("")
    w("```json")
    for r in rows:
        w(json.dumps(r, separators=(",", ":")))
    w("```")
    w("")
    w("</details>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
