//! The fields a value sets (`ToFieldSet`), the named-field closure used when pruning,
//! and the check an applied configuration must pass against its type.

use serde_json::Value;

use crate::items::{elements, item_element};
use crate::path::PathElement;
use crate::schema::{field_of, kind_at, Kind, ListKind, ScalarKind, Schema};
use crate::set::Set;

/// Every field `v` sets, as upstream's `ToFieldSet`: scalars and atomic values are
/// members; a granular map's declared fields are members only when null or empty, its
/// undeclared (map) entries always; each list element is a member beside its fields.
pub fn to_field_set<S: Schema>(v: &Value, schema: &S) -> Set {
    let mut out = Set::new();
    walk(&mut Vec::new(), Some(schema), v, &mut out);
    out
}

fn walk<S: Schema>(path: &mut Vec<PathElement>, schema: Option<&S>, v: &Value, out: &mut Set) {
    match kind_at(schema, Some(v)) {
        Kind::Scalar(_) | Kind::List(ListKind::Atomic) | Kind::Map { atomic: true } => {
            out.insert(path)
        }
        Kind::List(kind) => {
            let Value::Array(items) = v else {
                return;
            };
            let item = schema.and_then(Schema::item);
            let Ok(pes) = elements(&kind, item.as_ref(), items) else {
                out.insert(path);
                return;
            };
            for (pe, child) in pes.into_iter().zip(items) {
                path.push(pe);
                walk(path, item.as_ref(), child, out);
                out.insert(path);
                path.pop();
            }
        }
        Kind::Map { atomic: false } => {
            let Value::Object(m) = v else {
                return;
            };
            for (k, child) in m {
                let (fs, declared) = field_of(schema, k);
                path.push(PathElement::Field(k.clone()));
                walk(path, fs.as_ref(), child, out);
                let empty = matches!(child, Value::Null)
                    || matches!(child, Value::Object(c) if c.is_empty());
                if empty || !declared {
                    out.insert(path);
                }
                path.pop();
            }
        }
        Kind::Untyped => unreachable!("kind_at deduces untyped places"),
    }
}

/// `set` with every declared field that has paths below it also a member, as upstream's
/// `EnsureNamedFieldsAreMembers` (so pruning a struct's last field prunes the struct).
pub fn ensure_named_fields_are_members<S: Schema>(set: &Set, schema: &S) -> Set {
    ensure(set, Some(schema))
}

fn ensure<S: Schema>(set: &Set, schema: Option<&S>) -> Set {
    let mut out = Set::new();
    for pe in set.members() {
        out.insert_member(pe.clone());
    }
    let map_like = matches!(schema.map(Schema::kind), Some(Kind::Map { .. }));
    let mut children = std::collections::BTreeMap::new();
    for (pe, child) in set.children() {
        let sub = match pe {
            PathElement::Field(name) => {
                let declared = if map_like {
                    schema.and_then(|s| s.field(name))
                } else {
                    None
                };
                if declared.is_some() {
                    out.insert_member(pe.clone());
                }
                declared.or_else(|| {
                    if map_like {
                        schema.and_then(Schema::values)
                    } else {
                        None
                    }
                })
            }
            PathElement::Key(_) => match schema.map(Schema::kind) {
                Some(Kind::List(_)) => schema.and_then(Schema::item),
                _ => None,
            },
            _ => None,
        };
        children.insert(pe.clone(), ensure(child, sub.as_ref()));
    }
    out.replace_children(children);
    out
}

/// Checks an applied configuration against its type as upstream types it: undeclared
/// fields, wrongly typed values, bad or duplicate list keys. The message lists every
/// problem as upstream's `ValidationErrors` do.
pub fn check_config<S: Schema>(v: &Value, schema: &S) -> Result<(), String> {
    let mut errs = Vec::new();
    check(&mut Vec::new(), Some(schema), v, &mut errs);
    match errs.len() {
        0 => Ok(()),
        1 => Err(errs.remove(0)),
        _ => {
            let mut s = String::from("errors:");
            for e in errs {
                s.push_str("\n  ");
                s.push_str(&e);
            }
            Err(s)
        }
    }
}

