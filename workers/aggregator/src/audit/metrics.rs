//! kube-apiserver's audit metrics (`k8s.io/apiserver/pkg/audit/metrics.go`): events
//! generated, the policy level of each request, events a backend failed to record (by
//! plugin: `log`, `webhook`, `buffered` for a full batch buffer, `truncate` for an event too
//! large), and requests refused because a blocking-strict backend could not take their
//! event.

use std::sync::OnceLock;

use kas_proto::AuditLevel;
use kas_server::metrics::{help, register, Stability};
use prometheus::{IntCounter, IntCounterVec, Opts};

struct Families {
    events: IntCounter,
    levels: IntCounterVec,
    errors: IntCounterVec,
    rejected: IntCounter,
}

fn families() -> &'static Families {
    static FAMILIES: OnceLock<Families> = OnceLock::new();
    FAMILIES.get_or_init(|| {
        let alpha = |name: &str, text: &str| Opts::new(name, help(Stability::Alpha, text));
        // Fixed names and labels: building them cannot fail.
        Families {
            events: register(
                IntCounter::with_opts(alpha(
                    "apiserver_audit_event_total",
                    "Counter of audit events generated and sent to the audit backend.",
                ))
                .expect("apiserver_audit_event_total"),
            ),
            levels: register(
                IntCounterVec::new(
                    alpha(
                        "apiserver_audit_level_total",
                        "Counter of policy levels for audit events (1 per request).",
                    ),
                    &["level"],
                )
                .expect("apiserver_audit_level_total"),
            ),
            errors: register(
                IntCounterVec::new(
                    alpha(
                        "apiserver_audit_error_total",
                        "Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.",
                    ),
                    &["plugin"],
                )
                .expect("apiserver_audit_error_total"),
            ),
            rejected: register(
                IntCounter::with_opts(alpha(
                    "apiserver_audit_requests_rejected_total",
                    "Counter of apiserver requests rejected due to an error in audit logging backend.",
                ))
                .expect("apiserver_audit_requests_rejected_total"),
            ),
        }
    })
}

/// Registers the families, so that a server without auditing shows them at zero as
/// upstream does.
pub(crate) fn register_all() {
    families();
}

/// One event handed to the backends.
pub(super) fn event() {
    families().events.inc();
}

/// The policy's level for one request.
pub(super) fn level(level: AuditLevel) {
    let name = match level {
        AuditLevel::None => "None",
        AuditLevel::Metadata => "Metadata",
        AuditLevel::Request => "Request",
        AuditLevel::RequestResponse => "RequestResponse",
    };
    families().levels.with_label_values(&[name]).inc();
}

/// `n` events a plugin failed to record.
pub(super) fn errors(plugin: &str, n: usize) {
    families()
        .errors
        .with_label_values(&[plugin])
        .inc_by(n as u64);
}

/// A request refused because its event could not be stored.
pub(super) fn rejected() {
    families().rejected.inc();
}
