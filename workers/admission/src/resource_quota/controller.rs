//! The quota controller (upstream's, in kube-controller-manager; with none beside this
//! server it runs in the kube-api worker): a quota's `status.hard` follows its
//! `spec.hard`, and `status.used` is counted from the objects in its namespace that it
//! covers — when the quota is created or its `spec.hard` changes, shortly after a delete
//! was admitted in its namespace, and every few seconds for everything (what admission
//! charged for a write that then failed is corrected so).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use kas_server::rest::{RestStore, WriteOptions};
use kas_server::storage::{ListOptions, ReadVersion, WatchEvent};
use serde_json::{json, Map, Value};
use tokio::sync::mpsc;

use super::{quota_matches, usage};
use crate::quantity::{Format, Quantity};

/// How often every quota is counted again.
const RESYNC: Duration = Duration::from_secs(10);
/// How long after a delete its namespace is counted again (a second look catches
/// objects that took a moment to go).
const REPLENISH_AFTER: [Duration; 2] = [Duration::from_millis(100), Duration::from_secs(1)];
/// How long to wait after storage failed.
const RETRY: Duration = Duration::from_millis(200);
const MANAGER: &str = "resourcequota-controller";

/// Where objects are counted from.
#[derive(Clone)]
pub struct Counted {
    /// The quotas.
    pub quotas: RestStore,
    /// The stores of the resources the worker serves (namespaced ones are used).
    pub stores: Vec<RestStore>,
}

/// The legacy resource names that count objects of a core resource.
fn legacy_resource(name: &str) -> Option<&'static str> {
    Some(match name {
        "pods" | "cpu" | "memory" | "ephemeral-storage" => "pods",
        n if n.starts_with("requests.") && n != "requests.storage" => "pods",
        n if n.starts_with("limits.") => "pods",
        "services" | "services.nodeports" | "services.loadbalancers" => "services",
        "persistentvolumeclaims" | "requests.storage" => "persistentvolumeclaims",
        n if n.contains(".storageclass.storage.k8s.io/") => "persistentvolumeclaims",
        "configmaps" => "configmaps",
        "secrets" => "secrets",
        "replicationcontrollers" => "replicationcontrollers",
        "resourcequotas" => "resourcequotas",
        _ => return None,
    })
}

/// The (group, plural) a quota's resource name is counted from.
fn counted_resource(name: &str) -> Option<(String, String)> {
    if let Some(rest) = name.strip_prefix("count/") {
        return Some(match rest.split_once('.') {
            Some((plural, group)) => (group.to_owned(), plural.to_owned()),
            None => (String::new(), rest.to_owned()),
        });
    }
    legacy_resource(name).map(|p| (String::new(), p.to_owned()))
}

/// Whether a changed quota must be counted now: its `spec.hard` moved away from
/// `status.hard`, or `status.used` lacks one of its resources (as upstream's controller,
/// which ignores status-only changes). Recounting on every charge admission makes would
/// race the charged write: a count taken between the charge and the object's create
/// misses that object and would hand its share out again.
fn needs_count(quota: &Value) -> bool {
    let hard = quota.pointer("/spec/hard").and_then(Value::as_object);
    let status_hard = quota.pointer("/status/hard").and_then(Value::as_object);
    if hard != status_hard {
        return true;
    }
    let used = quota.pointer("/status/used").and_then(Value::as_object);
    match (hard, used) {
        (Some(hard), Some(used)) => hard.keys().any(|k| !used.contains_key(k)),
        (Some(hard), None) => !hard.is_empty(),
        (None, _) => false,
    }
}

impl Counted {
    /// The objects of `group/plural` in `ns`: from the worker's store, else (custom
    /// resources, served elsewhere) straight from storage.
    async fn objects(&self, group: &str, plural: &str, ns: &str) -> Option<Vec<Value>> {
        let store = self.stores.iter().find(|s| {
            let r = s.resource();
            r.group == group && r.plural == plural && r.namespaced
        });
        if let Some(store) = store {
            return store.list_objects(ns).await.ok().map(|(items, _)| items);
        }
        let storage = self.quotas.storage();
        let prefix = storage.list_prefix(&format!("{group}/{plural}"), Some(ns));
        let page = storage
            .list(&prefix, ReadVersion::Latest, &ListOptions::default(), None)
            .await
            .ok()?;
        Some(
            page.items
                .iter()
                .filter_map(|i| serde_json::from_slice(&i.value).ok())
                .collect(),
        )
    }

    /// `status.used` of `quota`, counted; `None` when storage could not be read.
    async fn used(&self, quota: &Value, ns: &str) -> Option<Map<String, Value>> {
        let hard = quota
            .pointer("/spec/hard")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let resources: BTreeSet<(String, String)> =
            hard.keys().filter_map(|k| counted_resource(k)).collect();
        let mut totals: BTreeMap<String, Quantity> = hard
            .keys()
            .map(|k| (k.clone(), Quantity::zero(Format::DecimalSI)))
            .collect();
        for (group, plural) in resources {
            for obj in self.objects(&group, &plural, ns).await? {
                if !quota_matches(quota, &group, &plural, &obj) {
                    continue;
                }
                for (k, v) in usage(&group, &plural, &obj) {
                    if let Some(t) = totals.get_mut(&k) {
                        *t = *t + v;
                    }
                }
            }
        }
        Some(
            totals
                .into_iter()
                .map(|(k, v)| (k, json!(v.to_string())))
                .collect(),
        )
    }

