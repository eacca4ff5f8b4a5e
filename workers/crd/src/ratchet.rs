//! Validation ratcheting on update (upstream's `CRDValidationRatcheting`): an error whose
//! value is unchanged from the correlated old value is dropped, so objects stored before a
//! schema was tightened can still be updated elsewhere.

use crate::error::{ErrorKind, FieldError};
use crate::structural::{AdditionalProperties, Structural};
use crate::validate::json_eq;
use serde_json::Value;

/// A step of an error's field path.
enum Tok<'a> {
    Name(&'a str),
    Index(usize),
}

fn tokens(path: &str) -> Option<Vec<Tok<'_>>> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let close = r.find(']')?;
            let inner = &r[..close];
            out.push(match inner.parse() {
                Ok(i) => Tok::Index(i),
                Err(_) => Tok::Name(inner),
            });
            rest = &r[close + 1..];
        } else {
            let r = rest.strip_prefix('.').unwrap_or(rest);
            let end = r.find(['.', '[']).unwrap_or(r.len());
            if end == 0 {
                return None;
            }
            out.push(Tok::Name(&r[..end]));
            rest = &r[end..];
        }
    }
    Some(out)
}

fn child_schema<'a>(s: Option<&'a Structural>, name: &str) -> Option<&'a Structural> {
    let s = s?;
    s.properties.get(name).or(match &s.additional_properties {
        Some(AdditionalProperties::Schema(ap)) => Some(&**ap),
        _ => None,
    })
}

/// Whether the value at `path` is the same in `new` and its correlated place in `old`.
fn unchanged(schema: &Structural, new: &Value, old: &Value, path: &str) -> bool {
    let Some(toks) = tokens(path) else {
        return false;
    };
    let (mut s, mut n, mut o) = (Some(schema), new, old);
    for t in toks {
        match t {
            Tok::Name(k) => {
                let (Some(nv), Some(ov)) = (n.get(k), o.get(k)) else {
                    return false;
                };
                s = child_schema(s, k);
                n = nv;
                o = ov;
            }
            Tok::Index(i) => {
                let Some(nv) = n.get(i) else { return false };
                let map_keys = s.filter(|s| s.list_type.as_deref() == Some("map"));
                let Some(ls) = map_keys else {
                    // only list-type map items correlate with old items
                    return false;
                };
                let Some(ov) = o
                    .as_array()
                    .and_then(|a| a.iter().find(|x| same_keys(ls, nv, x)))
                else {
                    return false;
                };
                s = ls.items.as_deref();
                n = nv;
                o = ov;
            }
        }
    }
    json_eq(n, o)
}

fn same_keys(s: &Structural, a: &Value, b: &Value) -> bool {
    s.list_map_keys.iter().all(|k| match (a.get(k), b.get(k)) {
        (Some(x), Some(y)) => json_eq(x, y),
        (None, None) => true,
        _ => false,
    })
}

/// Drops the errors of `errs` whose value did not change between `old` and `new`.
pub(crate) fn ratchet(
    schema: &Structural,
    new: &Value,
    old: &Value,
    errs: Vec<FieldError>,
) -> Vec<FieldError> {
    errs.into_iter()
        .filter(|e| {
            let path = match e.kind {
                // a missing field: the object that requires it is what must be unchanged
                ErrorKind::Required => match e.field.rfind(['.', '[']) {
                    Some(i) => &e.field[..i],
                    None => "",
                },
                _ => e.field.as_str(),
            };
            if path == "<nil>" {
                return true;
            }
            !unchanged(schema, new, old, path)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unchanged_errors_are_dropped() {
        let s = Structural::from_json(&json!({"type": "object", "properties": {"spec": {"type": "object",
            "required": ["need"],
            "properties": {
                "a": {"type": "string", "maxLength": 1}, "b": {"type": "string", "maxLength": 1}, "need": {"type": "string"},
                "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                          "items": {"type": "object", "required": ["name"], "properties": {
                              "name": {"type": "string"}, "p": {"type": "integer", "maximum": 10}}}}}}}}))
        .unwrap();
        let old = json!({"spec": {"a": "long", "b": "x", "ports": [{"name": "x", "p": 99}, {"name": "y", "p": 1}]}});
        let new = json!({"spec": {"a": "long", "b": "longer", "ports": [{"name": "y", "p": 50}, {"name": "x", "p": 99}]}});
        let errs = crate::validate_object(&s, &new, None);
        assert_eq!(errs.len(), 5, "{errs:#?}");
        let kept: Vec<String> = ratchet(&s, &new, &old, errs)
            .iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(
            kept,
            vec![
                "spec.b: Too long: may not be more than 1 byte",
                "spec.need: Required value",
                "spec.ports[0].p: Invalid value: 50: spec.ports[0].p in body should be less than or equal to 10",
            ]
        );
    }
}
