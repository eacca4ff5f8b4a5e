//! Validation of a custom resource against its structural schema: kube-openapi value checks,
//! embedded resources, list-type set/map uniqueness and `x-kubernetes-validations` rules.

use crate::error::{quote, render, FieldError};
use crate::structural::{AdditionalProperties, Structural};
use crate::validate::{json_eq, validate_value};
use serde_json::{Map, Value};

/// One failed CEL rule, as the rule engine reports it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RuleFailure {
    pub(crate) message: String,
    pub(crate) reason: Option<String>,
    pub(crate) field_path: Option<String>,
}

/// Runs the `x-kubernetes-validations` of one schema node.
pub(crate) trait RuleEngine {
    /// Failures of `node`'s rules on `value`; `old` is the correlated old value on update.
    fn evaluate(&self, node: &Structural, value: &Value, old: Option<&Value>) -> Vec<RuleFailure>;
}

/// Validates `obj` (and, on update, against `old` for transition rules) with `engine` for CEL;
/// with `ratchet`, errors on values unchanged from `old` are dropped.
pub(crate) fn validate_with(
    schema: &Structural,
    obj: &Value,
    old: Option<&Value>,
    engine: &dyn RuleEngine,
    ratchet: bool,
) -> Vec<FieldError> {
    let mut out = Vec::new();
    validate_value(&schema.raw, obj, "", &mut out);
    let mut w = Walker {
        engine,
        out: &mut out,
    };
    w.walk(schema, obj, old, "");
    if let Some(old) = old.filter(|_| ratchet) {
        out = crate::ratchet::ratchet(schema, obj, old, out);
    }
    // upstream's order follows Go map iteration; sort for a stable answer
    out.sort_by_key(|e| e.to_string());
    out
}

struct Walker<'a> {
    engine: &'a dyn RuleEngine,
    out: &'a mut Vec<FieldError>,
}

fn join(path: &str, k: &str) -> String {
    if path.is_empty() {
        k.to_string()
    } else {
        format!("{path}.{k}")
    }
}

impl Walker<'_> {
    fn walk(&mut self, s: &Structural, v: &Value, old: Option<&Value>, path: &str) {
        if s.embedded_resource {
            if let Value::Object(m) = v {
                self.out.extend(embedded_resource(m, path));
            }
        }
        match v {
            Value::Object(m) => {
                // fields of an atomic map are replaced as a whole: nothing to correlate
                let old_m = old
                    .filter(|_| s.map_type.as_deref() != Some("atomic"))
                    .and_then(Value::as_object);
                for (k, child) in m {
                    let sub = match s.properties.get(k) {
                        Some(p) => Some((p, join(path, k))),
                        None => match &s.additional_properties {
                            Some(AdditionalProperties::Schema(ap)) => {
                                Some((&**ap, format!("{path}[{k}]")))
                            }
                            _ => None,
                        },
                    };
                    if let Some((sub, p)) = sub {
                        self.walk(sub, child, old_m.and_then(|o| o.get(k)), &p);
                    }
                }
            }
            Value::Array(items) => {
                if let Some(item_schema) = &s.items {
                    self.list_type(s, items, path);
                    let old_items = old.and_then(Value::as_array);
                    for (i, item) in items.iter().enumerate() {
                        let old_item = old_items.and_then(|o| correlate(s, item, o));
                        self.walk(item_schema, item, old_item, &format!("{path}[{i}]"));
                    }
                }
            }
            _ => {}
        }
        if !s.validations.is_empty() && !v.is_null() {
            for f in self.engine.evaluate(s, v, old) {
                self.out.push(rule_error(s, path, f));
            }
        }
    }

    fn list_type(&mut self, s: &Structural, items: &[Value], path: &str) {
        match s.list_type.as_deref() {
            Some("set") => {
                for i in second_occurrences(items) {
                    self.out.push(FieldError::duplicate(
                        &format!("{path}[{i}]"),
                        render(&items[i]),
                    ));
                }
            }
            Some("map") => {
                for (i, x) in items.iter().enumerate() {
                    if !x.is_null() && !x.is_object() {
                        self.out.push(FieldError::invalid(
                            &format!("{path}[{i}]"),
                            render(x),
                            "must be an object for an array of list-type map",
                        ));
                        return;
                    }
                }
                if items.len() <= 1 {
                    return;
                }
                // the key values given (defaults are not applied here), as a map per item
                let keys: Vec<Value> = items
                    .iter()
                    .map(|x| {
                        let mut m = Map::new();
                        for k in &s.list_map_keys {
                            if let Some(v) = x.get(k) {
                                m.insert(k.clone(), v.clone());
                            }
                        }
                        Value::Object(m)
                    })
                    .collect();
                for i in second_occurrences(&keys) {
                    let shown: Vec<(String, Value)> = keys[i]
                        .as_object()
                        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                        .unwrap_or_default();
                    self.out.push(FieldError::duplicate(
                        &format!("{path}[{i}]"),
                        go_map(&shown),
                    ));
                }
            }
            _ => {}
        }
    }
}

