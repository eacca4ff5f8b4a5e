//! Encoding JSON objects as Kubernetes protobuf (`application/vnd.kubernetes.protobuf`),
//! driven by the schema table: the mirror image of [`crate::protobuf`].
//!
//! What is written:
//!
//! * A field present in the JSON is written, zero values included (`replicas: 0`, `false`,
//!   `""`); an absent field or JSON `null` is not. Fields protobuf does not carry (tag 0:
//!   `apiVersion`, `kind`) are not written.
//! * Fields in ascending tag order, as Go's generated marshallers write them. A list is one
//!   field occurrence per item (unpacked, as upstream's proto2 types are); a map is one
//!   `{key=1, value=2}` entry per key, keys sorted (Go sorts them too, so the bytes are
//!   deterministic).
//! * An embedded (inline) field is always written, as Go writes a struct embedded by
//!   value; its message is built from the parent's JSON object.
//! * The special [`Format`]s as the decoder reads them, with every field of their message
//!   written as Go does (`Time` `{seconds=1, nanos=2}`, `IntOrString`
//!   `{type=1, intVal=2, strVal=3}`).
//!
//! A value of the wrong JSON type for its field is a [`DecodeError::Protobuf`] naming the
//! field; nothing panics.

use serde_json::{Map, Value};

use crate::formats;
use crate::protobuf::PROTOBUF_MAGIC;
use crate::types::{kind_def_for_api_version, type_def, Elem, FieldKind, Format, Scalar, TypeDef};
use crate::DecodeError;

/// Nesting deeper than this is rejected, as in the decoder.
const MAX_DEPTH: u32 = 100;

const JSON_SCHEMA_PROPS: &str =
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps";

/// Whether this crate encodes protobuf responses ([`encode_protobuf`]). Always `true`
/// since the encoder exists; kept so that the server asks the crate that does the work
/// rather than assuming it. Which objects can be encoded is a separate question:
/// [`encode_protobuf`] fails for types without a protobuf message (`Table`, which upstream
/// serves as JSON and YAML only).
pub fn encodes_protobuf() -> bool {
    true
}

fn err(msg: impl Into<String>) -> DecodeError {
    DecodeError::Protobuf(msg.into())
}

/// Wire types.
const VARINT: u8 = 0;
const FIXED64: u8 = 1;
const BYTES: u8 = 2;

/// The bytes of one message being written.
#[derive(Default)]
struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    fn key(&mut self, tag: u32, wire: u8) {
        self.varint((u64::from(tag) << 3) | u64::from(wire));
    }

    /// An unsigned varint field (bool, and the two's complement of int32/int64: a negative
    /// number takes ten bytes, as protobuf's `int32`/`int64` specify).
    fn uint(&mut self, tag: u32, v: u64) {
        self.key(tag, VARINT);
        self.varint(v);
    }

    fn int(&mut self, tag: u32, v: i64) {
        self.uint(tag, v as u64);
    }

    fn bytes(&mut self, tag: u32, b: &[u8]) {
        self.key(tag, BYTES);
        self.varint(b.len() as u64);
        self.buf.extend_from_slice(b);
    }

    fn fixed64(&mut self, tag: u32, v: u64) {
        self.key(tag, FIXED64);
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
}

/// Encodes an object as a body: `k8s\0`, then a `runtime.Unknown` with typeMeta
/// {apiVersion, kind} (from the object), raw (the message of the kind) and contentEncoding
/// and contentType written empty, as upstream's serializer writes them.
///
/// An object whose `apiVersion`/`kind` the table does not have is
/// [`DecodeError::UnknownKind`].
pub fn encode_protobuf(object: &Value) -> Result<Vec<u8>, DecodeError> {
    let text = |name: &str| object.get(name).and_then(Value::as_str).unwrap_or_default();
    let (api_version, kind) = (text("apiVersion"), text("kind"));
    let def =
        kind_def_for_api_version(api_version, kind).ok_or_else(|| DecodeError::UnknownKind {
            api_version: api_version.to_string(),
            kind: kind.to_string(),
        })?;
    let raw = encode_protobuf_message(object, def)?;
    let mut type_meta = Writer::default();
    type_meta.bytes(1, api_version.as_bytes());
    type_meta.bytes(2, kind.as_bytes());
    let mut unknown = Writer {
        buf: Vec::with_capacity(raw.len() + type_meta.buf.len() + 32),
    };
    unknown.buf.extend_from_slice(PROTOBUF_MAGIC);
    unknown.bytes(1, &type_meta.buf);
    unknown.bytes(2, &raw);
    unknown.bytes(3, b"");
    unknown.bytes(4, b"");
    Ok(unknown.buf)
}

/// One event of a protobuf watch stream: a `meta/v1.WatchEvent` message (no envelope) with
/// `type` = `event_type` and `object.raw` = the object's own body ([`encode_protobuf`],
/// `k8s\0` envelope included), as upstream's watch handler writes it. On the wire each
/// event is preceded by its length, a 4-byte big-endian integer.
pub fn encode_protobuf_watch_event(
    event_type: &str,
    object: &Value,
) -> Result<Vec<u8>, DecodeError> {
    let body = encode_protobuf(object)?;
    let mut raw = Writer::default();
    raw.bytes(1, &body);
    let mut event = Writer {
        buf: Vec::with_capacity(body.len() + event_type.len() + 16),
    };
    event.bytes(1, event_type.as_bytes());
    event.bytes(2, &raw.buf);
    Ok(event.buf)
}

