//! Value validation of a custom resource against its schema JSON, with the checks, paths
//! and messages of kube-openapi's schema validator as the apiextensions server reports them.

use crate::error::{go_float, quote, render, FieldError};
use crate::formats;
use serde_json::{Map, Value};

const IN: &str = "body";

/// Compiles an OpenAPI `pattern` (ECMA-262 syntax, read as Go's RE2 does).
pub(crate) fn compile_pattern(p: &str) -> Result<regex::Regex, String> {
    regex::RegexBuilder::new(p)
        .size_limit(1 << 20)
        .build()
        .map_err(|e| e.to_string())
}

thread_local! {
    /// Patterns compiled on this thread; a schema has few, objects check them often.
    static PATTERNS: std::cell::RefCell<std::collections::HashMap<String, Option<regex::Regex>>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Whether `s` matches `pattern`; None when the pattern does not compile.
fn pattern_matches(pattern: &str, s: &str) -> Option<bool> {
    PATTERNS.with(|cache| {
        let mut cache = cache.borrow_mut();
        if !cache.contains_key(pattern) {
            if cache.len() >= 512 {
                cache.clear();
            }
            cache.insert(pattern.to_string(), compile_pattern(pattern).ok());
        }
        cache
            .get(pattern)
            .and_then(|re| re.as_ref().map(|re| re.is_match(s)))
    })
}

/// kube-openapi's name for a path: `spec.replicas`, with `name` empty at the root.
fn msg_name(name: &str) -> &str {
    name
}

/// The field path apiextensions derives from a kube-openapi error name (`<nil>` at the root).
fn err_path(name: &str) -> String {
    let n = name.trim_start_matches('.');
    if n.is_empty() {
        "<nil>".to_string()
    } else {
        n.to_string()
    }
}

/// The JSON type kube-openapi infers for a decoded value.
pub(crate) fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::String(_) => "string",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn num(v: &Value) -> Option<f64> {
    v.as_f64()
}

fn sub_name(name: &str, k: &str) -> String {
    if name.is_empty() {
        k.to_string()
    } else {
        format!("{name}.{k}")
    }
}

/// Validates `data` against the schema node `schema`; `name` is the kube-openapi path.
pub(crate) fn validate_value(schema: &Value, data: &Value, name: &str, out: &mut Vec<FieldError>) {
    let Some(s) = schema.as_object() else {
        return;
    };
    let types = schema_types(s);
    let format = s.get("format").and_then(Value::as_str).unwrap_or("");
    let nullable = s.get("nullable").and_then(Value::as_bool).unwrap_or(false);
    if data.is_null() {
        if !types.is_empty() && !types.contains(&"null") && !nullable {
            out.push(type_error(name, &types.join(","), "null"));
        }
        if !nullable {
            check_enum(s, data, name, out);
        }
        return;
    }
    // kube-openapi runs the other validators that apply to this kind even on a type error
    if !types.is_empty() || !format.is_empty() {
        check_type(&types, format, data, name, out);
    }
    check_junctors(s, data, name, out);
    match data {
        Value::String(st) => check_string(s, st, format, name, out),
        Value::Number(_) => check_number(s, data, name, out),
        Value::Array(a) => check_array(s, a, name, out),
        Value::Object(o) => check_object(s, o, name, out),
        _ => {}
    }
    check_enum(s, data, name, out);
}

fn schema_types(s: &Map<String, Value>) -> Vec<&str> {
    match s.get("type") {
        Some(Value::String(t)) if !t.is_empty() => vec![t.as_str()],
        _ if s.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)) => {
            vec!["integer", "string"]
        }
        _ => vec![],
    }
}

fn type_error(name: &str, want: &str, got: &str) -> FieldError {
    let msg = format!(
        "{} in {IN} must be of type {want}: {}",
        msg_name(name),
        quote(got)
    );
    FieldError::type_invalid(&err_path(name), quote(got), &msg)
}

/// kube-openapi's type validator.
fn check_type(types: &[&str], format: &str, data: &Value, name: &str, out: &mut Vec<FieldError>) {
    let sch = json_type(data);
    let data_format = match data {
        Value::Number(n) if n.is_f64() => "float64",
        Value::Number(_) => "int64",
        _ => "",
    };
    let contains = |t: &str| types.contains(&t);
    let is_float_int =
        sch == "number" && data.as_f64().is_some_and(|f| f.fract() == 0.0) && contains("integer");
    let is_int_float = sch == "integer" && contains("number");
    let is_lower_int = format == "int64" && data_format == "int32";
    let is_lower_float = format == "float64" && data_format == "float32";
    let stringy = matches!(data, Value::String(_) | Value::Array(_));
    if !stringy
        && !format.is_empty()
        && !(contains(sch)
            || format == data_format
            || is_float_int
            || is_int_float
            || is_lower_int
            || is_lower_float)
    {
        out.push(type_error(name, format, data_format));
        return;
    }
    if stringy && !(contains("number") || contains("integer") || format.is_empty()) {
        return;
    }
    if !(contains(sch) || is_float_int || is_int_float) {
        out.push(type_error(name, &types.join(","), sch));
    }
}

