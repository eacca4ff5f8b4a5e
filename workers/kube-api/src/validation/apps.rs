//! apps/v1 workloads: Deployments, ReplicaSets and DaemonSets (selector, template,
//! replicas, update strategies, immutable selector), in upstream's order of checks so
//! that several causes read as upstream's do; the shared pieces StatefulSets use too.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    forbidden, go_string_map, invalid_shown, nonnegative, not_supported, required, s,
    IMMUTABLE_MSG, NEGATIVE_MSG,
};
use super::pod::pod_template;
use super::selector::{is_empty, selector_matches, selector_rules, show_selector};

/// The selector checks: syntax, `Required` when missing, and not empty.
pub(super) fn selector(spec: &Value, what: &str, out: &mut Vec<StatusCause>) {
    match spec.get("selector").filter(|v| v.is_object()) {
        None => out.push(required("spec.selector", "")),
        Some(sel) => {
            selector_rules(sel, "spec.selector", out);
            empty_selector(sel, what, out);
        }
    }
}

fn empty_selector(sel: &Value, what: &str, out: &mut Vec<StatusCause>) {
    if is_empty(sel) {
        out.push(invalid_shown(
            "spec.selector",
            &show_selector(sel),
            &format!("empty selector is invalid for {what}"),
        ));
    }
}

/// Whether the selector fails to select the template's labels. A missing selector
/// selects nothing, an empty one everything.
fn mismatch(spec: &Value, out: &mut Vec<StatusCause>) {
    let labels = spec
        .pointer("/template/metadata/labels")
        .and_then(Value::as_object);
    let selects = match spec.get("selector").filter(|v| v.is_object()) {
        None => false,
        Some(sel) => is_empty(sel) || selector_matches(sel, labels),
    };
    if !selects {
        out.push(invalid_shown(
            "spec.template.metadata.labels",
            &go_string_map(labels),
            "`selector` does not match template `labels`",
        ));
    }
}

/// The template of a workload whose pods always restart: its labels selected, a valid
/// pod template, and [`template_policies`].
pub(super) fn template(spec: &Value, kind: &str, out: &mut Vec<StatusCause>) {
    let template = spec.get("template");
    if template.is_some_and(Value::is_object) {
        mismatch(spec, out);
    }
    out.extend(pod_template(template, "spec.template"));
    template_policies(spec, kind, out);
}

/// restartPolicy Always and no activeDeadlineSeconds (`kind` words that refusal).
pub(super) fn template_policies(spec: &Value, kind: &str, out: &mut Vec<StatusCause>) {
    let Some(tspec) = spec.pointer("/template/spec") else {
        return;
    };
    if let Some(rp) = s(tspec, "restartPolicy").filter(|r| *r != "Always") {
        out.push(not_supported(
            "spec.template.spec.restartPolicy",
            rp,
            &["Always"],
        ));
    }
    if tspec
        .get("activeDeadlineSeconds")
        .is_some_and(|v| !v.is_null())
    {
        out.push(forbidden(
            "spec.template.spec.activeDeadlineSeconds",
            &format!("activeDeadlineSeconds in {kind} is not Supported"),
        ));
    }
}

/// An int-or-percent as upstream prints it (no quotes either way).
pub(super) fn show_int_or_percent(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
}

