//! Pod rules: the pod spec (containers, ports, env, volumes and their mounts, resources,
//! policies) and pod templates inside workloads. Updates: see `pod_update`.

use std::collections::HashSet;

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_label_msgs, dns_subdomain_msgs, duplicate, each_invalid, forbidden, invalid,
    invalid_int, invalid_shown, labels, not_found, not_supported, port_name_msgs, port_num,
    qualified_name_msgs, range_msg, required, s, show, NEGATIVE_MSG,
};
use super::pod_update::pod_update;
use super::quantity::{self, QUANTITY_MSG};

const MAX_INT32: i64 = i32::MAX as i64;

fn ports(c: &Value, p: &str, out: &mut Vec<StatusCause>) {
    let mut names = HashSet::new();
    for (i, port) in arr(c, "ports").iter().enumerate() {
        let pp = format!("{p}.ports[{i}]");
        if let Some(name) = s(port, "name").filter(|n| !n.is_empty()) {
            out.extend(each_invalid(
                &format!("{pp}.name"),
                name,
                port_name_msgs(name),
            ));
            if !names.insert(name) {
                out.push(duplicate(&format!("{pp}.name"), name));
            }
        }
        match port.get("containerPort") {
            None | Some(Value::Null) => out.push(required(&format!("{pp}.containerPort"), "")),
            Some(v) if v.as_i64() == Some(0) => {
                out.push(required(&format!("{pp}.containerPort"), ""));
            }
            Some(v) => out.extend(port_num(&format!("{pp}.containerPort"), v)),
        }
        if let Some(v) = port
            .get("hostPort")
            .filter(|v| !v.is_null() && v.as_i64() != Some(0))
        {
            out.extend(port_num(&format!("{pp}.hostPort"), v));
        }
        match s(port, "protocol") {
            None | Some("TCP" | "UDP" | "SCTP") => {}
            Some("") => out.push(required(&format!("{pp}.protocol"), "")),
            Some(other) => out.push(not_supported(
                &format!("{pp}.protocol"),
                other,
                &["SCTP", "TCP", "UDP"],
            )),
        }
    }
}

fn env(c: &Value, p: &str, out: &mut Vec<StatusCause>) {
    for (i, e) in arr(c, "env").iter().enumerate() {
        let ep = format!("{p}.env[{i}]");
        let name = s(e, "name").unwrap_or("");
        if name.is_empty() {
            out.push(required(&format!("{ep}.name"), ""));
        } else if !name.chars().all(|ch| ch.is_ascii_graphic() || ch == ' ') || name.contains('=') {
            out.push(invalid(
                &format!("{ep}.name"),
                name,
                "a valid environment variable name must consist only of printable ASCII characters other than '='",
            ));
        }
        let has_value = s(e, "value").is_some_and(|v| !v.is_empty());
        if has_value && e.get("valueFrom").is_some_and(|v| !v.is_null()) {
            out.push(invalid(
                &format!("{ep}.valueFrom"),
                "",
                "may not be specified when `value` is not empty",
            ));
        }
    }
}

fn mounts(c: &Value, p: &str, vols: &HashSet<String>, out: &mut Vec<StatusCause>) {
    let mut paths = HashSet::new();
    for (i, m) in arr(c, "volumeMounts").iter().enumerate() {
        let mp = format!("{p}.volumeMounts[{i}]");
        let name = s(m, "name").unwrap_or("");
        if name.is_empty() {
            out.push(required(&format!("{mp}.name"), ""));
        } else if !vols.contains(name) {
            out.push(not_found(&format!("{mp}.name"), name));
        }
        let path = s(m, "mountPath").unwrap_or("");
        if path.is_empty() {
            out.push(required(&format!("{mp}.mountPath"), ""));
        } else if !paths.insert(path) {
            out.push(invalid(&format!("{mp}.mountPath"), path, "must be unique"));
        }
    }
}

fn resources(c: &Value, p: &str, out: &mut Vec<StatusCause>) {
    let Some(res) = c.get("resources") else {
        return;
    };
    let mut read = |kind: &str| -> Vec<(String, String, f64)> {
        let mut list = Vec::new();
        for (name, v) in res
            .get(kind)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let field = format!("{p}.resources.{kind}[{name}]");
            match quantity::of(v) {
                Some((text, n)) if n < 0.0 => out.push(invalid(&field, &text, NEGATIVE_MSG)),
                Some((text, n)) => list.push((name.clone(), text, n)),
                None => out.push(invalid_shown(&field, &show(v), QUANTITY_MSG)),
            }
        }
        list
    };
    let limits = read("limits");
    let requests = read("requests");
    for (name, text, n) in &requests {
        if let Some((_, ltext, l)) = limits.iter().find(|(ln, _, _)| ln == name) {
            if n > l {
                out.push(invalid(
                    &format!("{p}.resources.requests[{name}]"),
                    text,
                    &format!("must be less than or equal to {name} limit of {ltext}"),
                ));
            }
        }
    }
}

