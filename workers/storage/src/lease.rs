//! Lease keep-alives, time-to-live queries and the background expiry of leases.
//!
//! Grants and revocations are writes (see `apply`); deadlines are memory only, as in etcd,
//! and are re-armed with the full TTL when the store reopens.

use std::time::{Duration, Instant};

use tokio::sync::{mpsc, watch};
use tonic::{Status, Streaming};

use crate::error::EtcdError;
use crate::pb::etcdserverpb::{LeaseKeepAliveRequest, LeaseKeepAliveResponse};
use crate::store::{Handle, Shared};
use crate::writer::WriteOp;

/// How often the expiry loop looks for expired leases.
const EXPIRY_TICK: Duration = Duration::from_millis(250);

/// Refreshes a lease; returns its TTL, or 0 if it does not exist or already expired
/// (what etcd answers for an unknown lease).
pub(crate) fn keep_alive(shared: &Shared, id: i64) -> i64 {
    let mut st = shared.write();
    let now = Instant::now();
    match st.leases.get_mut(&id) {
        Some(l) if l.deadline > now => {
            l.deadline = now + Duration::from_secs(l.ttl.unsigned_abs());
            l.ttl
        }
        _ => 0,
    }
}

/// Remaining seconds, granted TTL and attached keys of a lease, if it is alive.
pub(crate) fn time_to_live(shared: &Shared, id: i64) -> Option<(i64, i64, Vec<bytes::Bytes>)> {
    let st = shared.read();
    let l = st.leases.get(&id)?;
    let remaining = l.deadline.checked_duration_since(Instant::now())?;
    let secs = i64::try_from(remaining.as_secs()).unwrap_or(i64::MAX);
    Some((secs, l.ttl, l.keys.iter().cloned().collect()))
}

/// Serves one LeaseKeepAlive stream.
pub(crate) async fn keep_alive_stream(
    shared: std::sync::Arc<Shared>,
    mut requests: Streaming<LeaseKeepAliveRequest>,
    tx: mpsc::Sender<Result<LeaseKeepAliveResponse, Status>>,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let req = tokio::select! {
            () = crate::serve::stopped(&mut shutdown) => return,
            req = requests.message() => req,
        };
        let Ok(Some(req)) = req else { return };
        let ttl = keep_alive(&shared, req.id);
        let resp = LeaseKeepAliveResponse {
            header: Some(shared.header(shared.committed_rev())),
            id: req.id,
            ttl,
        };
        if tx.send(Ok(resp)).await.is_err() {
            return;
        }
    }
}

/// Revokes expired leases (deleting their keys) until the task is dropped.
pub(crate) async fn expiry_loop(handle: Handle) {
    let mut tick = tokio::time::interval(EXPIRY_TICK);
    loop {
        tick.tick().await;
        let now = Instant::now();
        let expired: Vec<i64> = {
            let st = handle.shared.read();
            st.leases
                .iter()
                .filter(|(_, l)| l.deadline <= now)
                .map(|(id, _)| *id)
                .collect()
        };
        for id in expired {
            match handle.write(WriteOp::LeaseExpire(id)).await {
                Ok(_) => tracing::debug!(lease = id, "lease expired"),
                // Kept alive or revoked meanwhile.
                Err(EtcdError::LeaseNotFound) => {}
                // The successor expires it.
                Err(EtcdError::NotApplied) => return,
                Err(e) => {
                    tracing::warn!(lease = id, error = %e, "cannot revoke expired lease");
                    return;
                }
            }
        }
    }
}
