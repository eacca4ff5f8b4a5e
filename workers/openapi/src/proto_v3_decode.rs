//! A decoder of `openapi.v3.Document` for the tests of [`super::encode_v3`], written apart
//! from the encoder: a wire-format reader, and a table of `OpenAPIv3.proto` field numbers
//! that turns a message back into the JSON it was written from.

use serde_json::{Map, Value};

/// One field as read off the wire.
#[derive(Debug)]
enum Wire<'a> {
    Varint(u64),
    Fixed64([u8; 8]),
    Len(&'a [u8]),
}

/// The fields of a message, in wire order. Panics on malformed input.
fn fields(mut bytes: &[u8]) -> Vec<(u32, Wire<'_>)> {
    fn varint(bytes: &mut &[u8]) -> u64 {
        let (mut value, mut shift) = (0u64, 0);
        loop {
            let (byte, rest) = bytes.split_first().expect("truncated varint");
            *bytes = rest;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return value;
            }
            shift += 7;
            assert!(shift < 64, "varint too long");
        }
    }
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let key = varint(&mut bytes);
        let field = u32::try_from(key >> 3).unwrap();
        let wire = match key & 7 {
            0 => Wire::Varint(varint(&mut bytes)),
            1 => {
                let (head, rest) = bytes.split_at(8);
                bytes = rest;
                Wire::Fixed64(head.try_into().unwrap())
            }
            2 => {
                let len = usize::try_from(varint(&mut bytes)).unwrap();
                let (head, rest) = bytes.split_at(len);
                bytes = rest;
                Wire::Len(head)
            }
            other => panic!("wire type {other} of field {field}"),
        };
        out.push((field, wire));
    }
    out
}

fn len_of<'a>(wire: &Wire<'a>) -> &'a [u8] {
    match wire {
        Wire::Len(bytes) => bytes,
        other => panic!("expected a length-delimited field, got {other:?}"),
    }
}

/// The only occurrence of field `n`.
pub(crate) fn one(message: &[u8], n: u32) -> &[u8] {
    let mut all = all(message, n);
    assert_eq!(all.len(), 1, "field {n}");
    all.remove(0)
}

pub(crate) fn all(message: &[u8], n: u32) -> Vec<&[u8]> {
    fields(message)
        .into_iter()
        .filter(|(f, _)| *f == n)
        .map(|(_, w)| len_of(&w))
        .collect()
}

pub(crate) fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

/// A `Named*` entry: its name (1) and value bytes (2).
pub(crate) fn named(bytes: &[u8]) -> (String, &[u8]) {
    let (mut name, mut value) = (String::new(), &[][..]);
    for (field, wire) in fields(bytes) {
        match field {
            1 => name = text(len_of(&wire)).to_owned(),
            2 => value = len_of(&wire),
            other => panic!("Named* has no field {other}"),
        }
    }
    (name, value)
}

