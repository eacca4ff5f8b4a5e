//! A pod spec's simpler fields and a pod's own annotations as kube-apiserver 1.33
//! validates them (facts in /work/notes/validation-spec-6.md §1.2, §2.3, §2.12–2.16):
//! DNS policy and config (searches as the relaxed rule reads them), host aliases,
//! readiness and scheduling gates, and the mirror-pod, deletion-cost, seccomp and
//! AppArmor annotations.

use std::collections::HashSet;
use std::sync::LazyLock;

use kas_server::status::StatusCause;
use regex::Regex;
use serde_json::{Map, Value};

use super::causes::{
    arr, dns_subdomain_msgs, duplicate, each_invalid, forbidden, go_strings, invalid,
    invalid_shown, max_len_msg, qualified_name_msgs, required, s, sloppy_ip,
};

const IP_MSG: &str = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
const SUBDOMAIN_US_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

static SUBDOMAIN_US: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*$")
        .expect("subdomain pattern")
});

/// `dnsConfig`, read with the pod's `dnsPolicy`.
pub(super) fn dns_config(spec: &Value, p: &str, out: &mut Vec<StatusCause>) {
    let at = format!("{p}.dnsConfig");
    let config = spec.get("dnsConfig").filter(|c| !c.is_null());
    if s(spec, "dnsPolicy") == Some("None") {
        match config {
            None => {
                out.push(required(
                    &at,
                    "must provide `dnsConfig` when `dnsPolicy` is None",
                ));
                return;
            }
            Some(c) if arr(c, "nameservers").is_empty() => {
                out.push(required(
                    &format!("{at}.nameservers"),
                    "must provide at least one DNS nameserver when `dnsPolicy` is None",
                ));
                return;
            }
            _ => {}
        }
    }
    let Some(c) = config else {
        return;
    };
    let servers = arr(c, "nameservers");
    if servers.len() > 3 {
        out.push(invalid_shown(
            &format!("{at}.nameservers"),
            &go_strings(servers),
            "must not have more than 3 nameservers",
        ));
    }
    for (i, ns) in servers.iter().enumerate() {
        let ns = ns.as_str().unwrap_or("");
        if sloppy_ip(ns).is_none() {
            out.push(invalid(&format!("{at}.nameservers[{i}]"), ns, IP_MSG));
        }
    }
    let searches = arr(c, "searches");
    let names: Vec<&str> = searches.iter().map(|v| v.as_str().unwrap_or("")).collect();
    if names.len() > 32 {
        out.push(invalid_shown(
            &format!("{at}.searches"),
            &go_strings(searches),
            "must not have more than 32 search paths",
        ));
    }
    if names.join(" ").len() > 2048 {
        out.push(invalid_shown(
            &format!("{at}.searches"),
            &go_strings(searches),
            "must not have more than 2048 characters (including spaces) in the search list",
        ));
    }
    for (i, name) in names.iter().enumerate() {
        if *name == "." {
            continue;
        }
        let stripped = name.strip_suffix('.').unwrap_or(name);
        let field = format!("{at}.searches[{i}]");
        if stripped.len() > 253 {
            out.push(invalid(&field, stripped, &max_len_msg(253)));
        }
        if !SUBDOMAIN_US.is_match(stripped) {
            out.push(invalid(&field, stripped, SUBDOMAIN_US_MSG));
        }
    }
    for (i, o) in arr(c, "options").iter().enumerate() {
        if s(o, "name").unwrap_or("").is_empty() {
            out.push(required(&format!("{at}.options[{i}]"), "must not be empty"));
        }
    }
}

/// `hostAliases`: an IP and host names that are DNS subdomains.
pub(super) fn host_aliases(spec: &Value, p: &str, out: &mut Vec<StatusCause>) {
    for (i, a) in arr(spec, "hostAliases").iter().enumerate() {
        let ap = format!("{p}.hostAliases[{i}]");
        let ip = s(a, "ip").unwrap_or("");
        if sloppy_ip(ip).is_none() {
            out.push(invalid(&format!("{ap}.ip"), ip, IP_MSG));
        }
        for (j, h) in arr(a, "hostnames").iter().enumerate() {
            let h = h.as_str().unwrap_or("");
            out.extend(each_invalid(
                &format!("{ap}.hostnames[{j}]"),
                h,
                dns_subdomain_msgs(h),
            ));
        }
    }
}

