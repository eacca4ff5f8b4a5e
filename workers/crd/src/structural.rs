//! Structural schemas: the typed tree a CRD's `openAPIV3Schema` must form (every field typed,
//! junctors only restrict values), with upstream's structurality checks and messages.

use crate::error::{render, FieldError};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// One `x-kubernetes-validations` entry.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValidationRule {
    /// The CEL expression.
    pub rule: String,
    /// Fixed failure message.
    pub message: Option<String>,
    /// CEL expression producing the failure message.
    pub message_expression: Option<String>,
    /// `FieldValueInvalid`, `FieldValueForbidden`, `FieldValueRequired` or `FieldValueDuplicate`.
    pub reason: Option<String>,
    /// Path below the node the failure is reported at, e.g. `.spec.replicas`.
    pub field_path: Option<String>,
    /// Whether `oldSelf` is an optional (rule also runs on create).
    pub optional_old_self: bool,
}

/// `additionalProperties` of a structural node.
#[derive(Debug, Clone, PartialEq)]
pub enum AdditionalProperties {
    /// `true` or `false`.
    Bool(bool),
    /// A schema for every value of the map.
    Schema(Box<Structural>),
}

/// A node of a structural schema.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Structural {
    /// `type`: object, array, string, integer, number, boolean, or empty.
    pub type_: String,
    /// `format`.
    pub format: String,
    /// `nullable`.
    pub nullable: bool,
    /// `default`.
    pub default: Option<Value>,
    /// `properties`.
    pub properties: BTreeMap<String, Structural>,
    /// `items`.
    pub items: Option<Box<Structural>>,
    /// `additionalProperties`.
    pub additional_properties: Option<AdditionalProperties>,
    /// `x-kubernetes-preserve-unknown-fields: true`.
    pub preserve_unknown_fields: bool,
    /// `x-kubernetes-embedded-resource: true`.
    pub embedded_resource: bool,
    /// `x-kubernetes-int-or-string: true`.
    pub int_or_string: bool,
    /// `x-kubernetes-list-type`.
    pub list_type: Option<String>,
    /// `x-kubernetes-list-map-keys`.
    pub list_map_keys: Vec<String>,
    /// `x-kubernetes-map-type`.
    pub map_type: Option<String>,
    /// `x-kubernetes-validations`.
    pub validations: Vec<ValidationRule>,
    /// The node's schema JSON as given (value validations and junctors live here).
    pub raw: Value,
}

#[derive(Clone, Copy, PartialEq)]
enum Level {
    Root,
    Item,
    Field,
}

impl Structural {
    /// Parses a schema and checks it is structural. Errors carry paths relative to the
    /// schema root (`properties[spec].type`), to be prefixed by the caller.
    pub fn from_json(v: &Value) -> Result<Structural, Vec<FieldError>> {
        let mut errs = Vec::new();
        let s = parse(v, "", &mut errs);
        if errs.is_empty() {
            check_invariants(&s, Level::Root, "", &mut errs);
            check_completeness(&s, "", &s.raw, "", &mut errs);
            // upstream sorts by the rendered error text
            errs.sort_by_key(|e| e.to_string());
        }
        if errs.is_empty() {
            Ok(s)
        } else {
            Err(errs)
        }
    }

    /// The `NonStructuralSchema` condition message upstream sets for `errs` (prefixed paths).
    pub fn non_structural_message(errs: &[FieldError]) -> String {
        crate::error::aggregate(errs)
    }

    /// The schema of the property `name` of an object node, following
    /// `additionalProperties` when it is a schema.
    pub fn property(&self, name: &str) -> Option<&Structural> {
        if let Some(p) = self.properties.get(name) {
            return Some(p);
        }
        match &self.additional_properties {
            Some(AdditionalProperties::Schema(s)) => Some(s),
            _ => None,
        }
    }
}

pub(crate) fn key(path: &str, child: &str, k: &str) -> String {
    crate::error::join_path(path, &format!("{child}[{k}]"))
}

pub(crate) fn child(path: &str, c: &str) -> String {
    crate::error::join_path(path, c)
}

pub(crate) fn index(path: &str, c: &str, i: usize) -> String {
    crate::error::join_path(path, &format!("{c}[{i}]"))
}

fn get_str(m: &Map<String, Value>, k: &str, path: &str, errs: &mut Vec<FieldError>) -> String {
    match m.get(k) {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            errs.push(type_err(&child(path, k), other, "string"));
            String::new()
        }
    }
}

fn get_bool(m: &Map<String, Value>, k: &str, path: &str, errs: &mut Vec<FieldError>) -> bool {
    match m.get(k) {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            errs.push(type_err(&child(path, k), other, "boolean"));
            false
        }
    }
}

