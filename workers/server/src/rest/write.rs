//! The write verbs create and update (of the object or a subresource: what each takes
//! from the body is `subresource_write.rs`) and the steps they share; the options every
//! write takes are in `write_options.rs`, patches, server-side apply and `scale` in
//! `patch.rs`, deletion in `delete.rs`, the resources' hooks in `hooks.rs`.
//!
//! Each write runs upstream's steps in order: decode, apiVersion/kind/namespace checks,
//! the namespace lifecycle check, metadata the server owns (uid, creationTimestamp,
//! generation, deletionTimestamp), the status/spec split, defaulting, managedFields,
//! validation, resource hooks (e.g. IP allocation), then a compare-and-swap write. An
//! update that changes nothing is not written. Deletion of an object with finalizers
//! only marks it (deletionTimestamp); removing the last finalizer deletes it.

use http::{Response, StatusCode};
use kas_proto::RequestContext;
use serde_json::{json, Value};

use super::admit::Target;
use super::decode::Decoded;
use super::{
    bad_request, json_response, meta, parse_rv, parse_stored, storage_status, with_revision,
    with_warnings, RestStore, WriteOptions,
};
use crate::admission::Operation;
use crate::body::Body;
use crate::status::{Reason, Status};
use crate::storage::{ReadVersion, StorageError};

/// How often a create with generateName retries a name that was taken.
const GENERATE_NAME_RETRIES: usize = 8;

pub(super) fn str_at<'a>(v: &'a Value, pointer: &str) -> Option<&'a str> {
    v.pointer(pointer).and_then(Value::as_str)
}

/// Finalizers that keep an object: metadata.finalizers, and a Namespace's spec.finalizers.
pub(super) fn pending_finalizers(obj: &Value) -> bool {
    let non_empty = |p: &str| {
        obj.pointer(p)
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty())
    };
    non_empty("/metadata/finalizers")
        || (obj.get("kind").and_then(Value::as_str) == Some("Namespace")
            && non_empty("/spec/finalizers"))
}

/// The object without metadata and status: what `generation` counts changes of.
fn spec_view(obj: &Value) -> Value {
    let mut v = obj.clone();
    if let Some(o) = v.as_object_mut() {
        for k in ["metadata", "status", "apiVersion", "kind"] {
            o.remove(k);
        }
    }
    v
}

/// The object as compared for a no-op update.
fn without_rv(obj: &Value) -> Value {
    let mut v = obj.clone();
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("resourceVersion");
    }
    v
}

impl RestStore {
    fn check_type(&self, obj: &Value) -> Result<(), Status> {
        super::body_type::check(&self.resource, obj)
    }

    /// Fills apiVersion/kind and the namespace, refusing a namespace that contradicts the URL.
    pub(super) fn normalize(&self, ns: &str, obj: &mut Value) -> Result<(), Status> {
        self.check_type(obj)?;
        if let Some(o) = obj.as_object_mut() {
            o.insert("apiVersion".into(), json!(self.resource.api_version()));
            o.insert("kind".into(), json!(self.resource.kind));
        }
        let Some(m) = meta::metadata_mut(obj) else {
            return Err(bad_request("metadata must be an object"));
        };
        if self.resource.namespaced {
            match m.get("namespace").and_then(Value::as_str) {
                None | Some("") => {
                    m.insert("namespace".into(), json!(ns));
                }
                Some(given) if given == ns => {}
                Some(_) => {
                    return Err(bad_request(
                        "the namespace of the provided object does not match the namespace sent on the request",
                    ))
                }
            }
        } else {
            m.remove("namespace");
        }
        m.remove("resourceVersion");
        m.remove("selfLink");
        Ok(())
    }

