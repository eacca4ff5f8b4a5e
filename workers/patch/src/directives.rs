//! The patch directives (`$patch`, `$retainKeys`, `$setElementOrder/…`,
//! `$deleteFromPrimitiveList/…`) and the cleaning that keeps them out of results.

use serde_json::{Map, Value};

/// `$patch`: `replace` / `delete` on an object, also `merge` inside a list element.
pub(crate) const PATCH: &str = "$patch";
/// `$retainKeys`: the keys of the object to keep.
pub(crate) const RETAIN_KEYS: &str = "$retainKeys";
/// `$setElementOrder/<field>`: the order of a merged list.
pub(crate) const SET_ELEMENT_ORDER: &str = "$setElementOrder";
/// `$deleteFromPrimitiveList/<field>`: values to remove from a merged primitive list.
pub(crate) const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList";

/// Whether `key` is a directive rather than a field.
pub(crate) fn is_directive_key(key: &str) -> bool {
    key == PATCH
        || key == RETAIN_KEYS
        || key.starts_with(SET_ELEMENT_ORDER)
        || key.starts_with(DELETE_FROM_PRIMITIVE_LIST)
}

/// The field a parallel-list directive key (`<prefix>/<field>`) names, or `None` when the
/// key does not have that shape.
pub(crate) fn directive_target<'k>(key: &'k str, prefix: &str) -> Option<&'k str> {
    let (head, field) = key.split_once('/')?;
    (head == prefix).then_some(field)
}

/// Removes directive keys everywhere in `value`, keeping everything else (nulls
/// included). Used where upstream keeps the patch value as it is and the typed decoding
/// that follows would drop the directives as unknown fields.
pub(crate) fn strip(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(strip_map(map)),
        Value::Array(items) => Value::Array(items.into_iter().map(strip).collect()),
        other => other,
    }
}

/// [`strip`] for an object.
pub(crate) fn strip_map(map: Map<String, Value>) -> Map<String, Value> {
    map.into_iter()
        .filter(|(k, _)| !is_directive_key(k))
        .map(|(k, v)| (k, strip(v)))
        .collect()
}

/// The value a patch value becomes where the original has nothing to merge it into:
/// objects that carry `$patch` vanish (from their parent object or list), other
/// directive keys are dropped, and with `discard_nulls` null-valued keys of objects are
/// removed at every depth. `None`: the value itself vanishes.
pub(crate) fn new_value(value: Value, discard_nulls: bool) -> Option<Value> {
    match value {
        Value::Object(map) => {
            let map: Map<String, Value> = map
                .into_iter()
                .filter(|(_, v)| !(discard_nulls && v.is_null()))
                .collect();
            if map.contains_key(PATCH) {
                return None;
            }
            let cleaned = map
                .into_iter()
                .filter(|(k, _)| !is_directive_key(k))
                .filter_map(|(k, v)| new_value(v, discard_nulls).map(|v| (k, v)))
                .collect();
            Some(Value::Object(cleaned))
        }
        Value::Array(items) => Some(Value::Array(
            items
                .into_iter()
                .filter_map(|v| new_value(v, discard_nulls))
                .collect(),
        )),
        other => Some(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn targets() {
        assert_eq!(
            directive_target("$setElementOrder/containers", SET_ELEMENT_ORDER),
            Some("containers")
        );
        assert_eq!(
            directive_target("$setElementOrder", SET_ELEMENT_ORDER),
            None
        );
        assert_eq!(
            directive_target("$setElementOrderX/a", SET_ELEMENT_ORDER),
            None
        );
        assert_eq!(
            directive_target("$deleteFromPrimitiveList/a/b", DELETE_FROM_PRIMITIVE_LIST),
            Some("a/b")
        );
    }

    #[test]
    fn cleaning() {
        let v = json!({"a": null, "b": {"$patch": "delete", "x": 1}, "c": [{"$patch": "replace"}, {"d": null, "$retainKeys": ["d"]}], "$setElementOrder/c": [], "e": "$patch"});
        assert_eq!(
            new_value(v.clone(), true),
            Some(json!({"c": [{}], "e": "$patch"}))
        );
        assert_eq!(
            new_value(v.clone(), false),
            Some(json!({"a": null, "c": [{"d": null}], "e": "$patch"}))
        );
        assert_eq!(new_value(json!({"$patch": "delete"}), true), None);
        assert_eq!(new_value(json!({"$patch": null}), true), Some(json!({})));
        assert_eq!(
            strip(v),
            json!({"a": null, "b": {"x": 1}, "c": [{}, {"d": null}], "e": "$patch"})
        );
    }
}
