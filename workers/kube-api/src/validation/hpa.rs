//! HorizontalPodAutoscalers as kube-apiserver 1.33 validates them (autoscaling/v2, and
//! v1 objects after their conversion, so their causes name the v2 paths as upstream's
//! internal validation does): replica bounds, the scale target, each metric's source and
//! target, and the scaling behavior's policies. HPAScaleToZero is off (minReplicas 0 only
//! when the stored object already had it).

use kas_server::rest::path_segment_msgs;
use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{
    arr, dns_label_msgs, each_invalid, forbidden, invalid, invalid_int, invalid_shown,
    not_supported, required, s, NEGATIVE_MSG,
};

const METRIC_TYPES: [&str; 5] = [
    "ContainerResource",
    "External",
    "Object",
    "Pods",
    "Resource",
];
/// The metric source fields, in the order upstream looks for them, with their types.
const SOURCES: [(&str, &str); 5] = [
    ("object", "Object"),
    ("external", "External"),
    ("pods", "Pods"),
    ("resource", "Resource"),
    ("containerResource", "ContainerResource"),
];

/// An autoscaling/v2 HorizontalPodAutoscaler.
pub(crate) fn hpa_v2(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut causes = spec_rules(o, old);
    for field in ["currentReplicas", "desiredReplicas"] {
        if let Some(n) = o
            .pointer(&format!("/status/{field}"))
            .and_then(Value::as_i64)
        {
            if n < 0 {
                causes.push(invalid_int(&format!("status.{field}"), n, NEGATIVE_MSG));
            }
        }
    }
    causes
}

/// An autoscaling/v1 HorizontalPodAutoscaler: validated as its v2 form.
pub(crate) fn hpa_v1(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let as_v2 = |v: &Value| {
        let mut v = v.clone();
        crate::conversions::hpa_v1_to_v2(&mut v);
        v
    };
    let old = old.map(as_v2);
    hpa_v2(&as_v2(o), old.as_ref())
}

/// A cross-version object reference at `at`: kind and name required, path segments.
fn reference(r: Option<&Value>, at: &str, out: &mut Vec<StatusCause>) {
    for key in ["kind", "name"] {
        let v = r.and_then(|r| s(r, key)).unwrap_or("");
        let field = format!("{at}.{key}");
        if v.is_empty() {
            out.push(required(&field, ""));
        } else {
            out.extend(each_invalid(&field, v, path_segment_msgs(v)));
        }
    }
}

fn spec_rules(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut causes = Vec::new();
    let spec = o.get("spec").cloned().unwrap_or(Value::Null);
    let min = spec.get("minReplicas").and_then(Value::as_i64);
    let max = spec.get("maxReplicas").and_then(Value::as_i64).unwrap_or(0);
    let old_min = old
        .and_then(|o| o.pointer("/spec/minReplicas"))
        .and_then(Value::as_i64);
    let bound = if old_min == Some(0) { 0 } else { 1 };
    if let Some(m) = min.filter(|m| *m < bound) {
        causes.push(invalid_int(
            "spec.minReplicas",
            m,
            &format!("must be greater than or equal to {bound}"),
        ));
    }
    if max < 1 {
        causes.push(invalid_int(
            "spec.maxReplicas",
            max,
            "must be greater than 0",
        ));
    }
    if min.is_some_and(|m| max < m) {
        causes.push(invalid_int(
            "spec.maxReplicas",
            max,
            "must be greater than or equal to `minReplicas`",
        ));
    }
    reference(
        spec.get("scaleTargetRef"),
        "spec.scaleTargetRef",
        &mut causes,
    );
    let metrics = arr(&spec, "metrics");
    if min == Some(0)
        && !metrics
            .iter()
            .any(|m| matches!(s(m, "type"), Some("Object" | "External")))
    {
        causes.push(forbidden(
            "spec.metrics",
            "must specify at least one Object or External metric to support scaling to zero replicas",
        ));
    }
    for (i, m) in metrics.iter().enumerate() {
        metric(m, &format!("spec.metrics[{i}]"), &mut causes);
    }
    if let Some(behavior) = spec.get("behavior").filter(|b| b.is_object()) {
        for direction in ["scaleUp", "scaleDown"] {
            if let Some(rules) = behavior.get(direction).filter(|r| r.is_object()) {
                scaling_rules(rules, &format!("spec.behavior.{direction}"), &mut causes);
            }
        }
    }
    causes
}