fn nested_errors(schema: &Value, data: &Value, name: &str) -> Vec<FieldError> {
    let mut v = Vec::new();
    validate_value(schema, data, name, &mut v);
    v
}

/// Junctor failures carry no name upstream, so apiextensions reports them at a nil path.
fn composite(msg: String) -> FieldError {
    FieldError::invalid("<nil>", quote(""), &msg)
}

fn check_junctors(s: &Map<String, Value>, data: &Value, name: &str, out: &mut Vec<FieldError>) {
    let list = |k: &str| {
        s.get(k)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let any_of = list("anyOf");
    if !any_of.is_empty() {
        let results: Vec<Vec<FieldError>> = any_of
            .iter()
            .map(|b| nested_errors(b, data, name))
            .collect();
        if !results.iter().any(Vec::is_empty) {
            out.push(composite(format!(
                "{} must validate at least one schema (anyOf)",
                quote(name)
            )));
            if let Some(best) = results.into_iter().min_by_key(Vec::len) {
                out.extend(best);
            }
        }
    }
    let one_of = list("oneOf");
    if !one_of.is_empty() {
        let results: Vec<Vec<FieldError>> = one_of
            .iter()
            .map(|b| nested_errors(b, data, name))
            .collect();
        let valid = results.iter().filter(|r| r.is_empty()).count();
        if valid != 1 {
            let extra = if valid == 0 {
                "Found none valid".to_string()
            } else {
                format!("Found {valid} valid alternatives")
            };
            out.push(composite(format!(
                "{} must validate one and only one schema (oneOf). {extra}",
                quote(name)
            )));
            if valid == 0 {
                if let Some(best) = results.into_iter().min_by_key(Vec::len) {
                    out.extend(best);
                }
            }
        }
    }
    let all_of = list("allOf");
    if !all_of.is_empty() {
        let mut validated = 0;
        for b in &all_of {
            let r = nested_errors(b, data, name);
            if r.is_empty() {
                validated += 1;
            }
            out.extend(r);
        }
        if validated != all_of.len() {
            let extra = if validated == 0 {
                ". None validated"
            } else {
                ""
            };
            out.push(composite(format!(
                "{} must validate all the schemas (allOf){extra}",
                quote(name)
            )));
        }
    }
    if let Some(not) = s.get("not").filter(|n| n.is_object()) {
        if nested_errors(not, data, name).is_empty() {
            out.push(composite(format!(
                "{} must not validate the schema (not)",
                quote(name)
            )));
        }
    }
}

fn check_string(
    s: &Map<String, Value>,
    st: &str,
    format: &str,
    name: &str,
    out: &mut Vec<FieldError>,
) {
    let n = msg_name(name);
    let len = st.chars().count() as i64;
    if let Some(max) = s.get("maxLength").and_then(Value::as_i64) {
        if len > max {
            out.push(FieldError::too_long(&err_path(name), max));
        }
    }
    if let Some(min) = s.get("minLength").and_then(Value::as_i64) {
        if len < min {
            out.push(FieldError::invalid(
                &err_path(name),
                quote(st),
                &format!("{n} in {IN} should be at least {min} chars long"),
            ));
        }
    }
    if let Some(p) = s.get("pattern").and_then(Value::as_str) {
        {
            if pattern_matches(p, st) == Some(false) {
                out.push(FieldError::invalid(
                    &err_path(name),
                    quote(st),
                    &format!("{n} in {IN} should match '{p}'"),
                ));
            }
        }
    }
    if !format.is_empty() && formats::check(format, st) == Some(false) {
        let msg = format!("{n} in {IN} must be of type {format}: {}", quote(st));
        out.push(FieldError::type_invalid(&err_path(name), quote(st), &msg));
    }
}

fn bound(v: &Value) -> String {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) => go_float(f),
            None => n.to_string(),
        },
        other => other.to_string(),
    }
}

