//! Pods and pod templates as kube-apiserver 1.33 validates them: `ValidatePodCreate`,
//! `validatePodMetadataAndSpec`, `ValidatePodSpec` and `ValidatePodTemplateSpec` in
//! upstream's order (facts in /work/notes/validation-spec-5.md, -6.md and -7.md). The
//! rules live with their subject: volumes (`pod_volumes`), containers
//! (`pod_containers`), scheduling (`pod_scheduling`), security (`pod_security`), the
//! simpler fields and annotations (`pod_fields`). Updates: see `pod_update`.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_label_msgs, dns_subdomain_msgs, each_invalid, forbidden, invalid_int, labels,
    not_supported, range_msg, required, s,
};
use super::pod_containers::{self as containers, image_whitespace};
use super::pod_update::pod_update;

const MAX_INT32: i64 = i32::MAX as i64;

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

/// A name field checked only when given.
fn named(
    spec: &Value,
    key: &str,
    p: &str,
    msgs: fn(&str) -> Vec<String>,
    out: &mut Vec<StatusCause>,
) {
    if let Some(name) = s(spec, key).filter(|n| !n.is_empty()) {
        out.extend(each_invalid(&format!("{p}.{key}"), name, msgs(name)));
    }
}

/// ValidatePodSpec: the spec at `p` of the pod named `pod` (None for a template).
fn spec_of(spec: &Value, p: &str, pod: Option<&str>, out: &mut Vec<StatusCause>) {
    let grace = spec
        .get("terminationGracePeriodSeconds")
        .and_then(Value::as_i64);
    if grace.is_none() {
        out.push(required(&format!("{p}.terminationGracePeriodSeconds"), ""));
    }
    let host_users = spec.get("hostUsers").and_then(Value::as_bool) != Some(false);
    let vols = super::pod_volumes::volumes(spec, p, pod, out);
    let ctx = containers::Pod {
        spec,
        path: p,
        vols: &vols,
        host_users,
        grace,
    };
    containers::containers(&ctx, out);
    containers::init_containers(&ctx, out);
    containers::ephemeral_containers(&ctx, out);
    containers::host_network_ports(spec, p, pod.is_some(), out);
    enum_field(
        spec,
        "restartPolicy",
        p,
        &["Always", "OnFailure", "Never"],
        out,
    );
    enum_field(
        spec,
        "dnsPolicy",
        p,
        &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"],
        out,
    );
    out.extend(labels(
        spec.get("nodeSelector").and_then(Value::as_object),
        &format!("{p}.nodeSelector"),
    ));
    super::pod_security::pod_context(spec, p, out);
    if let Some(a) = spec.get("affinity").filter(|a| !a.is_null()) {
        super::pod_scheduling::affinity(a, &format!("{p}.affinity"), out);
    }
    super::pod_fields::dns_config(spec, p, out);
    super::pod_fields::readiness_gates(spec, p, out);
    super::pod_fields::scheduling_gates(spec, p, out);
    let spread = arr(spec, "topologySpreadConstraints");
    super::pod_scheduling::topology_spread(spread, &format!("{p}.topologySpreadConstraints"), out);
    super::pod_os::host_process(spec, p, out);
    super::pod_os::host_users(spec, p, out);
    named(spec, "serviceAccountName", p, dns_subdomain_msgs, out);
    named(spec, "nodeName", p, dns_subdomain_msgs, out);
    if let Some(n) = spec.get("activeDeadlineSeconds").and_then(Value::as_i64) {
        if !(1..=MAX_INT32).contains(&n) {
            out.push(invalid_int(
                &format!("{p}.activeDeadlineSeconds"),
                n,
                &range_msg(1, MAX_INT32),
            ));
        }
    }
    named(spec, "hostname", p, dns_label_msgs, out);
    named(spec, "subdomain", p, dns_label_msgs, out);
    let tolerations = arr(spec, "tolerations");
    super::pod_scheduling::tolerations(tolerations, &format!("{p}.tolerations"), out);
    super::pod_fields::host_aliases(spec, p, out);
    named(spec, "priorityClassName", p, dns_subdomain_msgs, out);
    if let Some(rc) = spec.get("runtimeClassName").and_then(Value::as_str) {
        let at = format!("{p}.runtimeClassName");
        out.extend(each_invalid(&at, rc, dns_subdomain_msgs(rc)));
    }
    enum_field(
        spec,
        "preemptionPolicy",
        p,
        &["PreemptLowerPriority", "Never"],
        out,
    );
    super::pod_resources::overhead(spec, p, out);
    super::pod_os::os(spec, p, out);
}

