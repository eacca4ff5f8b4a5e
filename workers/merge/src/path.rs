//! Path elements and paths, as structured-merge-diff names a place in an object: a field
//! of a map (`.spec`), an element of an associative list by its key fields
//! (`[name="nginx"]`), an element of a set by its value (`[="a"]`), or a position
//! (`[3]`).
//!
//! Elements order as upstream orders them (field < key < value < index; keys field by
//! field; values by [`compare_values`]), since sets are kept and written in that order.

use std::cmp::Ordering;
use std::fmt;

use serde_json::{Map, Number, Value};

/// One step into a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathElement {
    /// A field of a map or struct.
    Field(String),
    /// An element of an associative list, by its key fields (sorted by name).
    Key(Vec<(String, Value)>),
    /// An element of a set-like list, by its value.
    Value(Value),
    /// A position in a list.
    Index(usize),
}

impl PathElement {
    fn rank(&self) -> u8 {
        match self {
            PathElement::Field(_) => 0,
            PathElement::Key(_) => 1,
            PathElement::Value(_) => 2,
            PathElement::Index(_) => 3,
        }
    }

    /// A key element from key fields in any order.
    pub fn key(mut fields: Vec<(String, Value)>) -> Self {
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        PathElement::Key(fields)
    }

    /// The FieldsV1 spelling: `f:<name>`, `k:<json object>`, `v:<json>`, `i:<n>`.
    pub fn to_fields_key(&self) -> String {
        match self {
            PathElement::Field(name) => format!("f:{name}"),
            PathElement::Key(fields) => {
                let mut s = String::from("k:{");
                for (i, (name, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    s.push_str(&go_json(&Value::String(name.clone())));
                    s.push(':');
                    s.push_str(&go_json(v));
                }
                s.push('}');
                s
            }
            PathElement::Value(v) => format!("v:{}", go_json(v)),
            PathElement::Index(i) => format!("i:{i}"),
        }
    }

    /// Reads a FieldsV1 key. `Ok(None)` for a key of an unknown kind (skipped, as
    /// upstream skips them).
    pub fn from_fields_key(s: &str) -> Result<Option<Self>, String> {
        let b = s.as_bytes();
        if b.len() < 2 {
            return Err("key must be 2 characters long:".into());
        }
        if b[1] != b':' {
            return Err(format!("missing colon: {s}"));
        }
        let rest = &s[2..];
        Ok(Some(match b[0] {
            b'f' => PathElement::Field(rest.to_owned()),
            b'v' => PathElement::Value(serde_json::from_str(rest).map_err(|e| e.to_string())?),
            b'k' => {
                let m: Map<String, Value> =
                    serde_json::from_str(rest).map_err(|e| e.to_string())?;
                PathElement::key(m.into_iter().collect())
            }
            b'i' => PathElement::Index(rest.parse().map_err(|e| format!("{e}"))?),
            _ => return Ok(None),
        }))
    }
}

impl Ord for PathElement {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (PathElement::Field(a), PathElement::Field(b)) => a.cmp(b),
            (PathElement::Key(a), PathElement::Key(b)) => compare_fields(a, b),
            (PathElement::Value(a), PathElement::Value(b)) => compare_values(a, b),
            (PathElement::Index(a), PathElement::Index(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for PathElement {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// As upstream prints an element in a path: `.name`, `[k="v",n=1]`, `[=v]`, `[3]`.
impl fmt::Display for PathElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Field(name) => write!(f, ".{name}"),
            PathElement::Key(fields) => {
                f.write_str("[")?;
                for (i, (name, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{name}={}", go_to_string(v))?;
                }
                f.write_str("]")
            }
            PathElement::Value(v) => write!(f, "[={}]", go_to_string(v)),
            PathElement::Index(i) => write!(f, "[{i}]"),
        }
    }
}

/// A path from the root of an object.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Path(pub Vec<PathElement>);

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for pe in &self.0 {
            write!(f, "{pe}")?;
        }
        Ok(())
    }
}

impl Path {
    /// A path of field names (`Path::fields(&["metadata", "name"])`).
    pub fn fields(names: &[&str]) -> Self {
        Path(
            names
                .iter()
                .map(|n| PathElement::Field((*n).to_owned()))
                .collect(),
        )
    }
}

fn compare_fields(a: &[(String, Value)], b: &[(String, Value)]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let c = x.0.cmp(&y.0).then_with(|| compare_values(&x.1, &y.1));
        if c != Ordering::Equal {
            return c;
        }
    }
    a.len().cmp(&b.len())
}

