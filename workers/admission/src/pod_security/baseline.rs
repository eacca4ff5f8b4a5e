//! The checks of the baseline level (pod-security-admission's `policy/check_*.go` of
//! level baseline), each answering a violation's reason and detail, worded as upstream's.

use std::collections::BTreeSet;

use serde_json::Value;

use super::checks::{
    containers, join_quote, name_of, nonnull, plural, setters, Violation, WINDOWS_EXEMPT,
};

/// Capabilities a baseline container may add.
const DEFAULT_CAPABILITIES: &[&str] = &[
    "AUDIT_WRITE",
    "CHOWN",
    "DAC_OVERRIDE",
    "FOWNER",
    "FSETID",
    "KILL",
    "MKNOD",
    "NET_BIND_SERVICE",
    "SETFCAP",
    "SETGID",
    "SETPCAP",
    "SETUID",
    "SYS_CHROOT",
];

fn is_true(v: Option<&Value>) -> bool {
    v.and_then(Value::as_bool) == Some(true)
}

/// AppArmor: no profile type other than RuntimeDefault or Localhost.
pub(super) fn app_armor(meta: &Value, spec: &Value, _minor: u32) -> Option<Violation> {
    let allowed = |t: &str| matches!(t, "RuntimeDefault" | "Localhost");
    let mut bad_values = BTreeSet::new();
    let mut bad_setters = Vec::new();
    if let Some(p) = nonnull(spec, "/securityContext/appArmorProfile") {
        let t = p.get("type").and_then(Value::as_str).unwrap_or("");
        if !allowed(t) {
            bad_setters.push("pod".to_owned());
            bad_values.insert(t.to_owned());
        }
    }
    let mut bad = Vec::new();
    for c in containers(spec) {
        if let Some(p) = nonnull(c, "/securityContext/appArmorProfile") {
            let t = p.get("type").and_then(Value::as_str).unwrap_or("");
            if !allowed(t) {
                bad.push(name_of(c));
                bad_values.insert(t.to_owned());
            }
        }
    }
    if !bad.is_empty() {
        bad_setters.push(format!(
            "{} {}",
            plural("container", "containers", bad.len()),
            join_quote(&bad)
        ));
    }
    let mut values: Vec<String> = bad_values.into_iter().collect();
    let mut annotations: Vec<String> = meta
        .get("annotations")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(k, _)| k.starts_with("container.apparmor.security.beta.kubernetes.io/"))
        .filter_map(|(k, v)| {
            let v = v.as_str().unwrap_or("");
            let ok = v.is_empty() || v == "runtime/default" || v.starts_with("localhost/");
            (!ok).then(|| format!("{k}={}", kas_server::status::go_quote(v)))
        })
        .collect();
    if !annotations.is_empty() {
        annotations.sort();
        bad_setters.push(plural("annotation", "annotations", annotations.len()).to_owned());
        values.extend(annotations);
    }
    if bad_setters.is_empty() {
        return None;
    }
    Some(Violation::new(
        plural(
            "forbidden AppArmor profile",
            "forbidden AppArmor profiles",
            values.len(),
        ),
        format!(
            "{} must not set AppArmor profile type to {}",
            bad_setters.join(" and "),
            join_quote(&values)
        ),
    ))
}

/// Capabilities beyond the default set (baseline's capabilities check).
pub(super) fn capabilities(_meta: &Value, spec: &Value, _minor: u32) -> Option<Violation> {
    let mut bad = Vec::new();
    let mut caps = BTreeSet::new();
    for c in containers(spec) {
        let added = nonnull(c, "/securityContext/capabilities/add").and_then(Value::as_array);
        let mut valid = true;
        for cap in added.into_iter().flatten().filter_map(Value::as_str) {
            if !DEFAULT_CAPABILITIES.contains(&cap) {
                valid = false;
                caps.insert(cap.to_owned());
            }
        }
        if !valid {
            bad.push(name_of(c));
        }
    }
    (!bad.is_empty()).then(|| {
        let caps: Vec<String> = caps.into_iter().collect();
        Violation::new(
            "non-default capabilities",
            format!(
                "{} {} must not include {} in securityContext.capabilities.add",
                plural("container", "containers", bad.len()),
                join_quote(&bad),
                join_quote(&caps)
            ),
        )
    })
}

/// Host network, PID and IPC namespaces.
pub(super) fn host_namespaces(_meta: &Value, spec: &Value, _minor: u32) -> Option<Violation> {
    let used: Vec<&str> = [
        ("hostNetwork", "hostNetwork=true"),
        ("hostPID", "hostPID=true"),
        ("hostIPC", "hostIPC=true"),
    ]
    .into_iter()
    .filter(|(k, _)| is_true(spec.get(*k)))
    .map(|(_, s)| s)
    .collect();
    (!used.is_empty()).then(|| Violation::new("host namespaces", used.join(", ")))
}

