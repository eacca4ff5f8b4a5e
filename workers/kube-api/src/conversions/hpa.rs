//! autoscaling/v1 HorizontalPodAutoscalers, stored as autoscaling/v2 ones, as upstream
//! converts them: the CPU utilization target is v1's own field; what v1 cannot express
//! (other metrics, the current metrics, the behavior, the conditions) travels in
//! `autoscaling.alpha.kubernetes.io/*` annotations, written in the v1 types' JSON shape
//! (fields in Go's struct order) and read back, then dropped, on the way in.

use serde_json::{json, Map, Value};

use crate::defaults;

const METRICS: &str = defaults::METRICS_ANNOTATION;
const CURRENT_METRICS: &str = "autoscaling.alpha.kubernetes.io/current-metrics";
const CONDITIONS: &str = "autoscaling.alpha.kubernetes.io/conditions";
const BEHAVIOR: &str = "autoscaling.alpha.kubernetes.io/behavior";

/// JSON text of an object whose fields come in this order; `None` values are left out
/// (Go's `omitempty`), the others are JSON text already.
fn ordered(fields: Vec<(&str, Option<String>)>) -> String {
    let body: Vec<String> = fields
        .into_iter()
        .filter_map(|(k, v)| Some(format!("{}:{}", Value::from(k), v?)))
        .collect();
    format!("{{{}}}", body.join(","))
}

fn text(v: &Value) -> String {
    v.to_string()
}

/// `v[key]` as JSON text, unless missing or null.
fn opt(v: &Value, key: &str) -> Option<String> {
    v.get(key).filter(|x| !x.is_null()).map(text)
}

/// `v[key]` as JSON text, a Go non-pointer Quantity: "0" when missing.
fn quantity(v: &Value, key: &str) -> Option<String> {
    Some(opt(v, key).unwrap_or_else(|| "\"0\"".into()))
}

/// `v[key]` as a Go string field without omitempty.
fn string(v: &Value, key: &str) -> Option<String> {
    Some(opt(v, key).unwrap_or_else(|| "\"\"".into()))
}

/// A LabelSelector (matchLabels before matchExpressions).
fn selector(v: &Value, key: &str) -> Option<String> {
    let s = v.get(key).filter(|s| s.is_object())?;
    let labels = s
        .get("matchLabels")
        .filter(|l| l.as_object().is_some_and(|m| !m.is_empty()));
    let exprs: Option<Vec<String>> = s
        .get("matchExpressions")
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
        .map(|a| {
            a.iter()
                .map(|e| {
                    ordered(vec![
                        ("key", string(e, "key")),
                        ("operator", string(e, "operator")),
                        ("values", opt(e, "values")),
                    ])
                })
                .collect()
        });
    Some(ordered(vec![
        ("matchLabels", labels.map(text)),
        (
            "matchExpressions",
            exprs.map(|e| format!("[{}]", e.join(","))),
        ),
    ]))
}

/// A CrossVersionObjectReference from a v2 `describedObject`.
fn reference(v: &Value) -> Option<String> {
    let empty = json!({});
    let r = v.get("describedObject").unwrap_or(&empty);
    Some(ordered(vec![
        ("kind", string(r, "kind")),
        ("name", string(r, "name")),
        ("apiVersion", opt(r, "apiVersion")),
    ]))
}

/// One v2 metric (spec or status, by `status`) as the v1 type's JSON text.
fn v1_metric(m: &Value, status: bool) -> String {
    let empty = json!({});
    let ty = m.get("type").and_then(Value::as_str).unwrap_or("");
    let src = |k: &str| m.get(k).filter(|s| s.is_object()).unwrap_or(&empty);
    let metric = |s: &Value| s.get("metric").cloned().unwrap_or(json!({}));
    let inner = |s: &Value| {
        s.get(if status { "current" } else { "target" })
            .cloned()
            .unwrap_or(json!({}))
    };
    let (key, body) = match ty {
        "Object" => {
            let s = src("object");
            let (id, t) = (metric(s), inner(s));
            let value = if status {
                "currentValue"
            } else {
                "targetValue"
            };
            let body = ordered(vec![
                ("target", reference(s)),
                ("metricName", string(&id, "name")),
                (value, quantity(&t, "value")),
                ("selector", selector(&id, "selector")),
                ("averageValue", opt(&t, "averageValue")),
            ]);
            ("object", body)
        }
        "Pods" => {
            let s = src("pods");
            let (id, t) = (metric(s), inner(s));
            let value = if status {
                "currentAverageValue"
            } else {
                "targetAverageValue"
            };
            let body = ordered(vec![
                ("metricName", string(&id, "name")),
                (value, quantity(&t, "averageValue")),
                ("selector", selector(&id, "selector")),
            ]);
            ("pods", body)
        }
        "Resource" | "ContainerResource" => {
            let key = if ty == "Resource" {
                "resource"
            } else {
                "containerResource"
            };
            let s = src(key);
            let t = inner(s);
            let mut fields = if status {
                vec![
                    ("name", string(s, "name")),
                    ("currentAverageUtilization", opt(&t, "averageUtilization")),
                    ("currentAverageValue", quantity(&t, "averageValue")),
                ]
            } else {
                vec![
                    ("name", string(s, "name")),
                    ("targetAverageUtilization", opt(&t, "averageUtilization")),
                    ("targetAverageValue", opt(&t, "averageValue")),
                ]
            };
            if key == "containerResource" {
                fields.push(("container", string(s, "container")));
            }
            (key, ordered(fields))
        }
        "External" => {
            let s = src("external");
            let (id, t) = (metric(s), inner(s));
            let fields = if status {
                vec![
                    ("metricName", string(&id, "name")),
                    ("metricSelector", selector(&id, "selector")),
                    ("currentValue", quantity(&t, "value")),
                    ("currentAverageValue", opt(&t, "averageValue")),
                ]
            } else {
                vec![
                    ("metricName", string(&id, "name")),
                    ("metricSelector", selector(&id, "selector")),
                    ("targetValue", opt(&t, "value")),
                    ("targetAverageValue", opt(&t, "averageValue")),
                ]
            };
            ("external", ordered(fields))
        }
        _ => ("", String::new()),
    };
    let mut fields = vec![("type", Some(Value::from(ty).to_string()))];
    if !key.is_empty() {
        fields.push((key, Some(body)));
    }
    ordered(fields)
}

