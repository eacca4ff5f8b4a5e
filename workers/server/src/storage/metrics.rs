//! kube-apiserver's etcd client metrics (`k8s.io/apiserver/pkg/storage/etcd3/metrics`):
//! `etcd_request_duration_seconds`, `etcd_requests_total` and
//! `etcd_request_errors_total` by operation and object type (the group-qualified
//! resource, e.g. `deployments.apps`), recorded around every call this worker makes to
//! etcd, with the one deadline every call has.

use std::future::Future;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use prometheus::{HistogramOpts, HistogramVec, IntCounterVec, Opts};

use super::StorageError;
use crate::metrics::{help, register, Stability};

/// How long one etcd call may take before it fails as unavailable.
const CALL_TIMEOUT: Duration = Duration::from_secs(5);

struct Families {
    latency: HistogramVec,
    requests: IntCounterVec,
    errors: IntCounterVec,
}

fn families() -> &'static Families {
    static FAMILIES: OnceLock<Families> = OnceLock::new();
    FAMILIES.get_or_init(|| {
        let labels = ["operation", "type"];
        // Fixed names and labels: building them cannot fail.
        Families {
            latency: register(
                HistogramVec::new(
                    HistogramOpts::new(
                        "etcd_request_duration_seconds",
                        help(
                            Stability::Alpha,
                            "Etcd request latency in seconds for each operation and object type.",
                        ),
                    )
                    .buckets(vec![
                        0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0,
                        5.0, 6.0, 8.0, 10.0, 15.0, 20.0, 30.0, 45.0, 60.0,
                    ]),
                    &labels,
                )
                .expect("etcd_request_duration_seconds"),
            ),
            requests: register(
                IntCounterVec::new(
                    Opts::new(
                        "etcd_requests_total",
                        help(
                            Stability::Alpha,
                            "Etcd request counts for each operation and object type.",
                        ),
                    ),
                    &labels,
                )
                .expect("etcd_requests_total"),
            ),
            errors: register(
                IntCounterVec::new(
                    Opts::new(
                        "etcd_request_errors_total",
                        help(
                            Stability::Alpha,
                            "Etcd failed request counts for each operation and object type.",
                        ),
                    ),
                    &labels,
                )
                .expect("etcd_request_errors_total"),
            ),
        }
    })
}

/// Runs one etcd call with the call deadline, recording it as `operation` on objects of
/// `kind`. A call that fails for an expected outcome (a compacted revision) is still an
/// error of etcd's, as upstream counts it.
pub(super) async fn timed<T>(
    operation: &str,
    kind: &str,
    fut: impl Future<Output = Result<T, etcd_client::Error>>,
) -> Result<T, StorageError> {
    let started = Instant::now();
    let result = bounded(fut).await;
    let f = families();
    let labels = [operation, kind];
    f.latency
        .with_label_values(&labels)
        .observe(started.elapsed().as_secs_f64());
    f.requests.with_label_values(&labels).inc();
    if result.is_err() {
        f.errors.with_label_values(&labels).inc();
    }
    result
}

/// Runs one etcd call with the call deadline, unrecorded (leases and compaction, which
/// upstream does not count either).
pub(super) async fn bounded<T>(
    fut: impl Future<Output = Result<T, etcd_client::Error>>,
) -> Result<T, StorageError> {
    match tokio::time::timeout(CALL_TIMEOUT, fut).await {
        Ok(r) => r.map_err(StorageError::from),
        Err(_) => Err(StorageError::Unavailable("request timed out".into())),
    }
}
