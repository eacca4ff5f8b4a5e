//! The controllers upstream's apiextensions server runs, as one loop woken by every CRD
//! change: naming (`NamesAccepted`, conflicts inside a group), establishing
//! (`Established`), `NonStructuralSchema`, API approval for protected groups
//! (`KubernetesAPIApprovalPolicyConformant`), and the finalizer: deleting a CRD deletes
//! all its custom resources, then the CRD. Each pass also rebuilds what is served.
//!
//! Order matters to clients: a CRD is served, and the aggregator's merged discovery
//! shows it, before `Established` is written; its discovery is gone before the CRD is.
//! So a client that waits for `Established` (or for the CRD's deletion) and then reads
//! `/apis` always sees the change.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kas_server::control::Control;
use kas_server::health::HookHandle;
use kas_server::rest::{RestStore, WriteOptions};
use kas_server::status::{Reason, Status};
use serde_json::{json, Value};

use crate::crd::CLEANUP_FINALIZER;
use crate::registry::Registry;

const RETRY: Duration = Duration::from_millis(200);
const RESYNC: Duration = Duration::from_secs(5);
const MANAGER: &str = "kube-apiserver";

fn s<'a>(v: &'a Value, p: &str) -> &'a str {
    v.pointer(p).and_then(Value::as_str).unwrap_or("")
}

fn condition(kind: &str, status: bool, reason: &str, message: &str) -> Value {
    json!({"type": kind, "status": if status { "True" } else { "False" }, "reason": reason, "message": message})
}

fn protected_group(group: &str) -> bool {
    group == "k8s.io"
        || group.ends_with(".k8s.io")
        || group == "kubernetes.io"
        || group.ends_with(".kubernetes.io")
}

/// The status conditions a CRD should have, given the CRDs that hold names before it.
fn desired(crd: &Value, all: &[Value]) -> (Vec<Value>, Value) {
    let group = s(crd, "/spec/group");
    let name = s(crd, "/metadata/name");
    let names = crd.pointer("/spec/names").cloned().unwrap_or(json!({}));
    let mut conflict = None;
    for other in all {
        if s(other, "/metadata/name") == name || s(other, "/spec/group") != group {
            continue;
        }
        // Names already accepted for another CRD win.
        let taken = other
            .pointer("/status/acceptedNames")
            .cloned()
            .unwrap_or(json!({}));
        if !s(&taken, "/plural").is_empty() && s(&taken, "/plural") == s(&names, "/plural") {
            conflict = Some((
                "PluralConflict",
                format!("\"{}\" is already in use", s(&names, "/plural")),
            ));
        } else if !s(&taken, "/kind").is_empty() && s(&taken, "/kind") == s(&names, "/kind") {
            conflict = Some((
                "KindConflict",
                format!("\"{}\" is already in use", s(&names, "/kind")),
            ));
        }
    }
    let mut conds = Vec::new();
    let accepted = match &conflict {
        None => {
            conds.push(condition(
                "NamesAccepted",
                true,
                "NoConflicts",
                "no conflicts found",
            ));
            conds.push(condition(
                "Established",
                true,
                "InitialNamesAccepted",
                "the initial names have been accepted",
            ));
            names.clone()
        }
        Some((reason, msg)) => {
            conds.push(condition("NamesAccepted", false, reason, msg));
            conds.push(condition(
                "Established",
                false,
                "NotAccepted",
                "not all names are accepted",
            ));
            crd.pointer("/status/acceptedNames")
                .cloned()
                .unwrap_or(json!({"kind": "", "plural": ""}))
        }
    };
    let mut non_structural = Vec::new();
    for (i, v) in crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        if let Some(schema) = v.pointer("/schema/openAPIV3Schema") {
            if let Err(errs) = kas_crd::Structural::from_json(schema) {
                let _ = i;
                non_structural.push(kas_crd::Structural::non_structural_message(&errs));
            }
        }
    }
    if !non_structural.is_empty() {
        conds.push(condition(
            "NonStructuralSchema",
            true,
            "Violations",
            &non_structural.join(", "),
        ));
    }
    if protected_group(group) {
        let approval = crd
            .pointer("/metadata/annotations/api-approved.kubernetes.io")
            .and_then(Value::as_str);
        conds.push(match approval {
            None => condition(
                "KubernetesAPIApprovalPolicyConformant",
                false,
                "MissingAnnotation",
                "protected groups must have approval annotation \"api-approved.kubernetes.io\", see https://github.com/kubernetes/enhancements/pull/1111",
            ),
            Some(a) if a.starts_with("unapproved") => condition(
                "KubernetesAPIApprovalPolicyConformant",
                false,
                "UnapprovedAnnotation",
                &format!("not approved: \"{a}\""),
            ),
            Some(a) => condition(
                "KubernetesAPIApprovalPolicyConformant",
                true,
                "ApprovedAnnotation",
                &format!("approved in {a}"),
            ),
        });
    }
    if crd.pointer("/metadata/deletionTimestamp").is_some() {
        conds.push(condition(
            "Terminating",
            true,
            "InstanceDeletionInProgress",
            "CustomResource deletion is in progress",
        ));
    }
    (conds, accepted)
}

