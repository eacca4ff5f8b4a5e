//! The delete verbs: delete (graceful, with preconditions, finalizers and propagation)
//! and deletecollection.

use http::{Response, StatusCode};
use serde_json::{json, Value};

use super::admit::Target;
use super::graceful::Step;
use super::write::{pending_finalizers, str_at};
use super::WriteOptions;
use super::{
    json_response, meta, parse_rv, parse_stored, storage_status, with_revision, Query, RestStore,
};
use crate::admission::Operation;
use crate::body::Body;
use crate::status::{Reason, Status};
use crate::storage::{ListOptions, ReadVersion};

impl RestStore {
    pub(super) async fn delete(
        &self,
        ns: &str,
        name: &str,
        options: Option<Value>,
        opts: &WriteOptions,
        _q: &Query,
    ) -> Result<Response<Body>, Status> {
        // Upstream answers 202 only for an object left in place when the client asked
        // explicitly not to orphan its dependents (orphanDependents: false); else 200.
        let keep_dependents = options
            .as_ref()
            .and_then(|o| o.get("orphanDependents"))
            .and_then(Value::as_bool)
            == Some(false);
        let (obj, deleted) = self.delete_object(ns, name, options.as_ref(), opts).await?;
        if !deleted {
            let code = if keep_dependents {
                StatusCode::ACCEPTED
            } else {
                StatusCode::OK
            };
            return Ok(json_response(code, &obj));
        }
        if self.resource.kind == "Pod" {
            return Ok(json_response(StatusCode::OK, &obj));
        }
        let uid = str_at(&obj, "/metadata/uid").unwrap_or("");
        let mut details = json!({"name": name, "kind": self.resource.plural, "uid": uid});
        if !self.resource.group.is_empty() {
            details["group"] = json!(self.resource.group);
        }
        let status = json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
            "details": details,
        });
        Ok(json_response(StatusCode::OK, &status))
    }

    /// Deletes `ns/name`, or marks it for deletion when finalizers hold it; returns the
    /// object and whether it is gone.
    pub async fn delete_object(
        &self,
        ns: &str,
        name: &str,
        options: Option<&Value>,
        opts: &WriteOptions,
    ) -> Result<(Value, bool), Status> {
        let key = self.key(ns, name);
        let pre_rv = options
            .and_then(|o| o.pointer("/preconditions/resourceVersion"))
            .and_then(Value::as_str)
            .map(parse_rv)
            .transpose()?;
        let pre_uid = options
            .and_then(|o| o.pointer("/preconditions/uid"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        if let Some(p) = options
            .and_then(|o| o.get("propagationPolicy"))
            .and_then(Value::as_str)
        {
            if !matches!(p, "Orphan" | "Background" | "Foreground") {
                return Err(meta::invalid(
                    "meta.k8s.io",
                    "DeleteOptions",
                    "",
                    vec![meta::not_supported(
                        "propagationPolicy",
                        p,
                        &["Foreground", "Background", "Orphan", "nil"],
                    )],
                ));
            }
        }
        let current = self.read(&key, name, ReadVersion::Latest).await?;
        let cur = with_revision(parse_stored(&current)?, current.revision);
        let cur = match self.converter() {
            None => self.present(cur),
            Some(_) => self.present_for_write(cur).await?,
        };
        let uid = str_at(&cur, "/metadata/uid").unwrap_or("").to_owned();
        // Upstream's BeforeDelete checks the preconditions first, a conflict named by the
        // object's kind (its group-resource is group and Kind).
        let precondition =
            |why: String| Status::conflict(self.resource.group, self.resource.kind, name, &why);
        if let Some(want) = pre_uid.filter(|u| *u != uid) {
            return Err(precondition(format!(
                "the UID in the precondition ({want}) does not match the UID in record ({uid}). The object might have been deleted and then recreated"
            )));
        }
        if let Some(want) = pre_rv.filter(|r| *r != current.revision) {
            return Err(precondition(format!(
                "the ResourceVersion in the precondition ({want}) does not match the ResourceVersion in record ({}). The object might have been modified",
                current.revision
            )));
        }
        let target = Target {
            operation: Operation::Delete,
            subresource: "",
            namespace: ns,
            name,
            old: Some(&cur),
            options,
        };
        self.admit_delete(target, opts).await?;
        if let Some(grace) = self.resource.grace_period {
            let requested = options
                .and_then(|o| o.get("gracePeriodSeconds"))
                .and_then(Value::as_i64);
            match super::graceful::step(&cur, requested, grace) {
                Step::Delete => {}
                Step::Pending => return Ok((cur, false)),
                Step::Mark {
                    timestamp,
                    period,
                    bump_generation,
                } => {
                    let marked = super::graceful::marked(&cur, &timestamp, period, bump_generation);
                    let now = period == 0 && !pending_finalizers(&marked);
                    if opts.dry_run {
                        return Ok((marked, now));
                    }
                    let stored = self
                        .store_over(&key, name, without_revision(marked), current.revision)
                        .await?;
                    if !now {
                        return Ok((stored, false));
                    }
                    let revision = super::revision_of(&stored);
                    self.remove(&key, name, revision, &stored).await?;
                    return Ok((stored, true));
                }
            }
        }
        let first = cur.pointer("/metadata/deletionTimestamp").is_none();
        let mut cur = cur;
        if let (Some(finalizer), true) = (self.resource.delete_finalizer, first) {
            add_finalizer(&mut cur, finalizer);
        }
        if pending_finalizers(&cur) {
            if cur.pointer("/metadata/deletionTimestamp").is_some() {
                return Ok((cur, false));
            }
            let mut marked = cur.clone();
            marked["metadata"]["deletionTimestamp"] = json!(meta::now());
            // A namespace's own delete only marks it (no grace period); other objects
            // held by finalizers are marked deleting with a zero grace period.
            if self.resource.delete_finalizer.is_none() && self.resource.kind != "Namespace" {
                marked["metadata"]["deletionGracePeriodSeconds"] = json!(0);
            }
            if self.resource.kind == "Namespace" {
                marked["status"]["phase"] = json!("Terminating");
            }
            if opts.dry_run {
                return Ok((marked, false));
            }
            let stored = self
                .store_over(&key, name, without_revision(marked), current.revision)
                .await?;
            return Ok((stored, false));
        }
        if opts.dry_run {
            return Ok((cur, true));
        }
        self.remove(&key, name, Some(current.revision), &cur)
            .await?;
        Ok((cur, true))
    }

    /// Deletes `key` (holding `obj`) at `revision` and runs the after-delete hooks.
    async fn remove(
        &self,
        key: &str,
        name: &str,
        revision: Option<i64>,
        obj: &Value,
    ) -> Result<(), Status> {
        self.storage
            .delete(key, revision)
            .await
            .map_err(|e| storage_status(&self.resource, &e, name))?;
        if let Some(h) = &self.hooks {
            h.after_delete(self, obj).await;
        }
        Ok(())
    }

    pub(super) async fn delete_collection(
        &self,
        ns: &str,
        q: &Query,
        options: Option<Value>,
        opts: &WriteOptions,
    ) -> Result<Response<Body>, Status> {
        let filter = self.selectors(q)?;
        let page = self
            .storage
            .list(
                &self.prefix(ns),
                ReadVersion::Latest,
                &ListOptions::default(),
                filter.as_deref(),
            )
            .await
            .map_err(|e| storage_status(&self.resource, &e, ""))?;
        let mut deleted = Vec::new();
        for item in page.items {
            let Ok(obj) = serde_json::from_slice::<Value>(&item.value) else {
                continue;
            };
            let item_ns = str_at(&obj, "/metadata/namespace").unwrap_or(ns).to_owned();
            let name = str_at(&obj, "/metadata/name").unwrap_or("").to_owned();
            match self
                .delete_object(&item_ns, &name, options.as_ref(), opts)
                .await
            {
                Ok((obj, _)) => deleted.push(obj),
                Err(s) if s.reason == Reason::NotFound => {}
                Err(s) => return Err(s),
            }
        }
        Ok(json_response(
            StatusCode::OK,
            &json!({
                "kind": format!("{}List", self.resource.kind),
                "apiVersion": self.resource.api_version(),
                "metadata": {},
                "items": self.list_items(deleted),
            }),
        ))
    }
}

/// `obj` without its resourceVersion, to be written over what was read.
fn without_revision(mut obj: Value) -> Value {
    if let Some(m) = meta::metadata_mut(&mut obj) {
        m.remove("resourceVersion");
    }
    obj
}

/// `finalizer` added to `obj`'s finalizers unless there.
fn add_finalizer(obj: &mut Value, finalizer: &str) {
    if let Some(meta) = meta::metadata_mut(obj) {
        meta::add_to_set(meta, "finalizers", finalizer);
    }
}
