//! The RBAC objects of the cluster in memory, kept current by one etcd watch per kind
//! (Role, ClusterRole, RoleBinding, ClusterRoleBinding), as upstream's RBAC authorizer
//! reads informers: a decision never reads storage. After a change the next request sees
//! a new [`Policy`], built once per change and shared.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use kas_server::storage::{
    ListOptions, ReadVersion, Storage, StorageConfig, StorageError, WatchEvent,
};
use serde_json::Value;
use tokio::sync::watch;

use crate::Policy;

/// The storage paths of the four kinds, in [`Policy::new`]'s order.
const KINDS: [&str; 4] = [
    "roles",
    "clusterroles",
    "rolebindings",
    "clusterrolebindings",
];

/// How long to wait before listing again after storage failed.
const RETRY: Duration = Duration::from_secs(1);

/// The current policy, and whether it has been read once.
#[derive(Debug)]
pub struct PolicyCache {
    policy: RwLock<Arc<Policy>>,
    synced: watch::Receiver<bool>,
}

impl PolicyCache {
    /// Connects to the storage of `config` and starts listing and watching the RBAC
    /// objects (retrying until storage answers). Until then the policy is empty.
    pub fn start(config: StorageConfig) -> Arc<PolicyCache> {
        let (synced_tx, synced) = watch::channel(false);
        let cache = Arc::new(PolicyCache {
            policy: RwLock::new(Arc::new(Policy::default())),
            synced,
        });
        tokio::spawn(run(Arc::downgrade(&cache), config, synced_tx));
        cache
    }

    /// The policy as of the last change seen.
    pub fn policy(&self) -> Arc<Policy> {
        self.policy
            .read()
            .map(|p| p.clone())
            .unwrap_or_else(|e| e.into_inner().clone())
    }

    /// Waits until the objects have been listed once.
    pub async fn synced(&self) {
        let mut rx = self.synced.clone();
        let _ = rx.wait_for(|s| *s).await;
    }

    fn publish(&self, objects: &[BTreeMap<String, Value>; 4]) {
        let items = |i: usize| objects[i].values().cloned().collect::<Vec<Value>>();
        let policy = Arc::new(Policy::new(items(0), items(1), items(2), items(3)));
        match self.policy.write() {
            Ok(mut p) => *p = policy,
            Err(e) => *e.into_inner() = policy,
        }
    }
}

/// Connects, lists, then follows the watches until one fails, then lists again; ends
/// when the cache is dropped.
async fn run(
    cache: std::sync::Weak<PolicyCache>,
    config: StorageConfig,
    synced: watch::Sender<bool>,
) {
    let storage = loop {
        match Storage::new(&config).await {
            Ok(s) => break s,
            Err(e) => {
                if cache.upgrade().is_none() {
                    return;
                }
                tracing::debug!(error = %e, "RBAC cache: storage not reachable yet");
                tokio::time::sleep(RETRY).await;
            }
        }
    };
    loop {
        let outcome = follow(&cache, &storage, &synced).await;
        if cache.upgrade().is_none() {
            return;
        }
        if let Err(e) = outcome {
            tracing::warn!(error = %e, "RBAC cache: listing again");
        }
        tokio::time::sleep(RETRY).await;
    }
}

fn parse(value: &[u8]) -> Option<Value> {
    serde_json::from_slice(value).ok()
}

async fn follow(
    cache: &std::sync::Weak<PolicyCache>,
    storage: &Storage,
    synced: &watch::Sender<bool>,
) -> Result<(), StorageError> {
    let mut objects: [BTreeMap<String, Value>; 4] = Default::default();
    let mut watches = Vec::with_capacity(KINDS.len());
    for (i, kind) in KINDS.iter().enumerate() {
        let prefix = storage.list_prefix(kind, None);
        let page = storage
            .list(&prefix, ReadVersion::Latest, &ListOptions::default(), None)
            .await?;
        for item in &page.items {
            if let Some(v) = parse(&item.value) {
                objects[i].insert(item.key.clone(), v);
            }
        }
        watches.push(storage.watch(&prefix, page.revision).await?);
    }
    let Some(c) = cache.upgrade() else {
        return Ok(());
    };
    c.publish(&objects);
    drop(c);
    synced.send_replace(true);
    let [w0, w1, w2, w3] = &mut watches[..] else {
        return Ok(());
    };
    loop {
        let (i, event) = tokio::select! {
            e = w0.next() => (0, e),
            e = w1.next() => (1, e),
            e = w2.next() => (2, e),
            e = w3.next() => (3, e),
        };
        match event? {
            Some(WatchEvent::Added(o)) | Some(WatchEvent::Modified(o)) => {
                if let Some(v) = parse(&o.value) {
                    objects[i].insert(o.key, v);
                }
            }
            Some(WatchEvent::Deleted(o)) => {
                objects[i].remove(&o.key);
            }
            Some(WatchEvent::Progress(_)) => continue,
            None => return Ok(()),
        }
        let Some(c) = cache.upgrade() else {
            return Ok(());
        };
        c.publish(&objects);
    }
}
