//! The volume sources that project API data into files, as kube-apiserver 1.33 validates
//! them (facts in /work/notes/validation-spec-5.md §3.16, §3.26, §4.3–4.6): `downwardAPI`
//! volumes, `projected` volumes (secret, configMap, downwardAPI and serviceAccountToken
//! sources), and the downward API's field and resource selectors, which environment
//! variables share.
//!
//! Upstream's quirks are kept: a downward API file's causes carry no `items[j]`, a token
//! path's are reported at the projected volume's `path`, and a duplicate path in secret
//! or configMap items shows the source's name as its value.

use std::collections::HashSet;

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, each_invalid, forbidden, invalid, invalid_int, not_supported, qualified_name_msgs,
    required, s, text,
};
use super::pod_volumes::{file_mode, key_to_path, non_reserved};

/// The fields a downward API volume file may project.
const VOLUME_FIELDS: [&str; 5] = [
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
];

/// The container resources the downward API exposes (besides hugepages).
const RESOURCES: [&str; 6] = [
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];

const BINARY_DIVISORS: [&str; 13] = [
    "1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei",
];

/// Splits `metadata.labels['key']` into its path and subscript.
fn subscripted(path: &str) -> Option<(&str, &str)> {
    let inner = path.strip_suffix("']")?;
    let (head, key) = inner.split_once("['")?;
    (!head.is_empty()).then_some((head, key))
}

/// The internal field a pod's downward API label names (`spec.host` is the old name of
/// `spec.nodeName`), or why it names none.
fn convert_label(version: &str, label: &str) -> Result<String, String> {
    const LABELS: [&str; 14] = [
        "metadata.annotations",
        "metadata.labels",
        "metadata.name",
        "metadata.namespace",
        "metadata.uid",
        "spec.nodeName",
        "spec.restartPolicy",
        "spec.serviceAccountName",
        "spec.schedulerName",
        "status.phase",
        "status.hostIP",
        "status.hostIPs",
        "status.podIP",
        "status.podIPs",
    ];
    if version != "v1" {
        return Err(format!("unsupported pod version: {version}"));
    }
    if let Some((path, _)) = subscripted(label) {
        return match path {
            "metadata.annotations" | "metadata.labels" => Ok(label.to_owned()),
            _ => Err(format!("field label does not support subscript: {label}")),
        };
    }
    match label {
        "spec.host" => Ok("spec.nodeName".to_owned()),
        l if LABELS.contains(&l) => Ok(l.to_owned()),
        _ => Err(format!("field label not supported: {label}")),
    }
}

/// A `fieldRef` at `fp`: a pod field the downward API converts, one of `allowed` (or a
/// label or annotation subscript with a qualified key).
pub(super) fn field_selector(fs: &Value, allowed: &[&str], fp: &str, out: &mut Vec<StatusCause>) {
    let version = text(fs, "apiVersion");
    if version.is_empty() {
        out.push(required(&format!("{fp}.apiVersion"), ""));
        return;
    }
    let path = text(fs, "fieldPath");
    if path.is_empty() {
        out.push(required(&format!("{fp}.fieldPath"), ""));
        return;
    }
    let internal = match convert_label(version, path) {
        Ok(p) => p,
        Err(e) => {
            out.push(invalid(
                &format!("{fp}.fieldPath"),
                path,
                &format!("error converting fieldPath: {e}"),
            ));
            return;
        }
    };
    match subscripted(&internal) {
        Some(("metadata.annotations", key)) => {
            let key = key.to_lowercase();
            out.extend(each_invalid(fp, &key, qualified_name_msgs(&key)));
        }
        Some(("metadata.labels", key)) => {
            out.extend(each_invalid(fp, key, qualified_name_msgs(key)));
        }
        Some((head, _)) => out.push(invalid(fp, head, "does not support subscript")),
        None if !allowed.contains(&internal.as_str()) => {
            out.push(not_supported(
                &format!("{fp}.fieldPath"),
                &internal,
                allowed,
            ));
        }
        None => {}
    }
}

