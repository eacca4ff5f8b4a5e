//! The patch verbs: JSON, merge and strategic merge patches of an object, its status or
//! its scale, and server-side apply (through the field manager of `managed.rs`), each
//! retried against concurrent writes.

use http::{Response, StatusCode};
use serde_json::{json, Value};

use super::decode::PatchType;
use super::scale_fields::ScaleWrite;
use super::write::str_at;
use super::WriteOptions;
use super::{
    bad_request, json_response, meta, parse_rv, parse_stored, with_revision, with_warnings,
    RestStore,
};
use crate::body::Body;
use crate::status::{Reason, Status};
use crate::storage::{ReadVersion, StorageError};

/// How often a patch retries after losing a compare-and-swap race.
const PATCH_RETRIES: usize = 8;

impl RestStore {
    /// A write of `scale` (PUT, a patch's result, or an apply): sets the object's
    /// replicas, its managedFields mapped through the Scale as upstream does.
    pub(super) async fn update_scale(
        &self,
        ns: &str,
        name: &str,
        write: ScaleWrite<'_>,
        opts: &WriteOptions,
    ) -> Result<Response<Body>, Status> {
        let mut obj = self.read_object(ns, name).await?;
        let old_scale = self.scale_of(&obj);
        let precondition = match &write {
            ScaleWrite::Update(scale) => str_at(scale, "/metadata/resourceVersion"),
            ScaleWrite::Apply { config, .. } => str_at(config, "/metadata/resourceVersion"),
        }
        .filter(|s| !s.is_empty())
        .map(parse_rv)
        .transpose()?;
        let (scale, entries) =
            self.fields()
                .scale_write(&obj, &old_scale, write, &opts.manager, &meta::now())?;
        let replicas = scale.pointer("/spec/replicas").cloned().unwrap_or(json!(0));
        let Some(n) = replicas.as_i64() else {
            return Err(meta::invalid(
                "autoscaling",
                "Scale",
                name,
                vec![meta::invalid_value(
                    "spec.replicas",
                    &replicas.to_string(),
                    "must be an integer",
                )],
            ));
        };
        if n < 0 {
            return Err(meta::invalid(
                "autoscaling",
                "Scale",
                name,
                vec![meta::invalid_value(
                    "spec.replicas",
                    &n.to_string(),
                    "must be greater than or equal to 0",
                )],
            ));
        }
        match self.strategy.as_ref().and_then(|s| s.scale()) {
            Some(paths) => super::set_path(&mut obj, &paths.spec_replicas, json!(n)),
            None => obj["spec"]["replicas"] = json!(n),
        }
        if let Some(m) = meta::metadata_mut(&mut obj) {
            if entries.is_empty() {
                m.remove("managedFields");
            } else {
                m.insert("managedFields".into(), Value::Array(entries));
            }
        }
        let mut opts = opts.clone();
        opts.fields_recorded = true;
        let out = self
            .update_object(ns, name, "", obj, precondition, &opts)
            .await?;
        Ok(json_response(StatusCode::OK, &self.scale_of(&out)))
    }

