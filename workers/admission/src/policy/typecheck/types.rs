//! The types the checker reasons about: CEL's primitive types, lists, maps, optionals,
//! and objects whose fields are known from a schema (a built-in kind's, from kas-schema,
//! or a custom resource's `openAPIV3Schema`). `Dyn` is whatever cannot be known
//! (x-kubernetes-preserve-unknown-fields, int-or-string, embedded resources, the
//! special string formats), about which nothing is said, as upstream.

use std::sync::Arc;

use kas_schema::{Elem, FieldKind, Format, Scalar, TypeDef};
use serde_json::Value;

/// A CEL type.
#[derive(Debug, Clone)]
pub(crate) enum Ty {
    Dyn,
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    List(Box<Ty>),
    Map(Box<Ty>, Box<Ty>),
    Optional(Box<Ty>),
    Object(Shape),
}

/// Where an object's fields are known from.
#[derive(Debug, Clone)]
pub(crate) enum Shape {
    /// A built-in type.
    Builtin(&'static TypeDef),
    /// A node of a structural schema; `root` for a custom resource's top level, which
    /// also has `apiVersion`, `kind` and `metadata`.
    Schema { node: Arc<Value>, root: bool },
}

impl Ty {
    /// cel-go's name of a primitive type, as its checker prints it; `None` for the
    /// others (which the checker never words a warning about).
    pub(crate) fn primitive(&self) -> Option<&'static str> {
        Some(match self {
            Ty::Null => "null_type",
            Ty::Bool => "bool",
            Ty::Int => "int",
            Ty::Uint => "uint",
            Ty::Double => "double",
            Ty::String => "string",
            Ty::Bytes => "bytes",
            _ => return None,
        })
    }

    pub(crate) fn is_numeric(&self) -> bool {
        matches!(self, Ty::Int | Ty::Uint | Ty::Double)
    }

    /// The field `name` of this type: `Ok(Some)` its type, `Ok(None)` when the type has
    /// no such field (an object whose fields are all known), `Err(())` when nothing can
    /// be said (dyn, a map's value).
    pub(crate) fn field(&self, name: &str) -> Result<Option<Ty>, ()> {
        match self {
            Ty::Object(Shape::Builtin(def)) => Ok(def.field(name).map(|f| field_ty(f.kind))),
            Ty::Object(Shape::Schema { node, root }) => Ok(schema_field(node, *root, name)),
            Ty::Map(_, v) => Ok(Some((**v).clone())),
            Ty::Optional(inner) => inner
                .field(name)
                .map(|t| t.map(|t| Ty::Optional(Box::new(t)))),
            _ => Err(()),
        }
    }

    /// The type of an element (a list's item, a map's value) reached by `[i]`.
    pub(crate) fn index(&self) -> Ty {
        match self {
            Ty::List(e) => (**e).clone(),
            Ty::Map(_, v) => (**v).clone(),
            _ => Ty::Dyn,
        }
    }

    /// What a comprehension iterates as: a list's items, a map's keys.
    pub(crate) fn iterated(&self) -> Ty {
        match self {
            Ty::List(e) => (**e).clone(),
            Ty::Map(k, _) => (**k).clone(),
            _ => Ty::Dyn,
        }
    }
}

/// A built-in kind's type.
pub(crate) fn builtin(def: &'static TypeDef) -> Ty {
    Ty::Object(Shape::Builtin(def))
}

/// A custom resource's type from its `openAPIV3Schema`.
pub(crate) fn custom(schema: Value) -> Ty {
    Ty::Object(Shape::Schema {
        node: Arc::new(schema),
        root: true,
    })
}

fn elem_ty(e: Elem) -> Ty {
    match e {
        Elem::Scalar(Scalar::String) => Ty::String,
        Elem::Scalar(Scalar::Bool) => Ty::Bool,
        Elem::Scalar(Scalar::Int32 | Scalar::Int64) => Ty::Int,
        Elem::Scalar(Scalar::Double) => Ty::Double,
        Elem::Scalar(Scalar::Bytes) => Ty::Bytes,
        Elem::StringList => Ty::List(Box::new(Ty::String)),
        // Times, durations, quantities, int-or-strings and raw JSON: left to run time.
        Elem::Message(def) if def.format != Format::Object => Ty::Dyn,
        Elem::Message(def) => builtin(def),
    }
}

fn field_ty(kind: FieldKind) -> Ty {
    match kind {
        FieldKind::Single(e) => elem_ty(e),
        FieldKind::List(e) => Ty::List(Box::new(elem_ty(e))),
        FieldKind::Map(e) => Ty::Map(Box::new(Ty::String), Box::new(elem_ty(e))),
    }
}

fn schema_field(node: &Value, root: bool, name: &str) -> Option<Ty> {
    if let Some(p) = node.pointer(&format!(
        "/properties/{}",
        name.replace('~', "~0").replace('/', "~1")
    )) {
        return Some(schema_ty(p));
    }
    if root {
        match name {
            "apiVersion" | "kind" => return Some(Ty::String),
            "metadata" => {
                return Some(
                    kas_schema::type_def("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
                        .map(builtin)
                        .unwrap_or(Ty::Dyn),
                )
            }
            _ => {}
        }
    }
    // Unknown fields kept: anything may be there.
    let preserved = node
        .get("x-kubernetes-preserve-unknown-fields")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    preserved.then_some(Ty::Dyn)
}

/// The type a structural schema node describes.
pub(crate) fn schema_ty(node: &Value) -> Ty {
    let flag = |k: &str| node.get(k).and_then(Value::as_bool).unwrap_or(false);
    if flag("x-kubernetes-int-or-string") || flag("x-kubernetes-embedded-resource") {
        return Ty::Dyn;
    }
    let format = node.get("format").and_then(Value::as_str).unwrap_or("");
    match node.get("type").and_then(Value::as_str).unwrap_or("") {
        "string" if format == "byte" => Ty::Bytes,
        // date-time and duration are CEL timestamps and durations: left to run time.
        "string" if matches!(format, "date-time" | "duration") => Ty::Dyn,
        "string" => Ty::String,
        "integer" => Ty::Int,
        "number" => Ty::Double,
        "boolean" => Ty::Bool,
        "array" => Ty::List(Box::new(
            node.get("items").map(schema_ty).unwrap_or(Ty::Dyn),
        )),
        "object" => {
            let has_properties = node.get("properties").is_some_and(Value::is_object);
            match node.get("additionalProperties") {
                Some(v) if v.is_object() && !has_properties => {
                    Ty::Map(Box::new(Ty::String), Box::new(schema_ty(v)))
                }
                _ if has_properties => Ty::Object(Shape::Schema {
                    node: Arc::new(node.clone()),
                    root: false,
                }),
                _ => Ty::Dyn,
            }
        }
        _ => Ty::Dyn,
    }
}
