//! A pod's containers, init containers and ephemeral containers as kube-apiserver 1.33
//! validates them (`validateContainers`, `validateInitContainers`,
//! `validateEphemeralContainers`, `validateContainerCommon`; facts in
//! /work/notes/validation-spec-7.md §3–7): the per-container rules in upstream's order
//! (name, image, termination message policy, ports, env, envFrom, mounts, devices, pull
//! policy, resources, resize policy, security context), names unique across the three
//! lists, host ports unique, sidecar rules, and what ephemeral containers may not set.

use std::collections::HashSet;

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, config_key_msgs, dns_label_msgs, dns_subdomain_msgs, duplicate, each_invalid, forbidden,
    invalid, invalid_int, not_found, not_supported, port_name_msgs, present, range_msg, required,
    s, text,
};
use super::pod_mounts::{devices, mounts, Volumes};
use super::pod_probes::{lifecycle, probe, Probe};
use super::pod_projection::{field_selector, resource_selector};

const RELAXED_ENV_MSG: &str =
    "a valid environment variable name must consist only of printable ASCII characters other than '='";

/// The fields an environment variable may take from the pod.
const ENV_FIELDS: [&str; 9] = [
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

/// What every container rule needs to know of its pod.
pub(super) struct Pod<'a> {
    pub(super) spec: &'a Value,
    pub(super) path: &'a str,
    pub(super) vols: &'a Volumes,
    /// False only when the pod opts out of the host's user namespace.
    pub(super) host_users: bool,
    /// The pod's terminationGracePeriodSeconds (bounds sleep hooks).
    pub(super) grace: Option<i64>,
}

fn ports(c: &Value, cp: &str, out: &mut Vec<StatusCause>) {
    let mut names = HashSet::new();
    for (k, port) in arr(c, "ports").iter().enumerate() {
        let pp = format!("{cp}.ports[{k}]");
        let name = text(port, "name");
        if !name.is_empty() {
            let msgs = port_name_msgs(name);
            if !msgs.is_empty() {
                out.extend(each_invalid(&format!("{pp}.name"), name, msgs));
            } else if !names.insert(name) {
                out.push(duplicate(&format!("{pp}.name"), name));
            }
        }
        let container_port = port
            .get("containerPort")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if container_port == 0 {
            out.push(required(&format!("{pp}.containerPort"), ""));
        } else if !(1..=65535).contains(&container_port) {
            out.push(invalid_int(
                &format!("{pp}.containerPort"),
                container_port,
                &range_msg(1, 65535),
            ));
        }
        let host_port = port.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
        if host_port != 0 && !(1..=65535).contains(&host_port) {
            out.push(invalid_int(
                &format!("{pp}.hostPort"),
                host_port,
                &range_msg(1, 65535),
            ));
        }
        match text(port, "protocol") {
            "" => out.push(required(&format!("{pp}.protocol"), "")),
            "TCP" | "UDP" | "SCTP" => {}
            other => out.push(not_supported(
                &format!("{pp}.protocol"),
                other,
                &["SCTP", "TCP", "UDP"],
            )),
        }
    }
}

/// Whether `name` is a relaxed environment variable name: printable ASCII but `=`.
fn env_name_ok(name: &str) -> bool {
    name.bytes().all(|b| (0x20..0x7f).contains(&b) && b != b'=')
}

fn key_selector(r: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let name = text(r, "name");
    out.extend(each_invalid(
        &format!("{at}.name"),
        name,
        dns_subdomain_msgs(name),
    ));
    let key = text(r, "key");
    if key.is_empty() {
        out.push(required(&format!("{at}.key"), ""));
    } else {
        out.extend(each_invalid(
            &format!("{at}.key"),
            key,
            config_key_msgs(key),
        ));
    }
}