/// The CRD's status with `conds` and `accepted`; transition times kept when unchanged.
fn with_status(crd: &Value, conds: Vec<Value>, accepted: Value, now: &str) -> Value {
    let old: Vec<Value> = crd
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let conds: Vec<Value> = conds
        .into_iter()
        .map(|mut c| {
            let prev = old.iter().find(|o| o["type"] == c["type"]);
            let time = match prev {
                Some(p) if p["status"] == c["status"] => p["lastTransitionTime"].clone(),
                _ => json!(now),
            };
            c["lastTransitionTime"] = time;
            c
        })
        .collect();
    let mut out = crd.clone();
    out["status"]["conditions"] = json!(conds);
    out["status"]["acceptedNames"] = accepted;
    out
}

/// Runs the controllers; `synced` completes after the first pass.
pub(crate) async fn run(
    crds: RestStore,
    registry: Arc<Registry>,
    control: Control,
    synced: HookHandle,
) {
    let mut synced = Some(synced);
    let cleaning: Arc<Mutex<HashSet<String>>> = Arc::default();
    let prefix = crds.storage().list_prefix(crds.resource().key_path, None);
    // At start the store may be a moment behind this worker: try again soon, then less
    // often.
    let mut retry = kas_server::retry::Retry::up_to(RETRY);
    loop {
        let watch = match crds.storage().current_revision().await {
            Ok(rev) => crds.storage().watch(&prefix, rev).await,
            Err(e) => Err(e),
        };
        match crds.list_objects("").await {
            Ok((mut all, _)) => {
                // Oldest first: they keep their names in a conflict.
                all.sort_by(|a, b| {
                    s(a, "/metadata/creationTimestamp").cmp(s(b, "/metadata/creationTimestamp"))
                });
                let now =
                    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
                let mut changed = false;
                let mut next: Vec<Value> = Vec::with_capacity(all.len());
                for i in 0..all.len() {
                    let (conds, accepted) = desired(&all[i], &next[..i]);
                    next.push(with_status(&all[i], conds, accepted, &now));
                }
                // Serve first, then say so.
                if registry.rebuild(&next) {
                    control.announce_api_change().await;
                }
                for (stored, next) in all.iter().zip(next) {
                    if next.get("status") == stored.get("status") {
                        continue;
                    }
                    let name = s(stored, "/metadata/name").to_owned();
                    if let Err(e) = crds
                        .update_object(
                            "",
                            &name,
                            "status",
                            next,
                            None,
                            &WriteOptions::server(MANAGER),
                        )
                        .await
                    {
                        tracing::debug!(crd = %name, error = %e.message, "could not update the CRD status");
                        changed = true;
                    }
                }
                if let Some(h) = synced.take() {
                    h.done();
                }
                for crd in &all {
                    let deleting = crd.pointer("/metadata/deletionTimestamp").is_some();
                    let held = crd
                        .pointer("/metadata/finalizers")
                        .and_then(Value::as_array)
                        .is_some_and(|f| f.iter().any(|x| x == CLEANUP_FINALIZER));
                    let name = s(crd, "/metadata/name").to_owned();
                    if deleting && held {
                        let fresh = cleaning
                            .lock()
                            .map(|mut c| c.insert(name.clone()))
                            .unwrap_or(false);
                        if fresh {
                            let (crds, registry, cleaning, control) = (
                                crds.clone(),
                                registry.clone(),
                                cleaning.clone(),
                                control.clone(),
                            );
                            tokio::spawn(async move {
                                if let Err(e) = cleanup(&crds, &registry, &control, &name).await {
                                    tracing::debug!(crd = %name, error = %e.message, "CRD cleanup not finished");
                                }
                                if let Ok(mut c) = cleaning.lock() {
                                    c.remove(&name);
                                }
                            });
                        }
                    }
                }
                if changed {
                    tokio::time::sleep(RETRY).await;
                }
            }
            Err(e) => {
                tracing::debug!(error = %e.message, "listing CRDs failed");
                retry.wait().await;
                continue;
            }
        }
        match watch {
            Ok(mut w) => {
                retry.reset();
                let _ = tokio::time::timeout(RESYNC, w.next()).await;
            }
            Err(_) => retry.wait().await,
        }
    }
}

/// Deletes every custom resource of CRD `name`, then lets the CRD go.
async fn cleanup(
    crds: &RestStore,
    registry: &Registry,
    control: &Control,
    name: &str,
) -> Result<(), Status> {
    let opts = WriteOptions::server(MANAGER);
    // The storage version's store: its objects need no conversion, so a conversion
    // webhook that is gone does not keep the CRD from going.
    let stores = registry.stores_of(name);
    let store = stores
        .iter()
        .find(|s| s.resource().storage_version.is_empty())
        .or(stores.first());
    if let Some(store) = store {
        loop {
            let (items, _) = store.list_objects("").await?;
            if items.is_empty() {
                break;
            }
            for item in items {
                let ns = s(&item, "/metadata/namespace").to_owned();
                let n = s(&item, "/metadata/name").to_owned();
                match store.delete_object(&ns, &n, None, &opts).await {
                    Ok(_) => {}
                    Err(e) if e.reason == Reason::NotFound => {}
                    Err(e) => return Err(e),
                }
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let crd = crds.read_object("", name).await?;
    let mut next = crd.clone();
    let finalizers: Vec<Value> = crd
        .pointer("/metadata/finalizers")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|f| f != CLEANUP_FINALIZER)
        .collect();
    next["metadata"]["finalizers"] = json!(finalizers);
    // Stop serving before the CRD goes, so a client that sees it deleted gets 404 for
    // its resources; if the update fails, the next pass serves it again and retries.
    if registry.forget(name) {
        control.announce_api_change().await;
    }
    crds.update_object("", name, "", next, None, &opts).await?;
    Ok(())
}
