//! How a reload's replacements are scheduled while they start: on idle CPU only, so that
//! their start-up (caches, hooks, page faults) does not take the serving workers' CPU.

use std::time::Duration;

use kas_proto::WorkerRole;
use tokio::time::Instant;

use super::Supervisor;

/// How long a replacement starts on idle CPU only (`SCHED_IDLE`, so that every serving
/// worker's thread preempts it). On a machine that has none, it is then scheduled as an
/// ordinary process at [`BUSY_START_NICE`], below the serving workers, so that the
/// reload still completes; it gets their priority when it takes over.
const IDLE_START_WITHIN: Duration = Duration::from_secs(1);
const BUSY_START_NICE: i32 = 10;

/// Whether a replacement for `role` starts under `SCHED_IDLE`. The store's successor is
/// not lowered: it is on the writes' path, which wait for it to open the data.
pub(in crate::supervise) fn starts_idle(role: WorkerRole) -> bool {
    role != WorkerRole::Storage
}

/// Until when a replacement for `role`, started now, stays on idle CPU only.
pub(super) fn idle_until(role: WorkerRole) -> Option<Instant> {
    starts_idle(role).then(|| Instant::now() + IDLE_START_WITHIN)
}

impl Supervisor {
    /// A replacement that found too little idle CPU to get ready on competes for the
    /// busy CPU, below the serving workers.
    pub(super) fn start_busy(&mut self, now: Instant) {
        let Some(incoming) = self.reload.roll.as_mut().and_then(|r| r.incoming.as_mut()) else {
            return;
        };
        if incoming.idle_until.is_none_or(|t| now < t) {
            return;
        }
        incoming.idle_until = None;
        let Some(pid) = incoming.pid else {
            return;
        };
        tracing::info!(
            worker = %incoming.role,
            pid,
            nice = BUSY_START_NICE,
            "reload: the new worker is not ready on idle CPU alone; it now shares the busy CPU at a lower priority"
        );
        if let Err(e) = crate::sys::schedule_normally(pid, BUSY_START_NICE) {
            tracing::warn!(worker = %incoming.role, pid, error = %e, "cannot change the new worker's scheduling");
        }
    }
}
