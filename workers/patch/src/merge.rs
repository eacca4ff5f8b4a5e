//! Merging a patch object into an original object: `$patch` on objects, `$retainKeys`,
//! `$setElementOrder`, `$deleteFromPrimitiveList`, nulls, and the per-field dispatch.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::directives::{
    self, directive_target, DELETE_FROM_PRIMITIVE_LIST, PATCH, RETAIN_KEYS, SET_ELEMENT_ORDER,
};
use crate::gofmt;
use crate::list::{self, element_kind, merge_slice, normalize_element_order, partition};
use crate::schema::{meta_of, PatchMeta, PatchSchema, PatchStrategy};
use crate::PatchError;

type Object = Map<String, Value>;

/// Merges `patch` into `original`; `schema` describes the object (None: unknown).
pub(crate) fn merge_map<S: PatchSchema>(
    mut original: Object,
    mut patch: Object,
    schema: Option<&S>,
) -> Result<Object, PatchError> {
    if let Some(directive) = patch.get(PATCH) {
        return match directive.as_str() {
            Some("replace") => {
                patch.remove(PATCH);
                Ok(directives::strip_map(patch))
            }
            Some("delete") => Ok(Object::new()),
            _ => Err(PatchError::UnknownPatchType {
                directive: gofmt::s(directive),
                map: gofmt::v(&Value::Object(patch.clone())),
            }),
        };
    }
    apply_retain_keys(&mut original, &mut patch)?;
    apply_element_orders(&mut original, &mut patch, schema)?;

    for (key, value) in patch {
        let (key, is_delete_list) = if key.starts_with(DELETE_FROM_PRIMITIVE_LIST) {
            match directive_target(&key, DELETE_FROM_PRIMITIVE_LIST) {
                None => return Err(PatchError::PrimitiveListFormat),
                // Upstream keeps the directive key itself when nothing follows the slash.
                Some("") => (key, true),
                Some(field) => (field.to_owned(), true),
            }
        } else {
            (key, false)
        };
        if value.is_null() {
            original.remove(&key);
            continue;
        }
        let Some(current) = original.remove(&key) else {
            if !is_delete_list {
                if let Some(v) = directives::new_value(value, true) {
                    original.insert(key, v);
                }
            }
            continue;
        };
        if gofmt::type_name(&current) != gofmt::type_name(&value) {
            if is_delete_list {
                original.insert(key, current);
            } else if let Some(v) = directives::new_value(value, true) {
                original.insert(key, v);
            }
            continue;
        }
        let merged = match (current, value) {
            (Value::Object(current), Value::Object(p)) => {
                let field = schema.and_then(|s| s.field(&key));
                if meta_of(field.as_ref())?.strategy == PatchStrategy::Replace {
                    Value::Object(directives::strip_map(p))
                } else {
                    Value::Object(merge_map(current, p, field.as_ref())?)
                }
            }
            (Value::Array(current), Value::Array(p)) => {
                let field = schema.and_then(|s| s.field(&key));
                let meta = meta_of(field.as_ref())?;
                Value::Array(merge_list_field(
                    current,
                    p,
                    field.as_ref(),
                    &meta,
                    is_delete_list,
                )?)
            }
            (_, scalar) => scalar,
        };
        original.insert(key, merged);
    }
    Ok(original)
}

/// Merges a list field per its markers: merged when its strategy is `merge`, otherwise
/// the patch list replaces it (upstream does so even for a `$deleteFromPrimitiveList`).
fn merge_list_field<S: PatchSchema>(
    current: Vec<Value>,
    patch: Vec<Value>,
    field: Option<&S>,
    meta: &PatchMeta,
    is_delete_list: bool,
) -> Result<Vec<Value>, PatchError> {
    if meta.strategy == PatchStrategy::Merge {
        let element = field.and_then(PatchSchema::element);
        let key = meta.merge_key.as_deref().unwrap_or("");
        merge_slice(current, patch, element.as_ref(), key, is_delete_list)
    } else {
        Ok(patch.into_iter().map(directives::strip).collect())
    }
}

/// `$retainKeys`: every field the patch sets must be listed, and original fields not
/// listed are cleared.
fn apply_retain_keys(original: &mut Object, patch: &mut Object) -> Result<(), PatchError> {
    let Some(retain) = patch.remove(RETAIN_KEYS) else {
        return Ok(());
    };
    let Value::Array(retain) = retain else {
        return Err(PatchError::RetainKeysFormat);
    };
    let retained: HashSet<&str> = retain.iter().filter_map(Value::as_str).collect();
    let unlisted = patch.iter().any(|(k, v)| {
        !v.is_null()
            && !k.starts_with(DELETE_FROM_PRIMITIVE_LIST)
            && !k.starts_with(SET_ELEMENT_ORDER)
            && !retained.contains(k.as_str())
    });
    if unlisted {
        return Err(PatchError::RetainKeysFormat);
    }
    original.retain(|k, _| retained.contains(k.as_str()));
    Ok(())
}