fn container(
    c: &Value,
    p: &str,
    vols: &HashSet<String>,
    names: &mut HashSet<String>,
    out: &mut Vec<StatusCause>,
) {
    let name = s(c, "name").unwrap_or("");
    if name.is_empty() {
        out.push(required(&format!("{p}.name"), ""));
    } else {
        out.extend(each_invalid(
            &format!("{p}.name"),
            name,
            dns_label_msgs(name),
        ));
        if !names.insert(name.to_owned()) {
            out.push(duplicate(&format!("{p}.name"), name));
        }
    }
    let image = s(c, "image").unwrap_or("");
    if image.is_empty() {
        out.push(required(&format!("{p}.image"), ""));
    } else if image.trim() != image {
        out.push(invalid(
            &format!("{p}.image"),
            image,
            "must not have leading or trailing whitespace",
        ));
    }
    enum_field(
        c,
        "imagePullPolicy",
        p,
        &["Always", "IfNotPresent", "Never"],
        out,
    );
    enum_field(
        c,
        "terminationMessagePolicy",
        p,
        &["File", "FallbackToLogsOnError"],
        out,
    );
    ports(c, p, out);
    env(c, p, out);
    mounts(c, p, vols, out);
    resources(c, p, out);
}

/// A present enumerated string field: `Required` when empty, else one of `values`.
fn enum_field(obj: &Value, key: &str, path: &str, values: &[&str], out: &mut Vec<StatusCause>) {
    let Some(v) = obj.get(key).filter(|v| !v.is_null()) else {
        return;
    };
    let field = format!("{path}.{key}");
    match v.as_str() {
        Some("") => out.push(required(&field, "")),
        Some(x) if values.contains(&x) => {}
        Some(x) => out.push(not_supported(&field, x, values)),
        None => out.push(not_supported(&field, &v.to_string(), values)),
    }
}

/// The rules of a pod template's spec found at `path` (`spec.template.spec`, ...).
pub(crate) fn pod_spec(spec: Option<&Value>, path: &str) -> Vec<StatusCause> {
    spec_of(spec, path, None)
}

/// The rules of a pod spec at `path`, of the pod named `pod` (None in templates).
fn spec_of(spec: Option<&Value>, path: &str, pod: Option<&str>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let empty = Value::Null;
    let spec = spec.unwrap_or(&empty);
    let vols = super::pod_volumes::volumes(spec, path, pod, &mut out);
    let containers = arr(spec, "containers");
    if containers.is_empty() {
        out.push(required(&format!("{path}.containers"), ""));
    }
    let mut names = HashSet::new();
    for (i, c) in containers.iter().enumerate() {
        container(
            c,
            &format!("{path}.containers[{i}]"),
            &vols,
            &mut names,
            &mut out,
        );
    }
    for (i, c) in arr(spec, "initContainers").iter().enumerate() {
        let p = format!("{path}.initContainers[{i}]");
        container(c, &p, &vols, &mut names, &mut out);
        if let Some(rp) = s(c, "restartPolicy") {
            if rp != "Always" {
                out.push(not_supported(
                    &format!("{p}.restartPolicy"),
                    rp,
                    &["Always"],
                ));
            }
        }
    }
    for (i, c) in arr(spec, "ephemeralContainers").iter().enumerate() {
        let p = format!("{path}.ephemeralContainers[{i}]");
        container(c, &p, &vols, &mut names, &mut out);
        out.extend(super::pod_subresources::ephemeral_container(spec, c, &p));
    }
    enum_field(
        spec,
        "restartPolicy",
        path,
        &["Always", "OnFailure", "Never"],
        &mut out,
    );
    enum_field(
        spec,
        "dnsPolicy",
        path,
        &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        &mut out,
    );
    if let Some(v) = spec.get("activeDeadlineSeconds").filter(|v| !v.is_null()) {
        match v.as_i64() {
            Some(n) if (1..=MAX_INT32).contains(&n) => {}
            Some(n) => out.push(invalid_int(
                &format!("{path}.activeDeadlineSeconds"),
                n,
                &range_msg(1, MAX_INT32),
            )),
            None => out.push(invalid_shown(
                &format!("{path}.activeDeadlineSeconds"),
                &show(v),
                &range_msg(1, MAX_INT32),
            )),
        }
    }
    for key in ["serviceAccountName", "nodeName"] {
        if let Some(name) = s(spec, key).filter(|n| !n.is_empty()) {
            let msgs = dns_subdomain_msgs(name);
            out.extend(each_invalid(&format!("{path}.{key}"), name, msgs));
        }
    }
    out
}

