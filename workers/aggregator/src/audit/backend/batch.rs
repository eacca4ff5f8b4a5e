//! `--audit-*-mode=batch`, as upstream's buffered backend: events wait in a bounded
//! buffer (`buffer-size`; a full one refuses the event at once, the request never
//! waits); one task takes them out in batches of up to `max-size`, handing over what it
//! has after `max-wait` (counted from the start of each batch, and only when batches
//! hold more than one event; with no wait, a batch is what the buffer holds), at most `throttle` batches per second. Webhook batches are
//! sent concurrently (one task each), log batches in turn. On shutdown the buffer is
//! closed and what it holds is handed over before the task ends.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use kas_proto::AuditBatch;
use tokio::sync::mpsc::{self, error::TrySendError};
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::super::Event;

/// What a batch is handed to.
pub(super) type Deliver = Arc<dyn Fn(Vec<Arc<Event>>) -> BoxFuture<'static, ()> + Send + Sync>;

/// Whether [`Batcher::enqueue`] took the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Enqueued {
    Yes,
    /// The buffer is full: the event is dropped.
    Full,
    /// Shut down: the event is dropped.
    Closed,
}

pub(super) struct Batcher {
    tx: mpsc::Sender<Arc<Event>>,
    stop: CancellationToken,
    worker: Mutex<Option<JoinHandle<()>>>,
}

impl Batcher {
    /// Starts the batching task (on the current Tokio runtime). `concurrent`: deliver
    /// each batch in its own task (upstream's AsyncDelegate, the webhook's).
    pub(super) fn start(cfg: &AuditBatch, concurrent: bool, deliver: Deliver) -> Batcher {
        // The supervisor refuses zeros as upstream does; never panic on one here.
        let (tx, rx) = mpsc::channel(cfg.buffer_size.max(1));
        let stop = CancellationToken::new();
        let worker = Worker {
            rx,
            max_size: cfg.max_size.max(1),
            max_wait: cfg.max_wait,
            throttle: cfg
                .throttle
                .map(|(qps, burst)| TokenBucket::new(qps, burst)),
            concurrent,
            deliver,
            in_flight: JoinSet::new(),
        };
        let handle = tokio::spawn(worker.run(stop.clone()));
        Batcher {
            tx,
            stop,
            worker: Mutex::new(Some(handle)),
        }
    }

    /// Puts `event` in the buffer without waiting.
    pub(super) fn enqueue(&self, event: Arc<Event>) -> Enqueued {
        match self.tx.try_send(event) {
            Ok(()) => Enqueued::Yes,
            Err(TrySendError::Full(_)) => Enqueued::Full,
            Err(TrySendError::Closed(_)) => Enqueued::Closed,
        }
    }

    /// Closes the buffer and waits up to `grace` for what it held to be delivered; past
    /// that the deliveries still running are abandoned. Returns whether all finished.
    pub(super) async fn shutdown(&self, grace: Duration) -> bool {
        self.stop.cancel();
        let handle = self.worker.lock().unwrap_or_else(|p| p.into_inner()).take();
        let Some(mut handle) = handle else {
            return true;
        };
        match tokio::time::timeout(grace, &mut handle).await {
            Ok(_) => true,
            Err(_) => {
                handle.abort();
                false
            }
        }
    }
}

impl Drop for Batcher {
    /// Dropped without a shutdown (the front door failed to start): the task delivers
    /// what is buffered and ends, rather than waiting on a buffer no one fills.
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

struct Worker {
    rx: mpsc::Receiver<Arc<Event>>,
    max_size: usize,
    max_wait: Duration,
    throttle: Option<TokenBucket>,
    concurrent: bool,
    deliver: Deliver,
    in_flight: JoinSet<()>,
}

impl Worker {
    async fn run(mut self, stop: CancellationToken) {
        while !stop.is_cancelled() {
            // Upstream has no timer for batches of one: the event goes at once. With no
            // wait (the log's default) a batch is what is buffered when the first event
            // comes: no timer either, which would spin on an empty buffer.
            let deadline = (self.max_size > 1 && !self.max_wait.is_zero())
                .then(|| Instant::now() + self.max_wait);
            let events = self.collect(deadline, Some(&stop)).await;
            self.hand_over(events).await;
            // Reap finished deliveries so the set does not grow.
            while self.in_flight.try_join_next().is_some() {}
        }
        // No event gets in from here on; deliver what the buffer holds.
        self.rx.close();
        loop {
            let events = self.collect(None, None).await;
            if events.is_empty() {
                break;
            }
            self.hand_over(events).await;
        }
        while self.in_flight.join_next().await.is_some() {}
    }

    /// Up to `max_size` events: fewer when `deadline` passes, `stop` fires or the closed
    /// buffer runs dry.
    async fn collect(
        &mut self,
        deadline: Option<Instant>,
        stop: Option<&CancellationToken>,
    ) -> Vec<Arc<Event>> {
        let mut events = Vec::new();
        let timer = async {
            match deadline {
                Some(d) => tokio::time::sleep_until(d).await,
                None => std::future::pending().await,
            }
        };
        let stopped = async {
            match stop {
                Some(s) => s.cancelled().await,
                None => std::future::pending().await,
            }
        };
        tokio::pin!(timer, stopped);
        while events.len() < self.max_size {
            if self.max_wait.is_zero() && !events.is_empty() {
                match self.rx.try_recv() {
                    Ok(e) => {
                        events.push(e);
                        continue;
                    }
                    Err(_) => break,
                }
            }
            tokio::select! {
                // Events first: a batch that is ready goes out whole.
                biased;
                ev = self.rx.recv() => match ev {
                    Some(e) => events.push(e),
                    None => break,
                },
                () = &mut timer => break,
                () = &mut stopped => break,
            }
        }
        events
    }

    async fn hand_over(&mut self, events: Vec<Arc<Event>>) {
        if events.is_empty() {
            return;
        }
        if let Some(t) = &mut self.throttle {
            t.accept().await;
        }
        let delivery = (self.deliver)(events);
        if self.concurrent {
            self.in_flight.spawn(delivery);
        } else {
            delivery.await;
        }
    }
}

/// client-go's token bucket limiter: `qps` tokens a second, at most `burst` saved up;
/// [`TokenBucket::accept`] waits for one.
struct TokenBucket {
    qps: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    fn new(qps: f32, burst: u32) -> TokenBucket {
        let burst = f64::from(burst.max(1));
        TokenBucket {
            qps: f64::from(qps).max(f64::MIN_POSITIVE),
            burst,
            tokens: burst,
            last: Instant::now(),
        }
    }

    async fn accept(&mut self) {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.last).as_secs_f64() * self.qps).min(self.burst);
        self.last = now;
        self.tokens -= 1.0;
        if self.tokens < 0.0 {
            // The token is taken now and paid for by waiting until it would have come.
            let wait = Duration::from_secs_f64((-self.tokens / self.qps).min(3600.0));
            tokio::time::sleep(wait).await;
        }
    }
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
