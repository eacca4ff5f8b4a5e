//! A custom resource's scale paths checked as upstream's customResourceValidator checks
//! them after the schema (ValidateScaleSpec, ValidateScaleStatus): the replicas at
//! `specReplicasPath` and `statusReplicasPath` are absent or integers from 0 to 2^31-1,
//! and the selector at `labelSelectorPath` absent or a string. A value of another type
//! is refused with unstructured's accessor error
//! (`.spec.replicas accessor error: many is of the type string, expected int64`), at the
//! path as written and with the zero value Go read.

use kas_server::rest::ScalePaths;
use kas_server::status::StatusCause;
use serde_json::Value;

/// The scale causes of `obj`.
pub(crate) fn causes(scale: &ScalePaths, obj: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    replicas(obj, &scale.spec_replicas, &mut out);
    replicas(obj, &scale.status_replicas, &mut out);
    if let Some(path) = &scale.label_selector {
        if let Err(e) = nested(obj, path, "string", Value::is_string) {
            out.push(invalid(path, "\"\"", &e));
        }
    }
    out
}

fn replicas(obj: &Value, path: &str, out: &mut Vec<StatusCause>) {
    match nested(obj, path, "int64", |v| v.is_i64()) {
        Err(e) => out.push(invalid(path, "0", &e)),
        Ok(Some(v)) => {
            let n = v.as_i64().unwrap_or(0);
            if n < 0 {
                out.push(invalid(
                    path,
                    &n.to_string(),
                    "should be a non-negative integer",
                ));
            } else if n > i64::from(i32::MAX) {
                let why = format!("should be less than or equal to {}", i32::MAX);
                out.push(invalid(path, &n.to_string(), &why));
            }
        }
        Ok(None) => {}
    }
}

fn invalid(path: &str, shown: &str, why: &str) -> StatusCause {
    StatusCause {
        reason: "FieldValueInvalid".into(),
        message: format!("Invalid value: {shown}: {why}"),
        field: path.to_owned(),
    }
}

/// The value at a `.a.b` path as unstructured's Nested* accessors read it: `None` when
/// absent (or under a null), else the value if `is` holds, else the accessor's error.
fn nested<'a>(
    obj: &'a Value,
    path: &str,
    want: &str,
    is: impl Fn(&Value) -> bool,
) -> Result<Option<&'a Value>, String> {
    let fields: Vec<&str> = path.trim_start_matches('.').split('.').collect();
    let mut val = obj;
    for (i, field) in fields.iter().enumerate() {
        match val {
            Value::Null => return Ok(None),
            Value::Object(m) => match m.get(*field) {
                Some(v) => val = v,
                None => return Ok(None),
            },
            other => {
                return Err(format!(
                    ".{} accessor error: {} is of the type {}, expected map[string]interface{{}}",
                    fields[..=i].join("."),
                    go_value(other),
                    go_type(other)
                ))
            }
        }
    }
    if is(val) {
        return Ok(Some(val));
    }
    Err(format!(
        ".{} accessor error: {} is of the type {}, expected {want}",
        fields.join("."),
        go_value(val),
        go_type(val)
    ))
}

/// `%T` of a value decoded from JSON into `interface{}`.
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// `%v` of such a value.
fn go_value(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(go_value).collect();
            format!("[{}]", parts.join(" "))
        }
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{k}:{}", go_value(v)))
                .collect();
            format!("map[{}]", parts.join(" "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paths() -> ScalePaths {
        ScalePaths {
            spec_replicas: ".spec.replicas".into(),
            status_replicas: ".status.replicas".into(),
            label_selector: Some(".status.selector".into()),
        }
    }

    fn messages(obj: Value) -> Vec<String> {
        causes(&paths(), &obj)
            .into_iter()
            .map(|c| format!("{}: {}", c.field, c.message))
            .collect()
    }

    #[test]
    fn replicas_and_selector_as_upstreams_accessors_read_them() {
        assert!(messages(
            json!({"spec": {"replicas": 3}, "status": {"replicas": 0, "selector": "a=b"}})
        )
        .is_empty());
        assert!(messages(json!({})).is_empty());
        assert_eq!(
            messages(json!({"spec": {"replicas": "many"}, "status": {"replicas": -1, "selector": 5}})),
            [
                ".spec.replicas: Invalid value: 0: .spec.replicas accessor error: many is of the type string, expected int64",
                ".status.replicas: Invalid value: -1: should be a non-negative integer",
                ".status.selector: Invalid value: \"\": .status.selector accessor error: 5 is of the type int64, expected string",
            ]
        );
        assert_eq!(
            messages(json!({"spec": [1], "status": {"replicas": 2147483648u64}})),
            [
                ".spec.replicas: Invalid value: 0: .spec.replicas accessor error: [1] is of the type []interface {}, expected map[string]interface{}",
                ".status.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647",
            ]
        );
    }
}