    /// Counts one quota and writes its status when it changed.
    async fn sync(&self, quota: &Value) {
        let ns = quota
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or("");
        let name = quota
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        if ns.is_empty()
            || name.is_empty()
            || quota.pointer("/metadata/deletionTimestamp").is_some()
        {
            return;
        }
        let Some(used) = self.used(quota, ns).await else {
            return;
        };
        let hard = quota.pointer("/spec/hard").cloned().unwrap_or(json!({}));
        let status = json!({"hard": hard, "used": Value::Object(used)});
        if quota.get("status") == Some(&status) {
            return;
        }
        let mut update = quota.clone();
        update["status"] = status;
        let rv = quota
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .and_then(|r| r.parse::<i64>().ok());
        let opts = WriteOptions::server(MANAGER);
        if let Err(e) = self
            .quotas
            .update_object(ns, name, "status", update, rv, &opts)
            .await
        {
            // A conflict means someone charged it meanwhile: the next pass counts again.
            tracing::debug!(quota = %name, namespace = %ns, error = %e.message, "quota status not updated");
        }
    }

    async fn sync_namespace(&self, ns: &str) {
        if let Ok((quotas, _)) = self.quotas.list_objects(ns).await {
            for q in &quotas {
                self.sync(q).await;
            }
        }
    }

    /// Runs the controller for ever; `replenish` names namespaces where something was
    /// deleted.
    pub async fn run(self, mut replenish: mpsc::UnboundedReceiver<String>) {
        let prefix = self
            .quotas
            .storage()
            .list_prefix(self.quotas.resource().key_path, None);
        loop {
            let storage = self.quotas.storage();
            let watch = match storage.current_revision().await {
                Ok(rev) => storage.watch(&prefix, rev).await.ok(),
                Err(_) => None,
            };
            let Some(mut watch) = watch else {
                tokio::time::sleep(RETRY).await;
                continue;
            };
            self.sync_namespace("").await;
            let resync = tokio::time::sleep(RESYNC);
            tokio::pin!(resync);
            loop {
                tokio::select! {
                    event = watch.next() => match event {
                        Ok(Some(WatchEvent::Added(st))) => {
                            if let Ok(mut q) = serde_json::from_slice::<Value>(&st.value) {
                                q["metadata"]["resourceVersion"] = json!(st.revision.to_string());
                                self.sync(&q).await;
                            }
                        }
                        Ok(Some(WatchEvent::Modified(st))) => {
                            if let Ok(mut q) = serde_json::from_slice::<Value>(&st.value) {
                                if needs_count(&q) {
                                    q["metadata"]["resourceVersion"] = json!(st.revision.to_string());
                                    self.sync(&q).await;
                                }
                            }
                        }
                        Ok(Some(_)) => {}
                        _ => break,
                    },
                    Some(ns) = replenish.recv() => {
                        let me = self.clone();
                        tokio::spawn(async move {
                            for wait in REPLENISH_AFTER {
                                tokio::time::sleep(wait).await;
                                me.sync_namespace(&ns).await;
                            }
                        });
                    }
                    _ = &mut resync => break,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_names_to_what_is_counted() {
        let core = |p: &str| Some((String::new(), p.to_owned()));
        assert_eq!(counted_resource("pods"), core("pods"));
        assert_eq!(counted_resource("requests.cpu"), core("pods"));
        assert_eq!(
            counted_resource("requests.storage"),
            core("persistentvolumeclaims")
        );
        assert_eq!(counted_resource("services.nodeports"), core("services"));
        assert_eq!(
            counted_resource("count/deployments.apps"),
            Some(("apps".to_owned(), "deployments".to_owned()))
        );
        assert_eq!(counted_resource("count/configmaps"), core("configmaps"));
        assert_eq!(counted_resource("widgets"), None);
    }

    #[test]
    fn only_a_changed_spec_or_missing_usage_is_counted_again() {
        assert!(needs_count(&json!({"spec": {"hard": {"pods": "2"}}})));
        assert!(needs_count(&json!({
            "spec": {"hard": {"pods": "3"}},
            "status": {"hard": {"pods": "2"}, "used": {"pods": "1"}}
        })));
        assert!(needs_count(&json!({
            "spec": {"hard": {"pods": "2", "secrets": "1"}},
            "status": {"hard": {"pods": "2", "secrets": "1"}, "used": {"pods": "1"}}
        })));
        // A charge (used moved, hard the same) is not recounted.
        assert!(!needs_count(&json!({
            "spec": {"hard": {"pods": "2"}},
            "status": {"hard": {"pods": "2"}, "used": {"pods": "2"}}
        })));
        assert!(!needs_count(&json!({"spec": {}})));
    }
}
