//! `/metrics`: the process's registry of Prometheus series and its exposition, as
//! kube-apiserver serves it — the 0.0.4 text format by default, OpenMetrics text when the
//! scraper asks for it — with kube-apiserver's metric names, labels and buckets, and the
//! `[ALPHA]` / `[STABLE]` stability marks component-base puts in front of each help text.

use std::sync::OnceLock;

use http::header::{ACCEPT, CONTENT_TYPE};
use http::{HeaderMap, HeaderValue, Response};
use prometheus::core::Collector;
use prometheus::{Encoder, Registry, TextEncoder};

use crate::body::{self, Body};

/// The text format's media type, as client_golang writes it.
pub const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";
/// OpenMetrics' media type.
pub const OPENMETRICS_FORMAT: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// A metric's stability class, shown in its help text as component-base does.
#[derive(Debug, Clone, Copy)]
pub enum Stability {
    /// May change or go away in any release.
    Alpha,
    /// Kept across releases.
    Stable,
}

/// The help text component-base registers: the stability class, then the text.
pub fn help(stability: Stability, text: &str) -> String {
    match stability {
        Stability::Alpha => format!("[ALPHA] {text}"),
        Stability::Stable => format!("[STABLE] {text}"),
    }
}

/// The registry every series of this process is in, with the process collector
/// (`process_*`) registered on first use.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let registry = Registry::new();
        let process = prometheus::process_collector::ProcessCollector::for_self();
        if let Err(e) = registry.register(Box::new(process)) {
            tracing::warn!(error = %e, "the process metrics are not available");
        }
        registry
    })
}

/// Registers `collector` in [`registry`] and hands it back. A second registration of the
/// same series (a test building two of one component) keeps the first and logs it.
pub fn register<C: Collector + Clone + 'static>(collector: C) -> C {
    if let Err(e) = registry().register(Box::new(collector.clone())) {
        tracing::debug!(error = %e, "metric registered twice");
    }
    collector
}

/// The `/metrics` response in the format the `Accept` header asks for.
pub fn respond(headers: &HeaderMap) -> Response<Body> {
    let text = encode(registry());
    let openmetrics = headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("application/openmetrics-text"));
    let (content_type, bytes) = if openmetrics {
        (OPENMETRICS_FORMAT, to_openmetrics(&text).into_bytes())
    } else {
        (TEXT_FORMAT, text.into_bytes())
    };
    let mut resp = Response::new(body::full(bytes));
    resp.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    resp
}

/// The registry in the 0.0.4 text format.
pub fn encode(registry: &Registry) -> String {
    let mut out = Vec::new();
    // Encoding families the registry gathered into a Vec cannot fail.
    if let Err(e) = TextEncoder::new().encode(&registry.gather(), &mut out) {
        tracing::warn!(error = %e, "metrics could not be encoded");
    }
    String::from_utf8(out).unwrap_or_default()
}

/// The 0.0.4 text as OpenMetrics text: a counter family is named without its `_total`
/// suffix in `# HELP` and `# TYPE` (its samples keep it), and the exposition ends with
/// `# EOF`. Gauges and histograms read the same in both.
pub fn to_openmetrics(text: &str) -> String {
    let mut counters = std::collections::HashSet::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            if let Some(name) = rest.strip_suffix(" counter") {
                counters.insert(name.to_owned());
            }
        }
    }
    let mut out = String::with_capacity(text.len() + 8);
    for line in text.lines() {
        let renamed = ["# HELP ", "# TYPE "].iter().find_map(|prefix| {
            let rest = line.strip_prefix(prefix)?;
            let (name, tail) = rest.split_once(' ').unwrap_or((rest, ""));
            let family = name
                .strip_suffix("_total")
                .filter(|_| counters.contains(name))?;
            Some(format!("{prefix}{family} {tail}"))
        });
        out.push_str(renamed.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out.push_str("# EOF\n");
    out
}

/// A histogram's buckets growing by `factor` from `start` (client_golang's
/// `ExponentialBuckets`).
pub fn exponential_buckets(start: f64, factor: f64, count: usize) -> Vec<f64> {
    std::iter::successors(Some(start), |b| Some(b * factor))
        .take(count)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use prometheus::{IntCounterVec, IntGauge, Opts};

    #[test]
    fn text_and_openmetrics() {
        let registry = Registry::new();
        let requests = IntCounterVec::new(
            Opts::new(
                "apiserver_request_total",
                help(Stability::Stable, "Counter of requests."),
            ),
            &["verb", "code"],
        )
        .unwrap();
        registry.register(Box::new(requests.clone())).unwrap();
        let gauge = IntGauge::new("apiserver_x", help(Stability::Alpha, "A gauge.")).unwrap();
        registry.register(Box::new(gauge.clone())).unwrap();
        requests.with_label_values(&["GET", "200"]).inc();
        gauge.set(3);

        let text = encode(&registry);
        assert!(
            text.contains("# HELP apiserver_request_total [STABLE] Counter of requests.\n# TYPE apiserver_request_total counter\napiserver_request_total{code=\"200\",verb=\"GET\"} 1\n"),
            "{text}"
        );
        let om = to_openmetrics(&text);
        assert!(
            om.contains("# HELP apiserver_request [STABLE] Counter of requests.\n# TYPE apiserver_request counter\napiserver_request_total{code=\"200\",verb=\"GET\"} 1\n"),
            "{om}"
        );
        assert!(
            om.contains("# TYPE apiserver_x gauge\napiserver_x 3\n"),
            "{om}"
        );
        assert!(om.ends_with("# EOF\n"));
    }

    #[test]
    fn buckets() {
        assert_eq!(
            exponential_buckets(1000.0, 10.0, 7),
            [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]
        );
    }
}
