"""The built-in API tables of bench/RESULTS.md: ConfigMaps through the API vs the raw store,
watch fan-out, and memory per process (rows written by section 5 of bench/run.sh)."""

OPS = {
    "get": ("GET of one ConfigMap", "range of one key"),
    "list": ("LIST of the namespace", "range of the namespace's prefix"),
    "update": (
        "UPDATE (PUT, no resourceVersion: unconditional)",
        "txn: mod_revision compare → put",
    ),
    "create": ("CREATE (POST)", "txn: create_revision == 0 → put"),
}


def _median(xs):
    xs = sorted(xs)
    n = len(xs)
    if not n:
        return 0
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def _ratios(a_rows, b_rows, metric):
    b_by_round = {l["round"]: r for l, r in b_rows}
    return [
        r[metric] / b_by_round[l["round"]][metric]
        for l, r in a_rows
        if l["round"] in b_by_round and b_by_round[l["round"]][metric]
    ]


def _cell(ratios, bold=False):
    if not ratios:
        return "–"
    mid = f"{_median(ratios):.2f}"
    if bold:
        mid = f"**{mid}**"
    if len(ratios) == 1:
        return mid
    return f"{mid} ({min(ratios):.2f}–{max(ratios):.2f})"


def _us(x):
    """µs, or ms once it is large; – for none."""
    if x is None:
        return "–"
    if abs(x) >= 10000:
        return f"{x / 1000:.1f} ms"
    return f"{x:.0f}"