/// Indexes of the second occurrence of each repeated value (upstream reports each once).
/// Scalars compare as Go does (`1` and `1.0` differ), compounds by their JSON text.
fn second_occurrences(items: &[Value]) -> Vec<usize> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for (i, x) in items.iter().enumerate() {
        let count = seen.entry(x.to_string()).or_insert(0);
        *count += 1;
        if *count == 2 {
            out.push(i);
        }
    }
    out
}

/// The list-map key values of an item, with schema defaults for missing keys.
fn map_keys(s: &Structural, m: &Map<String, Value>) -> Vec<(String, Value)> {
    s.list_map_keys
        .iter()
        .filter_map(|k| {
            let v = m
                .get(k)
                .cloned()
                .or_else(|| s.items.as_ref()?.properties.get(k)?.default.clone())?;
            Some((k.clone(), v))
        })
        .collect()
}

fn keys_eq(a: &[(String, Value)], b: &[(String, Value)]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((k1, v1), (k2, v2))| k1 == k2 && json_eq(v1, v2))
}

/// Go's `%#v` of a `map[string]interface{}` of scalar key values.
fn go_map(keys: &[(String, Value)]) -> String {
    let mut sorted: Vec<&(String, Value)> = keys.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let parts: Vec<String> = sorted
        .iter()
        .map(|(k, v)| format!("{}:{}", quote(k), render(v)))
        .collect();
    format!("map[string]interface {{}}{{{}}}", parts.join(", "))
}

/// The old item that corresponds to `item`: same keys for list-type map, equal for set.
fn correlate<'a>(s: &Structural, item: &Value, old: &'a [Value]) -> Option<&'a Value> {
    match s.list_type.as_deref() {
        Some("map") => {
            let keys = map_keys(s, item.as_object()?);
            old.iter().find(|o| {
                o.as_object()
                    .is_some_and(|m| keys_eq(&map_keys(s, m), &keys))
            })
        }
        Some("set") => old.iter().find(|o| json_eq(o, item)),
        _ => None,
    }
}

fn rule_error(s: &Structural, path: &str, f: RuleFailure) -> FieldError {
    // upstream validates the root with a nil path, printed `<nil>`
    let mut field = if path.is_empty() {
        "<nil>".to_string()
    } else {
        path.to_string()
    };
    if let Some(fp) = f.field_path.as_deref().filter(|p| !p.is_empty()) {
        field = if path.is_empty() {
            fp.trim_start_matches('.').to_string()
        } else {
            format!(
                "{field}{}",
                if fp.starts_with('.') || fp.starts_with('[') {
                    fp.to_string()
                } else {
                    format!(".{fp}")
                }
            )
        };
    }
    // upstream shows the schema type (empty for int-or-string and untyped nodes)
    let type_name = quote(&s.type_);
    match f.reason.as_deref() {
        Some("FieldValueForbidden") => FieldError::forbidden(&field, &f.message),
        Some("FieldValueRequired") => FieldError::required(&field, &f.message),
        // upstream's Duplicate carries no detail
        Some("FieldValueDuplicate") => FieldError::duplicate(&field, type_name),
        _ => FieldError::invalid(&field, type_name, &f.message),
    }
}

/// Checks `apiVersion`, `kind` and `metadata` of an `x-kubernetes-embedded-resource` object.
fn embedded_resource(m: &Map<String, Value>, path: &str) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let p = |k: &str| join(path, k);
    if !m.contains_key("apiVersion") {
        errs.push(FieldError::required(&p("apiVersion"), "must not be empty"));
    }
    if !m.contains_key("kind") {
        errs.push(FieldError::required(&p("kind"), "must not be empty"));
    }
    if let Some(v) = m.get("apiVersion") {
        match v.as_str() {
            None => errs.push(FieldError::invalid(
                &p("apiVersion"),
                render(v),
                "must be a string",
            )),
            Some("") => errs.push(FieldError::invalid_str(
                &p("apiVersion"),
                "",
                "must not be empty",
            )),
            Some(av) if av.matches('/').count() > 1 => errs.push(FieldError::invalid_str(
                &p("apiVersion"),
                av,
                &format!("unexpected GroupVersion string: {av}"),
            )),
            Some(_) => {}
        }
    }
    if let Some(v) = m.get("kind") {
        match v.as_str() {
            None => errs.push(FieldError::invalid(
                &p("kind"),
                render(v),
                "must be a string",
            )),
            Some("") => errs.push(FieldError::invalid_str(&p("kind"), "", "must not be empty")),
            Some(k) => {
                let why = crate::names::dns1035_label(&k.to_lowercase());
                if !why.is_empty() {
                    errs.push(FieldError::invalid_str(
                        &p("kind"),
                        k,
                        &format!(
                            "may have mixed case, but should otherwise match: {}",
                            why.join(",")
                        ),
                    ));
                }
            }
        }
    }
    if let Some(meta) = m.get("metadata") {
        match meta.as_object() {
            None => errs.push(FieldError::invalid(
                &p("metadata"),
                render(meta),
                "must be an object",
            )),
            Some(md) => {
                if let Some(n) = md.get("name").and_then(Value::as_str) {
                    for why in crate::names::dns1123_subdomain(n) {
                        errs.push(FieldError::invalid_str(
                            &join(&p("metadata"), "name"),
                            n,
                            &why,
                        ));
                    }
                }
            }
        }
    }
    errs
}

#[cfg(test)]
#[path = "object_tests.rs"]
mod tests;
