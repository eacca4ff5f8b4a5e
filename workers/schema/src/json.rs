//! Typed decoding of JSON request bodies, as kube-apiserver's decoder does it: type errors
//! in upstream's words, unknown and duplicate fields collected for `fieldValidation`, and
//! the canonical JSON of the type as output.

use serde_json::{Map, Number, Value};
use std::collections::HashSet;

use crate::formats;
use crate::quantity;
use crate::raw::Raw;
use crate::types::{Elem, FieldDef, FieldKind, Format, Scalar, TypeDef};
use crate::{DecodeError, Decoded, FieldValidation};

/// Upstream keeps at most this many unknown/duplicate field errors.
const MAX_STRICT_ERRORS: usize = 100;

const JSON_SCHEMA_PROPS: &str =
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps";

/// Decodes a JSON body into the canonical JSON of `def`.
///
/// Type errors are errors (`json: cannot unmarshal string into Go struct field
/// DeploymentSpec.spec.replicas of type int32`); unknown and duplicate fields are dropped
/// and reported as `mode` says: one [`DecodeError::Strict`] for `Strict`, one warning each
/// (`unknown field "spec.foo"`) for `Warn`, nothing for `Ignore`. `null` means absent.
pub fn decode_json(
    body: &[u8],
    def: &'static TypeDef,
    mode: FieldValidation,
) -> Result<Decoded, DecodeError> {
    let raw = Raw::parse(body).map_err(|e| DecodeError::Syntax(e.to_string()))?;
    decode_raw(raw, def, mode)
}

/// [`decode_json`] for a document already parsed (duplicate fields cannot be seen any more).
pub fn decode_value(
    value: &Value,
    def: &'static TypeDef,
    mode: FieldValidation,
) -> Result<Decoded, DecodeError> {
    decode_raw(to_raw(value), def, mode)
}

fn to_raw(v: &Value) -> Raw {
    match v {
        Value::Null => Raw::Null,
        Value::Bool(b) => Raw::Bool(*b),
        Value::Number(n) => Raw::Number(n.clone()),
        Value::String(s) => Raw::String(s.clone()),
        Value::Array(a) => Raw::Array(a.iter().map(to_raw).collect()),
        Value::Object(o) => Raw::Object(o.iter().map(|(k, v)| (k.clone(), to_raw(v))).collect()),
    }
}

fn decode_raw(
    raw: Raw,
    def: &'static TypeDef,
    mode: FieldValidation,
) -> Result<Decoded, DecodeError> {
    let mut d = Decoder::default();
    let object = match raw {
        // Upstream decodes `null` into an untouched (empty) object.
        Raw::Null => Value::Object(Map::new()),
        Raw::Object(members) if def.format == Format::Object => {
            let mut out = Map::new();
            d.object(def, members, "", &mut out)?;
            Value::Object(out)
        }
        other if def.format == Format::Object => {
            return Err(d.type_error(other.kind().to_string(), &def.go_type()));
        }
        other => d.message(def, other, "")?.unwrap_or(Value::Null),
    };
    let warnings = match mode {
        FieldValidation::Strict if !d.strict.is_empty() => {
            return Err(DecodeError::Strict(d.strict))
        }
        FieldValidation::Warn => d.strict,
        _ => Vec::new(),
    };
    Ok(Decoded { object, warnings })
}

#[derive(Default)]
struct Decoder {
    /// Unknown/duplicate field messages, in document order, without repeats.
    strict: Vec<String>,
    seen: HashSet<String>,
    /// Upstream's error context: the Go struct being decoded and the JSON field names from
    /// the root (list indices and map keys are not part of it).
    struct_name: Option<&'static str>,
    stack: Vec<&'static str>,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn go_type(e: Elem) -> String {
    match e {
        Elem::Scalar(s) => match s {
            Scalar::String => "string".into(),
            Scalar::Bool => "bool".into(),
            Scalar::Int32 => "int32".into(),
            Scalar::Int64 => "int64".into(),
            Scalar::Double => "float64".into(),
            Scalar::Bytes => "[]uint8".into(),
        },
        Elem::Message(def) => def.go_type(),
        Elem::StringList => "[]string".into(),
    }
}

/// The value upstream stores for a `null` list item or map value.
fn zero_value(e: Elem) -> Value {
    match e {
        Elem::Scalar(Scalar::String) => Value::String(String::new()),
        Elem::Scalar(Scalar::Bool) => Value::Bool(false),
        Elem::Scalar(Scalar::Int32 | Scalar::Int64 | Scalar::Double) => Value::Number(0.into()),
        Elem::Message(def) if def.format == Format::Object => Value::Object(Map::new()),
        _ => Value::Null,
    }
}

