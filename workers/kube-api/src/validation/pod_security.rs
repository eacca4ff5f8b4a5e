//! Security settings of a pod and its containers as kube-apiserver 1.33 validates them
//! (facts in /work/notes/validation-spec-6.md §2.6 and validation-spec-7.md §7.12): ID
//! ranges, sysctls (and the host namespaces they may not touch), seccomp and AppArmor
//! profiles, Windows options, the policies and `--allow-privileged`. What an operating
//! system or the host's namespaces forbid is `pod_os`'s.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::LazyLock;

use kas_server::status::StatusCause;
use regex::Regex;
use serde_json::Value;

use super::causes::{
    arr, dns_subdomain_msgs, each_invalid, forbidden, invalid, invalid_int, invalid_shown,
    not_supported, present, required, s, too_long,
};
use super::pod_volumes::descending;

/// `--allow-privileged`, as upstream's process-wide capabilities hold it.
static ALLOW_PRIVILEGED: AtomicBool = AtomicBool::new(false);

/// Sets `--allow-privileged` for this process (the kube-api worker, at start).
pub(crate) fn allow_privileged(on: bool) {
    ALLOW_PRIVILEGED.store(on, Ordering::Relaxed);
}

pub(super) fn privileged_allowed() -> bool {
    ALLOW_PRIVILEGED.load(Ordering::Relaxed)
}

const ID_RANGE: &str = "must be between 0 and 2147483647, inclusive";
const SYSCTL_RE: &str = r"^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$";
const PROFILE_TYPES: [&str; 3] = ["Localhost", "RuntimeDefault", "Unconfined"];

static PATTERNS: LazyLock<[Regex; 3]> = LazyLock::new(|| {
    [
        SYSCTL_RE,
        r#"^[^\\/:\*\?"<>|\.][^\\/:\*\?"<>|]{0,14}$"#,
        r"^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$",
    ]
    .map(|re| Regex::new(re).expect("security pattern"))
});

pub(super) fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool) == Some(true)
}

fn id(v: &Value, key: &str, at: &str, out: &mut Vec<StatusCause>) {
    if let Some(n) = v.get(key).and_then(Value::as_i64) {
        if !(0..=i64::from(i32::MAX)).contains(&n) {
            out.push(invalid_int(&format!("{at}.{key}"), n, ID_RANGE));
        }
    }
}

/// The containers of a pod spec in upstream's visiting order (init, regular,
/// ephemeral), with their paths.
pub(super) fn all_containers<'a>(spec: &'a Value, p: &str) -> Vec<(String, &'a Value)> {
    ["initContainers", "containers", "ephemeralContainers"]
        .iter()
        .flat_map(|kind| {
            arr(spec, kind)
                .iter()
                .enumerate()
                .map(move |(i, c)| (format!("{p}.{kind}[{i}]"), c))
        })
        .collect()
}

/// A seccomp profile at `at`.
fn seccomp(sp: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let t = s(sp, "type").unwrap_or("");
    if t.is_empty() {
        out.push(required(
            &format!("{at}.type"),
            "type is required when seccompProfile is set",
        ));
    } else if !PROFILE_TYPES.contains(&t) {
        out.push(not_supported(&format!("{at}.type"), t, &PROFILE_TYPES));
    }
    let profile = sp.get("localhostProfile").and_then(Value::as_str);
    let field = format!("{at}.localhostProfile");
    match profile {
        None if t == "Localhost" => out.push(required(
            &field,
            "must be set when seccomp type is Localhost",
        )),
        Some(p) if t == "Localhost" => descending(p, &field, out),
        Some(_) => out.push(invalid_shown(
            &field,
            &format!(
                "core.SeccompProfile{{Type:\"{t}\", LocalhostProfile:(*string)(0xc000000000)}}"
            ),
            "can only be set when seccomp type is Localhost",
        )),
        None => {}
    }
}

