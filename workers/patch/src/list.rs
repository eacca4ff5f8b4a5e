//! Merging lists: elements by merge key or primitives as a set, `$patch` elements, and
//! the order upstream gives the merged list.
//!
//! Order rules (upstream's, checked against its test tables): items the patch names keep
//! the patch's relative order (or `$setElementOrder`'s), items only the server has keep
//! the server's relative order, and the two runs are interleaved by walking both and
//! taking the server item first only when both items have a known server position and
//! the server item comes earlier. So `[1,2]` merged with `[3]` is `[3,1,2]`, and
//! `$setElementOrder: [1,2,3]` makes it `[1,2,3]`.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::directives::{self, PATCH};
use crate::gofmt;
use crate::gosort;
use crate::merge::merge_map;
use crate::schema::PatchSchema;
use crate::PatchError;

/// What the elements of a list are (all must agree, as upstream requires).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ElementKind {
    /// Objects, matched by merge key.
    Map,
    /// Strings, numbers or booleans, compared by value.
    Scalar,
}

/// The common element kind of `lists`, upstream's checks and texts: lists of lists are
/// refused, mixed element types are refused, and so are lists with no element at all.
pub(crate) fn element_kind(lists: &[&[Value]]) -> Result<ElementKind, PatchError> {
    let mut first: Option<&Value> = None;
    for item in lists.iter().flat_map(|l| l.iter()) {
        match first {
            None => {
                if item.is_array() {
                    return Err(PatchError::ListOfLists);
                }
                if item.is_null() {
                    return Err(not_identical(lists));
                }
                first = Some(item);
            }
            Some(f) if gofmt::type_name(f) != gofmt::type_name(item) => {
                return Err(not_identical(lists))
            }
            Some(_) => {}
        }
    }
    match first {
        Some(Value::Object(_)) => Ok(ElementKind::Map),
        Some(_) => Ok(ElementKind::Scalar),
        None => Err(PatchError::Other(
            "no elements in any of the given slices".into(),
        )),
    }
}

fn not_identical(lists: &[&[Value]]) -> PatchError {
    let all = Value::Array(lists.iter().map(|l| Value::Array(l.to_vec())).collect());
    PatchError::Other(format!(
        "list element types are not identical: {}",
        gofmt::v(&all)
    ))
}

/// Merges a patch list into an original list of a field with `patchStrategy: merge`.
/// `is_delete_list`: `patch` is the field's `$deleteFromPrimitiveList` list.
pub(crate) fn merge_slice<S: PatchSchema>(
    original: Vec<Value>,
    patch: Vec<Value>,
    element: Option<&S>,
    merge_key: &str,
    is_delete_list: bool,
) -> Result<Vec<Value>, PatchError> {
    if original.is_empty() && patch.is_empty() {
        return Ok(original);
    }
    let kind = element_kind(&[&original, &patch])?;
    let (merged, patch_order, server_order) = match kind {
        ElementKind::Scalar => {
            if is_delete_list {
                let gone: HashSet<String> = patch.iter().map(canonical).collect();
                return Ok(original
                    .into_iter()
                    .filter(|v| !gone.contains(&canonical(v)))
                    .collect());
            }
            let mut seen = HashSet::new();
            let merged = original
                .iter()
                .chain(patch.iter())
                .filter(|v| seen.insert(canonical(v)))
                .cloned()
                .collect();
            (merged, patch, original)
        }
        ElementKind::Map => {
            if merge_key.is_empty() {
                return Err(PatchError::Other(
                    "cannot merge lists without merge key".into(),
                ));
            }
            let (original, plain) = apply_special_elements(original, patch, merge_key)?;
            let merged = merge_by_key(original.clone(), &plain, element, merge_key)?;
            (merged, plain, original)
        }
    };
    let (ours, server_only) = partition(merged, &patch_order, merge_key)?;
    normalize_element_order(
        ours,
        server_only,
        &patch_order,
        &server_order,
        merge_key,
        kind,
    )
}

/// Handles the elements that carry `$patch`: `delete` removes every original element
/// with that merge key value, `replace` makes the plain patch elements the whole list.
/// Returns the new original and the plain patch elements (none after a replace).
fn apply_special_elements(
    mut original: Vec<Value>,
    patch: Vec<Value>,
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>), PatchError> {
    let mut plain = Vec::with_capacity(patch.len());
    let mut deleted: HashSet<String> = HashSet::new();
    let mut replace = false;
    for item in patch {
        let Some(directive) = item.get(PATCH) else {
            plain.push(item);
            continue;
        };
        match directive.as_str() {
            Some("delete") => {
                let Some(value) = item.get(merge_key) else {
                    return Err(no_merge_key(&item, merge_key));
                };
                deleted.insert(canonical(value));
            }
            Some("replace") => replace = true,
            Some("merge") => {
                return Err(PatchError::Other(
                    "merging lists cannot yet be specified in the patch".into(),
                ))
            }
            _ => {
                return Err(PatchError::UnknownPatchType {
                    directive: gofmt::s(directive),
                    map: gofmt::v(&item),
                })
            }
        }
    }
    if !deleted.is_empty() {
        original.retain(|o| {
            o.get(merge_key)
                .is_none_or(|k| !deleted.contains(&canonical(k)))
        });
    }
    if replace {
        let list = plain.into_iter().map(directives::strip).collect();
        return Ok((list, Vec::new()));
    }
    Ok((original, plain))
}

