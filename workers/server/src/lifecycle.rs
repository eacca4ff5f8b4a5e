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
/// (see [`Pacer`]). The watch counts among those whose ends are spread from when this is
/// called until the future is dropped.
pub fn watches_ending() -> impl std::future::Future<Output = ()> + Send + 'static {
    let ticket = ENDS.ticket();
    let mut rx = watches_end().subscribe();
    async move {
        let _ticket = ticket;
        // The sender is a static: the channel never closes.
        let _ = rx.wait_for(|end| *end).await;
        ENDS.turn().await;
    }
}

/// The ends of a drain's long-running requests are spread over this long...
const END_SPREAD: Duration = Duration::from_secs(2);
/// ... evenly, but no further apart than this (a few watches end within a moment).
const MAX_END_GAP: Duration = Duration::from_millis(50);

/// Spreads the ends of the long-running requests (watches) of a draining process evenly
/// over [`END_SPREAD`] rather than ending them at once: every client resumes at once
/// otherwise, and the worker now serving (a reload's replacement, just started) meets a
/// burst of new connections, watches and re-authentications that stalls its other
/// requests. (kube-apiserver's --shutdown-watch-termination-grace-period spreads them
/// over its period in the same way.) Watches keep their events flowing until their turn.
#[derive(Debug)]
pub struct Pacer {
    /// When the first end was asked for, and how many requests were open then.
    began: OnceLock<(Instant, u32)>,
    next: AtomicU32,
    open: AtomicU32,
}

/// The pacer of this process.
pub static ENDS: Pacer = Pacer::new();

/// Counts one long-running request among those a [`Pacer`] spreads, while it is held.
#[derive(Debug)]
pub struct Ticket<'a>(&'a Pacer);

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Pacer {
    pub const fn new() -> Pacer {
        Pacer {
            began: OnceLock::new(),
            next: AtomicU32::new(0),
            open: AtomicU32::new(0),
        }
    }

    /// Counts a long-running request until the ticket is dropped.
    pub fn ticket(&self) -> Ticket<'_> {
        self.open.fetch_add(1, Ordering::Relaxed);
        Ticket(self)
    }

    /// Waits for the caller's turn; the first caller's is at once.
    pub async fn turn(&self) {
        let (began, open) = *self
            .began
            .get_or_init(|| (Instant::now(), self.open.load(Ordering::Relaxed).max(1)));
        let gap = (END_SPREAD / open).min(MAX_END_GAP);
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let at = began + gap.saturating_mul(n).min(END_SPREAD);
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

    /// When each of `n` requests open at the drain ends, sorted.
    async fn ends(n: usize) -> Vec<Duration> {
        let pacer = std::sync::Arc::new(Pacer::new());
        let start = Instant::now();
        let opened = std::sync::Arc::new(tokio::sync::Barrier::new(n + 1));
        let mut ends = Vec::new();
        for _ in 0..n {
            let (pacer, opened) = (pacer.clone(), opened.clone());
            ends.push(tokio::spawn(async move {
                let _ticket = pacer.ticket();
                opened.wait().await;
                pacer.turn().await;
                start.elapsed()
            }));
        }
        opened.wait().await;
        let mut at = Vec::new();
        for e in ends {
            at.push(e.await.unwrap());
        }
        at.sort();
        at
    }

    #[tokio::test(start_paused = true)]
    async fn ends_are_spread_evenly_over_two_seconds() {
        let at = ends(1000).await;
        assert!(at[0] < Duration::from_millis(1));
        // One every 2 ms …
        assert!(at[100] >= Duration::from_millis(200) && at[100] < Duration::from_millis(205));
        // … the last at 2 s, none bunched at the end.
        assert!(at[999] >= Duration::from_millis(1990) && at[999] <= Duration::from_millis(2010));
        assert!(at[900] < Duration::from_millis(1810));

        // 100 watches: one every 20 ms.
        let at = ends(100).await;
        assert!(at[50] >= Duration::from_millis(1000) && at[50] < Duration::from_millis(1010));
        // A few: no further apart than 50 ms.
        let at = ends(3).await;
        assert!(at[2] >= Duration::from_millis(100) && at[2] < Duration::from_millis(110));
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