/// gnostic `Any`: the YAML text in field 2 (JSON, as we write it).
pub(crate) fn any_value(bytes: &[u8]) -> Value {
    serde_json::from_str(text(one(bytes, 2))).unwrap()
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Msg {
    Document,
    Info,
    Paths,
    PathItem,
    Operation,
    Parameter,
    RequestBody,
    MediaType,
    Responses,
    Response,
    Components,
    SecurityScheme,
    SecurityRequirement,
    Reference,
    Schema,
}

/// How a field reads back into JSON.
#[derive(Clone, Copy)]
enum Kind {
    Str,
    Bool,
    Int64,
    Double,
    /// `repeated string`.
    Strings,
    Message(Msg),
    Messages(Msg),
    /// `XOrReference`: oneof {X = 1, Reference = 2}.
    OrRef(Msg),
    OrRefs(Msg),
    /// A wrapper of `repeated Named* = 1` with message values.
    MapOf(Msg),
    /// A wrapper of `repeated Named* = 1` with `XOrReference` values.
    MapOrRef(Msg),
    /// `repeated Named*` right in the message, merged into its object.
    Inline(Msg),
    InlineOrRef(Msg),
    /// `repeated NamedStringArray`, merged.
    InlineStrings,
    /// `repeated NamedAny` specification extensions, merged.
    Extensions,
    Any,
    Anys,
    Items,
    AdditionalProperties,
    Default,
}

/// Field numbers of `openapi.v3` messages, from `OpenAPIv3.proto`.
fn table(m: Msg) -> &'static [(u32, &'static str, Kind)] {
    use Kind::*;
    const OP: Kind = Kind::Message(Msg::Operation);
    match m {
        Msg::Document => &[
            (1, "openapi", Str),
            (2, "info", Message(Msg::Info)),
            (4, "paths", Message(Msg::Paths)),
            (5, "components", Message(Msg::Components)),
            (6, "security", Messages(Msg::SecurityRequirement)),
            (9, "", Extensions),
        ],
        Msg::Info => &[
            (1, "title", Str),
            (2, "description", Str),
            (6, "version", Str),
            (7, "", Extensions),
            (8, "summary", Str),
        ],
        Msg::Paths => &[(1, "", Inline(Msg::PathItem)), (2, "", Extensions)],
        Msg::PathItem => &[
            (1, "$ref", Str),
            (2, "summary", Str),
            (3, "description", Str),
            (4, "get", OP),
            (5, "put", OP),
            (6, "post", OP),
            (7, "delete", OP),
            (8, "options", OP),
            (9, "head", OP),
            (10, "patch", OP),
            (11, "trace", OP),
            (13, "parameters", OrRefs(Msg::Parameter)),
            (14, "", Extensions),
        ],
        Msg::Operation => &[
            (1, "tags", Strings),
            (2, "summary", Str),
            (3, "description", Str),
            (5, "operationId", Str),
            (6, "parameters", OrRefs(Msg::Parameter)),
            (7, "requestBody", OrRef(Msg::RequestBody)),
            (8, "responses", Message(Msg::Responses)),
            (10, "deprecated", Bool),
            (13, "", Extensions),
        ],
        Msg::Parameter => &[
            (1, "name", Str),
            (2, "in", Str),
            (3, "description", Str),
            (4, "required", Bool),
            (5, "deprecated", Bool),
            (6, "allowEmptyValue", Bool),
            (7, "style", Str),
            (8, "explode", Bool),
            (9, "allowReserved", Bool),
            (10, "schema", OrRef(Msg::Schema)),
            (11, "example", Any),
            (13, "content", MapOf(Msg::MediaType)),
            (14, "", Extensions),
        ],
        Msg::RequestBody => &[
            (1, "description", Str),
            (2, "content", MapOf(Msg::MediaType)),
            (3, "required", Bool),
            (4, "", Extensions),
        ],
        Msg::MediaType => &[
            (1, "schema", OrRef(Msg::Schema)),
            (2, "example", Any),
            (5, "", Extensions),
        ],
        Msg::Responses => &[
            (1, "default", OrRef(Msg::Response)),
            (2, "", InlineOrRef(Msg::Response)),
            (3, "", Extensions),
        ],
        Msg::Response => &[
            (1, "description", Str),
            (3, "content", MapOf(Msg::MediaType)),
            (5, "", Extensions),
        ],
        Msg::Components => &[
            (1, "schemas", MapOrRef(Msg::Schema)),
            (2, "responses", MapOrRef(Msg::Response)),
            (3, "parameters", MapOrRef(Msg::Parameter)),
            (5, "requestBodies", MapOrRef(Msg::RequestBody)),
            (7, "securitySchemes", MapOrRef(Msg::SecurityScheme)),
            (10, "", Extensions),
        ],
        Msg::SecurityScheme => &[
            (1, "type", Str),
            (2, "description", Str),
            (3, "name", Str),
            (4, "in", Str),
            (5, "scheme", Str),
            (6, "bearerFormat", Str),
            (8, "openIdConnectUrl", Str),
            (9, "", Extensions),
        ],
        Msg::SecurityRequirement => &[(1, "", InlineStrings)],
        Msg::Reference => &[
            (1, "$ref", Str),
            (2, "summary", Str),
            (3, "description", Str),
        ],
        Msg::Schema => &[
            (1, "nullable", Bool),
            (3, "readOnly", Bool),
            (4, "writeOnly", Bool),
            (7, "example", Any),
            (8, "deprecated", Bool),
            (9, "title", Str),
            (10, "multipleOf", Double),
            (11, "maximum", Double),
            (12, "exclusiveMaximum", Bool),
            (13, "minimum", Double),
            (14, "exclusiveMinimum", Bool),
            (15, "maxLength", Int64),
            (16, "minLength", Int64),
            (17, "pattern", Str),
            (18, "maxItems", Int64),
            (19, "minItems", Int64),
            (20, "uniqueItems", Bool),
            (21, "maxProperties", Int64),
            (22, "minProperties", Int64),
            (23, "required", Strings),
            (24, "enum", Anys),
            (25, "type", Str),
            (26, "allOf", OrRefs(Msg::Schema)),
            (27, "oneOf", OrRefs(Msg::Schema)),
            (28, "anyOf", OrRefs(Msg::Schema)),
            (29, "not", Message(Msg::Schema)),
            (30, "items", Items),
            (31, "properties", MapOrRef(Msg::Schema)),
            (32, "additionalProperties", AdditionalProperties),
            (33, "default", Default),
            (34, "description", Str),
            (35, "format", Str),
            (36, "", Extensions),
        ],
    }
}

