//! NamespaceLifecycle, as kube-apiserver's: `default`, `kube-system` and `kube-public`
//! may not be deleted; objects may be created or updated only in a namespace that
//! exists, and not created in one being terminated. The namespace is looked up in the
//! worker's watch cache first and, when the cache has not seen it (or it was deleted a
//! moment ago and the cache may be behind), in storage.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::{HookFuture, RestStore};
use kas_server::status::{Status, StatusCause, StatusDetails};
use serde_json::Value;

/// The namespaces that may not be deleted (upstream's immortal namespaces).
const IMMORTAL: [&str; 3] = ["default", "kube-system", "kube-public"];
/// How long a namespace just deleted is looked up in storage, not the cache.
const FORCE_LIVE_LOOKUP: Duration = Duration::from_secs(30);
/// The most namespaces remembered as just deleted.
const FORCE_LIVE_MAX: usize = 100;

/// The NamespaceLifecycle plugin.
pub struct NamespaceLifecycle {
    namespaces: RestStore,
    /// Namespaces deleted lately: name → when.
    deleted_lately: Mutex<HashMap<String, Instant>>,
}

impl NamespaceLifecycle {
    /// The plugin, looking namespaces up in `namespaces`.
    pub fn new(namespaces: RestStore) -> NamespaceLifecycle {
        NamespaceLifecycle {
            namespaces,
            deleted_lately: Mutex::new(HashMap::new()),
        }
    }

    fn remember_deleted(&self, name: &str) {
        if let Ok(mut m) = self.deleted_lately.lock() {
            let now = Instant::now();
            m.retain(|_, at| now.duration_since(*at) < FORCE_LIVE_LOOKUP);
            if m.len() < FORCE_LIVE_MAX {
                m.insert(name.to_owned(), now);
            }
        }
    }

    fn deleted_lately(&self, name: &str) -> bool {
        self.deleted_lately
            .lock()
            .ok()
            .and_then(|m| m.get(name).map(|at| at.elapsed() < FORCE_LIVE_LOOKUP))
            .unwrap_or(false)
    }

    /// The namespace `name`: from the cache when it has it as active and nothing says
    /// the cache may be behind, else from storage.
    async fn namespace(&self, name: &str) -> Result<Option<Value>, Status> {
        let cached = self.namespaces.read_cached("", name).await?;
        let active = cached.as_ref().is_some_and(|ns| phase(ns) != "Terminating");
        if active && !self.deleted_lately(name) {
            return Ok(cached);
        }
        self.namespaces.read_latest("", name).await
    }

    async fn admit_in_namespace(&self, req: &Request<'_>, obj: &Value) -> Result<(), Status> {
        let Some(ns) = self.namespace(req.namespace).await? else {
            return Err(Status::not_found("", "namespaces", req.namespace));
        };
        if req.operation == Operation::Create && phase(&ns) == "Terminating" {
            let mut refused = req.forbidden(
                obj,
                &format!(
                    "unable to create new content in namespace {} because it is being terminated",
                    req.namespace
                ),
            );
            let details = refused.details.get_or_insert_with(StatusDetails::default);
            details.causes.push(StatusCause {
                reason: "NamespaceTerminating".to_owned(),
                message: format!("namespace {} is being terminated", req.namespace),
                field: "metadata.namespace".to_owned(),
            });
            return Err(refused);
        }
        Ok(())
    }
}

/// A namespace's `status.phase` (a namespace being deleted is Terminating).
fn phase(ns: &Value) -> &str {
    if ns.pointer("/metadata/deletionTimestamp").is_some() {
        return "Terminating";
    }
    ns.pointer("/status/phase")
        .and_then(Value::as_str)
        .unwrap_or("Active")
}

/// Whether the request is for a Namespace.
fn is_namespace(req: &Request<'_>) -> bool {
    req.resource.group.is_empty() && req.resource.kind == "Namespace"
}

impl Plugin for NamespaceLifecycle {
    fn name(&self) -> &'static str {
        "NamespaceLifecycle"
    }

    fn phases(&self) -> Phases {
        Phases::ADMIT
    }

    fn admit<'a>(
        &'a self,
        req: &'a Request<'a>,
        obj: &'a mut Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if is_namespace(req) {
                if req.operation == Operation::Delete {
                    if IMMORTAL.contains(&req.name) {
                        return Err(Status::forbidden(
                            "",
                            "namespaces",
                            req.name,
                            "this namespace may not be deleted",
                        ));
                    }
                    if !req.dry_run {
                        self.remember_deleted(req.name);
                    }
                }
                return Ok(());
            }
            // Cluster-scoped objects, deletes, and the access reviews (answering about
            // a namespace would leak whether it exists) pass.
            let review = req.resource.group == "authorization.k8s.io"
                && matches!(
                    req.resource.plural,
                    "localsubjectaccessreviews" | "subjectaccessreviews"
                );
            if req.namespace.is_empty()
                || req.operation == Operation::Delete
                || req.operation == Operation::Connect
                || review
            {
                return Ok(());
            }
            self.admit_in_namespace(req, obj).await
        })
    }
}
