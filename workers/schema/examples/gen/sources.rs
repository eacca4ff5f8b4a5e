//! Reading the two source crates: the prost structs of `k8s-pb` (tags, types, markers) and
//! the types of `k8s-openapi` (definition names, JSON names, required fields, kinds).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A field of a `k8s-pb` struct.
#[derive(Debug, Clone)]
pub(crate) struct PbField {
    pub(crate) rust: String,
    pub(crate) tag: u32,
    /// prost type word: string, bool, int32, int64, double, bytes, message, or `map:<v>`.
    pub(crate) ty: String,
    pub(crate) repeated: bool,
    /// Module path and struct name of the referenced message (also map values).
    pub(crate) msg: Option<(Vec<String>, String)>,
    pub(crate) markers: Vec<(String, String)>,
}

#[derive(Debug, Clone)]
pub(crate) struct PbStruct {
    pub(crate) fields: Vec<PbField>,
    pub(crate) markers: Vec<(String, String)>,
}

/// A type of `k8s-openapi`.
#[derive(Default)]
pub(crate) struct OaType {
    pub(crate) definition: String,
    pub(crate) rust_name: String,
    /// (json name, rust field name or "" for apiVersion/kind constants, required)
    pub(crate) fields: Vec<(String, String, bool)>,
    /// Rust field types by rust field name.
    pub(crate) types: BTreeMap<String, String>,
    /// Rust field types by rust field name, as parsed.
    pub(crate) syn_types: BTreeMap<String, syn::Type>,
    pub(crate) gvk: Option<(String, String, String)>,
    pub(crate) list_kind: Option<String>,
}

pub(crate) fn registry_src(name: &str) -> PathBuf {
    let home = std::env::var("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").expect("HOME")).join(".cargo"));
    let reg = home.join("registry/src");
    for entry in std::fs::read_dir(&reg).expect("read registry/src") {
        let p = entry.expect("entry").path().join(name);
        if p.is_dir() {
            return p;
        }
    }
    panic!(
        "{name} not found under {}; run `cargo fetch` first",
        reg.display()
    );
}

pub(crate) fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read_dir")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