/// The spec of a pod written through a subresource (ephemeral containers, resize):
/// validatePodMetadataAndSpec's spec rules.
pub(crate) fn pod_spec_rules(obj: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let empty = Value::Null;
    let spec = obj.get("spec").unwrap_or(&empty);
    let annotations = obj
        .pointer("/metadata/annotations")
        .and_then(Value::as_object);
    super::pod_fields::pod_annotations(annotations, spec, "metadata.annotations", &mut out);
    let name = obj.pointer("/metadata/name").and_then(Value::as_str);
    spec_of(spec, "spec", Some(name.unwrap_or("")), &mut out);
    super::pod_projection::tokens_need_account(spec, &mut out);
    for kind in ["containers", "initContainers"] {
        for (i, c) in arr(spec, kind).iter().enumerate() {
            image_whitespace(c, &format!("spec.{kind}[{i}]"), &mut out);
        }
    }
    out
}

/// A pod template at `path` (`spec.template`): required; its labels and annotations
/// valid, its spec a valid pod spec without ephemeral containers.
pub(crate) fn pod_template(template: Option<&Value>, path: &str) -> Vec<StatusCause> {
    let Some(t) = template.filter(|t| t.is_object()) else {
        return vec![required(path, "")];
    };
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
    let at = format!("{path}.annotations");
    out.extend(super::causes::annotations(annotations, &at));
    let empty = Value::Null;
    let spec = t.get("spec").unwrap_or(&empty);
    super::pod_fields::pod_annotations(annotations, spec, &at, &mut out);
    spec_of(spec, &format!("{path}.spec"), None, &mut out);
    super::pod_fields::profiles_match(annotations, spec, &format!("{path}.spec"), &mut out);
    if !arr(spec, "ephemeralContainers").is_empty() {
        out.push(forbidden(
            &format!("{path}.spec.ephemeralContainers"),
            "ephemeral containers not allowed in pod template",
        ));
    }
    out
}

/// Pod: ValidatePodCreate, or on update the spec and what upstream lets change.
pub(crate) fn pod(obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = pod_spec_rules(obj);
    match old {
        Some(old) => out.extend(pod_update(obj, old)),
        None => {
            out.extend(super::pod_subresources::ephemeral_on_create(obj));
            let spec = obj.get("spec");
            let gated = spec.is_some_and(|s| !arr(s, "schedulingGates").is_empty());
            let placed = spec.and_then(|s| s.get("nodeName")).and_then(Value::as_str);
            if gated && placed.is_some_and(|n| !n.is_empty()) {
                out.push(forbidden(
                    "spec.nodeName",
                    "cannot be set until all schedulingGates have been cleared",
                ));
            }
            if let Some(spec) = spec {
                let annotations = obj
                    .pointer("/metadata/annotations")
                    .and_then(Value::as_object);
                super::pod_fields::profiles_match(annotations, spec, "spec", &mut out);
            }
        }
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

    /// A pod of `spec` as the server validates it: defaults applied first.
    fn with(spec: Value) -> Vec<StatusCause> {
        let mut obj = json!({ "metadata": {"name": "p"}, "spec": spec });
        crate::defaults::pod_defaults(&mut obj);
        pod(&obj, None)
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
                "spec.containers[0].resources.requests",
                "FieldValueInvalid",
                "Invalid value: \"2\": must be less than or equal to cpu limit of 500m"
            )
        );
        let c = with(
            json!({"containers": [{"name": "a", "image": "x"}], "restartPolicy": "Sometimes", "dnsPolicy": "", "activeDeadlineSeconds": 0}),
        );
        // An empty dnsPolicy is defaulted (ClusterFirst) before validation.
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].message, "Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"");
        assert_eq!(
            c[1].message,
            "Invalid value: 0: must be between 1 and 2147483647, inclusive"
        );
        assert_eq!(one(&pod_template(None, "spec.template")).0, "spec.template");
        let spec = json!({"spec": {"terminationGracePeriodSeconds": 30}});
        let c = pod_template(Some(&spec), "spec.template");
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
