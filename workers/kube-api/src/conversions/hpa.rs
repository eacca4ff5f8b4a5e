//! autoscaling/v1 HorizontalPodAutoscalers, stored as autoscaling/v2 ones, as upstream
//! converts them: the CPU utilization target is v1's own field; what v1 cannot express
//! (other metrics, the current metrics, the behavior, the conditions) travels in
//! `autoscaling.alpha.kubernetes.io/*` annotations, written in the v1 types' JSON shape
//! (fields in Go's struct order) and read back, then dropped, on the way in.

use serde_json::{json, Map, Value};

use crate::defaults;

mod metrics;

use metrics::{opt, ordered, string, v1_metric, v2_metric};

const METRICS: &str = defaults::METRICS_ANNOTATION;
const CURRENT_METRICS: &str = "autoscaling.alpha.kubernetes.io/current-metrics";
const CONDITIONS: &str = "autoscaling.alpha.kubernetes.io/conditions";
const BEHAVIOR: &str = "autoscaling.alpha.kubernetes.io/behavior";

/// A v2 condition as the v1 type's JSON text.
fn v1_condition(c: &Value) -> String {
    ordered(vec![
        ("type", string(c, "type")),
        ("status", string(c, "status")),
        (
            "lastTransitionTime",
            Some(opt(c, "lastTransitionTime").unwrap_or("null".into())),
        ),
        ("reason", opt(c, "reason").filter(|r| r != "\"\"")),
        ("message", opt(c, "message").filter(|r| r != "\"\"")),
    ])
}

/// The behavior as upstream writes it: its internal type, whose fields carry no JSON
/// names, so Go's field names are used and unset pointers are null.
fn behavior_text(b: &Value) -> String {
    let rules = |key: &str| -> String {
        let Some(r) = b.get(key).filter(|r| r.is_object()) else {
            return "null".into();
        };
        let policies = r.get("policies").and_then(Value::as_array).map(|ps| {
            let each: Vec<String> = ps
                .iter()
                .map(|p| {
                    ordered(vec![
                        ("Type", string(p, "type")),
                        ("Value", Some(opt(p, "value").unwrap_or("0".into()))),
                        (
                            "PeriodSeconds",
                            Some(opt(p, "periodSeconds").unwrap_or("0".into())),
                        ),
                    ])
                })
                .collect();
            format!("[{}]", each.join(","))
        });
        let or_null = |v: Option<String>| Some(v.unwrap_or_else(|| "null".into()));
        ordered(vec![
            (
                "StabilizationWindowSeconds",
                or_null(opt(r, "stabilizationWindowSeconds")),
            ),
            ("SelectPolicy", or_null(opt(r, "selectPolicy"))),
            ("Policies", or_null(policies)),
            ("Tolerance", or_null(opt(r, "tolerance"))),
        ])
    };
    ordered(vec![
        ("ScaleUp", Some(rules("scaleUp"))),
        ("ScaleDown", Some(rules("scaleDown"))),
    ])
}

