//! A PersistentVolumeClaim's data source (`spec.dataSource`, `spec.dataSourceRef`) and
//! its gated fields, as kube-apiserver 1.33's claim strategy and validation handle them
//! (AnyVolumeDataSource on, CrossNamespaceVolumeDataSource and VolumeAttributesClass off):
//!
//! * [`claim_prepare`] (PrepareForCreate/Update; a status write drops only the
//!   VolumeAttributesClass status fields): `volumeAttributesClassName` and a
//!   `dataSourceRef` with a namespace are dropped unless the stored claim has them; a
//!   legacy `dataSource` other than a claim or a VolumeSnapshot is dropped when no
//!   `dataSourceRef` is given and the stored claim has no source (the old silent
//!   behaviour); then whichever of the two is missing is copied from the other.
//! * [`data_source_rules`]: both name a kind and a name, an empty API group means a
//!   PersistentVolumeClaim, a group is a DNS subdomain (unless the stored claim already
//!   had an invalid one), a namespace is a DNS label, and the two agree.

use kas_server::status::StatusCause;
use serde_json::{json, Map, Value};

use super::causes::{
    dns_label_msgs, dns_subdomain_msgs, each_invalid, invalid, invalid_shown, required, s,
};

/// Upstream prints the `*field.Path` it passes as the value of the two agreement causes
/// with `%#v` (a pointer inside, so an address: this one is fixed).
const DATA_SOURCE_PATH: &str =
    "field.Path{name:\"dataSource\", index:\"\", parent:(*field.Path)(0xc000000000)}";

fn set(v: Option<&Value>) -> bool {
    v.is_some_and(|v| !v.is_null())
}

fn group_of(r: &Value) -> &str {
    s(r, "apiGroup").unwrap_or("")
}

fn namespace_of(r: &Value) -> &str {
    s(r, "namespace").unwrap_or("")
}

/// The claim strategy's PrepareForCreate (`old` None) and PrepareForUpdate; a status
/// write keeps the stored spec as it is and drops the VolumeAttributesClass status
/// fields the stored claim lacks.
pub(crate) fn claim_prepare(o: &mut Value, old: Option<&Value>, sub: &str) {
    if sub == "status" {
        for field in ["currentVolumeAttributesClassName", "modifyVolumeStatus"] {
            super::drop_unless_stored(o, old, "status", field);
        }
        return;
    }
    super::drop_unless_stored(o, old, "spec", "volumeAttributesClassName");
    let old_spec = old.and_then(|o| o.get("spec"));
    let had = |f: &str| set(old_spec.and_then(|s| s.get(f)));
    let (had_ref, had_source) = (
        had("dataSourceRef"),
        had("dataSource") || had("dataSourceRef"),
    );
    let Some(spec) = o.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    let cross_namespace = spec
        .get("dataSourceRef")
        .is_some_and(|r| !namespace_of(r).is_empty());
    if cross_namespace && !had_ref {
        spec.remove("dataSourceRef");
    }
    if !had_source && !set(spec.get("dataSourceRef")) {
        let legacy_ok = spec.get("dataSource").is_some_and(|d| {
            matches!(
                (s(d, "kind").unwrap_or(""), group_of(d)),
                ("PersistentVolumeClaim", "") | ("VolumeSnapshot", "snapshot.storage.k8s.io")
            )
        });
        if !legacy_ok {
            spec.remove("dataSource");
        }
    }
    normalize(spec);
}

/// Copies the data source the client gave to the field it left out.
pub(super) fn normalize(spec: &mut Map<String, Value>) {
    let copy = |from: &Value| {
        let mut to = json!({
            "kind": s(from, "kind").unwrap_or(""),
            "name": s(from, "name").unwrap_or(""),
        });
        if let Some(group) = from.get("apiGroup").filter(|g| !g.is_null()) {
            to["apiGroup"] = group.clone();
        }
        to
    };
    match (set(spec.get("dataSource")), set(spec.get("dataSourceRef"))) {
        (true, false) => {
            let r = copy(&spec["dataSource"]);
            spec.insert("dataSourceRef".into(), r);
        }
        (false, true) if namespace_of(&spec["dataSourceRef"]).is_empty() => {
            let d = copy(&spec["dataSourceRef"]);
            spec.insert("dataSource".into(), d);
        }
        _ => {}
    }
}

/// Whether the stored claim names a data source in an API group that is not a DNS
/// subdomain (then the claim may keep it).
fn invalid_group_allowed(old: Option<&Value>) -> bool {
    let Some(spec) = old else {
        return false;
    };
    ["dataSource", "dataSourceRef"].iter().any(|f| {
        spec.get(*f).is_some_and(|r| {
            let g = group_of(r);
            !g.is_empty() && !dns_subdomain_msgs(g).is_empty()
        })
    })
}

/// The causes of one reference (`dataSource` or `dataSourceRef`).
fn reference_rules(r: &Value, path: &str, allow_invalid_group: bool, out: &mut Vec<StatusCause>) {
    let kind = s(r, "kind").unwrap_or("");
    if s(r, "name").unwrap_or("").is_empty() {
        out.push(required(&format!("{path}.name"), ""));
    }
    if kind.is_empty() {
        out.push(required(&format!("{path}.kind"), ""));
    }
    let group = group_of(r);
    if group.is_empty() && kind != "PersistentVolumeClaim" {
        out.push(invalid(
            path,
            kind,
            "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
        ));
    }
    if !group.is_empty() && !allow_invalid_group {
        out.extend(each_invalid(
            &format!("{path}.apiGroup"),
            group,
            dns_subdomain_msgs(group),
        ));
    }
}

