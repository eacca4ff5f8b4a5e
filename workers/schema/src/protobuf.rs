//! Decoding of Kubernetes protobuf bodies (`application/vnd.kubernetes.protobuf`) into the
//! JSON the same object has, driven by the schema table.

use serde_json::{Map, Value};

use crate::formats;
use crate::json::float_value;
use crate::types::{kind_def_for_api_version, Elem, FieldDef, FieldKind, Format, Scalar, TypeDef};
use crate::DecodeError;

/// The four bytes before the `runtime.Unknown` envelope.
pub const PROTOBUF_MAGIC: &[u8; 4] = b"k8s\0";

/// Nesting deeper than this is rejected (upstream's types nest far less).
const MAX_DEPTH: u32 = 100;

fn err(msg: impl Into<String>) -> DecodeError {
    DecodeError::Protobuf(msg.into())
}

/// One field as it is on the wire.
#[derive(Clone, Copy)]
enum Wire<'a> {
    Varint(u64),
    Fixed64(u64),
    Bytes(&'a [u8]),
    Fixed32,
}

/// Reads the fields of one message.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut v: u64 = 0;
        for i in 0..10 {
            let b = *self
                .buf
                .get(self.pos)
                .ok_or_else(|| err("truncated varint"))?;
            self.pos += 1;
            v |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(err("varint longer than 10 bytes"))
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|e| *e <= self.buf.len())
            .ok_or_else(|| err("truncated field"))?;
        let s = &self.buf[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    /// The next field's tag and value, or `None` at the end.
    fn next(&mut self) -> Result<Option<(u32, Wire<'a>)>, DecodeError> {
        if self.pos >= self.buf.len() {
            return Ok(None);
        }
        let key = self.varint()?;
        let tag = u32::try_from(key >> 3).map_err(|_| err("field tag out of range"))?;
        if tag == 0 {
            return Err(err("field tag 0"));
        }
        let value = match key & 7 {
            0 => Wire::Varint(self.varint()?),
            1 => Wire::Fixed64(u64::from_le_bytes(
                self.take(8)?
                    .try_into()
                    .map_err(|_| err("truncated fixed64"))?,
            )),
            2 => {
                let len =
                    usize::try_from(self.varint()?).map_err(|_| err("length out of range"))?;
                Wire::Bytes(self.take(len)?)
            }
            5 => {
                self.take(4)?;
                Wire::Fixed32
            }
            w => return Err(err(format!("unsupported wire type {w}"))),
        };
        Ok(Some((tag, value)))
    }
}

fn bytes<'a>(w: Wire<'a>, what: &str) -> Result<&'a [u8], DecodeError> {
    match w {
        Wire::Bytes(b) => Ok(b),
        _ => Err(err(format!("{what}: expected a length-delimited field"))),
    }
}

fn varint(w: Wire<'_>, what: &str) -> Result<u64, DecodeError> {
    match w {
        Wire::Varint(v) => Ok(v),
        _ => Err(err(format!("{what}: expected a varint field"))),
    }
}

fn string(w: Wire<'_>, what: &str) -> Result<String, DecodeError> {
    Ok(String::from_utf8_lossy(bytes(w, what)?).into_owned())
}