fn metric(m: &Value, at: &str, out: &mut Vec<StatusCause>) {
    let kind = s(m, "type").unwrap_or("");
    if kind.is_empty() {
        out.push(required(
            &format!("{at}.type"),
            "must specify a metric source type",
        ));
    }
    if !METRIC_TYPES.contains(&kind) {
        out.push(not_supported(&format!("{at}.type"), kind, &METRIC_TYPES));
        return;
    }
    let field = SOURCES
        .iter()
        .find(|(_, t)| *t == kind)
        .map_or("", |(f, _)| *f);
    let present: Vec<&str> = SOURCES
        .iter()
        .map(|(f, _)| *f)
        .filter(|f| m.get(*f).is_some_and(Value::is_object))
        .collect();
    for other in present.iter().filter(|f| **f != field) {
        out.push(forbidden(
            &format!("{at}.{other}"),
            "must populate the given metric source only",
        ));
    }
    let Some(source) = m.get(field).filter(|v| v.is_object()) else {
        out.push(required(
            &format!("{at}.{field}"),
            "must populate information for the given metric source",
        ));
        return;
    };
    let at = format!("{at}.{field}");
    target(source.get("target"), &format!("{at}.target"), out);
    let t = |k: &str| {
        source
            .pointer(&format!("/target/{k}"))
            .filter(|v| !v.is_null())
    };
    let metric_name = |out: &mut Vec<StatusCause>| {
        let name = source
            .pointer("/metric/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        let f = format!("{at}.metric.name");
        if name.is_empty() {
            out.push(required(&f, "must specify a metric name"));
        } else {
            out.extend(each_invalid(&f, name, path_segment_msgs(name)));
        }
    };
    match field {
        "resource" | "containerResource" => {
            if s(source, "name").unwrap_or("").is_empty() {
                out.push(required(
                    &format!("{at}.name"),
                    "must specify a resource name",
                ));
            }
            if field == "containerResource" {
                let container = s(source, "container").unwrap_or("");
                let f = format!("{at}.container");
                if container.is_empty() {
                    out.push(required(&f, "must specify a container"));
                } else {
                    out.extend(each_invalid(&f, container, dns_label_msgs(container)));
                }
            }
            match (t("averageUtilization"), t("averageValue")) {
                (None, None) => out.push(required(
                    &format!("{at}.target.averageUtilization"),
                    "must set either a target raw value or a target utilization",
                )),
                (Some(_), Some(_)) => out.push(forbidden(
                    &format!("{at}.target.averageValue"),
                    "may not set both a target raw value and a target utilization",
                )),
                _ => {}
            }
        }
        "pods" => {
            metric_name(out);
            if t("averageValue").is_none() {
                out.push(required(
                    &format!("{at}.target.averageValue"),
                    "must specify a positive target averageValue",
                ));
            }
        }
        "object" => {
            reference(
                source.get("describedObject"),
                &format!("{at}.describedObject"),
                out,
            );
            metric_name(out);
            if t("value").is_none() && t("averageValue").is_none() {
                out.push(required(
                    &format!("{at}.target.averageValue"),
                    "must set either a target value or averageValue",
                ));
            }
        }
        _ => {
            metric_name(out);
            match (t("value"), t("averageValue")) {
                (None, None) => out.push(required(
                    &format!("{at}.target.averageValue"),
                    "must set either a target value for metric or a per-pod target",
                )),
                (Some(_), Some(_)) => out.push(forbidden(
                    &format!("{at}.target.value"),
                    "may not set both a target value for metric and a per-pod target",
                )),
                _ => {}
            }
        }
    }
}

/// Go's `%#v` of a resource.Quantity holding `q`.
fn show_quantity(q: &str) -> String {
    let value = q.parse::<i64>().unwrap_or(0);
    format!(
        "resource.Quantity{{i:resource.int64Amount{{value:{value}, scale:0}}, d:resource.infDecAmount{{Dec:(*inf.Dec)(nil)}}, s:{}, Format:\"DecimalSI\"}}",
        super::causes::quote(q)
    )
}

/// Upstream's validateMetricTarget.
fn target(t: Option<&Value>, at: &str, out: &mut Vec<StatusCause>) {
    let t = t.cloned().unwrap_or(Value::Null);
    let kind = s(&t, "type").unwrap_or("");
    if kind.is_empty() {
        out.push(required(
            &format!("{at}.type"),
            "must specify a metric target type",
        ));
    }
    if !matches!(kind, "Utilization" | "Value" | "AverageValue") {
        out.push(invalid(
            &format!("{at}.type"),
            kind,
            "must be either Utilization, Value, or AverageValue",
        ));
    }
    for key in ["value", "averageValue"] {
        let Some(q) = t.get(key).filter(|v| !v.is_null()) else {
            continue;
        };
        let text = q
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| q.to_string());
        if super::parse_quantity(&text).is_some_and(|n| n <= 0.0) {
            out.push(invalid_shown(
                &format!("{at}.{key}"),
                &show_quantity(&text),
                "must be positive",
            ));
        }
    }
    if let Some(u) = t.get("averageUtilization").and_then(Value::as_i64) {
        if u < 1 {
            out.push(invalid_int(
                &format!("{at}.averageUtilization"),
                u,
                "must be greater than 0",
            ));
        }
    }
}

