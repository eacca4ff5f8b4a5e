//! apps/v1 StatefulSets: name, pod management and update policies, PVC retention,
//! selector and template, and the few spec fields an update may change.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::apps::{int_or_percent, selector, show_int_or_percent, template};
use super::causes::{
    dns_label_msgs, dns_subdomain_msgs, each_invalid, forbidden, invalid, invalid_shown,
    nonnegative, not_supported, quote, required, s,
};

/// Spec fields of a StatefulSet an update may change.
const STATEFULSET_MUTABLE: &[&str] = &[
    "replicas",
    "ordinals",
    "template",
    "updateStrategy",
    "revisionHistoryLimit",
    "persistentVolumeClaimRetentionPolicy",
    "minReadySeconds",
];

fn statefulset_policies(spec: &Value, out: &mut Vec<StatusCause>) {
    match s(spec, "podManagementPolicy") {
        None | Some("OrderedReady" | "Parallel") => {}
        Some("") => out.push(required("spec.podManagementPolicy", "")),
        Some(p) => out.push(invalid(
            "spec.podManagementPolicy",
            p,
            "must be 'OrderedReady' or 'Parallel'",
        )),
    }
    if let Some(us) = spec.get("updateStrategy").filter(|v| v.is_object()) {
        let ru = us.get("rollingUpdate").filter(|v| !v.is_null());
        match s(us, "type").unwrap_or("") {
            "" => out.push(required("spec.updateStrategy", "")),
            "OnDelete" => {
                if let Some(ru) = ru {
                    out.push(invalid_shown(
                        "spec.updateStrategy.rollingUpdate",
                        &ru.to_string(),
                        "only allowed for updateStrategy 'RollingUpdate'",
                    ));
                }
            }
            "RollingUpdate" => {
                if let Some(ru) = ru {
                    let p = "spec.updateStrategy.rollingUpdate";
                    out.extend(nonnegative(ru, "partition", &format!("{p}.partition")));
                    if let Some(mu) = ru.get("maxUnavailable").filter(|v| !v.is_null()) {
                        let field = format!("{p}.maxUnavailable");
                        if int_or_percent(mu, &field, true, out) == 0 {
                            out.push(invalid_shown(
                                &field,
                                &show_int_or_percent(mu),
                                "cannot be 0",
                            ));
                        }
                    }
                }
            }
            other => out.push(invalid_shown(
                "spec.updateStrategy",
                &format!("apps.StatefulSetUpdateStrategy{{Type:{}}}", quote(other)),
                "must be 'RollingUpdate' or 'OnDelete'",
            )),
        }
    }
    let policy = spec
        .get("persistentVolumeClaimRetentionPolicy")
        .filter(|v| v.is_object());
    for key in ["whenDeleted", "whenScaled"] {
        let Some(v) = policy.and_then(|p| s(p, key)) else {
            continue;
        };
        if v != "Retain" && v != "Delete" {
            out.push(not_supported(
                &format!("spec.persistentVolumeClaimRetentionPolicy.{key}"),
                v,
                &["Retain", "Delete"],
            ));
        }
    }
}

/// apps/v1 StatefulSet. The name is a DNS label (names that are not even DNS subdomains
/// are reported by the store).
pub(crate) fn statefulset(obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let name = obj
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    if !name.is_empty() && dns_subdomain_msgs(name).is_empty() {
        out.extend(each_invalid("metadata.name", name, dns_label_msgs(name)));
    }
    let null = Value::Null;
    let spec = obj.get("spec").unwrap_or(&null);
    statefulset_policies(spec, &mut out);
    out.extend(nonnegative(spec, "replicas", "spec.replicas"));
    out.extend(nonnegative(spec, "minReadySeconds", "spec.minReadySeconds"));
    if let Some(ordinals) = spec.get("ordinals").filter(|v| v.is_object()) {
        out.extend(nonnegative(ordinals, "start", "spec.ordinals.start"));
    }
    selector(spec, "statefulset", &mut out);
    template(spec, "StatefulSet", &mut out);
    if let Some(old_spec) = old.and_then(|o| o.get("spec")) {
        let strip = |v: &Value| -> Value {
            let mut v = v.clone();
            if let Some(m) = v.as_object_mut() {
                for k in STATEFULSET_MUTABLE {
                    m.remove(*k);
                }
            }
            v
        };
        if strip(spec) != strip(old_spec) {
            out.push(forbidden(
                "spec",
                "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok() -> Value {
        json!({"metadata": {"name": "web"}, "spec": {
            "replicas": 1,
            "serviceName": "svc",
            "selector": {"matchLabels": {"app": "a"}},
            "template": {"metadata": {"labels": {"app": "a"}}, "spec": {"terminationGracePeriodSeconds": 30, "containers": [{"name": "a", "image": "x", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}], "restartPolicy": "Always"}}
        }})
    }

    fn pairs(c: &[StatusCause]) -> Vec<(&str, &str)> {
        c.iter()
            .map(|c| (c.field.as_str(), c.message.as_str()))
            .collect()
    }

    #[test]
    fn statefulsets() {
        let ss = ok();
        assert!(statefulset(&ss, Some(&ss)).is_empty());
        let mut bad = ss.clone();
        bad["metadata"]["name"] = json!("web.v1");
        bad["spec"]["podManagementPolicy"] = json!("Random");
        bad["spec"]["updateStrategy"] = json!({"type": "RollingUpdate", "rollingUpdate": {"partition": -1, "maxUnavailable": 0}});
        bad["spec"]["persistentVolumeClaimRetentionPolicy"] = json!({"whenDeleted": "Keep"});
        assert_eq!(
            pairs(&statefulset(&bad, None)),
            vec![
                (
                    "metadata.name",
                    "Invalid value: \"web.v1\": must not contain dots"
                ),
                (
                    "spec.podManagementPolicy",
                    "Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'"
                ),
                (
                    "spec.updateStrategy.rollingUpdate.partition",
                    "Invalid value: -1: must be greater than or equal to 0"
                ),
                (
                    "spec.updateStrategy.rollingUpdate.maxUnavailable",
                    "Invalid value: 0: cannot be 0"
                ),
                (
                    "spec.persistentVolumeClaimRetentionPolicy.whenDeleted",
                    "Unsupported value: \"Keep\": supported values: \"Retain\", \"Delete\""
                ),
            ]
        );
        bad["spec"]["updateStrategy"] =
            json!({"type": "OnDelete", "rollingUpdate": {"partition": 1}});
        assert!(statefulset(&bad, None).iter().any(|c| c.message == "Invalid value: {\"partition\":1}: only allowed for updateStrategy 'RollingUpdate'"));
        let mut moved = ss.clone();
        moved["spec"]["replicas"] = json!(3);
        moved["spec"]["template"]["spec"]["containers"][0]["image"] = json!("y");
        assert!(statefulset(&moved, Some(&ss)).is_empty());
        moved["spec"]["serviceName"] = json!("other");
        assert_eq!(pairs(&statefulset(&moved, Some(&ss))), vec![("spec", "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")]);
    }

    #[test]
    fn garbage_never_panics() {
        for v in [
            json!(null),
            json!({"spec": {"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": []}}, "ordinals": 1}}),
        ] {
            let _ = statefulset(&v, Some(&v));
        }
    }
}
