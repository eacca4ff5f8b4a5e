//! Rendering the types k8s-openapi 0.29 lacks but the server serves (the `meta.k8s.io/v1`
//! transformation targets `PartialObjectMetadata[List]` and `Table`, and aggregated
//! discovery `apidiscovery.k8s.io/v2`) from upstream's Go structs: JSON names, `omitempty`
//! (optional) and field order from the Go struct; protobuf tags, value types and markers
//! from k8s-pb where it has the message (`Table` and its parts are `+protobuf=false`
//! upstream and have none: their fields get tag 0 and their types from Go).

use std::collections::{BTreeMap, BTreeSet};

use crate::go_parse::GoType;
use crate::go_types::go_package;
use crate::render::{format_of, ident, proto_name, Gen};
use crate::sources::{definition_module, norm};

/// Group, version and kind.
type Gvk = (&'static str, &'static str, &'static str);

/// The definitions rendered from Go, with the group/version/kind of the registered ones
/// (upstream's `AddKnownTypes` in `meta/v1/register.go` and `apidiscovery/v2/register.go`).
pub(crate) const FROM_GO: &[(&str, Option<Gvk>)] = &[
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionKind",
        None,
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata",
        Some(("meta.k8s.io", "v1", "PartialObjectMetadata")),
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.PartialObjectMetadataList",
        Some(("meta.k8s.io", "v1", "PartialObjectMetadataList")),
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.Table",
        Some(("meta.k8s.io", "v1", "Table")),
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.TableColumnDefinition",
        None,
    ),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.TableOptions",
        Some(("meta.k8s.io", "v1", "TableOptions")),
    ),
    ("io.k8s.apimachinery.pkg.apis.meta.v1.TableRow", None),
    (
        "io.k8s.apimachinery.pkg.apis.meta.v1.TableRowCondition",
        None,
    ),
    (
        "io.k8s.api.apidiscovery.v2.APIGroupDiscovery",
        Some(("apidiscovery.k8s.io", "v2", "APIGroupDiscovery")),
    ),
    (
        "io.k8s.api.apidiscovery.v2.APIGroupDiscoveryList",
        Some(("apidiscovery.k8s.io", "v2", "APIGroupDiscoveryList")),
    ),
    ("io.k8s.api.apidiscovery.v2.APIResourceDiscovery", None),
    ("io.k8s.api.apidiscovery.v2.APISubresourceDiscovery", None),
    ("io.k8s.api.apidiscovery.v2.APIVersionDiscovery", None),
];

/// The definition name of Go type `pkg.name` (`k8s.io/apimachinery/pkg/runtime`,
/// `RawExtension` → `io.k8s.apimachinery.pkg.runtime.RawExtension`).
fn go_definition(pkg: &str, name: &str) -> String {
    let rest = pkg.strip_prefix("k8s.io/").unwrap_or(pkg);
    format!("io.k8s.{}.{name}", rest.replace('/', "."))
}