/// A pod template at `path` (`spec.template`): required; its labels and annotation keys
/// valid, its spec a valid pod spec without ephemeral containers.
pub(crate) fn pod_template(template: Option<&Value>, path: &str) -> Vec<StatusCause> {
    match template.filter(|t| t.is_object()) {
        None => vec![required(path, "")],
        Some(t) => {
            // The template's metadata is inline upstream: its fields sit at `path`.
            let meta = t.get("metadata");
            let mut out = labels(
                meta.and_then(|m| m.get("labels"))
                    .and_then(Value::as_object),
                &format!("{path}.labels"),
            );
            let annotations = meta
                .and_then(|m| m.get("annotations"))
                .and_then(Value::as_object);
            for key in annotations.into_iter().flatten().map(|(k, _)| k) {
                let msgs = qualified_name_msgs(&key.to_lowercase());
                out.extend(each_invalid(&format!("{path}.annotations"), key, msgs));
            }
            let spec = t.get("spec");
            out.extend(pod_spec(spec, &format!("{path}.spec")));
            if spec.is_some_and(|s| !arr(s, "ephemeralContainers").is_empty()) {
                out.push(forbidden(
                    &format!("{path}.spec.ephemeralContainers"),
                    "ephemeral containers not allowed in pod template",
                ));
            }
            out
        }
    }
}

