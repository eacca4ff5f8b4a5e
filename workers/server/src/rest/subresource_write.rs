//! What a write through each subresource takes from the body sent, the rest staying as
//! stored: `status` the status (and, for the built-in types whose status strategy lets
//! it, the labels, annotations, finalizers and owner references), `approval` a CSR's
//! conditions, `ephemeralcontainers` a pod's ephemeral containers, `resize` its
//! containers' resources; the object itself, and a namespace's `finalize` (upstream's
//! finalize strategy keeps only the old status), everything but a split-off status.

use serde_json::{json, Value};

use super::resource::Resource;

/// The metadata a `/status` write takes from the client's object, as each type's status
/// strategy in kube-apiserver 1.33 lets it: the classic types reset only their spec (pods
/// also their owner references, deployments their labels); the newer ones reset their
/// metadata (ResetObjectMetaForStatus), flow control all of it, custom resources the
/// whole object but the status. CustomResourceDefinitions let metadata through (their
/// reset compares the new object with itself, upstream issue 137681).
pub(super) fn status_metadata(r: &Resource) -> &'static [&'static str] {
    const ALL: &[&str] = &["labels", "annotations", "finalizers", "ownerReferences"];
    match (r.group, r.plural) {
        ("", "pods") => &["labels", "annotations", "finalizers"],
        ("apps", "deployments") => &["annotations", "finalizers", "ownerReferences"],
        (
            "",
            "nodes"
            | "services"
            | "namespaces"
            | "persistentvolumes"
            | "persistentvolumeclaims"
            | "replicationcontrollers"
            | "resourcequotas",
        )
        | ("apps", "replicasets" | "statefulsets" | "daemonsets")
        | ("batch", "jobs" | "cronjobs")
        | ("autoscaling", "horizontalpodautoscalers")
        | ("policy", "poddisruptionbudgets")
        | ("certificates.k8s.io", "certificatesigningrequests")
        | ("networking.k8s.io", "ingresses")
        | ("apiextensions.k8s.io", "customresourcedefinitions") => ALL,
        _ => &[],
    }
}

/// The object a write of `obj` through `sub` of `resource` stores over `cur`.
pub(super) fn written_through(sub: &str, cur: &Value, obj: Value, resource: &Resource) -> Value {
    match sub {
        "status" => {
            let mut merged = cur.clone();
            match obj.get("status") {
                Some(s) => merged["status"] = s.clone(),
                None => {
                    if let Some(o) = merged.as_object_mut() {
                        o.remove("status");
                    }
                }
            }
            let from_client = status_metadata(resource);
            if let (false, Some(m)) = (
                from_client.is_empty(),
                super::meta::metadata_mut(&mut merged),
            ) {
                for k in from_client {
                    match obj.pointer(&format!("/metadata/{k}")) {
                        Some(v) => {
                            m.insert((*k).into(), v.clone());
                        }
                        None => {
                            m.remove(*k);
                        }
                    }
                }
            }
            merged
        }
        "ephemeralcontainers" => {
            let mut merged = cur.clone();
            match obj.pointer("/spec/ephemeralContainers") {
                Some(e) => merged["spec"]["ephemeralContainers"] = e.clone(),
                None => {
                    if let Some(spec) = merged.get_mut("spec").and_then(Value::as_object_mut) {
                        spec.remove("ephemeralContainers");
                    }
                }
            }
            merged
        }
        "resize" => resized(cur, &obj),
        "approval" => {
            let mut merged = cur.clone();
            merged["status"]["conditions"] = obj
                .pointer("/status/conditions")
                .cloned()
                .unwrap_or(json!([]));
            merged
        }
        _ => {
            let mut obj = obj;
            if resource.status_split() {
                if let Some(o) = obj.as_object_mut() {
                    match cur.get("status") {
                        Some(s) => {
                            o.insert("status".into(), s.clone());
                        }
                        None => {
                            o.remove("status");
                        }
                    }
                }
            }
            obj
        }
    }
}

/// `cur` with the resources and resize policies of `obj`'s containers (by name), all a
/// write through `pods/resize` changes (upstream's dropNonResizeUpdates).
fn resized(cur: &Value, obj: &Value) -> Value {
    let mut merged = cur.clone();
    for list in ["containers", "initContainers"] {
        let wanted = obj
            .pointer(&format!("/spec/{list}"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let Some(have) = merged
            .pointer_mut(&format!("/spec/{list}"))
            .and_then(Value::as_array_mut)
        else {
            continue;
        };
        for c in have.iter_mut() {
            let name = c.get("name").cloned();
            let Some(w) = wanted.iter().find(|w| w.get("name") == name.as_ref()) else {
                continue;
            };
            for k in ["resources", "resizePolicy"] {
                match (w.get(k), c.as_object_mut()) {
                    (Some(v), Some(o)) => {
                        o.insert(k.into(), v.clone());
                    }
                    (None, Some(o)) => {
                        o.remove(k);
                    }
                    _ => {}
                }
            }
        }
    }
    merged
}