/// A `resourceFieldRef` at `fp`; a volume file must name its container.
pub(super) fn resource_selector(rf: &Value, fp: &str, volume: bool, out: &mut Vec<StatusCause>) {
    let resource = text(rf, "resource");
    if volume && text(rf, "containerName").is_empty() {
        out.push(required(&format!("{fp}.containerName"), ""));
    } else if resource.is_empty() {
        out.push(required(&format!("{fp}.resource"), ""));
    } else if !RESOURCES.contains(&resource)
        && !resource.starts_with("requests.hugepages-")
        && !resource.starts_with("limits.hugepages-")
    {
        out.push(not_supported(
            &format!("{fp}.resource"),
            resource,
            &RESOURCES,
        ));
    }
    divisor(rf, resource, fp, out);
}

/// A set divisor must be a unit of the resource it divides.
fn divisor(rf: &Value, resource: &str, fp: &str, out: &mut Vec<StatusCause>) {
    let given = match rf.get("divisor") {
        Some(Value::String(q)) => q.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => return,
    };
    let Some(d) = kas_schema::quantity::canonical(&given) else {
        return;
    };
    if d == "0" {
        return;
    }
    let what = match resource {
        "limits.cpu" | "requests.cpu" => {
            if !["1m", "1"].contains(&d.as_str()) {
                out.push(invalid(
                    &format!("{fp}.divisor"),
                    resource,
                    "only divisor's values 1m and 1 are supported with the cpu resource",
                ));
            }
            return;
        }
        "limits.memory" | "requests.memory" => "memory",
        "limits.ephemeral-storage" | "requests.ephemeral-storage" => "local ephemeral storage",
        r if r.starts_with("requests.hugepages-") || r.starts_with("limits.hugepages-") => {
            "hugepages"
        }
        _ => return,
    };
    if !BINARY_DIVISORS.contains(&d.as_str()) {
        out.push(invalid(
            &format!("{fp}.divisor"),
            resource,
            &format!(
                "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the {what} resource"
            ),
        ));
    }
}

/// One downward API file; upstream reports its causes at `fp` itself (no item index).
fn downward_file(file: &Value, fp: &str, out: &mut Vec<StatusCause>) {
    let path = text(file, "path");
    if path.is_empty() {
        out.push(required(&format!("{fp}.path"), ""));
    }
    non_reserved(path, &format!("{fp}.path"), out);
    let field = file.get("fieldRef").filter(|v| !v.is_null());
    let resource = file.get("resourceFieldRef").filter(|v| !v.is_null());
    match (field, resource) {
        (Some(f), r) => {
            field_selector(f, &VOLUME_FIELDS, &format!("{fp}.fieldRef"), out);
            if r.is_some() {
                out.push(invalid(
                    fp,
                    "resource",
                    "fieldRef and resourceFieldRef can not be specified simultaneously",
                ));
            }
        }
        (None, Some(r)) => resource_selector(r, &format!("{fp}.resourceFieldRef"), true, out),
        (None, None) => out.push(required(
            fp,
            "one of fieldRef and resourceFieldRef is required",
        )),
    }
    file_mode(file, "mode", fp, out);
}

/// A `downwardAPI` volume source at `at`.
pub(super) fn downward_api(v: &Value, at: &str, out: &mut Vec<StatusCause>) {
    file_mode(v, "defaultMode", at, out);
    for item in arr(v, "items") {
        downward_file(item, at, out);
    }
}

