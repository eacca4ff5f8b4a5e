//! JSON written in the field order of upstream's Go types: kube-apiserver encodes built-in
//! objects with `encoding/json`, which writes a struct's fields in declaration order
//! (`kind`, `apiVersion`, `metadata`, then the type's fields: a Pod's spec starts with
//! `volumes`, `initContainers`, `containers`) and a map's keys sorted. Custom resources
//! have no Go type upstream and are written with sorted keys, as a `serde_json::Value` is.
//!
//! [`InGoOrder`] wraps a value with its [`TypeDef`] and serializes it in that order with any
//! serde serializer (compact or indented); keys the type does not have follow, sorted.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use crate::go_format::{go_json_pretty, go_json_vec};
use crate::types::{Elem, FieldDef, FieldKind, Format, TypeDef};

/// `value`, an object of type `def`, serialized in the Go struct's field order.
#[derive(Clone, Copy, Debug)]
pub struct InGoOrder<'a> {
    def: &'static TypeDef,
    value: &'a Value,
}

impl<'a> InGoOrder<'a> {
    pub fn new(def: &'static TypeDef, value: &'a Value) -> Self {
        InGoOrder { def, value }
    }
}

impl Serialize for InGoOrder<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Value::Object(map) = self.value else {
            return self.value.serialize(s);
        };
        if self.def.format != Format::Object {
            return self.value.serialize(s);
        }
        let mut out = s.serialize_map(Some(map.len()))?;
        let written = fields(self.def, map, &mut out)?;
        if written < map.len() {
            for (k, v) in map {
                if self.def.field(k).is_none() {
                    out.serialize_entry(k, v)?;
                }
            }
        }
        out.end()
    }
}

/// Writes the fields of `def` present in `map`, in Go order (inline structs in their
/// place); returns how many.
fn fields<M: SerializeMap>(
    def: &'static TypeDef,
    map: &Map<String, Value>,
    out: &mut M,
) -> Result<usize, M::Error> {
    let mut written = 0;
    for f in def.fields_in_go_order() {
        if f.inline {
            if let Some(inner) = f.message() {
                written += fields(inner, map, out)?;
            }
            continue;
        }
        if let Some(value) = map.get(f.json) {
            out.serialize_entry(f.json, &FieldValue { field: f, value })?;
            written += 1;
        }
    }
    Ok(written)
}

/// A field's value: messages (alone, in lists, as map values) in their type's order.
struct FieldValue<'a> {
    field: &'static FieldDef,
    value: &'a Value,
}

impl Serialize for FieldValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (self.field.kind, self.value) {
            (FieldKind::Single(Elem::Message(def)), v) if def.format == Format::RawExtension => {
                Embedded(v).serialize(s)
            }
            (FieldKind::List(Elem::Message(def)), Value::Array(items))
                if def.format == Format::RawExtension =>
            {
                s.collect_seq(items.iter().map(Embedded))
            }
            (FieldKind::Single(Elem::Message(def)), v) => InGoOrder::new(def, v).serialize(s),
            (FieldKind::List(Elem::Message(def)), Value::Array(items)) => {
                s.collect_seq(items.iter().map(|v| InGoOrder::new(def, v)))
            }
            (FieldKind::Map(Elem::Message(def)), Value::Object(entries)) => {
                s.collect_map(entries.iter().map(|(k, v)| (k, InGoOrder::new(def, v))))
            }
            (_, v) => v.serialize(s),
        }
    }
}

/// An embedded object (`runtime.RawExtension`: a Table row's object, an admission
/// review's): a built-in kind in its own order, anything else as it is.
struct Embedded<'a>(&'a Value);

impl Serialize for Embedded<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match def_of(self.0) {
            Some(def) => InGoOrder::new(def, self.0).serialize(s),
            None => self.0.serialize(s),
        }
    }
}

/// `value` as kube-apiserver's JSON encoder writes it, compact: a built-in kind (found by
/// its `apiVersion` and `kind`) in its Go struct's field order, anything else (custom
/// resources, which upstream holds as unstructured maps) with sorted keys; strings with
/// Go's escapes ([`crate::go_json_vec`]).
pub fn to_json_vec(value: &Value) -> Vec<u8> {
    let written = match def_of(value) {
        Some(def) => go_json_vec(&InGoOrder::new(def, value)),
        None => go_json_vec(value),
    };
    written.unwrap_or_default()
}