fn env(c: &Value, cp: &str, out: &mut Vec<StatusCause>) {
    for (k, e) in arr(c, "env").iter().enumerate() {
        let ep = format!("{cp}.env[{k}]");
        let name = text(e, "name");
        if name.is_empty() {
            out.push(required(&format!("{ep}.name"), ""));
        } else if !env_name_ok(name) {
            out.push(invalid(&format!("{ep}.name"), name, RELAXED_ENV_MSG));
        }
        let Some(from) = present(e, "valueFrom") else {
            continue;
        };
        let vp = format!("{ep}.valueFrom");
        let mut sources = 0;
        if let Some(f) = present(from, "fieldRef") {
            sources += 1;
            field_selector(f, &ENV_FIELDS, &format!("{vp}.fieldRef"), out);
        }
        if let Some(r) = present(from, "resourceFieldRef") {
            sources += 1;
            resource_selector(r, &format!("{vp}.resourceFieldRef"), false, out);
        }
        for key in ["configMapKeyRef", "secretKeyRef"] {
            if let Some(r) = present(from, key) {
                sources += 1;
                key_selector(r, &format!("{vp}.{key}"), out);
            }
        }
        if sources == 0 {
            out.push(invalid(
                &vp,
                "",
                "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
            ));
        } else if !text(e, "value").is_empty() {
            out.push(invalid(
                &vp,
                "",
                "may not be specified when `value` is not empty",
            ));
        } else if sources > 1 {
            out.push(invalid(
                &vp,
                "",
                "may not have more than one field specified at a time",
            ));
        }
    }
}

fn env_from(c: &Value, cp: &str, out: &mut Vec<StatusCause>) {
    for (k, f) in arr(c, "envFrom").iter().enumerate() {
        let fp = format!("{cp}.envFrom[{k}]");
        let prefix = text(f, "prefix");
        if !prefix.is_empty() && !env_name_ok(prefix) {
            out.push(invalid(&format!("{fp}.prefix"), prefix, RELAXED_ENV_MSG));
        }
        let mut sources = 0;
        for key in ["configMapRef", "secretRef"] {
            let Some(r) = present(f, key) else {
                continue;
            };
            sources += 1;
            let name = text(r, "name");
            let at = format!("{fp}.{key}.name");
            if name.is_empty() {
                out.push(required(&at, ""));
            } else {
                let masked = kas_server::rest::mask_trailing_dash(name);
                out.extend(each_invalid(&at, name, dns_subdomain_msgs(&masked)));
            }
        }
        let at = format!("{cp}.envFrom");
        if sources == 0 {
            out.push(invalid(
                &at,
                "",
                "must specify one of: `configMapRef` or `secretRef`",
            ));
        } else if sources > 1 {
            out.push(invalid(
                &at,
                "",
                "may not have more than one field specified at a time",
            ));
        }
    }
}

fn resize_policy(c: &Value, cp: &str, pod_restart: &str, out: &mut Vec<StatusCause>) {
    let at = format!("{cp}.resizePolicy");
    let mut seen = HashSet::new();
    for (k, rp) in arr(c, "resizePolicy").iter().enumerate() {
        let (name, restart) = (text(rp, "resourceName"), text(rp, "restartPolicy"));
        if !seen.insert(name) {
            out.push(duplicate(&format!("{at}[{k}]"), name));
        }
        match name {
            "cpu" | "memory" => {}
            "" => out.push(required(&at, "")),
            other => out.push(not_supported(&at, other, &["cpu", "memory"])),
        }
        match restart {
            "NotRequired" | "RestartContainer" => {}
            "" => out.push(required(&at, "")),
            other => out.push(not_supported(
                &at,
                other,
                &["NotRequired", "RestartContainer"],
            )),
        }
        if pod_restart == "Never" && restart != "NotRequired" {
            out.push(invalid(
                &at,
                restart,
                "must be 'NotRequired' when `restartPolicy` is 'Never'",
            ));
        }
    }
}

