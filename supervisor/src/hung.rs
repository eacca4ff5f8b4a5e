//! Hung workers. Every worker answers the supervisor's heartbeat (one a second) from its
//! own runtime, so an answer shows that the runtime runs, not only that the process
//! exists. Without answers for 3 s a worker is marked down: the front door answers its
//! requests with 503 at once instead of sending them into a process that will not reply.
//! Without answers for `--worker-heartbeat-timeout` (10 s by default) it is killed and
//! restarted like a crashed one. Ten seconds is three times the mark-down delay: a worker
//! that merely stalls (a long garbage pass of the allocator, a machine under swap) gets
//! the chance to come back on its own, while one that is stopped, deadlocked or spinning
//! is replaced within seconds. No request handler blocks a runtime for long: CEL has a
//! cost limit, webhooks and storage calls are asynchronous with deadlines.

use std::time::Duration;

/// Why a worker is being restarted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cause {
    /// It exited on its own or was killed from outside.
    Exited,
    /// The supervisor killed it: it answered no heartbeat for the timeout.
    Unresponsive,
}

/// Whether a worker silent for `silent` is to be killed under `timeout` (zero: never).
pub(crate) fn is_hung(silent: Duration, timeout: Duration) -> bool {
    !timeout.is_zero() && silent > timeout
}

/// The process's state as the kernel reports it (`/proc/<pid>/status`): "T (stopped)",
/// "R (running)", "D (disk sleep)"… for the log line of a hung worker.
pub(crate) fn process_state(pid: u32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find_map(|l| l.strip_prefix("State:"))
                .map(|s| s.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hung_only_past_a_nonzero_timeout() {
        let ten = Duration::from_secs(10);
        assert!(!is_hung(Duration::from_secs(9), ten));
        assert!(is_hung(Duration::from_millis(10_001), ten));
        assert!(!is_hung(Duration::from_secs(3600), Duration::ZERO));
    }

    #[test]
    fn this_process_is_running() {
        let state = process_state(std::process::id());
        assert!(state.starts_with('R') || state.starts_with('S'), "{state}");
        assert_eq!(process_state(u32::MAX), "unknown");
    }
}
