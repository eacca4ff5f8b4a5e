//! The fields upstream writes although a client never sent them, and the zeros it never
//! writes although a client sent them: kube-apiserver encodes objects with Go's
//! `encoding/json`, which writes every struct field that is not a pointer (`omitempty` has
//! no effect on structs) and every field without `omitempty` at its zero value, and leaves
//! out the zero of an `omitempty` field. [`fill_zero_fields`] adds the former to a JSON
//! object, from [`FieldDef::zero`](FieldDef#structfield.zero), and drops the latter
//! ([`FieldDef::omits_zero`]).

use serde_json::{Map, Value};

use crate::types::{FieldDef, FieldKind, Format, TypeDef, Zero};

/// Adds to `value`, an object of type `def`, every field upstream would write for it that
/// it lacks, with the value upstream writes ([`FieldDef::zero`][zero]): `"spec":{}`,
/// `"creationTimestamp":null`, `"rules":null`, `"replicas":0`, …
///
/// * Inserted structs (`Zero::Object`) get their own always-written fields, recursively
///   (`"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}}`).
/// * Present objects are filled too: message fields, items of lists of messages and values
///   of maps of messages. Inline (embedded) structs add their fields to the same object; one
///   embedded by pointer only when one of its fields is there (Go writes none while it is
///   nil).
/// * A present `false`, `0` or `""` of a field Go holds by value with `omitempty` is
///   removed (`hostNetwork: false`, an HPA's `status.currentReplicas: 0` converted from
///   `autoscaling/v1`), as the decoders drop it. Other present values are never changed
///   or removed, `null` included: the input is expected in the canonical form of
///   [`crate::decode_json`], where `null` means absent.
/// * Types with their own JSON form (times, quantities, raw JSON, `JSONSchemaProps`'s
///   `…Or…` wrappers) are left as they are; `apiVersion` and `kind` are `omitempty` in Go
///   and never added.
///
/// Filling is idempotent. A `value` that is not an object, or a `def` that is not
/// [`Format::Object`], is left alone.
///
/// [zero]: FieldDef#structfield.zero
pub fn fill_zero_fields(def: &TypeDef, value: &mut Value) {
    if let Value::Object(obj) = value {
        fill_object(def, obj);
    }
}

fn fill_object(def: &TypeDef, obj: &mut Map<String, Value>) {
    if def.format != Format::Object {
        return;
    }
    for field in def.fields {
        if field.inline {
            if let Some(inner) = field.message() {
                if field.zero.is_some() || has_any_field(inner, obj) {
                    fill_object(inner, obj);
                }
            }
            continue;
        }
        match obj.get_mut(field.json) {
            Some(present) if field.drops(present) => {
                obj.remove(field.json);
            }
            Some(present) => fill_present(field, present),
            None => {
                if let Some(zero) = field.zero {
                    obj.insert(field.json.to_string(), zero_value(field, zero));
                }
            }
        }
    }
}

/// Fills the objects inside a present value of `field`.
fn fill_present(field: &FieldDef, value: &mut Value) {
    let Some(def) = field.message() else {
        return;
    };
    match (field.kind, value) {
        (FieldKind::Single(_), value) => fill_zero_fields(def, value),
        (FieldKind::List(_), Value::Array(items)) => {
            for item in items {
                fill_zero_fields(def, item);
            }
        }
        (FieldKind::Map(_), Value::Object(values)) => {
            for value in values.values_mut() {
                fill_zero_fields(def, value);
            }
        }
        _ => {}
    }
}

/// The JSON upstream writes for `field` at its zero value.
fn zero_value(field: &FieldDef, zero: Zero) -> Value {
    match zero {
        Zero::Null => Value::Null,
        Zero::False => Value::Bool(false),
        Zero::Number => Value::from(0),
        Zero::String(s) => Value::from(s),
        Zero::Object => {
            let mut obj = Map::new();
            if let Some(def) = field.message() {
                fill_object(def, &mut obj);
            }
            Value::Object(obj)
        }
    }
}

/// Whether `obj` has a field of `def` (inline fields looked through).
fn has_any_field(def: &TypeDef, obj: &Map<String, Value>) -> bool {
    def.fields.iter().any(|f| match (f.inline, f.message()) {
        (true, Some(inner)) => has_any_field(inner, obj),
        _ => obj.contains_key(f.json),
    })
}

#[cfg(test)]
#[path = "zero_tests.rs"]
mod tests;