/// `$setElementOrder/<field>`: merges the field's list (if the patch has one) and orders
/// the result: the listed items in the directive's order, server-only items interleaved
/// where the server had them. Removes both keys from the patch.
fn apply_element_orders<S: PatchSchema>(
    original: &mut Object,
    patch: &mut Object,
    schema: Option<&S>,
) -> Result<(), PatchError> {
    let keys: Vec<String> = patch
        .keys()
        .filter(|k| k.starts_with(SET_ELEMENT_ORDER))
        .cloned()
        .collect();
    for key in keys {
        let order = patch.remove(&key).unwrap_or_default();
        let Value::Array(order) = order else {
            return Err(bad_arg_list(&order));
        };
        let field_name = directive_target(&key, SET_ELEMENT_ORDER)
            .ok_or(PatchError::SetElementOrderFormat)?
            .to_owned();
        let original_list = list_at(original, &field_name)?;
        let patch_list = list_at(patch, &field_name)?;
        let field = schema.and_then(|s| s.field(&field_name));
        let meta = meta_of(field.as_ref())?;
        let merge_key = meta.merge_key.as_deref().unwrap_or("");
        check_order(patch_list.as_deref().unwrap_or_default(), &order, merge_key)?;

        let merged = match (&original_list, &patch_list) {
            (Some(o), None) => o.clone(),
            (None, Some(p)) => match directives::new_value(Value::Array(p.clone()), false) {
                Some(Value::Array(items)) => items,
                _ => continue,
            },
            (Some(o), Some(p)) => {
                merge_list_field(o.clone(), p.clone(), field.as_ref(), &meta, false)?
            }
            (None, None) => continue,
        };
        let (ours, server_only) = partition(merged, &order, merge_key)?;
        let original_items = original_list.unwrap_or_default();
        let kind = element_kind(&[&original_items, patch_list.as_deref().unwrap_or_default()])?;
        let ordered =
            normalize_element_order(ours, server_only, &order, &original_items, merge_key, kind)?;
        original.insert(field_name.clone(), Value::Array(ordered));
        patch.remove(&field_name);
    }
    Ok(())
}

/// The list under `name`, if any; anything else there is an error.
fn list_at(object: &Object, name: &str) -> Result<Option<Vec<Value>>, PatchError> {
    match object.get(name) {
        None => Ok(None),
        Some(Value::Array(items)) => Ok(Some(items.clone())),
        Some(other) => Err(bad_arg_list(other)),
    }
}

fn bad_arg_list(actual: &Value) -> PatchError {
    PatchError::BadArgType {
        expected: "[]interface {}",
        actual: gofmt::type_name(actual).to_owned(),
    }
}

/// Checks that the patch list's items (deletions and other `$patch` items aside) appear
/// in the `$setElementOrder` list, in the same relative order.
fn check_order(patch_list: &[Value], order: &[Value], merge_key: &str) -> Result<(), PatchError> {
    if order.is_empty() || patch_list.is_empty() {
        return Ok(());
    }
    let mut kept = Vec::with_capacity(patch_list.len());
    for item in patch_list {
        if merge_key.is_empty() {
            kept.push(item);
            continue;
        }
        let Some(map) = item.as_object() else {
            return Err(list::bad_arg_map(item));
        };
        if map.get(PATCH).and_then(Value::as_str) != Some("delete") {
            kept.push(item);
        }
    }
    let (mut p, mut o) = (0, 0);
    while p < kept.len() && o < order.len() {
        if kept[p].get(PATCH).is_some() {
            p += 1;
            continue;
        }
        if same_key(kept[p], &order[o], merge_key)? {
            p += 1;
        }
        o += 1;
    }
    if p < kept.len() && o >= order.len() {
        return Err(PatchError::Other(format!(
            "the order in patch list:\n{}\n doesn't match {SET_ELEMENT_ORDER} list:\n{}",
            gofmt::v(&Value::Array(patch_list.to_vec())),
            gofmt::v(&Value::Array(order.to_vec())),
        )));
    }
    Ok(())
}

/// Whether two list items are the same item: equal values, or with a merge key, maps
/// with equal merge key values (both must be maps that have it).
fn same_key(left: &Value, right: &Value, merge_key: &str) -> Result<bool, PatchError> {
    if merge_key.is_empty() {
        return Ok(left == right);
    }
    let (Some(l), Some(r)) = (left.as_object(), right.as_object()) else {
        let odd = if left.is_object() { right } else { left };
        return Err(list::bad_arg_map(odd));
    };
    match (l.get(merge_key), r.get(merge_key)) {
        (Some(a), Some(b)) => Ok(a == b),
        (None, _) => Err(list::no_merge_key(left, merge_key)),
        (_, None) => Err(list::no_merge_key(right, merge_key)),
    }
}
