//! JSON values turned into CEL values the way the schema types them: `integer` → int,
//! `number` → double, int-or-string, `byte`/`duration`/`date`/`date-time` formats, escaped
//! property names; plus the input size that bounds a rule's cost.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use cel::objects::{Key, Map};
use cel::{Context, Env, Program, Value};
use serde_json::Value as Json;

/// Words CEL reserves: a property named like one is reached as `__<word>__`.
const RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// The name a property has in CEL (`foo-bar` → `foo__dash__bar`), or `None` when it can't
/// be written as an identifier, in which case the property is left out of the object.
pub(crate) fn escape_property(name: &str) -> Option<String> {
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut chars = name.chars();
    let first = chars.next()?;
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/');
    if !(first.is_ascii_alphabetic() || matches!(first, '_' | '.' | '-' | '/'))
        || !chars.all(allowed)
    {
        return None;
    }
    Some(
        name.replace("__", "__underscores__")
            .replace('.', "__dot__")
            .replace('-', "__dash__")
            .replace('/', "__slash__"),
    )
}

/// Whether `schema` is an object whose fields are its `properties` (as opposed to a map
/// typed by `additionalProperties`, or unknown fields kept as they are).
pub(crate) fn is_struct(schema: &Json) -> bool {
    schema.get("properties").is_some_and(Json::is_object)
}

fn is_int_or_string(schema: &Json) -> bool {
    schema.get("x-kubernetes-int-or-string") == Some(&Json::Bool(true))
}

/// The schema of `key` inside the object `schema`, if the schema says anything about it.
pub(crate) fn property_schema<'s>(schema: &'s Json, key: &str) -> Option<&'s Json> {
    if let Some(props) = schema.get("properties").and_then(Json::as_object) {
        if let Some(s) = props.get(key) {
            return Some(s);
        }
    }
    schema.get("additionalProperties").filter(|s| s.is_object())
}

/// `value` as CEL sees it under `schema` (`None` schema: typed by the JSON alone).
pub(crate) fn to_cel(value: &Json, schema: Option<&Json>) -> Value {
    let ty = schema.and_then(|s| s.get("type")).and_then(Json::as_str);
    match value {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match ty {
            Some("number") => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            _ => match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(i), _, _) => Value::Int(i),
                (None, Some(u), _) => Value::UInt(u),
                (_, _, Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => Value::Int(f as i64),
                (_, _, f) => Value::Float(f.unwrap_or(f64::NAN)),
            },
        },
        Json::String(s) => {
            let format = schema.and_then(|s| s.get("format")).and_then(Json::as_str);
            if ty == Some("string") && !schema.is_some_and(is_int_or_string) {
                if let Some(v) = format.and_then(|f| formatted(s, f)) {
                    return v;
                }
            }
            Value::String(Arc::new(s.clone()))
        }
        Json::Array(items) => {
            let item_schema = schema.and_then(|s| s.get("items"));
            Value::List(Arc::new(
                items.iter().map(|v| to_cel(v, item_schema)).collect(),
            ))
        }
        Json::Object(fields) => {
            let structured = schema.is_some_and(is_struct);
            let mut map = HashMap::with_capacity(fields.len());
            for (k, v) in fields {
                let sub = schema.and_then(|s| property_schema(s, k));
                let name = if structured && sub.is_some() {
                    match escape_property(k) {
                        Some(name) => name,
                        None => continue,
                    }
                } else {
                    k.clone()
                };
                map.insert(Key::String(Arc::new(name)), to_cel(v, sub));
            }
            Value::Map(Map { map: Arc::new(map) })
        }
    }
}

/// A string of a format CEL has a type for; `None` (kept as a string) when it doesn't
/// parse, which the schema's own format validation reports.
fn formatted(s: &str, format: &str) -> Option<Value> {
    match format {
        "date-time" => chrono::DateTime::parse_from_rfc3339(s)
            .ok()
            .map(Value::Timestamp),
        "date" => chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .ok()
            .and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|dt| Value::Timestamp(dt.and_utc().fixed_offset())),
        "duration" => parse_duration(s),
        "byte" => {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD
                .decode(s)
                .ok()
                .map(|b| Value::Bytes(Arc::new(b)))
        }
        _ => None,
    }
}

