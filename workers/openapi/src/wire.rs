//! The protobuf wire format as the gnostic encoders ([`crate::proto`], [`crate::proto_v3`])
//! write it: a message writer, the JSON accessors they share, and the two gnostic
//! messages both OpenAPI versions define alike (`Any`, `NamedAny`).

use serde_json::{Map, Value};

/// A protobuf message being written. Fields are written in the order the caller writes
/// them; the encoders write them in field-number order, as Go's `proto.Marshal` does.
#[derive(Default)]
pub(crate) struct Writer(Vec<u8>);

impl Writer {
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    #[cfg(test)]
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    pub(crate) fn varint(&mut self, mut value: u64) {
        while value >= 0x80 {
            self.0.push((value as u8) | 0x80);
            value >>= 7;
        }
        self.0.push(value as u8);
    }

    pub(crate) fn key(&mut self, field: u32, wire_type: u8) {
        self.varint((u64::from(field) << 3) | u64::from(wire_type));
    }

    pub(crate) fn bytes(&mut self, field: u32, bytes: &[u8]) {
        self.key(field, 2);
        self.varint(bytes.len() as u64);
        self.0.extend_from_slice(bytes);
    }

    /// A string field; proto3 leaves empty strings out.
    pub(crate) fn string(&mut self, field: u32, value: &str) {
        if !value.is_empty() {
            self.bytes(field, value.as_bytes());
        }
    }

    pub(crate) fn bool(&mut self, field: u32, value: bool) {
        if value {
            self.oneof_bool(field, true);
        }
    }

    pub(crate) fn int64(&mut self, field: u32, value: i64) {
        if value != 0 {
            self.key(field, 0);
            self.varint(value as u64);
        }
    }

    pub(crate) fn double(&mut self, field: u32, value: f64) {
        if value != 0.0 {
            self.oneof_double(field, value);
        }
    }

    /// A `oneof` member: written even when it holds the zero value, since being set is
    /// what says which member it is.
    pub(crate) fn oneof_bool(&mut self, field: u32, value: bool) {
        self.key(field, 0);
        self.varint(u64::from(value));
    }

    /// A `oneof` member (see [`Writer::oneof_bool`]).
    pub(crate) fn oneof_double(&mut self, field: u32, value: f64) {
        self.key(field, 1);
        self.0.extend_from_slice(&value.to_le_bytes());
    }

    /// A `oneof` member (see [`Writer::oneof_bool`]).
    pub(crate) fn oneof_string(&mut self, field: u32, value: &str) {
        self.bytes(field, value.as_bytes());
    }

    /// A sub-message; written even when empty (Go writes every non-nil message).
    pub(crate) fn message(&mut self, field: u32, write: impl FnOnce(&mut Writer)) {
        let mut inner = Writer::default();
        write(&mut inner);
        self.bytes(field, &inner.0);
    }
}

pub(crate) fn str_of<'a>(object: &'a Map<String, Value>, key: &str) -> &'a str {
    object.get(key).and_then(Value::as_str).unwrap_or("")
}

pub(crate) fn bool_of(object: &Map<String, Value>, key: &str) -> bool {
    object.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// `repeated string` from a JSON array; non-strings are skipped.
pub(crate) fn strings(w: &mut Writer, field: u32, value: Option<&Value>) {
    for item in value.and_then(Value::as_array).into_iter().flatten() {
        if let Some(s) = item.as_str() {
            w.bytes(field, s.as_bytes());
        }
    }
}

/// gnostic's `Any`, the same in v2 and v3: the value as YAML text in field 2. We write
/// JSON, which YAML reads alike; gnostic re-emits the parsed node as block YAML.
pub(crate) fn any(w: &mut Writer, field: u32, value: &Value) {
    w.message(field, |w| w.string(2, &value.to_string()));
}

/// `repeated NamedAny` (`{name = 1, value = 2}`) from the `x-` keys of `object`, in the
/// object's order.
pub(crate) fn extensions(w: &mut Writer, field: u32, object: &Map<String, Value>) {
    for (name, value) in object.iter().filter(|(k, _)| k.starts_with("x-")) {
        w.message(field, |w| {
            w.string(1, name);
            any(w, 2, value);
        });
    }
}