    pub(super) async fn patch(
        &self,
        ns: &str,
        name: &str,
        sub: &str,
        (kind, patch): (PatchType, Value),
        opts: &WriteOptions,
    ) -> Result<Response<Body>, Status> {
        check_patch_options(kind, opts)?;
        match (kind, sub) {
            (PatchType::Apply, "scale") => {
                let force = opts.force.unwrap_or(false);
                let write = ScaleWrite::Apply {
                    config: &patch,
                    force,
                };
                return self.update_scale(ns, name, write, opts).await;
            }
            (PatchType::Apply, _) => return self.apply(ns, name, sub, &patch, opts).await,
            _ => {}
        }
        let key = self.key(ns, name);
        for _ in 0..PATCH_RETRIES {
            let current = self.read(&key, name, ReadVersion::Latest).await?;
            let stored = self.stored_for_patch(&current).await?;
            let base = if sub == "scale" {
                self.scale_of(&stored)
            } else {
                stored.clone()
            };
            let patched = apply_patch(&self.resource, kind, base, &patch)?;
            let (patched, warnings) = if sub == "scale" {
                (patched, Vec::new())
            } else {
                self.decode_patched(patched, opts)?
            };
            if sub == "scale" {
                return self
                    .update_scale(ns, name, ScaleWrite::Update(patched), opts)
                    .await;
            }
            check_patched_name(&patched, name)?;
            // A patch that sets resourceVersion is a precondition; otherwise it applies
            // to whatever version it read.
            let expected = str_at(&patched, "/metadata/resourceVersion")
                .map(parse_rv)
                .transpose()?
                .unwrap_or(current.revision);
            let explicit = expected != current.revision;
            let mut obj = patched;
            self.normalize(ns, &mut obj)?;
            match self
                .update_object(ns, name, sub, obj, Some(expected), opts)
                .await
            {
                Err(s) if s.reason == Reason::Conflict && !explicit => continue,
                Err(s) => return Err(s),
                Ok(out) => {
                    return Ok(with_warnings(
                        json_response(StatusCode::OK, &out),
                        &warnings,
                    ))
                }
            }
        }
        Err(self.retries_exhausted(name))
    }

    /// Server-side apply (`application/apply-patch+yaml`): the configuration merged into
    /// the live object by the field manager (conflicts, ownership, pruning), then decoded,
    /// defaulted and written like any update; an object that does not exist is created.
    async fn apply(
        &self,
        ns: &str,
        name: &str,
        sub: &str,
        config: &Value,
        opts: &WriteOptions,
    ) -> Result<Response<Body>, Status> {
        let key = self.key(ns, name);
        let force = opts.force.unwrap_or(false);
        let mut recorded = opts.clone();
        recorded.fields_recorded = true;
        for _ in 0..PATCH_RETRIES {
            let current = match self.read(&key, name, ReadVersion::Latest).await {
                Err(s) if s.reason == Reason::NotFound && sub.is_empty() => {
                    let applied = self.fields().apply(
                        None,
                        config,
                        &opts.manager,
                        force,
                        sub,
                        &meta::now(),
                    )?;
                    let (obj, warnings) = self.decode_patched(applied, opts)?;
                    check_patched_name(&obj, name)?;
                    let obj = self.create_object(ns, obj, &recorded).await?;
                    return Ok(with_warnings(
                        json_response(StatusCode::CREATED, &obj),
                        &warnings,
                    ));
                }
                other => other?,
            };
            let stored = self.stored_for_patch(&current).await?;
            let applied = self.fields().apply(
                Some(&stored),
                config,
                &opts.manager,
                force,
                sub,
                &meta::now(),
            )?;
            let (mut obj, warnings) = self.decode_patched(applied, opts)?;
            check_patched_name(&obj, name)?;
            // A configuration that names a resourceVersion makes it a precondition.
            let expected = str_at(config, "/metadata/resourceVersion")
                .map(parse_rv)
                .transpose()?;
            self.normalize(ns, &mut obj)?;
            let rv = expected.unwrap_or(current.revision);
            match self
                .update_object(ns, name, sub, obj, Some(rv), &recorded)
                .await
            {
                Err(s) if s.reason == Reason::Conflict && expected.is_none() => continue,
                Err(s) => return Err(s),
                Ok(out) => {
                    return Ok(with_warnings(
                        json_response(StatusCode::OK, &out),
                        &warnings,
                    ))
                }
            }
        }
        Err(self.retries_exhausted(name))
    }

    /// The stored object a patch or an apply starts from, as clients see it.
    async fn stored_for_patch(&self, current: &crate::storage::Stored) -> Result<Value, Status> {
        let stored = with_revision(parse_stored(current)?, current.revision);
        match self.converter() {
            None => Ok(self.present(stored)),
            Some(_) => self.present_for_write(stored).await,
        }
    }

