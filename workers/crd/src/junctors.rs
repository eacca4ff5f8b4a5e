//! Structurality of value validations: what `allOf`/`anyOf`/`oneOf`/`not` may hold
//! (only value checks, no types, defaults or extensions), on the schema JSON.

use crate::error::FieldError;
use crate::structural::{child, index, key};
use serde_json::Value;

/// Checks the junctors and `pattern` of one schema node (`validateValueValidation`).
pub(crate) fn check_value_validation(
    v: &Value,
    skip_any_of: bool,
    skip_first_all_of_any_of: bool,
    path: &str,
    errs: &mut Vec<FieldError>,
) {
    if !skip_any_of {
        for (i, n) in array(v, "anyOf").iter().enumerate() {
            check_nested(n, false, &index(path, "anyOf", i), errs);
        }
    }
    for (i, n) in array(v, "allOf").iter().enumerate() {
        check_nested(
            n,
            skip_first_all_of_any_of && i == 0,
            &index(path, "allOf", i),
            errs,
        );
    }
    for (i, n) in array(v, "oneOf").iter().enumerate() {
        check_nested(n, false, &index(path, "oneOf", i), errs);
    }
    if let Some(n) = v.get("not").filter(|n| !n.is_null()) {
        check_nested(n, false, &child(path, "not"), errs);
    }
    if let Some(p) = v.get("pattern").and_then(Value::as_str) {
        if let Err(e) = crate::validate::compile_pattern(p) {
            errs.push(FieldError::invalid_str(
                &child(path, "pattern"),
                p,
                &format!("must be a valid regular expression, but isn't: {e}"),
            ));
        }
    }
}

fn array<'a>(v: &'a Value, k: &str) -> &'a [Value] {
    v.get(k)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn set(v: &Value, k: &str) -> bool {
    match v.get(k) {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(_) => true,
    }
}

/// `validateNestedValueValidation`: a schema under a junctor.
fn check_nested(v: &Value, skip_any_of: bool, path: &str, errs: &mut Vec<FieldError>) {
    if !v.is_object() {
        errs.push(crate::structural::type_err(path, v, "object"));
        return;
    }
    check_value_validation(v, skip_any_of, false, path, errs);
    if let Some(items) = v.get("items").filter(|i| i.is_object()) {
        check_nested(items, false, &child(path, "items"), errs);
    }
    if let Some(props) = v.get("properties").and_then(Value::as_object) {
        for (k, p) in props {
            check_nested(p, false, &key(path, "properties", k), errs);
        }
    }
    let forbid = |errs: &mut Vec<FieldError>, k: &str, d: &str| {
        errs.push(FieldError::forbidden(&child(path, k), d));
    };
    if set(v, "type") {
        forbid(errs, "type", "must be empty to be structural");
    }
    if v.get("additionalProperties").is_some_and(|a| !a.is_null()) {
        forbid(
            errs,
            "additionalProperties",
            "must be undefined to be structural",
        );
    }
    if v.get("default").is_some_and(|d| !d.is_null()) {
        forbid(errs, "default", "must be undefined to be structural");
    }
    for (k, d) in [
        ("title", "must be empty to be structural"),
        ("description", "must be empty to be structural"),
        ("nullable", "must be false to be structural"),
        ("externalDocs", "must be undefined to be structural"),
        (
            "x-kubernetes-preserve-unknown-fields",
            "must be false to be structural",
        ),
        (
            "x-kubernetes-embedded-resource",
            "must be false to be structural",
        ),
        (
            "x-kubernetes-int-or-string",
            "must be false to be structural",
        ),
        (
            "x-kubernetes-list-map-keys",
            "must be empty to be structural",
        ),
        (
            "x-kubernetes-list-type",
            "must be undefined to be structural",
        ),
        (
            "x-kubernetes-map-type",
            "must be undefined to be structural",
        ),
        ("x-kubernetes-validations", "must be empty to be structural"),
    ] {
        if set(v, k) {
            forbid(errs, k, d);
        }
    }
    if v.get("properties")
        .and_then(|p| p.get("metadata"))
        .is_some()
    {
        errs.push(FieldError::forbidden(
            &key(path, "properties", "metadata"),
            "must not be specified in a nested context",
        ));
    }
}