/// The value of an int-or-percent (`3`, `"25%"`) after its syntax checks; a percent
/// over 100 is reported when `cap` says so.
pub(super) fn int_or_percent(v: &Value, field: &str, cap: bool, out: &mut Vec<StatusCause>) -> i64 {
    let shown = show_int_or_percent(v);
    match v {
        Value::Number(n) => match n.as_i64() {
            Some(i) if i >= 0 => i,
            _ => {
                out.push(invalid_shown(field, &shown, NEGATIVE_MSG));
                0
            }
        },
        Value::String(p) => {
            let digits = p
                .strip_suffix('%')
                .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
            match digits.map(|d| d.parse::<i64>().unwrap_or(i64::MAX)) {
                None => {
                    out.push(invalid_shown(field, &shown, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"));
                    0
                }
                Some(pc) => {
                    if cap && pc > 100 {
                        out.push(invalid_shown(
                            field,
                            &shown,
                            "must not be greater than 100%",
                        ));
                    }
                    pc
                }
            }
        }
        _ => {
            out.push(invalid_shown(
                field,
                &shown,
                "must be an integer or percentage (e.g '5%')",
            ));
            0
        }
    }
}

fn rolling_parts(ru: &Value) -> (&Value, &Value) {
    const ZERO: &Value = &Value::Null;
    (
        ru.get("maxUnavailable").unwrap_or(ZERO),
        ru.get("maxSurge").unwrap_or(ZERO),
    )
}

/// A present int-or-percent (absent or null reads as 0, as upstream's zero value).
fn amount(v: &Value, field: &str, cap: bool, out: &mut Vec<StatusCause>) -> i64 {
    if v.is_null() {
        0
    } else {
        int_or_percent(v, field, cap, out)
    }
}

fn deployment_strategy(spec: &Value, out: &mut Vec<StatusCause>) {
    let Some(strategy) = spec.get("strategy").filter(|v| v.is_object()) else {
        return;
    };
    let ru = strategy.get("rollingUpdate").filter(|v| !v.is_null());
    match s(strategy, "type").unwrap_or("") {
        "Recreate" if ru.is_some() => out.push(forbidden(
            "spec.strategy.rollingUpdate",
            "may not be specified when strategy `type` is 'Recreate'",
        )),
        "Recreate" => {}
        "RollingUpdate" => match ru {
            None => out.push(required(
                "spec.strategy.rollingUpdate",
                "this should be defaulted and never be nil",
            )),
            Some(ru) => {
                let p = "spec.strategy.rollingUpdate";
                let (mu, ms) = rolling_parts(ru);
                let u = amount(mu, &format!("{p}.maxUnavailable"), true, out);
                let sg = amount(ms, &format!("{p}.maxSurge"), false, out);
                if u == 0 && sg == 0 {
                    out.push(invalid_shown(
                        &format!("{p}.maxUnavailable"),
                        &show_int_or_percent(mu),
                        "may not be 0 when `maxSurge` is 0",
                    ));
                }
            }
        },
        other => {
            let shown = format!(
                "apps.DeploymentStrategy{{Type:{}, RollingUpdate:{}}}",
                super::causes::quote(other),
                ru.map_or(
                    "(*apps.RollingUpdateDeployment)(nil)".into(),
                    Value::to_string
                )
            );
            let mut c = not_supported("spec.strategy", other, &["Recreate", "RollingUpdate"]);
            c.message = c.message.replacen(&super::causes::quote(other), &shown, 1);
            out.push(c);
        }
    }
}

fn selector_immutable(spec: &Value, old: Option<&Value>, out: &mut Vec<StatusCause>) {
    let Some(old) = old else {
        return;
    };
    let new_sel = spec.get("selector");
    if old.pointer("/spec/selector") != new_sel {
        out.push(invalid_shown(
            "spec.selector",
            &show_selector(new_sel.unwrap_or(&Value::Null)),
            IMMUTABLE_MSG,
        ));
    }
}

/// apps/v1 Deployment.
pub(crate) fn deployment(obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let null = Value::Null;
    let spec = obj.get("spec").unwrap_or(&null);
    out.extend(nonnegative(spec, "replicas", "spec.replicas"));
    selector(spec, "deployment", &mut out);
    template(spec, "ReplicaSet", &mut out);
    deployment_strategy(spec, &mut out);
    out.extend(nonnegative(spec, "minReadySeconds", "spec.minReadySeconds"));
    out.extend(nonnegative(
        spec,
        "revisionHistoryLimit",
        "spec.revisionHistoryLimit",
    ));
    if let Some(pds) = spec.get("progressDeadlineSeconds").and_then(Value::as_i64) {
        out.extend(nonnegative(
            spec,
            "progressDeadlineSeconds",
            "spec.progressDeadlineSeconds",
        ));
        let min_ready = spec
            .get("minReadySeconds")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if pds <= min_ready {
            out.push(invalid_shown(
                "spec.progressDeadlineSeconds",
                &pds.to_string(),
                "must be greater than minReadySeconds",
            ));
        }
    }
    selector_immutable(spec, old, &mut out);
    out
}

/// apps/v1 ReplicaSet.
pub(crate) fn replicaset(obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let null = Value::Null;
    let spec = obj.get("spec").unwrap_or(&null);
    out.extend(nonnegative(spec, "replicas", "spec.replicas"));
    out.extend(nonnegative(spec, "minReadySeconds", "spec.minReadySeconds"));
    // Upstream words an empty ReplicaSet selector as a deployment's.
    selector(spec, "deployment", &mut out);
    template(spec, "ReplicaSet", &mut out);
    selector_immutable(spec, old, &mut out);
    out
}

fn daemonset_strategy(spec: &Value, out: &mut Vec<StatusCause>) {
    let Some(us) = spec.get("updateStrategy").filter(|v| v.is_object()) else {
        return;
    };
    let p = "spec.updateStrategy.rollingUpdate";
    match s(us, "type").unwrap_or("") {
        "OnDelete" => {}
        "RollingUpdate" => match us.get("rollingUpdate").filter(|v| !v.is_null()) {
            None => out.push(required(p, "")),
            Some(ru) => {
                let (mu, ms) = rolling_parts(ru);
                let u = amount(mu, &format!("{p}.maxUnavailable"), true, out);
                let sg = amount(ms, &format!("{p}.maxSurge"), true, out);
                match (u != 0, sg != 0) {
                    (true, true) => out.push(invalid_shown(
                        &format!("{p}.maxSurge"),
                        &show_int_or_percent(ms),
                        "may not be set when maxUnavailable is non-zero",
                    )),
                    (false, false) => out.push(required(
                        &format!("{p}.maxUnavailable"),
                        "cannot be 0 when maxSurge is 0",
                    )),
                    _ => {}
                }
            }
        },
        other => out.push(not_supported(
            "spec.updateStrategy",
            other,
            &["RollingUpdate", "OnDelete"],
        )),
    }
}

/// apps/v1 DaemonSet. (Upstream does not require its selector: a missing one selects
/// nothing, which the template check reports.)
pub(crate) fn daemonset(obj: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let null = Value::Null;
    let spec = obj.get("spec").unwrap_or(&null);
    if let Some(sel) = spec.get("selector").filter(|v| v.is_object()) {
        selector_rules(sel, "spec.selector", &mut out);
    }
    mismatch(spec, &mut out);
    if let Some(sel) = spec.get("selector").filter(|v| v.is_object()) {
        empty_selector(sel, "daemonset", &mut out);
    }
    out.extend(pod_template(spec.get("template"), "spec.template"));
    template_policies(spec, "DaemonSet", &mut out);
    out.extend(nonnegative(spec, "minReadySeconds", "spec.minReadySeconds"));
    daemonset_strategy(spec, &mut out);
    out.extend(nonnegative(
        spec,
        "revisionHistoryLimit",
        "spec.revisionHistoryLimit",
    ));
    selector_immutable(spec, old, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn workload(labels: Value, selector: Value) -> Value {
        json!({"spec": {
            "replicas": 1,
            "selector": selector,
            "template": {"metadata": {"labels": labels}, "spec": {"terminationGracePeriodSeconds": 30, "containers": [{"name": "a", "image": "x", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}], "restartPolicy": "Always"}},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
            "progressDeadlineSeconds": 600
        }})
    }

    fn ok() -> Value {
        workload(json!({"app": "a"}), json!({"matchLabels": {"app": "a"}}))
    }

    fn pairs(c: &[StatusCause]) -> Vec<(&str, &str)> {
        c.iter()
            .map(|c| (c.field.as_str(), c.message.as_str()))
            .collect()
    }

    #[test]
    fn deployments() {
        assert!(
            deployment(&ok(), None).is_empty(),
            "{:?}",
            deployment(&ok(), None)
        );
        let c = deployment(
            &workload(json!({"app": "b"}), json!({"matchLabels": {"app": "a"}})),
            None,
        );
        assert_eq!(pairs(&c), vec![("spec.template.metadata.labels", "Invalid value: map[string]string{\"app\":\"b\"}: `selector` does not match template `labels`")]);
        let mut d = ok();
        d["spec"].as_object_mut().unwrap().remove("selector");
        assert_eq!(pairs(&deployment(&d, None)), vec![
            ("spec.selector", "Required value"),
            ("spec.template.metadata.labels", "Invalid value: map[string]string{\"app\":\"a\"}: `selector` does not match template `labels`"),
        ]);
        d["spec"]["selector"] = json!({});
        assert_eq!(pairs(&deployment(&d, None)), vec![("spec.selector", "Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment")]);
        let mut d = ok();
        d["spec"]["replicas"] = json!(-1);
        d["spec"]["template"]["spec"]["restartPolicy"] = json!("Never");
        d["spec"]["template"]["spec"]["activeDeadlineSeconds"] = json!(5);
        d["spec"]["strategy"]["rollingUpdate"] = json!({"maxUnavailable": 0, "maxSurge": "0%"});
        d["spec"]["progressDeadlineSeconds"] = json!(0);
        assert_eq!(
            pairs(&deployment(&d, None)),
            vec![
                (
                    "spec.replicas",
                    "Invalid value: -1: must be greater than or equal to 0"
                ),
                (
                    "spec.template.spec.restartPolicy",
                    "Unsupported value: \"Never\": supported values: \"Always\""
                ),
                (
                    "spec.template.spec.activeDeadlineSeconds",
                    "Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"
                ),
                (
                    "spec.strategy.rollingUpdate.maxUnavailable",
                    "Invalid value: 0: may not be 0 when `maxSurge` is 0"
                ),
                (
                    "spec.progressDeadlineSeconds",
                    "Invalid value: 0: must be greater than minReadySeconds"
                ),
            ]
        );
        let mut d = ok();
        d["spec"]["strategy"] = json!({"type": "Recreate", "rollingUpdate": {}});
        assert_eq!(
            pairs(&deployment(&d, None)),
            vec![(
                "spec.strategy.rollingUpdate",
                "Forbidden: may not be specified when strategy `type` is 'Recreate'"
            )]
        );
        d["spec"]["strategy"] = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "150%", "maxUnavailable": "x"}});
        assert_eq!(pairs(&deployment(&d, None)), vec![("spec.strategy.rollingUpdate.maxUnavailable", "Invalid value: x: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")]);
        d["spec"]["strategy"] =
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "101%"}});
        assert_eq!(
            pairs(&deployment(&d, None)),
            vec![(
                "spec.strategy.rollingUpdate.maxUnavailable",
                "Invalid value: 101%: must not be greater than 100%"
            )]
        );
        d["spec"]["strategy"] = json!({"type": "Bogus"});
        assert_eq!(pairs(&deployment(&d, None)), vec![("spec.strategy", "Unsupported value: apps.DeploymentStrategy{Type:\"Bogus\", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: \"Recreate\", \"RollingUpdate\"")]);
        let moved = workload(json!({"app": "b"}), json!({"matchLabels": {"app": "b"}}));
        assert_eq!(
            pairs(&deployment(&moved, Some(&ok()))),
            vec![(
                "spec.selector",
                r#"Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable"#
            )]
        );
    }

    #[test]
    fn replicasets_and_daemonsets() {
        assert!(replicaset(&ok(), Some(&ok())).is_empty());
        let mut rs = ok();
        rs["spec"]["selector"] = json!({});
        assert!(replicaset(&rs, None)[0]
            .message
            .ends_with("empty selector is invalid for deployment"));
        let mut ds = ok();
        ds["spec"]["updateStrategy"] =
            json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 1}});
        assert_eq!(
            pairs(&daemonset(&ds, None)),
            vec![(
                "spec.updateStrategy.rollingUpdate.maxSurge",
                "Invalid value: 1: may not be set when maxUnavailable is non-zero"
            )]
        );
        ds["spec"]["updateStrategy"] = json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": "0%"}});
        assert_eq!(
            pairs(&daemonset(&ds, None)),
            vec![(
                "spec.updateStrategy.rollingUpdate.maxUnavailable",
                "Required value: cannot be 0 when maxSurge is 0"
            )]
        );
        ds["spec"]["updateStrategy"] = json!({"type": "Sometimes"});
        ds["spec"]["template"]["spec"]["activeDeadlineSeconds"] = json!(5);
        ds["spec"].as_object_mut().unwrap().remove("selector");
        assert_eq!(pairs(&daemonset(&ds, None)), vec![
            ("spec.template.metadata.labels", "Invalid value: map[string]string{\"app\":\"a\"}: `selector` does not match template `labels`"),
            ("spec.template.spec.activeDeadlineSeconds", "Forbidden: activeDeadlineSeconds in DaemonSet is not Supported"),
            ("spec.updateStrategy", "Unsupported value: \"Sometimes\": supported values: \"RollingUpdate\", \"OnDelete\""),
        ]);
    }

    #[test]
    fn garbage_never_panics() {
        for v in [
            json!(null),
            json!([]),
            json!({"spec": {"selector": 1, "template": "x", "strategy": {"type": "RollingUpdate", "rollingUpdate": 1}, "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": [], "maxSurge": "%"}}}}),
        ] {
            let _ = (
                deployment(&v, Some(&v)),
                replicaset(&v, Some(&v)),
                daemonset(&v, Some(&v)),
            );
        }
    }
}