fn is_float(n: &Number) -> bool {
    !(n.is_i64() || n.is_u64())
}

fn as_f64(n: &Number) -> f64 {
    n.as_f64().unwrap_or(0.0)
}

/// The total order upstream gives values: numbers (ints and floats compared by value),
/// then strings, booleans, lists, maps, null.
pub fn compare_values(a: &Value, b: &Value) -> Ordering {
    fn rank(v: &Value) -> u8 {
        match v {
            Value::Number(_) => 0,
            Value::String(_) => 1,
            Value::Bool(_) => 2,
            Value::Array(_) => 3,
            Value::Object(_) => 4,
            Value::Null => 5,
        }
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if is_float(x) || is_float(y) {
                as_f64(x).total_cmp(&as_f64(y))
            } else {
                match (x.as_i64(), y.as_i64()) {
                    (Some(i), Some(j)) => i.cmp(&j),
                    _ => as_f64(x).total_cmp(&as_f64(y)),
                }
            }
        }
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Array(x), Value::Array(y)) => {
            for (i, j) in x.iter().zip(y) {
                let c = compare_values(i, j);
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        (Value::Object(x), Value::Object(y)) => {
            // Maps compare as their sorted (key, value) lists.
            for ((k1, v1), (k2, v2)) in x.iter().zip(y) {
                let c = k1.cmp(k2).then_with(|| compare_values(v1, v2));
                if c != Ordering::Equal {
                    return c;
                }
            }
            x.len().cmp(&y.len())
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

/// JSON as Go's encoder writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped.
pub(crate) fn go_json(v: &Value) -> String {
    let s = v.to_string();
    if !s.contains(['<', '>', '&', '\u{2028}', '\u{2029}']) {
        return s;
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// A value as upstream's `value.ToString` prints it in paths: strings quoted Go-style,
/// numbers and booleans bare.
fn go_to_string(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::String(s) => go_quote(s),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(go_to_string).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| format!("{k}={}", go_to_string(v)))
            .collect(),
        other => other.to_string(),
    }
}

/// Go's `%q` for a string: double quotes, with `\"`, `\\` and control characters escaped.
fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_spell_and_read_back() {
        let pe = PathElement::key(vec![
            ("protocol".into(), json!("TCP")),
            ("containerPort".into(), json!(80)),
        ]);
        let s = pe.to_fields_key();
        assert_eq!(s, r#"k:{"containerPort":80,"protocol":"TCP"}"#);
        assert_eq!(PathElement::from_fields_key(&s).unwrap(), Some(pe.clone()));
        assert_eq!(pe.to_string(), r#"[containerPort=80,protocol="TCP"]"#);
        assert_eq!(
            PathElement::Value(json!("a<b")).to_fields_key(),
            r#"v:"a\u003cb""#
        );
        assert_eq!(PathElement::from_fields_key("x:1").unwrap(), None);
        assert!(PathElement::from_fields_key("f").is_err());
    }

    #[test]
    fn elements_order_as_upstream() {
        let port = |n: i64| PathElement::key(vec![("containerPort".into(), json!(n))]);
        assert!(port(80) < port(443));
        assert!(PathElement::Field("z".into()) < port(1));
        assert!(port(1) < PathElement::Value(json!(0)));
        assert!(PathElement::Value(json!(2)) < PathElement::Value(json!("1")));
        assert!(PathElement::Value(json!(1.5)) < PathElement::Value(json!(2)));
    }
}