fn or_ref(m: Msg, bytes: &[u8]) -> Value {
    let fields = fields(bytes);
    assert_eq!(fields.len(), 1, "{m:?}OrReference holds one member");
    match &fields[0] {
        (1, w) => decode(m, len_of(w)),
        (2, w) => decode(Msg::Reference, len_of(w)),
        (other, _) => panic!("{m:?}OrReference has no field {other}"),
    }
}

fn map_of(bytes: &[u8], value: impl Fn(&[u8]) -> Value) -> Value {
    all(bytes, 1)
        .into_iter()
        .map(|entry| {
            let (name, v) = named(entry);
            (name, value(v))
        })
        .collect::<Map<_, _>>()
        .into()
}

fn push(out: &mut Map<String, Value>, key: &str, value: Value) {
    match out.entry(key).or_insert_with(|| Value::Array(Vec::new())) {
        Value::Array(items) => items.push(value),
        other => panic!("{key} is {other}"),
    }
}

fn merge(out: &mut Map<String, Value>, name: String, value: Value) {
    assert!(out.insert(name.clone(), value).is_none(), "{name} twice");
}

/// Message `m` read back into the JSON it was written from (as far as proto3 keeps it).
pub(crate) fn decode(m: Msg, bytes: &[u8]) -> Value {
    let mut out = Map::new();
    for (field, wire) in fields(bytes) {
        let &(_, key, kind) = table(m)
            .iter()
            .find(|(f, _, _)| *f == field)
            .unwrap_or_else(|| panic!("{m:?} has no field {field} in the table"));
        let single = match (kind, &wire) {
            (Kind::Str, Wire::Len(b)) => Value::from(text(b)),
            (Kind::Bool, Wire::Varint(v)) => Value::from(*v != 0),
            (Kind::Int64, Wire::Varint(v)) => Value::from(*v as i64),
            (Kind::Double, Wire::Fixed64(b)) => Value::from(f64::from_le_bytes(*b)),
            (Kind::Strings, Wire::Len(b)) => {
                push(&mut out, key, text(b).into());
                continue;
            }
            (Kind::Message(m), Wire::Len(b)) => decode(m, b),
            (Kind::Messages(m), Wire::Len(b)) => {
                push(&mut out, key, decode(m, b));
                continue;
            }
            (Kind::OrRef(m), Wire::Len(b)) => or_ref(m, b),
            (Kind::OrRefs(m), Wire::Len(b)) => {
                push(&mut out, key, or_ref(m, b));
                continue;
            }
            (Kind::MapOf(m), Wire::Len(b)) => map_of(b, |v| decode(m, v)),
            (Kind::MapOrRef(m), Wire::Len(b)) => map_of(b, |v| or_ref(m, v)),
            (Kind::Inline(m), Wire::Len(b)) => {
                let (name, v) = named(b);
                merge(&mut out, name, decode(m, v));
                continue;
            }
            (Kind::InlineOrRef(m), Wire::Len(b)) => {
                let (name, v) = named(b);
                merge(&mut out, name, or_ref(m, v));
                continue;
            }
            (Kind::InlineStrings, Wire::Len(b)) => {
                let (name, v) = named(b);
                let scopes = all(v, 1).into_iter().map(|s| Value::from(text(s)));
                merge(&mut out, name, scopes.collect());
                continue;
            }
            (Kind::Extensions, Wire::Len(b)) => {
                let (name, v) = named(b);
                assert!(name.starts_with("x-"), "{name}");
                merge(&mut out, name, any_value(v));
                continue;
            }
            (Kind::Any, Wire::Len(b)) => any_value(b),
            (Kind::Anys, Wire::Len(b)) => {
                push(&mut out, key, any_value(b));
                continue;
            }
            (Kind::Items, Wire::Len(b)) => or_ref(Msg::Schema, one(b, 1)),
            (Kind::AdditionalProperties, Wire::Len(b)) => match &fields(b)[..] {
                [(1, w)] => or_ref(Msg::Schema, len_of(w)),
                [(2, Wire::Varint(v))] => Value::from(*v != 0),
                other => panic!("AdditionalPropertiesItem {other:?}"),
            },
            (Kind::Default, Wire::Len(b)) => match &fields(b)[..] {
                [] => Value::Null,
                [(1, Wire::Fixed64(d))] => Value::from(f64::from_le_bytes(*d)),
                [(2, Wire::Varint(v))] => Value::from(*v != 0),
                [(3, Wire::Len(s))] => Value::from(text(s)),
                other => panic!("DefaultType {other:?}"),
            },
            (_, other) => panic!("{m:?}.{key} ({field}): unexpected {other:?}"),
        };
        merge(&mut out, key.to_owned(), single);
    }
    Value::Object(out)
}