fn check_number(s: &Map<String, Value>, data: &Value, name: &str, out: &mut Vec<FieldError>) {
    let n = msg_name(name);
    let Some(x) = num(data) else { return };
    let value = render(data);
    if let Some(mo) = s.get("multipleOf") {
        if let Some(f) = num(mo).filter(|f| *f > 0.0) {
            let q = x / f;
            if (q - q.round()).abs() > 1e-9 * q.abs().max(1.0) {
                out.push(FieldError::invalid(
                    &err_path(name),
                    value.clone(),
                    &format!("{n} in {IN} should be a multiple of {}", bound(mo)),
                ));
            }
        }
    }
    if let Some(max) = s.get("maximum") {
        if let Some(m) = num(max) {
            let excl = s
                .get("exclusiveMaximum")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            if x > m || (excl && x >= m) {
                let word = if excl {
                    "less than"
                } else {
                    "less than or equal to"
                };
                out.push(FieldError::invalid(
                    &err_path(name),
                    value.clone(),
                    &format!("{n} in {IN} should be {word} {}", bound(max)),
                ));
            }
        }
    }
    if let Some(min) = s.get("minimum") {
        if let Some(m) = num(min) {
            let excl = s
                .get("exclusiveMinimum")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            if x < m || (excl && x <= m) {
                let word = if excl {
                    "greater than"
                } else {
                    "greater than or equal to"
                };
                out.push(FieldError::invalid(
                    &err_path(name),
                    value,
                    &format!("{n} in {IN} should be {word} {}", bound(min)),
                ));
            }
        }
    }
}

fn check_array(s: &Map<String, Value>, a: &[Value], name: &str, out: &mut Vec<FieldError>) {
    let n = msg_name(name);
    if let Some(items) = s.get("items").filter(|i| i.is_object()) {
        for (i, v) in a.iter().enumerate() {
            validate_value(items, v, &format!("{name}[{i}]"), out);
        }
    }
    let size = a.len() as i64;
    if let Some(min) = s.get("minItems").and_then(Value::as_i64) {
        if size < min {
            out.push(FieldError::invalid(
                &err_path(name),
                size.to_string(),
                &format!("{n} in {IN} should have at least {min} items"),
            ));
        }
    }
    if let Some(max) = s.get("maxItems").and_then(Value::as_i64) {
        if size > max {
            out.push(FieldError::too_many(&err_path(name), size, max));
        }
    }
    if s.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
        let dup = a
            .iter()
            .enumerate()
            .any(|(i, x)| a[..i].iter().any(|y| json_eq(x, y)));
        if dup {
            out.push(FieldError::invalid(
                &err_path(name),
                quote(""),
                &format!("{n} in {IN} shouldn't contain duplicates"),
            ));
        }
    }
}

fn check_object(
    s: &Map<String, Value>,
    o: &Map<String, Value>,
    name: &str,
    out: &mut Vec<FieldError>,
) {
    let n = msg_name(name);
    let keys = o.len() as i64;
    if let Some(min) = s.get("minProperties").and_then(Value::as_i64) {
        if keys < min {
            out.push(FieldError::invalid(
                &err_path(name),
                keys.to_string(),
                &format!("{n} in {IN} should have at least {min} properties"),
            ));
            return;
        }
    }
    if let Some(max) = s.get("maxProperties").and_then(Value::as_i64) {
        if keys > max {
            out.push(FieldError::too_many(&err_path(name), keys, max));
            return;
        }
    }
    let props = s.get("properties").and_then(Value::as_object);
    match s.get("additionalProperties") {
        Some(Value::Bool(false)) => {
            for k in o.keys() {
                if !props.is_some_and(|p| p.contains_key(k)) {
                    out.push(FieldError::invalid(
                        &err_path(name),
                        quote(k),
                        &format!("{n}.{k} in {IN} is a forbidden property"),
                    ));
                }
            }
        }
        Some(ap) if ap.is_object() => {
            for (k, v) in o {
                if !props.is_some_and(|p| p.contains_key(k)) {
                    validate_value(ap, v, &format!("{name}.{k}"), out);
                }
            }
        }
        _ => {}
    }
    if let Some(props) = props {
        for (k, ps) in props {
            if let Some(v) = o.get(k) {
                validate_value(ps, v, &sub_name(name, k), out);
            }
        }
    }
    if let Some(req) = s.get("required").and_then(Value::as_array) {
        for k in req.iter().filter_map(Value::as_str) {
            if !o.contains_key(k) {
                out.push(FieldError::required(&err_path(&format!("{name}.{k}")), ""));
            }
        }
    }
}

fn check_enum(s: &Map<String, Value>, data: &Value, name: &str, out: &mut Vec<FieldError>) {
    let Some(values) = s.get("enum").and_then(Value::as_array) else {
        return;
    };
    if values.is_empty() || values.iter().any(|v| json_eq(v, data)) {
        return;
    }
    let supported: Vec<String> = values
        .iter()
        .map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    let refs: Vec<&str> = supported.iter().map(String::as_str).collect();
    out.push(FieldError::not_supported(
        &err_path(name),
        render(data),
        &refs,
    ));
}

/// JSON equality with numbers compared by value (`1` equals `1.0`).
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
#[path = "validate_tests.rs"]
mod tests;