/// The behavior annotation back in the v2 shape; `None` when it states nothing.
fn behavior_value(text: &str) -> Option<Value> {
    let b: Value = serde_json::from_str(text).ok()?;
    let rules = |key: &str| -> Option<Value> {
        let r = b.get(key).filter(|r| r.is_object())?;
        let mut o = Map::new();
        let mut put = |to: &str, v: Option<&Value>| {
            if let Some(v) = v.filter(|v| !v.is_null()) {
                o.insert(to.into(), v.clone());
            }
        };
        put(
            "stabilizationWindowSeconds",
            r.get("StabilizationWindowSeconds"),
        );
        put("selectPolicy", r.get("SelectPolicy"));
        put("tolerance", r.get("Tolerance"));
        let policies = r.get("Policies").and_then(Value::as_array).map(|ps| {
            ps.iter()
                .map(|p| {
                    json!({"type": p.get("Type"), "value": p.get("Value"),
                    "periodSeconds": p.get("PeriodSeconds")})
                })
                .collect::<Vec<_>>()
        });
        put("policies", policies.map(Value::from).as_ref());
        Some(Value::Object(o))
    };
    let mut out = Map::new();
    for (from, to) in [("ScaleUp", "scaleUp"), ("ScaleDown", "scaleDown")] {
        if let Some(r) = rules(from) {
            out.insert(to.into(), r);
        }
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

fn is_cpu_utilization(m: &Value) -> bool {
    m.get("type").and_then(Value::as_str) == Some("Resource")
        && m.pointer("/resource/name").and_then(Value::as_str) == Some("cpu")
        && m.pointer("/resource/target/averageUtilization")
            .is_some_and(|u| !u.is_null())
}

fn array(v: Option<Value>) -> Vec<Value> {
    match v {
        Some(Value::Array(a)) => a,
        _ => Vec::new(),
    }
}

/// autoscaling/v2 → autoscaling/v1.
pub(crate) fn hpa_v2_to_v1(v: &mut Value) {
    let mut notes: Vec<(&str, String)> = Vec::new();
    if let Some(spec) = v.get_mut("spec").and_then(Value::as_object_mut) {
        let metrics = array(spec.remove("metrics"));
        if let Some(cpu) = metrics.iter().find(|m| is_cpu_utilization(m)) {
            let u = cpu.pointer("/resource/target/averageUtilization").cloned();
            spec.insert(
                "targetCPUUtilizationPercentage".into(),
                u.unwrap_or_default(),
            );
        }
        let others: Vec<String> = metrics
            .iter()
            .filter(|m| !is_cpu_utilization(m))
            .map(|m| v1_metric(m, false))
            .collect();
        if !others.is_empty() {
            notes.push((METRICS, format!("[{}]", others.join(","))));
        }
        if let Some(b) = spec.remove("behavior").filter(Value::is_object) {
            notes.push((BEHAVIOR, behavior_text(&b)));
        }
    }
    if let Some(status) = v.get_mut("status").and_then(Value::as_object_mut) {
        let current = array(status.remove("currentMetrics"));
        let cpu = current.iter().rev().find(|m| {
            m.get("type").and_then(Value::as_str) == Some("Resource")
                && m.pointer("/resource/name").and_then(Value::as_str) == Some("cpu")
                && m.pointer("/resource/current/averageUtilization")
                    .is_some_and(|u| !u.is_null())
        });
        if let Some(u) = cpu.and_then(|m| m.pointer("/resource/current/averageUtilization")) {
            status.insert("currentCPUUtilizationPercentage".into(), u.clone());
        }
        if !current.is_empty() {
            let each: Vec<String> = current.iter().map(|m| v1_metric(m, true)).collect();
            notes.push((CURRENT_METRICS, format!("[{}]", each.join(","))));
        }
        let conditions = array(status.remove("conditions"));
        if !conditions.is_empty() {
            let each: Vec<String> = conditions.iter().map(v1_condition).collect();
            notes.push((CONDITIONS, format!("[{}]", each.join(","))));
        }
    }
    if notes.is_empty() {
        return;
    }
    let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    let annotations = meta.entry("annotations").or_insert_with(|| json!({}));
    if !annotations.is_object() {
        *annotations = json!({});
    }
    for (k, text) in notes {
        annotations[k] = json!(text);
    }
}

/// autoscaling/v1 → autoscaling/v2: the CPU target becomes a Resource metric after the
/// annotated ones, the annotations are read back and dropped, then v2's defaults apply
/// (as upstream's storage decoding applies them: the 80% CPU target when no metric).
pub(crate) fn hpa_v1_to_v2(v: &mut Value) {
    let mut notes = Map::new();
    if let Some(a) = v
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        for k in [METRICS, CURRENT_METRICS, CONDITIONS, BEHAVIOR] {
            if let Some(text) = a.remove(k) {
                notes.insert(k.into(), text);
            }
        }
        if a.is_empty() {
            if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
                m.remove("annotations");
            }
        }
    }
    let parsed = |k: &str| -> Vec<Value> {
        notes
            .get(k)
            .and_then(Value::as_str)
            .and_then(|t| serde_json::from_str::<Vec<Value>>(t).ok())
            .unwrap_or_default()
    };
    if let Some(spec) = v.get_mut("spec").and_then(Value::as_object_mut) {
        let mut metrics: Vec<Value> = parsed(METRICS)
            .iter()
            .map(|m| v2_metric(m, false))
            .collect();
        if let Some(cpu) = spec
            .remove("targetCPUUtilizationPercentage")
            .filter(|c| !c.is_null())
        {
            metrics.push(defaults::cpu_metric(cpu));
        }
        if !metrics.is_empty() {
            spec.insert("metrics".into(), Value::Array(metrics));
        }
        let behavior = notes
            .get(BEHAVIOR)
            .and_then(Value::as_str)
            .and_then(behavior_value);
        if let Some(b) = behavior {
            spec.insert("behavior".into(), b);
        }
    }
    if let Some(status) = v.get_mut("status").and_then(Value::as_object_mut) {
        let cpu = status
            .remove("currentCPUUtilizationPercentage")
            .filter(|c| !c.is_null());
        if notes.contains_key(CURRENT_METRICS) {
            let current: Vec<Value> = parsed(CURRENT_METRICS)
                .iter()
                .map(|m| v2_metric(m, true))
                .collect();
            status.insert("currentMetrics".into(), Value::Array(current));
        } else if let Some(cpu) = cpu {
            status.insert(
                "currentMetrics".into(),
                json!([{"type": "Resource", "resource": {"name": "cpu",
                    "current": {"averageUtilization": cpu}}}]),
            );
        }
        if notes.contains_key(CONDITIONS) {
            status.insert("conditions".into(), Value::Array(parsed(CONDITIONS)));
        }
    }
    defaults::hpa_v2_defaults(v);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_target_round_trips() {
        let v1 = json!({"metadata": {}, "spec": {"minReplicas": 1, "maxReplicas": 3, "targetCPUUtilizationPercentage": 70}});
        let mut v2 = v1.clone();
        hpa_v1_to_v2(&mut v2);
        assert_eq!(
            v2["spec"]["metrics"],
            json!([defaults::cpu_metric(json!(70))])
        );
        hpa_v2_to_v1(&mut v2);
        assert_eq!(v2, v1);
    }

    #[test]
    fn no_target_is_80_percent() {
        let mut h = json!({"spec": {"maxReplicas": 3}});
        hpa_v1_to_v2(&mut h);
        assert_eq!(
            h["spec"]["metrics"],
            json!([defaults::cpu_metric(json!(80))])
        );
        hpa_v2_to_v1(&mut h);
        assert_eq!(
            h["spec"],
            json!({"maxReplicas": 3, "minReplicas": 1, "targetCPUUtilizationPercentage": 80})
        );
    }

    #[test]
    fn v2_only_fields_travel_in_annotations() {
        let v2 = json!({"metadata": {"annotations": {"a": "b"}}, "spec": {"minReplicas": 1, "maxReplicas": 5,
            "metrics": [
                {"type": "Pods", "pods": {"metric": {"name": "qps", "selector": {"matchLabels": {"x": "y"}}},
                    "target": {"type": "AverageValue", "averageValue": "10"}}},
                defaults::cpu_metric(json!(50)),
                {"type": "External", "external": {"metric": {"name": "q"}, "target": {"type": "Value", "value": "3"}}},
                {"type": "Object", "object": {"describedObject": {"kind": "Service", "name": "s", "apiVersion": "v1"},
                    "metric": {"name": "rps"}, "target": {"type": "Value", "value": "2"}}},
                {"type": "ContainerResource", "containerResource": {"name": "memory", "container": "c",
                    "target": {"type": "AverageValue", "averageValue": "1Gi"}}}
            ],
            "behavior": {"scaleUp": {"stabilizationWindowSeconds": 0, "selectPolicy": "Max",
                "policies": [{"type": "Pods", "value": 4, "periodSeconds": 15}, {"type": "Percent", "value": 100, "periodSeconds": 15}]},
                "scaleDown": {"selectPolicy": "Max", "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]}}},
            "status": {"currentReplicas": 2, "desiredReplicas": 2,
                "currentMetrics": [{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 40, "averageValue": "200m"}}}],
                "conditions": [{"type": "AbleToScale", "status": "True", "lastTransitionTime": "2025-01-01T00:00:00Z", "reason": "R", "message": "m"}]}});
        let mut v1 = v2.clone();
        hpa_v2_to_v1(&mut v1);
        let a = &v1["metadata"]["annotations"];
        assert_eq!(
            a[METRICS],
            concat!(
                r#"[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10","selector":{"matchLabels":{"x":"y"}}}},"#,
                r#"{"type":"External","external":{"metricName":"q","targetValue":"3"}},"#,
                r#"{"type":"Object","object":{"target":{"kind":"Service","name":"s","apiVersion":"v1"},"metricName":"rps","targetValue":"2"}},"#,
                r#"{"type":"ContainerResource","containerResource":{"name":"memory","targetAverageValue":"1Gi","container":"c"}}]"#
            )
        );
        assert_eq!(
            a[CURRENT_METRICS],
            r#"[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"200m"}}]"#
        );
        assert_eq!(
            a[CONDITIONS],
            r#"[{"type":"AbleToScale","status":"True","lastTransitionTime":"2025-01-01T00:00:00Z","reason":"R","message":"m"}]"#
        );
        assert_eq!(
            a[BEHAVIOR],
            concat!(
                r#"{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null},"#,
                r#""ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null}}"#
            )
        );
        assert_eq!(a["a"], "b");
        assert_eq!(v1["spec"]["targetCPUUtilizationPercentage"], 50);
        assert_eq!(
            v1["status"],
            json!({"currentReplicas": 2, "desiredReplicas": 2, "currentCPUUtilizationPercentage": 40})
        );
        let mut back = v1.clone();
        hpa_v1_to_v2(&mut back);
        let mut want = v2.clone();
        // The CPU target moves after the annotated metrics, as upstream puts it back.
        let metrics = want["spec"]["metrics"].as_array_mut().expect("metrics");
        let cpu = metrics.remove(1);
        metrics.push(cpu);
        assert_eq!(back, want);
    }

    #[test]
    fn malformed_shapes_do_not_panic() {
        for mut v in [
            json!(null),
            json!({"spec": 1, "status": 2}),
            json!({"metadata": {"annotations": {METRICS: "[1, {\"type\": \"Pods\"}]", BEHAVIOR: "{}", CURRENT_METRICS: "x"}}, "spec": {"metrics": [1, {"type": "Object"}]}, "status": {"currentMetrics": [2], "conditions": [3]}}),
        ] {
            hpa_v2_to_v1(&mut v);
            hpa_v1_to_v2(&mut v);
        }
    }
}
