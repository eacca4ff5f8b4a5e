//! What a pod's operating system and its sharing of host namespaces forbid, as
//! kube-apiserver 1.33 validates it (facts in /work/notes/validation-spec-6.md
//! §2.17–2.18): hostProcess pods all or nothing, on the host's network and only where
//! privileged containers are allowed; user namespaces apart from the host's shared
//! namespaces; the fields a Linux or a Windows pod may not set.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{arr, forbidden, invalid, invalid_shown, not_supported, present, required, s};
use super::pod_security::{all_containers, flag, privileged_allowed};

/// validateWindowsHostProcessPod: hostProcess all or nothing, with the host's network,
/// and only where privileged containers are allowed.
pub(super) fn host_process(spec: &Value, p: &str, out: &mut Vec<StatusCause>) {
    let pod = spec
        .pointer("/securityContext/windowsOptions/hostProcess")
        .and_then(Value::as_bool);
    let containers = all_containers(spec, p);
    let mut count = 0;
    for (cp, c) in &containers {
        let own = c
            .pointer("/securityContext/windowsOptions/hostProcess")
            .and_then(Value::as_bool);
        if let (Some(pod), Some(own)) = (pod, own) {
            if pod != own {
                out.push(invalid_shown(
                    &format!("{cp}.securityContext.windowsOptions.hostProcess"),
                    &own.to_string(),
                    &format!(
                        "pod hostProcess value must be identical if both are specified, was {pod}"
                    ),
                ));
            }
        }
        if own.or(pod) == Some(true) {
            count += 1;
        }
    }
    if count == 0 {
        return;
    }
    if count != containers.len() {
        out.push(invalid(
            p,
            "",
            "If pod contains any hostProcess containers then all containers must be HostProcess containers",
        ));
    }
    if !flag(spec, "hostNetwork") {
        out.push(invalid_shown(
            &format!("{p}.hostNetwork"),
            "false",
            "hostNetwork must be true if pod contains any hostProcess containers",
        ));
    }
    if !privileged_allowed() {
        out.push(forbidden(
            p,
            "hostProcess containers are disallowed by cluster policy",
        ));
    }
}

/// validateHostUsers: a pod in its own user namespace shares no other with the host.
pub(super) fn host_users(spec: &Value, p: &str, out: &mut Vec<StatusCause>) {
    if spec.get("hostUsers").and_then(Value::as_bool) != Some(false) {
        return;
    }
    for (key, shown) in [
        ("hostNetwork", "hostNetwork"),
        ("hostPID", "HostPID"),
        ("hostIPC", "HostIPC"),
    ] {
        if flag(spec, key) {
            out.push(forbidden(
                &format!("{p}.{shown}"),
                "when `pod.Spec.HostUsers` is false",
            ));
        }
    }
}

/// `os`: a known name, then what a Linux or a Windows pod may not set.
pub(super) fn os(spec: &Value, p: &str, out: &mut Vec<StatusCause>) {
    let Some(os) = present(spec, "os") else {
        return;
    };
    match s(os, "name").unwrap_or("") {
        "" => out.push(required(&format!("{p}.os.name"), "cannot be empty")),
        "linux" => linux(spec, p, out),
        "windows" => windows(spec, p, out),
        other => out.push(not_supported(
            &format!("{p}.os"),
            other,
            &["linux", "windows"],
        )),
    }
}

fn linux(spec: &Value, p: &str, out: &mut Vec<StatusCause>) {
    const MSG: &str = "windows options cannot be set for a linux pod";
    if spec
        .pointer("/securityContext/windowsOptions")
        .is_some_and(|w| !w.is_null())
    {
        out.push(forbidden(
            &format!("{p}.securityContext.windowsOptions"),
            MSG,
        ));
    }
    for (cp, c) in all_containers(spec, p) {
        if c.pointer("/securityContext/windowsOptions")
            .is_some_and(|w| !w.is_null())
        {
            out.push(forbidden(
                &format!("{cp}.securityContext.windowsOptions"),
                MSG,
            ));
        }
    }
}

fn windows(spec: &Value, p: &str, out: &mut Vec<StatusCause>) {
    const MSG: &str = "cannot be set for a windows pod";
    let empty = Value::Null;
    let sc = present(spec, "securityContext").unwrap_or(&empty);
    let sp = format!("{p}.securityContext");
    let in_context = |key: &str, out: &mut Vec<StatusCause>| {
        if present(sc, key).is_some() {
            out.push(forbidden(&format!("{sp}.{key}"), MSG));
        }
    };
    in_context("appArmorProfile", out);
    in_context("seLinuxOptions", out);
    if present(spec, "hostUsers").is_some() {
        out.push(forbidden(&format!("{p}.hostUsers"), MSG));
    }
    for key in ["hostPID", "hostIPC"] {
        if flag(spec, key) {
            out.push(forbidden(&format!("{p}.{key}"), MSG));
        }
    }
    in_context("seccompProfile", out);
    in_context("fsGroup", out);
    in_context("fsGroupChangePolicy", out);
    if !arr(sc, "sysctls").is_empty() {
        out.push(forbidden(&format!("{sp}.sysctls"), MSG));
    }
    if present(spec, "shareProcessNamespace").is_some() {
        out.push(forbidden(&format!("{p}.shareProcessNamespace"), MSG));
    }
    for key in [
        "runAsUser",
        "runAsGroup",
        "supplementalGroups",
        "supplementalGroupsPolicy",
        "seLinuxChangePolicy",
    ] {
        in_context(key, out);
    }
    for (cp, c) in all_containers(spec, p) {
        let Some(csc) = present(c, "securityContext") else {
            continue;
        };
        for key in [
            "appArmorProfile",
            "seLinuxOptions",
            "seccompProfile",
            "capabilities",
            "readOnlyRootFilesystem",
            "privileged",
            "allowPrivilegeEscalation",
            "procMount",
            "runAsUser",
            "runAsGroup",
        ] {
            if present(csc, key).is_some() {
                out.push(forbidden(&format!("{cp}.securityContext.{key}"), MSG));
            }
        }
    }
}
