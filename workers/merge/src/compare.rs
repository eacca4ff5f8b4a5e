//! What changed between two values of a type (`Compare`): the fields added, removed and
//! modified, each at the level upstream records it (an atomic value or a scalar as a
//! whole; a granular map or list element also as itself when it appears or goes).

use serde_json::Value;

use crate::items::{elements, is_empty_collection, values_equal};
use crate::path::PathElement;
use crate::schema::{field_of, kind_at, Kind, ListKind, Schema};
use crate::set::Set;

/// The outcome of comparing an old value with a new one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    pub removed: Set,
    pub modified: Set,
    pub added: Set,
}

impl Comparison {
    pub fn is_same(&self) -> bool {
        self.removed.is_empty() && self.modified.is_empty() && self.added.is_empty()
    }

    /// Without the paths `filter` drops (reset fields).
    pub fn excluding(&self, exclude: &Set) -> Comparison {
        Comparison {
            removed: self.removed.recursive_difference(exclude),
            modified: self.modified.recursive_difference(exclude),
            added: self.added.recursive_difference(exclude),
        }
    }
}

/// Compares `old` with `new`, both of type `schema`.
pub fn compare<S: Schema>(old: &Value, new: &Value, schema: &S) -> Comparison {
    let mut c = Comparison::default();
    walk(&mut Vec::new(), Some(schema), Some(old), Some(new), &mut c);
    c
}

fn leaf(path: &[PathElement], l: Option<&Value>, r: Option<&Value>, c: &mut Comparison) {
    match (l, r) {
        (None, _) => c.added.insert(path),
        (_, None) => c.removed.insert(path),
        (Some(a), Some(b)) if !values_equal(a, b) => c.modified.insert(path),
        _ => {}
    }
}

fn walk<S: Schema>(
    path: &mut Vec<PathElement>,
    schema: Option<&S>,
    l: Option<&Value>,
    r: Option<&Value>,
    c: &mut Comparison,
) {
    let kl = kind_at(schema, l.or(r));
    let kr = kind_at(schema, r.or(l));
    if kl != kr {
        return leaf(path, l, r, c);
    }
    let in_leaf = match kr {
        Kind::Scalar(_) | Kind::List(ListKind::Atomic) | Kind::Map { atomic: true } => {
            leaf(path, l, r, c);
            true
        }
        _ if is_empty_collection(l) && is_empty_collection(r) => {
            leaf(path, l, r, c);
            true
        }
        Kind::List(kind) => list(path, schema, &kind, l, r, c),
        Kind::Map { .. } => {
            let (lm, rm) = (l.and_then(Value::as_object), r.and_then(Value::as_object));
            let mut keys: Vec<&String> = lm.into_iter().flat_map(|m| m.keys()).collect();
            for k in rm.into_iter().flat_map(|m| m.keys()) {
                if !lm.is_some_and(|m| m.contains_key(k)) {
                    keys.push(k);
                }
            }
            for k in keys {
                let (fs, _) = field_of(schema, k);
                path.push(PathElement::Field(k.clone()));
                walk(
                    path,
                    fs.as_ref(),
                    lm.and_then(|m| m.get(k)),
                    rm.and_then(|m| m.get(k)),
                    c,
                );
                path.pop();
            }
            false
        }
        Kind::Untyped => unreachable!("kind_at deduces untyped places"),
    };
    if !in_leaf {
        match (l, r) {
            (None, _) => c.added.insert(path),
            (_, None) => c.removed.insert(path),
            _ => {}
        }
    }
}

/// Compares the elements of an associative list; answers whether the list was treated
/// as one leaf (elements that cannot be identified).
fn list<S: Schema>(
    path: &mut Vec<PathElement>,
    schema: Option<&S>,
    kind: &ListKind,
    l: Option<&Value>,
    r: Option<&Value>,
    c: &mut Comparison,
) -> bool {
    let empty = Vec::new();
    let li = l.and_then(Value::as_array).unwrap_or(&empty);
    let ri = r.and_then(Value::as_array).unwrap_or(&empty);
    let item = schema.and_then(Schema::item);
    let (Ok(lp), Ok(rp)) = (
        elements(kind, item.as_ref(), li),
        elements(kind, item.as_ref(), ri),
    ) else {
        leaf(path, l, r, c);
        return true;
    };
    // Each element with every item carrying it (duplicates are compared as a group).
    let mut groups: Vec<(PathElement, Vec<&Value>, Vec<&Value>)> = Vec::new();
    for (pe, v) in lp.into_iter().zip(li) {
        match groups.iter_mut().find(|g| g.0 == pe) {
            Some(g) => g.1.push(v),
            None => groups.push((pe, vec![v], Vec::new())),
        }
    }
    for (pe, v) in rp.into_iter().zip(ri) {
        match groups.iter_mut().find(|g| g.0 == pe) {
            Some(g) => g.2.push(v),
            None => groups.push((pe, Vec::new(), vec![v])),
        }
    }
    for (pe, ls, rs) in groups {
        path.push(pe);
        match (ls.len(), rs.len()) {
            (0..=1, 0..=1) => walk(
                path,
                item.as_ref(),
                ls.first().copied(),
                rs.first().copied(),
                c,
            ),
            (a, b) if a >= 2 && b >= 2 => {
                if a != b || ls.iter().zip(&rs).any(|(x, y)| !values_equal(x, y)) {
                    c.modified.insert(path);
                }
            }
            (a, _) if a >= 2 => {
                if let Some(first) = rs.first() {
                    walk(path, item.as_ref(), None, Some(first), c);
                }
                c.removed.insert(path);
            }
            _ => {
                if let Some(first) = ls.first() {
                    walk(path, item.as_ref(), Some(first), None, c);
                }
                c.added.insert(path);
            }
        }
        path.pop();
    }
    false
}