/// `readinessGates`: condition types that are qualified names.
pub(super) fn readiness_gates(spec: &Value, p: &str, out: &mut Vec<StatusCause>) {
    for (i, g) in arr(spec, "readinessGates").iter().enumerate() {
        let t = s(g, "conditionType").unwrap_or("");
        out.extend(each_invalid(
            &format!("{p}.readinessGates[{i}].conditionType"),
            t,
            qualified_name_msgs(t),
        ));
    }
}

/// `schedulingGates`: distinct qualified names (reported at the gate itself).
pub(super) fn scheduling_gates(spec: &Value, p: &str, out: &mut Vec<StatusCause>) {
    let mut seen = HashSet::new();
    for (i, g) in arr(spec, "schedulingGates").iter().enumerate() {
        let name = s(g, "name").unwrap_or("");
        let at = format!("{p}.schedulingGates[{i}]");
        out.extend(each_invalid(&at, name, qualified_name_msgs(name)));
        if !seen.insert(name) {
            out.push(duplicate(&at, name));
        }
    }
}

/// A seccomp annotation's value: a known profile or a relative local one.
fn seccomp_annotation(value: &str, at: &str, out: &mut Vec<StatusCause>) {
    match value {
        "runtime/default" | "docker/default" | "unconfined" => {}
        v => match v.strip_prefix("localhost/") {
            Some(p) => super::pod_volumes::descending(p, at, out),
            None => out.push(invalid(at, v, "must be a valid seccomp profile")),
        },
    }
}

