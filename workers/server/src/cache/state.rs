//! The cache's memory: every object under the cached prefix once, sorted by key; the
//! window of recent events that watches from an older revision are replayed from; and
//! the revision the cache has reached. Pure data, no I/O: the reflector feeds it, LIST
//! and WATCH read it under a lock.

use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use bytes::Bytes;
use tokio::sync::broadcast;

use crate::storage::{Filter, ListPage, StorageError, Stored, WatchEvent};

/// One object as cached: stored once, shared by the map, the event window, every watcher
/// and every LIST that returns it.
pub struct CachedObject {
    stored: Stored,
    encoded: OnceLock<Bytes>,
}

impl std::fmt::Debug for CachedObject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CachedObject")
            .field("key", &self.stored.key)
            .field("revision", &self.stored.revision)
            .finish()
    }
}

impl CachedObject {
    pub(crate) fn new(stored: Stored) -> Arc<CachedObject> {
        Arc::new(CachedObject {
            stored,
            encoded: OnceLock::new(),
        })
    }

    /// The object as storage holds it (`revision` is its resourceVersion; for a DELETED
    /// event, the deletion's revision).
    pub fn stored(&self) -> &Stored {
        &self.stored
    }

    /// The object's wire form, computed by `encode` for the first caller and shared with
    /// every later one, so a write watched by 1,000 clients is serialized once. One slot
    /// per object version: always pass the same encoding.
    pub fn encoded(&self, encode: impl FnOnce(&Stored) -> Bytes) -> Bytes {
        self.encoded.get_or_init(|| encode(&self.stored)).clone()
    }
}

/// What a change did to its key, as the cache saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventKind {
    Added,
    Modified,
    Deleted,
}

/// One change in the event window.
#[derive(Debug)]
pub(crate) struct Event {
    pub(crate) kind: EventKind,
    /// The new state; for Deleted, the last state stamped with the deletion's revision.
    pub(crate) object: Arc<CachedObject>,
    /// The state before (Modified and Deleted, when the cache had it).
    pub(crate) prev: Option<Arc<CachedObject>>,
    /// When the cache recorded it (drives the window's size).
    pub(crate) recorded: Instant,
    /// `prev` stamped with this event's revision, made once on demand.
    prev_at_event: OnceLock<Arc<CachedObject>>,
}

impl Event {
    pub(crate) fn revision(&self) -> i64 {
        self.object.stored.revision
    }

    pub(crate) fn key(&self) -> &str {
        &self.object.stored.key
    }

    /// What a watcher sees as DELETED when a change moves the object out of its selector:
    /// the state before the change, at the change's revision.
    pub(crate) fn prev_at_event(&self) -> Option<Arc<CachedObject>> {
        let prev = self.prev.as_ref()?;
        Some(
            self.prev_at_event
                .get_or_init(|| {
                    let mut stamped = prev.stored.clone();
                    stamped.revision = self.revision();
                    CachedObject::new(stamped)
                })
                .clone(),
        )
    }
}

/// What the reflector broadcasts to every watcher: one message per change.
#[derive(Debug, Clone)]
pub(crate) enum Signal {
    Event(Arc<Event>),
    /// The cache reached this revision with no further change under the prefix.
    Progress(i64),
}

/// The bounds of the event window.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WindowLimits {
    pub(crate) min: usize,
    pub(crate) max: usize,
    pub(crate) fresh: Duration,
    /// How far (in messages) a watcher may fall behind before it is dropped.
    pub(crate) lag: usize,
}

/// The cached state of one prefix.
pub(crate) struct State {
    objects: BTreeMap<String, Arc<CachedObject>>,
    events: VecDeque<Arc<Event>>,
    capacity: usize,
    limits: WindowLimits,
    revision: i64,
    /// The revision of the last full list.
    list_revision: i64,
    /// Whether the window lost an event since that list.
    evicted: bool,
    ready: bool,
    live: broadcast::Sender<Signal>,
}

