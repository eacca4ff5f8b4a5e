//! Strategic merge patch (`application/strategic-merge-patch+json`) applied to JSON
//! objects the way kube-apiserver applies it (`k8s.io/apimachinery/pkg/util/strategicpatch`,
//! `StrategicMergeMapPatch`), driven by a schema of patch strategies and merge keys.
//!
//! kubectl sends these bodies for `apply`, `patch` (default type), `scale`, `label`,
//! `annotate` and `edit`. The rules, all upstream's:
//!
//! * Objects merge key by key; `null` deletes a key; `{"$patch": "replace", ...}` replaces
//!   the object with the rest of the patch object, `{"$patch": "delete"}` empties it; any
//!   other `$patch` value is an error.
//! * A field with `patchStrategy: replace` is replaced whole.
//! * Lists are replaced unless the field's strategy is `merge`. Then elements that are
//!   objects merge by the field's merge key (`containers` by `name`, `ports` by
//!   `containerPort`); `{"<key>": x, "$patch": "delete"}` removes the element,
//!   `{"$patch": "replace"}` makes the patch list the whole list; primitive lists merge as
//!   sets, and `$deleteFromPrimitiveList/<field>` removes values from them.
//! * `$retainKeys: [..]` clears the original object's keys not listed (the patch may only
//!   set listed keys); kubectl sends it for `retainKeys` fields (Deployment `strategy`,
//!   `volumes`).
//! * `$setElementOrder/<field>: [..]` orders the merged list (kubectl apply sends it with
//!   every merged list it touches).
//! * Order of a merged list: items the patch names keep the patch's relative order (or
//!   `$setElementOrder`'s), items only the original has keep theirs, and the two runs are
//!   interleaved by taking the original's item first only when both items were in the
//!   original and it came earlier there. So `[1,2]` merged with `[3]` is `[3,1,2]`, and
//!   with `$setElementOrder: [1,2,3]` it is `[1,2,3]`.
//! * A patch value with no original counterpart is taken as is, minus its nulls and
//!   minus objects carrying `$patch`.
//!
//! Directives never reach the result. Keys that merely begin with `$` and are not
//! directives are ordinary fields, as upstream treats them. Errors carry upstream's
//! wording; [`PatchError`] documents which HTTP status kube-apiserver gives each.
//!
//! The schema is anything implementing [`PatchSchema`]; [`NoSchema`] knows nothing
//! (objects merge, lists are replaced).
#![forbid(unsafe_code)]

mod directives;
mod error;
mod gofmt;
mod gosort;
mod list;
mod merge;
mod schema;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_lists;
#[cfg(test)]
mod testschema;

use serde_json::{Map, Value};

pub use error::PatchError;
pub use schema::{NoSchema, PatchMeta, PatchSchema, PatchStrategy};

/// Applies a strategic merge patch to `original` (the object as stored) and returns the
/// patched object. `schema` describes the object's type (the root of its schema).
///
/// `patch` must be a JSON object (`null` counts as an empty patch); `original` must be an
/// object too (`null` counts as empty). Neither is modified.
pub fn strategic_merge_patch<S: PatchSchema>(
    original: &Value,
    patch: &Value,
    schema: &S,
) -> Result<Value, PatchError> {
    let patch = match patch {
        Value::Object(map) => map.clone(),
        Value::Null => Map::new(),
        other => {
            return Err(PatchError::PatchNotObject {
                found: json_kind(other),
            })
        }
    };
    let original = match original {
        Value::Object(map) => map.clone(),
        Value::Null => Map::new(),
        _ => return Err(PatchError::BadJsonDocument),
    };
    merge::merge_map(original, patch, Some(schema)).map(Value::Object)
}

/// Applies a JSON merge patch (RFC 7386): objects merge recursively, `null` deletes,
/// anything else (lists included) replaces.
pub fn json_merge_patch(original: &Value, patch: &Value) -> Value {
    let Value::Object(patch) = patch else {
        return patch.clone();
    };
    let mut target = match original {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    for (key, value) in patch {
        if value.is_null() {
            target.remove(key);
        } else {
            let merged = json_merge_patch(target.get(key).unwrap_or(&Value::Null), value);
            target.insert(key.clone(), merged);
        }
    }
    Value::Object(target)
}

/// How Go's JSON decoder names the JSON type it could not put into a map.
fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "bool",
        Value::Null | Value::Object(_) => "object",
    }
}