/// Upstream's validateScalingRules.
fn scaling_rules(rules: &Value, at: &str, out: &mut Vec<StatusCause>) {
    if let Some(w) = rules
        .get("stabilizationWindowSeconds")
        .and_then(Value::as_i64)
    {
        let f = format!("{at}.stabilizationWindowSeconds");
        if w < 0 {
            out.push(invalid_int(&f, w, "must be greater than or equal to zero"));
        } else if w > 3600 {
            out.push(invalid_int(&f, w, "must be less than or equal to 3600"));
        }
    }
    if let Some(p) = s(rules, "selectPolicy") {
        if !matches!(p, "Max" | "Min" | "Disabled") {
            out.push(not_supported(
                &format!("{at}.selectPolicy"),
                p,
                &["Disabled", "Max", "Min"],
            ));
        }
    }
    if rules
        .get("policies")
        .is_some_and(|p| p.as_array().is_some_and(Vec::is_empty))
    {
        out.push(required(
            &format!("{at}.policies"),
            "must specify at least one Policy",
        ));
    }
    for (k, policy) in arr(rules, "policies").iter().enumerate() {
        let pat = format!("{at}.policies[{k}]");
        let kind = s(policy, "type").unwrap_or("");
        if !matches!(kind, "Pods" | "Percent") {
            out.push(not_supported(
                &format!("{pat}.type"),
                kind,
                &["Percent", "Pods"],
            ));
        }
        let value = policy.get("value").and_then(Value::as_i64).unwrap_or(0);
        if value <= 0 {
            out.push(invalid_int(
                &format!("{pat}.value"),
                value,
                "must be greater than zero",
            ));
        }
        let period = policy
            .get("periodSeconds")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        let f = format!("{pat}.periodSeconds");
        if period <= 0 {
            out.push(invalid_int(&f, period, "must be greater than zero"));
        } else if period > 1800 {
            out.push(invalid_int(
                &f,
                period,
                "must be less than or equal to 1800",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::causes::messages;
    use super::*;
    use serde_json::json;

    #[test]
    fn replicas_targets_metrics_and_behavior() {
        let hpa = json!({"spec": {"minReplicas": 3, "maxReplicas": 2, "scaleTargetRef": {"kind": "Deployment", "name": ""},
            "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 0}}},
                        {"type": "Flux"}],
            "behavior": {"scaleUp": {"policies": [{"type": "pods", "value": 0, "periodSeconds": 1801}]}}}});
        assert_eq!(
            messages(&hpa_v2(&hpa, None)),
            [
                "spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`",
                "spec.scaleTargetRef.name: Required value",
                "spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0",
                "spec.metrics[1].type: Unsupported value: \"Flux\": supported values: \"ContainerResource\", \"External\", \"Object\", \"Pods\", \"Resource\"",
                "spec.behavior.scaleUp.policies[0].type: Unsupported value: \"pods\": supported values: \"Percent\", \"Pods\"",
                "spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero",
                "spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800",
            ]
        );
        let v1 = json!({"spec": {"maxReplicas": 3, "scaleTargetRef": {"kind": "Deployment", "name": "d"},
            "targetCPUUtilizationPercentage": 0}});
        assert_eq!(
            messages(&hpa_v1(&v1, None)),
            ["spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0"]
        );
        let ok = json!({"spec": {"minReplicas": 1, "maxReplicas": 3, "scaleTargetRef": {"kind": "Deployment", "name": "d"},
            "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}]}});
        assert!(hpa_v2(&ok, None).is_empty());
    }
}