/// An AppArmor profile at `at`.
fn apparmor(ap: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let field = format!("{at}.localhostProfile");
    let profile = ap.get("localhostProfile").and_then(Value::as_str);
    const NEED: &str = "must be set when AppArmor type is Localhost";
    match s(ap, "type").unwrap_or("") {
        "Localhost" => {
            match profile {
                None => out.push(required(&field, NEED)),
                Some(p) if p.trim() != p => {
                    out.push(invalid(&field, p, "must not be padded with whitespace"));
                }
                Some("") => out.push(required(&field, NEED)),
                Some(_) => {}
            }
            if profile.is_some_and(|p| p.len() > 4095) {
                out.push(too_long(&field, 4095));
            }
        }
        "RuntimeDefault" | "Unconfined" => {
            if let Some(p) = profile {
                out.push(invalid(
                    &field,
                    p,
                    "can only be set when AppArmor type is Localhost",
                ));
            }
        }
        "" => out.push(required(
            &format!("{at}.type"),
            "type is required when appArmorProfile is set",
        )),
        other => out.push(not_supported(&format!("{at}.type"), other, &PROFILE_TYPES)),
    }
}

/// Why a Windows `runAsUserName` is refused (upstream's order).
fn run_as_user_name_msgs(name: &str) -> Vec<&'static str> {
    if name.is_empty() {
        return vec!["runAsUserName cannot be an empty string"];
    }
    if name.chars().any(|c| c.is_ascii_control()) {
        return vec!["runAsUserName cannot contain control characters"];
    }
    if name.matches('\\').count() > 1 {
        return vec!["runAsUserName cannot contain more than one backslash"];
    }
    let (domain, user) = match name.split_once('\\') {
        Some((d, u)) => (Some(d), u),
        None => (None, name),
    };
    let mut out = Vec::new();
    if let Some(d) = domain {
        if d.len() >= 256 {
            out.push("runAsUserName's Domain length must be under 256 characters");
        }
        let [_, netbios, dns] = &*PATTERNS;
        if !netbios.is_match(d) && !dns.is_match(d) {
            out.push("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
        }
    }
    if user.is_empty() {
        out.push("runAsUserName's User cannot be empty");
    } else if user.len() > 104 {
        out.push("runAsUserName's User length must not be longer than 104 characters");
    }
    if !user.is_empty() && user.chars().all(|c| c == '.' || c == ' ') {
        out.push("runAsUserName's User cannot contain only periods or spaces");
    }
    if user.chars().any(|c| "\"/\\:;|=,+*?<>@[]".contains(c)) {
        out.push(
            "runAsUserName's User cannot contain the following characters: \"/\\:;|=,+*?<>@[]",
        );
    }
    out
}

/// Windows options at `at`.
fn windows_options(w: &Value, at: &str, out: &mut Vec<StatusCause>) {
    if let Some(name) = w.get("gmsaCredentialSpecName").and_then(Value::as_str) {
        out.extend(each_invalid(
            &format!("{at}.gmsaCredentialSpecName"),
            name,
            dns_subdomain_msgs(name),
        ));
    }
    if let Some(spec) = w.get("gmsaCredentialSpec").and_then(Value::as_str) {
        let field = format!("{at}.gmsaCredentialSpec");
        if spec.is_empty() {
            out.push(invalid(
                &field,
                spec,
                "gmsaCredentialSpec cannot be an empty string",
            ));
        } else if spec.len() > 64 * 1024 {
            out.push(invalid(
                &field,
                spec,
                "gmsaCredentialSpec size must be under 64 KiB",
            ));
        }
    }
    if let Some(name) = w.get("runAsUserName").and_then(Value::as_str) {
        let field = format!("{at}.runAsUserName");
        for msg in run_as_user_name_msgs(name) {
            out.push(invalid(&field, name, msg));
        }
    }
}