/// `dataSource` and `dataSourceRef` of a claim's spec at `path`, in upstream's order;
/// `old` is the stored claim's spec.
pub(crate) fn data_source_rules(spec: &Value, path: &str, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let allow = invalid_group_allowed(old);
    let source = spec.get("dataSource").filter(|v| !v.is_null());
    let reference = spec.get("dataSourceRef").filter(|v| !v.is_null());
    if let Some(d) = source {
        reference_rules(d, &format!("{path}.dataSource"), allow, &mut out);
    }
    if let Some(r) = reference {
        reference_rules(r, &format!("{path}.dataSourceRef"), allow, &mut out);
        let ns = namespace_of(r);
        if !ns.is_empty() {
            out.extend(each_invalid(
                &format!("{path}.dataSourceRef.namespace"),
                ns,
                dns_label_msgs(ns),
            ));
        }
    }
    match (source, reference) {
        (Some(_), Some(r)) if !namespace_of(r).is_empty() => out.push(invalid_shown(
            path,
            DATA_SOURCE_PATH,
            "may not be specified when dataSourceRef.namespace is specified",
        )),
        (Some(d), Some(r)) => {
            let same = d.get("apiGroup").filter(|g| !g.is_null())
                == r.get("apiGroup").filter(|g| !g.is_null())
                && s(d, "kind") == s(r, "kind")
                && s(d, "name") == s(r, "name");
            if !same {
                out.push(invalid_shown(
                    path,
                    DATA_SOURCE_PATH,
                    "must match dataSourceRef",
                ));
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::causes::messages;

    fn prepared(spec: Value, old: Option<Value>) -> Value {
        let mut o = json!({ "spec": spec });
        claim_prepare(&mut o, old.as_ref(), "");
        o["spec"].take()
    }

    #[test]
    fn sources_are_normalized_and_legacy_garbage_dropped() {
        let pvc = json!({"kind": "PersistentVolumeClaim", "name": "src"});
        assert_eq!(
            prepared(json!({"dataSource": pvc}), None),
            json!({"dataSource": pvc, "dataSourceRef": pvc})
        );
        let populator = json!({"apiGroup": "example.com", "kind": "Pop", "name": "p"});
        assert_eq!(
            prepared(json!({"dataSourceRef": populator}), None),
            json!({"dataSource": populator, "dataSourceRef": populator})
        );
        // A legacy source that is neither a claim nor a snapshot was always ignored.
        assert_eq!(prepared(json!({"dataSource": populator}), None), json!({}));
        // Cross-namespace references and attribute classes belong to gates that are off.
        let cross = json!({"kind": "PersistentVolumeClaim", "name": "s", "namespace": "other"});
        assert_eq!(
            prepared(
                json!({"dataSourceRef": cross, "volumeAttributesClassName": "gold"}),
                None
            ),
            json!({})
        );
        let old = json!({"spec": {"dataSourceRef": cross}});
        assert_eq!(
            prepared(json!({"dataSourceRef": cross}), Some(old)),
            json!({"dataSourceRef": cross})
        );
    }

    #[test]
    fn status_writes_drop_only_gated_status_fields() {
        let mut o = json!({"spec": {"dataSource": {"kind": "Pop", "name": "p"}},
            "status": {"phase": "Bound", "modifyVolumeStatus": {"status": "Pending"}}});
        let old = json!({"spec": {"dataSource": {"kind": "Pop", "name": "p"}}});
        claim_prepare(&mut o, Some(&old), "status");
        assert_eq!(
            o,
            json!({"spec": {"dataSource": {"kind": "Pop", "name": "p"}}, "status": {"phase": "Bound"}})
        );
    }

    #[test]
    fn references_follow_upstreams_rules() {
        let spec = json!({"dataSource": {"kind": "Pop", "name": ""},
            "dataSourceRef": {"apiGroup": "Bad_Group", "kind": "", "name": "x", "namespace": "A"}});
        assert_eq!(
            messages(&data_source_rules(&spec, "spec", None)),
            [
                "spec.dataSource.name: Required value",
                "spec.dataSource: Invalid value: \"Pop\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
                "spec.dataSourceRef.kind: Required value",
                "spec.dataSourceRef.apiGroup: Invalid value: \"Bad_Group\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "spec.dataSourceRef.namespace: Invalid value: \"A\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "spec: Invalid value: field.Path{name:\"dataSource\", index:\"\", parent:(*field.Path)(0xc000000000)}: may not be specified when dataSourceRef.namespace is specified",
            ]
        );
        let differ = json!({"dataSource": {"kind": "PersistentVolumeClaim", "name": "a"},
            "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "b"}});
        assert_eq!(
            messages(&data_source_rules(&differ, "spec", None)),
            ["spec: Invalid value: field.Path{name:\"dataSource\", index:\"\", parent:(*field.Path)(0xc000000000)}: must match dataSourceRef"]
        );
        // An invalid group the stored claim already had may stay.
        let bad = json!({"dataSourceRef": {"apiGroup": "Bad_Group", "kind": "K", "name": "x"}});
        assert!(data_source_rules(&bad, "spec", Some(&bad)).is_empty());
    }
}