impl State {
    pub(crate) fn new(limits: WindowLimits) -> State {
        let min = limits.min.max(1);
        let limits = WindowLimits {
            min,
            max: limits.max.max(min),
            lag: limits.lag.max(1),
            ..limits
        };
        State {
            objects: BTreeMap::new(),
            events: VecDeque::new(),
            capacity: min,
            limits,
            revision: 0,
            list_revision: 0,
            evicted: false,
            ready: false,
            live: broadcast::channel(limits.lag).0,
        }
    }

    pub(crate) fn revision(&self) -> i64 {
        self.revision
    }

    pub(crate) fn ready(&self) -> bool {
        self.ready
    }

    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    pub(crate) fn len(&self) -> usize {
        self.objects.len()
    }

    /// Starts over from a full list at `revision`: the window empties and every running
    /// watcher is ended (its stream closes once it has read what it was sent), as the
    /// upstream cacher terminates its watchers when its reflector relists.
    pub(crate) fn replace(&mut self, items: Vec<Stored>, revision: i64) {
        self.objects = items
            .into_iter()
            .map(|s| (s.key.clone(), CachedObject::new(s)))
            .collect();
        self.events.clear();
        self.revision = revision;
        self.list_revision = revision;
        self.evicted = false;
        self.ready = true;
        self.live = broadcast::channel(self.limits.lag).0;
    }

    /// Marks the cache as not serving (its reflector lost the store).
    pub(crate) fn unready(&mut self) {
        self.ready = false;
    }

    /// Applies one change from the store's watch and broadcasts it.
    pub(crate) fn apply(&mut self, change: WatchEvent, now: Instant) {
        let (kind, stored) = match change {
            WatchEvent::Progress(rev) => return self.progress(rev),
            WatchEvent::Added(s) | WatchEvent::Modified(s) => (EventKind::Modified, s),
            WatchEvent::Deleted(s) => (EventKind::Deleted, s),
        };
        if stored.revision < self.revision {
            // Already applied (a re-watch never starts before the cache's revision).
            return;
        }
        self.revision = stored.revision;
        let object = CachedObject::new(stored);
        let key = object.stored.key.clone();
        let (kind, prev) = match kind {
            EventKind::Deleted => (EventKind::Deleted, self.objects.remove(&key)),
            _ => match self.objects.insert(key, object.clone()) {
                None => (EventKind::Added, None),
                Some(prev) => (EventKind::Modified, Some(prev)),
            },
        };
        let event = Arc::new(Event {
            kind,
            object,
            prev,
            recorded: now,
            prev_at_event: OnceLock::new(),
        });
        self.record(event.clone(), now);
        // No receiver is not an error: nobody watches.
        let _ = self.live.send(Signal::Event(event));
    }

    /// The store reported that nothing changed up to `rev`.
    pub(crate) fn progress(&mut self, rev: i64) {
        if rev > self.revision {
            self.revision = rev;
        }
        let _ = self.live.send(Signal::Progress(self.revision));
    }

    /// Appends to the window, growing it while its oldest event is younger than the
    /// fresh duration (up to the maximum) and halving it when even the newest quarter is
    /// older (down to the minimum); otherwise the oldest revision falls out.
    fn record(&mut self, event: Arc<Event>, now: Instant) {
        let age = |e: &Arc<Event>| now.saturating_duration_since(e.recorded);
        if self.events.len() >= self.capacity {
            let oldest_fresh = self
                .events
                .front()
                .is_some_and(|e| age(e) < self.limits.fresh);
            let quarter = self.events.len() - self.capacity / 4;
            let recent_stale = self
                .events
                .get(quarter.min(self.events.len() - 1))
                .is_some_and(|e| age(e) > self.limits.fresh);
            if oldest_fresh && self.capacity < self.limits.max {
                self.capacity = (self.capacity * 2).min(self.limits.max);
            } else if recent_stale && self.capacity > self.limits.min {
                self.capacity = (self.capacity / 2).max(self.limits.min);
            }
        }
        while self.events.len() >= self.capacity {
            // Events of one revision (one transaction) leave together, so a watch
            // accepted from the revision before never misses half of one.
            let Some(gone) = self.events.pop_front() else {
                break;
            };
            self.evicted = true;
            while self
                .events
                .front()
                .is_some_and(|e| e.revision() == gone.revision())
            {
                self.events.pop_front();
            }
        }
        if self.events.capacity() > 2 * self.capacity {
            self.events.shrink_to(self.capacity);
        }
        self.events.push_back(event);
    }

