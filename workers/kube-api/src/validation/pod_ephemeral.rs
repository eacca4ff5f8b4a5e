//! A pod's `ephemeral` volumes as kube-apiserver 1.33 validates them (facts in
//! /work/notes/validation-spec-5.md §2.1–2.2, §3.29): the claim template's metadata may
//! hold only labels and annotations, its spec is a claim spec (without the claim
//! strategy's data source normalisation), and the claim the pod will get, named
//! `<pod>-<volume>`, must have a valid name and must not be mounted as a plain claim.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    annotations, arr, dns_subdomain_msgs, forbidden, invalid, labels, required, s,
};

/// ObjectMeta fields in Go order with the path segment upstream prints for each (Go's
/// field name with its first letter lowered: `uID`).
const META_FIELDS: [(&str, &str); 13] = [
    ("name", "name"),
    ("generateName", "generateName"),
    ("namespace", "namespace"),
    ("selfLink", "selfLink"),
    ("uid", "uID"),
    ("resourceVersion", "resourceVersion"),
    ("generation", "generation"),
    ("creationTimestamp", "creationTimestamp"),
    ("deletionTimestamp", "deletionTimestamp"),
    ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds"),
    ("ownerReferences", "ownerReferences"),
    ("finalizers", "finalizers"),
    ("managedFields", "managedFields"),
];

/// A set field: not Go's zero value for it.
fn set(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::String(s) => !s.is_empty(),
        Value::Number(n) => n.as_f64() != Some(0.0),
        _ => true,
    }
}

/// A template's metadata at `at`: valid annotations and labels, nothing else.
fn template_meta(meta: Option<&Value>, at: &str, out: &mut Vec<StatusCause>) {
    let empty = Value::Null;
    let meta = meta.unwrap_or(&empty);
    out.extend(annotations(
        meta.get("annotations").and_then(Value::as_object),
        &format!("{at}.annotations"),
    ));
    out.extend(labels(
        meta.get("labels").and_then(Value::as_object),
        &format!("{at}.labels"),
    ));
    for (key, shown) in META_FIELDS {
        if meta.get(key).is_some_and(set) {
            out.push(forbidden(&format!("{at}.{shown}"), "cannot be set"));
        }
    }
}

/// An `ephemeral` source at `at`, of the volume at `vp` named `vol` in the pod `pod`
/// (None for templates, whose pods have no name yet).
pub(super) fn ephemeral(
    v: &Value,
    vp: &str,
    vol: &str,
    pod: Option<&str>,
    out: &mut Vec<StatusCause>,
) {
    let at = format!("{vp}.ephemeral");
    match v.get("volumeClaimTemplate").filter(|t| !t.is_null()) {
        None => out.push(required(&format!("{at}.volumeClaimTemplate"), "")),
        Some(t) => {
            let tp = format!("{at}.volumeClaimTemplate");
            template_meta(t.get("metadata"), &format!("{tp}.metadata"), out);
            let empty = Value::Null;
            let spec = t.get("spec").unwrap_or(&empty);
            out.extend(super::storage::claim_spec(
                spec,
                &format!("{tp}.spec"),
                None,
            ));
        }
    }
    if let Some(pod) = pod.filter(|p| !p.is_empty() && !vol.is_empty()) {
        let claim = format!("{pod}-{vol}");
        for msg in dns_subdomain_msgs(&claim) {
            out.push(invalid(
                &format!("{vp}.name"),
                vol,
                &format!("PVC name \"{claim}\": {msg}"),
            ));
        }
    }
}

/// The claims the pod `pod` gets for its ephemeral volumes, which its other volumes may
/// not mount by name (their causes, in volume order).
pub(super) fn created_claims(spec: &Value, path: &str, pod: Option<&str>) -> Vec<StatusCause> {
    let Some(pod) = pod.filter(|p| !p.is_empty()) else {
        return Vec::new();
    };
    let volumes = arr(spec, "volumes");
    let created: Vec<String> = volumes
        .iter()
        .filter(|v| v.get("ephemeral").is_some_and(|e| !e.is_null()))
        .map(|v| format!("{pod}-{}", s(v, "name").unwrap_or("")))
        .collect();
    let mut out = Vec::new();
    for (i, vol) in volumes.iter().enumerate() {
        let Some(claim) = vol
            .get("persistentVolumeClaim")
            .and_then(|c| s(c, "claimName"))
        else {
            continue;
        };
        if created.iter().any(|c| c == claim) {
            out.push(invalid(
                &format!("{path}.volumes[{i}].persistentVolumeClaim.claimName"),
                claim,
                "must not reference a PVC that gets created for an ephemeral volume",
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::causes::messages;
    use serde_json::json;

    fn check(v: Value, pod: Option<&str>) -> Vec<String> {
        let mut out = Vec::new();
        ephemeral(&v, "v", "data", pod, &mut out);
        messages(&out)
    }

    #[test]
    fn claim_templates_follow_upstream() {
        assert_eq!(
            check(json!({}), None),
            ["v.ephemeral.volumeClaimTemplate: Required value"]
        );
        assert_eq!(
            check(
                json!({"volumeClaimTemplate": {
                    "metadata": {"name": "x", "uid": "u", "generation": 0, "labels": {"a": "b c"},
                        "creationTimestamp": null},
                    "spec": {"accessModes": ["ReadWriteOnce", "Often"],
                        "resources": {"requests": {"storage": "0"}}}}}),
                Some(&"p".repeat(250)),
            ),
            [
                "v.ephemeral.volumeClaimTemplate.metadata.labels: Invalid value: \"b c\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                "v.ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set",
                "v.ephemeral.volumeClaimTemplate.metadata.uID: Forbidden: cannot be set",
                "v.ephemeral.volumeClaimTemplate.spec.accessModes: Unsupported value: \"Often\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"",
                "v.ephemeral.volumeClaimTemplate.spec.resources[storage]: Invalid value: \"0\": must be greater than zero",
                &format!("v.name: Invalid value: \"data\": PVC name \"{}-data\": must be no more than 253 characters", "p".repeat(250)),
            ]
        );
    }

    #[test]
    fn created_claims_are_not_mounted_directly() {
        let spec = json!({"volumes": [
            {"name": "data", "ephemeral": {}},
            {"name": "other", "persistentVolumeClaim": {"claimName": "web-data"}},
        ]});
        assert_eq!(
            messages(&created_claims(&spec, "spec", Some("web"))),
            ["spec.volumes[1].persistentVolumeClaim.claimName: Invalid value: \"web-data\": must not reference a PVC that gets created for an ephemeral volume"]
        );
        assert!(created_claims(&spec, "spec", None).is_empty());
    }
}
