//! One WATCH served from the cache: first the replay (the window's events after the start
//! revision, or the current objects as ADDED), then the live changes the reflector
//! broadcasts, each run through the watcher's selector the way upstream's cache watcher
//! does (an object that starts matching is ADDED, one that stops matching is DELETED).
//! A watcher that falls too far behind the broadcast is ended, never waited for.

use std::collections::VecDeque;
use std::sync::Arc;

use tokio::sync::{broadcast, Notify};

use super::state::{CachedObject, Event, EventKind, Signal};
use crate::storage::{Filter, StorageError, WatchEvent};

/// One event of a watch served from the cache. Objects are shared with the cache and every
/// other watcher (see [`CachedObject::encoded`] to serialize them once).
#[derive(Debug, Clone)]
pub enum CacheEvent {
    /// The object appeared (or entered the selector).
    Added(Arc<CachedObject>),
    /// The object changed and still matches.
    Modified(Arc<CachedObject>),
    /// The object was deleted (or left the selector), as it last was, at the revision of
    /// the change.
    Deleted(Arc<CachedObject>),
    /// Nothing under the watch changed up to this revision (a BOOKMARK).
    Bookmark(i64),
    /// The initial objects were all sent, at this revision (`sendInitialEvents=true`: the
    /// BOOKMARK annotated `k8s.io/initial-events-end: "true"`).
    InitialEventsEnd(i64),
}

impl CacheEvent {
    /// The same event as the storage layer's watch reports it (the object copied out).
    pub fn to_storage(&self) -> WatchEvent {
        match self {
            CacheEvent::Added(o) => WatchEvent::Added(o.stored().clone()),
            CacheEvent::Modified(o) => WatchEvent::Modified(o.stored().clone()),
            CacheEvent::Deleted(o) => WatchEvent::Deleted(o.stored().clone()),
            CacheEvent::Bookmark(rev) | CacheEvent::InitialEventsEnd(rev) => {
                WatchEvent::Progress(*rev)
            }
        }
    }
}

/// What is sent before the live changes.
#[derive(Debug)]
pub(crate) enum Replay {
    Object(Arc<CachedObject>),
    Event(Arc<Event>),
    End(i64),
}

/// A running watch on the cache.
pub struct CacheWatch {
    replay: VecDeque<Replay>,
    live: Option<broadcast::Receiver<Signal>>,
    prefix: String,
    filter: Option<Box<Filter>>,
    /// Changes at or before this revision were replayed or predate the start.
    after: i64,
    /// The last bookmark reported.
    bookmark: i64,
    wake: Arc<Notify>,
    failed: Option<StorageError>,
}

impl std::fmt::Debug for CacheWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CacheWatch")
            .field("prefix", &self.prefix)
            .field("after", &self.after)
            .finish()
    }
}

impl CacheWatch {
    pub(crate) fn new(
        prefix: &str,
        filter: Option<Box<Filter>>,
        replay: VecDeque<Replay>,
        live: broadcast::Receiver<Signal>,
        after: i64,
        wake: Arc<Notify>,
    ) -> CacheWatch {
        CacheWatch {
            replay,
            live: Some(live),
            prefix: prefix.to_owned(),
            filter,
            after,
            bookmark: 0,
            wake,
            failed: None,
        }
    }

    /// A watch whose first (and only) answer is `error`, as the store's own watch reports
    /// a compacted start revision.
    pub(crate) fn failed(prefix: &str, error: StorageError, wake: Arc<Notify>) -> CacheWatch {
        CacheWatch {
            replay: VecDeque::new(),
            live: None,
            prefix: prefix.to_owned(),
            filter: None,
            after: 0,
            bookmark: 0,
            wake,
            failed: Some(error),
        }
    }

    /// The highest revision this watch has reported so far.
    pub fn revision(&self) -> i64 {
        self.after.max(self.bookmark)
    }

    /// Asks for a bookmark soon: the cache requests a progress notification from the store
    /// (many requests at once are folded into one).
    pub async fn request_progress(&mut self) -> Result<(), StorageError> {
        self.wake.notify_one();
        Ok(())
    }