    /// The oldest revision a watch may start after.
    pub(crate) fn oldest_watchable(&self) -> i64 {
        match self.events.front() {
            Some(e) if self.evicted => e.revision() - 1,
            _ => self.list_revision,
        }
    }

    /// The window's events under `prefix` after `after`, and a subscription to the live
    /// ones that follow them (taken together, so none is lost or doubled). Older than the
    /// window is upstream's 410 "too old resource version: after (oldest)".
    pub(crate) fn subscribe_after(
        &self,
        prefix: &str,
        after: i64,
    ) -> Result<(Vec<Arc<Event>>, broadcast::Receiver<Signal>), StorageError> {
        let oldest = self.oldest_watchable();
        if after < oldest {
            return Err(StorageError::Compacted {
                requested: after,
                compacted: oldest,
            });
        }
        let from = self.events.partition_point(|e| e.revision() <= after);
        let replay = self
            .events
            .range(from..)
            .filter(|e| e.key().starts_with(prefix))
            .cloned()
            .collect();
        Ok((replay, self.live.subscribe()))
    }

    /// The objects under `prefix` that `filter` accepts, at the cache's revision, with a
    /// subscription to the changes after it.
    pub(crate) fn subscribe_with_state(
        &self,
        prefix: &str,
        filter: Option<&Filter>,
    ) -> (Vec<Arc<CachedObject>>, i64, broadcast::Receiver<Signal>) {
        let objects = self
            .under(prefix)
            .filter(|(_, o)| filter.is_none_or(|keep| keep(&o.stored.value)))
            .map(|(_, o)| o.clone())
            .collect();
        (objects, self.revision, self.live.subscribe())
    }

    /// One object.
    pub(crate) fn get(&self, key: &str) -> Option<Arc<CachedObject>> {
        self.objects.get(key).cloned()
    }

    fn under<'a>(
        &'a self,
        prefix: &'a str,
    ) -> impl Iterator<Item = (&'a String, &'a Arc<CachedObject>)> + 'a {
        self.objects
            .range::<str, _>((Bound::Included(prefix), Bound::Unbounded))
            .take_while(move |(k, _)| k.starts_with(prefix))
    }

    /// One page of a LIST at the cache's revision: up to `limit` objects (all when 0) under
    /// `prefix` that `filter` accepts, in key order. A further page gets a continue token
    /// in kube-apiserver's format that storage resumes from (`remaining` only when
    /// unfiltered), as the upstream cacher pages from its snapshot.
    pub(crate) fn page(&self, prefix: &str, limit: i64, filter: Option<&Filter>) -> ListPage {
        let page = self.page_objects(prefix, limit, filter);
        ListPage {
            items: page.items.iter().map(|o| o.stored.clone()).collect(),
            revision: page.revision,
            continue_token: page.continue_token,
            remaining: page.remaining,
        }
    }

    /// A page of the cached objects themselves (shared, not copied).
    pub(crate) fn page_objects(
        &self,
        prefix: &str,
        limit: i64,
        filter: Option<&Filter>,
    ) -> ObjectPage {
        let mut items: Vec<Arc<CachedObject>> = Vec::new();
        let mut rest = self.under(prefix);
        let mut continue_token = None;
        let mut remaining = None;
        let limit = usize::try_from(limit).unwrap_or(0);
        while let Some((_, o)) = rest.next() {
            if limit > 0 && items.len() == limit {
                let last = items
                    .last()
                    .map(|s| s.stored.key.as_str())
                    .unwrap_or(prefix);
                let start = format!("{}\u{0}", last.strip_prefix(prefix).unwrap_or(last));
                continue_token = Some(continue_token_for(&start, self.revision));
                if filter.is_none() {
                    remaining = i64::try_from(1 + rest.count()).ok();
                }
                break;
            }
            if filter.is_none_or(|keep| keep(&o.stored.value)) {
                items.push(o.clone());
            }
        }
        ObjectPage {
            items,
            revision: self.revision,
            continue_token,
            remaining,
        }
    }
}