/// One v1 metric (spec or status) back in the v2 shape.
fn v2_metric(m: &Value, status: bool) -> Value {
    let ty = m.get("type").cloned().unwrap_or(json!(""));
    let get = |s: &Value, k: &str| s.get(k).cloned().filter(|v| !v.is_null());
    let id = |name: Option<Value>, sel: Option<Value>| {
        let mut o = Map::new();
        o.insert("name".into(), name.unwrap_or(json!("")));
        if let Some(sel) = sel {
            o.insert("selector".into(), sel);
        }
        Value::Object(o)
    };
    let target = |pairs: Vec<(&str, Option<Value>)>| {
        Value::Object(
            pairs
                .into_iter()
                .filter_map(|(k, v)| Some((k.to_owned(), v?)))
                .collect(),
        )
    };
    let kind = |t: &str| Some(json!(t));
    let mut out = json!({"type": ty});
    match ty.as_str().unwrap_or("") {
        "Object" => {
            let s = m.get("object").cloned().unwrap_or(json!({}));
            let value = if status {
                "currentValue"
            } else {
                "targetValue"
            };
            let value = Some(get(&s, value).unwrap_or(json!("0")));
            let avg = get(&s, "averageValue");
            let t = if status {
                target(vec![("value", value), ("averageValue", avg)])
            } else {
                let ty = if avg.is_some() {
                    "AverageValue"
                } else {
                    "Value"
                };
                target(vec![
                    ("type", kind(ty)),
                    ("value", value),
                    ("averageValue", avg),
                ])
            };
            let described = get(&s, "target").unwrap_or(json!({}));
            out["object"] = json!({"describedObject": described,
                "metric": id(get(&s, "metricName"), get(&s, "selector")),
                (if status { "current" } else { "target" }): t});
        }
        "Pods" => {
            let s = m.get("pods").cloned().unwrap_or(json!({}));
            let key = if status {
                "currentAverageValue"
            } else {
                "targetAverageValue"
            };
            let avg = Some(get(&s, key).unwrap_or(json!("0")));
            let t = if status {
                target(vec![("averageValue", avg)])
            } else {
                target(vec![("type", kind("AverageValue")), ("averageValue", avg)])
            };
            out["pods"] = json!({"metric": id(get(&s, "metricName"), get(&s, "selector")),
                (if status { "current" } else { "target" }): t});
        }
        key @ ("Resource" | "ContainerResource") => {
            let field = if key == "Resource" {
                "resource"
            } else {
                "containerResource"
            };
            let s = m.get(field).cloned().unwrap_or(json!({}));
            let mut o = json!({"name": get(&s, "name").unwrap_or(json!(""))});
            if field == "containerResource" {
                o["container"] = get(&s, "container").unwrap_or(json!(""));
            }
            if status {
                o["current"] = target(vec![
                    (
                        "averageValue",
                        Some(get(&s, "currentAverageValue").unwrap_or(json!("0"))),
                    ),
                    ("averageUtilization", get(&s, "currentAverageUtilization")),
                ]);
            } else {
                let util = get(&s, "targetAverageUtilization");
                let ty = if util.is_some() {
                    "Utilization"
                } else {
                    "AverageValue"
                };
                o["target"] = target(vec![
                    ("type", kind(ty)),
                    ("averageValue", get(&s, "targetAverageValue")),
                    ("averageUtilization", util),
                ]);
            }
            out[field] = o;
        }
        "External" => {
            let s = m.get("external").cloned().unwrap_or(json!({}));
            let metric = id(get(&s, "metricName"), get(&s, "metricSelector"));
            let t = if status {
                target(vec![
                    ("value", Some(get(&s, "currentValue").unwrap_or(json!("0")))),
                    ("averageValue", get(&s, "currentAverageValue")),
                ])
            } else {
                let value = get(&s, "targetValue");
                let ty = if value.is_some() {
                    "Value"
                } else {
                    "AverageValue"
                };
                target(vec![
                    ("type", kind(ty)),
                    ("value", value),
                    ("averageValue", get(&s, "targetAverageValue")),
                ])
            };
            out["external"] =
                json!({"metric": metric, (if status { "current" } else { "target" }): t});
        }
        _ => {}
    }
    out
}

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
