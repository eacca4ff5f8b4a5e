//! The warnings kube-apiserver 1.33 returns for a valid pod spec and its metadata
//! (`warningsForPodSpecAndMeta` in pkg/api/pod/warnings.go): deprecated node labels,
//! volume plugins and annotations, overlapping volume paths, duplicate host aliases and
//! pull secrets, fractional byte quantities, seccomp annotations without fields, hidden
//! env definitions, clashing ports, negative grace periods, null label selectors and
//! non-standard IP addresses. Which strategy warns when is `workload_warnings`'.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;

use serde_json::Value;

use super::causes::{arr, label_value_msgs, s};

fn deprecated_node_label(key: &str) -> Option<&'static str> {
    Some(match key {
        "beta.kubernetes.io/arch" => "deprecated since v1.14; use \"kubernetes.io/arch\" instead",
        "beta.kubernetes.io/os" => "deprecated since v1.14; use \"kubernetes.io/os\" instead",
        "failure-domain.beta.kubernetes.io/region" => {
            "deprecated since v1.17; use \"topology.kubernetes.io/region\" instead"
        }
        "failure-domain.beta.kubernetes.io/zone" => {
            "deprecated since v1.17; use \"topology.kubernetes.io/zone\" instead"
        }
        "beta.kubernetes.io/instance-type" => {
            "deprecated since v1.17; use \"node.kubernetes.io/instance-type\" instead"
        }
        "app.kubernetes.io/created-by" => "deprecated since v1.9",
        "scheduler.alpha.kubernetes.io/preferAvoidPods" => {
            "deprecated since v1.22; use Taints and Tolerations instead"
        }
        "node-role.kubernetes.io/master" => "use \"node-role.kubernetes.io/control-plane\" instead",
        _ => return None,
    })
}

/// `%v` of a Go `[]string`.
pub(super) fn go_list(msgs: &[String]) -> String {
    format!("[{}]", msgs.join(" "))
}

/// Go's `%q`.
pub(super) fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// A quantity that is not a whole number of bytes, as upstream prints it.
pub(super) fn fractional(v: Option<&Value>) -> Option<String> {
    let (text, n) = super::quantity::of(v?)?;
    let milli = (n * 1000.0).round() as i64;
    (milli % 1000 != 0).then(|| kas_schema::quantity::canonical(&text).unwrap_or(text))
}

/// GetWarningsForIP: an address upstream will refuse some day, or not in RFC 5952 form.
fn ip_warnings(at: &str, value: &str, out: &mut Vec<String>) {
    let Some(ip) = super::causes::sloppy_ip(value) else {
        return;
    };
    // Go's ParseIP prints a sloppy form (leading zeros, IPv4-mapped IPv6) as it reads it.
    let preferred = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    };
    let strict = value.parse::<IpAddr>().is_ok();
    if !strict || preferred != ip {
        out.push(format!("{at}: non-standard IP address {} will be considered invalid in a future Kubernetes release: use {}", q(value), q(&preferred.to_string())));
    } else if ip.is_ipv6() && ip.to_string() != value {
        out.push(format!(
            "{at}: IPv6 address {} should be in RFC 5952 canonical format ({})",
            q(value),
            q(&ip.to_string())
        ));
    }
}

pub(super) fn node_term(term: &Value, at: &str, check_values: bool, out: &mut Vec<String>) {
    for (i, e) in arr(term, "matchExpressions").iter().enumerate() {
        let key = s(e, "key").unwrap_or("");
        if let Some(msg) = deprecated_node_label(key) {
            out.push(format!("{at}.matchExpressions[{i}].key: {key} is {msg}"));
        }
        if check_values {
            for (j, v) in arr(e, "values").iter().enumerate() {
                let v = v.as_str().unwrap_or("");
                for msg in label_value_msgs(v) {
                    out.push(format!(
                        "{at}.matchExpressions[{i}].values[{j}]: {v} is invalid, {msg}"
                    ));
                }
            }
        }
    }
}

