//! kube-apiserver's `matchConditions` series, shared by admission webhooks (kind
//! `webhook`, type `admit` or `validating`) and ValidatingAdmissionPolicies (kind
//! `policy`, type `validate`): conditions that failed to evaluate, webhooks that were not
//! called because of them (upstream counts exclusions for webhooks only), and the time
//! their evaluation took — observed, as upstream, only when a condition was false or
//! failed.

use std::sync::OnceLock;
use std::time::Duration;

use kas_server::metrics::{help, register, Stability};
use prometheus::{HistogramOpts, HistogramVec, IntCounterVec, Opts};

struct Families {
    errors: IntCounterVec,
    exclusions: IntCounterVec,
    latency: HistogramVec,
}

const LABELS: [&str; 4] = ["name", "kind", "type", "operation"];

fn families() -> &'static Families {
    static FAMILIES: OnceLock<Families> = OnceLock::new();
    FAMILIES.get_or_init(|| {
        let counter = |name: &str, text: &str| {
            // Fixed names and labels: building them cannot fail.
            register(
                IntCounterVec::new(Opts::new(name, help(Stability::Alpha, text)), &LABELS)
                    .expect("match condition counter"),
            )
        };
        Families {
            errors: counter(
                "apiserver_admission_match_condition_evaluation_errors_total",
                "Admission match condition evaluation errors count, identified by name of resource containing the match condition and broken out for each kind containing matchConditions (webhook or policy), operation and admission type (validate or admit).",
            ),
            exclusions: counter(
                "apiserver_admission_match_condition_exclusions_total",
                "Admission match condition evaluation exclusions count, identified by name of resource containing the match condition and broken out for each kind containing matchConditions (webhook or policy), operation and admission type (validate or admit).",
            ),
            latency: register(
                HistogramVec::new(
                    HistogramOpts::new(
                        "apiserver_admission_match_condition_evaluation_seconds",
                        help(Stability::Alpha, "Admission match condition evaluation time in seconds, identified by name and broken out for each kind containing matchConditions (webhook or policy), operation and type (validate or admit)."),
                    )
                    .buckets(vec![0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25]),
                    &LABELS,
                )
                .expect("match condition histogram"),
            ),
        }
    })
}

/// What one evaluation of an object's `matchConditions` came to, for the series.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Evaluated {
    /// Conditions that failed to evaluate (before the answer was known).
    pub errors: usize,
    /// The evaluation's time, when a condition was false or failed (else not observed).
    pub took: Option<Duration>,
    /// The webhook was not called because of them.
    pub excluded: bool,
}

/// Records `seen` for the object `name` of `kind` (`webhook` or `policy`) and admission
/// `step` (`admit`, `validating`, `validate`), on a request's `operation`.
pub(crate) fn observe(name: &str, kind: &str, step: &str, operation: &str, seen: Evaluated) {
    let f = families();
    let labels = [name, kind, step, operation];
    if seen.errors > 0 {
        f.errors
            .with_label_values(&labels)
            .inc_by(seen.errors as u64);
    }
    if let Some(took) = seen.took {
        f.latency
            .with_label_values(&labels)
            .observe(took.as_secs_f64());
    }
    if seen.excluded {
        f.exclusions.with_label_values(&labels).inc();
    }
}
