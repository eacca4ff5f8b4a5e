//! Unknown fields in a written object, as a server decoding into Go types sees them: they
//! are dropped, and `fieldValidation` says whether that is an error (`Strict`), a warning
//! (`Warn`, the default) or nothing (`Ignore`).

use serde_json::Value;

use super::store::Kind;

const OBJECT_META: &[&str] = &[
    "annotations",
    "creationTimestamp",
    "deletionGracePeriodSeconds",
    "deletionTimestamp",
    "finalizers",
    "generateName",
    "generation",
    "labels",
    "managedFields",
    "name",
    "namespace",
    "ownerReferences",
    "resourceVersion",
    "selfLink",
    "uid",
];

/// Removes from `map` the keys not in `known`, noting each as `<prefix><key>`.
fn prune(map: &mut Value, known: &[&str], prefix: &str, unknown: &mut Vec<String>) {
    let Some(m) = map.as_object_mut() else {
        return;
    };
    let gone: Vec<String> = m
        .keys()
        .filter(|k| !known.contains(&k.as_str()))
        .cloned()
        .collect();
    for k in gone {
        m.remove(&k);
        unknown.push(format!("{prefix}{k}"));
    }
}

/// Drops the fields `kind` does not have from `obj`; returns their paths, in order.
pub(crate) fn drop_unknown(kind: Kind, obj: &mut Value) -> Vec<String> {
    let mut unknown = Vec::new();
    let top: &[&str] = match kind {
        Kind::Flunder => &["apiVersion", "kind", "metadata", "spec", "status"],
        Kind::Fischer => &["apiVersion", "kind", "metadata", "disallowedFlunders"],
    };
    prune(obj, top, "", &mut unknown);
    prune(&mut obj["metadata"], OBJECT_META, "metadata.", &mut unknown);
    if kind == Kind::Flunder {
        if obj.get("spec").is_some() {
            prune(
                &mut obj["spec"],
                &["reference", "referenceType"],
                "spec.",
                &mut unknown,
            );
        }
        if obj.get("status").is_some() {
            prune(&mut obj["status"], &[], "status.", &mut unknown);
        }
    }
    unknown.sort();
    unknown
}

/// The `unknown field "<path>"` messages.
pub(crate) fn messages(unknown: &[String]) -> Vec<String> {
    unknown
        .iter()
        .map(|p| format!("unknown field \"{p}\""))
        .collect()
}
