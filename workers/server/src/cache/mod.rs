//! The watch cache: LIST, GET and WATCH of one resource prefix served from memory, as
//! kube-apiserver's cacher serves them, instead of reading etcd on every call.
//!
//! One [`Cacher`] per resource prefix runs a reflector task (list, then watch from the
//! list's revision; see `reflector`) that keeps every object once, sorted by key, a
//! window of recent events for watches that start in the past, and the revision the cache
//! has reached (from events and from the store's progress notifications).
//!
//! Reads follow upstream (1.33, `ConsistentListFromCache` on):
//!
//! * `resourceVersion` unset ([`ReadVersion::Latest`]): a consistent read. The cache asks
//!   the store for its current revision, then waits (asking for progress notifications)
//!   until it has caught up, at most [`CacheConfig::fresh_timeout`]; if it has not, the
//!   read falls back to storage ([`Delegate::Stale`]).
//! * `"0"` ([`ReadVersion::Any`]): answered at once; `limit` is ignored, as upstream does.
//! * `NotOlderThan(n)`: waits until the cache reaches `n`, else `Too large resource
//!   version` ([`StorageError::TooLargeResourceVersion`], retry after 1 s).
//! * `Exact(n)`: served only when the cache is exactly at `n`, else storage
//!   ([`Delegate::Exact`]); upstream 1.33 always sends it to storage. The legacy form
//!   (`resourceVersion=n` without `resourceVersionMatch` but with a `limit`) is an exact
//!   read for upstream too: pass it as `Exact(n)`.
//! * `limit` pages from the cache with a continue token in the storage layer's format;
//!   continuing is storage's job ([`Delegate::Continue`]), as upstream without
//!   `ListFromCacheSnapshot` (alpha in 1.33).
//!
//! The event window starts at 100 events and doubles (up to 102,400) while its oldest
//! event is younger than 75 s, and halves back when even its newest quarter is older:
//! upstream's defaults. A watch from a revision before the window is upstream's 410 `too
//! old resource version: R (C)` (reported as [`StorageError::Compacted`] with `C` as
//! `compacted`, so [`StorageError::watch_expired`] words it). Every change is broadcast
//! once to all watchers (an `Arc`, no copy); a watcher more than
//! [`CacheConfig::watcher_lag`] changes behind is ended rather than waited for.

mod reflector;
mod state;
mod watcher;

use std::collections::VecDeque;
use std::sync::atomic::AtomicI64;
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};

use tokio::sync::{watch, Notify};

pub use state::{CachedObject, ObjectPage};
pub use watcher::{CacheEvent, CacheWatch};

use crate::storage::{Filter, ListOptions, ListPage, ReadVersion, Storage, StorageError};
use crate::storage::{Stored, WatchEvent};
use state::{State, WindowLimits};
use watcher::Replay;

/// How often a reader waiting for the cache to catch up asks again for progress
/// (upstream's progress requester period).
const PROGRESS_POLL: Duration = Duration::from_millis(100);

/// Tuning of one cache; the defaults are upstream's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheConfig {
    /// The event window's smallest size (upstream: 100).
    pub min_events: usize,
    /// The event window's largest size (upstream: 100 × 1024).
    pub max_events: usize,
    /// Events younger than this are kept by growing the window (upstream: 75 s).
    pub event_fresh: Duration,
    /// How long a read waits for the cache to reach a revision (upstream: 3 s).
    pub fresh_timeout: Duration,
    /// How often the reflector asks the store for a progress notification, which every
    /// watcher sees as a bookmark.
    pub progress_interval: Duration,
    /// How many changes a watcher may fall behind before it is ended.
    pub watcher_lag: usize,
    /// Objects a page of the reflector's list from storage (upstream's cacher:
    /// storageWatchListPageSize, 10,000): the store never builds, nor this worker decodes,
    /// a response of a whole large resource at once.
    pub list_page: i64,
}

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            min_events: 100,
            max_events: 100 * 1024,
            event_fresh: Duration::from_secs(75),
            fresh_timeout: Duration::from_secs(3),
            progress_interval: Duration::from_secs(1),
            watcher_lag: 1024,
            list_page: 10_000,
        }
    }
}

