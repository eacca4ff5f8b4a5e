//! kube-apiserver's webhook admission series: the latency of each call
//! (`apiserver_admission_webhook_admission_duration_seconds`, STABLE), the calls by HTTP
//! code (`…_webhook_request_total`), the rejections by cause
//! (`…_webhook_rejection_count`) and the failures let through (`…_webhook_fail_open_count`),
//! labelled as upstream: `type` is "admit" for mutating webhooks and "validating" for
//! validating ones, codes over 600 count as 600. Their `matchConditions` are counted in
//! the series `crate::match_metrics` shares with the policies.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use kas_server::admission::Operation;
use kas_server::metrics::{help, register, Stability};
use prometheus::{HistogramOpts, HistogramVec, IntCounterVec, Opts};

use super::review::CallError;

struct Families {
    latency: HistogramVec,
    requests: IntCounterVec,
    rejections: IntCounterVec,
    fail_open: IntCounterVec,
}

fn families() -> &'static Families {
    static FAMILIES: OnceLock<Families> = OnceLock::new();
    FAMILIES.get_or_init(|| {
        let counter = |name: &str, text: &str, labels: &[&str]| {
            // Fixed names and labels: building them cannot fail.
            register(
                IntCounterVec::new(Opts::new(name, help(Stability::Alpha, text)), labels)
                    .expect("webhook counter"),
            )
        };
        Families {
            latency: register(
                HistogramVec::new(
                    HistogramOpts::new(
                        "apiserver_admission_webhook_admission_duration_seconds",
                        help(Stability::Stable, "Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit)."),
                    )
                    .buckets(vec![0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10.0, 25.0]),
                    &["name", "type", "operation", "rejected"],
                )
                .expect("webhook histogram"),
            ),
            requests: counter(
                "apiserver_admission_webhook_request_total",
                "Admission webhook request total, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.",
                &["name", "type", "operation", "code", "rejected"],
            ),
            rejections: counter(
                "apiserver_admission_webhook_rejection_count",
                "Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.",
                &["name", "type", "operation", "error_type", "rejection_code"],
            ),
            fail_open: counter(
                "apiserver_admission_webhook_fail_open_count",
                "Admission webhook fail open count, identified by name and broken out for each admission type (validating or admit).",
                &["name", "type"],
            ),
        }
    })
}

/// One webhook call's outcome, as the series count it.
pub(super) fn observe<T>(
    name: &str,
    kind: &str,
    op: Operation,
    fail_open: bool,
    result: &Result<T, CallError>,
    took: Duration,
) {
    let f = families();
    let op = op.as_str();
    // (code, the rejection's cause: none when the write goes on)
    let (code, cause) = match result {
        Ok(_) => (200, None),
        Err(CallError::Calling(_, code)) if fail_open => (*code, None),
        Err(CallError::Calling(_, code)) => (*code, Some("calling_webhook_error")),
        Err(CallError::Denied(s)) => (s.code().as_u16(), Some("no_error")),
        Err(CallError::Refused(_)) => (0, Some("apiserver_internal_error")),
    };
    let code = code.min(600).to_string();
    let rejected = if cause.is_some() { "true" } else { "false" };
    if let Some(cause) = cause {
        f.rejections
            .with_label_values(&[name, kind, op, cause, &code])
            .inc();
    }
    f.requests
        .with_label_values(&[name, kind, op, &code, rejected])
        .inc();
    f.latency
        .with_label_values(&[name, kind, op, rejected])
        .observe(took.as_secs_f64());
    if fail_open && matches!(result, Err(CallError::Calling(..))) {
        f.fail_open.with_label_values(&[name, kind]).inc();
    }
}

/// One evaluation of a webhook's `matchConditions` begun at `started`: `errors`
/// conditions failed to evaluate, and the webhook was `excluded` (not called).
pub(super) fn match_conditions(
    name: &str,
    kind: &str,
    op: Operation,
    errors: usize,
    excluded: bool,
    started: Instant,
) {
    let seen = crate::match_metrics::Evaluated {
        errors,
        took: (excluded || errors > 0).then(|| started.elapsed()),
        excluded,
    };
    crate::match_metrics::observe(name, "webhook", kind, op.as_str(), seen);
}
