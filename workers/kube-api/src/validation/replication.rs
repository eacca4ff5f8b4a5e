//! ReplicationControllers and PodTemplates as kube-apiserver 1.33 validates them. A
//! ReplicationController needs a selector its template's labels match and a template
//! whose pods always restart and have no deadline; unlike apps/v1 workloads every
//! field may change, and upstream validates the spec twice on update (so its causes
//! appear twice), which these rules keep. A PodTemplate is its template.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{go_string_map, invalid_int, invalid_shown, obj, required, NEGATIVE_MSG};
use super::pod::pod_template;

fn rc_spec(o: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let spec = o.get("spec").cloned().unwrap_or(Value::Null);
    if let Some(n) = spec
        .get("minReadySeconds")
        .and_then(Value::as_i64)
        .filter(|n| *n < 0)
    {
        out.push(invalid_int("spec.minReadySeconds", n, NEGATIVE_MSG));
    }
    let selector = obj(&spec, "selector").filter(|s| !s.is_empty());
    if selector.is_none() {
        out.push(required("spec.selector", ""));
    }
    match spec.get("replicas").and_then(Value::as_i64) {
        None => out.push(required("spec.replicas", "")),
        Some(n) if n < 0 => out.push(invalid_int("spec.replicas", n, NEGATIVE_MSG)),
        Some(_) => {}
    }
    let Some(template) = spec.get("template").filter(|t| t.is_object()) else {
        out.push(required("spec.template", ""));
        return out;
    };
    let labels = template
        .pointer("/metadata/labels")
        .and_then(Value::as_object);
    if let Some(sel) = selector {
        let matches = sel
            .iter()
            .all(|(k, v)| labels.and_then(|l| l.get(k)) == Some(v));
        if !matches {
            out.push(invalid_shown(
                "spec.template.metadata.labels",
                &go_string_map(labels),
                "`selector` does not match template `labels`",
            ));
        }
    }
    out.extend(pod_template(Some(template), "spec.template"));
    super::apps::template_policies(&spec, "ReplicationController", &mut out);
    out
}

/// A ReplicationController.
pub(crate) fn replication_controller(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = rc_spec(o);
    if old.is_some() {
        let again = out.clone();
        out.extend(again);
    }
    out
}

/// A PodTemplate: its template, every field of which may change.
pub(crate) fn pod_template_object(o: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    pod_template(o.get("template"), "template")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::validation::causes::messages;

    fn rc(spec: Value) -> Value {
        json!({"metadata": {"name": "r"}, "spec": spec})
    }

    const POD: &str = r#"{"terminationGracePeriodSeconds": 30, "containers": [{"name": "a", "image": "x", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}], "restartPolicy": "Always"}"#;

    #[test]
    fn replication_controller_rules() {
        let pod: Value = serde_json::from_str(POD).unwrap();
        let ok = rc(
            json!({"replicas": 1, "selector": {"app": "a"}, "template": {"metadata": {"labels": {"app": "a"}}, "spec": pod}}),
        );
        assert!(replication_controller(&ok, None).is_empty());
        let mut bad_pod = pod.clone();
        bad_pod["restartPolicy"] = json!("OnFailure");
        bad_pod["activeDeadlineSeconds"] = json!(5);
        let bad = rc(
            json!({"replicas": -1, "minReadySeconds": -1, "selector": {"app": "b"},
            "template": {"metadata": {"labels": {"app": "a", "bad key": "x"}}, "spec": bad_pod}}),
        );
        let got = messages(&replication_controller(&bad, None));
        assert_eq!(got[..4], [
            "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
            "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"a\", \"bad key\":\"x\"}: `selector` does not match template `labels`",
            "spec.template.labels: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ]);
        assert!(got.contains(&"spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"".to_owned()));
        assert!(got.contains(&"spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported".to_owned()));
        // Upstream validates the spec twice on update.
        assert_eq!(replication_controller(&bad, Some(&ok)).len(), 2 * got.len());
        assert_eq!(
            messages(&replication_controller(&rc(json!({"replicas": 1})), None)),
            [
                "spec.selector: Required value",
                "spec.template: Required value"
            ]
        );
    }

    #[test]
    fn pod_template_rules() {
        let pod: Value = serde_json::from_str(POD).unwrap();
        let mut with_ephemeral = pod.clone();
        with_ephemeral["ephemeralContainers"] = json!([{"name": "e", "image": "x"}]);
        let t = json!({"template": {"metadata": {"annotations": {"Bad Key": "v"}}, "spec": with_ephemeral}});
        let got = messages(&pod_template_object(&t, None));
        assert!(
            got[0].starts_with(
                "template.annotations: Invalid value: \"Bad Key\": name part must consist of"
            ),
            "{got:?}"
        );
        assert_eq!(got.last().unwrap(), "template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template");
    }
}
