//! The checks the restricted level adds (pod-security-admission's `policy/check_*.go` of
//! level restricted), worded as upstream's.

use std::collections::BTreeSet;

use serde_json::Value;

use super::baseline::{volumes as all_volumes, windows};
use super::checks::{containers, join_quote, name_of, nonnull, plural, sc, setters, Violation};

/// allowPrivilegeEscalation must be false.
pub(super) fn allow_privilege_escalation(
    _meta: &Value,
    spec: &Value,
    minor: u32,
) -> Option<Violation> {
    if windows(spec, minor) {
        return None;
    }
    let bad: Vec<String> = containers(spec)
        .filter(|c| {
            sc(c)
                .and_then(|s| s.get("allowPrivilegeEscalation"))
                .and_then(Value::as_bool)
                != Some(false)
        })
        .map(name_of)
        .collect();
    (!bad.is_empty()).then(|| {
        Violation::new(
            "allowPrivilegeEscalation != false",
            format!(
                "{} {} must set securityContext.allowPrivilegeEscalation=false",
                plural("container", "containers", bad.len()),
                join_quote(&bad)
            ),
        )
    })
}

/// Capabilities: drop ALL, add at most NET_BIND_SERVICE.
pub(super) fn capabilities(_meta: &Value, spec: &Value, minor: u32) -> Option<Violation> {
    if windows(spec, minor) {
        return None;
    }
    let (mut missing_drop, mut adding) = (Vec::new(), Vec::new());
    let mut forbidden = BTreeSet::new();
    for c in containers(spec) {
        let Some(caps) = nonnull(c, "/securityContext/capabilities") else {
            missing_drop.push(name_of(c));
            continue;
        };
        let list = |k: &str| {
            caps.get(k)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
        };
        if !list("drop").any(|d| d == "ALL") {
            missing_drop.push(name_of(c));
        }
        let mut bad = false;
        for a in list("add").filter(|a| *a != "NET_BIND_SERVICE") {
            bad = true;
            forbidden.insert(a.to_owned());
        }
        if bad {
            adding.push(name_of(c));
        }
    }
    let mut details = Vec::new();
    if !missing_drop.is_empty() {
        details.push(format!(
            "{} {} must set securityContext.capabilities.drop=[\"ALL\"]",
            plural("container", "containers", missing_drop.len()),
            join_quote(&missing_drop)
        ));
    }
    if !adding.is_empty() {
        let forbidden: Vec<String> = forbidden.into_iter().collect();
        details.push(format!(
            "{} {} must not include {} in securityContext.capabilities.add",
            plural("container", "containers", adding.len()),
            join_quote(&adding),
            join_quote(&forbidden)
        ));
    }
    (!details.is_empty()).then(|| Violation::new("unrestricted capabilities", details.join("; ")))
}

/// Volume sources a restricted pod may use.
const ALLOWED_VOLUMES: &[&str] = &[
    "configMap",
    "csi",
    "downwardAPI",
    "emptyDir",
    "ephemeral",
    "image",
    "persistentVolumeClaim",
    "projected",
    "secret",
];

/// Volume sources upstream names when refusing them.
const KNOWN_VOLUMES: &[&str] = &[
    "hostPath",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "gitRepo",
    "nfs",
    "iscsi",
    "glusterfs",
    "rbd",
    "flexVolume",
    "cinder",
    "cephfs",
    "flocker",
    "fc",
    "azureFile",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "portworxVolume",
    "scaleIO",
    "storageos",
];

/// Only the allowed volume types.
pub(super) fn volumes(_meta: &Value, spec: &Value, _minor: u32) -> Option<Violation> {
    let mut bad = Vec::new();
    let mut types = BTreeSet::new();
    for v in all_volumes(spec) {
        let set = |k: &str| nonnull(v, &format!("/{k}")).is_some();
        if ALLOWED_VOLUMES.iter().any(|k| set(k)) {
            continue;
        }
        bad.push(name_of(v));
        let kind = KNOWN_VOLUMES
            .iter()
            .find(|k| set(k))
            .copied()
            .unwrap_or("unknown");
        types.insert(kind.to_owned());
    }
    (!bad.is_empty()).then(|| {
        let types: Vec<String> = types.into_iter().collect();
        Violation::new(
            "restricted volume types",
            format!(
                "{} {} {} {} {}",
                plural("volume", "volumes", bad.len()),
                join_quote(&bad),
                plural("uses", "use", bad.len()),
                plural(
                    "restricted volume type",
                    "restricted volume types",
                    types.len()
                ),
                join_quote(&types)
            ),
        )
    })
}