def api_section(rows, seeds, note=None):
    out = ["## Built-in API: ConfigMaps through the API vs raw etcd", ""]
    if note:
        out += [note, ""]
    if not rows:
        return out + ["(not measured)", ""]
    out += [
        "Closed loop over TLS (HTTP/2, admin client certificate), one request in flight per "
        "connection, namespace `bench`, ConfigMaps `cm-N` with a 1 KiB `data.k` "
        "(`{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm-N\"},"
        "\"data\":{\"k\":\"<1 KiB>\"}}`). GET cycles over the objects (each connection its "
        "own); UPDATE is a PUT of the whole object with new data and **no** "
        "resourceVersion (an unconditional update), each connection on its own objects; "
        "CREATE posts fresh names. Order: GET and LIST with the small set stored, LIST "
        "again with the large set, then UPDATE (of the small set's names, among the large "
        "set) and CREATE. *Raw etcd* = the same operation done straight on the "
        "embedded store (the storage worker's unix socket, same process, same run) through "
        "`etcd-client`, one gRPC connection per client: a linearizable range of the same "
        "key(s), or a txn writing the stored bytes of `cm-0` under a scratch prefix (an API "
        "update also reads the object first; raw update is the txn alone). *rps ratio* = "
        "API / raw (how much of the store's throughput the API keeps); latency ratio = API "
        "/ raw. Absolute numbers are medians over the rounds; ratios are medians of per-round "
        "ratios (API and raw ran back to back, order alternating), range in brackets. "
        "Latency in µs.",
        "",
    ]
    if seeds:
        cells = [
            f"{r['result']['created']} created in {r['result']['seconds']:.1f} s "
            f"({r['result']['creates_per_s']:.0f}/s, 32 connections at most)"
            for r in seeds
        ]
        out += ["Seeding: " + "; ".join(cells) + ".", ""]
    out += [
        "| operation | objects | conns | API rps | raw rps | **rps ratio** | API p50 | raw p50 "
        "| p50 ratio | API p99 | raw p99 | p99 ratio | errors / non-2xx (API, raw) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    groups = {}
    for r in rows:
        l = r["labels"]
        key = (l["op"], l["objects"], l["connections"])
        groups.setdefault(key, {"api": [], "raw": []})[l["target"]].append((l, r["result"]))
    order = {"get": 0, "list": 1, "update": 2, "create": 3}
    for (op, n, c) in sorted(groups, key=lambda k: (order.get(k[0], 9), k[1], k[2])):
        t = groups[(op, n, c)]
        if not t["api"] or not t["raw"]:
            continue
        # A round in which nothing completed has no latency (its window was too short).
        done_a = [(l, r) for l, r in t["api"] if r["requests"]]
        done_b = [(l, r) for l, r in t["raw"] if r["requests"]]
        a = {"rps": _median([r["rps"] for _, r in t["api"]])}
        b = {"rps": _median([r["rps"] for _, r in t["raw"]])}
        for m in ("p50_us", "p99_us"):
            a[m] = _median([r[m] for _, r in done_a]) if done_a else None
            b[m] = _median([r[m] for _, r in done_b]) if done_b else None
        rr = {"rps": _ratios(t["api"], t["raw"], "rps")}
        rr.update({m: _ratios(done_a, done_b, m) for m in ("p50_us", "p99_us")})
        err_a = sum(r["errors"] for _, r in t["api"])
        non_a = sum(r["non_2xx"] for _, r in t["api"])
        err_b = sum(r["errors"] for _, r in t["raw"])
        name = OPS.get(op, (op, op))[0]
        count = "–" if op == "create" else f"{n:,}"
        out.append(
            f"| {name} | {count} | {c} | {a['rps']:.0f} | {b['rps']:.0f} | "
            f"{_cell(rr['rps'], bold=True)} | {_us(a['p50_us'])} | {_us(b['p50_us'])} | "
            f"{_cell(rr['p50_us'])} | {_us(a['p99_us'])} | {_us(b['p99_us'])} | "
            f"{_cell(rr['p99_us'])} | {err_a}/{non_a}, {err_b} |"
        )
    out += ["", "Raw etcd operations: " + "; ".join(
        f"{OPS[op][0].split(' ')[0]} = {OPS[op][1]}" for op in ("get", "list", "update", "create")
    ) + ".", "",
        "Not measured by this section: the server on a real etcd (`--etcd-servers`) against "
        "raw operations on that etcd; only the embedded store is compared.", ""]
    lists = [
        (l, r) for l, r in ((x["labels"], x["result"]) for x in rows)
        if l["op"] == "list" and l["target"] == "api" and r["requests"]
    ]
    if lists:
        out += [
            "LIST response sizes: "
            + ", ".join(
                sorted({f"{l['objects']:,} objects ≈ {r['body_bytes'] / r['requests'] / 1e6:.2f} MB"
                        for l, r in lists})
            )
            + ".",
            "",
        ]
    return out


def fanout_section(rows, note=None):
    out = ["### Watch fan-out: one write → every watcher", ""]
    if note:
        out += [note, ""]
    if not rows:
        return out + ["(not measured)", ""]
    first = rows[0]["result"]
    out += [
        f"{first['watchers']} watchers established first (API: `GET "
        "/api/v1/namespaces/bench/configmaps?watch=true&resourceVersion=<rv of a LIST>`, "
        f"HTTP/2 streams spread over {first['connections']} connections; raw: as many "
        "`etcd-client` watches on one key prefix of the embedded store, spread over as many "
        f"gRPC connections), then {first['writes']} writes one at a time, 200 ms apart (API: "
        "an unconditional PUT of `cm-0` in the watched namespace; raw: a put of 1 KiB under "
        "the prefix). Latency = the write's response read by the writer → a watcher has "
        "decoded the event, over every watcher and write (negative: the event came first). "
        "*Last* = response → the last of the watchers has it, per write. Medians over the "
        "rounds; ratio = API / raw, median of per-round ratios. Times in µs.",
        "",
        "| | API | raw etcd | ratio |",
        "| --- | ---: | ---: | ---: |",
    ]
    by = {"api": [], "raw": []}
    for r in rows:
        by[r["labels"]["target"]].append((r["labels"], r["result"]))

    def get(res, path):
        """A number from a result, None when an older run did not measure it."""
        for p in path.split("."):
            if not isinstance(res, dict) or p not in res:
                return None
            res = res[p]
        return res

    def med(target, path):
        xs = [get(r, path) for _, r in by[target]]
        xs = [x for x in xs if x is not None]
        return _median(xs) if xs else None

    def row(title, path, ratio=True):
        a, b = med("api", path), med("raw", path)
        rs = []
        if ratio:
            braw = {l["round"]: get(r, path) for l, r in by["raw"]}
            # A ratio of signed times means nothing once one of them is not positive.
            rs = [get(r, path) / braw[l["round"]] for l, r in by["api"]
                  if (braw.get(l["round"]) or 0) > 0 and (get(r, path) or 0) > 0]
        return f"| {title} | {_us(a)} | {_us(b)} | {_cell(rs) if ratio else ''} |"

    out += [
        row("event p50", "latency.p50_us"),
        row("event p99", "latency.p99_us"),
        row("event max", "latency.max_us"),
        row("write sent → event p50", "from_sent.p50_us"),
        row("write sent → event p99", "from_sent.p99_us"),
        row("last watcher (after the response), median over writes", "last.p50_us"),
        row("write itself (sent → response), median", "write.p50_us"),
        row("establishing every watcher, ms", "setup_ms", ratio=False),
    ]
    got = {
        t: (sum(r["received"] for _, r in v), sum(r["expected"] for _, r in v))
        for t, v in by.items()
    }
    out.append(
        f"| events received / expected | {got['api'][0]}/{got['api'][1]} | "
        f"{got['raw'][0]}/{got['raw'][1]} | |"
    )
    return out + [""]


def rss_section(rows, note=None):
    out = ["### Memory: VmRSS of each process", ""]
    if note:
        out += [note, ""]
    if not rows:
        return out + ["(not measured)", ""]
    out += [
        "`/proc/<pid>/status` of the supervisor and of each of its `__worker <role>` "
        "children: *idle* = the running server before any ConfigMap was created (after the "
        "sections above it in this run); then with the large set of ~1 KiB ConfigMaps "
        "stored (plus the GET and small-LIST loops, which write nothing), after one LIST of "
        "all of them, and again after the LIST load; *at the end* = after the UPDATE, watch "
        "and CREATE loops too (the store then also holds their history and the created "
        "objects). VmHWM (peak) in brackets. MiB.",
        "",
    ]
    stages = [r["labels"] for r in rows]
    header = "| process | " + " | ".join(
        f"{l['stage']}" + (f" ({l['objects']:,} objects)" if l.get("objects") else "")
        for l in stages
    ) + " |"
    out += [header, "| --- |" + " ---: |" * len(stages)]
    roles = ["supervisor"]
    for r in rows:
        for w in r["result"]["workers"]:
            if w["role"] not in roles:
                roles.append(w["role"])

    def mem(result, role):
        if role == "supervisor":
            m = result["supervisor"]
        else:
            m = next((w for w in result["workers"] if w["role"] == role), None)
        if not m:
            return "–"
        return f"{m['rss_kib'] / 1024:.1f} ({m['hwm_kib'] / 1024:.1f})"

    for role in roles:
        out.append(f"| {role} | " + " | ".join(mem(r["result"], role) for r in rows) + " |")
    totals = []
    for r in rows:
        t = r["result"]["supervisor"]["rss_kib"] + sum(
            w["rss_kib"] for w in r["result"]["workers"]
        )
        totals.append(f"**{t / 1024:.1f}**")
    out.append("| **total RSS** | " + " | ".join(totals) + " |")
    loads = ", ".join(f"{l['stage']}: {l.get('load', '?')}" for l in stages)
    return out + ["", f"Load average (1/5/15 min) at each reading: {loads}.", ""]
