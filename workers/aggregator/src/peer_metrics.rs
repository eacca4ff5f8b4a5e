//! Series about the workers (this project's own, not kube-apiserver's):
//! `kube_apiserver_rs_worker_restarts_total{worker, reason}`, how often each worker was
//! restarted since the supervisor started, because it exited or because it answered no
//! heartbeat for `--worker-heartbeat-timeout` and was killed; and
//! `kube_apiserver_rs_delegation_duration_seconds{worker}`, from the front door handing a
//! request to a worker over its socket until the response head is back (the hop both
//! ways plus the worker's handling up to the head).

use std::sync::OnceLock;
use std::time::Duration;

use kas_proto::PeerStatus;
use kas_server::metrics::{help, register, Stability};
use prometheus::{HistogramOpts, HistogramVec, IntCounterVec, Opts};

fn restarts() -> &'static IntCounterVec {
    static RESTARTS: OnceLock<IntCounterVec> = OnceLock::new();
    RESTARTS.get_or_init(|| {
        let family = IntCounterVec::new(
            Opts::new(
                "kube_apiserver_rs_worker_restarts_total",
                help(
                    Stability::Alpha,
                    "Counter of worker process restarts since the supervisor started, by worker and reason (exited, unresponsive).",
                ),
            ),
            &["worker", "reason"],
        )
        .expect("kube_apiserver_rs_worker_restarts_total");
        register(family)
    })
}

fn delegation() -> &'static HistogramVec {
    static DELEGATION: OnceLock<HistogramVec> = OnceLock::new();
    DELEGATION.get_or_init(|| {
        let family = HistogramVec::new(
            HistogramOpts::new(
                "kube_apiserver_rs_delegation_duration_seconds",
                help(
                    Stability::Alpha,
                    "Time from handing a request to a worker over its socket until its response head is back, by worker.",
                ),
            )
            .buckets(vec![
                0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
            ]),
            &["worker"],
        )
        .expect("kube_apiserver_rs_delegation_duration_seconds");
        register(family)
    })
}

/// Records one delegated request's time to its response head.
pub(crate) fn delegated(worker: &str, took: Duration) {
    delegation()
        .with_label_values(&[worker])
        .observe(took.as_secs_f64());
}

/// Brings the series up to the supervisor's counts (a restarted front door starts from
/// zero and catches up at its first scrape).
pub(crate) fn record(peers: &[PeerStatus]) {
    let family = restarts();
    for peer in peers {
        for (reason, count) in [
            ("exited", peer.restarts.exited),
            ("unresponsive", peer.restarts.unresponsive),
        ] {
            let series = family.with_label_values(&[peer.role.as_str(), reason]);
            let behind = count.saturating_sub(series.get());
            if behind > 0 {
                series.inc_by(behind);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use kas_proto::{PeerState, WorkerHealth, WorkerRestarts, WorkerRole};

    use super::*;

    #[test]
    fn counts_follow_the_supervisor() {
        let peer = |exited, unresponsive| PeerStatus {
            role: WorkerRole::Extensions,
            state: PeerState::Ready,
            health: WorkerHealth::default(),
            restarts: WorkerRestarts {
                exited,
                unresponsive,
            },
            generation: 1,
        };
        record(&[peer(0, 0)]);
        record(&[peer(2, 1)]);
        record(&[peer(2, 1)]);
        let get = |reason| restarts().with_label_values(&["extensions", reason]).get();
        assert_eq!((get("exited"), get("unresponsive")), (2, 1));
    }
}