/// A read the cache answered, or the reason storage must answer it (call the same
/// [`Storage`] method with the same arguments).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome<T> {
    /// Served from memory.
    Served(T),
    /// Ask storage instead.
    Delegate(Delegate),
}

/// Why a read goes to storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delegate {
    /// A `continue` token: storage reads the rest at the token's revision.
    Continue,
    /// `resourceVersionMatch=Exact` at a revision the cache is not at.
    Exact,
    /// The cache has not listed yet (or lost its store while relisting).
    NotReady,
    /// A consistent read the cache could not catch up with in time.
    Stale,
    /// A GET without resourceVersion (upstream reads it from storage).
    Unversioned,
}

/// Where a watch starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchStart {
    /// The changes after this revision (`resourceVersion=N`); 0 means from now.
    After(i64),
    /// The objects as of `version` as ADDED events, then the changes after them
    /// (`resourceVersion` "0" or unset; `sendInitialEvents=true` with `end_marker`, which
    /// adds [`CacheEvent::InitialEventsEnd`] after the objects). `Latest` is consistent;
    /// `Exact` is refused.
    WithState {
        /// The revision the objects must be at least as new as.
        version: ReadVersion,
        /// Whether to mark the end of the initial objects.
        end_marker: bool,
    },
}

/// One WATCH request.
pub struct WatchOptions {
    /// A prefix inside the cached one (e.g. one namespace's).
    pub prefix: String,
    /// Where to start.
    pub start: WatchStart,
    /// The selectors; applied to the old and new state of every change.
    pub filter: Option<Box<Filter>>,
}

/// What the reflector publishes for readers that wait.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Progress {
    ready: bool,
    revision: i64,
}

/// Everything the reflector and the readers share.
struct Shared {
    prefix: String,
    storage: Storage,
    config: CacheConfig,
    state: RwLock<State>,
    progress: watch::Sender<Progress>,
    /// Readers waiting for a revision ask the reflector for a progress notification.
    wake: Arc<Notify>,
    /// Makes the reflector watch again from `restart_from` (tests).
    restart: Notify,
    restart_from: AtomicI64,
}

impl Shared {
    fn read(&self) -> RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, State> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
    }

    fn publish(&self, ready: bool, revision: i64) {
        self.progress.send_if_modified(|p| {
            let next = Progress { ready, revision };
            let changed = *p != next;
            *p = next;
            changed
        });
    }

    fn revision(&self) -> i64 {
        self.read().revision()
    }

    fn replace(&self, items: Vec<Stored>, revision: i64) {
        self.write().replace(items, revision);
        self.publish(true, revision);
    }

    fn unready(&self) {
        let mut state = self.write();
        state.unready();
        let revision = state.revision();
        drop(state);
        self.publish(false, revision);
    }

    fn apply(&self, change: WatchEvent) {
        let mut state = self.write();
        state.apply(change, Instant::now());
        let (ready, revision) = (state.ready(), state.revision());
        drop(state);
        self.publish(ready, revision);
    }

    /// Waits until the cache is ready at `revision` or later; the cache's revision when
    /// it did not get there in time.
    async fn caught_up(&self, revision: i64) -> Result<(), i64> {
        let deadline = tokio::time::Instant::now() + self.config.fresh_timeout;
        let mut rx = self.progress.subscribe();
        loop {
            let now = *rx.borrow_and_update();
            if now.ready && now.revision >= revision {
                return Ok(());
            }
            if now.ready {
                self.wake.notify_one();
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() {
                return Err(now.revision);
            }
            let _ = tokio::time::timeout(left.min(PROGRESS_POLL), rx.changed()).await;
        }
    }
}

/// Whether the cache can serve a read now.
enum Freshness {
    Fresh,
    NotReady,
    /// It did not reach `requested` in time.
    Behind {
        requested: i64,
        current: i64,
        consistent: bool,
    },
}

