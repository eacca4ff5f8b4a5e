//! The types server-side apply merges by: built-in types from the schema table (list
//! kinds from `+listType`/`+listMapKey`, else from the strategic-merge markers as
//! upstream's OpenAPI conversion does; atomic maps and structs from `+mapType` and
//! `+structType`), custom resources from their structural schema with the built-in
//! ObjectMeta under `metadata`.

use kas_merge::{Kind, ListKind, OpenApi, ScalarKind, Schema};
use kas_schema::{Elem, FieldDef, FieldKind, Format, Scalar, TypeDef};
use serde_json::Value;

const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/// A place in a built-in type or a custom resource's schema.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Pos<'a> {
    Type(&'static TypeDef),
    Field(&'static FieldDef),
    Elem(Elem),
    /// The root of a custom resource.
    CustomRoot(OpenApi<'a>),
    Custom(OpenApi<'a>),
}

impl<'a> Pos<'a> {
    /// The root of a built-in type by its definition name (untyped when unknown).
    pub(crate) fn builtin(definition: &str) -> Pos<'a> {
        match kas_schema::type_def(definition) {
            Some(t) => Pos::Type(t),
            None => Pos::Custom(OpenApi::untyped()),
        }
    }

    /// The root of a custom resource with this `openAPIV3Schema` (untyped without one).
    pub(crate) fn custom(schema: Option<&'a Value>) -> Pos<'a> {
        Pos::CustomRoot(schema.map(OpenApi).unwrap_or_else(OpenApi::untyped))
    }
}

fn scalar(s: Scalar) -> Kind {
    Kind::Scalar(match s {
        Scalar::String | Scalar::Bytes => ScalarKind::String,
        Scalar::Bool => ScalarKind::Boolean,
        Scalar::Int32 | Scalar::Int64 | Scalar::Double => ScalarKind::Numeric,
    })
}

fn type_kind(t: &TypeDef) -> Kind {
    match t.format {
        Format::Object => Kind::Map {
            atomic: t.is_atomic(),
        },
        Format::Time
        | Format::MicroTime
        | Format::Duration
        | Format::Quantity
        | Format::IntOrString => Kind::Scalar(ScalarKind::Any),
        _ => Kind::Untyped,
    }
}

fn elem_kind(e: Elem) -> Kind {
    match e {
        Elem::Scalar(s) => scalar(s),
        Elem::Message(t) => type_kind(t),
        Elem::StringList => Kind::List(ListKind::Atomic),
    }
}

/// A list field's kind: `+listType` first; else a `merge` patch strategy makes a map
/// keyed by the merge key (a set without one); else atomic.
fn list_kind(f: &FieldDef) -> ListKind {
    match f.list_type {
        Some("set") => return ListKind::Set,
        Some("map") => {
            return ListKind::Map(f.list_map_keys.iter().map(|k| (*k).to_owned()).collect())
        }
        Some(_) => return ListKind::Atomic,
        None => {}
    }
    let merge = f
        .patch_strategy
        .is_some_and(|s| s.split(',').any(|p| p == "merge"));
    match (merge, f.patch_merge_key) {
        (true, Some(k)) => ListKind::Map(vec![k.to_owned()]),
        (true, None) => ListKind::Set,
        _ => ListKind::Atomic,
    }
}

fn type_field(t: &'static TypeDef, name: &str) -> Option<Pos<'static>> {
    t.field(name).map(Pos::Field)
}

impl<'a> Schema for Pos<'a> {
    fn kind(&self) -> Kind {
        match *self {
            Pos::Type(t) => type_kind(t),
            Pos::Field(f) => match f.kind {
                FieldKind::List(_) => Kind::List(list_kind(f)),
                FieldKind::Map(_) => Kind::Map {
                    atomic: f.is_atomic_map(),
                },
                FieldKind::Single(Elem::Message(t)) if t.format == Format::Object => Kind::Map {
                    atomic: f.is_atomic_map(),
                },
                FieldKind::Single(e) => elem_kind(e),
            },
            Pos::Elem(e) => elem_kind(e),
            Pos::CustomRoot(s) => match s.kind() {
                Kind::Untyped => Kind::Map { atomic: false },
                k => k,
            },
            Pos::Custom(s) => s.kind(),
        }
    }

    fn field(&self, name: &str) -> Option<Self> {
        match *self {
            Pos::Type(t) => type_field(t, name),
            Pos::Field(f) => match f.kind {
                FieldKind::Single(Elem::Message(t)) => type_field(t, name),
                _ => None,
            },
            Pos::Elem(Elem::Message(t)) => type_field(t, name),
            Pos::Elem(_) => None,
            Pos::CustomRoot(s) => match name {
                "metadata" => Some(Pos::builtin(OBJECT_META)),
                "apiVersion" | "kind" => Some(Pos::Elem(Elem::Scalar(Scalar::String))),
                _ => s.field(name).map(Pos::Custom),
            },
            Pos::Custom(s) => s.field(name).map(Pos::Custom),
        }
    }

    fn values(&self) -> Option<Self> {
        match *self {
            Pos::Field(FieldDef {
                kind: FieldKind::Map(e),
                ..
            }) => Some(Pos::Elem(*e)),
            Pos::CustomRoot(s) => match s.kind() {
                Kind::Untyped => Some(Pos::Custom(OpenApi::untyped())),
                _ => s.values().map(Pos::Custom),
            },
            Pos::Custom(s) => s.values().map(Pos::Custom),
            _ => None,
        }
    }

    fn item(&self) -> Option<Self> {
        match *self {
            Pos::Field(FieldDef {
                kind: FieldKind::List(e),
                ..
            }) => Some(Pos::Elem(*e)),
            Pos::Elem(Elem::StringList) => Some(Pos::Elem(Elem::Scalar(Scalar::String))),
            Pos::CustomRoot(s) | Pos::Custom(s) => s.item().map(Pos::Custom),
            _ => None,
        }
    }

    fn key_default(&self, name: &str) -> Option<Value> {
        match *self {
            // The only list-map keys with a `+default` in v1.33's types.
            Pos::Elem(Elem::Message(t))
                if name == "protocol"
                    && matches!(
                        t.name,
                        "io.k8s.api.core.v1.ContainerPort" | "io.k8s.api.core.v1.ServicePort"
                    ) =>
            {
                Some(Value::String("TCP".into()))
            }
            Pos::Custom(s) => s.key_default(name),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn built_in_lists_and_maps_take_upstreams_kinds() {
        let pod = Pos::builtin("io.k8s.api.core.v1.Pod");
        let spec = pod.field("spec").unwrap();
        assert_eq!(
            spec.field("containers").unwrap().kind(),
            Kind::List(ListKind::Map(vec!["name".into()]))
        );
        let ports = spec
            .field("containers")
            .unwrap()
            .item()
            .unwrap()
            .field("ports")
            .unwrap();
        assert_eq!(
            ports.kind(),
            Kind::List(ListKind::Map(vec![
                "containerPort".into(),
                "protocol".into()
            ]))
        );
        assert_eq!(
            ports.item().unwrap().key_default("protocol"),
            Some(json!("TCP"))
        );
        assert_eq!(
            spec.field("nodeSelector").unwrap().kind(),
            Kind::Map { atomic: true }
        );
        let meta = pod.field("metadata").unwrap();
        assert_eq!(
            meta.field("labels").unwrap().kind(),
            Kind::Map { atomic: false }
        );
        assert_eq!(
            meta.field("finalizers").unwrap().kind(),
            Kind::List(ListKind::Set)
        );
        assert_eq!(
            meta.field("ownerReferences").unwrap().kind(),
            Kind::List(ListKind::Map(vec!["uid".into()]))
        );
        let dep = Pos::builtin("io.k8s.api.apps.v1.Deployment");
        let selector = dep.field("spec").unwrap().field("selector").unwrap();
        assert_eq!(selector.kind(), Kind::Map { atomic: true });
        let args = spec
            .field("containers")
            .unwrap()
            .item()
            .unwrap()
            .field("args")
            .unwrap();
        assert_eq!(args.kind(), Kind::List(ListKind::Atomic));
    }

    #[test]
    fn custom_resources_use_object_meta_under_metadata() {
        let s = json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {"n": {"type": "integer"}}}}});
        let root = Pos::custom(Some(&s));
        assert_eq!(
            root.field("metadata")
                .unwrap()
                .field("labels")
                .unwrap()
                .kind(),
            Kind::Map { atomic: false }
        );
        assert_eq!(
            root.field("spec").unwrap().field("n").unwrap().kind(),
            Kind::Scalar(ScalarKind::Numeric)
        );
        let untyped = Pos::custom(None);
        assert_eq!(untyped.kind(), Kind::Map { atomic: false });
        assert!(untyped.values().is_some());
    }
}