    /// The next event as the storage layer's [`crate::storage::Watch::next`] reports it;
    /// `None` when the watch ended (the cache relisted, or this watcher fell too far
    /// behind: the client resumes from its last resourceVersion, as with upstream).
    pub async fn next(&mut self) -> Result<Option<WatchEvent>, StorageError> {
        Ok(self.next_event().await?.map(|e| e.to_storage()))
    }

    /// The next event, sharing the cached object.
    pub async fn next_event(&mut self) -> Result<Option<CacheEvent>, StorageError> {
        if let Some(e) = self.failed.take() {
            self.live = None;
            return Err(e);
        }
        while let Some(item) = self.replay.pop_front() {
            let out = match item {
                Replay::Object(o) => Some(CacheEvent::Added(o)),
                Replay::Event(e) => self.convert(&e),
                Replay::End(rev) => {
                    self.bookmark = self.bookmark.max(rev);
                    Some(CacheEvent::InitialEventsEnd(rev))
                }
            };
            if out.is_some() {
                return Ok(out);
            }
        }
        loop {
            let Some(live) = self.live.as_mut() else {
                return Ok(None);
            };
            match live.recv().await {
                Ok(Signal::Event(e)) => {
                    if e.revision() <= self.after {
                        continue;
                    }
                    if let Some(out) = self.convert(&e) {
                        return Ok(Some(out));
                    }
                }
                Ok(Signal::Progress(rev)) => {
                    if rev > self.bookmark && rev >= self.after {
                        self.bookmark = rev;
                        return Ok(Some(CacheEvent::Bookmark(rev)));
                    }
                }
                Err(broadcast::error::RecvError::Lagged(missed)) => {
                    tracing::debug!(prefix = %self.prefix, missed, "watch cache: ending a watcher that fell behind");
                    self.live = None;
                    return Ok(None);
                }
                Err(broadcast::error::RecvError::Closed) => {
                    self.live = None;
                    return Ok(None);
                }
            }
        }
    }

    /// The event this watcher sees for a change, if any.
    fn convert(&mut self, e: &Event) -> Option<CacheEvent> {
        if !e.key().starts_with(&self.prefix) {
            return None;
        }
        self.after = self.after.max(e.revision());
        see(e, self.filter.as_deref())
    }
}