/// Stops the reflector when the last handle goes.
struct Reflector(tokio::task::JoinHandle<()>);

impl Drop for Reflector {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The watch cache of one resource prefix (cheap to clone; the reflector stops when the
/// last clone is dropped, and running watches then end).
#[derive(Clone)]
pub struct Cacher {
    shared: Arc<Shared>,
    _reflector: Arc<Reflector>,
}

impl std::fmt::Debug for Cacher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cacher")
            .field("prefix", &self.shared.prefix)
            .field("revision", &self.revision())
            .finish()
    }
}

/// `apiserver_storage_objects{resource}`: how many objects of the cached resource there
/// are, read from the cache at each scrape (upstream counts in etcd once a minute); -1
/// while the cache has not listed, as upstream reports a failed count.
fn objects_gauge(shared: &Arc<Shared>) {
    use std::sync::OnceLock;
    static GAUGE: OnceLock<prometheus::IntGaugeVec> = OnceLock::new();
    let gauge = GAUGE.get_or_init(|| {
        let opts = prometheus::Opts::new(
            "apiserver_storage_objects",
            crate::metrics::help(
                crate::metrics::Stability::Stable,
                "Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.",
            ),
        );
        // A fixed name and label: this cannot fail.
        crate::metrics::register(
            prometheus::IntGaugeVec::new(opts, &["resource"]).expect("apiserver_storage_objects"),
        )
    });
    let kind = shared.storage.kind().to_owned();
    if kind.is_empty() {
        return;
    }
    let weak = Arc::downgrade(shared);
    crate::metrics::on_scrape(move || match weak.upgrade() {
        Some(shared) => {
            let state = shared.read();
            let count = if state.ready() {
                state.len() as i64
            } else {
                -1
            };
            gauge.with_label_values(&[&kind]).set(count);
            true
        }
        // The resource is gone (a deleted CRD): so is its series, unless a new cache of
        // the same resource, later in the hooks, sets it again.
        None => {
            let _ = gauge.remove_label_values(&[&kind]);
            false
        }
    });
}

impl Cacher {
    /// Starts caching everything under `prefix` (as [`Storage::list_prefix`] gives it; a
    /// missing trailing `/` is added). Needs a tokio runtime; returns at once, the cache
    /// becomes ready after its first list.
    pub fn new(storage: Storage, prefix: &str, config: CacheConfig) -> Cacher {
        let mut prefix = prefix.to_owned();
        if !prefix.ends_with('/') {
            prefix.push('/');
        }
        let limits = WindowLimits {
            min: config.min_events,
            max: config.max_events,
            fresh: config.event_fresh,
            lag: config.watcher_lag,
        };
        let shared = Arc::new(Shared {
            prefix,
            storage,
            config,
            state: RwLock::new(State::new(limits)),
            progress: watch::channel(Progress::default()).0,
            wake: Arc::new(Notify::new()),
            restart: Notify::new(),
            restart_from: AtomicI64::new(0),
        });
        objects_gauge(&shared);
        let task = tokio::spawn(reflector::run(shared.clone()));
        Cacher {
            shared,
            _reflector: Arc::new(Reflector(task)),
        }
    }

    /// The cached prefix.
    pub fn prefix(&self) -> &str {
        &self.shared.prefix
    }

    /// The revision the cache has reached.
    pub fn revision(&self) -> i64 {
        self.shared.revision()
    }

    /// Whether the cache has listed and serves.
    pub fn is_ready(&self) -> bool {
        self.shared.read().ready()
    }

    /// How many objects are cached.
    pub fn len(&self) -> usize {
        self.shared.read().len()
    }