/// A `projected` volume source of the volume at `vp` (`spec.volumes[i]`).
pub(super) fn projected(v: &Value, vp: &str, out: &mut Vec<StatusCause>) {
    let at = format!("{vp}.projected");
    file_mode(v, "defaultMode", &at, out);
    let mut paths: HashSet<&str> = HashSet::new();
    for (k, src) in arr(v, "sources").iter().enumerate() {
        let sp = format!("{at}.sources[{k}]");
        let mut kinds = 0;
        for kind in ["secret", "configMap"] {
            let Some(obj) = src.get(kind).filter(|v| !v.is_null()) else {
                continue;
            };
            kinds += 1;
            let pp = format!("{sp}.{kind}");
            let name = text(obj, "name");
            if name.is_empty() {
                out.push(required(&format!("{pp}.name"), ""));
            }
            for (j, item) in arr(obj, "items").iter().enumerate() {
                key_to_path(item, &format!("{pp}.items[{j}]"), out);
                let path = text(item, "path");
                if !path.is_empty() && !paths.insert(path) {
                    out.push(invalid(&at, name, "conflicting duplicate paths"));
                }
            }
        }
        if let Some(obj) = src.get("downwardAPI").filter(|v| !v.is_null()) {
            kinds += 1;
            let pp = format!("{sp}.downwardAPI");
            for item in arr(obj, "items") {
                downward_file(item, &pp, out);
                let path = text(item, "path");
                if !path.is_empty() && !paths.insert(path) {
                    out.push(invalid(&at, path, "conflicting duplicate paths"));
                }
            }
        }
        if let Some(obj) = src.get("serviceAccountToken").filter(|v| !v.is_null()) {
            kinds += 1;
            token(obj, &format!("{sp}.serviceAccountToken"), &at, out);
        }
        if kinds > 1 {
            out.push(forbidden(
                &sp,
                "may not specify more than 1 volume type per source",
            ));
        }
    }
}

/// A service account token source at `pp`; its path's causes go to `at.path`.
fn token(t: &Value, pp: &str, at: &str, out: &mut Vec<StatusCause>) {
    if let Some(secs) = t.get("expirationSeconds").and_then(Value::as_i64) {
        let field = format!("{pp}.expirationSeconds");
        if secs < 600 {
            out.push(invalid_int(
                &field,
                secs,
                "may not specify a duration less than 10 minutes",
            ));
        }
        if secs > 1 << 32 {
            out.push(invalid_int(
                &field,
                secs,
                "may not specify a duration larger than 2^32 seconds",
            ));
        }
    }
    let path = text(t, "path");
    if path.is_empty() {
        out.push(required(&format!("{at}.path"), ""));
    } else {
        non_reserved(path, &format!("{at}.path"), out);
    }
}