/// A page of cached objects: [`ListPage`] without copying the objects.
#[derive(Debug)]
pub struct ObjectPage {
    /// The matching objects, in key order.
    pub items: Vec<Arc<CachedObject>>,
    /// The revision of the list.
    pub revision: i64,
    /// The token for the next page.
    pub continue_token: Option<String>,
    /// Objects left after this page (unfiltered lists).
    pub remaining: Option<i64>,
}

/// A continue token in kube-apiserver's format: unpadded URL-safe base64 of
/// `{"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key after the prefix>"}` (the same
/// bytes the storage layer writes and reads).
pub(crate) fn continue_token_for(start: &str, revision: i64) -> String {
    let token = serde_json::json!({"v": "meta.k8s.io/v1", "rv": revision, "start": start});
    URL_SAFE_NO_PAD.encode(token.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(min: usize, max: usize) -> WindowLimits {
        WindowLimits {
            min,
            max,
            fresh: Duration::from_secs(75),
            lag: 16,
        }
    }

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

    fn filled(n: i64) -> State {
        let mut s = State::new(limits(100, 1000));
        let items = (1..=n)
            .map(|i| st(&format!("/r/cm/ns{}/o{i:03}", i % 2), i, "{}"))
            .collect();
        s.replace(items, n);
        s
    }

    #[test]
    fn pages_walk_the_prefix_in_key_order() {
        let s = filled(25);
        let all = s.page("/r/cm/", 0, None);
        assert_eq!(all.items.len(), 25);
        assert!(all.items.windows(2).all(|w| w[0].key < w[1].key));
        assert_eq!((all.continue_token, all.remaining), (None, None));
        let ns1 = s.page("/r/cm/ns1/", 0, None);
        assert_eq!(ns1.items.len(), 13);
        let p = s.page("/r/cm/", 10, None);
        assert_eq!((p.items.len(), p.remaining, p.revision), (10, Some(15), 25));
        let token = p.continue_token.expect("more");
        let raw = URL_SAFE_NO_PAD.decode(token).expect("base64");
        let v: serde_json::Value = serde_json::from_slice(&raw).expect("json");
        let last = p.items[9].key.strip_prefix("/r/cm/").expect("under");
        assert_eq!(v["start"], format!("{last}\u{0}"));
        assert_eq!(
            (v["rv"].as_i64(), v["v"].as_str()),
            (Some(25), Some("meta.k8s.io/v1"))
        );
        // An exact fit has no next page.
        assert!(s.page("/r/cm/", 25, None).continue_token.is_none());
        // Filtered pages report no remaining count.
        let odd: &Filter = &|v: &[u8]| v == b"{}";
        let f = s.page("/r/cm/", 3, Some(odd));
        assert_eq!((f.items.len(), f.remaining), (3, None));
        assert!(f.continue_token.is_some());
        let none: &Filter = &|_: &[u8]| false;
        assert!(s.page("/r/cm/", 3, Some(none)).items.is_empty());
        assert!(s.page("/r/other/", 3, None).items.is_empty());
    }

    #[test]
    fn changes_update_the_map_and_the_window() {
        let mut s = filled(4);
        let (_, mut rx) = s.subscribe_after("/r/cm/", 4).expect("in window");
        let now = Instant::now();
        s.apply(
            WatchEvent::Modified(st("/r/cm/ns1/o001", 5, "{\"a\":1}")),
            now,
        );
        s.apply(WatchEvent::Added(st("/r/cm/ns0/new", 6, "{}")), now);
        s.apply(WatchEvent::Deleted(st("/r/cm/ns0/o002", 7, "{}")), now);
        // A change the cache has already moved past is ignored.
        s.apply(WatchEvent::Added(st("/r/cm/ns0/old", 3, "{}")), now);
        assert_eq!((s.revision(), s.len()), (7, 4));
        let kinds: Vec<_> = std::iter::from_fn(|| rx.try_recv().ok())
            .map(|sig| match sig {
                Signal::Event(e) => (e.kind, e.revision(), e.prev.is_some()),
                Signal::Progress(r) => panic!("progress {r}"),
            })
            .collect();
        assert_eq!(
            kinds,
            vec![
                (EventKind::Modified, 5, true),
                (EventKind::Added, 6, false),
                (EventKind::Deleted, 7, true)
            ]
        );
        let (replay, _) = s.subscribe_after("/r/cm/ns0/", 5).expect("in window");
        assert_eq!(
            replay.iter().map(|e| e.revision()).collect::<Vec<_>>(),
            vec![6, 7]
        );
        let gone = &replay[1];
        assert_eq!(gone.prev_at_event().expect("prev").stored().revision, 7);
        s.progress(9);
        assert_eq!(s.revision(), 9);
        s.progress(8);
        assert_eq!(s.revision(), 9);
    }

    #[test]
    fn too_old_is_refused_with_the_oldest_revision() {
        let mut s = State::new(limits(4, 4));
        s.replace(Vec::new(), 10);
        assert!(s.subscribe_after("/", 10).is_ok());
        assert_eq!(
            s.subscribe_after("/", 9).err(),
            Some(StorageError::Compacted {
                requested: 9,
                compacted: 10
            })
        );
        let now = Instant::now();
        for rev in 11..=20 {
            s.apply(WatchEvent::Added(st(&format!("/k{rev}"), rev, "{}")), now);
        }
        assert_eq!(s.capacity(), 4);
        // 17..=20 are kept: a watch after 16 replays them, one after 15 is too old.
        let (replay, _) = s.subscribe_after("/", 16).expect("in window");
        assert_eq!(replay.len(), 4);
        assert_eq!(
            s.subscribe_after("/", 15).err(),
            Some(StorageError::Compacted {
                requested: 15,
                compacted: 16
            })
        );
        // A future revision is accepted: nothing to replay yet.
        assert!(s.subscribe_after("/", 50).expect("future").0.is_empty());
    }

    #[test]
    fn window_grows_while_fresh_and_shrinks_when_stale() {
        let mut s = State::new(limits(2, 16));
        s.replace(Vec::new(), 0);
        let t0 = Instant::now();
        for rev in 1..=20 {
            s.apply(WatchEvent::Added(st(&format!("/k{rev}"), rev, "{}")), t0);
        }
        assert_eq!(s.capacity(), 16);
        let later = t0 + Duration::from_secs(600);
        for rev in 21..=23 {
            s.apply(WatchEvent::Added(st(&format!("/k{rev}"), rev, "{}")), later);
        }
        assert!(s.capacity() < 16, "capacity {}", s.capacity());
        // Once the window holds only fresh events again, it grows back.
        for rev in 24..=60 {
            s.apply(WatchEvent::Added(st(&format!("/k{rev}"), rev, "{}")), later);
        }
        assert_eq!(s.capacity(), 16);
    }

    #[test]
    fn one_transaction_leaves_the_window_whole() {
        let mut s = State::new(limits(3, 3));
        s.replace(Vec::new(), 1);
        let now = Instant::now();
        s.apply(WatchEvent::Added(st("/a", 2, "{}")), now);
        s.apply(WatchEvent::Added(st("/b", 2, "{}")), now);
        s.apply(WatchEvent::Added(st("/c", 3, "{}")), now);
        s.apply(WatchEvent::Added(st("/d", 4, "{}")), now);
        // Revision 2 left entirely: a watch after 1 is too old, after 2 is fine.
        assert!(s.subscribe_after("/", 1).is_err());
        assert_eq!(s.subscribe_after("/", 2).expect("ok").0.len(), 2);
    }

    #[test]
    fn relist_ends_running_watchers() {
        let mut s = filled(3);
        let (_, mut rx) = s.subscribe_after("/", 3).expect("ok");
        s.replace(vec![st("/r/cm/x", 9, "{}")], 9);
        assert!(matches!(
            rx.try_recv(),
            Err(broadcast::error::TryRecvError::Closed)
        ));
        assert_eq!((s.revision(), s.len(), s.ready()), (9, 1, true));
        s.unready();
        assert!(!s.ready());
    }

    #[test]
    fn encoding_is_shared() {
        let o = CachedObject::new(st("/k", 1, "{}"));
        let a = o.encoded(|s| Bytes::from(s.value.clone()));
        let b = o.encoded(|_| Bytes::from_static(b"other"));
        assert_eq!(a, b);
    }
}