    /// The 409 after a patch kept meeting concurrent writes.
    fn retries_exhausted(&self, name: &str) -> Status {
        StorageError::Conflict { current: 0 }.to_status(
            self.resource.group,
            self.resource.plural,
            name,
        )
    }

    /// A patched object decoded by type, as upstream decodes the result of a patch:
    /// wrongly typed fields refused, unknown fields dropped and reported per
    /// `fieldValidation`.
    fn decode_patched(
        &self,
        patched: Value,
        opts: &WriteOptions,
    ) -> Result<(Value, Vec<String>), Status> {
        let Some(def) = kas_schema::type_def(self.resource.definition) else {
            let mut patched = patched;
            let mut warnings = Vec::new();
            if let Some(st) = &self.strategy {
                let unknown = st.prune(&mut patched);
                super::unknown_fields(unknown, opts, &mut warnings)?;
            }
            return Ok((patched, warnings));
        };
        match kas_schema::decode_value(&patched, def, opts.validation) {
            Ok(d) => Ok((d.object, d.warnings)),
            Err(e @ kas_schema::DecodeError::Strict(_)) => Err(bad_request(e.to_string())),
            Err(e) => Err(Status::new(
                Reason::Invalid,
                format!(
                    "{kind} in version \"{version}\" cannot be handled as a {kind}: {e}",
                    kind = self.resource.kind,
                    version = self.resource.version
                ),
            )),
        }
    }
}

/// A patch may not rename its object: upstream's checkName on the patched object.
fn check_patched_name(patched: &Value, name: &str) -> Result<(), Status> {
    let patched_name = str_at(patched, "/metadata/name").unwrap_or("");
    if patched_name != name {
        return Err(bad_request(format!(
            "the name of the object ({patched_name}) does not match the name on the URL ({name})"
        )));
    }
    Ok(())
}

/// PatchOptions as upstream validates them: apply needs a field manager, and only apply
/// takes `force`.
fn check_patch_options(kind: PatchType, opts: &WriteOptions) -> Result<(), Status> {
    let cause = match kind {
        PatchType::Apply if !opts.manager_given => {
            meta::required("fieldManager", "is required for apply patch")
        }
        PatchType::Apply => return Ok(()),
        _ if opts.force.is_some() => {
            meta::forbidden("force", "may not be specified for non-apply patch")
        }
        _ => return Ok(()),
    };
    Err(meta::invalid(
        "meta.k8s.io",
        "PatchOptions",
        "",
        vec![cause],
    ))
}

/// `patch` of type `kind` applied to `obj`, an object of `resource`.
pub(crate) fn apply_patch(
    resource: &super::Resource,
    kind: PatchType,
    mut obj: Value,
    patch: &Value,
) -> Result<Value, Status> {
    match kind {
        PatchType::Json => {
            let ops: json_patch::Patch = serde_json::from_value(patch.clone()).map_err(|e| {
                bad_request(format!(
                    "the server rejected our request due to an error in our request: {e}"
                ))
            })?;
            // Upstream answers a patch that does not apply with a generic 422 that drops
            // the patch library's error (NewGenericServerResponse, no causes).
            json_patch::patch(&mut obj, &ops).map_err(|_| Status {
                details: Some(crate::status::StatusDetails::default()),
                ..Status::new(
                    Reason::Invalid,
                    "the server rejected our request due to an error in our request",
                )
            })?;
            Ok(obj)
        }
        PatchType::Merge | PatchType::Apply => {
            if !patch.is_object() {
                return Err(bad_request(
                    "the server rejected our request due to an error in our request: the patch is not a JSON object",
                ));
            }
            json_patch::merge(&mut obj, patch);
            Ok(obj)
        }
        PatchType::Strategic => super::strategic::apply(resource, &obj, patch),
    }
}