/// A pod without a service account may not project its token (checked after the spec).
pub(super) fn tokens_need_account(spec: &Value, out: &mut Vec<StatusCause>) {
    if s(spec, "serviceAccountName").is_some_and(|n| !n.is_empty()) {
        return;
    }
    for (i, vol) in arr(spec, "volumes").iter().enumerate() {
        let Some(p) = vol.get("projected").filter(|v| !v.is_null()) else {
            continue;
        };
        for (k, src) in arr(p, "sources").iter().enumerate() {
            if src.get("serviceAccountToken").is_some_and(|t| !t.is_null()) {
                out.push(forbidden(
                    &format!("spec.volumes[{i}].projected.sources[{k}].serviceAccountToken"),
                    "must not be specified when serviceAccountName is not set",
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::causes::messages;
    use serde_json::json;

    fn downward(items: Value) -> Vec<String> {
        let mut out = Vec::new();
        downward_api(&json!({ "items": items }), "v.downwardAPI", &mut out);
        messages(&out)
    }

    #[test]
    fn downward_files_follow_upstream() {
        assert_eq!(
            downward(json!([
                {"path": "..", "fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName"}},
                {"path": "a", "fieldRef": {"apiVersion": "v1", "fieldPath": "spec.host"}},
                {"path": "b", "fieldRef": {"apiVersion": "v2", "fieldPath": "metadata.name"}},
                {"path": "c", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['a b']"}},
                {"path": "d", "fieldRef": {"apiVersion": "v1", "fieldPath": "spec.containers['x']"}},
                {"path": "e", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"},
                    "resourceFieldRef": {"resource": "limits.cpu"}, "mode": 1000},
                {"path": "f"},
            ])),
            [
                "v.downwardAPI.path: Invalid value: \"..\": must not contain '..'",
                "v.downwardAPI.path: Invalid value: \"..\": must not start with '..'",
                "v.downwardAPI.fieldRef.fieldPath: Unsupported value: \"spec.nodeName\": supported values: \"metadata.annotations\", \"metadata.labels\", \"metadata.name\", \"metadata.namespace\", \"metadata.uid\"",
                "v.downwardAPI.fieldRef.fieldPath: Unsupported value: \"spec.nodeName\": supported values: \"metadata.annotations\", \"metadata.labels\", \"metadata.name\", \"metadata.namespace\", \"metadata.uid\"",
                "v.downwardAPI.fieldRef.fieldPath: Invalid value: \"metadata.name\": error converting fieldPath: unsupported pod version: v2",
                "v.downwardAPI.fieldRef: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                "v.downwardAPI.fieldRef.fieldPath: Invalid value: \"spec.containers['x']\": error converting fieldPath: field label does not support subscript: spec.containers['x']",
                "v.downwardAPI: Invalid value: \"resource\": fieldRef and resourceFieldRef can not be specified simultaneously",
                "v.downwardAPI.mode: Invalid value: 1000: must be a number between 0 and 0777 (octal), both inclusive",
                "v.downwardAPI: Required value: one of fieldRef and resourceFieldRef is required",
            ]
        );
    }

    #[test]
    fn resource_selectors_and_divisors() {
        assert_eq!(
            downward(json!([
                {"path": "a", "resourceFieldRef": {"resource": "limits.cpu"}},
                {"path": "b", "resourceFieldRef": {"containerName": "c", "resource": "limits.gpu"}},
                {"path": "c", "resourceFieldRef": {"containerName": "c", "resource": "limits.cpu", "divisor": "1000m"}},
                {"path": "d", "resourceFieldRef": {"containerName": "c", "resource": "limits.cpu", "divisor": "2"}},
                {"path": "e", "resourceFieldRef": {"containerName": "c", "resource": "requests.hugepages-2Mi", "divisor": "3Mi"}},
            ])),
            [
                "v.downwardAPI.resourceFieldRef.containerName: Required value",
                "v.downwardAPI.resourceFieldRef.resource: Unsupported value: \"limits.gpu\": supported values: \"limits.cpu\", \"limits.ephemeral-storage\", \"limits.memory\", \"requests.cpu\", \"requests.ephemeral-storage\", \"requests.memory\"",
                "v.downwardAPI.resourceFieldRef.divisor: Invalid value: \"limits.cpu\": only divisor's values 1m and 1 are supported with the cpu resource",
                "v.downwardAPI.resourceFieldRef.divisor: Invalid value: \"requests.hugepages-2Mi\": only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the hugepages resource",
            ]
        );
    }

    #[test]
    fn projected_sources_follow_upstream() {
        let mut out = Vec::new();
        projected(
            &json!({"defaultMode": -1, "sources": [
                {"serviceAccountToken": {"path": "/tok", "expirationSeconds": 60}},
                {"secret": {"name": "s", "items": [{"key": "k", "path": "p"}]},
                 "configMap": {"name": "c", "items": [{"key": "k", "path": "p"}]}},
                {"downwardAPI": {"items": [{"path": "p", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}]}},
                {"serviceAccountToken": {"expirationSeconds": 5000000000_i64}},
                {},
            ]}),
            "v",
            &mut out,
        );
        assert_eq!(
            messages(&out),
            [
                "v.projected.defaultMode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive",
                "v.projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes",
                "v.projected.path: Invalid value: \"/tok\": must be a relative path",
                "v.projected: Invalid value: \"c\": conflicting duplicate paths",
                "v.projected.sources[1]: Forbidden: may not specify more than 1 volume type per source",
                "v.projected: Invalid value: \"p\": conflicting duplicate paths",
                "v.projected.sources[3].serviceAccountToken.expirationSeconds: Invalid value: 5000000000: may not specify a duration larger than 2^32 seconds",
                "v.projected.path: Required value",
            ]
        );
    }
}
