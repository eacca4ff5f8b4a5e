//! The pod rules of upstream's ephemeral containers and resize: no ephemeral
//! containers on create (their own rules are `pod_containers`'), what a write through `pods/ephemeralcontainers` may change (only add), and
//! what a write through `pods/resize` may change (CPU and memory of containers, not the
//! pod's QoS class).

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{arr, forbidden, s};

/// An empty value counts as unset, as Go's zero values do.
fn is_set(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        Value::Number(n) => n.as_f64() != Some(0.0),
    }
}

/// A pod created with ephemeral containers (they are added only through the
/// subresource).
pub(crate) fn ephemeral_on_create(obj: &Value) -> Vec<StatusCause> {
    if obj.pointer("/spec/ephemeralContainers").is_some_and(is_set) {
        vec![forbidden(
            "spec.ephemeralContainers",
            "cannot be set on create",
        )]
    } else {
        Vec::new()
    }
}

/// A pod written through `pods/ephemeralcontainers` (ValidatePodEphemeralContainersUpdate):
/// a valid spec and annotation update, whose existing ephemeral containers are as they
/// were.
pub(crate) fn pod_ephemeral(new: &Value, old: &Value) -> Vec<StatusCause> {
    // Static pods cannot be debugged so: that is all upstream reports for them.
    if old
        .pointer("/metadata/annotations/kubernetes.io~1config.mirror")
        .is_some()
    {
        return vec![forbidden(
            "",
            "static pods do not support ephemeral containers",
        )];
    }
    let mut out = super::pod::pod_spec_rules(new);
    super::pod_update::annotation_updates(new, old, &mut out);
    out.extend(ephemeral_update(new, old));
    out
}

/// A pod written through `pods/resize`: a valid spec, resized as a resize may.
pub(crate) fn pod_resize(new: &Value, old: &Value) -> Vec<StatusCause> {
    let mut out = super::pod::pod_spec_rules(new);
    out.extend(resize_update(new, old));
    out
}

/// A write through `pods/ephemeralcontainers`: existing ephemeral containers stay as
/// they were (none removed, none changed).
fn ephemeral_update(new: &Value, old: &Value) -> Vec<StatusCause> {
    let path = "spec.ephemeralContainers";
    let new_list = new
        .pointer("/spec/ephemeralContainers")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let mut out = Vec::new();
    for o in old
        .pointer("/spec/ephemeralContainers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = s(o, "name").unwrap_or("");
        match new_list.iter().find(|n| s(n, "name") == Some(name)) {
            None => out.push(forbidden(
                path,
                &format!(
                    "existing ephemeral containers {} may not be removed\n",
                    super::causes::quote(name)
                ),
            )),
            Some(n) if n != o => out.push(forbidden(
                path,
                &format!(
                    "existing ephemeral containers {} may not be changed\n",
                    super::causes::quote(name)
                ),
            )),
            Some(_) => {}
        }
    }
    out
}

/// The QoS class of a pod spec as upstream computes it.
fn qos(spec: &Value) -> &'static str {
    crate::defaults::qos_class(spec)
}

/// A write through `pods/resize`: only containers' CPU and memory requests and limits
/// (and resize policies) change, and the pod's QoS class stays what it was.
fn resize_update(new: &Value, old: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let (Some(new_spec), Some(old_spec)) = (new.get("spec"), old.get("spec")) else {
        return out;
    };
    for (i, c) in arr(new_spec, "containers").iter().enumerate() {
        let name = s(c, "name").unwrap_or("");
        for part in ["requests", "limits"] {
            if let Some(m) = c
                .pointer(&format!("/resources/{part}"))
                .and_then(Value::as_object)
            {
                for k in m.keys() {
                    let old_v = arr(old_spec, "containers")
                        .iter()
                        .find(|o| s(o, "name") == Some(name))
                        .and_then(|o| o.pointer(&format!("/resources/{part}/{k}")));
                    if !matches!(k.as_str(), "cpu" | "memory") && old_v != m.get(k) {
                        out.push(forbidden(
                            &format!("spec.containers[{i}].resources.{part}[{k}]"),
                            "only cpu and memory resources are mutable",
                        ));
                    }
                }
            }
        }
    }
    if qos(new_spec) != qos(old_spec) {
        out.push(forbidden(
            "spec",
            "Pod QOS Class may not change as a result of resizing",
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ephemeral_rules() {
        let old = json!({"spec": {"ephemeralContainers": [{"name": "a", "image": "x"}]}});
        let removed = json!({"spec": {"ephemeralContainers": []}});
        assert_eq!(
            ephemeral_update(&removed, &old)[0].message,
            "Forbidden: existing ephemeral containers \"a\" may not be removed\n"
        );
        let added = json!({"spec": {"ephemeralContainers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}]}});
        assert!(ephemeral_update(&added, &old).is_empty());
        // A static pod: that alone is reported, whatever else is wrong.
        let mut mirror = old.clone();
        mirror["metadata"] = json!({"annotations": {"kubernetes.io/config.mirror": "m"}});
        let errs = pod_ephemeral(&removed, &mirror);
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(
            errs[0].message,
            "Forbidden: static pods do not support ephemeral containers"
        );
        // An ephemeral containers write may not touch the AppArmor annotations either.
        let mut annotated = added.clone();
        annotated["metadata"] = json!({"annotations": {
            "container.apparmor.security.beta.kubernetes.io/b": "unconfined"}});
        let errs = pod_ephemeral(&annotated, &old);
        assert!(
            errs.iter()
                .any(|e| e.message == "Forbidden: may not add AppArmor annotations"),
            "{errs:?}"
        );
    }
}