/// A float as upstream writes it: integral values without a fraction.
pub(crate) fn float_value(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        Value::Number((f as i64).into())
    } else {
        Number::from_f64(f)
            .map(Value::Number)
            .unwrap_or(Value::Null)
    }
}

impl Decoder {
    fn strict_error(&mut self, msg: String) {
        if self.strict.len() < MAX_STRICT_ERRORS && self.seen.insert(msg.clone()) {
            self.strict.push(msg);
        }
    }

    fn type_error(&self, value: String, go_type: &str) -> DecodeError {
        match self.struct_name {
            Some(s) if !self.stack.is_empty() => DecodeError::Type(format!(
                "json: cannot unmarshal {value} into Go struct field {s}.{} of type {go_type}",
                self.stack.join(".")
            )),
            _ => DecodeError::Type(format!(
                "json: cannot unmarshal {value} into Go value of type {go_type}"
            )),
        }
    }

    fn object(
        &mut self,
        def: &TypeDef,
        members: Vec<(String, Raw)>,
        path: &str,
        out: &mut Map<String, Value>,
    ) -> Result<(), DecodeError> {
        let mut seen_fields: HashSet<&'static str> = HashSet::new();
        for (key, value) in members {
            let here = join(path, &key);
            let Some(field) = def.field(&key) else {
                self.strict_error(format!("unknown field {here:?}"));
                continue;
            };
            if !seen_fields.insert(field.json) {
                self.strict_error(format!("duplicate field {here:?}"));
            }
            let saved = self.struct_name.replace(def.go_name());
            self.stack.push(field.json);
            let result = self.field(field, value, &here);
            self.stack.pop();
            self.struct_name = saved;
            // A zero Go cannot tell from unset (`omitempty` by value) is left out, as
            // upstream's encoder leaves it out of what it stores and answers.
            match result? {
                Some(v) if !field.drops(&v) => insert(out, field, v),
                _ => {
                    out.remove(field.json);
                }
            }
        }
        Ok(())
    }

    fn field(
        &mut self,
        field: &FieldDef,
        value: Raw,
        path: &str,
    ) -> Result<Option<Value>, DecodeError> {
        match field.kind {
            FieldKind::Single(e) => self.elem(e, value, path),
            FieldKind::List(e) => self.list(e, value, path),
            FieldKind::Map(e) => match value {
                Raw::Null => Ok(None),
                Raw::Object(members) => {
                    let mut out = Map::new();
                    for (k, v) in members {
                        let here = join(path, &k);
                        if out.contains_key(&k) {
                            self.strict_error(format!("duplicate field {here:?}"));
                        }
                        let v = self.elem(e, v, &here)?.unwrap_or_else(|| zero_value(e));
                        out.insert(k, v);
                    }
                    Ok(Some(Value::Object(out)))
                }
                other => {
                    Err(self.type_error(other.kind().into(), &format!("map[string]{}", go_type(e))))
                }
            },
        }
    }