const VOLUME_DEPRECATIONS: [(&str, &str, &str); 9] = [
    (
        "photonPersistentDisk",
        "photonPersistentDisk",
        "deprecated in v1.11, non-functional in v1.16+",
    ),
    (
        "gitRepo",
        "gitRepo",
        "deprecated in v1.11, and disabled by default in v1.33+",
    ),
    (
        "scaleIO",
        "scaleIO",
        "deprecated in v1.16, non-functional in v1.22+",
    ),
    (
        "flocker",
        "flocker",
        "deprecated in v1.22, non-functional in v1.25+",
    ),
    (
        "storageos",
        "storageOS",
        "deprecated in v1.22, non-functional in v1.25+",
    ),
    (
        "quobyte",
        "quobyte",
        "deprecated in v1.22, non-functional in v1.25+",
    ),
    (
        "glusterfs",
        "glusterfs",
        "deprecated in v1.25, non-functional in v1.26+",
    ),
    (
        "cephfs",
        "cephfs",
        "deprecated in v1.28, non-functional in v1.31+",
    ),
    (
        "rbd",
        "rbd",
        "deprecated in v1.28, non-functional in v1.31+",
    ),
];

/// A path and where it comes from (`"a" (ConfigMap "c")`).
fn shown(path: &str, source: &str) -> String {
    if source.is_empty() {
        q(path)
    } else {
        format!("{} ({source})", q(path))
    }
}

/// Paths of one mapping that are equal to, or inside, earlier ones.
fn overlaps(paths: &[(String, String)], all: &mut Vec<(String, String)>) -> Vec<String> {
    let mut out = Vec::new();
    for (path, source) in paths {
        let path = path.trim_end_matches('/').to_owned();
        if !path.is_empty() {
            for (other, osrc) in all.iter().filter(|(o, _)| !o.is_empty()) {
                let clash = (other == &path && osrc == source)
                    || format!("{other}/").starts_with(&format!("{path}/"))
                    || format!("{path}/").starts_with(&format!("{other}/"));
                if clash {
                    out.push(format!(
                        "{} with {}",
                        shown(&path, source),
                        shown(other, osrc)
                    ));
                }
            }
        }
        all.push((path, source.clone()));
    }
    out
}

fn item_paths(items: &[Value], source: &str) -> Vec<(String, String)> {
    items
        .iter()
        .map(|i| (s(i, "path").unwrap_or("").to_owned(), source.to_owned()))
        .collect()
}

fn volume_path_warnings(vol: &Value, out: &mut Vec<String>) {
    let name = s(vol, "name").unwrap_or("");
    let warn = |desc: &str, body: String| {
        format!("volume {} ({desc}): overlapping paths: {body}", q(name))
    };
    for (key, name_key, kind) in [
        ("configMap", "name", "ConfigMap"),
        ("secret", "secretName", "Secret"),
    ] {
        if let Some(items) = vol
            .get(key)
            .and_then(|v| v.get("items"))
            .and_then(Value::as_array)
        {
            let desc = format!(
                "{kind} {}",
                q(vol[key].get(name_key).and_then(Value::as_str).unwrap_or(""))
            );
            for ol in overlaps(&item_paths(items, ""), &mut Vec::new()) {
                out.push(warn(&desc, ol));
            }
        }
    }
    if let Some(items) = vol.pointer("/downwardAPI/items").and_then(Value::as_array) {
        for ol in overlaps(&item_paths(items, ""), &mut Vec::new()) {
            out.push(warn("DownwardAPI", ol));
        }
    }
    let Some(projected) = vol.get("projected").filter(|p| !p.is_null()) else {
        return;
    };
    let mut all = Vec::new();
    // Upstream keeps the previous source's paths when a source has none of its own
    // (its variable outlives the loop's iterations), so they are compared again.
    let mut paths: Vec<(String, String)> = Vec::new();
    for src in arr(projected, "sources") {
        if src
            .as_object()
            .is_none_or(|o| o.values().all(Value::is_null))
        {
            out.push(format!(
                "volume {} (Projected) has no sources provided",
                q(name)
            ));
            continue;
        }
        let named = |kind: &str, v: &Value| format!("{kind} {}", q(s(v, "name").unwrap_or("")));
        if let Some(c) = src.get("configMap").filter(|c| c.get("items").is_some()) {
            paths = item_paths(arr(c, "items"), &named("ConfigMap", c));
        } else if let Some(c) = src.get("secret").filter(|c| c.get("items").is_some()) {
            paths = item_paths(arr(c, "items"), &named("Secret", c));
        } else if let Some(d) = src.get("downwardAPI").filter(|d| d.get("items").is_some()) {
            paths = item_paths(arr(d, "items"), "DownwardAPI");
        } else if let Some(t) = src.get("serviceAccountToken").filter(|t| !t.is_null()) {
            paths = vec![(
                s(t, "path").unwrap_or("").to_owned(),
                "ServiceAccountToken".to_owned(),
            )];
        }
        for ol in overlaps(&paths, &mut all) {
            out.push(warn("Projected", ol));
        }
    }
}