/// Pod: its spec, and on update only what upstream lets change.
pub(crate) fn pod(obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let name = obj.pointer("/metadata/name").and_then(Value::as_str);
    let mut out = spec_of(obj.get("spec"), "spec", name);
    if let Some(spec) = obj.get("spec") {
        super::pod_projection::tokens_need_account(spec, &mut out);
    }
    match old {
        Some(old) => out.extend(pod_update(obj, old)),
        None => out.extend(super::pod_subresources::ephemeral_on_create(obj)),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one(c: &[StatusCause]) -> (&str, &str, &str) {
        assert_eq!(c.len(), 1, "{c:?}");
        (&c[0].field, &c[0].reason, &c[0].message)
    }

    fn with(spec: Value) -> Vec<StatusCause> {
        pod(&json!({ "spec": spec }), None)
    }

    #[test]
    fn containers() {
        assert!(with(json!({"containers": [{"name": "a", "image": "nginx"}]})).is_empty());
        assert_eq!(
            one(&with(json!({}))),
            ("spec.containers", "FieldValueRequired", "Required value")
        );
        assert_eq!(
            one(&with(json!({"containers": [{"name": "a"}]}))).0,
            "spec.containers[0].image"
        );
        let c = with(json!({"containers": [{"name": "A_", "image": "x"}]}));
        assert_eq!(one(&c).0, "spec.containers[0].name");
        assert!(c[0]
            .message
            .starts_with("Invalid value: \"A_\": a lowercase RFC 1123 label"));
        let c = with(json!({
            "containers": [{"name": "a", "image": "x"}],
            "initContainers": [{"name": "a", "image": "x"}]
        }));
        assert_eq!(
            one(&c),
            (
                "spec.initContainers[0].name",
                "FieldValueDuplicate",
                "Duplicate value: \"a\""
            )
        );
        let c = with(json!({"containers": [{"name": "a", "image": " x"}]}));
        assert_eq!(
            one(&c).2,
            "Invalid value: \" x\": must not have leading or trailing whitespace"
        );
        let c = with(
            json!({"containers": [{"name": "a", "image": "x", "imagePullPolicy": "Sometimes"}]}),
        );
        assert_eq!(
            one(&c).2,
            "Unsupported value: \"Sometimes\": supported values: \"Always\", \"IfNotPresent\", \"Never\""
        );
    }

    #[test]
    fn ports_and_env() {
        let c = with(json!({"containers": [{"name": "a", "image": "x", "ports": [
            {"containerPort": 70000},
            {"containerPort": 80, "protocol": "ICMP", "name": "web"},
            {"containerPort": 81, "name": "web"},
            {"containerPort": 0}
        ]}]}));
        assert_eq!(c.len(), 4, "{c:?}");
        assert_eq!(
            c[0].message,
            "Invalid value: 70000: must be between 1 and 65535, inclusive"
        );
        assert_eq!(c[1].field, "spec.containers[0].ports[1].protocol");
        assert_eq!(
            c[1].message,
            "Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\""
        );
        assert_eq!(
            (c[2].field.as_str(), c[2].reason.as_str()),
            ("spec.containers[0].ports[2].name", "FieldValueDuplicate")
        );
        assert_eq!(c[3].field, "spec.containers[0].ports[3].containerPort");
        let c = with(
            json!({"containers": [{"name": "a", "image": "x", "ports": [{"containerPort": 1, "name": "Web"}]}]}),
        );
        assert_eq!(one(&c).2, "Invalid value: \"Web\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
        let c = with(json!({"containers": [{"name": "a", "image": "x", "env": [
            {"name": ""}, {"name": "A=B"}, {"name": "ok.name-1 x"}, {"name": "V", "value": "1", "valueFrom": {}}
        ]}]}));
        assert_eq!(c.len(), 3, "{c:?}");
        assert_eq!(c[0].field, "spec.containers[0].env[0].name");
        assert_eq!(c[1].message, "Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='");
        assert_eq!(c[2].field, "spec.containers[0].env[3].valueFrom");
    }

    #[test]
    fn volumes_and_mounts() {
        let c = with(json!({
            "volumes": [{"name": "v", "emptyDir": {}}, {"name": "v", "emptyDir": {}}, {"name": "w"},
                        {"name": "x", "emptyDir": {}, "secret": {"secretName": "s"}},
                        {"name": "y", "configMap": {}}],
            "containers": [{"name": "a", "image": "x", "volumeMounts": [
                {"name": "v", "mountPath": "/a"}, {"name": "nope", "mountPath": "/a"}
            ]}]
        }));
        let got: Vec<(&str, &str)> = c
            .iter()
            .map(|c| (c.field.as_str(), c.message.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("spec.volumes[1].name", "Duplicate value: \"v\""),
                (
                    "spec.volumes[2]",
                    "Required value: must specify a volume type"
                ),
                (
                    "spec.volumes[3].secret",
                    "Forbidden: may not specify more than 1 volume type"
                ),
                ("spec.volumes[4].configMap.name", "Required value"),
                (
                    "spec.containers[0].volumeMounts[1].name",
                    "Not found: \"nope\""
                ),
                (
                    "spec.containers[0].volumeMounts[1].mountPath",
                    "Invalid value: \"/a\": must be unique"
                ),
            ]
        );
    }

    #[test]
    fn resources_and_policies() {
        let c = with(
            json!({"containers": [{"name": "a", "image": "x", "resources": {
                "requests": {"cpu": "2", "memory": "64Mi"}, "limits": {"cpu": "500m", "memory": "1Gi"}
            }}]}),
        );
        assert_eq!(
            one(&c),
            (
                "spec.containers[0].resources.requests[cpu]",
                "FieldValueInvalid",
                "Invalid value: \"2\": must be less than or equal to cpu limit of 500m"
            )
        );
        let c = with(
            json!({"containers": [{"name": "a", "image": "x", "resources": {"limits": {"cpu": "lots"}}}]}),
        );
        assert!(one(&c).2.contains("quantities must match"));
        let c = with(
            json!({"containers": [{"name": "a", "image": "x"}], "restartPolicy": "Sometimes", "dnsPolicy": "", "activeDeadlineSeconds": 0}),
        );
        assert_eq!(c.len(), 3);
        assert_eq!(c[0].message, "Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"");
        assert_eq!(c[1].field, "spec.dnsPolicy");
        assert_eq!(
            c[2].message,
            "Invalid value: 0: must be between 1 and 2147483647, inclusive"
        );
        assert_eq!(one(&pod_template(None, "spec.template")).0, "spec.template");
        let c = pod_template(Some(&json!({"spec": {}})), "spec.template");
        assert_eq!(one(&c).0, "spec.template.spec.containers");
    }

    #[test]
    fn garbage_never_panics() {
        for v in [
            json!(null),
            json!(1),
            json!({"spec": 3}),
            json!({"spec": {"containers": [1, "x", null]}}),
            json!({"spec": {"containers": [{"ports": [1], "env": [2], "volumeMounts": [3], "resources": {"limits": 1}}], "volumes": [1]}}),
        ] {
            let _ = pod(&v, Some(&v));
        }
    }
}
