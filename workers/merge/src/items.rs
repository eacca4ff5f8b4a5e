//! Identifying the elements of associative lists, shared by every walk over a value.

use serde_json::Value;

use crate::path::PathElement;
use crate::schema::{ListKind, Schema};

/// The path element of `child`, an element of a list of `kind` whose items are `item`.
pub(crate) fn item_element<S: Schema>(
    kind: &ListKind,
    item: Option<&S>,
    child: &Value,
) -> Result<PathElement, String> {
    match kind {
        ListKind::Map(keys) => {
            let m = match child {
                Value::Null => {
                    return Err("associative list with keys may not have a null element".into())
                }
                Value::Object(m) => m,
                _ => return Err("associative list with keys may not have non-map elements".into()),
            };
            let mut fields = Vec::new();
            for k in keys {
                match m.get(k) {
                    Some(v) => fields.push((k.clone(), v.clone())),
                    None => {
                        if let Some(d) = item.and_then(|i| i.key_default(k)) {
                            fields.push((k.clone(), d));
                        }
                    }
                }
            }
            if fields.is_empty() {
                let quoted: Vec<String> = keys.iter().map(|k| format!("{k:?}")).collect();
                return Err(format!(
                    "associative list with keys has an element that omits all key fields [{}] (and doesn't have default values for any key fields)",
                    quoted.join(" ")
                ));
            }
            Ok(PathElement::key(fields))
        }
        ListKind::Set | ListKind::Atomic => match child {
            Value::Object(_) => {
                Err("associative list without keys has an element that's a map type".into())
            }
            Value::Array(_) => Err("not supported: associative list with lists as elements".into()),
            Value::Null => {
                Err("associative list without keys has an element that's an explicit null".into())
            }
            v => Ok(PathElement::Value(v.clone())),
        },
    }
}

/// The path elements of every item, or the first error (with the item's index).
pub(crate) fn elements<S: Schema>(
    kind: &ListKind,
    item: Option<&S>,
    items: &[Value],
) -> Result<Vec<PathElement>, String> {
    items
        .iter()
        .enumerate()
        .map(|(i, c)| item_element(kind, item, c).map_err(|e| format!("element {i}: {e}")))
        .collect()
}

/// Equality as upstream's: numbers by value whether written as ints or floats.
pub(crate) fn values_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(i), Some(j)) => i == j,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(i, j)| values_equal(i, j))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| values_equal(v, w)))
        }
        _ => a == b,
    }
}

/// Whether `v` counts as empty for a list or map (absent, null or no elements).
pub(crate) fn is_empty_collection(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => true,
        Some(Value::Array(a)) => a.is_empty(),
        Some(Value::Object(m)) => m.is_empty(),
        _ => false,
    }
}