fn at(path: &[PathElement], msg: String) -> String {
    if path.is_empty() {
        msg
    } else {
        let p: String = path.iter().map(ToString::to_string).collect();
        format!("{p}: {msg}")
    }
}

fn check<S: Schema>(
    path: &mut Vec<PathElement>,
    schema: Option<&S>,
    v: &Value,
    errs: &mut Vec<String>,
) {
    match kind_at(schema, Some(v)) {
        Kind::Scalar(t) => {
            if let Some(msg) = scalar_error(t, v) {
                errs.push(at(path, msg));
            }
        }
        Kind::List(kind) => {
            let items = match v {
                Value::Null => return,
                Value::Array(items) => items,
                other => return errs.push(at(path, format!("expected list, got {}", go_v(other)))),
            };
            let item = schema.and_then(Schema::item);
            let mut seen: Vec<PathElement> = Vec::new();
            for (i, child) in items.iter().enumerate() {
                if kind == ListKind::Atomic {
                    path.push(PathElement::Index(i));
                    check(path, item.as_ref(), child, errs);
                    path.pop();
                    continue;
                }
                let pe = match item_element(&kind, item.as_ref(), child) {
                    Ok(pe) => pe,
                    Err(e) => {
                        errs.push(at(path, format!("element {i}: {e}")));
                        continue;
                    }
                };
                if seen.contains(&pe) {
                    errs.push(at(path, format!("duplicate entries for key {pe}")));
                    continue;
                }
                seen.push(pe.clone());
                path.push(pe);
                check(path, item.as_ref(), child, errs);
                path.pop();
            }
        }
        Kind::Map { .. } => {
            let m = match v {
                Value::Null => return,
                Value::Object(m) => m,
                other => return errs.push(at(path, format!("expected map, got {}", go_v(other)))),
            };
            for (k, child) in m {
                path.push(PathElement::Field(k.clone()));
                let (fs, declared) = field_of(schema, k);
                if !declared && fs.is_none() && schema.is_some_and(|s| s.kind() != Kind::Untyped) {
                    errs.push(at(path, "field not declared in schema".into()));
                } else {
                    check(path, fs.as_ref(), child, errs);
                }
                path.pop();
            }
        }
        Kind::Untyped => {}
    }
}

fn scalar_error(t: ScalarKind, v: &Value) -> Option<String> {
    let ok = matches!(
        (t, v),
        (_, Value::Null)
            | (ScalarKind::Numeric, Value::Number(_))
            | (ScalarKind::String, Value::String(_))
            | (ScalarKind::Boolean, Value::Bool(_))
            | (
                ScalarKind::Any,
                Value::Number(_) | Value::String(_) | Value::Bool(_)
            )
    );
    if ok {
        return None;
    }
    Some(match t {
        ScalarKind::Numeric => format!("expected numeric (int or float), got {}", go_type(v)),
        ScalarKind::String => format!(
            "expected string, got &value.valueUnstructured{{Value:{}}}",
            go_sharp_v(v)
        ),
        ScalarKind::Boolean => format!("expected boolean, got {}", go_v(v)),
        ScalarKind::Any => format!("expected any scalar, got {}", go_v(v)),
    })
}

/// Go's `%T` of a decoded JSON value.
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() || n.is_u64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// Go's `%v` of a value wrapper holding a decoded JSON value.
fn go_v(v: &Value) -> String {
    format!("&{{{}}}", go_plain(v))
}

fn go_plain(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::String(s) => s.clone(),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(go_plain).collect();
            format!("[{}]", parts.join(" "))
        }
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{k}:{}", go_plain(v)))
                .collect();
            format!("map[{}]", parts.join(" "))
        }
        other => other.to_string(),
    }
}

/// Go's `%#v` of a decoded JSON value.
fn go_sharp_v(v: &Value) -> String {
    match v {
        Value::Null => "interface {}(nil)".into(),
        Value::String(s) => format!("{s:?}"),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(go_sharp_v).collect();
            format!("[]interface {{}}{{{}}}", parts.join(", "))
        }
        Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{k:?}:{}", go_sharp_v(v)))
                .collect();
            format!("map[string]interface {{}}{{{}}}", parts.join(", "))
        }
        other => other.to_string(),
    }
}