/// Merges each plain patch element into the first list element with the same merge key
/// value, or appends it.
fn merge_by_key<S: PatchSchema>(
    mut merged: Vec<Value>,
    plain: &[Value],
    element: Option<&S>,
    merge_key: &str,
) -> Result<Vec<Value>, PatchError> {
    let mut at: HashMap<String, usize> = HashMap::new();
    for (i, item) in merged.iter().enumerate() {
        if let Some(k) = item.get(merge_key) {
            at.entry(canonical(k)).or_insert(i);
        }
    }
    for item in plain {
        let Some(key_value) = item.get(merge_key) else {
            return Err(no_merge_key(item, merge_key));
        };
        let key_value = canonical(key_value);
        match at.get(&key_value) {
            Some(&i) => {
                let current = std::mem::take(&mut merged[i]);
                let (Value::Object(current), Value::Object(p)) = (current, item.clone()) else {
                    return Err(PatchError::Other(format!(
                        "value for key {i} is not a map."
                    )));
                };
                merged[i] = Value::Object(merge_map(current, p, element)?);
            }
            None => {
                at.insert(key_value, merged.len());
                merged.push(directives::strip(item.clone()));
            }
        }
    }
    Ok(merged)
}

/// Splits `merged` into the items `by` names and the others, each in `merged`'s order.
/// With a merge key, items are matched by its value (every item must have it).
pub(crate) fn partition(
    merged: Vec<Value>,
    by: &[Value],
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>), PatchError> {
    let named: HashSet<String> = if merge_key.is_empty() {
        by.iter().map(canonical).collect()
    } else {
        if !merged.is_empty() {
            if let Some(i) = by.iter().position(|b| !b.is_object()) {
                return Err(PatchError::Other(format!(
                    "value for key {i} is not a map."
                )));
            }
        }
        by.iter()
            .filter_map(|b| b.get(merge_key))
            .map(canonical)
            .collect()
    };
    let mut ours = Vec::new();
    let mut server_only = Vec::new();
    for item in merged {
        let key = if merge_key.is_empty() {
            canonical(&item)
        } else {
            let Some(map) = item.as_object() else {
                return Err(bad_arg_map(&item));
            };
            let Some(k) = map.get(merge_key) else {
                return Err(no_merge_key(&item, merge_key));
            };
            canonical(k)
        };
        if named.contains(&key) {
            ours.push(item);
        } else {
            server_only.push(item);
        }
    }
    Ok((ours, server_only))
}

/// Sorts `ours` by `patch_order` and `server_only` by `server_order`, then interleaves
/// them (see the module docs).
pub(crate) fn normalize_element_order(
    ours: Vec<Value>,
    server_only: Vec<Value>,
    patch_order: &[Value],
    server_order: &[Value],
    merge_key: &str,
    kind: ElementKind,
) -> Result<Vec<Value>, PatchError> {
    let ours = sort_by_order(ours, patch_order, merge_key, kind)?;
    let server_only = sort_by_order(server_only, server_order, merge_key, kind)?;
    let positions = Positions::new(server_order, merge_key, kind);
    let left: Vec<Option<usize>> = server_only.iter().map(|v| positions.of(v)).collect();
    let right: Vec<Option<usize>> = ours.iter().map(|v| positions.of(v)).collect();
    let mut out = Vec::with_capacity(ours.len() + server_only.len());
    let (mut li, mut ri) = (0, 0);
    let mut left_items = server_only.into_iter();
    let mut right_items = ours.into_iter();
    while li < left.len() || ri < right.len() {
        let take_left = if li >= left.len() {
            false
        } else if ri >= right.len() {
            true
        } else {
            matches!((left[li], right[ri]), (Some(l), Some(r)) if l < r)
        };
        if take_left {
            out.extend(left_items.next());
            li += 1;
        } else {
            out.extend(right_items.next());
            ri += 1;
        }
    }
    Ok(out)
}