/// validateContainerCommon: the rules every kind of container has.
fn common(c: &Value, cp: &str, pod: &Pod, out: &mut Vec<StatusCause>) {
    let name = text(c, "name");
    if name.is_empty() {
        out.push(required(&format!("{cp}.name"), ""));
    } else {
        out.extend(each_invalid(
            &format!("{cp}.name"),
            name,
            dns_label_msgs(name),
        ));
    }
    if text(c, "image").is_empty() {
        out.push(required(&format!("{cp}.image"), ""));
    }
    match text(c, "terminationMessagePolicy") {
        "" => out.push(required(&format!("{cp}.terminationMessagePolicy"), "")),
        "File" | "FallbackToLogsOnError" => {}
        other => out.push(not_supported(
            &format!("{cp}.terminationMessagePolicy"),
            other,
            &["File", "FallbackToLogsOnError"],
        )),
    }
    ports(c, cp, out);
    env(c, cp, out);
    env_from(c, cp, out);
    mounts(c, cp, pod.vols, out);
    devices(c, cp, pod.vols, out);
    match text(c, "imagePullPolicy") {
        "" => out.push(required(&format!("{cp}.imagePullPolicy"), "")),
        "Always" | "IfNotPresent" | "Never" => {}
        other => out.push(not_supported(
            &format!("{cp}.imagePullPolicy"),
            other,
            &["Always", "IfNotPresent", "Never"],
        )),
    }
    super::pod_resources::container(c, cp, out);
    resize_policy(c, cp, text(pod.spec, "restartPolicy"), out);
    super::pod_security::container_context(c, cp, pod.host_users, out);
}

/// Probes and hooks of a container that runs alongside the others (a regular container
/// or a sidecar).
fn probes_and_hooks(c: &Value, cp: &str, pod: &Pod, out: &mut Vec<StatusCause>) {
    if let Some(lc) = present(c, "lifecycle") {
        lifecycle(lc, &format!("{cp}.lifecycle"), pod.grace, out);
    }
    for (kind, key) in Probe::ALL {
        if let Some(p) = present(c, key) {
            probe(kind, p, &format!("{cp}.{key}"), pod.grace, out);
        }
    }
}

/// Host ports used twice (protocol, host IP and port alike) among `list`, reported at
/// `at[index]` (upstream's index: the container's, or 0 for each init container).
fn host_ports<'a>(
    list: impl Iterator<Item = (usize, &'a Value)>,
    at: &str,
    out: &mut Vec<StatusCause>,
) {
    let mut seen = HashSet::new();
    for (ci, c) in list {
        for (pi, port) in arr(c, "ports").iter().enumerate() {
            let host_port = port.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
            if host_port == 0 {
                continue;
            }
            let key = format!(
                "{}/{}/{host_port}",
                text(port, "protocol"),
                text(port, "hostIP")
            );
            if !seen.insert(key.clone()) {
                out.push(duplicate(&format!("{at}[{ci}].ports[{pi}].hostPort"), &key));
            }
        }
    }
}

/// validateContainers: the regular containers.
pub(super) fn containers(pod: &Pod, out: &mut Vec<StatusCause>) {
    let at = format!("{}.containers", pod.path);
    let list = arr(pod.spec, "containers");
    if list.is_empty() {
        out.push(required(&at, ""));
        return;
    }
    let mut names = HashSet::new();
    for (i, c) in list.iter().enumerate() {
        let cp = format!("{at}[{i}]");
        common(c, &cp, pod, out);
        let name = text(c, "name");
        if !names.insert(name) {
            out.push(duplicate(&format!("{cp}.name"), name));
        }
        probes_and_hooks(c, &cp, pod, out);
        if present(c, "restartPolicy").is_some() {
            out.push(forbidden(
                &format!("{cp}.restartPolicy"),
                "may not be set for non-init containers",
            ));
        }
    }
    host_ports(list.iter().enumerate(), &at, out);
}

/// validateInitContainers: init containers and sidecars (`restartPolicy: Always`).
pub(super) fn init_containers(pod: &Pod, out: &mut Vec<StatusCause>) {
    let at = format!("{}.initContainers", pod.path);
    let mut names: HashSet<&str> = arr(pod.spec, "containers")
        .iter()
        .map(|c| text(c, "name"))
        .collect();
    for (i, c) in arr(pod.spec, "initContainers").iter().enumerate() {
        let cp = format!("{at}[{i}]");
        common(c, &cp, pod, out);
        let restart = s(c, "restartPolicy");
        if let Some(rp) = restart.filter(|rp| *rp != "Always") {
            out.push(not_supported(
                &format!("{cp}.restartPolicy"),
                rp,
                &["Always"],
            ));
        }
        let name = text(c, "name");
        if names.contains(name) {
            out.push(duplicate(&format!("{cp}.name"), name));
        } else if !name.is_empty() {
            names.insert(name);
        }
        host_ports(std::iter::once((0, c)), &at, out);
        if restart == Some("Always") {
            probes_and_hooks(c, &cp, pod, out);
        } else {
            for key in [
                "lifecycle",
                "livenessProbe",
                "readinessProbe",
                "startupProbe",
            ] {
                if present(c, key).is_some() {
                    out.push(forbidden(
                        &format!("{cp}.{key}"),
                        "may not be set for init containers without restartPolicy=Always",
                    ));
                }
            }
        }
    }
}

