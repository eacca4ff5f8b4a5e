//! Keeping objects of the cluster in memory from storage, as upstream's components read
//! informers: list every followed resource, then follow one etcd watch per resource
//! from the listing's revision; a watch that ends (the store was replaced by a reload,
//! or restarted) is resumed from the last revision it delivered, and only when that
//! fails (history compacted, storage down) is everything listed again. What the objects
//! become (RBAC's compiled policy, the Node authorizer's graph, admission webhooks and
//! policies, service addresses) is the [`Follower`]'s business; a request never reads
//! storage for them.

use std::sync::{Arc, Weak};
use std::time::Duration;

use crate::storage::{ListOptions, ReadVersion, Storage, StorageConfig, StorageError, WatchEvent};
use futures_util::stream::{self, SelectAll, StreamExt};
use serde_json::Value;
use tokio::sync::{watch, Notify};

use crate::retry::Retry;

/// The longest wait before listing again after storage failed (the first is 10 ms: at
/// start the store may be a moment behind).
const RETRY: Duration = Duration::from_secs(1);

/// How long a watch that ended is tried again before everything is listed again.
const RESUME_FOR: Duration = Duration::from_secs(3);

/// What a cache does with the objects it follows.
pub trait Follower: Send + Sync + 'static {
    /// For logs: what is being followed.
    const WHAT: &'static str;

    /// The storage paths of the followed resources (`pods`, `clusterroles`, …); events
    /// name a resource by its index here.
    fn resources(&self) -> &'static [&'static str];

    /// A fresh listing: `listed[i]` holds every object of resource `i` as (key relative
    /// to the resource's prefix, object). Replaces everything known before.
    fn reset(&self, listed: Vec<Vec<(String, Value)>>);

    /// Object `key` (relative to the prefix) of resource `resource` was created or
    /// changed (`Some`), or deleted (`None`).
    fn apply(&self, resource: usize, key: &str, object: Option<Value>);
}

/// How many times the follower has listed everything (0: not yet).
#[derive(Debug, Clone)]
pub struct Synced(watch::Receiver<u64>);

impl Synced {
    /// A count at zero, and what counts (given to [`start`]).
    pub fn new() -> (Synced, watch::Sender<u64>) {
        let (tx, rx) = watch::channel(0);
        (Synced(rx), tx)
    }

    /// Waits until the objects have been listed once.
    pub async fn wait(&self) {
        self.wait_past(0).await;
    }

    /// The listings so far.
    pub fn listings(&self) -> u64 {
        *self.0.borrow()
    }

    /// Waits until a listing after the `n`th is done.
    pub async fn wait_past(&self, n: u64) {
        let mut rx = self.0.clone();
        let _ = rx.wait_for(|s| *s > n).await;
    }
}

/// Starts following storage for `follower` (retrying until storage answers), counting
/// each complete listing in `synced`; `relist` makes it list everything again at once.
/// Ends when the follower is dropped.
pub fn start<F: Follower>(
    follower: &Arc<F>,
    config: StorageConfig,
    synced: watch::Sender<u64>,
    relist: Arc<Notify>,
) {
    let follower = Arc::downgrade(follower);
    tokio::spawn(async move {
        let mut retry = Retry::up_to(RETRY);
        let storage = loop {
            match Storage::new(&config).await {
                Ok(s) => break s,
                Err(e) => {
                    if follower.upgrade().is_none() {
                        return;
                    }
                    tracing::debug!(error = %e, "{} cache: storage not reachable yet", F::WHAT);
                    retry.wait().await;
                }
            }
        };
        run(follower, storage, synced, relist).await;
    });
}

/// [`start`] for a caller that already holds a [`Storage`] client (one of a worker's
/// REST stores), so no second client is made.
pub fn start_on<F: Follower>(
    follower: &Arc<F>,
    storage: Storage,
    synced: watch::Sender<u64>,
    relist: Arc<Notify>,
) {
    tokio::spawn(run(Arc::downgrade(follower), storage, synced, relist));
}

async fn run<F: Follower>(
    follower: Weak<F>,
    storage: Storage,
    synced: watch::Sender<u64>,
    relist: Arc<Notify>,
) {
    let mut retry = Retry::up_to(RETRY);
    loop {
        let outcome = follow(&follower, &storage, &synced, &relist).await;
        if follower.upgrade().is_none() {
            return;
        }
        match outcome {
            // Asked to list again: at once.
            Ok(true) => {
                retry.reset();
                continue;
            }
            Ok(false) => retry.reset(),
            // Before the first listing the store may still be starting: not worth a warning.
            Err(e) if *synced.borrow() == 0 => {
                tracing::debug!(error = %e, "{} cache: storage not ready yet", F::WHAT)
            }
            Err(e) => tracing::warn!(error = %e, "{} cache: listing again", F::WHAT),
        }
        retry.wait().await;
    }
}

