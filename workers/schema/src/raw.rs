//! A JSON tree that keeps every object member in order, duplicates included, so the typed
//! decoder can report duplicate fields (`serde_json::Value` keeps only the last one).

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Raw {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Raw>),
    Object(Vec<(String, Raw)>),
}

impl Raw {
    /// Parses a JSON document (serde_json bounds the nesting depth).
    pub(crate) fn parse(body: &[u8]) -> Result<Raw, serde_json::Error> {
        serde_json::from_slice(body)
    }

    /// Upstream's name for the JSON type of this value in "cannot unmarshal" errors.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Raw::Null => "null",
            Raw::Bool(_) => "bool",
            Raw::Number(_) => "number",
            Raw::String(_) => "string",
            Raw::Array(_) => "array",
            Raw::Object(_) => "object",
        }
    }

    /// The plain JSON value; a duplicate member keeps its last value.
    pub(crate) fn into_value(self) -> Value {
        match self {
            Raw::Null => Value::Null,
            Raw::Bool(b) => Value::Bool(b),
            Raw::Number(n) => Value::Number(n),
            Raw::String(s) => Value::String(s),
            Raw::Array(a) => Value::Array(a.into_iter().map(Raw::into_value).collect()),
            Raw::Object(o) => {
                let mut m = Map::new();
                for (k, v) in o {
                    m.insert(k, v.into_value());
                }
                Value::Object(m)
            }
        }
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }

    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Raw, E> {
        Ok(Raw::Number(v.into()))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Raw, E> {
        Number::from_f64(v)
            .map(Raw::Number)
            .ok_or_else(|| E::custom("number out of range"))
    }

    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element()? {
            out.push(v);
        }
        Ok(Raw::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut out = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Raw>()? {
            out.push((k, v));
        }
        Ok(Raw::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_duplicates_in_order() {
        let raw = Raw::parse(br#"{"a":1,"b":[true,null],"a":"x"}"#).expect("parse");
        let Raw::Object(members) = &raw else {
            panic!("not an object")
        };
        assert_eq!(members.len(), 3);
        assert_eq!(members[2], ("a".to_string(), Raw::String("x".into())));
        assert_eq!(
            raw.into_value(),
            serde_json::json!({"a": "x", "b": [true, null]})
        );
    }

    #[test]
    fn bad_json_is_an_error() {
        for bad in [
            &b""[..],
            b"{",
            b"[1,]",
            b"{\"a\" 1}",
            b"nul",
            b"\xff",
            &[b'['; 10_000],
        ] {
            assert!(Raw::parse(bad).is_err());
        }
    }
}