/// Encodes `value` as one message of type `def` (no envelope).
pub fn encode_protobuf_message(
    value: &Value,
    def: &'static TypeDef,
) -> Result<Vec<u8>, DecodeError> {
    let mut w = Writer::default();
    message(&mut w, def, value, 0)?;
    Ok(w.buf)
}

/// The JSON type of a value, for errors.
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn wrong(what: &str, expected: &str, v: &Value) -> DecodeError {
    err(format!("{what}: expected {expected}, got {}", json_type(v)))
}

fn as_str<'a>(v: &'a Value, what: &str) -> Result<&'a str, DecodeError> {
    v.as_str().ok_or_else(|| wrong(what, "a string", v))
}

fn as_object<'a>(v: &'a Value, what: &str) -> Result<&'a Map<String, Value>, DecodeError> {
    v.as_object().ok_or_else(|| wrong(what, "an object", v))
}

/// Writes the fields of a message of type `def` holding `value` into `w`.
fn message(
    w: &mut Writer,
    def: &'static TypeDef,
    value: &Value,
    depth: u32,
) -> Result<(), DecodeError> {
    if depth > MAX_DEPTH {
        return Err(err("object nested too deeply"));
    }
    let name = def.go_name();
    match def.format {
        Format::Object => {
            if def.proto.is_empty() {
                return Err(err(format!("{} has no protobuf encoding", def.go_type())));
            }
            object(w, def, as_object(value, name)?, depth)?;
        }
        Format::Time | Format::MicroTime => {
            let layout = if def.format == Format::MicroTime {
                formats::RFC3339_MICRO
            } else {
                formats::RFC3339
            };
            let (seconds, nanos) = formats::parse_time(as_str(value, name)?, layout)
                .map_err(|e| err(format!("{name}: {e}")))?;
            w.int(1, seconds);
            w.int(2, nanos);
        }
        Format::Duration => {
            let ns = formats::parse_duration(as_str(value, name)?)
                .map_err(|e| err(format!("{name}: {e}")))?;
            w.int(1, ns);
        }
        Format::Quantity => {
            let s = match value {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                other => return Err(wrong(name, "a string", other)),
            };
            // Upstream writes the canonical form; a string that is not a quantity as is.
            let s = crate::quantity::canonical(&s).unwrap_or(s);
            w.bytes(1, s.as_bytes());
        }
        Format::IntOrString => match value {
            Value::String(s) => {
                w.uint(1, 1);
                w.int(2, 0);
                w.bytes(3, s.as_bytes());
            }
            Value::Number(_) => {
                w.uint(1, 0);
                w.int(2, int32(value, name)?);
                w.bytes(3, b"");
            }
            other => return Err(wrong(name, "an integer or a string", other)),
        },
        Format::RawExtension | Format::FieldsV1 | Format::Json => {
            let raw = serde_json::to_vec(value).map_err(|e| err(format!("{name}: {e}")))?;
            w.bytes(1, &raw);
        }
        Format::JsonSchemaPropsOrBool => match value {
            Value::Bool(b) => w.uint(1, u64::from(*b)),
            Value::Object(_) => {
                w.uint(1, 1);
                props(w, 2, value, depth)?;
            }
            other => return Err(wrong(name, "an object or a bool", other)),
        },
        Format::JsonSchemaPropsOrArray => match value {
            Value::Object(_) => props(w, 1, value, depth)?,
            Value::Array(items) => {
                for item in items {
                    props(w, 2, item, depth)?;
                }
            }
            other => return Err(wrong(name, "an object or an array", other)),
        },
        Format::JsonSchemaPropsOrStringArray => match value {
            Value::Object(_) => props(w, 1, value, depth)?,
            Value::Array(items) => {
                for item in items {
                    w.bytes(2, as_str(item, name)?.as_bytes());
                }
            }
            other => return Err(wrong(name, "an object or an array", other)),
        },
    }
    Ok(())
}

/// A `JSONSchemaProps` message as field `tag`.
fn props(w: &mut Writer, tag: u32, value: &Value, depth: u32) -> Result<(), DecodeError> {
    let def =
        type_def(JSON_SCHEMA_PROPS).ok_or_else(|| err("JSONSchemaProps missing from the table"))?;
    nested(w, tag, def, value, depth)
}

/// A message field: the message is written to its own buffer, then length-prefixed.
fn nested(
    w: &mut Writer,
    tag: u32,
    def: &'static TypeDef,
    value: &Value,
    depth: u32,
) -> Result<(), DecodeError> {
    let mut inner = Writer::default();
    message(&mut inner, def, value, depth + 1)?;
    w.bytes(tag, &inner.buf);
    Ok(())
}

