//! [`Schema`] over an OpenAPI v3 (structural) schema as JSON, the way upstream converts
//! a CustomResourceDefinition's schema for structured merge: `x-kubernetes-list-type`
//! and `-list-map-keys` for lists (atomic when unset), `x-kubernetes-map-type` for
//! objects, `x-kubernetes-preserve-unknown-fields` and schemaless places untyped.

use serde_json::Value;

use crate::schema::{Kind, ListKind, ScalarKind, Schema};

static UNTYPED: Value = Value::Null;

/// A place in a JSON schema (`Value::Null` is an untyped place).
#[derive(Clone, Copy, Debug)]
pub struct OpenApi<'a>(pub &'a Value);

impl<'a> OpenApi<'a> {
    /// The untyped place (anything goes, deduced from values).
    pub fn untyped() -> Self {
        OpenApi(&UNTYPED)
    }

    fn ext(&self, name: &str) -> Option<&'a Value> {
        self.0.get(name)
    }

    fn flag(&self, name: &str) -> bool {
        self.ext(name).and_then(Value::as_bool).unwrap_or(false)
    }
}

impl Schema for OpenApi<'_> {
    fn kind(&self) -> Kind {
        if self.flag("x-kubernetes-int-or-string") {
            return Kind::Scalar(ScalarKind::Any);
        }
        match self.0.get("type").and_then(Value::as_str) {
            Some("object") => Kind::Map {
                atomic: self.ext("x-kubernetes-map-type").and_then(Value::as_str) == Some("atomic"),
            },
            Some("array") => Kind::List(
                match self.ext("x-kubernetes-list-type").and_then(Value::as_str) {
                    Some("set") => ListKind::Set,
                    Some("map") => ListKind::Map(
                        self.ext("x-kubernetes-list-map-keys")
                            .and_then(Value::as_array)
                            .map(|keys| {
                                keys.iter()
                                    .filter_map(|k| k.as_str().map(str::to_owned))
                                    .collect()
                            })
                            .unwrap_or_default(),
                    ),
                    _ => ListKind::Atomic,
                },
            ),
            Some("string") => Kind::Scalar(ScalarKind::String),
            Some("integer") | Some("number") => Kind::Scalar(ScalarKind::Numeric),
            Some("boolean") => Kind::Scalar(ScalarKind::Boolean),
            _ => Kind::Untyped,
        }
    }

    fn field(&self, name: &str) -> Option<Self> {
        self.0
            .get("properties")
            .and_then(|p| p.get(name))
            .map(OpenApi)
    }

    fn values(&self) -> Option<Self> {
        match self.0.get("additionalProperties") {
            Some(v @ Value::Object(_)) => Some(OpenApi(v)),
            Some(Value::Bool(true)) => Some(OpenApi::untyped()),
            _ if self.flag("x-kubernetes-preserve-unknown-fields") => Some(OpenApi::untyped()),
            _ => None,
        }
    }

    fn item(&self) -> Option<Self> {
        match self.0.get("items") {
            Some(v @ Value::Object(_)) => Some(OpenApi(v)),
            _ => Some(OpenApi::untyped()),
        }
    }

    fn key_default(&self, name: &str) -> Option<Value> {
        self.field(name).and_then(|f| f.0.get("default").cloned())
    }
}
