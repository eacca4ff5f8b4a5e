//! The definitions of a custom kind and its list, from the CRD's `openAPIV3Schema`, as
//! the apiextensions server publishes them: the structural keywords kept (with their
//! `x-kubernetes-*` extensions), `x-kubernetes-int-or-string` unfolded, `apiVersion`,
//! `kind` and `metadata` added at the root and in embedded resources, the GVK extension
//! set; for Swagger 2.0 the schema is further reduced to what kubectl's v2 client copes
//! with (no junctors, no nullable, no defaults, bare preserve-unknown-fields nodes).
//!
//! Output is in the crate's canonical form (`$ref`s to `#/components/schemas/`).

use super::crd::ServedVersion;
use crate::catalog::{LIST_META, OBJECT_META};
use crate::definitions::{API_VERSION_DOC, KIND_DOC, V3_REF};
use serde_json::{json, Map, Value};

/// Which document a definition is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    V2,
    V3,
}

const OBJECT_META_DOC: &str = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const LIST_META_DOC: &str = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
const EMBEDDED_API_VERSION_DOC: &str = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const EMBEDDED_KIND_DOC: &str = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// Keywords of a structural schema with a plain value, kept as written.
const PLAIN: &[&str] = &[
    "default",
    "enum",
    "externalDocs",
    "maximum",
    "minimum",
    "multipleOf",
    "maxLength",
    "minLength",
    "maxItems",
    "minItems",
    "maxProperties",
    "minProperties",
    "required",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-list-type",
    "x-kubernetes-map-type",
    "x-kubernetes-validations",
];
/// String keywords, dropped when empty.
const STRINGS: &[&str] = &["description", "title", "format", "pattern"];
/// Boolean keywords, kept only when true.
const FLAGS: &[&str] = &[
    "nullable",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "uniqueItems",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
];
const TYPES: &[&str] = &["array", "boolean", "integer", "number", "object", "string"];

/// Why a CRD schema cannot be published as written (upstream then publishes a bare object).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct NotStructural;

/// A copy of `schema` with only the keywords a structural schema carries.
pub(crate) fn structural(schema: &Value) -> Result<Value, NotStructural> {
    let source = schema.as_object().ok_or(NotStructural)?;
    let mut out = Map::new();
    for (key, value) in source {
        let key = key.as_str();
        if value.is_null() {
            // Decoded as absent, as upstream's typed CRD decoding does.
            continue;
        }
        if PLAIN.contains(&key) {
            out.insert(key.into(), value.clone());
        } else if STRINGS.contains(&key) {
            if value.as_str().is_some_and(|s| !s.is_empty()) {
                out.insert(key.into(), value.clone());
            }
        } else if FLAGS.contains(&key) {
            if value == &Value::Bool(true) {
                out.insert(key.into(), value.clone());
            }
        } else {
            match (key, value) {
                ("type", Value::String(t)) if t.is_empty() => {}
                ("type", Value::String(t)) if TYPES.contains(&t.as_str()) => {
                    out.insert(key.into(), value.clone());
                }
                ("type", _) => return Err(NotStructural),
                ("items", Value::Array(_)) => return Err(NotStructural),
                ("items" | "not", sub) => {
                    out.insert(key.into(), structural(sub)?);
                }
                ("additionalProperties", Value::Bool(_)) => {
                    out.insert(key.into(), value.clone());
                }
                ("additionalProperties", sub) => {
                    out.insert(key.into(), structural(sub)?);
                }
                ("properties", Value::Object(properties)) => {
                    let mut copied = Map::new();
                    for (name, sub) in properties {
                        copied.insert(name.clone(), structural(sub)?);
                    }
                    out.insert(key.into(), Value::Object(copied));
                }
                ("properties", _) => return Err(NotStructural),
                ("allOf" | "anyOf" | "oneOf", Value::Array(subs)) => {
                    let copied = subs.iter().map(structural).collect::<Result<_, _>>()?;
                    out.insert(key.into(), Value::Array(copied));
                }
                ("allOf" | "anyOf" | "oneOf", _) => return Err(NotStructural),
                // `$ref`, `id`, `$schema`, `definitions`, `patternProperties`, `example`,
                // `dependencies`, `additionalItems`: not in structural schemas.
                _ => {}
            }
        }
    }
    Ok(Value::Object(out))
}