/// The fields of an object-typed message, read from the JSON object `map`.
fn object(
    w: &mut Writer,
    def: &'static TypeDef,
    map: &Map<String, Value>,
    depth: u32,
) -> Result<(), DecodeError> {
    for f in def.fields {
        if f.tag == 0 {
            continue;
        }
        if f.inline {
            // An embedded struct: its fields are the parent's; always written, as Go writes
            // a struct embedded by value.
            let inner = f
                .message()
                .ok_or_else(|| err(format!("{}: bad inline field", def.name)))?;
            if depth >= MAX_DEPTH {
                return Err(err("object nested too deeply"));
            }
            let mut sub = Writer::default();
            object(&mut sub, inner, map, depth + 1)?;
            w.bytes(f.tag, &sub.buf);
            continue;
        }
        let Some(value) = map.get(f.json).filter(|v| !v.is_null()) else {
            continue;
        };
        let what = f.json;
        match f.kind {
            FieldKind::Single(e) => elem(w, f.tag, e, value, what, depth)?,
            FieldKind::List(e) => {
                let items = value
                    .as_array()
                    .ok_or_else(|| wrong(what, "an array", value))?;
                for item in items {
                    elem(w, f.tag, e, item, what, depth)?;
                }
            }
            FieldKind::Map(e) => {
                let entries = as_object(value, what)?;
                let mut keys: Vec<&String> = entries.keys().collect();
                keys.sort_unstable();
                for key in keys {
                    let mut entry = Writer::default();
                    entry.bytes(1, key.as_bytes());
                    elem(&mut entry, 2, e, &entries[key], what, depth)?;
                    w.bytes(f.tag, &entry.buf);
                }
            }
        }
    }
    Ok(())
}

/// One value (a field's, a list item or a map value) as field `tag`. A `null` item or map
/// value is written as the zero of its type, as Go's JSON decoder reads it (a raw JSON
/// value keeps its `null`).
fn elem(
    w: &mut Writer,
    tag: u32,
    e: Elem,
    value: &Value,
    what: &str,
    depth: u32,
) -> Result<(), DecodeError> {
    match e {
        Elem::Scalar(s) => scalar(w, tag, s, value, what),
        Elem::StringList => {
            let mut inner = Writer::default();
            if let Some(items) = non_null(value) {
                let items = items
                    .as_array()
                    .ok_or_else(|| wrong(what, "an array", items))?;
                for item in items {
                    inner.bytes(1, as_str(item, what)?.as_bytes());
                }
            }
            w.bytes(tag, &inner.buf);
            Ok(())
        }
        Elem::Message(def) => {
            let raw_json = matches!(
                def.format,
                Format::RawExtension | Format::FieldsV1 | Format::Json
            );
            if value.is_null() && !raw_json {
                w.bytes(tag, b"");
                return Ok(());
            }
            nested(w, tag, def, value, depth)
        }
    }
}

fn non_null(v: &Value) -> Option<&Value> {
    (!v.is_null()).then_some(v)
}

fn int32(v: &Value, what: &str) -> Result<i64, DecodeError> {
    let n = integer(v, what)?;
    i32::try_from(n)
        .map(i64::from)
        .map_err(|_| err(format!("{what}: {n} out of range for int32")))
}

fn integer(v: &Value, what: &str) -> Result<i64, DecodeError> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .ok_or_else(|| err(format!("{what}: {n} is not an int64"))),
        other => Err(wrong(what, "an integer", other)),
    }
}

fn scalar(
    w: &mut Writer,
    tag: u32,
    s: Scalar,
    value: &Value,
    what: &str,
) -> Result<(), DecodeError> {
    match (s, value) {
        (Scalar::String | Scalar::Bytes, Value::Null) => w.bytes(tag, b""),
        (Scalar::String, v) => w.bytes(tag, as_str(v, what)?.as_bytes()),
        (Scalar::Bytes, v) => {
            let b = formats::decode_base64(as_str(v, what)?)
                .map_err(|e| err(format!("{what}: {e}")))?;
            w.bytes(tag, &b);
        }
        (Scalar::Bool, Value::Null) => w.uint(tag, 0),
        (Scalar::Bool, Value::Bool(b)) => w.uint(tag, u64::from(*b)),
        (Scalar::Bool, v) => return Err(wrong(what, "a bool", v)),
        (Scalar::Int32 | Scalar::Int64, Value::Null) => w.uint(tag, 0),
        (Scalar::Int32, v) => w.int(tag, int32(v, what)?),
        (Scalar::Int64, v) => w.int(tag, integer(v, what)?),
        (Scalar::Double, Value::Null) => w.fixed64(tag, 0),
        (Scalar::Double, Value::Number(n)) => {
            let f = n
                .as_f64()
                .ok_or_else(|| err(format!("{what}: {n} is not a number")))?;
            w.fixed64(tag, f.to_bits());
        }
        (Scalar::Double, v) => return Err(wrong(what, "a number", v)),
    }
    Ok(())
}

#[cfg(test)]
#[path = "protobuf_encode_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "protobuf_encode_prost_tests.rs"]
mod prost_tests;