impl Gen {
    /// Renders `def` from its Go struct (and k8s-pb message, if any).
    pub(crate) fn render_go(&mut self, def: &str, gvk: Option<(String, String, String)>) {
        if self.out.contains_key(def) {
            return;
        }
        let (module, pb_name) = definition_module(def);
        let (pkg, go_name) = go_package(def);
        let fields = self
            .go
            .struct_fields(&pkg, &go_name)
            .unwrap_or_else(|e| panic!("{def}: {e}"));
        let pb = self.pb_struct(&module, &pb_name).cloned();
        let mut lines: Vec<(u32, String, Option<String>)> = Vec::new();
        let mut used = BTreeSet::new();
        for f in &fields {
            let Some(json) = f.json_name() else {
                // Embedded and flattened: only `TypeMeta` is (apiVersion, kind; not in
                // protobuf, as on every kind of the table).
                if f.name.is_none() {
                    assert!(
                        matches!(&f.ty, GoType::Named { name, .. } if name == "TypeMeta"),
                        "{def}: flattened embedded {:?} not supported",
                        f.ty
                    );
                    for json in ["apiVersion", "kind"] {
                        let line = format!(
                            "FieldDef::new({json:?}, 0, K::Single(E::Scalar(S::String)), true)"
                        );
                        lines.push((0, line, Some(json.to_string())));
                    }
                }
                continue;
            };
            let optional = f.omitempty();
            let pb_field = pb
                .as_ref()
                .and_then(|pb| pb.fields.iter().find(|p| norm(&p.rust) == norm(&json)));
            let (tag, line) = match pb_field {
                Some(p) => {
                    used.insert(p.tag);
                    (p.tag, self.field_line(&json, p, optional, false))
                }
                None => {
                    if pb.is_some() {
                        self.notes
                            .push(format!("{def}: JSON field {json} has no protobuf field"));
                    }
                    let kind = self.go_kind(def, &f.ty);
                    (0, format!("FieldDef::new({json:?}, 0, {kind}, {optional})"))
                }
            };
            lines.push((tag, line, Some(json)));
        }
        let proto = match &pb {
            Some(pb) => {
                for p in pb.fields.iter().filter(|p| !used.contains(&p.tag)) {
                    self.notes.push(format!(
                        "{def}: protobuf field {} has no Go JSON field; left out",
                        p.rust
                    ));
                }
                proto_name(&module, &pb_name)
            }
            None => {
                self.notes.push(format!(
                    "{def}: no protobuf message (+protobuf=false upstream); fields from Go"
                ));
                String::new()
            }
        };
        lines.sort_by_key(|(tag, _, _)| *tag);
        self.emit(def, &proto, gvk, lines, &BTreeMap::new());
    }

    /// `K::…` of a field of Go type `ty` that protobuf does not describe.
    fn go_kind(&mut self, def: &str, ty: &GoType) -> String {
        match ty {
            GoType::Pointer(inner) => self.go_kind(def, inner),
            GoType::Slice(item) if matches!(&**item, GoType::Builtin(b) if b == "byte") => {
                "K::Single(E::Scalar(S::Bytes))".into()
            }
            GoType::Slice(item) => format!("K::List({})", self.go_elem(def, item)),
            other => format!("K::Single({})", self.go_elem(def, other)),
        }
    }

    /// `E::…` of a value of Go type `ty`.
    fn go_elem(&mut self, def: &str, ty: &GoType) -> String {
        match ty {
            GoType::Pointer(inner) => self.go_elem(def, inner),
            GoType::Builtin(b) => match b.as_str() {
                "string" => "E::Scalar(S::String)".into(),
                "bool" => "E::Scalar(S::Bool)".into(),
                "int8" | "int16" | "int32" | "uint8" | "uint16" => "E::Scalar(S::Int32)".into(),
                "int" | "int64" | "uint" | "uint32" | "uint64" => "E::Scalar(S::Int64)".into(),
                "float32" | "float64" => "E::Scalar(S::Double)".into(),
                "any" => self.any_json(def),
                other => panic!("{def}: Go type {other} not supported"),
            },
            // `interface{}` (Table cells): any JSON value.
            GoType::Other => self.any_json(def),
            GoType::Named { pkg, name } => {
                let target = go_definition(pkg, name);
                let resolved = self.go.resolve(pkg, name);
                match resolved {
                    _ if format_of(&target) != "Object" => self.message(&target),
                    Some((_, _, GoType::Struct(_))) => self.message(&target),
                    // A defined type over a builtin (`RowConditionType string`).
                    Some((_, _, underlying)) => self.go_elem(def, &underlying),
                    None => panic!("{def}: no Go type {pkg}.{name}"),
                }
            }
            other => panic!("{def}: Go type {other:?} not supported as a value"),
        }
    }

    fn message(&mut self, target: &str) -> String {
        self.wanted.insert(target.to_string());
        format!("E::Message(&{})", ident(target))
    }

    /// An arbitrary JSON value is held as a `runtime.RawExtension` (its JSON form is any
    /// value, kept as is).
    fn any_json(&mut self, def: &str) -> String {
        self.notes.push(format!(
            "{def}: an interface{{}} field is held as RawExtension"
        ));
        self.message("io.k8s.apimachinery.pkg.runtime.RawExtension")
    }
}