/// warningsForPodSpecAndMeta: `prefix` is `""` for a pod, the template's path plus `.`
/// for a template.
pub(super) fn spec_and_meta(prefix: &str, spec: &Value, meta: &Value, out: &mut Vec<String>) {
    let sp = format!("{prefix}spec");
    let mut selector: Vec<&String> = spec
        .get("nodeSelector")
        .and_then(Value::as_object)
        .map(|m| m.keys().collect())
        .unwrap_or_default();
    selector.sort();
    for k in selector {
        if let Some(msg) = deprecated_node_label(k) {
            out.push(format!("{sp}.nodeSelector[{k}]: {msg}"));
        }
    }
    if let Some(na) = spec.pointer("/affinity/nodeAffinity") {
        let req = "requiredDuringSchedulingIgnoredDuringExecution";
        for (i, t) in na
            .get(req)
            .map(|r| arr(r, "nodeSelectorTerms"))
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            node_term(
                t,
                &format!("{sp}.affinity.nodeAffinity.{req}.nodeSelectorTerms[{i}]"),
                false,
                out,
            );
        }
        for (i, p) in arr(na, "preferredDuringSchedulingIgnoredDuringExecution")
            .iter()
            .enumerate()
        {
            let empty = Value::Null;
            let pref = p.get("preference").unwrap_or(&empty);
            node_term(pref, &format!("{sp}.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[{i}].preference"), true, out);
        }
    }
    for (i, c) in arr(spec, "topologySpreadConstraints").iter().enumerate() {
        let key = s(c, "topologyKey").unwrap_or("");
        let cp = format!("{sp}.topologySpreadConstraints[{i}]");
        if let Some(msg) = deprecated_node_label(key) {
            out.push(format!("{cp}.topologyKey: {key} is {msg}"));
        }
        if c.get("labelSelector").is_none_or(Value::is_null) {
            out.push(format!(
                "{cp}.labelSelector: a null labelSelector results in matching no pod"
            ));
        }
    }
    let annotations = meta.get("annotations").and_then(Value::as_object);
    let has = |k: &str| annotations.is_some_and(|a| a.contains_key(k));
    let ap = format!("{prefix}metadata.annotations");
    for (key, msg) in [
        (
            "scheduler.alpha.kubernetes.io/critical-pod",
            "non-functional in v1.16+; use the \"priorityClassName\" field instead",
        ),
        (
            "security.alpha.kubernetes.io/sysctls",
            "non-functional in v1.11+; use the \"sysctls\" field instead",
        ),
        (
            "security.alpha.kubernetes.io/unsafe-sysctls",
            "non-functional in v1.11+; use the \"sysctls\" field instead",
        ),
    ] {
        if has(key) {
            out.push(format!("{ap}[{key}]: {msg}"));
        }
    }
    for (i, v) in arr(spec, "volumes").iter().enumerate() {
        let vp = format!("{sp}.volumes[{i}]");
        for (key, shown_as, msg) in VOLUME_DEPRECATIONS {
            if v.get(key).is_some_and(|x| !x.is_null()) {
                out.push(format!("{vp}.{shown_as}: {msg}"));
            }
            if key == "glusterfs" {
                if let Some(t) = v.pointer("/ephemeral/volumeClaimTemplate/spec") {
                    super::workload_warnings::claim_spec_warnings(
                        &format!("{vp}.ephemeral.volumeClaimTemplate.spec"),
                        t,
                        out,
                    );
                }
            }
        }
    }
    for v in arr(spec, "volumes") {
        volume_path_warnings(v, out);
    }
    let mut ips = HashSet::new();
    for (i, a) in arr(spec, "hostAliases").iter().enumerate() {
        let ip = s(a, "ip").unwrap_or("");
        if !ips.insert(ip) {
            out.push(format!("{sp}.hostAliases[{i}].ip: duplicate ip {}", q(ip)));
        }
    }
    let secrets = arr(spec, "imagePullSecrets");
    let mut names = HashSet::new();
    for (i, sec) in secrets.iter().enumerate() {
        let name = s(sec, "name").unwrap_or("");
        if !names.insert(name) {
            out.push(format!(
                "{sp}.imagePullSecrets[{i}].name: duplicate name {}",
                q(name)
            ));
        }
    }
    for (i, sec) in secrets.iter().enumerate() {
        let name = s(sec, "name").unwrap_or("");
        if name.is_empty() {
            out.push(format!(
                "{sp}.imagePullSecrets[{i}].name: invalid empty name \"\""
            ));
        }
    }
    for r in ["memory", "ephemeral-storage"] {
        if let Some(v) = fractional(spec.get("overhead").and_then(|o| o.get(r))) {
            out.push(format!(
                "{sp}.overhead[{r}]: fractional byte value {} is invalid, must be an integer",
                q(&v)
            ));
        }
    }
    let pod_seccomp = spec
        .pointer("/securityContext/seccompProfile")
        .is_some_and(|v| !v.is_null());
    const SECCOMP_POD: &str = "seccomp.security.alpha.kubernetes.io/pod";
    if !pod_seccomp && has(SECCOMP_POD) {
        out.push(format!("{ap}[{SECCOMP_POD}]: non-functional in v1.27+; use the \"seccompProfile\" field instead"));
    }
    let pod_apparmor = spec
        .pointer("/securityContext/appArmorProfile")
        .is_some_and(|v| !v.is_null());
    let containers = super::pod_security::all_containers(spec, &sp);
    for (cp, c) in &containers {
        container_warnings(prefix, c, cp, annotations, pod_apparmor, out);
    }
    ports(&containers, out);
    if spec
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64)
        .is_some_and(|g| g < 0)
    {
        out.push(format!("{sp}.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"));
    }
    for kind in ["podAffinity", "podAntiAffinity"] {
        let Some(a) = spec.get("affinity").and_then(|a| a.get(kind)) else {
            continue;
        };
        let kp = format!("{sp}.affinity.{kind}");
        for (i, t) in arr(a, "requiredDuringSchedulingIgnoredDuringExecution")
            .iter()
            .enumerate()
        {
            if t.get("labelSelector").is_none_or(Value::is_null) {
                out.push(format!("{kp}.requiredDuringSchedulingIgnoredDuringExecution[{i}].labelSelector: a null labelSelector results in matching no pod"));
            }
        }
        for (i, w) in arr(a, "preferredDuringSchedulingIgnoredDuringExecution")
            .iter()
            .enumerate()
        {
            if w.pointer("/podAffinityTerm/labelSelector")
                .is_none_or(Value::is_null)
            {
                out.push(format!("{kp}.preferredDuringSchedulingIgnoredDuringExecution[{i}].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod"));
            }
        }
    }
    if let Some(dns) = spec.get("dnsConfig") {
        for (i, ns) in arr(dns, "nameservers").iter().enumerate() {
            ip_warnings(
                &format!("{sp}.dnsConfig.nameservers[{i}]"),
                ns.as_str().unwrap_or(""),
                out,
            );
        }
    }
    for (i, a) in arr(spec, "hostAliases").iter().enumerate() {
        ip_warnings(
            &format!("{sp}.hostAliases[{i}].ip"),
            s(a, "ip").unwrap_or(""),
            out,
        );
    }
}

