//! The storage plugins, as kube-apiserver's: DefaultStorageClass (a new claim that names
//! no class gets the default one — the newest of those annotated as default, then by
//! name), StorageObjectInUseProtection (new claims and volumes get their protection
//! finalizer, so they outlive the pods and claims using them), and
//! PersistentVolumeClaimResize (a claim may grow only when its class allows expansion).

use kas_server::admission::{Operation, Phases, Plugin, Recorder, Request};
use kas_server::rest::{HookFuture, RestStore};
use kas_server::status::Status;
use serde_json::{json, Value};

/// The annotations that make a class the default (GA and beta).
const DEFAULT_ANNOTATIONS: [&str; 2] = [
    "storageclass.kubernetes.io/is-default-class",
    "storageclass.beta.kubernetes.io/is-default-class",
];
const PVC_PROTECTION: &str = "kubernetes.io/pvc-protection";
const PV_PROTECTION: &str = "kubernetes.io/pv-protection";

fn is(req: &Request<'_>, group: &str, plural: &str) -> bool {
    req.resource.group == group && req.resource.plural == plural && req.subresource.is_empty()
}

fn annotation<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.pointer("/metadata/annotations")
        .and_then(|a| a.get(key))
        .and_then(Value::as_str)
}

/// The default among `classes` marked by any of `annotations`: the newest, then by
/// name (upstream's choice when several claim it).
pub(crate) fn newest_default<'a>(classes: &'a [Value], annotations: &[&str]) -> Option<&'a Value> {
    let created = |c: &Value| {
        c.pointer("/metadata/creationTimestamp")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    let name = |c: &Value| {
        c.pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    };
    classes
        .iter()
        .filter(|c| annotations.iter().any(|a| annotation(c, a) == Some("true")))
        .min_by(|a, b| {
            created(b)
                .cmp(&created(a))
                .then_with(|| name(a).cmp(&name(b)))
        })
}

/// DefaultStorageClass.
pub(crate) struct DefaultStorageClass {
    classes: RestStore,
}

impl DefaultStorageClass {
    /// The plugin, reading StorageClasses from `classes`.
    pub(crate) fn new(classes: RestStore) -> DefaultStorageClass {
        DefaultStorageClass { classes }
    }
}

impl Plugin for DefaultStorageClass {
    fn name(&self) -> &'static str {
        "DefaultStorageClass"
    }

    fn phases(&self) -> Phases {
        Phases::ADMIT
    }

    fn admit<'a>(
        &'a self,
        req: &'a Request<'a>,
        pvc: &'a mut Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if req.operation != Operation::Create || !is(req, "", "persistentvolumeclaims") {
                return Ok(());
            }
            let has_class = pvc
                .pointer("/spec/storageClassName")
                .is_some_and(|c| !c.is_null())
                || annotation(pvc, "volume.beta.kubernetes.io/storage-class").is_some();
            if has_class {
                return Ok(());
            }
            let classes = self.classes.list_cached("").await?;
            let Some(default) = newest_default(&classes, &DEFAULT_ANNOTATIONS) else {
                return Ok(());
            };
            let name = default
                .pointer("/metadata/name")
                .cloned()
                .unwrap_or(Value::Null);
            if let Some(spec) = pvc.get_mut("spec").and_then(Value::as_object_mut) {
                spec.insert("storageClassName".into(), name);
            }
            Ok(())
        })
    }
}

/// StorageObjectInUseProtection.
pub(crate) struct StorageObjectInUseProtection;

impl Plugin for StorageObjectInUseProtection {
    fn name(&self) -> &'static str {
        "StorageObjectInUseProtection"
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
            if req.operation != Operation::Create {
                return Ok(());
            }
            let finalizer = if is(req, "", "persistentvolumeclaims") {
                PVC_PROTECTION
            } else if is(req, "", "persistentvolumes") {
                PV_PROTECTION
            } else {
                return Ok(());
            };
            let Some(meta) = obj.get_mut("metadata").and_then(Value::as_object_mut) else {
                return Ok(());
            };
            let list = meta.entry("finalizers").or_insert_with(|| json!([]));
            if list.is_null() {
                *list = json!([]);
            }
            if let Some(list) = list.as_array_mut() {
                if !list.iter().any(|f| f.as_str() == Some(finalizer)) {
                    list.push(json!(finalizer));
                }
            }
            Ok(())
        })
    }
}

/// PersistentVolumeClaimResize.
pub(crate) struct PersistentVolumeClaimResize {
    classes: RestStore,
}

impl PersistentVolumeClaimResize {
    /// The plugin, reading StorageClasses from `classes`.
    pub(crate) fn new(classes: RestStore) -> PersistentVolumeClaimResize {
        PersistentVolumeClaimResize { classes }
    }
}

impl Plugin for PersistentVolumeClaimResize {
    fn name(&self) -> &'static str {
        "PersistentVolumeClaimResize"
    }

    fn phases(&self) -> Phases {
        Phases::VALIDATE
    }

    fn validate<'a>(
        &'a self,
        req: &'a Request<'a>,
        pvc: &'a Value,
        _rec: &'a Recorder,
    ) -> HookFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if req.operation != Operation::Update || !is(req, "", "persistentvolumeclaims") {
                return Ok(());
            }
            let Some(old) = req.old_object else {
                return Ok(());
            };
            let size = |v: &Value| {
                v.pointer("/spec/resources/requests/storage")
                    .and_then(crate::quantity::Quantity::of)
            };
            let grows = match (size(pvc), size(old)) {
                (Some(new), Some(before)) => new > before,
                _ => false,
            };
            if !grows {
                return Ok(());
            }
            if old.pointer("/status/phase").and_then(Value::as_str) != Some("Bound") {
                return Err(
                    req.forbidden(pvc, "Only bound persistent volume claims can be expanded")
                );
            }
            let class = pvc
                .pointer("/spec/storageClassName")
                .and_then(Value::as_str)
                .unwrap_or("");
            let allowed = match class {
                "" => false,
                c => self
                    .classes
                    .read_cached("", c)
                    .await?
                    .is_some_and(|sc| sc.get("allowVolumeExpansion") == Some(&json!(true))),
            };
            if !allowed {
                return Err(req.forbidden(
                    pvc,
                    "only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize",
                ));
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_default_wins_then_the_name() {
        let class = |name: &str, at: &str, default: bool| {
            json!({"metadata": {"name": name, "creationTimestamp": at,
                "annotations": {DEFAULT_ANNOTATIONS[0]: if default { "true" } else { "false" }}}})
        };
        let classes = [
            class("old", "2026-01-01T00:00:00Z", true),
            class("b", "2026-02-01T00:00:00Z", true),
            class("a", "2026-02-01T00:00:00Z", true),
            class("newest", "2026-03-01T00:00:00Z", false),
        ];
        let chosen = newest_default(&classes, &DEFAULT_ANNOTATIONS).expect("a default");
        assert_eq!(chosen["metadata"]["name"], "a");
        assert!(newest_default(&classes[3..], &DEFAULT_ANNOTATIONS).is_none());
    }
}
