//! A worker's lifecycle as one enum behind a `tokio::sync::watch` channel, so every part
//! of the worker (and the tests) sees the same ordered transitions.

use std::sync::OnceLock;

use tokio::sync::watch;

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

/// Completes once [`end_watches`] has been called.
pub async fn watches_ending() {
    let mut rx = watches_end().subscribe();
    // The sender is a static: the channel never closes.
    let _ = rx.wait_for(|end| *end).await;
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