fn container_warnings(
    prefix: &str,
    c: &Value,
    cp: &str,
    annotations: Option<&serde_json::Map<String, Value>>,
    pod_apparmor: bool,
    out: &mut Vec<String>,
) {
    let name = s(c, "name").unwrap_or("");
    let has = |k: &str| annotations.is_some_and(|a| a.contains_key(k));
    let ap = format!("{prefix}metadata.annotations");
    let field = |k: &str| {
        c.pointer(&format!("/securityContext/{k}"))
            .is_some_and(|v| !v.is_null())
    };
    let seccomp_key = format!("container.seccomp.security.alpha.kubernetes.io/{name}");
    if !field("seccompProfile") && has(&seccomp_key) {
        out.push(format!("{ap}[{seccomp_key}]: non-functional in v1.27+; use the \"seccompProfile\" field instead"));
    }
    let apparmor_key = format!("container.apparmor.security.beta.kubernetes.io/{name}");
    if !prefix.is_empty() && !pod_apparmor && !field("appArmorProfile") && has(&apparmor_key) {
        out.push(format!("{ap}[{apparmor_key}]: deprecated since v1.30; use the \"appArmorProfile\" field instead"));
    }
    for (list, r) in [
        ("limits", "memory"),
        ("requests", "memory"),
        ("limits", "ephemeral-storage"),
        ("requests", "ephemeral-storage"),
    ] {
        if let Some(v) = fractional(c.pointer(&format!("/resources/{list}/{r}"))) {
            out.push(format!("{cp}.resources.{list}[{r}]: fractional byte value {} is invalid, must be an integer", q(&v)));
        }
    }
    let mut seen = HashSet::new();
    for (i, e) in arr(c, "env").iter().enumerate() {
        let n = s(e, "name").unwrap_or("");
        if seen.insert(n) {
            continue;
        }
        let reference = format!("$({n})");
        let value = s(e, "value").unwrap_or("");
        let from = e.get("valueFrom").is_some_and(|v| !v.is_null());
        if from || value == reference || !value.contains(&reference) {
            out.push(format!("{cp}.env[{i}]: hides previous definition of {}, which may be dropped when using apply", q(n)));
        }
    }
}