pub(crate) fn type_err(path: &str, v: &Value, want: &str) -> FieldError {
    FieldError::type_invalid(path, render(v), &format!("must be of type {want}"))
}

fn parse(v: &Value, path: &str, errs: &mut Vec<FieldError>) -> Structural {
    let Some(m) = v.as_object() else {
        errs.push(type_err(path, v, "object"));
        return Structural::default();
    };
    let mut s = Structural {
        type_: get_str(m, "type", path, errs),
        format: get_str(m, "format", path, errs),
        nullable: get_bool(m, "nullable", path, errs),
        default: m.get("default").cloned(),
        preserve_unknown_fields: get_bool(m, "x-kubernetes-preserve-unknown-fields", path, errs),
        embedded_resource: get_bool(m, "x-kubernetes-embedded-resource", path, errs),
        int_or_string: get_bool(m, "x-kubernetes-int-or-string", path, errs),
        raw: v.clone(),
        ..Structural::default()
    };
    if let Some(lt) = m.get("x-kubernetes-list-type").filter(|v| !v.is_null()) {
        match lt.as_str() {
            Some(t) => s.list_type = Some(t.to_string()),
            None => errs.push(type_err(
                &child(path, "x-kubernetes-list-type"),
                lt,
                "string",
            )),
        }
    }
    if let Some(mt) = m.get("x-kubernetes-map-type").filter(|v| !v.is_null()) {
        match mt.as_str() {
            Some(t) => s.map_type = Some(t.to_string()),
            None => errs.push(type_err(
                &child(path, "x-kubernetes-map-type"),
                mt,
                "string",
            )),
        }
    }
    if let Some(keys) = m.get("x-kubernetes-list-map-keys").filter(|v| !v.is_null()) {
        match keys.as_array() {
            Some(a) => {
                for (i, k) in a.iter().enumerate() {
                    match k.as_str() {
                        Some(k) => s.list_map_keys.push(k.to_string()),
                        None => errs.push(type_err(
                            &index(path, "x-kubernetes-list-map-keys", i),
                            k,
                            "string",
                        )),
                    }
                }
            }
            None => errs.push(type_err(
                &child(path, "x-kubernetes-list-map-keys"),
                keys,
                "array",
            )),
        }
    }
    if let Some(rules) = m.get("x-kubernetes-validations").filter(|v| !v.is_null()) {
        s.validations = parse_rules(rules, &child(path, "x-kubernetes-validations"), errs);
    }
    if let Some(props) = m.get("properties").filter(|v| !v.is_null()) {
        match props.as_object() {
            Some(p) => {
                for (k, pv) in p {
                    let sub = parse(pv, &key(path, "properties", k), errs);
                    s.properties.insert(k.clone(), sub);
                }
            }
            None => errs.push(type_err(&child(path, "properties"), props, "object")),
        }
    }
    match m.get("items") {
        None | Some(Value::Null) => {}
        Some(Value::Array(_)) => errs.push(FieldError::forbidden(
            &child(path, "items"),
            "items must be a schema object and not an array",
        )),
        Some(it) => s.items = Some(Box::new(parse(it, &child(path, "items"), errs))),
    }
    match m.get("additionalProperties") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(b)) => s.additional_properties = Some(AdditionalProperties::Bool(*b)),
        Some(ap) => {
            let sub = parse(ap, &child(path, "additionalProperties"), errs);
            s.additional_properties = Some(AdditionalProperties::Schema(Box::new(sub)));
        }
    }
    s
}

fn parse_rules(v: &Value, path: &str, errs: &mut Vec<FieldError>) -> Vec<ValidationRule> {
    let Some(a) = v.as_array() else {
        errs.push(type_err(path, v, "array"));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, r) in a.iter().enumerate() {
        let p = format!("{path}[{i}]");
        let Some(m) = r.as_object() else {
            errs.push(type_err(&p, r, "object"));
            continue;
        };
        let opt = |k: &str, errs: &mut Vec<FieldError>| match m.get(k) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(o) => {
                errs.push(type_err(&child(&p, k), o, "string"));
                None
            }
        };
        out.push(ValidationRule {
            rule: opt("rule", errs).unwrap_or_default(),
            message: opt("message", errs),
            message_expression: opt("messageExpression", errs),
            reason: opt("reason", errs),
            field_path: opt("fieldPath", errs),
            optional_old_self: get_bool(m, "optionalOldSelf", &p, errs),
        });
    }
    out
}

