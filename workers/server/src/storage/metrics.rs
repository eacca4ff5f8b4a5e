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

/// Runs one etcd call (made by `call`) with the call deadline, recording it as
/// `operation` on objects of `kind`. A call that fails for an expected outcome (a
/// compacted revision) is still an error of etcd's, as upstream counts it.
pub(super) async fn timed<T, F, Fut>(
    operation: &str,
    kind: &str,
    call: F,
) -> Result<T, StorageError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, etcd_client::Error>>,
{
    let started = Instant::now();
    let result = bounded(call).await;
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
/// upstream does not count either). A call the store never received — its connection was
/// closing, as when the embedded store's worker is replaced by a reload or etcd sends
/// GOAWAY — is made again (on a fresh connection) within the same deadline.
pub(super) async fn bounded<T, F, Fut>(mut call: F) -> Result<T, StorageError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, etcd_client::Error>>,
{
    let deadline = tokio::time::Instant::now() + CALL_TIMEOUT;
    loop {
        match tokio::time::timeout_at(deadline, call()).await {
            Ok(Err(e)) if never_sent(&e) => {
                tracing::debug!(error = %e, "etcd call not sent: the connection was closing; sending it again");
                // A moment for the channel to notice its connection is gone.
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            Ok(r) => return r.map_err(StorageError::from),
            Err(_) => return Err(StorageError::Unavailable("request timed out".into())),
        }
    }
}

/// What the embedded store answers (code `Unavailable`) once it handed its data to a
/// successor during a reload: the request was not applied (`kas_storage::NOT_APPLIED`).
const STORE_NOT_APPLIED: &str =
    "etcdserver: request not applied: the embedded store is handing over to its successor";

/// Whether `e` says the request never left this process, or was refused unprocessed
/// (HTTP/2's REFUSED_STREAM, a stream above the last one a GOAWAY promised to process,
/// or the embedded store's hand-over refusal): sending it again cannot apply it twice.
fn never_sent(e: &etcd_client::Error) -> bool {
    let etcd_client::Error::GRpcStatus(status) = e else {
        return false;
    };
    if status.code() == tonic::Code::Unavailable && status.message() == STORE_NOT_APPLIED {
        return true;
    }
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(status);
    while let Some(err) = source {
        if let Some(h) = err.downcast_ref::<hyper::Error>() {
            if h.is_canceled() {
                return true;
            }
        }
        if let Some(h2) = err.downcast_ref::<h2::Error>() {
            // Refused, or above the last stream a peer's GOAWAY said it would process.
            if h2.reason() == Some(h2::Reason::REFUSED_STREAM)
                || (h2.is_go_away() && h2.is_remote())
            {
                return true;
            }
        }
        source = err.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stores_hand_over_refusal_is_sent_again_and_other_errors_are_not() {
        assert_eq!(STORE_NOT_APPLIED, kas_storage::NOT_APPLIED);
        let refused = tonic::Status::unavailable(kas_storage::NOT_APPLIED);
        assert!(never_sent(&etcd_client::Error::GRpcStatus(refused)));
        // The store's other refusals are not sent again.
        let stopped = tonic::Status::unavailable(
            "etcdserver: the embedded store could not persist the write, nothing of it was \
             applied: I/O error: No space left on device (os error 28)",
        );
        assert!(!never_sent(&etcd_client::Error::GRpcStatus(stopped)));
        let other = tonic::Status::invalid_argument(kas_storage::NOT_APPLIED);
        assert!(!never_sent(&etcd_client::Error::GRpcStatus(other)));
    }
}