/// `%+v` of an internal ContainerPort.
fn go_port(p: &Value) -> String {
    let n = |k: &str| p.get(k).and_then(Value::as_i64).unwrap_or(0);
    format!(
        "{{Name:{} HostPort:{} ContainerPort:{} Protocol:{} HostIP:{}}}",
        s(p, "name").unwrap_or(""),
        n("hostPort"),
        n("containerPort"),
        s(p, "protocol").unwrap_or(""),
        s(p, "hostIP").unwrap_or("")
    )
}

fn ports(containers: &[(String, &Value)], out: &mut Vec<String>) {
    let mut all: HashMap<String, Vec<(String, &Value)>> = HashMap::new();
    for (cp, c) in containers {
        for (i, p) in arr(c, "ports").iter().enumerate() {
            let here = format!("{cp}.ports[{i}]");
            let host_ip = s(p, "hostIP").unwrap_or("");
            let host_port = p.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
            if !host_ip.is_empty() && host_port == 0 {
                out.push(format!(
                    "{here}: hostIP set without hostPort: {}",
                    go_port(p)
                ));
            }
            let key = format!(
                "{}/{}",
                p.get("containerPort").and_then(Value::as_i64).unwrap_or(0),
                s(p, "protocol").unwrap_or("")
            );
            let others = all.entry(key).or_default();
            for (other_at, other) in others.iter() {
                let other_ip = s(other, "hostIP").unwrap_or("");
                let other_port = other.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
                if host_ip == other_ip && host_port == other_port {
                    out.push(format!("{here}: duplicate port definition with {other_at}"));
                } else if host_port == 0 || other_port == 0 {
                    out.push(format!(
                        "{here}: overlapping port definition with {other_at}"
                    ));
                } else if host_port == other_port && (host_ip.is_empty() != other_ip.is_empty()) {
                    out.push(format!(
                        "{here}: dangerously ambiguous port definition with {other_at}"
                    ));
                }
            }
            others.push((here, p));
        }
    }
    let mut names: HashMap<&str, String> = HashMap::new();
    for (cp, c) in containers {
        for (i, p) in arr(c, "ports").iter().enumerate() {
            let name = s(p, "name").unwrap_or("");
            if name.is_empty() {
                continue;
            }
            let here = format!("{cp}.ports[{i}]");
            match names.get(name) {
                Some(other) => out.push(format!("{here}: duplicate port name {} with {other}, services and probes that select ports by name will use {other}", q(name))),
                None => {
                    names.insert(name, here);
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "pod_warnings_tests.rs"]
mod tests;
