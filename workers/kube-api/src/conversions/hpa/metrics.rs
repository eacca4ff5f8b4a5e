//! The metric types of autoscaling/v1 (as its annotations carry them) from and to
//! autoscaling/v2's, and the ordered JSON text upstream's Go encoding writes.

use serde_json::{json, Map, Value};

/// JSON text of an object whose fields come in this order; `None` values are left out
/// (Go's `omitempty`), the others are JSON text already.
pub(super) fn ordered(fields: Vec<(&str, Option<String>)>) -> String {
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
pub(super) fn opt(v: &Value, key: &str) -> Option<String> {
    v.get(key).filter(|x| !x.is_null()).map(text)
}

/// `v[key]` as JSON text, a Go non-pointer Quantity: "0" when missing.
fn quantity(v: &Value, key: &str) -> Option<String> {
    Some(opt(v, key).unwrap_or_else(|| "\"0\"".into()))
}

/// `v[key]` as a Go string field without omitempty.
pub(super) fn string(v: &Value, key: &str) -> Option<String> {
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
pub(super) fn v1_metric(m: &Value, status: bool) -> String {
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
pub(super) fn v2_metric(m: &Value, status: bool) -> Value {
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