    fn list(&mut self, e: Elem, value: Raw, path: &str) -> Result<Option<Value>, DecodeError> {
        match value {
            Raw::Null => Ok(None),
            Raw::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    let v = self.elem(e, item, &format!("{path}[{i}]"))?;
                    out.push(v.unwrap_or_else(|| zero_value(e)));
                }
                Ok(Some(Value::Array(out)))
            }
            other => Err(self.type_error(other.kind().into(), &format!("[]{}", go_type(e)))),
        }
    }

    fn elem(&mut self, e: Elem, value: Raw, path: &str) -> Result<Option<Value>, DecodeError> {
        if value == Raw::Null {
            return Ok(None);
        }
        match e {
            Elem::Scalar(s) => self.scalar(s, value).map(Some),
            Elem::StringList => self.list(Elem::Scalar(Scalar::String), value, path),
            Elem::Message(def) => self.message(def, value, path),
        }
    }

    fn scalar(&mut self, s: Scalar, value: Raw) -> Result<Value, DecodeError> {
        let go = go_type(Elem::Scalar(s));
        match (s, value) {
            (Scalar::String, Raw::String(v)) => Ok(Value::String(v)),
            (Scalar::Bool, Raw::Bool(b)) => Ok(Value::Bool(b)),
            (Scalar::Int32 | Scalar::Int64, Raw::Number(n)) => {
                let fits = n
                    .as_i64()
                    .filter(|i| s == Scalar::Int64 || i32::try_from(*i).is_ok());
                match fits {
                    Some(i) => Ok(Value::Number(i.into())),
                    None => Err(self.type_error(format!("number {n}"), &go)),
                }
            }
            (Scalar::Double, Raw::Number(n)) => Ok(float_value(n.as_f64().unwrap_or_default())),
            (Scalar::Bytes, Raw::String(v)) => {
                let bytes = formats::decode_base64(&v).map_err(DecodeError::Invalid)?;
                Ok(Value::String(formats::encode_base64(&bytes)))
            }
            (_, other) => Err(self.type_error(other.kind().into(), &go)),
        }
    }

    /// A value of a message type: an object, or one of the special forms.
    fn message(
        &mut self,
        def: &'static TypeDef,
        value: Raw,
        path: &str,
    ) -> Result<Option<Value>, DecodeError> {
        let inner_string = |v: &Raw| {
            DecodeError::Type(format!(
                "json: cannot unmarshal {} into Go value of type string",
                v.kind()
            ))
        };
        match def.format {
            Format::Object => match value {
                Raw::Object(members) => {
                    let mut out = Map::new();
                    self.object(def, members, path, &mut out)?;
                    Ok(Some(Value::Object(out)))
                }
                other => Err(self.type_error(other.kind().into(), &def.go_type())),
            },
            Format::Time | Format::MicroTime => {
                let Raw::String(s) = &value else {
                    return Err(inner_string(&value));
                };
                let micro = def.format == Format::MicroTime;
                let layout = if micro {
                    formats::RFC3339_MICRO
                } else {
                    formats::RFC3339
                };
                let (secs, nanos) = formats::parse_time(s, layout).map_err(DecodeError::Invalid)?;
                Ok(Some(Value::String(formats::format_time(
                    secs, nanos, micro,
                ))))
            }
            Format::Duration => {
                let Raw::String(s) = &value else {
                    return Err(inner_string(&value));
                };
                let ns = formats::parse_duration(s).map_err(DecodeError::Invalid)?;
                Ok(Some(Value::String(formats::format_duration(ns))))
            }
            Format::Quantity => {
                let text = match &value {
                    Raw::String(s) => s.trim().to_string(),
                    Raw::Number(n) => n.to_string(),
                    _ => String::new(),
                };
                match quantity::canonical(&text) {
                    Some(canonical) => Ok(Some(Value::String(canonical))),
                    None => Err(DecodeError::Invalid(quantity::QUANTITY_ERROR.into())),
                }
            }
            Format::IntOrString => match value {
                Raw::String(s) => Ok(Some(Value::String(s))),
                Raw::Number(n) => match n.as_i64().filter(|i| i32::try_from(*i).is_ok()) {
                    Some(i) => Ok(Some(Value::Number(i.into()))),
                    None => Err(DecodeError::Type(format!(
                        "json: cannot unmarshal number {n} into Go value of type int32"
                    ))),
                },
                other => Err(DecodeError::Type(format!(
                    "json: cannot unmarshal {} into Go value of type int32",
                    other.kind()
                ))),
            },
            Format::RawExtension | Format::FieldsV1 | Format::Json => Ok(Some(value.into_value())),
            Format::JsonSchemaPropsOrBool => match value {
                Raw::Bool(b) => Ok(Some(Value::Bool(b))),
                other => self.schema_props(other, path),
            },
            Format::JsonSchemaPropsOrArray => match value {
                Raw::Array(items) => {
                    let mut out = Vec::new();
                    for (i, item) in items.into_iter().enumerate() {
                        out.push(
                            self.schema_props(item, &format!("{path}[{i}]"))?
                                .unwrap_or(Value::Null),
                        );
                    }
                    Ok(Some(Value::Array(out)))
                }
                other => self.schema_props(other, path),
            },
            Format::JsonSchemaPropsOrStringArray => match value {
                Raw::Array(items) => {
                    self.list(Elem::Scalar(Scalar::String), Raw::Array(items), path)
                }
                other => self.schema_props(other, path),
            },
        }
    }

    fn schema_props(&mut self, value: Raw, path: &str) -> Result<Option<Value>, DecodeError> {
        match crate::types::type_def(JSON_SCHEMA_PROPS) {
            Some(def) => self.message(def, value, path),
            None => Ok(Some(value.into_value())),
        }
    }
}

/// Stores a field's value; a repeated object or map merges into the earlier one, as
/// upstream decodes a duplicate into the same Go value.
fn insert(out: &mut Map<String, Value>, field: &FieldDef, v: Value) {
    let merges = matches!(field.kind, FieldKind::Map(_))
        || matches!(field.kind, FieldKind::Single(Elem::Message(d)) if d.format == Format::Object);
    if merges {
        if let (Some(Value::Object(old)), Value::Object(new)) = (out.get_mut(field.json), &v) {
            for (k, val) in new {
                old.insert(k.clone(), val.clone());
            }
            return;
        }
    }
    out.insert(field.json.to_string(), v);
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