/// Ephemeral containers' fields outside upstream's allow list, in Go struct order.
const EPHEMERAL_FORBIDDEN: [&str; 8] = [
    "ports",
    "resources",
    "resizePolicy",
    "restartPolicy",
    "livenessProbe",
    "readinessProbe",
    "startupProbe",
    "lifecycle",
];

/// A set field as Go's DeepEqual against the zero value sees it (`{}` resources are
/// zero, an empty list is not).
fn set(key: &str, v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::String(s) => !s.is_empty(),
        Value::Object(o) if key == "resources" => o.values().any(|x| !x.is_null()),
        _ => true,
    }
}

/// validateEphemeralContainers.
pub(super) fn ephemeral_containers(pod: &Pod, out: &mut Vec<StatusCause>) {
    let at = format!("{}.ephemeralContainers", pod.path);
    let others: HashSet<&str> = ["containers", "initContainers"]
        .iter()
        .flat_map(|k| arr(pod.spec, k))
        .map(|c| text(c, "name"))
        .collect();
    let mut names = others.clone();
    for (i, c) in arr(pod.spec, "ephemeralContainers").iter().enumerate() {
        let cp = format!("{at}[{i}]");
        common(c, &cp, pod, out);
        image_whitespace(c, &cp, out);
        let name = text(c, "name");
        if !names.insert(name) {
            out.push(duplicate(&format!("{cp}.name"), name));
        }
        let target = text(c, "targetContainerName");
        if !target.is_empty() && !others.contains(target) {
            out.push(not_found(&format!("{cp}.targetContainerName"), target));
        }
        for key in EPHEMERAL_FORBIDDEN {
            if c.get(key).is_some_and(|v| set(key, v)) {
                out.push(forbidden(
                    &format!("{cp}.{key}"),
                    "cannot be set for an Ephemeral Container",
                ));
            }
        }
        for (j, m) in arr(c, "volumeMounts").iter().enumerate() {
            for key in ["subPath", "subPathExpr"] {
                if !text(m, key).is_empty() {
                    out.push(forbidden(
                        &format!("{cp}.volumeMounts[{j}].{key}"),
                        "cannot be set for an Ephemeral Container",
                    ));
                }
            }
        }
    }
}

/// An image with surrounding whitespace (checked for Pods, and for every ephemeral
/// container).
pub(super) fn image_whitespace(c: &Value, cp: &str, out: &mut Vec<StatusCause>) {
    let image = text(c, "image");
    if image.trim() != image {
        out.push(invalid(
            &format!("{cp}.image"),
            image,
            "must not have leading or trailing whitespace",
        ));
    }
}

/// validatePodHostNetworkDeps: on the host's network a container's host port is its
/// container port (a template may leave it 0).
pub(super) fn host_network_ports(spec: &Value, p: &str, is_pod: bool, out: &mut Vec<StatusCause>) {
    if spec.get("hostNetwork").and_then(Value::as_bool) != Some(true) {
        return;
    }
    for (i, c) in arr(spec, "containers").iter().enumerate() {
        for (k, port) in arr(c, "ports").iter().enumerate() {
            let host = port.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
            let container = port
                .get("containerPort")
                .and_then(Value::as_i64)
                .unwrap_or(0);
            if (is_pod || host != 0) && host != container {
                out.push(invalid_int(
                    &format!("{p}.containers[{i}].ports[{k}].hostPort"),
                    host,
                    "must match `containerPort` when `hostNetwork` is true",
                ));
            }
        }
    }
}

#[cfg(test)]
#[path = "pod_containers_tests.rs"]
mod tests;
