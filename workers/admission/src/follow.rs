//! One resource followed from storage, as the dynamic plugins keep their configuration
//! objects (webhook configurations, policies and bindings): list it, follow one etcd
//! watch from the listing's revision, and list again when the watch fails.

use std::sync::{Arc, Weak};
use std::time::Duration;

use kas_server::storage::{ListOptions, ReadVersion, Storage, StorageError, WatchEvent};
use serde_json::Value;
use tokio::sync::watch;

/// How long to wait before listing again after storage failed.
const RETRY: Duration = Duration::from_secs(1);

/// What keeps the followed objects.
pub(crate) trait Follower: Send + Sync + 'static {
    /// A fresh listing of `resource`: replaces everything known of it.
    fn reset(&self, resource: &str, objects: Vec<Value>);

    /// Object `name` of `resource` was created or changed (`Some`), or deleted (`None`).
    fn apply(&self, resource: &str, name: &str, object: Option<Value>);
}

/// Follows `resource` for `follower` until it is dropped, setting `synced` once listed;
/// `what` names the objects in logs.
pub(crate) fn start<F: Follower>(
    follower: &Arc<F>,
    resource: &'static str,
    storage: Storage,
    synced: watch::Sender<bool>,
    what: &'static str,
) {
    let follower = Arc::downgrade(follower);
    tokio::spawn(async move {
        loop {
            let outcome = follow(&follower, resource, &storage, &synced).await;
            if follower.upgrade().is_none() {
                return;
            }
            if let Err(e) = outcome {
                tracing::warn!(error = %e, resource, "{what}: listing again");
            }
            tokio::time::sleep(RETRY).await;
        }
    });
}

async fn follow<F: Follower>(
    follower: &Weak<F>,
    resource: &'static str,
    storage: &Storage,
    synced: &watch::Sender<bool>,
) -> Result<(), StorageError> {
    let prefix = storage.list_prefix(resource, None);
    let page = storage
        .list(&prefix, ReadVersion::Latest, &ListOptions::default(), None)
        .await?;
    let objects = page
        .items
        .iter()
        .filter_map(|o| serde_json::from_slice::<Value>(&o.value).ok())
        .collect();
    let mut w = storage.watch(&prefix, page.revision).await?;
    match follower.upgrade() {
        Some(f) => f.reset(resource, objects),
        None => return Ok(()),
    }
    synced.send_replace(true);
    loop {
        let (key, object) = match w.next().await? {
            Some(WatchEvent::Added(o)) | Some(WatchEvent::Modified(o)) => {
                match serde_json::from_slice::<Value>(&o.value) {
                    Ok(v) => (o.key, Some(v)),
                    Err(_) => continue,
                }
            }
            Some(WatchEvent::Deleted(o)) => (o.key, None),
            Some(WatchEvent::Progress(_)) => continue,
            None => return Ok(()),
        };
        let Some(name) = key.strip_prefix(&prefix) else {
            continue;
        };
        let Some(f) = follower.upgrade() else {
            return Ok(());
        };
        f.apply(resource, name.trim_start_matches('/'), object);
    }
}