fn parse(value: &[u8]) -> Option<Value> {
    serde_json::from_slice(value).ok()
}

/// Resumes a watch that ended after revision `after`. The store may be a moment away (a
/// hand-over has just closed the connection the watch ran on, and the client connects
/// again on demand), so an unavailable store is asked again for up to [`RESUME_FOR`]
/// before the caller gives up and lists everything again.
async fn resume(
    storage: &Storage,
    prefix: &str,
    after: i64,
) -> Result<crate::storage::Watch, StorageError> {
    let deadline = tokio::time::Instant::now() + RESUME_FOR;
    let mut retry = Retry::new(Duration::from_millis(10), Duration::from_millis(500));
    loop {
        match storage.watch(prefix, after).await {
            Err(StorageError::Unavailable(e)) if tokio::time::Instant::now() < deadline => {
                tracing::debug!(prefix, revision = after, error = %e, "watch not resumed yet; retrying");
                retry.wait().await;
            }
            resumed => return resumed,
        }
    }
}

/// One resource's watch as a stream of `(resource index, event)` that ends after it
/// yields an error or the watch's end (so the resource can be resumed on its own).
fn events_of(i: usize, w: crate::storage::Watch) -> ResourceEvents {
    Box::pin(stream::unfold(Some(w), move |w| async move {
        let mut w = w?;
        let event = w.next().await;
        let more = matches!(event, Ok(Some(_)));
        Some(((i, event), more.then_some(w)))
    }))
}

/// One resource's events, tagged with its index.
type ResourceEvents = std::pin::Pin<
    Box<dyn futures_util::Stream<Item = (usize, Result<Option<WatchEvent>, StorageError>)> + Send>,
>;

type Events = SelectAll<ResourceEvents>;

/// Lists, then follows the watches; `Ok(true)` when asked to list again.
async fn follow<F: Follower>(
    follower: &Weak<F>,
    storage: &Storage,
    synced: &watch::Sender<u64>,
    relist: &Notify,
) -> Result<bool, StorageError> {
    let Some(resources) = follower.upgrade().map(|f| f.resources()) else {
        return Ok(false);
    };
    let mut listed = Vec::with_capacity(resources.len());
    let mut prefixes = Vec::with_capacity(resources.len());
    // The last revision each watch delivered: where it resumes.
    let mut after = Vec::with_capacity(resources.len());
    let mut events: Events = SelectAll::new();
    for (i, resource) in resources.iter().enumerate() {
        let prefix = storage.list_prefix(resource, None);
        // Counted in the etcd metrics under the key path, the follower's only name for it.
        let page = storage
            .for_kind(resource)
            .list(&prefix, ReadVersion::Latest, &ListOptions::default(), None)
            .await?;
        let objects = page
            .items
            .iter()
            .filter_map(|item| {
                let key = item.key.strip_prefix(&prefix)?;
                Some((key.to_owned(), parse(&item.value)?))
            })
            .collect();
        listed.push(objects);
        let w = storage.watch(&prefix, page.revision).await?;
        events.push(events_of(i, w));
        prefixes.push(prefix);
        after.push(page.revision);
    }
    let Some(f) = follower.upgrade() else {
        return Ok(false);
    };
    f.reset(listed);
    drop(f);
    synced.send_modify(|n| *n += 1);
    loop {
        let next = tokio::select! {
            next = events.next() => next,
            () = relist.notified() => return Ok(true),
        };
        let Some((i, event)) = next else {
            return Ok(false);
        };
        let event = match event {
            Ok(Some(event)) => event,
            // The stream ended or broke: resumed where it was. Anything else (compacted
            // history, an object that cannot be read) lists again, as does a failure to
            // resume.
            Err(e) if !matches!(e, StorageError::Unavailable(_)) => return Err(e),
            ended => {
                let why = ended.err().map(|e| e.to_string());
                tracing::debug!(prefix = %prefixes[i], revision = after[i], error = ?why, "{} cache: watch ended; resuming", F::WHAT);
                let w = resume(storage, &prefixes[i], after[i]).await?;
                events.push(events_of(i, w));
                continue;
            }
        };
        let (key, object) = match event {
            WatchEvent::Added(o) | WatchEvent::Modified(o) => {
                after[i] = o.revision;
                let object = parse(&o.value);
                if object.is_none() {
                    continue;
                }
                (o.key, object)
            }
            WatchEvent::Deleted(o) => {
                after[i] = o.revision;
                (o.key, None)
            }
            WatchEvent::Progress(revision) => {
                after[i] = after[i].max(revision);
                continue;
            }
        };
        let Some(key) = key.strip_prefix(&prefixes[i]) else {
            continue;
        };
        let Some(f) = follower.upgrade() else {
            return Ok(false);
        };
        f.apply(i, key, object);
    }
}

#[cfg(test)]
#[path = "follow_tests.rs"]
mod tests;