/// The kernel namespace of a sysctl: `net` or `ipc`, or neither.
fn sysctl_namespace(name: &str) -> Option<&'static str> {
    let first = name.find(['.', '/']);
    let normal: String = match first {
        Some(i) if name.as_bytes()[i] == b'/' => name
            .chars()
            .map(|c| match c {
                '.' => '/',
                '/' => '.',
                c => c,
            })
            .collect(),
        _ => name.to_owned(),
    };
    let stem = normal.split('*').next().unwrap_or("");
    const IPC: [&str; 10] = [
        "kernel.sem",
        "kernel.shmall",
        "kernel.shmmax",
        "kernel.shmmni",
        "kernel.shm_rmid_forced",
        "kernel.shm",
        "kernel.msgmax",
        "kernel.msgmnb",
        "kernel.msgmni",
        "kernel.msg",
    ];
    if IPC.contains(&stem) || stem.starts_with("fs.mqueue.") {
        Some("ipc")
    } else if stem.starts_with("net.") {
        Some("net")
    } else {
        None
    }
}

fn sysctls(spec: &Value, list: &[Value], at: &str, out: &mut Vec<StatusCause>) {
    let (host_net, host_ipc) = (flag(spec, "hostNetwork"), flag(spec, "hostIPC"));
    let mut names = HashSet::new();
    for (i, sc) in list.iter().enumerate() {
        let field = format!("{at}[{i}].name");
        let name = s(sc, "name").unwrap_or("");
        let [pattern, ..] = &*PATTERNS;
        if name.is_empty() {
            out.push(required(&field, ""));
        } else if name.len() > 253 || !pattern.is_match(name) {
            out.push(invalid(
                &field,
                name,
                &format!("must have at most 253 characters and match regex {SYSCTL_RE}"),
            ));
        } else if names.contains(name) {
            out.push(super::causes::duplicate(&field, name));
        }
        match sysctl_namespace(name) {
            Some("net") if host_net => out.push(invalid(
                &field,
                name,
                "may not be specified when 'hostNetwork' is true",
            )),
            Some("ipc") if host_ipc => out.push(invalid(
                &field,
                name,
                "may not be specified when 'hostIPC' is true",
            )),
            _ => {}
        }
        names.insert(name);
    }
}

fn policy(v: &Value, key: &str, at: &str, allowed: &[&str], out: &mut Vec<StatusCause>) {
    if let Some(p) = v.get(key).and_then(Value::as_str) {
        if !allowed.contains(&p) {
            out.push(not_supported(&format!("{at}.{key}"), p, allowed));
        }
    }
}

/// The pod's securityContext (validatePodSpecSecurityContext), with the host namespace
/// fields that sit on the spec in v1.
pub(super) fn pod_context(spec: &Value, p: &str, out: &mut Vec<StatusCause>) {
    let empty = Value::Null;
    let sc = present(spec, "securityContext").unwrap_or(&empty);
    let at = format!("{p}.securityContext");
    id(sc, "fsGroup", &at, out);
    id(sc, "runAsUser", &at, out);
    id(sc, "runAsGroup", &at, out);
    for (g, n) in arr(sc, "supplementalGroups").iter().enumerate() {
        if let Some(n) = n
            .as_i64()
            .filter(|n| !(0..=i64::from(i32::MAX)).contains(n))
        {
            out.push(invalid_int(
                &format!("{at}.supplementalGroups[{g}]"),
                n,
                ID_RANGE,
            ));
        }
    }
    if flag(spec, "shareProcessNamespace") && flag(spec, "hostPID") {
        out.push(invalid_shown(
            &format!("{at}.shareProcessNamespace"),
            "true",
            "ShareProcessNamespace and HostPID cannot both be enabled",
        ));
    }
    let list = arr(sc, "sysctls");
    if !list.is_empty() {
        sysctls(spec, list, &format!("{at}.sysctls"), out);
    }
    policy(
        sc,
        "fsGroupChangePolicy",
        &at,
        &["Always", "OnRootMismatch"],
        out,
    );
    if let Some(sp) = present(sc, "seccompProfile") {
        seccomp(sp, &format!("{at}.seccompProfile"), out);
    }
    if let Some(w) = present(sc, "windowsOptions") {
        windows_options(w, &format!("{at}.windowsOptions"), out);
    }
    if let Some(ap) = present(sc, "appArmorProfile") {
        apparmor(ap, &format!("{at}.appArmorProfile"), out);
    }
    policy(
        sc,
        "supplementalGroupsPolicy",
        &at,
        &["Merge", "Strict"],
        out,
    );
    // SELinuxMount is off: only the recursive relabel may be asked for.
    policy(sc, "seLinuxChangePolicy", &at, &["Recursive"], out);
}