    /// Adds what upstream's Go types always write (`"spec":{}`, `"status":{}`, a
    /// StatefulSet's `status.replicas: 0`, …): a decoded and defaulted Go object is
    /// stored and served with its non-pointer structs and non-`omitempty` fields. Custom
    /// resources have no Go type and are stored as sent.
    pub(super) fn fill_zero_fields(&self, obj: &mut Value) {
        if self.resource.definition.is_empty() {
            return;
        }
        if let Some(def) = kas_schema::type_def(self.resource.definition) {
            kas_schema::fill_zero_fields(def, obj);
        }
    }

    /// Keeps `obj` (a create's or an update's body) decoded and defaulted as upstream's
    /// decoder leaves it, for the audit's `requestObject`, when the front door asks.
    fn keep_for_audit(&self, obj: &Value, opts: &WriteOptions) {
        if !opts.audit_request_object {
            return;
        }
        opts.recorder.keep_request_object(|| {
            let mut decoded = obj.clone();
            (self.resource.defaults)(&mut decoded);
            if let Some(st) = &self.strategy {
                st.default(&mut decoded);
            }
            self.fill_zero_fields(&mut decoded);
            decoded
        });
    }

    fn validate(&self, obj: &Value, old: Option<&Value>, sub: &str) -> Result<(), Status> {
        let mut causes = meta::validate_name(obj, self.resource.names);
        if let Some(old) = old {
            if let Some(ts) = old.pointer("/metadata/deletionTimestamp") {
                let before: Vec<&Value> = old
                    .pointer("/metadata/finalizers")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().collect())
                    .unwrap_or_default();
                let added: Vec<String> = obj
                    .pointer("/metadata/finalizers")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter(|f| !before.contains(f))
                    .map(|f| f.as_str().unwrap_or("").to_owned())
                    .collect();
                if !added.is_empty() && !ts.is_null() {
                    causes.push(meta::forbidden(
                        "metadata.finalizers",
                        &format!(
                            "no new finalizers can be added if the object is being deleted, found new finalizers []string{{{}}}",
                            added.iter().map(|f| format!("{f:?}")).collect::<Vec<_>>().join(", ")
                        ),
                    ));
                }
            }
        }
        let own = match (&self.hooks, old) {
            (Some(h), Some(old)) if !sub.is_empty() => h.validate_subresource(sub, obj, old),
            _ => None,
        };
        causes.extend(own.unwrap_or_else(|| (self.resource.validate)(obj, old)));
        if let Some(st) = &self.strategy {
            causes.extend(st.validate(obj, old));
        }
        if causes.is_empty() {
            return Ok(());
        }
        let name = str_at(obj, "/metadata/name").unwrap_or("");
        Err(meta::invalid(
            self.resource.group,
            self.resource.kind,
            name,
            causes,
        ))
    }

    pub(super) async fn create(
        &self,
        ctx: &RequestContext,
        ns: &str,
        body: Decoded,
        opts: &WriteOptions,
    ) -> Result<Response<Body>, Status> {
        if self.resource.verbs == super::Verbs::CreateOnly {
            let Some(hooks) = self.hooks.clone() else {
                return Err(Status::path_not_found());
            };
            let out = hooks
                .subresource_create(self, ctx, "", Value::Null, body.object, opts)
                .await?;
            return Ok(json_response(StatusCode::CREATED, &out));
        }
        let obj = self.create_object(ns, body.object, opts).await?;
        Ok(with_warnings(
            json_response(StatusCode::CREATED, &obj),
            &body.warnings,
        ))
    }

    /// Creates an object as a client's POST would; the result carries its resourceVersion.
    pub async fn create_object(
        &self,
        ns: &str,
        mut obj: Value,
        opts: &WriteOptions,
    ) -> Result<Value, Status> {
        self.keep_for_audit(&obj, opts);
        if str_at(&obj, "/metadata/resourceVersion").is_some_and(|s| !s.is_empty()) {
            return Err(Status::internal(
                "resourceVersion should not be set on objects to be created",
            ));
        }
        self.normalize(ns, &mut obj)?;
        let generate = str_at(&obj, "/metadata/generateName").map(str::to_owned);
        let has_name = str_at(&obj, "/metadata/name").is_some_and(|n| !n.is_empty());
        let now = meta::now();
        if let Some(m) = meta::metadata_mut(&mut obj) {
            m.insert("uid".into(), json!(uuid::Uuid::new_v4().to_string()));
            m.insert("creationTimestamp".into(), json!(now));
            m.remove("deletionTimestamp");
            m.remove("deletionGracePeriodSeconds");
            // Strategies that keep a generation start it at 1; elsewhere the client's
            // value is kept, as upstream keeps it.
            if self.resource.generation {
                m.insert("generation".into(), json!(1));
            }
        }
        if self.resource.status_split() && self.resource.kind != "Node" {
            if let Some(o) = obj.as_object_mut() {
                o.remove("status");
            }
        }
        (self.resource.defaults)(&mut obj);
        if let Some(st) = &self.strategy {
            st.default(&mut obj);
        }
        self.fill_zero_fields(&mut obj);
        let explicit_name = str_at(&obj, "/metadata/name").unwrap_or("").to_owned();
        let target = |name| Target {
            operation: Operation::Create,
            subresource: "",
            namespace: ns,
            name,
            old: None,
            options: None,
        };
        if !opts.fields_recorded {
            self.fields()
                .record_update(None, &mut obj, &opts.manager, "", &now);
        }
        self.admit(target(&explicit_name), &mut obj, opts).await?;
        (self.resource.prepare)(&mut obj, None, "");
        if let Some(h) = &self.hooks {
            h.prepare_create(self, &mut obj, opts);
        }
        // IPAddresses are named by their address: upstream's name generator for them
        // takes generateName as it is.
        let verbatim = self.resource.names == super::NameRule::Ip;
        let attempts = if has_name || verbatim {
            1
        } else {
            GENERATE_NAME_RETRIES
        };
        for _ in 0..attempts {
            if let (false, Some(prefix)) = (has_name, &generate) {
                let name = if verbatim {
                    prefix.clone()
                } else {
                    meta::generated_name(prefix)
                };
                if let Some(m) = meta::metadata_mut(&mut obj) {
                    m.insert("name".into(), json!(name));
                }
            }
            self.validate(&obj, None, "")?;
            for w in (self.resource.warnings)(&obj, None) {
                opts.recorder.warn(w);
            }
            self.admit_validate(target(&explicit_name), &obj, opts)
                .await?;
            if let Some(h) = &self.hooks {
                h.before_create(self, &mut obj, opts).await?;
            }
            let name = str_at(&obj, "/metadata/name").unwrap_or("").to_owned();
            if opts.dry_run {
                return Ok(obj);
            }
            let key = self.key(ns, &name);
            let (bytes, converted) = match self.converter() {
                None => {
                    let bytes = self.storage_bytes(&key, &obj)?;
                    obj = self.as_stored(obj, &bytes);
                    (bytes, None)
                }
                Some(_) => self.to_storage(&key, &obj).await?,
            };
            match self.storage.create(&key, bytes, None).await {
                Ok(rev) if converted.is_none() => return Ok(with_revision(obj, rev)),
                Ok(rev) => return self.written(obj, converted, rev).await,
                Err(StorageError::AlreadyExists) if !has_name => {
                    if let Some(h) = &self.hooks {
                        h.create_failed(self, &obj).await;
                    }
                    continue;
                }
                Err(e) => {
                    if let Some(h) = &self.hooks {
                        h.create_failed(self, &obj).await;
                    }
                    return Err(storage_status(&self.resource, &e, &name));
                }
            }
        }
        Err(Status::new(
            Reason::AlreadyExists,
            "could not generate a unique name after several attempts",
        ))
    }

    pub(super) async fn update(
        &self,
        ns: &str,
        name: &str,
        sub: &str,
        body: Decoded,
        opts: &WriteOptions,
    ) -> Result<Response<Body>, Status> {
        let mut obj = body.object;
        let body_name = str_at(&obj, "/metadata/name").unwrap_or("");
        if body_name != name {
            return Err(bad_request(format!(
                "the name of the object ({body_name}) does not match the name on the URL ({name})"
            )));
        }
        // An empty resourceVersion or "0" asks for an unconditional update, which only
        // some types allow.
        let expected = str_at(&obj, "/metadata/resourceVersion")
            .filter(|s| !s.is_empty() && *s != "0")
            .map(parse_rv)
            .transpose()?;
        let conditional_only = !self.resource.unconditional_update
            || !self
                .strategy
                .as_ref()
                .is_none_or(|s| s.allow_unconditional_update());
        // Whether the object exists comes first: a missing one is created (the types
        // that allow it) or a 404, before the resourceVersion is looked at.
        if sub.is_empty()
            && (self.resource.create_on_update || expected.is_none() && conditional_only)
        {
            let key = self.key(ns, name);
            if self
                .storage
                .get(&key, ReadVersion::Latest)
                .await
                .map_err(|e| storage_status(&self.resource, &e, name))?
                .is_none()
            {
                if !self.resource.create_on_update {
                    return Err(Status::not_found(
                        self.resource.group,
                        self.resource.plural,
                        name,
                    ));
                }
                if let Some(m) = meta::metadata_mut(&mut obj) {
                    m.remove("resourceVersion");
                }
                let out = self.create_object(ns, obj, opts).await?;
                return Ok(with_warnings(
                    json_response(StatusCode::CREATED, &out),
                    &body.warnings,
                ));
            }
        }
        if expected.is_none() && conditional_only {
            let cause = crate::status::StatusCause {
                reason: "FieldValueInvalid".into(),
                message: "Invalid value: 0x0: must be specified for an update".into(),
                field: "metadata.resourceVersion".into(),
            };
            // Upstream names the resource where the kind goes (kubernetes#18526).
            return Err(meta::invalid(
                self.resource.group,
                self.resource.plural,
                name,
                vec![cause],
            ));
        }
        self.normalize(ns, &mut obj)?;
        let out = self
            .update_object(ns, name, sub, obj, expected, opts)
            .await?;
        Ok(with_warnings(
            json_response(StatusCode::OK, &out),
            &body.warnings,
        ))
    }

    /// One try of [`RestStore::update_object`] (rest/guaranteed.rs): `obj` written through
    /// `sub` over the current object, under `expected` or the body's resourceVersion.
    pub(super) async fn update_once(
        &self,
        ns: &str,
        name: &str,
        sub: &str,
        obj: Value,
        expected: Option<i64>,
        opts: &WriteOptions,
    ) -> Result<Value, Status> {
        self.keep_for_audit(&obj, opts);
        let key = self.key(ns, name);
        let current = self.read(&key, name, ReadVersion::Latest).await?;
        if let Some(want) = expected {
            if want != current.revision {
                return Err(storage_status(
                    &self.resource,
                    &StorageError::Conflict {
                        current: current.revision,
                    },
                    name,
                ));
            }
        }
        let cur: Value = match self.converter() {
            None => self.present(parse_stored(&current)?),
            Some(_) => self.present_for_write(parse_stored(&current)?).await?,
        };
        // An apply settled the managedFields of the whole object; a subresource's
        // write below takes only its part of `obj`, so they are carried over.
        let applied_fields = if opts.fields_recorded {
            Some(obj.pointer("/metadata/managedFields").cloned())
        } else {
            None
        };
        let mut obj = super::subresource_write::written_through(sub, &cur, obj, &self.resource);
        if let (Some(fields), Some(m)) = (applied_fields, meta::metadata_mut(&mut obj)) {
            match fields {
                Some(f) => m.insert("managedFields".into(), f),
                None => m.remove("managedFields"),
            };
        }
        if let Some(m) = meta::metadata_mut(&mut obj) {
            for keep in [
                "uid",
                "creationTimestamp",
                "deletionTimestamp",
                "deletionGracePeriodSeconds",
                "generation",
            ] {
                match cur.pointer(&format!("/metadata/{keep}")) {
                    Some(v) => {
                        m.insert(keep.into(), v.clone());
                    }
                    None => {
                        m.remove(keep);
                    }
                }
            }
            m.remove("resourceVersion");
        }
        (self.resource.defaults)(&mut obj);
        if let Some(st) = &self.strategy {
            st.default(&mut obj);
        }
        self.fill_zero_fields(&mut obj);
        let target = Target {
            operation: Operation::Update,
            subresource: sub,
            namespace: ns,
            name,
            old: Some(&cur),
            options: None,
        };
        // Upstream's order: the field manager records the write as decoded and
        // defaulted, mutating admission runs, then the strategy's PrepareForUpdate — so
        // what the strategy keeps or fills in is not the writer's field.
        if !opts.fields_recorded {
            self.fields()
                .record_update(Some(&cur), &mut obj, &opts.manager, sub, &meta::now());
        }
        self.admit(target, &mut obj, opts).await?;
        if matches!(sub, "" | "status") {
            (self.resource.prepare)(&mut obj, Some(&cur), sub);
        }
        if let Some(h) = &self.hooks {
            h.prepare_update(self, sub, &mut obj, &cur);
        }
        if self.resource.generation && spec_view(&obj) != spec_view(&cur) {
            let g = cur
                .pointer("/metadata/generation")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            obj["metadata"]["generation"] = json!(g + 1);
        }
        self.validate(&obj, Some(&cur), sub)?;
        if sub.is_empty() {
            for w in (self.resource.warnings)(&obj, Some(&cur)) {
                opts.recorder.warn(w);
            }
        }
        self.admit_validate(target, &obj, opts).await?;
        if let Some(h) = &self.hooks {
            h.before_update(self, &mut obj, &cur, opts).await?;
        }
        // A stale value (written by an older encryption provider or key) is stored again
        // even when unchanged, as upstream's GuaranteedUpdate does: that is how
        // `kubectl replace` re-encrypts after a key rotation.
        if without_rv(&obj) == without_rv(&cur) && !current.stale {
            return Ok(with_revision(cur, current.revision));
        }
        if opts.dry_run {
            return Ok(with_revision(obj, current.revision));
        }
        if obj.pointer("/metadata/deletionTimestamp").is_some() && !pending_finalizers(&obj) {
            // The last finalizer is gone: the object goes.
            let gone = self
                .storage
                .delete(&key, Some(current.revision))
                .await
                .map_err(|e| storage_status(&self.resource, &e, name))?;
            if let Some(h) = &self.hooks {
                h.after_delete(self, &obj).await;
            }
            return Ok(with_revision(obj, gone.revision));
        }
        self.store_over(&key, name, obj, current.revision).await
    }

    /// Writes `obj` over the revision `expected` of `key` (converted to the storage
    /// version when the resource has a converter); the object as stored.
    pub(super) async fn store_over(
        &self,
        key: &str,
        name: &str,
        obj: Value,
        expected: i64,
    ) -> Result<Value, Status> {
        let mut obj = obj;
        let (bytes, converted) = match self.converter() {
            None => {
                let bytes = self.storage_bytes(key, &obj)?;
                obj = self.as_stored(obj, &bytes);
                (bytes, None)
            }
            Some(_) => self.to_storage(key, &obj).await?,
        };
        let rev = self
            .storage
            .update(key, bytes, expected, None)
            .await
            .map_err(|e| storage_status(&self.resource, &e, name))?;
        if converted.is_some() {
            return self.written(obj, converted, rev).await;
        }
        Ok(with_revision(obj, rev))
    }
}