/// hostPath volumes.
pub(super) fn host_path_volumes(_meta: &Value, spec: &Value, _minor: u32) -> Option<Violation> {
    let names: Vec<String> = volumes(spec)
        .filter(|v| nonnull(v, "/hostPath").is_some())
        .map(name_of)
        .collect();
    (!names.is_empty()).then(|| {
        Violation::new(
            "hostPath volumes",
            format!(
                "{} {}",
                plural("volume", "volumes", names.len()),
                join_quote(&names)
            ),
        )
    })
}

pub(super) fn volumes(spec: &Value) -> impl Iterator<Item = &Value> {
    spec.get("volumes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// Host ports.
pub(super) fn host_ports(_meta: &Value, spec: &Value, _minor: u32) -> Option<Violation> {
    let mut bad = Vec::new();
    let mut ports = BTreeSet::new();
    for c in containers(spec) {
        let mut valid = true;
        for p in c
            .get("ports")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let port = p.get("hostPort").and_then(Value::as_i64).unwrap_or(0);
            if port != 0 {
                valid = false;
                ports.insert(port.to_string());
            }
        }
        if !valid {
            bad.push(name_of(c));
        }
    }
    (!bad.is_empty()).then(|| {
        let ports: Vec<String> = ports.into_iter().collect();
        Violation::new(
            "hostPort",
            format!(
                "{} {} {} {} {}",
                plural("container", "containers", bad.len()),
                join_quote(&bad),
                plural("uses", "use", bad.len()),
                plural("hostPort", "hostPorts", ports.len()),
                ports.join(", ")
            ),
        )
    })
}

/// Privileged containers.
pub(super) fn privileged(_meta: &Value, spec: &Value, _minor: u32) -> Option<Violation> {
    let bad: Vec<String> = containers(spec)
        .filter(|c| is_true(c.pointer("/securityContext/privileged")))
        .map(name_of)
        .collect();
    (!bad.is_empty()).then(|| {
        Violation::new(
            "privileged",
            format!(
                "{} {} must not set securityContext.privileged=true",
                plural("container", "containers", bad.len()),
                join_quote(&bad)
            ),
        )
    })
}

/// A /proc mount other than Default.
pub(super) fn proc_mount(_meta: &Value, spec: &Value, _minor: u32) -> Option<Violation> {
    let mut bad = Vec::new();
    let mut kinds = BTreeSet::new();
    for c in containers(spec) {
        if let Some(m) = nonnull(c, "/securityContext/procMount").and_then(Value::as_str) {
            if m != "Default" {
                bad.push(name_of(c));
                kinds.insert(m.to_owned());
            }
        }
    }
    (!bad.is_empty()).then(|| {
        let kinds: Vec<String> = kinds.into_iter().collect();
        Violation::new(
            "procMount",
            format!(
                "{} {} must not set securityContext.procMount to {}",
                plural("container", "containers", bad.len()),
                join_quote(&bad),
                join_quote(&kinds)
            ),
        )
    })
}

/// SELinux: only the container types, no user or role.
pub(super) fn se_linux(_meta: &Value, spec: &Value, minor: u32) -> Option<Violation> {
    let allowed = |t: &str| {
        matches!(
            t,
            "" | "container_t" | "container_init_t" | "container_kvm_t"
        ) || (minor >= 31 && t == "container_engine_t")
    };
    let mut bad_types = BTreeSet::new();
    let (mut set_user, mut set_role) = (false, false);
    let mut valid = |opts: &Value| {
        let t = opts.get("type").and_then(Value::as_str).unwrap_or("");
        let mut ok = true;
        if !allowed(t) {
            ok = false;
            bad_types.insert(t.to_owned());
        }
        if !opts
            .get("user")
            .and_then(Value::as_str)
            .unwrap_or("")
            .is_empty()
        {
            ok = false;
            set_user = true;
        }
        if !opts
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or("")
            .is_empty()
        {
            ok = false;
            set_role = true;
        }
        ok
    };
    let pod_bad = nonnull(spec, "/securityContext/seLinuxOptions").is_some_and(|o| !valid(o));
    let bad: Vec<String> = containers(spec)
        .filter(|c| nonnull(c, "/securityContext/seLinuxOptions").is_some_and(|o| !valid(o)))
        .map(name_of)
        .collect();
    let who = setters(pod_bad, &bad)?;
    let mut data = Vec::new();
    if !bad_types.is_empty() {
        let types: Vec<String> = bad_types.into_iter().collect();
        data.push(format!(
            "{} {}",
            plural("type", "types", types.len()),
            join_quote(&types)
        ));
    }
    if set_user {
        data.push("user may not be set".to_owned());
    }
    if set_role {
        data.push("role may not be set".to_owned());
    }
    Some(Violation::new(
        "seLinuxOptions",
        format!(
            "{who} set forbidden securityContext.seLinuxOptions: {}",
            data.join("; ")
        ),
    ))
}

/// Seccomp: no Unconfined profile (before v1.19: the alpha annotations).
pub(super) fn seccomp(meta: &Value, spec: &Value, minor: u32) -> Option<Violation> {
    if minor < 19 {
        return seccomp_annotations(meta, spec);
    }
    let mut values = BTreeSet::new();
    let mut check = |p: &Value| {
        let t = p.get("type").and_then(Value::as_str).unwrap_or("");
        let ok = matches!(t, "Localhost" | "RuntimeDefault");
        if !ok {
            values.insert(t.to_owned());
        }
        !ok
    };
    let pod_bad = nonnull(spec, "/securityContext/seccompProfile").is_some_and(&mut check);
    let bad: Vec<String> = containers(spec)
        .filter(|c| nonnull(c, "/securityContext/seccompProfile").is_some_and(&mut check))
        .map(name_of)
        .collect();
    let who = setters(pod_bad, &bad)?;
    let values: Vec<String> = values.into_iter().collect();
    Some(Violation::new(
        "seccompProfile",
        format!(
            "{who} must not set securityContext.seccompProfile.type to {}",
            join_quote(&values)
        ),
    ))
}

fn seccomp_annotations(meta: &Value, spec: &Value) -> Option<Violation> {
    const POD: &str = "seccomp.security.alpha.kubernetes.io/pod";
    let valid =
        |v: &str| v == "runtime/default" || v == "docker/default" || v.starts_with("localhost/");
    let annotation = |k: &str| {
        meta.get("annotations")
            .and_then(|a| a.get(k))
            .and_then(Value::as_str)
    };
    let mut bad = BTreeSet::new();
    let mut keys = vec![POD.to_owned()];
    keys.extend(containers(spec).map(|c| {
        format!(
            "container.seccomp.security.alpha.kubernetes.io/{}",
            name_of(c)
        )
    }));
    for k in keys {
        if let Some(v) = annotation(&k).filter(|v| !valid(v)) {
            bad.insert(format!("{k}={}", kas_server::status::go_quote(v)));
        }
    }
    (!bad.is_empty()).then(|| {
        let bad: Vec<String> = bad.into_iter().collect();
        Violation::new(
            "seccompProfile",
            format!(
                "forbidden {} {}",
                plural("annotation", "annotations", bad.len()),
                bad.join(", ")
            ),
        )
    })
}

/// Sysctls outside the safe set of the version.
pub(super) fn sysctls(_meta: &Value, spec: &Value, minor: u32) -> Option<Violation> {
    let allowed = |n: &str| {
        matches!(
            n,
            "kernel.shm_rmid_forced"
                | "net.ipv4.ip_local_port_range"
                | "net.ipv4.tcp_syncookies"
                | "net.ipv4.ping_group_range"
                | "net.ipv4.ip_unprivileged_port_start"
        ) || (minor >= 27 && n == "net.ipv4.ip_local_reserved_ports")
            || (minor >= 29
                && matches!(
                    n,
                    "net.ipv4.tcp_keepalive_time"
                        | "net.ipv4.tcp_fin_timeout"
                        | "net.ipv4.tcp_keepalive_intvl"
                        | "net.ipv4.tcp_keepalive_probes"
                ))
            || (minor >= 32 && matches!(n, "net.ipv4.tcp_rmem" | "net.ipv4.tcp_wmem"))
    };
    let bad: Vec<&str> = nonnull(spec, "/securityContext/sysctls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|s| s.get("name").and_then(Value::as_str).unwrap_or(""))
        .filter(|n| !allowed(n))
        .collect();
    (!bad.is_empty()).then(|| Violation::new("forbidden sysctls", bad.join(", ")))
}

/// Windows HostProcess containers.
pub(super) fn windows_host_process(_meta: &Value, spec: &Value, _minor: u32) -> Option<Violation> {
    const PATH: &str = "/securityContext/windowsOptions/hostProcess";
    let pod_bad = is_true(spec.pointer(PATH));
    let bad: Vec<String> = containers(spec)
        .filter(|c| is_true(c.pointer(PATH)))
        .map(name_of)
        .collect();
    let who = setters(pod_bad, &bad)?;
    Some(Violation::new(
        "hostProcess",
        format!("{who} must not set securityContext.windowsOptions.hostProcess=true"),
    ))
}

/// Whether the spec is for Windows (restricted checks from v1.25 skip it).
pub(super) fn windows(spec: &Value, minor: u32) -> bool {
    minor >= WINDOWS_EXEMPT && spec.pointer("/os/name").and_then(Value::as_str) == Some("windows")
}
