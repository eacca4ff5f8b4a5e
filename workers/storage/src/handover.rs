//! Handing the data from one store process to its successor (a reload) without a gap in
//! reads.
//!
//! The database can be open in one process only, and a successor needs a moment to
//! rebuild its index from it. So the running store *releases* the data — commits what
//! is queued, closes the database, and keeps answering reads from memory while writes
//! wait — and the successor opens it and answers reads too, with writes waiting: both
//! hold the same state, because neither writes. Then the old store *stops writing* (the
//! writes that waited, and any new one, are refused as not applied, which its clients
//! send again) and closes its connections, still answering the reads sent on them
//! meanwhile; once they are closed it *stops* (refuses everything), and only then does
//! the successor *take the writes*. A read is thus answered by one store or the other at
//! every moment, and no write is applied where a later read could miss it.
//!
//! If the successor fails, the old store *resumes*: it opens the data again (its index
//! is still right: nothing wrote meanwhile) and applies the writes that waited.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine::Engine;
use crate::error::Error;
use crate::store::Shared;

/// How often a store waiting for the database lock tries again.
const LOCK_RETRY: Duration = Duration::from_millis(1);

/// Where a store process is in a hand-over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handover {
    /// Reads and writes are served.
    Serving,
    /// A successor whose predecessor may still answer: reads are served, writes wait
    /// for [`StoreControl::take_writes`].
    Waiting,
    /// The data is closed for a successor: reads are answered from memory, writes wait.
    Released,
    /// Closing its connections for a successor: reads are answered, writes (and those
    /// that waited) are refused as not applied.
    Draining,
    /// Nothing is answered: every request is refused as not applied.
    Stopped,
}

/// Drives a [`crate::Store`]'s part in a hand-over; cheap to clone.
#[derive(Debug, Clone)]
pub struct StoreControl {
    shared: Arc<Shared>,
}

impl StoreControl {
    pub(crate) fn new(shared: Arc<Shared>) -> Self {
        Self { shared }
    }

    /// Where the store is now.
    pub fn state(&self) -> Handover {
        *self.shared.handover.borrow()
    }

    /// A successor that opened the data: writes wait until [`Self::take_writes`].
    pub fn wait_for_predecessor(&self) {
        self.shared
            .handover
            .send_if_modified(|h| replace_if(h, Handover::Serving, Handover::Waiting));
    }

    /// The predecessor stopped answering: writes are applied from now on.
    pub fn take_writes(&self) {
        let changed = self
            .shared
            .handover
            .send_if_modified(|h| replace_if(h, Handover::Waiting, Handover::Serving));
        if changed {
            tracing::info!("embedded store: applying writes (its predecessor stopped)");
        }
    }

    /// Closes the data for a successor: writes wait from now on, those queued are
    /// committed, then the database is closed. Reads are still answered.
    pub async fn release(&self) {
        let changed = self
            .shared
            .handover
            .send_if_modified(|h| replace_if(h, Handover::Serving, Handover::Released));
        if !changed {
            return;
        }
        let started = Instant::now();
        let shared = self.shared.clone();
        // Joining the writer blocks until its queue is committed.
        let _ = tokio::task::spawn_blocking(move || shared.close_data()).await;
        tracing::info!(
            took_us = started.elapsed().as_micros() as u64,
            revision = self.shared.committed_rev(),
            "embedded store: data released to the successor; answering reads, writes wait"
        );
    }

    /// The successor failed: opens the data again (waiting up to `patience` for the
    /// lock) and applies writes, those that waited first. The index is not rebuilt:
    /// nothing wrote since the release.
    pub async fn resume(&self, patience: Duration) -> Result<(), Error> {
        if self.state() != Handover::Released {
            return Ok(());
        }
        let dir = self.shared.config.data_dir.clone();
        let cache = self.shared.config.engine_cache_bytes;
        let engine = open_when_free(patience, move || Engine::open(&dir, cache)).await?;
        let (engine, meta) = engine;
        let compact_rev = self.shared.read().compact_rev;
        if meta.compact_rev != compact_rev || meta.member_id != self.shared.member_id {
            return Err(Error::Corrupt(format!(
                "the data changed while released (compacted at {} instead of {compact_rev})",
                meta.compact_rev
            )));
        }
        self.shared.open_data(engine)?;
        self.shared
            .handover
            .send_if_modified(|h| replace_if(h, Handover::Released, Handover::Serving));
        tracing::info!("embedded store: data taken back (its successor failed); applying writes");
        Ok(())
    }

    /// Stops writing: every write from now on, and every write waiting, is refused as
    /// not applied; reads are still answered (while the server closes its connections).
    pub fn stop_writes(&self) {
        self.shared
            .handover
            .send_if_modified(|h| *h != Handover::Stopped && replace(h, Handover::Draining));
    }

    /// Stops answering: every request from now on is refused as not applied. A read
    /// already past its check finishes (it was concurrent with anything the successor
    /// applies after this returns).
    pub fn stop(&self) {
        self.shared.handover.send_replace(Handover::Stopped);
    }
}

/// Sets `*h` to `to`; true if it changed.
fn replace(h: &mut Handover, to: Handover) -> bool {
    let changed = *h != to;
    *h = to;
    changed
}

/// Sets `*h` to `to` if it is `from`; true if it changed.
fn replace_if(h: &mut Handover, from: Handover, to: Handover) -> bool {
    let hit = *h == from;
    if hit {
        *h = to;
    }
    hit
}

/// Runs `open` (blocking) until the database is not locked by another process any more,
/// for at most `patience`.
pub async fn open_when_free<T: Send + 'static>(
    patience: Duration,
    open: impl Fn() -> Result<T, Error> + Send + Sync + 'static,
) -> Result<T, Error> {
    let deadline = Instant::now() + patience;
    let open = Arc::new(open);
    loop {
        let attempt = open.clone();
        let opened = tokio::task::spawn_blocking(move || attempt())
            .await
            .map_err(Error::Task)?;
        match opened {
            Err(e) if e.is_locked() && Instant::now() < deadline => {
                tokio::time::sleep(LOCK_RETRY).await;
            }
            r => return r,
        }
    }
}