fn flag(object: &Map<String, Value>, key: &str) -> bool {
    object.get(key) == Some(&Value::Bool(true))
}

/// Calls `f` on `schema` and then on its structural children (properties, items,
/// additionalProperties), depth first; junctors are not entered.
fn walk(schema: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    f(object);
    children(object, &mut |child| walk(child, f));
}

fn children(object: &mut Map<String, Value>, f: &mut dyn FnMut(&mut Value)) {
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        properties.values_mut().for_each(&mut *f);
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub @ Value::Object(_)) = object.get_mut(key) {
            f(sub);
        }
    }
}

fn int_or_string() -> Value {
    json!([{"type": "integer"}, {"type": "string"}])
}

/// Spells out `x-kubernetes-int-or-string` as `anyOf: [integer, string]` (or, when the
/// node has its own `anyOf`, as a first `allOf` entry), unless it is already there.
fn unfold(schema: &mut Value) {
    walk(schema, &mut |node| {
        if !flag(node, "x-kubernetes-int-or-string") {
            return;
        }
        let pattern = int_or_string();
        let spelled = node.get("anyOf") == Some(&pattern)
            || node
                .get("allOf")
                .and_then(|all_of| all_of.get(0))
                .and_then(|first| first.get("anyOf"))
                == Some(&pattern);
        if spelled {
            return;
        }
        if node.contains_key("anyOf") {
            let mut all_of = vec![json!({"anyOf": pattern})];
            if let Some(Value::Array(existing)) = node.remove("allOf") {
                all_of.extend(existing);
            }
            node.insert("allOf".into(), Value::Array(all_of));
        } else {
            node.insert("anyOf".into(), pattern);
        }
    });
}

/// What kubectl's Swagger 2.0 client copes with: no junctors, nullable nodes untyped and
/// without structure (and not required), preserve-unknown-fields nodes without structure,
/// untyped arrays without items and objects that preserve unknown fields.
fn to_v2(schema: &mut Value) {
    walk(schema, &mut |node| {
        for key in ["allOf", "anyOf", "oneOf", "not"] {
            node.remove(key);
        }
        if flag(node, "nullable") {
            for key in ["type", "nullable", "items", "properties"] {
                node.remove(key);
            }
        }
        let preserve = flag(node, "x-kubernetes-preserve-unknown-fields");
        if preserve {
            node.remove("items");
            node.remove("properties");
        }
        let type_is = |node: &Map<String, Value>, t: &str| {
            node.get("type").and_then(Value::as_str) == Some(t)
        };
        if !node.contains_key("items") && type_is(node, "array") {
            node.remove("type");
        }
        if preserve && type_is(node, "object") {
            node.remove("type");
        }
        let nullable_properties: Vec<String> = match node.get("properties") {
            Some(Value::Object(properties)) => properties
                .iter()
                .filter(|(_, p)| p.as_object().is_some_and(|p| flag(p, "nullable")))
                .map(|(name, _)| name.clone())
                .collect(),
            _ => Vec::new(),
        };
        if let Some(Value::Array(required)) = node.get_mut("required") {
            required.retain(|r| {
                !r.as_str()
                    .is_some_and(|r| nullable_properties.iter().any(|p| p == r))
            });
        }
        let nullable_values = node
            .get("additionalProperties")
            .and_then(Value::as_object)
            .is_some_and(|a| flag(a, "nullable"));
        let empty = matches!(node.get("required"), Some(Value::Array(r)) if r.is_empty());
        if nullable_values || empty {
            node.remove("required");
        }
    });
}

fn remove_defaults(schema: &mut Value) {
    walk(schema, &mut |node| {
        node.remove("default");
    });
}

fn set_property(node: &mut Map<String, Value>, name: &str, schema: Value) {
    if !matches!(node.get("properties"), Some(Value::Object(_))) {
        node.insert("properties".into(), Value::Object(Map::new()));
    }
    if let Some(Value::Object(properties)) = node.get_mut("properties") {
        properties.insert(name.into(), schema);
    }
}