    /// Whether no object is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Waits up to `timeout` for the cache to be ready; whether it is.
    pub async fn wait_ready(&self, timeout: Duration) -> bool {
        let mut rx = self.shared.progress.subscribe();
        tokio::time::timeout(timeout, rx.wait_for(|p| p.ready))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    fn check_prefix(&self, prefix: &str) -> Result<(), StorageError> {
        if prefix.starts_with(&self.shared.prefix) {
            return Ok(());
        }
        Err(StorageError::Internal(format!(
            "{prefix:?} is outside the watch cache of {:?}",
            self.shared.prefix
        )))
    }

    /// Waits until the cache can serve a read at `version`.
    async fn freshness(&self, version: ReadVersion) -> Result<Freshness, StorageError> {
        if !self.is_ready() {
            return Ok(Freshness::NotReady);
        }
        let (requested, consistent) = match version {
            ReadVersion::Any | ReadVersion::Exact(_) => return Ok(Freshness::Fresh),
            ReadVersion::NotOlderThan(rev) => (rev, false),
            ReadVersion::Latest => (self.shared.storage.current_revision().await?, true),
        };
        Ok(match self.shared.caught_up(requested).await {
            Ok(()) => Freshness::Fresh,
            Err(current) => Freshness::Behind {
                requested,
                current,
                consistent,
            },
        })
    }

    /// [`Self::freshness`] for a read that storage can answer instead.
    async fn fresh_or_delegate(
        &self,
        version: ReadVersion,
    ) -> Result<Option<Delegate>, StorageError> {
        match self.freshness(version).await? {
            Freshness::Fresh => Ok(None),
            Freshness::NotReady => Ok(Some(Delegate::NotReady)),
            // Upstream falls back to etcd when a consistent read times out.
            Freshness::Behind {
                consistent: true, ..
            } => Ok(Some(Delegate::Stale)),
            Freshness::Behind {
                requested, current, ..
            } => Err(StorageError::TooLargeResourceVersion { requested, current }),
        }
    }

    /// LIST from the cache, with the arguments of [`Storage::list`].
    pub async fn list(
        &self,
        prefix: &str,
        version: ReadVersion,
        opts: &ListOptions,
        filter: Option<&Filter>,
    ) -> Result<Outcome<ListPage>, StorageError> {
        self.check_prefix(prefix)?;
        if opts.continue_token.is_some() {
            return Ok(Outcome::Delegate(Delegate::Continue));
        }
        if let Some(d) = self.fresh_or_delegate(version).await? {
            return Ok(Outcome::Delegate(d));
        }
        // Upstream ignores the limit of a resourceVersion="0" list.
        let limit = match version {
            ReadVersion::Any => 0,
            _ => opts.limit.max(0),
        };
        let state = self.shared.read();
        match version {
            _ if !state.ready() => Ok(Outcome::Delegate(Delegate::NotReady)),
            ReadVersion::Exact(rev) if rev != state.revision() => {
                Ok(Outcome::Delegate(Delegate::Exact))
            }
            _ => Ok(Outcome::Served(state.page(prefix, limit, filter))),
        }
    }

    /// LIST as [`Cacher::list`], giving the cached objects themselves, so a caller can use
    /// their shared encodings instead of copying and re-serializing each object.
    pub async fn list_objects(
        &self,
        prefix: &str,
        version: ReadVersion,
        opts: &ListOptions,
        filter: Option<&Filter>,
    ) -> Result<Outcome<ObjectPage>, StorageError> {
        self.check_prefix(prefix)?;
        if opts.continue_token.is_some() {
            return Ok(Outcome::Delegate(Delegate::Continue));
        }
        if let Some(d) = self.fresh_or_delegate(version).await? {
            return Ok(Outcome::Delegate(d));
        }
        let limit = match version {
            ReadVersion::Any => 0,
            _ => opts.limit.max(0),
        };
        let state = self.shared.read();
        match version {
            _ if !state.ready() => Ok(Outcome::Delegate(Delegate::NotReady)),
            ReadVersion::Exact(rev) if rev != state.revision() => {
                Ok(Outcome::Delegate(Delegate::Exact))
            }
            _ => Ok(Outcome::Served(state.page_objects(prefix, limit, filter))),
        }
    }

    /// GET from the cache, with the arguments of [`Storage::get`].
    pub async fn get(
        &self,
        key: &str,
        version: ReadVersion,
    ) -> Result<Outcome<Option<Stored>>, StorageError> {
        self.check_prefix(key)?;
        if version == ReadVersion::Latest {
            return Ok(Outcome::Delegate(Delegate::Unversioned));
        }
        if let Some(d) = self.fresh_or_delegate(version).await? {
            return Ok(Outcome::Delegate(d));
        }
        let state = self.shared.read();
        match version {
            _ if !state.ready() => Ok(Outcome::Delegate(Delegate::NotReady)),
            ReadVersion::Exact(rev) if rev != state.revision() => {
                Ok(Outcome::Delegate(Delegate::Exact))
            }
            _ => Ok(Outcome::Served(state.get(key).map(|o| o.stored().clone()))),
        }
    }

    /// WATCH from the cache, as [`Storage::watch`]: the changes under `prefix` after
    /// `after` (0: from now). A revision older than the event window is reported by the
    /// first [`CacheWatch::next`], as storage reports a compacted one.
    pub async fn watch(&self, prefix: &str, after: i64) -> Result<CacheWatch, StorageError> {
        self.watch_with(WatchOptions {
            prefix: prefix.to_owned(),
            start: WatchStart::After(after),
            filter: None,
        })
        .await
    }

    /// WATCH with a start state and selectors. Fails before any event when the cache is
    /// not ready in time ([`StorageError::Unavailable`], upstream's "storage is
    /// (re)initializing") or cannot reach the asked revision (`TooLargeResourceVersion`).
    pub async fn watch_with(&self, req: WatchOptions) -> Result<CacheWatch, StorageError> {
        self.check_prefix(&req.prefix)?;
        let wake = self.shared.wake.clone();
        if !self.wait_ready(self.shared.config.fresh_timeout).await {
            return Err(StorageError::Unavailable(
                "storage is (re)initializing".into(),
            ));
        }
        match req.start {
            WatchStart::After(after) => {
                let state = self.shared.read();
                let after = if after <= 0 { state.revision() } else { after };
                Ok(match state.subscribe_after(&req.prefix, after) {
                    Ok((replay, live)) => CacheWatch::new(
                        &req.prefix,
                        req.filter,
                        replay.into_iter().map(Replay::Event).collect(),
                        live,
                        after,
                        wake,
                    ),
                    Err(e) => CacheWatch::failed(&req.prefix, e, wake),
                })
            }
            WatchStart::WithState {
                version,
                end_marker,
            } => {
                if let ReadVersion::Exact(_) = version {
                    return Err(StorageError::Internal(
                        "a watch with initial events needs resourceVersionMatch=NotOlderThan"
                            .into(),
                    ));
                }
                match self.freshness(version).await? {
                    Freshness::Fresh => {}
                    Freshness::NotReady => {
                        return Err(StorageError::Unavailable(
                            "storage is (re)initializing".into(),
                        ))
                    }
                    Freshness::Behind {
                        requested, current, ..
                    } => return Err(StorageError::TooLargeResourceVersion { requested, current }),
                }
                let state = self.shared.read();
                let (objects, revision, live) =
                    state.subscribe_with_state(&req.prefix, req.filter.as_deref());
                drop(state);
                let mut replay: VecDeque<Replay> =
                    objects.into_iter().map(Replay::Object).collect();
                if end_marker {
                    replay.push_back(Replay::End(revision));
                }
                Ok(CacheWatch::new(
                    &req.prefix,
                    req.filter,
                    replay,
                    live,
                    revision,
                    wake,
                ))
            }
        }
    }

    /// Makes the reflector drop its watch and watch again from `revision`, as after a
    /// lost connection (tests of the compaction path).
    #[cfg(test)]
    fn rewatch_from(&self, revision: i64) {
        self.shared
            .restart_from
            .store(revision, std::sync::atomic::Ordering::Relaxed);
        self.shared.restart.notify_one();
    }
}

#[cfg(test)]
mod tests;
