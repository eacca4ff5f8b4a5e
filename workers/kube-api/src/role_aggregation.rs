//! The ClusterRole aggregation controller (upstream runs it in kube-controller-manager;
//! with none beside this server it runs here): every ClusterRole with an
//! `aggregationRule` holds the rules of the ClusterRoles its selectors match, rewritten
//! whenever any ClusterRole changes. `admin`, `edit` and `view` get their rules this way,
//! and so does every role that CRD authors label `aggregate-to-admin` and the like.

use std::time::Duration;

use kas_server::rest::{RestStore, WriteOptions};
use kas_server::status::Reason;
use serde_json::Value;

/// How long to wait before trying again after storage failed.
const RETRY: Duration = Duration::from_millis(200);
/// How often to look again with no event to wake the controller.
const RESYNC: Duration = Duration::from_secs(30);

/// Runs the controller over the `clusterroles` store, for ever.
pub(crate) async fn run(cluster_roles: RestStore) {
    let storage = cluster_roles.storage().clone();
    let prefix = storage.list_prefix(cluster_roles.resource().key_path, None);
    let opts = WriteOptions::server(kas_authz::AGGREGATION_MANAGER);
    loop {
        // Watch first, so a change between the list and the watch is not missed.
        let watch = match storage.current_revision().await {
            Ok(rev) => storage.watch(&prefix, rev).await,
            Err(e) => Err(e),
        };
        match cluster_roles.list_objects("").await {
            Ok((all, _)) => sync(&cluster_roles, &all, &opts).await,
            Err(e) => tracing::debug!(error = %e.message, "listing clusterroles failed"),
        }
        match watch {
            Ok(mut w) => {
                if matches!(tokio::time::timeout(RESYNC, w.next()).await, Ok(Err(_))) {
                    tokio::time::sleep(RETRY).await;
                }
            }
            Err(_) => tokio::time::sleep(RETRY).await,
        }
    }
}

/// Writes the aggregated rules of every aggregated ClusterRole whose stored rules differ.
async fn sync(store: &RestStore, all: &[Value], opts: &WriteOptions) {
    for role in all {
        let Some(rules) = kas_authz::aggregated_rules(all, role) else {
            continue;
        };
        let stored = role.get("rules").and_then(Value::as_array);
        if stored.map_or(rules.is_empty(), |s| *s == rules) {
            continue;
        }
        let name = role
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        let mut updated = role.clone();
        updated["rules"] = Value::Array(rules);
        let expected = kas_server::rest::revision_of(role);
        match store
            .update_object("", name, "", updated, expected, opts)
            .await
        {
            Ok(_) => tracing::debug!(clusterrole = %name, "aggregated rules written"),
            // A newer write or a deletion wins; the watch brings the next pass.
            Err(e) if matches!(e.reason, Reason::Conflict | Reason::NotFound) => {}
            Err(e) => {
                tracing::info!(clusterrole = %name, error = %e.message, "could not write aggregated rules")
            }
        }
    }
}