/// runAsNonRoot must be true, for the pod or every container.
pub(super) fn run_as_non_root(_meta: &Value, spec: &Value, _minor: u32) -> Option<Violation> {
    let pod = nonnull(spec, "/securityContext/runAsNonRoot").and_then(Value::as_bool);
    let (mut explicit, mut implicit) = (Vec::new(), Vec::new());
    for c in containers(spec) {
        match nonnull(c, "/securityContext/runAsNonRoot").and_then(Value::as_bool) {
            Some(false) => explicit.push(name_of(c)),
            Some(true) => {}
            None if pod != Some(true) => implicit.push(name_of(c)),
            None => {}
        }
    }
    if let Some(who) = setters(pod == Some(false), &explicit) {
        return Some(Violation::new(
            "runAsNonRoot != true",
            format!("{who} must not set securityContext.runAsNonRoot=false"),
        ));
    }
    (!implicit.is_empty()).then(|| {
        Violation::new(
            "runAsNonRoot != true",
            format!(
                "pod or {} {} must set securityContext.runAsNonRoot=true",
                plural("container", "containers", implicit.len()),
                join_quote(&implicit)
            ),
        )
    })
}

/// runAsUser must not be 0.
pub(super) fn run_as_user(_meta: &Value, spec: &Value, _minor: u32) -> Option<Violation> {
    let root =
        |v: &Value| nonnull(v, "/securityContext/runAsUser").and_then(Value::as_i64) == Some(0);
    let bad: Vec<String> = containers(spec).filter(|c| root(c)).map(name_of).collect();
    let who = setters(root(spec), &bad)?;
    Some(Violation::new(
        "runAsUser=0",
        format!("{who} must not set runAsUser=0"),
    ))
}

/// Seccomp: RuntimeDefault or Localhost, for the pod or every container.
pub(super) fn seccomp(_meta: &Value, spec: &Value, minor: u32) -> Option<Violation> {
    if windows(spec, minor) {
        return None;
    }
    let valid = |p: &Value| {
        matches!(
            p.get("type").and_then(Value::as_str),
            Some("Localhost" | "RuntimeDefault")
        )
    };
    let mut values = BTreeSet::new();
    let pod = nonnull(spec, "/securityContext/seccompProfile");
    let pod_bad = pod.is_some_and(|p| !valid(p));
    if pod_bad {
        let t = pod
            .and_then(|p| p.get("type"))
            .and_then(Value::as_str)
            .unwrap_or("");
        values.insert(t.to_owned());
    }
    let pod_set = pod.is_some_and(valid);
    let (mut explicit, mut implicit) = (Vec::new(), Vec::new());
    for c in containers(spec) {
        match nonnull(c, "/securityContext/seccompProfile") {
            Some(p) if !valid(p) => {
                explicit.push(name_of(c));
                let t = p.get("type").and_then(Value::as_str).unwrap_or("");
                values.insert(t.to_owned());
            }
            Some(_) => {}
            None if !pod_set => implicit.push(name_of(c)),
            None => {}
        }
    }
    if let Some(who) = setters(pod_bad, &explicit) {
        let values: Vec<String> = values.into_iter().collect();
        return Some(Violation::new(
            "seccompProfile",
            format!(
                "{who} must not set securityContext.seccompProfile.type to {}",
                join_quote(&values)
            ),
        ));
    }
    (!implicit.is_empty()).then(|| {
        Violation::new(
            "seccompProfile",
            format!(
                "pod or {} {} must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\"",
                plural("container", "containers", implicit.len()),
                join_quote(&implicit)
            ),
        )
    })
}