/// A change through a selector: matched before and after is MODIFIED, only after is ADDED,
/// only before is DELETED (the old state at the change's revision), neither is nothing.
fn see(e: &Event, filter: Option<&Filter>) -> Option<CacheEvent> {
    let Some(keep) = filter else {
        return Some(match e.kind {
            EventKind::Added => CacheEvent::Added(e.object.clone()),
            EventKind::Modified => CacheEvent::Modified(e.object.clone()),
            EventKind::Deleted => CacheEvent::Deleted(e.object.clone()),
        });
    };
    let passes = |o: &CachedObject| keep(&o.stored().value);
    if e.kind == EventKind::Deleted {
        return passes(&e.object).then(|| CacheEvent::Deleted(e.object.clone()));
    }
    let now = passes(&e.object);
    let before = e.prev.as_deref().is_some_and(passes);
    match (before, now) {
        (false, true) => Some(CacheEvent::Added(e.object.clone())),
        (true, true) => Some(CacheEvent::Modified(e.object.clone())),
        (true, false) => e.prev_at_event().map(CacheEvent::Deleted),
        (false, false) => None,
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::super::state::{State, WindowLimits};
    use super::*;
    use crate::storage::Stored;

    fn st(key: &str, rev: i64, value: &str) -> Stored {
        Stored {
            key: key.to_owned(),
            value: value.as_bytes().to_vec(),
            revision: rev,
            create_revision: rev,
            lease: 0,
            stale: false,
        }
    }

    fn state(lag: usize) -> State {
        let mut s = State::new(WindowLimits {
            min: 100,
            max: 100,
            fresh: Duration::from_secs(75),
            lag,
        });
        s.replace(vec![st("/p/a", 1, "{\"x\":1}")], 1);
        s
    }

    fn kind(e: &CacheEvent) -> (&'static str, i64) {
        match e {
            CacheEvent::Added(o) => ("ADDED", o.stored().revision),
            CacheEvent::Modified(o) => ("MODIFIED", o.stored().revision),
            CacheEvent::Deleted(o) => ("DELETED", o.stored().revision),
            CacheEvent::Bookmark(r) => ("BOOKMARK", *r),
            CacheEvent::InitialEventsEnd(r) => ("END", *r),
        }
    }

    #[tokio::test]
    async fn selector_transitions_become_added_and_deleted() {
        let mut s = state(64);
        let (replay, rx) = s.subscribe_after("/p/", 1).expect("ok");
        let only_x1: Box<Filter> = Box::new(|v: &[u8]| v == b"{\"x\":1}");
        let mut w = CacheWatch::new(
            "/p/",
            Some(only_x1),
            replay.into_iter().map(Replay::Event).collect(),
            rx,
            1,
            Arc::new(Notify::new()),
        );
        let now = Instant::now();
        s.apply(WatchEvent::Modified(st("/p/a", 2, "{\"x\":2}")), now);
        s.apply(WatchEvent::Modified(st("/p/a", 3, "{\"x\":1}")), now);
        s.apply(WatchEvent::Modified(st("/p/a", 4, "{\"x\":1}")), now);
        s.apply(WatchEvent::Added(st("/q/b", 5, "{\"x\":1}")), now);
        s.apply(WatchEvent::Added(st("/p/c", 6, "{\"x\":3}")), now);
        s.apply(WatchEvent::Deleted(st("/p/a", 7, "{\"x\":1}")), now);
        s.progress(8);
        let mut seen = Vec::new();
        for _ in 0..5 {
            seen.push(kind(&w.next_event().await.expect("ok").expect("event")));
        }
        assert_eq!(
            seen,
            vec![
                ("DELETED", 2),
                ("ADDED", 3),
                ("MODIFIED", 4),
                ("DELETED", 7),
                ("BOOKMARK", 8)
            ]
        );
        // The DELETED for leaving the selector carries the old content.
        assert_eq!(w.revision(), 8);
    }

    #[tokio::test]
    async fn a_watcher_that_falls_behind_is_ended() {
        let mut s = state(4);
        let (_, rx) = s.subscribe_after("/p/", 1).expect("ok");
        let mut w = CacheWatch::new("/p/", None, VecDeque::new(), rx, 1, Arc::new(Notify::new()));
        for rev in 2..20 {
            s.apply(
                WatchEvent::Added(st(&format!("/p/k{rev}"), rev, "{}")),
                Instant::now(),
            );
        }
        assert!(w.next_event().await.expect("ok").is_none());
        assert!(w.next().await.expect("ok").is_none());
    }

    #[tokio::test]
    async fn a_failed_watch_reports_once() {
        let err = StorageError::Compacted {
            requested: 1,
            compacted: 5,
        };
        let mut w = CacheWatch::failed("/p/", err.clone(), Arc::new(Notify::new()));
        assert_eq!(w.next().await, Err(err));
        assert_eq!(w.next().await, Ok(None));
        assert!(w.request_progress().await.is_ok());
    }

    #[tokio::test]
    async fn initial_state_then_end_marker_then_changes() {
        let mut s = state(64);
        let (objects, rev, rx) = s.subscribe_with_state("/p/", None);
        let mut replay: VecDeque<Replay> = objects.into_iter().map(Replay::Object).collect();
        replay.push_back(Replay::End(rev));
        let mut w = CacheWatch::new("/p/", None, replay, rx, rev, Arc::new(Notify::new()));
        s.apply(WatchEvent::Added(st("/p/b", 2, "{}")), Instant::now());
        let mut seen = Vec::new();
        for _ in 0..3 {
            seen.push(kind(&w.next_event().await.expect("ok").expect("event")));
        }
        assert_eq!(seen, vec![("ADDED", 1), ("END", 1), ("ADDED", 2)]);
        // Storage's form of the same stream.
        let e = CacheEvent::InitialEventsEnd(3).to_storage();
        assert_eq!(e, WatchEvent::Progress(3));
    }
}
