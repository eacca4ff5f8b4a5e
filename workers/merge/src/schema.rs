//! What merging needs to know of a type, as structured-merge-diff's schema says it:
//! scalars, lists (atomic, sets, or maps keyed by some of their items' fields) and maps
//! (structs with declared fields, maps with element types, either granular or atomic).
//!
//! The server describes built-in types from its schema table and custom resources from
//! their structural schemas; [`Schema`] is how this crate asks.

use serde_json::Value;

/// How a list's elements relate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListKind {
    /// The list is one value: replaced whole, owned whole.
    Atomic,
    /// A set of scalars, each element owned on its own (`v:` elements).
    Set,
    /// Objects identified by these key fields (`k:` elements).
    Map(Vec<String>),
}

/// The scalar types, for checking applied configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    Numeric,
    String,
    Boolean,
    /// Any scalar (int-or-string, quantities, times).
    Any,
}

/// The shape at a place of a type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Scalar(ScalarKind),
    List(ListKind),
    /// A struct or a map; `atomic` ones are one value.
    Map {
        atomic: bool,
    },
    /// Not known (a field of a `x-kubernetes-preserve-unknown-fields` object, an embedded
    /// raw object): deduced from the value, maps granular, lists atomic.
    Untyped,
}

/// A handle on a place in a type. Implementations are cheap to clone.
pub trait Schema: Clone {
    fn kind(&self) -> Kind;

    /// The declared field `name` of a struct.
    fn field(&self, name: &str) -> Option<Self>;

    /// The type of a map's values (fields not declared); `None` for a closed struct.
    fn values(&self) -> Option<Self>;

    /// The type of a list's items.
    fn item(&self) -> Option<Self>;

    /// The default of key field `name` of a keyed list's items (e.g. a container port's
    /// `protocol` is `TCP`), which stands in for a missing key.
    fn key_default(&self, _name: &str) -> Option<Value> {
        None
    }
}

/// The kind of `schema` at a value: untyped places are deduced from the value.
pub(crate) fn kind_at<S: Schema>(schema: Option<&S>, v: Option<&Value>) -> Kind {
    let declared = schema.map(Schema::kind).unwrap_or(Kind::Untyped);
    match declared {
        Kind::Untyped => match v {
            Some(Value::Object(_)) => Kind::Map { atomic: false },
            Some(Value::Array(_)) => Kind::List(ListKind::Atomic),
            _ => Kind::Scalar(ScalarKind::Any),
        },
        k => k,
    }
}

/// The type of field `name` of a map at `schema`: declared, else the map's values, else
/// (for an untyped map) untyped.
pub(crate) fn field_of<S: Schema>(schema: Option<&S>, name: &str) -> (Option<S>, bool) {
    match schema {
        None => (None, false),
        Some(s) if s.kind() == Kind::Untyped => (None, false),
        Some(s) => match s.field(name) {
            Some(f) => (Some(f), true),
            None => (s.values(), false),
        },
    }
}

/// A schema that knows nothing: everything is deduced from the values.
#[derive(Clone, Copy, Debug)]
pub struct Untyped;

impl Schema for Untyped {
    fn kind(&self) -> Kind {
        Kind::Untyped
    }
    fn field(&self, _: &str) -> Option<Self> {
        None
    }
    fn values(&self) -> Option<Self> {
        None
    }
    fn item(&self) -> Option<Self> {
        None
    }
}