/// Decodes a body: `k8s\0`, then a `runtime.Unknown` (typeMeta=1 {apiVersion=1, kind=2},
/// raw=2, contentEncoding=3, contentType=4) whose `raw` is decoded as the message of the
/// kind named in typeMeta. The result has `apiVersion` and `kind` set.
pub fn decode_protobuf(body: &[u8]) -> Result<Value, DecodeError> {
    let envelope = body
        .strip_prefix(PROTOBUF_MAGIC)
        .ok_or_else(|| err("body does not start with the k8s protobuf magic"))?;
    let (mut api_version, mut kind, mut raw, mut encoding) =
        (String::new(), String::new(), &[][..], String::new());
    let mut r = Reader::new(envelope);
    while let Some((tag, w)) = r.next()? {
        match tag {
            1 => {
                let mut tm = Reader::new(bytes(w, "typeMeta")?);
                while let Some((t, v)) = tm.next()? {
                    match t {
                        1 => api_version = string(v, "apiVersion")?,
                        2 => kind = string(v, "kind")?,
                        _ => {}
                    }
                }
            }
            2 => raw = bytes(w, "raw")?,
            3 => encoding = string(w, "contentEncoding")?,
            _ => {}
        }
    }
    if !encoding.is_empty() {
        return Err(err(format!("unsupported content encoding {encoding:?}")));
    }
    let def =
        kind_def_for_api_version(&api_version, &kind).ok_or_else(|| DecodeError::UnknownKind {
            api_version: api_version.clone(),
            kind: kind.clone(),
        })?;
    let mut object = match decode_protobuf_message(raw, def)? {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    object.insert("apiVersion".into(), Value::String(api_version));
    object.insert("kind".into(), Value::String(kind));
    Ok(Value::Object(object))
}

/// Decodes the protobuf encoding of one message of type `def` (no envelope) to its JSON.
pub fn decode_protobuf_message(buf: &[u8], def: &'static TypeDef) -> Result<Value, DecodeError> {
    Ok(message(def, buf, 0)?.unwrap_or(Value::Null))
}

/// A message of type `def`; `None` where upstream's JSON leaves the value out (an unset
/// `Time`).
fn message(def: &'static TypeDef, buf: &[u8], depth: u32) -> Result<Option<Value>, DecodeError> {
    if depth > MAX_DEPTH {
        return Err(err("message nested too deeply"));
    }
    let mut fields: Vec<(u32, Wire<'_>)> = Vec::new();
    let mut r = Reader::new(buf);
    while let Some(f) = r.next()? {
        fields.push(f);
    }
    let last = |tag: u32| {
        fields
            .iter()
            .rev()
            .find(|(t, _)| *t == tag)
            .map(|(_, w)| *w)
    };
    let all = |tag: u32| {
        fields
            .iter()
            .filter(move |(t, _)| *t == tag)
            .map(|(_, w)| *w)
    };
    let name = def.go_name();
    Ok(match def.format {
        Format::Object => Some(Value::Object(object(def, &fields, depth)?)),
        Format::Time | Format::MicroTime => {
            if buf.is_empty() {
                return Ok(None);
            }
            let secs = last(1)
                .map(|w| varint(w, "seconds"))
                .transpose()?
                .unwrap_or(0) as i64;
            let nanos = last(2)
                .map(|w| varint(w, "nanos"))
                .transpose()?
                .unwrap_or(0) as i32;
            Some(Value::String(formats::format_time(
                secs,
                i64::from(nanos),
                def.format == Format::MicroTime,
            )))
        }
        Format::Duration => {
            let ns = last(1)
                .map(|w| varint(w, "duration"))
                .transpose()?
                .unwrap_or(0) as i64;
            Some(Value::String(formats::format_duration(ns)))
        }
        Format::Quantity => {
            let s = last(1)
                .map(|w| string(w, name))
                .transpose()?
                .unwrap_or_default();
            // Upstream parses the string and writes it back canonical; a string that is
            // not a quantity is kept as sent.
            let canonical = if s.is_empty() {
                Some("0".into())
            } else {
                crate::quantity::canonical(&s)
            };
            Some(Value::String(canonical.unwrap_or(s)))
        }
        Format::IntOrString => {
            let ty = last(1).map(|w| varint(w, "type")).transpose()?.unwrap_or(0);
            if ty == 1 {
                Some(Value::String(
                    last(3)
                        .map(|w| string(w, "strVal"))
                        .transpose()?
                        .unwrap_or_default(),
                ))
            } else {
                let i = last(2)
                    .map(|w| varint(w, "intVal"))
                    .transpose()?
                    .unwrap_or(0) as i32;
                Some(Value::Number(i.into()))
            }
        }
        Format::RawExtension | Format::FieldsV1 | Format::Json => match last(1) {
            Some(w) => embedded(bytes(w, name)?)?,
            None => None,
        },
        Format::JsonSchemaPropsOrBool => match (last(2), last(1)) {
            (Some(w), _) => props(w, depth)?,
            (None, Some(w)) => Some(Value::Bool(varint(w, "allows")? != 0)),
            (None, None) => Some(Value::Bool(false)),
        },
        Format::JsonSchemaPropsOrArray => {
            let items: Vec<Wire<'_>> = all(2).collect();
            if items.is_empty() {
                match last(1) {
                    Some(w) => props(w, depth)?,
                    None => None,
                }
            } else {
                let mut out = Vec::new();
                for w in items {
                    out.push(props(w, depth)?.unwrap_or(Value::Null));
                }
                Some(Value::Array(out))
            }
        }
        Format::JsonSchemaPropsOrStringArray => {
            let items: Vec<Wire<'_>> = all(2).collect();
            if items.is_empty() {
                match last(1) {
                    Some(w) => props(w, depth)?,
                    None => None,
                }
            } else {
                Some(Value::Array(
                    items
                        .into_iter()
                        .map(|w| string(w, "property").map(Value::String))
                        .collect::<Result<_, _>>()?,
                ))
            }
        }
    })
}

fn props(w: Wire<'_>, depth: u32) -> Result<Option<Value>, DecodeError> {
    let def = crate::types::type_def(
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
    )
    .ok_or_else(|| err("JSONSchemaProps missing from the table"))?;
    message(def, bytes(w, "schema")?, depth + 1)
}

/// Raw bytes holding an embedded object: JSON, or a nested protobuf envelope.
fn embedded(raw: &[u8]) -> Result<Option<Value>, DecodeError> {
    if raw.is_empty() {
        return Ok(None);
    }
    if raw.starts_with(PROTOBUF_MAGIC) {
        return decode_protobuf(raw).map(Some);
    }
    serde_json::from_slice(raw)
        .map(Some)
        .map_err(|e| err(format!("embedded JSON: {e}")))
}

/// The fields of an object-typed message, with upstream's omissions: lists and maps only
/// appear non-empty, and the zero of a field Go holds by value with `omitempty`
/// ([`FieldDef::omits_zero`]) is left out — Go writes every non-pointer field on the wire,
/// so there a zero is an unset field. A pointer's zero (`replicas: 0`,
/// `automountServiceAccountToken: false`, `storageClassName: ""`) is set, and kept.
fn object(
    def: &'static TypeDef,
    fields: &[(u32, Wire<'_>)],
    depth: u32,
) -> Result<Map<String, Value>, DecodeError> {
    let mut out = Map::new();
    for (tag, w) in fields {
        let Some(f) = def.field_by_tag(*tag) else {
            continue;
        };
        match f.kind {
            FieldKind::Single(e) => {
                let Some(v) = elem(f, e, *w, depth)? else {
                    continue;
                };
                if f.inline {
                    if let Value::Object(inner) = v {
                        out.extend(inner);
                    }
                    continue;
                }
                merge_message(&mut out, f, v);
            }
            FieldKind::List(e) => {
                let items = repeated(f, e, *w, depth)?;
                let list = out
                    .entry(f.json)
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(a) = list {
                    a.extend(items);
                }
            }
            FieldKind::Map(e) => {
                let mut entry = Reader::new(bytes(*w, f.json)?);
                let (mut key, mut value) = (String::new(), None);
                while let Some((t, v)) = entry.next()? {
                    match t {
                        1 => key = string(v, f.json)?,
                        2 => value = elem(f, e, v, depth)?,
                        _ => {}
                    }
                }
                let value = value.unwrap_or_else(|| zero(e));
                let map = out
                    .entry(f.json)
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(m) = map {
                    m.insert(key, value);
                }
            }
        }
    }
    out.retain(|k, v| def.field(k).is_none_or(|f| !f.drops(v)));
    Ok(out)
}

/// Embedded messages repeated on the wire merge, as protobuf specifies.
fn merge_message(out: &mut Map<String, Value>, f: &FieldDef, v: Value) {
    if let (Some(Value::Object(old)), Value::Object(new)) = (out.get_mut(f.json), &v) {
        old.extend(new.clone());
        return;
    }
    out.insert(f.json.to_string(), v);
}

/// The value of an absent map value.
fn zero(e: Elem) -> Value {
    match e {
        Elem::Scalar(Scalar::String | Scalar::Bytes) => Value::String(String::new()),
        Elem::Scalar(Scalar::Bool) => Value::Bool(false),
        Elem::Scalar(_) => Value::Number(0.into()),
        Elem::StringList => Value::Array(Vec::new()),
        Elem::Message(_) => Value::Object(Map::new()),
    }
}

/// The items of one occurrence of a repeated field (packed scalars give several).
fn repeated(f: &FieldDef, e: Elem, w: Wire<'_>, depth: u32) -> Result<Vec<Value>, DecodeError> {
    let packable = matches!(
        e,
        Elem::Scalar(Scalar::Bool | Scalar::Int32 | Scalar::Int64 | Scalar::Double)
    );
    if let (true, Wire::Bytes(b)) = (packable, w) {
        let mut items = Vec::new();
        let mut r = Reader::new(b);
        while r.pos < b.len() {
            let item = if e == Elem::Scalar(Scalar::Double) {
                Wire::Fixed64(u64::from_le_bytes(
                    r.take(8)?
                        .try_into()
                        .map_err(|_| err("truncated packed double"))?,
                ))
            } else {
                Wire::Varint(r.varint()?)
            };
            items.extend(elem(f, e, item, depth)?);
        }
        return Ok(items);
    }
    Ok(elem(f, e, w, depth)?.into_iter().collect())
}

fn elem(f: &FieldDef, e: Elem, w: Wire<'_>, depth: u32) -> Result<Option<Value>, DecodeError> {
    let what = f.json;
    Ok(Some(match e {
        Elem::Scalar(Scalar::String) => Value::String(string(w, what)?),
        Elem::Scalar(Scalar::Bytes) => Value::String(formats::encode_base64(bytes(w, what)?)),
        Elem::Scalar(Scalar::Bool) => Value::Bool(varint(w, what)? != 0),
        Elem::Scalar(Scalar::Int32) => Value::Number((varint(w, what)? as i32).into()),
        Elem::Scalar(Scalar::Int64) => Value::Number((varint(w, what)? as i64).into()),
        Elem::Scalar(Scalar::Double) => match w {
            Wire::Fixed64(v) => float_value(f64::from_bits(v)),
            _ => return Err(err(format!("{what}: expected a fixed64 field"))),
        },
        Elem::StringList => {
            let mut r = Reader::new(bytes(w, what)?);
            let mut items = Vec::new();
            while let Some((t, v)) = r.next()? {
                if t == 1 {
                    items.push(Value::String(string(v, what)?));
                }
            }
            Value::Array(items)
        }
        Elem::Message(def) => return message(def, bytes(w, what)?, depth + 1),
    }))
}

#[cfg(test)]
#[path = "protobuf_tests.rs"]
mod tests;