/// [`to_json_vec`] indented as Go's `json.MarshalIndent(v, "", "  ")`.
pub fn to_json_pretty(value: &Value) -> Vec<u8> {
    let written = match def_of(value) {
        Some(def) => go_json_pretty(&InGoOrder::new(def, value)),
        None => go_json_pretty(value),
    };
    written.unwrap_or_default()
}

/// The type of a built-in object, by its `apiVersion` and `kind`; without an
/// `apiVersion`, a core or `meta/v1` kind (the legacy discovery documents `APIVersions`
/// and `/api/v1`'s `APIResourceList` have none).
fn def_of(value: &Value) -> Option<&'static TypeDef> {
    let text = |f: &str| value.get(f).and_then(Value::as_str);
    crate::kind_def_for_api_version(text("apiVersion").unwrap_or("v1"), text("kind")?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind_def;
    use serde_json::json;

    fn written(group: &str, kind: &str, v: &Value) -> String {
        let def = kind_def(group, "v1", kind).expect("kind");
        serde_json::to_string(&InGoOrder::new(def, v)).expect("serialize")
    }

    #[test]
    fn objects_are_written_in_go_struct_order() {
        let pod = json!({
            "apiVersion": "v1", "kind": "Pod",
            "status": {"phase": "Pending"},
            "metadata": {"uid": "u", "name": "p", "namespace": "d", "labels": {"b": "1", "a": "2"}},
            "spec": {
                "restartPolicy": "Always",
                "containers": [{"name": "c", "image": "i", "command": ["x"],
                    "livenessProbe": {"periodSeconds": 3, "exec": {"command": ["y"]}}}],
                "initContainers": [{"image": "j", "name": "i"}],
                "volumes": [{"name": "v", "emptyDir": {}}],
            },
        });
        assert_eq!(
            written("", "Pod", &pod),
            concat!(
                r#"{"kind":"Pod","apiVersion":"v1","#,
                r#""metadata":{"name":"p","namespace":"d","uid":"u","labels":{"a":"2","b":"1"}},"#,
                r#""spec":{"volumes":[{"name":"v","emptyDir":{}}],"initContainers":[{"name":"i","image":"j"}],"#,
                r#""containers":[{"name":"c","image":"i","command":["x"],"#,
                r#""livenessProbe":{"exec":{"command":["y"]},"periodSeconds":3}}],"#,
                r#""restartPolicy":"Always"},"status":{"phase":"Pending"}}"#
            )
        );
    }

    #[test]
    fn embedded_objects_are_written_in_their_kinds_order() {
        let table = json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": {},
            "columnDefinitions": [], "rows": [{"cells": ["a"], "object": {
                "metadata": {"namespace": "d", "name": "p"}, "kind": "PartialObjectMetadata",
                "apiVersion": "meta.k8s.io/v1"}}]});
        let def = crate::kind_def("meta.k8s.io", "v1", "Table").expect("table");
        assert_eq!(
            serde_json::to_string(&InGoOrder::new(def, &table)).expect("serialize"),
            concat!(
                r#"{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{},"columnDefinitions":[],"#,
                r#""rows":[{"cells":["a"],"object":{"kind":"PartialObjectMetadata","#,
                r#""apiVersion":"meta.k8s.io/v1","metadata":{"name":"p","namespace":"d"}}}]}"#
            )
        );
    }

    #[test]
    fn unknown_keys_follow_sorted_and_non_objects_pass() {
        let cm = json!({"kind": "ConfigMap", "zz": 1, "apiVersion": "v1", "aa": [2],
            "data": {"k": "v"}, "metadata": {"name": "c"}});
        assert_eq!(
            written("", "ConfigMap", &cm),
            r#"{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"},"data":{"k":"v"},"aa":[2],"zz":1}"#
        );
        assert_eq!(written("", "ConfigMap", &json!([1, "a"])), r#"[1,"a"]"#);
        let odd = json!({"metadata": "not an object", "kind": "ConfigMap"});
        assert_eq!(
            written("", "ConfigMap", &odd),
            r#"{"kind":"ConfigMap","metadata":"not an object"}"#
        );
    }
}