/// Whether proto3 may have left `value` out (a scalar field at its zero value).
fn is_zero(value: &Value) -> bool {
    match value {
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// `decoded` says what `original` says, but for the zero values proto3 drops and a
/// `default` that `DefaultType` cannot hold (object, array, null: read back as null).
pub(crate) fn assert_same(decoded: &Value, original: &Value, path: &str) {
    match (decoded, original) {
        (Value::Object(d), Value::Object(o)) => {
            for (key, ov) in o {
                let here = format!("{path}/{key}");
                match d.get(key) {
                    None => assert!(is_zero(ov) && !key.starts_with("x-"), "{here} lost: {ov}"),
                    Some(Value::Null) if key == "default" && !ov.is_string() => {
                        assert!(ov.is_object() || ov.is_array() || ov.is_null(), "{here}")
                    }
                    Some(dv) => assert_same(dv, ov, &here),
                }
            }
            for key in d.keys() {
                assert!(o.contains_key(key), "{path}/{key} appeared");
            }
        }
        (Value::Array(d), Value::Array(o)) => {
            assert_eq!(d.len(), o.len(), "{path}");
            for (i, (dv, ov)) in d.iter().zip(o).enumerate() {
                assert_same(dv, ov, &format!("{path}/{i}"));
            }
        }
        (Value::Number(d), Value::Number(o)) => assert_eq!(d.as_f64(), o.as_f64(), "{path}"),
        _ => assert_eq!(decoded, original, "{path}"),
    }
}
