//! A container's volume mounts and block devices as kube-apiserver 1.33 validates them
//! (`ValidateVolumeMounts`, `ValidateVolumeDevices`; facts in
//! /work/notes/validation-spec-7.md §7.7–7.8): each names a valid pod volume, mount paths
//! and device paths are unique and never shared between the two, sub-paths are
//! relative without `..`, propagation and recursive read-only are coherent, and only
//! claims back devices. Upstream's unindexed paths (`volumeMounts.subPath`, …) are kept.

use std::collections::{HashMap, HashSet};

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{arr, forbidden, invalid, not_found, not_supported, required, s, text};
use super::pod_volumes::descending;

/// The pod's valid volumes: name → whether it can back a block device (a claim).
pub(super) type Volumes = HashMap<String, bool>;

/// name → path of a list of mounts or devices (the last entry of a name wins).
fn paths<'a>(c: &'a Value, list: &str, path_key: &str) -> HashMap<&'a str, &'a str> {
    arr(c, list)
        .iter()
        .map(|m| (text(m, "name"), text(m, path_key)))
        .collect()
}

/// The container `c`'s volume mounts at `cp.volumeMounts`.
pub(super) fn mounts(c: &Value, cp: &str, vols: &Volumes, out: &mut Vec<StatusCause>) {
    let devices = paths(c, "volumeDevices", "devicePath");
    let privileged = c
        .pointer("/securityContext/privileged")
        .and_then(Value::as_bool)
        == Some(true);
    let ms = format!("{cp}.volumeMounts");
    let mut points = HashSet::new();
    for (k, m) in arr(c, "volumeMounts").iter().enumerate() {
        let mp = format!("{ms}[{k}]");
        let (name, path) = (text(m, "name"), text(m, "mountPath"));
        if name.is_empty() {
            out.push(required(&format!("{mp}.name"), ""));
        }
        if !vols.contains_key(name) {
            out.push(not_found(&format!("{mp}.name"), name));
        }
        if path.is_empty() {
            out.push(required(&format!("{mp}.mountPath"), ""));
        }
        if !points.insert(path) {
            out.push(invalid(&format!("{mp}.mountPath"), path, "must be unique"));
        }
        if devices.contains_key(name) {
            out.push(invalid(
                &format!("{mp}.name"),
                name,
                "must not already exist in volumeDevices",
            ));
        }
        if devices.values().any(|d| *d == path) {
            out.push(invalid(
                &format!("{mp}.mountPath"),
                path,
                "must not already exist as a path in volumeDevices",
            ));
        }
        let sub = text(m, "subPath");
        if !sub.is_empty() {
            descending(sub, &format!("{ms}.subPath"), out);
        }
        let expr = text(m, "subPathExpr");
        if !expr.is_empty() {
            if !sub.is_empty() {
                out.push(invalid(
                    &format!("{mp}.subPathExpr"),
                    expr,
                    "subPathExpr and subPath are mutually exclusive",
                ));
            }
            descending(expr, &format!("{ms}.subPathExpr"), out);
        }
        let propagation = s(m, "mountPropagation");
        if let Some(p) = propagation {
            let field = format!("{ms}.mountPropagation");
            const MODES: [&str; 3] = ["Bidirectional", "HostToContainer", "None"];
            if !MODES.contains(&p) {
                out.push(not_supported(&field, p, &MODES));
            }
            if p == "Bidirectional" && !privileged {
                out.push(forbidden(
                    &field,
                    "Bidirectional mount propagation is available only to privileged containers",
                ));
            }
        }
        if let Some(rro) = s(m, "recursiveReadOnly") {
            let field = format!("{ms}.recursiveReadOnly");
            match rro {
                "Disabled" => {}
                "Enabled" | "IfPossible" => {
                    if m.get("readOnly").and_then(Value::as_bool) != Some(true) {
                        out.push(forbidden(
                            &field,
                            "may only be specified when readOnly is true",
                        ));
                    }
                    if propagation.is_some_and(|p| p != "None") {
                        out.push(forbidden(
                            &field,
                            "may only be specified when mountPropagation is None or not specified",
                        ));
                    }
                }
                other => out.push(not_supported(
                    &field,
                    other,
                    &["Disabled", "Enabled", "IfPossible"],
                )),
            }
        }
    }
}

