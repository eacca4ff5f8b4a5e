//! Rendering the table: matching each OpenAPI type with its protobuf message field by field
//! and writing one `static TypeDef` per type.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::go_types::{GoTypes, JsonField};
use crate::sources::{definition_module, module_definition, norm, OaType, PbField, PbStruct};

/// `T` of `Option<T>`, or the type itself.
pub(crate) fn strip_option(ty: &syn::Type) -> syn::Type {
    if let syn::Type::Path(tp) = ty {
        if let Some(last) = tp.path.segments.last() {
            if last.ident == "Option" {
                if let syn::PathArguments::AngleBracketed(a) = &last.arguments {
                    if let Some(syn::GenericArgument::Type(t)) = a.args.first() {
                        return strip_option(t);
                    }
                }
            }
        }
    }
    ty.clone()
}

pub(crate) fn ident(def: &str) -> String {
    def.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

pub(crate) fn format_of(def: &str) -> &'static str {
    match def {
        "io.k8s.apimachinery.pkg.apis.meta.v1.Time" => "Time",
        "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime" => "MicroTime",
        "io.k8s.apimachinery.pkg.apis.meta.v1.Duration" => "Duration",
        "io.k8s.apimachinery.pkg.api.resource.Quantity" => "Quantity",
        "io.k8s.apimachinery.pkg.util.intstr.IntOrString" => "IntOrString",
        "io.k8s.apimachinery.pkg.runtime.RawExtension" => "RawExtension",
        "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1" => "FieldsV1",
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON" => "Json",
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray" => {
            "JsonSchemaPropsOrArray"
        }
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool" => {
            "JsonSchemaPropsOrBool"
        }
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray" => {
            "JsonSchemaPropsOrStringArray"
        }
        _ => "Object",
    }
}

/// Upstream's protobuf package for a k8s-pb module.
pub(crate) fn proto_name(module: &[String], go_name: &str) -> String {
    format!("k8s.io.{}.{}", module.join("."), go_name)
}