fn object_meta() -> Value {
    json!({"$ref": format!("{V3_REF}{OBJECT_META}"), "description": OBJECT_META_DOC})
}

/// Adds `apiVersion`, `kind` and `metadata` to every `x-kubernetes-embedded-resource`
/// node, and requires the first two; for v2, not under preserve-unknown-fields nodes.
fn add_embedded(schema: &mut Value, target: Target) {
    let Some(node) = schema.as_object_mut() else {
        return;
    };
    children(node, &mut |child| add_embedded(child, target));
    if target == Target::V2 && flag(node, "x-kubernetes-preserve-unknown-fields") {
        return;
    }
    if !flag(node, "x-kubernetes-embedded-resource") {
        return;
    }
    set_property(
        node,
        "apiVersion",
        json!({"description": EMBEDDED_API_VERSION_DOC, "type": "string"}),
    );
    set_property(
        node,
        "kind",
        json!({"description": EMBEDDED_KIND_DOC, "type": "string"}),
    );
    set_property(node, "metadata", object_meta());
    let mut required = match node.remove("required") {
        Some(Value::Array(required)) => required,
        _ => Vec::new(),
    };
    for field in ["kind", "apiVersion"] {
        if !required.iter().any(|r| r == field) {
            required.push(field.into());
        }
    }
    node.insert("required".into(), Value::Array(required));
}

fn gvk(group: &str, version: &str, kind: &str) -> Value {
    json!([{"group": group, "kind": kind, "version": version}])
}

/// The definition of the kind of `v`, for `target`.
pub(crate) fn kind_schema(v: &ServedVersion, target: Target) -> Value {
    let parsed = v.schema.as_ref().and_then(|s| structural(s).ok());
    let bare = || json!({"type": "object"});
    let mut schema = match parsed {
        None => bare(),
        Some(s)
            if target == Target::V2
                && (v.preserve_unknown_fields
                    || s.as_object()
                        .is_some_and(|o| flag(o, "x-kubernetes-preserve-unknown-fields"))) =>
        {
            bare()
        }
        Some(mut s) => {
            unfold(&mut s);
            if target == Target::V2 {
                to_v2(&mut s);
                remove_defaults(&mut s);
            }
            if let Value::Object(root) = &mut s {
                set_property(root, "metadata", object_meta());
                set_property(
                    root,
                    "apiVersion",
                    json!({"description": API_VERSION_DOC, "type": "string"}),
                );
                set_property(
                    root,
                    "kind",
                    json!({"description": KIND_DOC, "type": "string"}),
                );
            }
            add_embedded(&mut s, target);
            s
        }
    };
    if let Value::Object(root) = &mut schema {
        root.insert(
            "x-kubernetes-group-version-kind".into(),
            gvk(&v.group, &v.version, &v.kind),
        );
        if !v.selectable_fields.is_empty() {
            let fields: Vec<Value> = v
                .selectable_fields
                .iter()
                .map(|path| json!({"fieldPath": path}))
                .collect();
            root.insert(
                "x-kubernetes-selectable-fields".into(),
                Value::Array(fields),
            );
        }
    }
    schema
}

/// The definition of the list kind of `v` (the same for both targets).
pub(crate) fn list_schema(v: &ServedVersion) -> Value {
    json!({
        "description": format!("{} is a list of {}", v.list_kind, v.kind),
        "type": "object",
        "required": ["items"],
        "properties": {
            "apiVersion": {"description": API_VERSION_DOC, "type": "string"},
            "items": {
                "description": format!("List of {}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md", v.plural),
                "type": "array",
                "items": {"$ref": format!("{V3_REF}{}", v.definition())},
            },
            "kind": {"description": KIND_DOC, "type": "string"},
            "metadata": {"$ref": format!("{V3_REF}{LIST_META}"), "description": LIST_META_DOC},
        },
        "x-kubernetes-group-version-kind": gvk(&v.group, &v.version, &v.list_kind),
    })
}

#[cfg(test)]
#[path = "schema_tests.rs"]
mod tests;
