//! The FlowSchemas' `Dangling` condition, kept as upstream's configuration controller
//! keeps it (server-side apply of the status, as field manager
//! `api-priority-and-fairness-config-consumer-v1`): `True` with reason `NotFound` when
//! the schema names a PriorityLevelConfiguration that does not exist (the schema is then
//! ignored), else `False` with reason `Found`. `kubectl get flowschemas` shows it as
//! MISSINGPL.

use std::future::Future;
use std::sync::{Arc, Weak};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::Notify;

use super::Apf;

pub(crate) const FIELD_MANAGER: &str = "api-priority-and-fairness-config-consumer-v1";

/// How long to wait before writing again after a write failed (kube-api down).
const RETRY: Duration = Duration::from_secs(1);

impl Apf {
    /// The status applies the schemas read so far need: (name, apply body).
    pub(crate) fn status_updates(&self) -> Vec<(String, Value)> {
        let objects = self.objects.lock().unwrap_or_else(|e| e.into_inner());
        // Put in force from these objects (under the same lock) by `publish`.
        let snapshot = self.snapshot();
        let levels = &snapshot.found;
        let mut updates = Vec::new();
        for schema in objects[0].values() {
            let name = schema.pointer("/metadata/name").and_then(Value::as_str);
            let level = schema
                .pointer("/spec/priorityLevelConfiguration/name")
                .and_then(Value::as_str);
            let (Some(name), Some(level)) = (name, level) else {
                continue;
            };
            let (status, reason, message) = if levels.contains(level) {
                ("False", "Found", format!("This FlowSchema references the PriorityLevelConfiguration object named {level:?} and it exists"))
            } else {
                ("True", "NotFound", format!("This FlowSchema references the PriorityLevelConfiguration object named {level:?} but there is no such object"))
            };
            let current = schema
                .pointer("/status/conditions")
                .and_then(Value::as_array)
                .and_then(|c| c.iter().find(|c| c["type"] == "Dangling"));
            if current.is_some_and(|c| {
                c["status"] == status && c["reason"] == reason && c["message"] == message
            }) {
                continue;
            }
            let now = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
            updates.push((
                name.to_owned(),
                json!({
                    "apiVersion": "flowcontrol.apiserver.k8s.io/v1",
                    "kind": "FlowSchema",
                    "metadata": {"name": name},
                    "status": {"conditions": [{
                        "type": "Dangling",
                        "status": status,
                        "lastTransitionTime": now,
                        "reason": reason,
                        "message": message,
                    }]},
                }),
            ));
        }
        updates
    }
}

/// Writes the conditions whenever the configuration changes, with `write` (schema
/// name, apply body → written); retries while writes fail. Ends when the filter goes.
pub(crate) async fn keep<F, Fut>(apf: Weak<Apf>, changed: Arc<Notify>, write: F)
where
    F: Fn(String, Value) -> Fut,
    Fut: Future<Output = bool>,
{
    loop {
        changed.notified().await;
        let Some(updates) = apf.upgrade().map(|a| a.status_updates()) else {
            return;
        };
        let mut failed = false;
        for (name, body) in updates {
            if !write(name.clone(), body).await {
                tracing::debug!(schema = %name, "could not write a FlowSchema's status; retrying");
                failed = true;
            }
        }
        if failed {
            tokio::time::sleep(RETRY).await;
            changed.notify_one();
        }
    }
}