/// A container's securityContext (ValidateSecurityContext); `host_users` is false only
/// when the pod opts out of the host's user namespace.
pub(super) fn container_context(c: &Value, cp: &str, host_users: bool, out: &mut Vec<StatusCause>) {
    let Some(sc) = present(c, "securityContext") else {
        return;
    };
    let at = format!("{cp}.securityContext");
    if flag(sc, "privileged") && !privileged_allowed() {
        out.push(forbidden(
            &format!("{at}.privileged"),
            "disallowed by cluster policy",
        ));
    }
    id(sc, "runAsUser", &at, out);
    id(sc, "runAsGroup", &at, out);
    if let Some(pm) = sc.get("procMount").and_then(Value::as_str) {
        let field = format!("{at}.procMount");
        if !["Default", "Unmasked"].contains(&pm) {
            out.push(not_supported(&field, pm, &["Default", "Unmasked"]));
        }
        if host_users && pm == "Unmasked" {
            out.push(invalid(
                &field,
                pm,
                "`hostUsers` must be false to use `Unmasked`",
            ));
        }
    }
    if let Some(sp) = present(sc, "seccompProfile") {
        seccomp(sp, &format!("{at}.seccompProfile"), out);
    }
    if sc.get("allowPrivilegeEscalation").and_then(Value::as_bool) == Some(false) {
        let shown = go_security_context(sc);
        if flag(sc, "privileged") {
            out.push(invalid_shown(
                &at,
                &shown,
                "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
            ));
        }
        let adds = sc.pointer("/capabilities/add").and_then(Value::as_array);
        for cap in adds.into_iter().flatten() {
            if cap.as_str() == Some("CAP_SYS_ADMIN") {
                out.push(invalid_shown(
                    &at,
                    &shown,
                    "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
                ));
            }
        }
    }
    if let Some(w) = present(sc, "windowsOptions") {
        windows_options(w, &format!("{at}.windowsOptions"), out);
    }
    if let Some(ap) = present(sc, "appArmorProfile") {
        apparmor(ap, &format!("{at}.appArmorProfile"), out);
    }
}

/// `%#v` of an internal SecurityContext (its pointers at a fixed made-up address).
fn go_security_context(sc: &Value) -> String {
    const FIELDS: [(&str, &str, &str); 12] = [
        ("Capabilities", "capabilities", "core.Capabilities"),
        ("Privileged", "privileged", "bool"),
        ("SELinuxOptions", "seLinuxOptions", "core.SELinuxOptions"),
        (
            "WindowsOptions",
            "windowsOptions",
            "core.WindowsSecurityContextOptions",
        ),
        ("RunAsUser", "runAsUser", "int64"),
        ("RunAsGroup", "runAsGroup", "int64"),
        ("RunAsNonRoot", "runAsNonRoot", "bool"),
        ("ReadOnlyRootFilesystem", "readOnlyRootFilesystem", "bool"),
        (
            "AllowPrivilegeEscalation",
            "allowPrivilegeEscalation",
            "bool",
        ),
        ("ProcMount", "procMount", "core.ProcMountType"),
        ("SeccompProfile", "seccompProfile", "core.SeccompProfile"),
        ("AppArmorProfile", "appArmorProfile", "core.AppArmorProfile"),
    ];
    let parts: Vec<String> = FIELDS
        .iter()
        .map(|(go, json, ty)| {
            let addr = if present(sc, json).is_some() {
                "0xc000000000"
            } else {
                "nil"
            };
            format!("{go}:(*{ty})({addr})")
        })
        .collect();
    format!("core.SecurityContext{{{}}}", parts.join(", "))
}

#[cfg(test)]
#[path = "pod_security_tests.rs"]
mod tests;
