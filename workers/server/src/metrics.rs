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
    /// Changes only after a deprecation.
    Beta,
    /// Kept across releases.
    Stable,
}

/// The help text component-base registers: the stability class, then the text.
pub fn help(stability: Stability, text: &str) -> String {
    match stability {
        Stability::Alpha => format!("[ALPHA] {text}"),
        Stability::Beta => format!("[BETA] {text}"),
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

/// What runs before each scrape of this process: series read from state rather than
/// counted as they happen (how many objects a watch cache holds, say). It returns whether
/// it is to run again.
type ScrapeHook = Box<dyn Fn() -> bool + Send + Sync>;

fn scrape_hooks() -> &'static std::sync::Mutex<Vec<ScrapeHook>> {
    static HOOKS: OnceLock<std::sync::Mutex<Vec<ScrapeHook>>> = OnceLock::new();
    HOOKS.get_or_init(Default::default)
}

/// Runs `hook` before every scrape of this process from now on, until it returns false
/// (its state is gone: it holds a `Weak`).
pub fn on_scrape(hook: impl Fn() -> bool + Send + Sync + 'static) {
    scrape_hooks()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(Box::new(hook));
}

/// The `/metrics` response of this process in the format the `Accept` header asks for.
pub fn respond(headers: &HeaderMap) -> Response<Body> {
    scrape_hooks()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .retain(|hook| hook());
    respond_with(encode(registry()), headers)
}

/// `text` (0.0.4) as the `/metrics` response in the format the `Accept` header asks for.
pub fn respond_with(text: String, headers: &HeaderMap) -> Response<Body> {
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

/// Several processes' expositions (0.0.4 text) as one: each family once, in name order,
/// with the samples of every source. A family more than one source exposes (`process_*`,
/// say) gets a `worker` label naming the source on each sample, so that the series stay
/// apart; one only a single source has is left as it is.
pub fn merge(sources: &[(&str, &str)]) -> String {
    /// A family's help and type lines, and its samples per source.
    #[derive(Default)]
    struct Family<'a> {
        meta: Vec<&'a str>,
        samples: Vec<(&'a str, Vec<&'a str>)>,
    }
    let mut families: std::collections::BTreeMap<&str, Family<'_>> = Default::default();
    for (source, text) in sources {
        let mut current: Option<&str> = None;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let meta = line
                .strip_prefix("# HELP ")
                .or_else(|| line.strip_prefix("# TYPE "));
            if let Some(rest) = meta {
                let name = rest.split(' ').next().unwrap_or(rest);
                let entry = families.entry(name).or_default();
                if !entry.meta.iter().any(|l| l.get(..6) == line.get(..6)) {
                    entry.meta.push(line);
                }
                if entry.samples.last().is_none_or(|(s, _)| s != source) {
                    entry.samples.push((source, Vec::new()));
                }
                current = Some(name);
            } else if line.starts_with('#') {
                continue;
            } else if let Some(name) = current {
                if let Some((_, samples)) =
                    families.get_mut(name).and_then(|f| f.samples.last_mut())
                {
                    samples.push(line);
                }
            }
        }
    }
    let mut out = String::new();
    for Family { meta, samples } in families.values() {
        let shared = samples.len() > 1;
        for line in meta {
            out.push_str(line);
            out.push('\n');
        }
        for (source, lines) in samples {
            for sample in lines {
                if shared {
                    out.push_str(&with_label(sample, "worker", source));
                } else {
                    out.push_str(sample);
                }
                out.push('\n');
            }
        }
    }
    out
}

/// A sample line with `name="value"` added as its first label.
fn with_label(sample: &str, name: &str, value: &str) -> String {
    let end = sample
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(sample.len());
    let (metric, rest) = sample.split_at(end);
    match rest.strip_prefix('{') {
        Some(labels) if labels.starts_with('}') => format!("{metric}{{{name}=\"{value}\"{labels}"),
        Some(labels) => format!("{metric}{{{name}=\"{value}\",{labels}"),
        None => format!("{metric}{{{name}=\"{value}\"}}{rest}"),
    }
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
    fn merged_expositions() {
        let front = "# HELP a_total [STABLE] A.\n# TYPE a_total counter\na_total{verb=\"GET\"} 2\n# HELP process_open_fds Fds.\n# TYPE process_open_fds gauge\nprocess_open_fds 10\n";
        let worker = "# HELP process_open_fds Fds.\n# TYPE process_open_fds gauge\nprocess_open_fds 7\n# HELP b Bee.\n# TYPE b histogram\nb_bucket{le=\"1\"} 1\nb_bucket{le=\"+Inf\"} 1\nb_sum 0.5\nb_count 1\n";
        let merged = merge(&[("aggregator", front), ("kube-api", worker)]);
        assert_eq!(
            merged,
            "# HELP a_total [STABLE] A.\n# TYPE a_total counter\na_total{verb=\"GET\"} 2\n\
             # HELP b Bee.\n# TYPE b histogram\nb_bucket{le=\"1\"} 1\nb_bucket{le=\"+Inf\"} 1\nb_sum 0.5\nb_count 1\n\
             # HELP process_open_fds Fds.\n# TYPE process_open_fds gauge\n\
             process_open_fds{worker=\"aggregator\"} 10\nprocess_open_fds{worker=\"kube-api\"} 7\n"
        );
        assert_eq!(with_label("x{} 1", "w", "k"), "x{w=\"k\"} 1");
        assert_eq!(with_label("x{a=\"b\"} 1", "w", "k"), "x{w=\"k\",a=\"b\"} 1");
    }

    #[test]
    fn buckets() {
        assert_eq!(
            exponential_buckets(1000.0, 10.0, 7),
            [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]
        );
    }
}
