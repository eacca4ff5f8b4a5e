//! Merging an applied configuration into a live object (`Merge`, the right side wins) and
//! removing paths from a value (`RemoveItems`), as structured-merge-diff does both.

use serde_json::{Map, Value};

use crate::items::{elements, is_empty_collection};
use crate::path::PathElement;
use crate::schema::{field_of, kind_at, Kind, ListKind, Schema};
use crate::set::Set;

/// `config` merged into `live`: granular maps merge field by field and associative lists
/// element by element; everything else is taken from `config`.
pub fn merge<S: Schema>(live: &Value, config: &Value, schema: &S) -> Value {
    walk(Some(schema), Some(live), Some(config)).unwrap_or(Value::Null)
}

fn walk<S: Schema>(schema: Option<&S>, l: Option<&Value>, r: Option<&Value>) -> Option<Value> {
    let (l, r) = match (l, r) {
        (None, None) => return None,
        (None, Some(r)) => return Some(r.clone()),
        (Some(l), None) => return Some(l.clone()),
        (Some(l), Some(r)) => (l, r),
    };
    let kind = kind_at(schema, Some(r));
    if kind != kind_at(schema, Some(l)) {
        return Some(r.clone());
    }
    match kind {
        _ if is_empty_collection(Some(l)) && is_empty_collection(Some(r)) => Some(r.clone()),
        Kind::Scalar(_) | Kind::List(ListKind::Atomic) | Kind::Map { atomic: true } => {
            Some(r.clone())
        }
        Kind::List(kind) => Some(list(schema, &kind, l, r)),
        Kind::Map { .. } => {
            let empty = Map::new();
            let lm = l.as_object().unwrap_or(&empty);
            let rm = r.as_object().unwrap_or(&empty);
            let mut out = Map::new();
            for (k, lv) in lm {
                let (fs, _) = field_of(schema, k);
                if let Some(v) = walk(fs.as_ref(), Some(lv), rm.get(k)) {
                    out.insert(k.clone(), v);
                }
            }
            for (k, rv) in rm {
                if !lm.contains_key(k) {
                    out.insert(k.clone(), rv.clone());
                }
            }
            Some(if out.is_empty() {
                Value::Null
            } else {
                Value::Object(out)
            })
        }
        Kind::Untyped => unreachable!("kind_at deduces untyped places"),
    }
}

/// Merges an associative list: elements both sides have merge; the order follows the
/// configuration's, with the live object's other elements kept where they stood
/// relative to the shared ones.
fn list<S: Schema>(schema: Option<&S>, kind: &ListKind, l: &Value, r: &Value) -> Value {
    let empty = Vec::new();
    let li = l.as_array().unwrap_or(&empty);
    let ri = r.as_array().unwrap_or(&empty);
    let item = schema.and_then(Schema::item);
    let (Ok(lp), Ok(rp)) = (
        elements(kind, item.as_ref(), li),
        elements(kind, item.as_ref(), ri),
    ) else {
        return r.clone();
    };
    let find = |pes: &[PathElement], pe: &PathElement| pes.iter().position(|p| p == pe);
    // The first live item of each element (a duplicate later in the live list merges as
    // null, as upstream's index keeps only the first).
    let l_first = |pe: &PathElement| find(&lp, pe).map(|i| &li[i]);
    let mut shared: std::collections::VecDeque<&PathElement> =
        rp.iter().filter(|pe| find(&lp, pe).is_some()).collect();
    let mut next_shared = shared.pop_front();
    let mut merged_r: Vec<&PathElement> = Vec::new();
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < lp.len() || j < rp.len() {
        if i < lp.len() && j < rp.len() {
            let pe = &lp[i];
            if *pe == rp[j] {
                merged_r.push(pe);
                if let Some(v) = walk(item.as_ref(), l_first(pe), Some(&ri[j])) {
                    out.push(v);
                }
                i += 1;
                j += 1;
                next_shared = shared.pop_front();
                continue;
            }
            if find(&rp, pe).is_some() && next_shared.is_some_and(|n| n != pe) {
                i += 1;
                continue;
            }
        }
        if i < lp.len() {
            let pe = &lp[i];
            if find(&rp, pe).is_none() {
                out.push(li[i].clone());
                i += 1;
                continue;
            } else if merged_r.contains(&pe) {
                i += 1;
            }
        }
        if j < rp.len() {
            let pe = &rp[j];
            merged_r.push(pe);
            if let Some(v) = walk(item.as_ref(), l_first(pe), Some(&ri[j])) {
                out.push(v);
            }
            j += 1;
            if next_shared.is_some_and(|n| n == pe) {
                next_shared = shared.pop_front();
            }
        }
    }
    if out.is_empty() {
        Value::Null
    } else {
        Value::Array(out)
    }
}

/// `v` without the paths of `remove` (members go with everything below them).
pub fn remove_items<S: Schema>(v: &Value, remove: &Set, schema: &S) -> Value {
    remove_walk(v, remove, Some(schema))
}

fn remove_walk<S: Schema>(v: &Value, remove: &Set, schema: Option<&S>) -> Value {
    match kind_at(schema, Some(v)) {
        Kind::Scalar(_) => v.clone(),
        Kind::List(kind) => {
            let Value::Array(items) = v else {
                return Value::Null;
            };
            if items.is_empty() || kind == ListKind::Atomic {
                return Value::Null;
            }
            let item = schema.and_then(Schema::item);
            let Ok(pes) = elements(&kind, item.as_ref(), items) else {
                return v.clone();
            };
            let mut out = Vec::new();
            for (pe, child) in pes.iter().zip(items) {
                if remove.has_member(pe) {
                    continue;
                }
                match remove.with_prefix(pe) {
                    Some(sub) => out.push(remove_walk(child, sub, item.as_ref())),
                    None => out.push(child.clone()),
                }
            }
            if out.is_empty() {
                Value::Null
            } else {
                Value::Array(out)
            }
        }
        Kind::Map { atomic } => {
            let Value::Object(m) = v else {
                return Value::Null;
            };
            if m.is_empty() || atomic {
                return Value::Null;
            }
            let mut out = Map::new();
            for (k, child) in m {
                let pe = PathElement::Field(k.clone());
                if remove.has_member(&pe) {
                    continue;
                }
                match remove.with_prefix(&pe) {
                    Some(sub) => {
                        let (fs, _) = field_of(schema, k);
                        out.insert(k.clone(), remove_walk(child, sub, fs.as_ref()));
                    }
                    None => {
                        out.insert(k.clone(), child.clone());
                    }
                }
            }
            if out.is_empty() {
                Value::Null
            } else {
                Value::Object(out)
            }
        }
        Kind::Untyped => unreachable!("kind_at deduces untyped places"),
    }
}