/// Stable-sorts `items` by their position in `order`; `$patch: delete` items go last.
///
/// Upstream's comparison says "less" whenever either item is missing from `order`, which
/// is not an ordering; with such items present Go's sort is replayed so the result
/// matches upstream's.
fn sort_by_order(
    items: Vec<Value>,
    order: &[Value],
    merge_key: &str,
    kind: ElementKind,
) -> Result<Vec<Value>, PatchError> {
    let (items, deletes) = if kind == ElementKind::Map {
        for item in items.iter().chain(order.iter()) {
            let Some(map) = item.as_object() else {
                return Err(bad_arg_map(item));
            };
            if !map.contains_key(merge_key) {
                return Err(no_merge_key(item, merge_key));
            }
        }
        items
            .into_iter()
            .partition::<Vec<_>, _>(|v| v.get(PATCH).and_then(Value::as_str) != Some("delete"))
    } else {
        (items, Vec::new())
    };
    let positions = Positions::new(order, merge_key, kind);
    let mut keyed: Vec<(Option<usize>, Value)> =
        items.into_iter().map(|v| (positions.of(&v), v)).collect();
    if keyed.iter().all(|(p, _)| p.is_some()) {
        keyed.sort_by_key(|(p, _)| *p);
    } else {
        let less = |a: &(Option<usize>, Value), b: &(Option<usize>, Value)| match (a.0, b.0) {
            (Some(a), Some(b)) => a < b,
            _ => true,
        };
        gosort::stable_sort(&mut keyed, &less);
    }
    let mut sorted: Vec<Value> = keyed.into_iter().map(|(_, v)| v).collect();
    sorted.extend(deletes);
    Ok(sorted)
}

/// First positions of values in a list: by merge key value for lists of maps (a missing
/// key counts as null, as upstream's lookup does), by value otherwise.
struct Positions {
    first: HashMap<String, usize>,
    by_key: Option<String>,
}

impl Positions {
    fn new(list: &[Value], merge_key: &str, kind: ElementKind) -> Self {
        let by_key = (kind == ElementKind::Map).then(|| merge_key.to_owned());
        let mut first = HashMap::new();
        for (i, v) in list.iter().enumerate() {
            first.entry(Self::key(by_key.as_deref(), v)).or_insert(i);
        }
        Self { first, by_key }
    }

    fn key(by_key: Option<&str>, v: &Value) -> String {
        match by_key {
            Some(k) => canonical(v.as_object().and_then(|m| m.get(k)).unwrap_or(&Value::Null)),
            None => canonical(v),
        }
    }

    fn of(&self, v: &Value) -> Option<usize> {
        self.first
            .get(&Self::key(self.by_key.as_deref(), v))
            .copied()
    }
}

/// A string equal for equal JSON values (objects have sorted keys), used to hash values.
fn canonical(v: &Value) -> String {
    v.to_string()
}

pub(crate) fn no_merge_key(item: &Value, merge_key: &str) -> PatchError {
    PatchError::NoMergeKey {
        map: gofmt::v(item),
        key: merge_key.to_owned(),
    }
}

pub(crate) fn bad_arg_map(actual: &Value) -> PatchError {
    PatchError::BadArgType {
        expected: "map[string]interface {}",
        actual: gofmt::type_name(actual).to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoSchema;
    use serde_json::json;

    fn list(v: Value) -> Vec<Value> {
        match v {
            Value::Array(a) => a,
            _ => unreachable!("test input is a list"),
        }
    }

    fn scalars(original: Value, patch: Value) -> Value {
        Value::Array(merge_slice::<NoSchema>(list(original), list(patch), None, "", false).unwrap())
    }

    #[test]
    fn scalar_sets_keep_upstream_order() {
        assert_eq!(scalars(json!([1, 2]), json!([3])), json!([3, 1, 2]));
        assert_eq!(
            scalars(json!(["a", "b", "c"]), json!(["b", "d"])),
            json!(["a", "b", "d", "c"])
        );
        assert_eq!(scalars(json!(["a", "a"]), json!(["a"])), json!(["a"]));
        assert_eq!(scalars(json!([]), json!(["x", "y"])), json!(["x", "y"]));
    }

    #[test]
    fn delete_list_removes_values() {
        let out = merge_slice::<NoSchema>(
            list(json!(["a", "b", "a"])),
            list(json!(["a"])),
            None,
            "",
            true,
        )
        .unwrap();
        assert_eq!(out, list(json!(["b"])));
    }

    #[test]
    fn kinds() {
        assert_eq!(
            element_kind(&[&list(json!([[1]]))]),
            Err(PatchError::ListOfLists)
        );
        assert_eq!(
            element_kind(&[&list(json!([1])), &list(json!(["a"]))])
                .unwrap_err()
                .to_string(),
            "list element types are not identical: [[1] [a]]"
        );
        assert!(element_kind(&[&list(json!([1])), &list(json!([1.5]))]).is_err());
        assert!(element_kind(&[&list(json!([null]))]).is_err());
        assert!(element_kind(&[&[], &[]]).is_err());
    }

    #[test]
    fn insertion_sort_replays_go_for_unknown_items() {
        // None of the items are in the order list: Go's insertion sort with an
        // always-"less" comparison reverses a short list.
        let out =
            sort_by_order(list(json!(["a", "b", "c"])), &[], "", ElementKind::Scalar).unwrap();
        assert_eq!(out, list(json!(["c", "b", "a"])));
    }
}
