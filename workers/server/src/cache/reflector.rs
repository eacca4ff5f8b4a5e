//! The reflector: the one task per cached prefix that lists it, then watches it from the
//! list's revision, feeding every change into the cache. A lost watch resumes from the
//! cache's revision; a compacted one (the history it needs is gone) relists, which ends
//! every running watcher, as upstream's cacher does. It also asks the store for progress
//! notifications, periodically and whenever a reader waits for the cache to catch up.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::Shared;
use crate::storage::{ListOptions, ReadVersion, StorageError, Stored};

/// The longest wait between attempts at storage.
const MAX_RETRY: Duration = Duration::from_secs(2);

/// Why a watch of the store ended.
enum Ended {
    /// The history after the cache's revision is gone: relist.
    Compacted,
    /// A value that does not decrypt: relist, as upstream's cacher does after its watch
    /// ends with an error. The list fails too while the value is there, so the cache is
    /// not ready and reads go to storage, which answers them with the error.
    Unreadable(StorageError),
    /// The store went away or refused: watch again from the cache's revision.
    Lost(StorageError),
    /// Asked to watch again from this revision (tests).
    Restart(i64),
}

pub(super) async fn run(shared: Arc<Shared>) {
    let mut retry = crate::retry::Retry::up_to(MAX_RETRY);
    loop {
        let (items, revision) = match list_all(&shared).await {
            Ok(listed) => listed,
            Err(e) => {
                tracing::warn!(prefix = %shared.prefix, error = %e, "watch cache: list failed; retrying");
                shared.unready();
                retry.wait().await;
                continue;
            }
        };
        let mut from = revision;
        shared.replace(items, revision);
        retry.reset();
        tracing::debug!(prefix = %shared.prefix, revision = from, "watch cache: listed");
        loop {
            match watch_from(&shared, from).await {
                Ended::Compacted => {
                    tracing::info!(prefix = %shared.prefix, revision = shared.revision(),
                        "watch cache: history compacted; relisting");
                    break;
                }
                Ended::Unreadable(e) => {
                    tracing::warn!(prefix = %shared.prefix, error = %e, "watch cache: relisting");
                    break;
                }
                Ended::Lost(e) => {
                    tracing::warn!(prefix = %shared.prefix, error = %e, "watch cache: watch lost; resuming");
                    retry.wait().await;
                    from = shared.revision();
                }
                Ended::Restart(rev) => from = rev,
            }
        }
    }
}

/// Everything under the cache's prefix at one revision, read in pages
/// (`CacheConfig::list_page`).
async fn list_all(shared: &Shared) -> Result<(Vec<Stored>, i64), StorageError> {
    let mut opts = ListOptions {
        limit: shared.config.list_page,
        continue_token: None,
    };
    let mut items = Vec::new();
    loop {
        let page = shared
            .storage
            .list(&shared.prefix, ReadVersion::Latest, &opts, None)
            .await?;
        items.extend(page.items);
        match page.continue_token {
            Some(token) => opts.continue_token = Some(token),
            None => return Ok((items, page.revision)),
        }
    }
}

async fn watch_from(shared: &Shared, from: i64) -> Ended {
    let mut watch = match shared.storage.watch(&shared.prefix, from).await {
        Ok(w) => w,
        Err(StorageError::Compacted { .. }) => return Ended::Compacted,
        Err(e) => return Ended::Lost(e),
    };
    let mut tick = tokio::time::interval(shared.config.progress_interval);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        let ask = tokio::select! {
            ev = watch.next() => match ev {
                Ok(Some(ev)) => {
                    shared.apply(ev);
                    false
                }
                Ok(None) => return Ended::Lost(StorageError::Unavailable("the store ended the watch".into())),
                Err(StorageError::Compacted { .. }) => return Ended::Compacted,
                Err(e @ StorageError::Transform(_)) => return Ended::Unreadable(e),
                Err(e) => return Ended::Lost(e),
            },
            () = shared.wake.notified() => true,
            _ = tick.tick() => true,
            () = shared.restart.notified() => {
                return Ended::Restart(shared.restart_from.load(Ordering::Relaxed));
            }
        };
        if ask {
            if let Err(e) = watch.request_progress().await {
                return Ended::Lost(e);
            }
        }
    }
}
