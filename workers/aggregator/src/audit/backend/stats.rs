//! What each backend did (events written, dropped, failed), and the rate limit on its
//! warnings: a full disk or a dead webhook fails every request's event, and one line per
//! event would flood the log.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most often one backend warns about the same kind of failure.
pub(super) const WARN_EVERY: Duration = Duration::from_secs(10);

/// A backend's counts since it started.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct BackendStats {
    /// `log` or `webhook`.
    pub(crate) name: &'static str,
    /// Events written (log: the line written; webhook: in a request answered 2xx).
    pub(crate) written: u64,
    /// Events dropped because the batch buffer was full (or the backend shut down).
    pub(crate) dropped_full: u64,
    /// Events dropped because they were too large even without their objects.
    pub(crate) dropped_too_large: u64,
    /// Events whose write failed (after the webhook's retries).
    pub(crate) errors: u64,
}

#[derive(Default)]
pub(super) struct Counters {
    pub(super) written: AtomicU64,
    pub(super) dropped_full: AtomicU64,
    pub(super) dropped_too_large: AtomicU64,
    pub(super) errors: AtomicU64,
}

impl Counters {
    pub(super) fn add(counter: &AtomicU64, n: usize) {
        counter.fetch_add(n as u64, Ordering::Relaxed);
    }

    pub(super) fn snapshot(&self, name: &'static str) -> BackendStats {
        BackendStats {
            name,
            written: self.written.load(Ordering::Relaxed),
            dropped_full: self.dropped_full.load(Ordering::Relaxed),
            dropped_too_large: self.dropped_too_large.load(Ordering::Relaxed),
            errors: self.errors.load(Ordering::Relaxed),
        }
    }
}

/// Lets one warning through per [`WARN_EVERY`], and says how many were held back.
#[derive(Default)]
pub(super) struct RateLimited {
    state: Mutex<Option<(Instant, u64)>>,
}

impl RateLimited {
    /// `Some(held back since the last one)` when a warning may be logged now.
    pub(super) fn allow(&self) -> Option<u64> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        match &mut *state {
            Some((last, held)) if now.duration_since(*last) < WARN_EVERY => {
                *held += 1;
                None
            }
            _ => {
                let held = state.map_or(0, |(_, h)| h);
                *state = Some((now, 0));
                Some(held)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_warning_per_period() {
        let r = RateLimited::default();
        assert_eq!(r.allow(), Some(0));
        assert_eq!(r.allow(), None);
        assert_eq!(r.allow(), None);
        // Pretend the period passed.
        if let Some((last, _)) = r.state.lock().unwrap().as_mut() {
            *last -= WARN_EVERY;
        }
        assert_eq!(r.allow(), Some(2));
    }
}