pub(crate) fn markers_of(attrs: &[syn::Attribute]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for a in attrs {
        if !a.path().is_ident("doc") {
            continue;
        }
        let syn::Meta::NameValue(nv) = &a.meta else {
            continue;
        };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = &nv.value
        else {
            continue;
        };
        let line = s.value();
        let line = line.trim();
        if let Some(m) = line.strip_prefix('+') {
            let (k, v) = m.split_once('=').unwrap_or((m, ""));
            out.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    out
}

/// The last path segment of a type and the module it lives in, resolving `super::`.
pub(crate) fn type_target(ty: &syn::Type, module: &[String]) -> Option<(Vec<String>, String)> {
    let syn::Type::Path(tp) = ty else { return None };
    let segs: Vec<&syn::PathSegment> = tp.path.segments.iter().collect();
    let last = segs.last()?;
    let name = last.ident.to_string();
    if let syn::PathArguments::AngleBracketed(args) = &last.arguments {
        // Option<T>, Vec<T>, Box<T>, BTreeMap<K, V>: descend into the last type argument.
        let inner = args.args.iter().rev().find_map(|a| match a {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        })?;
        return type_target(inner, module);
    }
    if ["String", "bool", "i32", "i64", "f64", "u8"].contains(&name.as_str()) {
        return None;
    }
    let mut path: Vec<String> = module.to_vec();
    let mut absolute = false;
    for s in &segs[..segs.len() - 1] {
        let id = s.ident.to_string();
        if id == "super" {
            path.pop();
        } else {
            if !absolute {
                // After the `super`s, the remaining segments name the module from there.
                absolute = true;
            }
            path.push(id);
        }
    }
    Some((path, name))
}

pub(crate) fn parse_pb(root: &Path) -> BTreeMap<(Vec<String>, String), PbStruct> {
    let mut files = Vec::new();
    walk(root, &mut files);
    let mut out = BTreeMap::new();
    for file in files {
        let rel = file
            .parent()
            .expect("parent")
            .strip_prefix(root)
            .expect("prefix");
        let module: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let text = std::fs::read_to_string(&file).expect("read");
        let ast = syn::parse_file(&text).expect("parse k8s-pb");
        for item in ast.items {
            let syn::Item::Struct(st) = item else {
                continue;
            };
            let syn::Fields::Named(named) = &st.fields else {
                continue;
            };
            let mut fields = Vec::new();
            for f in &named.named {
                let Some(attr) = f.attrs.iter().find(|a| a.path().is_ident("prost")) else {
                    continue;
                };
                let syn::Meta::List(list) = &attr.meta else {
                    continue;
                };
                let toks = list.tokens.to_string();
                let mut ty = String::new();
                let mut repeated = false;
                let mut tag = 0;
                for part in split_top(&toks) {
                    let part = part.trim();
                    if let Some(t) = part.strip_prefix("tag = ") {
                        tag = t.trim_matches('"').parse().expect("tag");
                    } else if part == "repeated" {
                        repeated = true;
                    } else if let Some(m) = part.strip_prefix("btree_map = ") {
                        let v = m
                            .trim_matches('"')
                            .split(',')
                            .nth(1)
                            .expect("map value")
                            .trim()
                            .to_string();
                        ty = format!("map:{v}");
                    } else if ty.is_empty() && !["optional", "boxed", "required"].contains(&part) {
                        ty = part
                            .split_whitespace()
                            .next()
                            .unwrap_or_default()
                            .to_string();
                    }
                }
                let rust = f.ident.as_ref().expect("named").to_string();
                let rust = rust.trim_start_matches("r#").to_string();
                let msg = if ty == "message" || ty == "map:message" {
                    type_target(&f.ty, &module)
                } else {
                    None
                };
                fields.push(PbField {
                    rust,
                    tag,
                    ty,
                    repeated,
                    msg,
                    markers: markers_of(&f.attrs),
                });
            }
            out.insert(
                (module.clone(), st.ident.to_string()),
                PbStruct {
                    fields,
                    markers: markers_of(&st.attrs),
                },
            );
        }
    }
    out
}

/// Splits `a, b = "x, y", c` at top-level commas.
pub(crate) fn split_top(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

pub(crate) fn quoted_after<'a>(text: &'a str, needle: &str) -> Option<&'a str> {
    let at = text.find(needle)? + needle.len();
    let rest = &text[at..];
    let start = rest.find('"')? + 1;
    let end = start + rest[start..].find('"')?;
    Some(&rest[start..end])
}

pub(crate) fn parse_openapi(root: &Path) -> Vec<OaType> {
    let mut files = Vec::new();
    walk(root, &mut files);
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read");
        let Some(first) = text.lines().next() else {
            continue;
        };
        let Some(definition) = first.strip_prefix("// Generated from definition ") else {
            continue;
        };
        let mut t = OaType {
            definition: definition.trim().to_string(),
            ..Default::default()
        };
        t.rust_name = t.definition.rsplit('.').next().expect("name").to_string();
        let ast = syn::parse_file(&text).expect("parse k8s-openapi");
        for item in &ast.items {
            if let syn::Item::Struct(st) = item {
                if st.ident == t.rust_name {
                    if let syn::Fields::Named(named) = &st.fields {
                        for f in &named.named {
                            let name = f.ident.as_ref().expect("named").to_string();
                            let ty = quote_type(&f.ty);
                            t.types.insert(name.clone(), ty);
                            t.syn_types.insert(name, f.ty.clone());
                        }
                    }
                }
            }
        }
        // JSON names in declaration order of the deserializer's match.
        for line in text.lines() {
            let l = line.trim();
            if l.starts_with("_ => Field::Other") {
                break;
            }
            if let Some((json, rest)) = l.split_once("\" => Field::Key_") {
                let json = json.trim_start_matches('"').to_string();
                let rust = rest.trim_end_matches(',').to_string();
                if t.fields.iter().any(|(j, _, _)| *j == json) {
                    continue;
                }
                let (rust, required) = match t.types.get(&rust) {
                    Some(ty) => (
                        rust.clone(),
                        !ty.starts_with("Option <") && !ty.starts_with("Option<"),
                    ),
                    None => (String::new(), false),
                };
                t.fields.push((json, rust, required));
            }
        }
        if text.contains(&format!("impl crate::Resource for {} {{", t.rust_name)) {
            let group = quoted_after(&text, "const GROUP: &'static str =").expect("group");
            let version = quoted_after(&text, "const VERSION: &'static str =").expect("version");
            let kind = quoted_after(&text, "const KIND: &'static str =").expect("kind");
            t.gvk = Some((group.into(), version.into(), kind.into()));
            t.list_kind =
                quoted_after(&text, "const LIST_KIND: &'static str =").map(str::to_string);
        }
        out.push(t);
    }
    out
}

pub(crate) fn quote_type(ty: &syn::Type) -> String {
    // Enough to tell Option<..> apart; syn's printing is not enabled.
    match ty {
        syn::Type::Path(tp) => {
            let last = tp.path.segments.last().expect("segment");
            let mut s = last.ident.to_string();
            if let syn::PathArguments::AngleBracketed(a) = &last.arguments {
                s.push('<');
                for arg in &a.args {
                    if let syn::GenericArgument::Type(t) = arg {
                        s.push_str(&quote_type(t));
                        s.push(',');
                    }
                }
                s.push('>');
            }
            s
        }
        _ => "?".into(),
    }
}

pub(crate) fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// `io.k8s.api.core.v1.Pod` → (["api","core","v1"], "Pod").
pub(crate) fn definition_module(def: &str) -> (Vec<String>, String) {
    let rest = def.strip_prefix("io.k8s.").unwrap_or(def);
    let mut parts: Vec<String> = rest.split('.').map(|p| p.replace('-', "_")).collect();
    let name = parts.pop().expect("name");
    (parts, name)
}

pub(crate) fn module_definition(module: &[String], name: &str) -> String {
    let m: Vec<String> = module
        .iter()
        .map(|p| match p.as_str() {
            "apiextensions_apiserver" => "apiextensions-apiserver".to_string(),
            "kube_aggregator" => "kube-aggregator".to_string(),
            _ => p.clone(),
        })
        .collect();
    format!("io.k8s.{}.{}", m.join("."), name)
}
