//! kube-apiserver's ValidatingAdmissionPolicy series (BETA):
//! `apiserver_validating_admission_policy_check_total` and `…_check_duration_seconds`, by
//! policy, binding, error type and the action taken — a failed validation once per
//! action of its binding (deny, warn, audit), an error let through by
//! `failurePolicy: Ignore` as allow — with the latency of the validation's evaluation.

use std::sync::OnceLock;
use std::time::Duration;

use kas_server::metrics::{help, register, Stability};
use prometheus::{HistogramOpts, HistogramVec, IntCounterVec, Opts};

const LABELS: [&str; 4] = [
    "policy",
    "policy_binding",
    "error_type",
    "enforcement_action",
];

struct Families {
    checks: IntCounterVec,
    latency: HistogramVec,
}

fn families() -> &'static Families {
    static FAMILIES: OnceLock<Families> = OnceLock::new();
    // Fixed names and labels: building them cannot fail.
    FAMILIES.get_or_init(|| Families {
        checks: register(
            IntCounterVec::new(
                Opts::new(
                    "apiserver_validating_admission_policy_check_total",
                    help(Stability::Beta, "Validation admission policy check total, labeled by policy and further identified by binding and enforcement action taken."),
                ),
                &LABELS,
            )
            .expect("policy counter"),
        ),
        latency: register(
            HistogramVec::new(
                HistogramOpts::new(
                    "apiserver_validating_admission_policy_check_duration_seconds",
                    help(Stability::Beta, "Validation admission latency for individual validation expressions in seconds, labeled by policy and further including binding and enforcement action taken."),
                )
                .buckets(vec![0.0000005, 0.001, 0.01, 0.1, 1.0]),
                &LABELS,
            )
            .expect("policy histogram"),
        ),
    })
}

/// Upstream's `error_type` of a decision that was not a plain admit, read (as upstream
/// reads it) from its message: every failed validation that is not a compilation error
/// or an exhausted budget counts as `invalid_error`.
pub(super) fn error_type(message: &str) -> &'static str {
    if message.starts_with("compilation") {
        "compile_error"
    } else if message.starts_with("validation failed due to running out of cost budget") {
        "out_of_budget"
    } else {
        "invalid_error"
    }
}

/// One decision under one action (`allow`, `deny`, `warn` or `audit`).
pub(super) fn observe(policy: &str, binding: &str, message: &str, action: &str, took: Duration) {
    let f = families();
    let labels = [policy, binding, error_type(message), action];
    f.checks.with_label_values(&labels).inc();
    f.latency
        .with_label_values(&labels)
        .observe(took.as_secs_f64());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_types_as_upstream_reads_them() {
        assert_eq!(
            error_type("compilation error: undeclared reference"),
            "compile_error"
        );
        assert_eq!(
            error_type("validation failed due to running out of cost budget, no further validation rules will be run"),
            "out_of_budget"
        );
        assert_eq!(
            error_type("failed expression: object.x > 1"),
            "invalid_error"
        );
        assert_eq!(error_type("at most 4"), "invalid_error");
    }
}