/// ValidatePodSpecificAnnotations: the annotations (at `at`) a pod's spec gives
/// meaning to.
pub(super) fn pod_annotations(
    annotations: Option<&Map<String, Value>>,
    spec: &Value,
    at: &str,
    out: &mut Vec<StatusCause>,
) {
    let Some(annotations) = annotations else {
        return;
    };
    let get = |k: &str| annotations.get(k).and_then(Value::as_str);
    const MIRROR: &str = "kubernetes.io/config.mirror";
    if let Some(v) = get(MIRROR) {
        if s(spec, "nodeName").unwrap_or("").is_empty() {
            out.push(invalid(
                &format!("{at}[{MIRROR}]"),
                v,
                "must set spec.nodeName if mirror pod annotation is set",
            ));
        }
    }
    // Upstream reads a non-empty value only.
    if let Some(v) = get(super::toleration_annotation::KEY).filter(|v| !v.is_empty()) {
        match super::toleration_annotation::decode(v) {
            Err(e) => out.push(invalid(at, super::toleration_annotation::KEY, &e)),
            Ok(list) => super::pod_scheduling::tolerations(
                &list,
                &format!("{at}.{}", super::toleration_annotation::KEY),
                out,
            ),
        }
    }
    const COST: &str = "controller.kubernetes.io/pod-deletion-cost";
    if let Some(v) = get(COST) {
        let canonical = v == "0"
            || (v.starts_with(['-', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
                && v.parse::<i32>().is_ok());
        if !canonical {
            out.push(invalid(
                &format!("{at}[{COST}]"),
                v,
                "must be a 32bit integer",
            ));
        }
    }
    const SECCOMP_POD: &str = "seccomp.security.alpha.kubernetes.io/pod";
    const SECCOMP_CONTAINER: &str = "container.seccomp.security.alpha.kubernetes.io/";
    if let Some(v) = get(SECCOMP_POD) {
        seccomp_annotation(v, &format!("{at}.{SECCOMP_POD}"), out);
    }
    let mut keys: Vec<&String> = annotations.keys().collect();
    keys.sort();
    for k in keys.iter().filter(|k| k.starts_with(SECCOMP_CONTAINER)) {
        seccomp_annotation(get(k).unwrap_or(""), &format!("{at}.{k}"), out);
    }
    const APPARMOR: &str = "container.apparmor.security.beta.kubernetes.io/";
    let names: HashSet<&str> = ["initContainers", "containers", "ephemeralContainers"]
        .iter()
        .flat_map(|kind| arr(spec, kind))
        .map(|c| s(c, "name").unwrap_or(""))
        .collect();
    for k in keys.iter().filter(|k| k.starts_with(APPARMOR)) {
        let field = format!("{at}[{k}]");
        let container = &k[APPARMOR.len()..];
        if !names.contains(container) {
            out.push(invalid(&field, container, "container not found"));
        }
        let v = get(k).unwrap_or("");
        if !matches!(v, "" | "runtime/default" | "unconfined") && !v.starts_with("localhost/") {
            out.push(invalid(
                &field,
                v,
                &format!("invalid AppArmor profile name: \"{v}\""),
            ));
        }
    }
}

/// An annotation that disagrees with the profile field it duplicates (`what`: seccomp or
/// apparmor), at the field `at`.
fn profile_match(
    what: &str,
    annotation: &str,
    profile: &Value,
    at: &str,
    out: &mut Vec<StatusCause>,
) {
    let type_ok = match s(profile, "type").unwrap_or("") {
        "Unconfined" => annotation == "unconfined",
        "RuntimeDefault" => {
            annotation == "runtime/default" || (what == "seccomp" && annotation == "docker/default")
        }
        "Localhost" => match annotation.strip_prefix("localhost/") {
            None => false,
            Some(p) => {
                if s(profile, "localhostProfile") != Some(p) {
                    out.push(forbidden(
                        &format!("{at}.localhostProfile"),
                        &format!("{what} profile in annotation and field must match"),
                    ));
                }
                true
            }
        },
        _ => true,
    };
    if !type_ok {
        out.push(forbidden(
            &format!("{at}.type"),
            &format!("{what} type in annotation and field must match"),
        ));
    }
}

/// validateSeccompAnnotationsAndFields and validateAppArmorAnnotationsAndFieldsMatchOnCreate:
/// the deprecated annotations agree with the profile fields they duplicate.
pub(super) fn profiles_match(
    annotations: Option<&Map<String, Value>>,
    spec: &Value,
    p: &str,
    out: &mut Vec<StatusCause>,
) {
    let get = |k: &str| annotations.and_then(|a| a.get(k)).and_then(Value::as_str);
    fn present(v: Option<&Value>) -> Option<&Value> {
        v.filter(|x| !x.is_null())
    }
    let containers = super::pod_security::all_containers(spec, p);
    let pod_seccomp = present(spec.pointer("/securityContext/seccompProfile"));
    if let (Some(f), Some(a)) = (pod_seccomp, get("seccomp.security.alpha.kubernetes.io/pod")) {
        profile_match(
            "seccomp",
            a,
            f,
            &format!("{p}.securityContext.seccompProfile"),
            out,
        );
    }
    for (cp, c) in &containers {
        let name = s(c, "name").unwrap_or("");
        let field = present(c.pointer("/securityContext/seccompProfile"));
        let key = format!("container.seccomp.security.alpha.kubernetes.io/{name}");
        if let (Some(f), Some(a)) = (field, get(&key)) {
            profile_match(
                "seccomp",
                a,
                f,
                &format!("{cp}.securityContext.seccompProfile"),
                out,
            );
        }
    }
    if spec.pointer("/os/name").and_then(Value::as_str) == Some("windows") {
        return;
    }
    let pod_apparmor = present(spec.pointer("/securityContext/appArmorProfile"));
    for (cp, c) in &containers {
        let name = s(c, "name").unwrap_or("");
        let field = present(c.pointer("/securityContext/appArmorProfile")).or(pod_apparmor);
        let key = format!("container.apparmor.security.beta.kubernetes.io/{name}");
        if let (Some(f), Some(a)) = (field, get(&key)) {
            profile_match(
                "apparmor",
                a,
                f,
                &format!("{cp}.securityContext.appArmorProfile"),
                out,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::causes::messages;
    use serde_json::json;

    #[test]
    fn dns_and_gates_follow_upstream() {
        let mut out = Vec::new();
        let spec = json!({"dnsPolicy": "ClusterFirst", "dnsConfig": {
            "nameservers": ["1.1.1.1", "2.2.2.2", "010.3.3.3", "bad"],
            "searches": ["Foo.com.", ".", "a_b.example."], "options": [{"name": ""}]},
            "hostAliases": [{"ip": "10.0.0.256", "hostnames": ["Foo", "ok.example"]}, {"ip": ""}],
            "readinessGates": [{"conditionType": "a/b/c"}],
            "schedulingGates": [{"name": "example.com/gate"}, {"name": "example.com/gate"}]});
        dns_config(&spec, "spec", &mut out);
        host_aliases(&spec, "spec", &mut out);
        readiness_gates(&spec, "spec", &mut out);
        scheduling_gates(&spec, "spec", &mut out);
        let got = messages(&out);
        assert_eq!(got[0], "spec.dnsConfig.nameservers: Invalid value: []string{\"1.1.1.1\", \"2.2.2.2\", \"010.3.3.3\", \"bad\"}: must not have more than 3 nameservers");
        assert_eq!(
            got[1],
            format!("spec.dnsConfig.nameservers[3]: Invalid value: \"bad\": {IP_MSG}")
        );
        assert_eq!(
            got[2],
            format!("spec.dnsConfig.searches[0]: Invalid value: \"Foo.com\": {SUBDOMAIN_US_MSG}")
        );
        assert_eq!(
            got[3],
            "spec.dnsConfig.options[0]: Required value: must not be empty"
        );
        assert_eq!(
            got[4],
            format!("spec.hostAliases[0].ip: Invalid value: \"10.0.0.256\": {IP_MSG}")
        );
        assert!(got[5].starts_with("spec.hostAliases[0].hostnames[0]: Invalid value: \"Foo\": a lowercase RFC 1123 subdomain"));
        assert_eq!(
            got[6],
            format!("spec.hostAliases[1].ip: Invalid value: \"\": {IP_MSG}")
        );
        assert!(got[7].starts_with(
            "spec.readinessGates[0].conditionType: Invalid value: \"a/b/c\": a qualified name"
        ));
        assert_eq!(
            got[8],
            "spec.schedulingGates[1]: Duplicate value: \"example.com/gate\""
        );
        assert_eq!(got.len(), 9);

        let mut out = Vec::new();
        dns_config(&json!({"dnsPolicy": "None"}), "spec", &mut out);
        dns_config(
            &json!({"dnsPolicy": "None", "dnsConfig": {}}),
            "spec",
            &mut out,
        );
        assert_eq!(
            messages(&out),
            [
                "spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None",
                "spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None",
            ]
        );
    }

    #[test]
    fn profile_annotations_must_match_fields() {
        let mut out = Vec::new();
        let annotations = json!({
            "seccomp.security.alpha.kubernetes.io/pod": "docker/default",
            "container.seccomp.security.alpha.kubernetes.io/c": "localhost/a",
            "container.apparmor.security.beta.kubernetes.io/c": "unconfined"});
        let spec = json!({"securityContext": {"seccompProfile": {"type": "RuntimeDefault"},
                "appArmorProfile": {"type": "RuntimeDefault"}},
            "containers": [{"name": "c", "securityContext": {
                "seccompProfile": {"type": "Localhost", "localhostProfile": "b"}}}]});
        profiles_match(annotations.as_object(), &spec, "spec", &mut out);
        assert_eq!(
            messages(&out),
            [
                "spec.containers[0].securityContext.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match",
                "spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match",
            ]
        );
    }

    #[test]
    fn pod_annotations_follow_upstream() {
        let mut out = Vec::new();
        let annotations = json!({
            "kubernetes.io/config.mirror": "x",
            "controller.kubernetes.io/pod-deletion-cost": "007",
            "seccomp.security.alpha.kubernetes.io/pod": "localhost//abs",
            "container.seccomp.security.alpha.kubernetes.io/c": "weird",
            "container.apparmor.security.beta.kubernetes.io/ghost": "bad"});
        pod_annotations(
            annotations.as_object(),
            &json!({"containers": [{"name": "c"}]}),
            "metadata.annotations",
            &mut out,
        );
        assert_eq!(
            messages(&out),
            [
                "metadata.annotations[kubernetes.io/config.mirror]: Invalid value: \"x\": must set spec.nodeName if mirror pod annotation is set",
                "metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: \"007\": must be a 32bit integer",
                "metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: \"/abs\": must be a relative path",
                "metadata.annotations.container.seccomp.security.alpha.kubernetes.io/c: Invalid value: \"weird\": must be a valid seccomp profile",
                "metadata.annotations[container.apparmor.security.beta.kubernetes.io/ghost]: Invalid value: \"ghost\": container not found",
                "metadata.annotations[container.apparmor.security.beta.kubernetes.io/ghost]: Invalid value: \"bad\": invalid AppArmor profile name: \"bad\"",
            ]
        );
        // The legacy tolerations annotation: Go's decode error, else ValidateTolerations.
        let spec = json!({"containers": [{"name": "c"}]});
        for (value, want) in [
            ("", None),
            ("[{\"key\":\"k\",\"operator\":\"Exists\"}]", None),
            ("{}", Some("metadata.annotations: Invalid value: \"scheduler.alpha.kubernetes.io/tolerations\": json: cannot unmarshal object into Go value of type []core.Toleration")),
            ("[{\"operator\":\"Equal\"}]", Some("metadata.annotations.scheduler.alpha.kubernetes.io/tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\"")),
        ] {
            let mut out = Vec::new();
            let annotations = json!({"scheduler.alpha.kubernetes.io/tolerations": value});
            pod_annotations(annotations.as_object(), &spec, "metadata.annotations", &mut out);
            assert_eq!(messages(&out), want.into_iter().collect::<Vec<_>>(), "{value}");
        }
    }
}