fn check_invariants(s: &Structural, lvl: Level, path: &str, errs: &mut Vec<FieldError>) {
    if s.type_ == "array" && s.items.is_none() {
        errs.push(FieldError::required(
            &child(path, "items"),
            "must be specified",
        ));
    }
    if let Some(it) = &s.items {
        check_invariants(it, Level::Item, &child(path, "items"), errs);
    }
    for (k, p) in &s.properties {
        check_invariants(p, Level::Field, &key(path, "properties", k), errs);
    }
    if let Some(ap) = &s.additional_properties {
        if lvl == Level::Root {
            errs.push(FieldError::forbidden(
                &child(path, "additionalProperties"),
                "must not be used at the root",
            ));
        }
        if let AdditionalProperties::Schema(sub) = ap {
            check_invariants(
                sub,
                Level::Field,
                &child(path, "additionalProperties"),
                errs,
            );
        }
    }
    if s.int_or_string && s.preserve_unknown_fields {
        errs.push(FieldError::invalid(
            &child(path, "x-kubernetes-preserve-unknown-fields"),
            "true".into(),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    if s.int_or_string && s.embedded_resource {
        errs.push(FieldError::invalid(
            &child(path, "x-kubernetes-embedded-resource"),
            "true".into(),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    let skip_any_of = int_or_string_any_of(s.raw.get("anyOf"));
    let skip_all_of_any_of = s
        .raw
        .get("allOf")
        .and_then(|a| a.get(0))
        .is_some_and(|first| int_or_string_any_of(first.get("anyOf")));
    crate::junctors::check_value_validation(&s.raw, skip_any_of, skip_all_of_any_of, path, errs);

    let check_metadata = lvl == Level::Root || s.embedded_resource;
    if s.embedded_resource && s.type_ != "object" {
        let msg = "must be object if x-kubernetes-embedded-resource is true";
        if s.type_.is_empty() {
            errs.push(FieldError::required(&child(path, "type"), msg));
        } else {
            errs.push(FieldError::invalid_str(&child(path, "type"), &s.type_, msg));
        }
    } else if s.type_.is_empty() && !s.int_or_string && !s.preserve_unknown_fields {
        let msg = match lvl {
            Level::Root => "must not be empty at the root",
            Level::Item => "must not be empty for specified array items",
            Level::Field => "must not be empty for specified object fields",
        };
        errs.push(FieldError::required(&child(path, "type"), msg));
    }
    if s.embedded_resource && s.additional_properties.is_some() {
        errs.push(FieldError::forbidden(
            &child(path, "additionalProperties"),
            "must not be used if x-kubernetes-embedded-resource is set",
        ));
    }
    if lvl == Level::Root && !s.type_.is_empty() && s.type_ != "object" {
        errs.push(FieldError::invalid_str(
            &child(path, "type"),
            &s.type_,
            "must be object at the root",
        ));
    }
    for name in ["kind", "apiVersion"] {
        if let Some(p) = s.properties.get(name).filter(|_| check_metadata) {
            if p.type_ != "string" {
                let f = child(&key(path, "properties", name), "type");
                errs.push(FieldError::invalid_str(&f, &p.type_, "must be string"));
            }
        }
    }
    if let Some(meta) = s.properties.get("metadata") {
        let mpath = key(path, "properties", "metadata");
        if check_metadata && meta.type_ != "object" {
            errs.push(FieldError::invalid_str(
                &child(&mpath, "type"),
                &meta.type_,
                "must be object",
            ));
        }
        if lvl == Level::Root && !metadata_only_names(&meta.raw) {
            errs.push(FieldError::forbidden(
                &mpath,
                "must not specify anything other than name and generateName, but metadata is implicitly specified",
            ));
        }
    }
    if s.embedded_resource && !s.preserve_unknown_fields && s.properties.is_empty() {
        errs.push(FieldError::required(
            &child(path, "properties"),
            "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
        ));
    }
}

/// Whether a root `metadata` schema restricts nothing but `name` and `generateName`.
fn metadata_only_names(raw: &Value) -> bool {
    let Some(m) = raw.as_object() else {
        return true;
    };
    m.iter().all(|(k, v)| match k.as_str() {
        "type" | "default" => true,
        "properties" => v
            .as_object()
            .is_none_or(|p| !p.is_empty() && p.keys().all(|k| k == "name" || k == "generateName")),
        _ => v.is_null(),
    })
}

fn int_or_string_any_of(v: Option<&Value>) -> bool {
    let Some(a) = v.and_then(Value::as_array) else {
        return false;
    };
    a.len() == 2
        && a[0] == serde_json::json!({"type": "integer"})
        && a[1] == serde_json::json!({"type": "string"})
}

/// Every field or array named inside a junctor must also be specified in the structural part.
fn check_completeness(
    s: &Structural,
    spath: &str,
    v: &Value,
    vpath: &str,
    errs: &mut Vec<FieldError>,
) {
    for (name, many) in [
        ("not", false),
        ("allOf", true),
        ("anyOf", true),
        ("oneOf", true),
    ] {
        match v.get(name) {
            Some(Value::Array(a)) if many => {
                for (i, n) in a.iter().enumerate() {
                    nested_completeness(n, Some(s), spath, &index(vpath, name, i), errs);
                }
            }
            Some(n) if !many && n.is_object() => {
                nested_completeness(n, Some(s), spath, &child(vpath, name), errs);
            }
            _ => {}
        }
    }
}

fn nested_completeness(
    v: &Value,
    s: Option<&Structural>,
    spath: &str,
    vpath: &str,
    errs: &mut Vec<FieldError>,
) {
    let Some(s) = s else {
        errs.push(FieldError::required(
            spath,
            &format!("because it is defined in {vpath}"),
        ));
        return;
    };
    check_completeness(s, spath, v, vpath, errs);
    if let Some(items) = v.get("items").filter(|i| i.is_object()) {
        nested_completeness(
            items,
            s.items.as_deref(),
            &child(spath, "items"),
            &child(vpath, "items"),
            errs,
        );
    }
    if let Some(props) = v.get("properties").and_then(Value::as_object) {
        for (k, pv) in props {
            let vp = key(vpath, "properties", k);
            match s.properties.get(k) {
                Some(sp) => {
                    nested_completeness(pv, Some(sp), &key(spath, "properties", k), &vp, errs)
                }
                None => errs.push(FieldError::required(
                    &key(spath, "properties", k),
                    &format!("because it is defined in {vp}"),
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errs(v: Value) -> Vec<String> {
        match Structural::from_json(&v) {
            Ok(_) => vec![],
            Err(e) => e.iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn accepts_typical_schema() {
        let s = Structural::from_json(&json!({
            "type": "object",
            "properties": {
                "metadata": {"type": "object"},
                "spec": {"type": "object", "properties": {
                    "replicas": {"type": "integer", "minimum": 0},
                    "port": {"x-kubernetes-int-or-string": true,
                             "anyOf": [{"type": "integer"}, {"type": "string"}]},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}}
                }}
            }
        }))
        .unwrap();
        assert_eq!(s.properties["spec"].properties["replicas"].type_, "integer");
    }

    #[test]
    fn reports_missing_types_and_items() {
        assert_eq!(
            errs(json!({"properties": {"a": {}, "b": {"type": "array"}}})),
            vec![
                "properties[a].type: Required value: must not be empty for specified object fields",
                "properties[b].items: Required value: must be specified",
                "type: Required value: must not be empty at the root",
            ]
        );
        assert_eq!(
            errs(json!({"type": "string"})),
            vec!["type: Invalid value: \"string\": must be object at the root"]
        );
    }

    #[test]
    fn junctors_must_not_carry_structure() {
        let e = errs(
            json!({"type": "object", "properties": {"a": {"type": "string"}},
            "anyOf": [{"type": "object", "properties": {"b": {}}}]}),
        );
        assert_eq!(
            e,
            vec![
                "anyOf[0].type: Forbidden: must be empty to be structural",
                "properties[b]: Required value: because it is defined in anyOf[0].properties[b]",
            ]
        );
    }

    #[test]
    fn metadata_rules() {
        assert!(errs(
            json!({"type": "object", "properties": {"metadata": {"type": "object",
            "properties": {"name": {"type": "string", "maxLength": 5}}}}})
        )
        .is_empty());
        assert_eq!(
            errs(json!({"type": "object", "properties": {"metadata": {"type": "object",
                "properties": {"labels": {"type": "object"}}}}})),
            vec!["properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"]
        );
    }

    #[test]
    fn embedded_and_int_or_string() {
        let e = errs(json!({"type": "object", "properties": {
            "e": {"type": "string", "x-kubernetes-embedded-resource": true},
            "i": {"x-kubernetes-int-or-string": true, "x-kubernetes-preserve-unknown-fields": true}}}));
        assert!(e.contains(&"properties[e].type: Invalid value: \"string\": must be object if x-kubernetes-embedded-resource is true".to_string()));
        assert!(e.contains(&"properties[i].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true".to_string()));
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert!(!errs(json!(5)).is_empty());
        assert!(!errs(json!({"type": 5, "properties": []})).is_empty());
        assert!(
            !errs(json!({"type": "object", "items": [1], "x-kubernetes-validations": "x"}))
                .is_empty()
        );
    }
}
