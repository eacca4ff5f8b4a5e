//! The RBAC objects of the cluster in memory, kept current by one etcd watch per kind
//! (Role, ClusterRole, RoleBinding, ClusterRoleBinding; see [`follow`](kas_server::follow)),
//! as upstream's RBAC authorizer reads informers: a decision never reads storage. After
//! changes the next decision builds a new [`Policy`] once and shares it: a burst of
//! changes (the bootstrap policy written at a first start, a relisting) costs one build,
//! not one per object.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, RwLock};

use kas_server::storage::StorageConfig;
use serde_json::Value;

use crate::Policy;
use kas_server::follow::{self, Follower, Synced};

/// The storage paths of the four kinds, in [`Policy::new`]'s order.
const KINDS: [&str; 4] = [
    "roles",
    "clusterroles",
    "rolebindings",
    "clusterrolebindings",
];

/// The current policy, and whether it has been read once.
#[derive(Debug)]
pub struct PolicyCache {
    /// The policy built from `objects`; `None` after a change until a decision needs it.
    /// Taken after `objects` when both are held.
    policy: RwLock<Option<Arc<Policy>>>,
    /// The objects of each kind by key, what the policy is built from.
    objects: Mutex<[BTreeMap<String, Value>; 4]>,
    synced: Synced,
    relist: Arc<tokio::sync::Notify>,
}

impl PolicyCache {
    /// Connects to the storage of `config` and starts listing and watching the RBAC
    /// objects (retrying until storage answers). Until then the policy is empty.
    pub fn start(config: StorageConfig) -> Arc<PolicyCache> {
        let (synced, tx) = Synced::new();
        let relist = Arc::new(tokio::sync::Notify::new());
        let cache = Arc::new(PolicyCache {
            policy: RwLock::new(Some(Arc::new(Policy::default()))),
            objects: Mutex::default(),
            synced,
            relist: relist.clone(),
        });
        follow::start(&cache, config, tx, relist);
        cache
    }

    /// The policy as of the last change seen, built now if a change came since the last
    /// build.
    pub fn policy(&self) -> Arc<Policy> {
        let built = self
            .policy
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some(p) = built {
            return p;
        }
        let objects = self.objects.lock().unwrap_or_else(|e| e.into_inner());
        let mut slot = self.policy.write().unwrap_or_else(|e| e.into_inner());
        // Another decision may have built it while this one waited for the lock.
        if let Some(p) = slot.as_ref() {
            return p.clone();
        }
        let items = |i: usize| objects[i].values().cloned().collect::<Vec<Value>>();
        let policy = Arc::new(Policy::new(items(0), items(1), items(2), items(3)));
        *slot = Some(policy.clone());
        policy
    }

    /// Waits until the objects have been listed once.
    pub async fn synced(&self) {
        self.synced.wait().await;
    }

    /// Lists the objects again and waits until that listing is in force: what was
    /// written before the call is then decided over, whatever the watch has delivered.
    pub async fn relist(&self) {
        // A first listing under way may have read before the call: the one the request
        // causes after it is waited for then.
        let done = self.synced.listings().max(1);
        self.relist.notify_one();
        self.synced.wait_past(done).await;
    }

    /// Drops the built policy after a change to `objects` (whose lock the caller holds).
    fn changed(&self) {
        *self.policy.write().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

impl Follower for PolicyCache {
    const WHAT: &'static str = "RBAC";

    fn resources(&self) -> &'static [&'static str] {
        &KINDS
    }

    fn reset(&self, listed: Vec<Vec<(String, Value)>>) {
        let mut objects = self.objects.lock().unwrap_or_else(|e| e.into_inner());
        for (i, items) in listed.into_iter().enumerate().take(KINDS.len()) {
            objects[i] = items.into_iter().collect();
        }
        self.changed();
    }

    fn apply(&self, resource: usize, key: &str, object: Option<Value>) {
        let mut objects = self.objects.lock().unwrap_or_else(|e| e.into_inner());
        let Some(kind) = objects.get_mut(resource) else {
            return;
        };
        match object {
            Some(v) => kind.insert(key.to_owned(), v),
            None => kind.remove(key),
        };
        self.changed();
    }
}