/// A Go-style duration (`1h30m`, `10s`), parsed by CEL's own `duration()`.
fn parse_duration(s: &str) -> Option<Value> {
    static PROGRAM: OnceLock<Option<(Arc<Env>, Program)>> = OnceLock::new();
    let (env, program) = PROGRAM
        .get_or_init(|| {
            let env = Arc::new(Env::stdlib());
            let program = env.compile("duration(s)").ok()?;
            Some((env, program))
        })
        .as_ref()?;
    let mut ctx = Context::with_env(Arc::clone(env));
    ctx.add_variable_from_value("s", s.to_owned());
    match program.execute(&ctx) {
        Ok(v @ Value::Duration(_)) => Some(v),
        _ => None,
    }
}

/// The size of `value` for the cost bound: one per JSON value, plus one per 16 bytes of
/// string (string functions are linear in the length).
pub(crate) fn input_size(value: &Json) -> u64 {
    match value {
        Json::String(s) => 1 + s.len() as u64 / 16,
        Json::Array(items) => 1 + items.iter().map(input_size).sum::<u64>(),
        Json::Object(fields) => {
            1 + fields
                .iter()
                .map(|(k, v)| 1 + k.len() as u64 / 16 + input_size(v))
                .sum::<u64>()
        }
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escapes_like_upstream() {
        assert_eq!(escape_property("foo").as_deref(), Some("foo"));
        assert_eq!(
            escape_property("foo-bar").as_deref(),
            Some("foo__dash__bar")
        );
        assert_eq!(
            escape_property("a.b/c").as_deref(),
            Some("a__dot__b__slash__c")
        );
        assert_eq!(
            escape_property("a__b").as_deref(),
            Some("a__underscores__b")
        );
        assert_eq!(
            escape_property("namespace").as_deref(),
            Some("__namespace__")
        );
        assert_eq!(escape_property("1abc"), None);
        assert_eq!(escape_property("a b"), None);
        assert_eq!(escape_property(""), None);
    }

    #[test]
    fn numbers_follow_the_schema_type() {
        let num = json!({"type": "number"});
        assert_eq!(to_cel(&json!(1), Some(&num)), Value::Float(1.0));
        let int = json!({"type": "integer"});
        assert_eq!(to_cel(&json!(3), Some(&int)), Value::Int(3));
        let ios = json!({"x-kubernetes-int-or-string": true});
        assert_eq!(to_cel(&json!(3), Some(&ios)), Value::Int(3));
        assert_eq!(to_cel(&json!("3%"), Some(&ios)), Value::from("3%"));
    }

    #[test]
    fn formats_become_cel_types() {
        let d = json!({"type": "string", "format": "duration"});
        assert!(matches!(
            to_cel(&json!("1h30m"), Some(&d)),
            Value::Duration(_)
        ));
        assert_eq!(to_cel(&json!("bogus"), Some(&d)), Value::from("bogus"));
        let dt = json!({"type": "string", "format": "date-time"});
        assert!(matches!(
            to_cel(&json!("2024-01-02T03:04:05Z"), Some(&dt)),
            Value::Timestamp(_)
        ));
        let b = json!({"type": "string", "format": "byte"});
        assert_eq!(
            to_cel(&json!("aGk="), Some(&b)),
            Value::Bytes(Arc::new(b"hi".to_vec()))
        );
        let date = json!({"type": "string", "format": "date"});
        assert!(matches!(
            to_cel(&json!("2024-01-02"), Some(&date)),
            Value::Timestamp(_)
        ));
    }

    #[test]
    fn input_size_counts_values() {
        assert_eq!(input_size(&json!([1, 2, 3])), 4);
        assert_eq!(input_size(&json!({"a": 1})), 3);
    }
}