/// The container `c`'s block devices at `cp.volumeDevices`.
pub(super) fn devices(c: &Value, cp: &str, vols: &Volumes, out: &mut Vec<StatusCause>) {
    let mounts = paths(c, "volumeMounts", "mountPath");
    let mut names = HashSet::new();
    let mut seen_paths = HashSet::new();
    for (k, d) in arr(c, "volumeDevices").iter().enumerate() {
        let dp = format!("{cp}.volumeDevices[{k}]");
        let (name, path) = (text(d, "name"), text(d, "devicePath"));
        let name_at = format!("{dp}.name");
        let path_at = format!("{dp}.devicePath");
        if name.is_empty() {
            out.push(required(&name_at, ""));
        }
        if names.contains(name) {
            out.push(invalid(&name_at, name, "must be unique"));
        }
        match vols.get(name) {
            Some(false) => out.push(invalid(
                &name_at,
                name,
                "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode",
            )),
            Some(true) => {}
            None => out.push(not_found(&name_at, name)),
        }
        if path.is_empty() {
            out.push(required(&path_at, ""));
        }
        if seen_paths.contains(path) {
            out.push(invalid(&path_at, path, "must be unique"));
        }
        if !path.is_empty() && path.split('/').any(|e| e == "..") {
            out.push(invalid(&path_at, path, "can not contain backsteps ('..')"));
        } else {
            seen_paths.insert(path);
        }
        if mounts.contains_key(name) {
            out.push(invalid(
                &name_at,
                name,
                "must not already exist in volumeMounts",
            ));
        }
        if mounts.values().any(|m| *m == path) {
            out.push(invalid(
                &path_at,
                path,
                "must not already exist as a path in volumeMounts",
            ));
        }
        if !name.is_empty() {
            names.insert(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::causes::messages;
    use serde_json::json;

    #[test]
    fn mounts_and_devices_follow_upstream() {
        let vols: Volumes = [("data".to_owned(), false), ("pvc".to_owned(), true)].into();
        let c = json!({
            "volumeMounts": [
                {"name": "data", "mountPath": "/data", "subPath": "/abs"},
                {"name": "missing", "mountPath": "/data", "subPath": "a", "subPathExpr": "../$(X)"},
                {"name": "data", "mountPath": "/m", "mountPropagation": "Bidirectional", "recursiveReadOnly": "Enabled"},
                {"name": "pvc", "mountPath": "/dev/xvda"}],
            "volumeDevices": [{"name": "data", "devicePath": "/dev/x"}, {"name": "pvc", "devicePath": "/dev/xvda"}],
        });
        let mut out = Vec::new();
        let p = "spec.containers[0]";
        mounts(&c, p, &vols, &mut out);
        devices(&c, p, &vols, &mut out);
        assert_eq!(
            messages(&out),
            [
                format!("{p}.volumeMounts[0].name: Invalid value: \"data\": must not already exist in volumeDevices"),
                format!("{p}.volumeMounts.subPath: Invalid value: \"/abs\": must be a relative path"),
                format!("{p}.volumeMounts[1].name: Not found: \"missing\""),
                format!("{p}.volumeMounts[1].mountPath: Invalid value: \"/data\": must be unique"),
                format!("{p}.volumeMounts[1].subPathExpr: Invalid value: \"../$(X)\": subPathExpr and subPath are mutually exclusive"),
                format!("{p}.volumeMounts.subPathExpr: Invalid value: \"../$(X)\": must not contain '..'"),
                format!("{p}.volumeMounts[2].name: Invalid value: \"data\": must not already exist in volumeDevices"),
                format!("{p}.volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers"),
                format!("{p}.volumeMounts.recursiveReadOnly: Forbidden: may only be specified when readOnly is true"),
                format!("{p}.volumeMounts.recursiveReadOnly: Forbidden: may only be specified when mountPropagation is None or not specified"),
                format!("{p}.volumeMounts[3].name: Invalid value: \"pvc\": must not already exist in volumeDevices"),
                format!("{p}.volumeMounts[3].mountPath: Invalid value: \"/dev/xvda\": must not already exist as a path in volumeDevices"),
                format!("{p}.volumeDevices[0].name: Invalid value: \"data\": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"),
                format!("{p}.volumeDevices[0].name: Invalid value: \"data\": must not already exist in volumeMounts"),
                format!("{p}.volumeDevices[1].name: Invalid value: \"pvc\": must not already exist in volumeMounts"),
                format!("{p}.volumeDevices[1].devicePath: Invalid value: \"/dev/xvda\": must not already exist as a path in volumeMounts"),
            ]
        );
    }
}
