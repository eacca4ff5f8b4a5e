//! A worker's lifecycle as one enum behind a `tokio::sync::watch` channel, so every part
//! of the worker (and the tests) sees the same ordered transitions.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

/// Set once this process drains: every watch it serves then ends cleanly (at a bookmark
/// when its client allows them) instead of holding the drain until it times out.
static WATCHES_END: OnceLock<watch::Sender<bool>> = OnceLock::new();

fn watches_end() -> &'static watch::Sender<bool> {
    WATCHES_END.get_or_init(|| watch::Sender::new(false))
}

/// Asks every watch this process serves to end (the worker drains: it is stopping, or
/// a fresh worker has taken its place). Clients resume from the last event or bookmark
/// they saw, on a connection that reaches the worker now serving.
pub fn end_watches() {
    watches_end().send_replace(true);
}

/// Completes once [`end_watches`] has been called, and this watch's turn to end came
/// (see [`Pacer`]).
pub async fn watches_ending() {
    let mut rx = watches_end().subscribe();
    // The sender is a static: the channel never closes.
    let _ = rx.wait_for(|end| *end).await;
    ENDS.turn().await;
}

/// Between two long-running requests ended by a drain.
const END_GAP: Duration = Duration::from_millis(5);
/// The last of them ends this long after the first, however many there are.
const END_SPREAD: Duration = Duration::from_secs(2);

/// Spreads the ends of the long-running requests (watches) of a draining process over
/// time — one every 5 ms, all within 2 s — rather than ending them at once: every
/// client resumes at once otherwise, and the worker now serving (a reload's replacement,
/// just started) meets a burst of new watches and re-authentications that stalls its
/// other requests. (kube-apiserver's --shutdown-watch-termination-grace-period spreads
/// them in the same way.) Watches keep their events flowing until their turn.
#[derive(Debug)]
pub struct Pacer {
    began: OnceLock<Instant>,
    next: AtomicU32,
}

/// The pacer of this process.
pub static ENDS: Pacer = Pacer::new();

impl Pacer {
    pub const fn new() -> Pacer {
        Pacer {
            began: OnceLock::new(),
            next: AtomicU32::new(0),
        }
    }

    /// Waits for the caller's turn; the first caller's is at once.
    pub async fn turn(&self) {
        let began = *self.began.get_or_init(Instant::now);
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let at = began + END_GAP.saturating_mul(n).min(END_SPREAD);
        tokio::time::sleep_until(at).await;
    }
}

impl Default for Pacer {
    fn default() -> Self {
        Pacer::new()
    }
}

/// Where a worker is in its life. Transitions only move forward.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    /// Post-start hooks are running.
    Starting,
    /// Serving normally.
    Serving,
    /// ShutdownInitiated: readyz fails, requests are still served.
    ShutdownInitiated,
    /// NotAcceptingNewRequest: listeners are closed.
    NotAcceptingNewRequests,
    /// InFlightRequestsDrained is being waited for.
    Draining,
    /// Everything is drained; the process is about to exit.
    Stopped,
}

impl Phase {
    /// The name kube-apiserver's lifecycle signals use, for logs.
    pub fn signal_name(self) -> &'static str {
        match self {
            Phase::Starting => "Starting",
            Phase::Serving => "Serving",
            Phase::ShutdownInitiated => "ShutdownInitiated",
            Phase::NotAcceptingNewRequests => "NotAcceptingNewRequest",
            Phase::Draining => "HTTPServerStoppedListening",
            Phase::Stopped => "ConnectionsClosed",
        }
    }
}

/// The owner of a worker's phase.
#[derive(Debug, Clone)]
pub struct Lifecycle {
    tx: watch::Sender<Phase>,
}

impl Default for Lifecycle {
    fn default() -> Self {
        Lifecycle::new()
    }
}

impl Lifecycle {
    /// A lifecycle in [`Phase::Starting`].
    pub fn new() -> Lifecycle {
        Lifecycle {
            tx: watch::Sender::new(Phase::Starting),
        }
    }

    /// Moves to `phase` if that is forward; returns whether it moved.
    pub fn advance(&self, phase: Phase) -> bool {
        self.tx.send_if_modified(|cur| {
            if phase > *cur {
                tracing::info!(phase = phase.signal_name(), "lifecycle signal");
                *cur = phase;
                true
            } else {
                false
            }
        })
    }

    /// The current phase.
    pub fn current(&self) -> Phase {
        *self.tx.borrow()
    }

    /// A receiver that sees every later transition.
    pub fn subscribe(&self) -> watch::Receiver<Phase> {
        self.tx.subscribe()
    }

    /// Waits until the phase is at least `phase`.
    pub async fn reached(&self, phase: Phase) {
        let mut rx = self.tx.subscribe();
        // The sender lives in self, so the channel cannot close while we wait.
        let _ = rx.wait_for(|p| *p >= phase).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn ends_are_spread_and_bounded() {
        let pacer = std::sync::Arc::new(Pacer::new());
        let start = Instant::now();
        let mut ends = Vec::new();
        for _ in 0..1000 {
            let pacer = pacer.clone();
            ends.push(tokio::spawn(async move {
                pacer.turn().await;
                start.elapsed()
            }));
        }
        let mut at = Vec::new();
        for e in ends {
            at.push(e.await.unwrap());
        }
        at.sort();
        assert!(at[0] < Duration::from_millis(1));
        // One every 5 ms …
        assert!(at[100] >= Duration::from_millis(500) && at[100] < Duration::from_millis(510));
        // … and all within 2 s.
        assert!(*at.last().unwrap() <= Duration::from_millis(2010));
        assert!(at[399] < Duration::from_secs(2) && at[401] >= Duration::from_secs(2));
    }

    #[tokio::test]
    async fn phases_only_move_forward() {
        let l = Lifecycle::new();
        assert!(l.advance(Phase::Serving));
        assert!(!l.advance(Phase::Starting));
        assert!(l.advance(Phase::NotAcceptingNewRequests));
        assert!(!l.advance(Phase::ShutdownInitiated));
        l.reached(Phase::ShutdownInitiated).await;
        assert_eq!(l.current(), Phase::NotAcceptingNewRequests);
    }
}
