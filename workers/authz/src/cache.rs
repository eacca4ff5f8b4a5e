//! The RBAC objects of the cluster in memory, kept current by one etcd watch per kind
//! (Role, ClusterRole, RoleBinding, ClusterRoleBinding; see [`follow`](kas_server::follow)),
//! as upstream's RBAC authorizer reads informers: a decision never reads storage. After
//! a change the next request sees a new [`Policy`], built once per change and shared.

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
    policy: RwLock<Arc<Policy>>,
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
            policy: RwLock::new(Arc::new(Policy::default())),
            objects: Mutex::default(),
            synced,
            relist: relist.clone(),
        });
        follow::start(&cache, config, tx, relist);
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

    fn publish(&self, objects: &[BTreeMap<String, Value>; 4]) {
        let items = |i: usize| objects[i].values().cloned().collect::<Vec<Value>>();
        let policy = Arc::new(Policy::new(items(0), items(1), items(2), items(3)));
        match self.policy.write() {
            Ok(mut p) => *p = policy,
            Err(e) => *e.into_inner() = policy,
        }
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
        self.publish(&objects);
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
        self.publish(&objects);
    }
}
