//! The markdown section `kas-crd-bench` prints: custom resources against ConfigMaps,
//! merged discovery and OpenAPI reads, CRD establishing times, and the extensions
//! worker's memory and idle CPU.

use super::{Endpoint, Results};
use kas_bench::stats::Summary;

/// The sample of rank `q` (nearest rank on the sorted samples); NaN when there are none.
fn quantile(samples: &[f64], q: f64) -> f64 {
    let mut s: Vec<f64> = samples.iter().copied().filter(|x| x.is_finite()).collect();
    if s.is_empty() {
        return f64::NAN;
    }
    s.sort_by(f64::total_cmp);
    s[((q * (s.len() - 1) as f64).round() as usize).min(s.len() - 1)]
}

fn p50_p99(samples: &[f64]) -> String {
    format!(
        "{:.1} / {:.1}",
        quantile(samples, 0.5),
        quantile(samples, 0.99)
    )
}

fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 && a.is_finite() {
        format!("{:.2}", a / b)
    } else {
        "–".into()
    }
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

pub(super) fn markdown(r: &Results) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line("### Custom resources vs ConfigMaps".into());
    line(String::new());
    line(format!(
        "{} objects of each kind in one namespace, each holding one {}-byte value (`data.k` of a \
         ConfigMap, `spec.k` of a custom resource whose CRD has a structural schema with defaults \
         and one CEL rule); HTTP/2 over TLS with the admin client certificate, one request in \
         flight per connection; {} s warm-up then {} s measured per row, ConfigMaps and custom \
         resources alternating; {} CRDs installed. LIST returns all {} objects; CREATE writes new \
         objects into a second namespace. Latencies in ms; ratios are custom resource / ConfigMap.",
        r.objects, r.value_size, r.warmup_s, r.duration_s, r.crds, r.objects
    ));
    line(String::new());
    line(
        "| op | conns | ConfigMap req/s | CR req/s | CR/CM req/s | ConfigMap p50 / p99 | CR p50 / p99 \
         | CR/CM p50 | CR/CM p99 | bytes per answer CM / CR | failed CM / CR |"
            .into(),
    );
    line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|".into());
    for pair in r.loops.chunks(2) {
        let [cm, cr] = pair else { continue };
        let (a, b) = (&cm.summary, &cr.summary);
        let per = |s: &Summary| s.body_bytes.checked_div(s.requests).unwrap_or(0);
        line(format!(
            "| {} | {} | {:.0} | {:.0} | {} | {:.2} / {:.2} | {:.2} / {:.2} | {} | {} | {} / {} | {} / {} |",
            cm.op.name(),
            cm.connections,
            a.rps,
            b.rps,
            ratio(b.rps, a.rps),
            a.p50_us / 1e3,
            a.p99_us / 1e3,
            b.p50_us / 1e3,
            b.p99_us / 1e3,
            ratio(b.p50_us, a.p50_us),
            ratio(b.p99_us, a.p99_us),
            per(a),
            per(b),
            a.errors + a.non_2xx,
            b.errors + b.non_2xx,
        ));
    }
    for row in &r.loops {
        if let Some(f) = &row.first_failure {
            line(String::new());
            line(format!(
                "First failure of {} {} ×{}: `{}`",
                row.kind,
                row.op.name(),
                row.connections,
                f.replace('`', "'")
            ));
        }
    }
    line(String::new());
    line(format!(
        "### Merged discovery and OpenAPI with 0 and {} CRDs",
        r.crds
    ));
    line(String::new());
    line(format!(
        "GETs of the documents the aggregator merges from its back ends, in closed loops (one \
         request in flight per connection, {} s warm-up then {} s per row), first with no CRD, \
         then with {} CRDs installed. Once merged, a document is served from the aggregator's \
         memory until a back end announces a change, so no read contacts another worker. \
         Baseline: `/version` in the same run, which the aggregator answers from memory \
         without merging anything.",
        r.warmup_s, r.duration_s, r.crds
    ));
    line(String::new());
    line(
        "| document | conns | req/s, 0 CRDs | req/s, N CRDs | N/0 | ÷ `/version`, 0 / N CRDs \
         | p50 / p99 ms, 0 CRDs | p50 / p99 ms, N CRDs | bytes per answer 0 / N | failed |"
            .into(),
    );
    line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|".into());
    let find = |crds: usize, e: Endpoint, c: usize| {
        r.reads
            .iter()
            .find(|x| x.crds == crds && x.endpoint == e && x.connections == c)
    };
    let mut conns: Vec<usize> = r.reads.iter().map(|x| x.connections).collect();
    conns.sort_unstable();
    conns.dedup();
    for c in conns {
        for e in Endpoint::ALL {
            let (Some(a), Some(b)) = (find(0, e, c), find(r.crds, e, c)) else {
                continue;
            };
            let (Some(va), Some(vb)) = (
                find(0, Endpoint::Version, c),
                find(r.crds, Endpoint::Version, c),
            ) else {
                continue;
            };
            let (x, y) = (&a.summary, &b.summary);
            let per = |s: &Summary| s.body_bytes.checked_div(s.requests).unwrap_or(0);
            line(format!(
                "| {} | {c} | {:.0} | {:.0} | {} | {} / {} | {:.2} / {:.2} | {:.2} / {:.2} | {} / {} | {} |",
                e.label(),
                x.rps,
                y.rps,
                ratio(y.rps, x.rps),
                ratio(x.rps, va.summary.rps),
                ratio(y.rps, vb.summary.rps),
                x.p50_us / 1e3,
                x.p99_us / 1e3,
                y.p50_us / 1e3,
                y.p99_us / 1e3,
                per(x),
                per(y),
                x.errors + x.non_2xx + y.errors + y.non_2xx,
            ));
        }
    }
    for row in &r.reads {
        if let Some(f) = &row.first_failure {
            line(String::new());
            line(format!(
                "First failure of {} ×{} with {} CRDs: `{}`",
                row.endpoint.label(),
                row.connections,
                row.crds,
                f.replace('`', "'")
            ));
        }
    }
    line(String::new());
    line("### CRD create → Established → first LIST".into());
    line(String::new());
    line(format!(
        "{} CRDs created one at a time (ten groups). From just before each POST, one connection \
         GETs the CRD every {} ms until its `Established` condition is True and another LISTs its \
         custom resources until the answer is 200. Times in ms from the POST.",
        r.crds, r.poll_ms
    ));
    line(String::new());
    line(
        "| CRDs | installed before | POST p50 / p99 | Established p50 / p99 | first LIST p50 / p99 \
         | timed out |"
            .into(),
    );
    line("|---|---|---:|---:|---:|---:|".into());
    let n = r.crd_timings.len();
    let w = r.window.clamp(1, n.max(1));
    let mut windows = vec![("first", 0..w.min(n))];
    if n > w {
        windows.push(("last", n - w..n));
        windows.push(("all", 0..n));
    }
    for (label, range) in windows {
        let ts = &r.crd_timings[range.clone()];
        let post: Vec<f64> = ts.iter().map(|t| t.post_ms).collect();
        let est: Vec<f64> = ts.iter().filter_map(|t| t.established_ms).collect();
        let list: Vec<f64> = ts.iter().filter_map(|t| t.first_list_ms).collect();
        let timed_out = ts
            .iter()
            .filter(|t| t.established_ms.is_none() || t.first_list_ms.is_none())
            .count();
        line(format!(
            "| {label} {} | {}–{} | {} | {} | {} | {timed_out} |",
            ts.len(),
            range.start,
            range.end.saturating_sub(1),
            p50_p99(&post),
            p50_p99(&est),
            p50_p99(&list),
        ));
    }
    line(String::new());
    line("### Extensions worker memory and idle CPU".into());
    line(String::new());
    let Some(base) = r.worker.first() else {
        line("Not measured: the supervisor's pid is unknown (give --pid with --url).".into());
        return out;
    };
    line(
        "`VmRSS` and `VmHWM` of the `__worker extensions` process from `/proc/<pid>/status`, each \
         read after a pause; idle CPU is its user + system time per second of wall time over a \
         window in which nothing was asked of the server."
            .into(),
    );
    line(String::new());
    line(
        "| CRDs installed | when | pid | VmRSS (MiB) | VmHWM (MiB) | RSS growth over none (KiB per CRD) \
         | since the previous reading (KiB per CRD) | idle CPU (ms per s) |"
            .into(),
    );
    line("|---:|---|---:|---:|---:|---:|---:|---:|".into());
    let mut prev = base;
    for s in &r.worker {
        let marginal = if s.crds > prev.crds {
            format!(
                "{:.0}",
                (s.rss_kib as f64 - prev.rss_kib as f64) / (s.crds - prev.crds) as f64
            )
        } else {
            "–".into()
        };
        prev = s;
        let growth = if s.crds > 0 {
            format!(
                "{:.0}",
                (s.rss_kib as f64 - base.rss_kib as f64) / s.crds as f64
            )
        } else {
            "–".into()
        };
        let cpu = s
            .idle_cpu_ms_per_s
            .map_or("–".into(), |c| format!("{c:.1}"));
        line(format!(
            "| {} | {} | {} | {:.1} | {:.1} | {growth} | {marginal} | {cpu} |",
            s.crds,
            s.when,
            s.pid,
            mib(s.rss_kib),
            mib(s.hwm_kib),
        ));
    }
    if r.worker.iter().any(|s| s.pid != base.pid) {
        line(String::new());
        line("**The extensions worker's pid changed during the run: it was restarted.**".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_by_rank() {
        let s: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(quantile(&s, 0.5), 11.0);
        assert_eq!(quantile(&s, 0.99), 20.0);
        assert!(quantile(&[], 0.5).is_nan());
        assert_eq!(quantile(&[f64::NAN, 3.0], 0.5), 3.0);
        assert_eq!(ratio(1.0, 0.0), "–");
        assert_eq!(ratio(3.0, 2.0), "1.50");
    }
}