pub(crate) fn lower_camel(snake: &str) -> String {
    let mut out = String::new();
    let mut up = false;
    for c in snake.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

pub(crate) struct Gen {
    pub(crate) pb: BTreeMap<(Vec<String>, String), PbStruct>,
    /// lowercase (module, name) → actual k8s-pb key
    pub(crate) pb_index: BTreeMap<(Vec<String>, String), (Vec<String>, String)>,
    /// definition → rendered static
    pub(crate) out: BTreeMap<String, String>,
    /// definition names referenced but not (yet) rendered
    pub(crate) wanted: BTreeSet<String>,
    pub(crate) kinds: Vec<(String, String, String, String)>,
    pub(crate) notes: Vec<String>,
    /// JSON names of all k8s-openapi fields by normalized name (`scaleio` → `scaleIO`)
    pub(crate) json_names: BTreeMap<String, String>,
    /// JSON field names of each k8s-openapi type
    pub(crate) type_fields: BTreeMap<String, BTreeSet<String>>,
    /// definition names known to the openapi side, with the Go name
    pub(crate) go_names: BTreeMap<(Vec<String>, String), String>,
    /// upstream's Go types
    pub(crate) go: GoTypes,
    /// JSON fields of the Go struct of each definition (or why there is none)
    pub(crate) go_fields: BTreeMap<String, Result<Vec<JsonField>, String>>,
    /// fields given a zero, and all fields of object types
    pub(crate) zero_fields: usize,
    /// fields whose zero value Go drops (`omitempty` scalars held by value)
    pub(crate) omits_zero_fields: usize,
    pub(crate) object_fields: usize,
}

impl Gen {
    pub(crate) fn pb_struct(&self, module: &[String], name: &str) -> Option<&PbStruct> {
        let key = self
            .pb_index
            .get(&(module.to_vec(), name.to_ascii_lowercase()))?;
        self.pb.get(key)
    }

    pub(crate) fn go_name(&self, module: &[String], pb_name: &str) -> String {
        self.go_names
            .get(&(module.to_vec(), pb_name.to_ascii_lowercase()))
            .cloned()
            .unwrap_or_else(|| pb_name.to_string())
    }

    /// The element of a pb field: `S(S::String)`, `M(&IDENT)`, `StringList`.
    fn elem(&mut self, f: &PbField) -> String {
        let base = f.ty.strip_prefix("map:").unwrap_or(&f.ty);
        match base {
            "string" => "E::Scalar(S::String)".into(),
            "bool" => "E::Scalar(S::Bool)".into(),
            "int32" => "E::Scalar(S::Int32)".into(),
            "int64" => "E::Scalar(S::Int64)".into(),
            "double" | "float" => "E::Scalar(S::Double)".into(),
            "bytes" => "E::Scalar(S::Bytes)".into(),
            "message" => {
                let (module, name) = f.msg.clone().expect("message target");
                let st = self
                    .pb_struct(&module, &name)
                    .expect("referenced pb struct");
                if st
                    .markers
                    .iter()
                    .any(|(k, v)| k == "protobuf.nullable" && v == "true")
                {
                    return "E::StringList".into();
                }
                let def = module_definition(&module, &self.go_name(&module, &name));
                self.wanted.insert(def.clone());
                format!("E::Message(&{})", ident(&def))
            }
            other => panic!("unknown prost type {other}"),
        }
    }

    /// Normalized names of a pb struct's fields and, a few levels down, of its message
    /// fields' fields (embedded structs may embed further structs).
    fn reachable_names(
        &self,
        module: &[String],
        name: &str,
        depth: u32,
        out: &mut BTreeSet<String>,
    ) {
        let Some(st) = self.pb_struct(module, name) else {
            return;
        };
        for f in &st.fields {
            out.insert(norm(&f.rust));
            if depth > 1 && f.ty == "message" && !f.repeated {
                if let Some((m, n)) = &f.msg {
                    self.reachable_names(m, n, depth - 1, out);
                }
            }
        }
    }

    /// The element of a k8s-openapi Rust type (`String`, `crate::api::core::v1::Pod`).
    fn oa_elem(&mut self, ty: &syn::Type) -> String {
        let syn::Type::Path(tp) = ty else {
            panic!("unexpected k8s-openapi type")
        };
        let segs: Vec<String> = tp
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let last = tp.path.segments.last().expect("segment");
        let arg = match &last.arguments {
            syn::PathArguments::AngleBracketed(a) => a.args.iter().rev().find_map(|a| match a {
                syn::GenericArgument::Type(t) => Some(t.clone()),
                _ => None,
            }),
            _ => None,
        };
        match segs.last().map(String::as_str) {
            Some("String") => "E::Scalar(S::String)".into(),
            Some("bool") => "E::Scalar(S::Bool)".into(),
            Some("i32") => "E::Scalar(S::Int32)".into(),
            Some("i64") => "E::Scalar(S::Int64)".into(),
            Some("f64") => "E::Scalar(S::Double)".into(),
            Some("ByteString") => "E::Scalar(S::Bytes)".into(),
            Some("Vec") => "E::StringList".into(),
            Some("Box") | Some("Option") => self.oa_elem(&arg.expect("argument")),
            Some(name) if segs.first().is_some_and(|s| s == "crate") => {
                let module: Vec<String> = segs[1..segs.len() - 1].to_vec();
                let def = module_definition(&module, name);
                self.wanted.insert(def.clone());
                format!("E::Message(&{})", ident(&def))
            }
            other => panic!("unexpected k8s-openapi type {other:?}"),
        }
    }

    /// A field only k8s-openapi knows (no protobuf tag).
    fn oa_field_line(&mut self, json: &str, ty: &syn::Type, optional: bool) -> String {
        let ty = strip_option(ty);
        let syn::Type::Path(tp) = &ty else {
            panic!("unexpected k8s-openapi type")
        };
        let last = tp.path.segments.last().expect("segment");
        let args: Vec<syn::Type> = match &last.arguments {
            syn::PathArguments::AngleBracketed(a) => a
                .args
                .iter()
                .filter_map(|a| match a {
                    syn::GenericArgument::Type(t) => Some(t.clone()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let kind = match last.ident.to_string().as_str() {
            "Vec" => format!("K::List({})", self.oa_elem(&args[0])),
            "BTreeMap" => format!("K::Map({})", self.oa_elem(&args[1])),
            _ => format!("K::Single({})", self.oa_elem(&ty)),
        };
        format!("FieldDef::new({json:?}, 0, {kind}, {optional})")
    }

    pub(crate) fn field_line(
        &mut self,
        json: &str,
        f: &PbField,
        optional: bool,
        inline: bool,
    ) -> String {
        let elem = self.elem(f);
        let kind = if f.ty.starts_with("map:") {
            format!("K::Map({elem})")
        } else if f.repeated {
            format!("K::List({elem})")
        } else {
            format!("K::Single({elem})")
        };
        let mut s = format!("FieldDef::new({json:?}, {}, {kind}, {optional})", f.tag);
        if inline {
            s.push_str(".inline()");
        }
        let get = |k: &str| {
            f.markers
                .iter()
                .find(|(mk, _)| mk == k)
                .map(|(_, v)| v.clone())
        };
        let strategy = get("patchStrategy");
        let key = get("patchMergeKey");
        if strategy.is_some() || key.is_some() {
            write!(s, ".patch({strategy:?}, {key:?})").expect("write");
        }
        let list_type = get("listType");
        let keys: Vec<String> = f
            .markers
            .iter()
            .filter(|(k, _)| k == "listMapKey")
            .map(|(_, v)| v.clone())
            .collect();
        // Keys naming item fields newer than v1.33 are left out.
        let keys: Vec<String> = match &f.msg {
            Some((m, n)) => {
                let item = module_definition(m, &self.go_name(m, n));
                match self.type_fields.get(&item) {
                    Some(fields) => {
                        let (known, newer): (Vec<String>, Vec<String>) =
                            keys.into_iter().partition(|k| fields.contains(k));
                        if !newer.is_empty() {
                            self.notes.push(format!(
                                "{item}: list map keys {newer:?} are not v1.33 fields; left out"
                            ));
                        }
                        known
                    }
                    None => keys,
                }
            }
            None => keys,
        };
        if list_type.is_some() || !keys.is_empty() {
            write!(s, ".list({list_type:?}, &{keys:?})").expect("write");
        }
        // kube-openapi writes both as `x-kubernetes-map-type` on the property: `+mapType`
        // on a map field, `+structType` on a struct field (`PersistentVolumeSpec.claimRef`).
        match get("mapType").or_else(|| get("structType")) {
            Some(t) if ["atomic", "granular"].contains(&t.as_str()) => {
                write!(s, ".map_type({t:?})").expect("write");
            }
            Some(t) => self.notes.push(format!(
                "{json} ({}): map type {t} is not atomic/granular; left out",
                f.rust
            )),
            None => {}
        }
        s
    }

    /// `+structType` (or a type-level `+mapType`) on the k8s-pb struct of `def`, which
    /// kube-openapi writes as `x-kubernetes-map-type` on the definition.
    fn struct_type(&self, def: &str) -> Option<String> {
        let (module, go_name) = definition_module(def);
        let markers = &self.pb_struct(&module, &go_name)?.markers;
        ["structType", "mapType"].iter().find_map(|key| {
            markers
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
        })
    }

    pub(crate) fn render(
        &mut self,
        def: &str,
        oa: Option<&OaType>,
        gvk: Option<(String, String, String)>,
    ) {
        if self.out.contains_key(def) {
            return;
        }
        let (module, go_name) = definition_module(def);
        let format = format_of(def);
        let pb = self.pb_struct(&module, &go_name).cloned();
        let mut lines: Vec<(u32, String, Option<String>)> = Vec::new();
        // Go type names of the embedded (inline) fields, by protobuf tag.
        let mut inline_types = BTreeMap::new();
        if format == "Object" {
            match (oa, &pb) {
                (Some(oa), Some(pb)) => {
                    let mut used = BTreeSet::new();
                    let mut unmatched = Vec::new();
                    for (json, rust, required) in &oa.fields {
                        let n = norm(json);
                        match pb.fields.iter().find(|f| norm(&f.rust) == n) {
                            Some(f) => {
                                used.insert(f.tag);
                                let line = self.field_line(json, f, !required, false);
                                // Cross-check the protobuf type with k8s-openapi's Rust type.
                                if let Some(ty) = oa.syn_types.get(rust) {
                                    let from_oa = self.oa_field_line(json, ty, !required);
                                    let kind = |l: &str| l.split(", ").nth(2).map(str::to_string);
                                    if kind(&line) != kind(&from_oa) {
                                        self.notes.push(format!(
                                            "{def}.{json}: protobuf says {:?}, k8s-openapi says {:?}",
                                            kind(&line),
                                            kind(&from_oa)
                                        ));
                                    }
                                }
                                lines.push((f.tag, line, Some(json.clone())));
                            }
                            None => unmatched.push((json.clone(), *required)),
                        }
                    }
                    // Embedded structs: pb message fields with no JSON name of their own.
                    let mut flattened = BTreeSet::new();
                    for f in &pb.fields {
                        if used.contains(&f.tag) || f.ty != "message" || f.repeated {
                            continue;
                        }
                        let (m, n) = f.msg.clone().expect("target");
                        let mut inner_names = BTreeSet::new();
                        self.reachable_names(&m, &n, 3, &mut inner_names);
                        let covered: Vec<String> = unmatched
                            .iter()
                            .filter(|(j, _)| inner_names.contains(&norm(j)))
                            .map(|(j, _)| j.clone())
                            .collect();
                        if !covered.is_empty() {
                            flattened.extend(covered);
                            used.insert(f.tag);
                            let line = self.field_line("", f, true, true);
                            lines.push((f.tag, line, None));
                            inline_types.insert(f.tag, self.go_name(&m, &n));
                        } else {
                            self.notes.push(format!(
                                "{def}: protobuf field {} has no JSON field",
                                f.rust
                            ));
                        }
                    }
                    for (json, required) in unmatched {
                        if flattened.contains(&json) {
                            continue;
                        }
                        let rust = oa
                            .fields
                            .iter()
                            .find(|(j, _, _)| *j == json)
                            .map(|(_, r, _)| r.clone())
                            .unwrap_or_default();
                        let line = match oa.syn_types.get(&rust) {
                            Some(ty) => {
                                self.notes.push(format!(
                                    "{def}: JSON field {json} has no protobuf field"
                                ));
                                self.oa_field_line(&json, ty, !required)
                            }
                            None => format!(
                                "FieldDef::new({json:?}, 0, K::Single(E::Scalar(S::String)), {})",
                                !required
                            ),
                        };
                        lines.push((0, line, Some(json)));
                    }
                    lines.sort_by_key(|(tag, _, _)| *tag);
                }
                (None, Some(pb)) => {
                    // Types only protobuf has (lists of kinds): JSON names are the camelCase
                    // of prost's field names.
                    for json in ["apiVersion", "kind"] {
                        let line = format!(
                            "FieldDef::new({json:?}, 0, K::Single(E::Scalar(S::String)), true)"
                        );
                        lines.push((0, line, Some(json.to_string())));
                    }
                    for f in &pb.fields {
                        let json = self
                            .json_names
                            .get(&norm(&f.rust))
                            .cloned()
                            .unwrap_or_else(|| lower_camel(&f.rust));
                        let optional = json != "items";
                        let line = self.field_line(&json, f, optional, false);
                        lines.push((f.tag, line, Some(json)));
                    }
                }
                (Some(oa), None) => {
                    self.notes.push(format!(
                        "{def}: no protobuf message; fields from k8s-openapi alone"
                    ));
                    for (json, rust, required) in &oa.fields {
                        let line = match oa.syn_types.get(rust) {
                            Some(ty) => self.oa_field_line(json, ty, !required),
                            None => format!(
                                "FieldDef::new({json:?}, 0, K::Single(E::Scalar(S::String)), {})",
                                !required
                            ),
                        };
                        lines.push((0, line, Some(json.clone())));
                    }
                }
                (None, None) => self.notes.push(format!("{def}: no protobuf message")),
            }
        }
        let proto = if pb.is_some() {
            proto_name(&module, &go_name)
        } else {
            String::new()
        };
        self.emit(def, &proto, gvk, lines, &inline_types);
    }

    /// Writes the `static TypeDef` of `def` from its field lines (protobuf tag, line, JSON
    /// name or `None` for an inline field), adding each field's zero.
    pub(crate) fn emit(
        &mut self,
        def: &str,
        proto: &str,
        gvk: Option<(String, String, String)>,
        lines: Vec<(u32, String, Option<String>)>,
        inline_types: &BTreeMap<u32, String>,
    ) {
        let format = format_of(def);
        let gvk_s = match &gvk {
            Some((g, v, k)) => {
                self.kinds
                    .push((g.clone(), v.clone(), k.clone(), ident(def)));
                format!("Some(Gvk {{ group: {g:?}, version: {v:?}, kind: {k:?} }})")
            }
            None => "None".into(),
        };
        let mut s = String::new();
        writeln!(s, "pub(crate) static {}: TypeDef = TypeDef {{", ident(def)).expect("w");
        writeln!(s, "    name: {def:?},\n    proto: {proto:?},\n    gvk: {gvk_s},\n    format: F::{format},").expect("w");
        match self.struct_type(def) {
            Some(t) if ["atomic", "granular"].contains(&t.as_str()) => {
                writeln!(s, "    struct_type: Some({t:?}),").expect("w");
            }
            other => {
                if let Some(t) = other {
                    self.notes.push(format!(
                        "{def}: +structType={t} is not atomic/granular; left out"
                    ));
                }
                writeln!(s, "    struct_type: None,").expect("w");
            }
        }
        let order = self.go_order(def, &lines, inline_types);
        if order.iter().enumerate().all(|(i, &o)| i == o) {
            writeln!(s, "    go_order: &[],").expect("w");
        } else {
            let order: Vec<String> = order.iter().map(|i| i.to_string()).collect();
            writeln!(s, "    go_order: &[{}],", order.join(", ")).expect("w");
        }
        if lines.is_empty() {
            writeln!(s, "    fields: &[],").expect("w");
        } else {
            writeln!(s, "    fields: &[").expect("w");
            for (tag, l, json) in lines {
                let inline = inline_types.get(&tag).filter(|_| json.is_none());
                let zero = self.zero_of(def, json.as_deref(), inline.map(String::as_str));
                writeln!(s, "        {l}{zero},").expect("w");
            }
            writeln!(s, "    ],").expect("w");
        }
        writeln!(s, "}};").expect("w");
        self.out.insert(def.to_string(), s);
    }
}
