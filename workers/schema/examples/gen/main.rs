//! Generates `src/generated.rs`, the schema table, from the sources of the `k8s-pb` 0.9.0
//! (protobuf tags, value types, Go markers in doc comments) and `k8s-openapi` 0.29.0
//! (`v1_33`: definition names, JSON names, required fields, group/version/kind) crates.
//!
//! ```sh
//! cargo run -p kas-schema --example gen            # finds both crates in ~/.cargo/registry
//! K8S_PB_SRC=.../k8s-pb-0.9.0/src K8S_OPENAPI_SRC=.../k8s-openapi-0.29.0/src/v1_33 \
//!     cargo run -p kas-schema --example gen
//! ```
mod render;
mod sources;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use render::{ident, Gen};
use sources::{definition_module, module_definition, norm, parse_openapi, parse_pb, registry_src};

fn main() {
    let pb_root = std::env::var("K8S_PB_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|_| registry_src("k8s-pb-0.9.0").join("src"));
    let oa_root = std::env::var("K8S_OPENAPI_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|_| registry_src("k8s-openapi-0.29.0").join("src/v1_33"));
    let pb = parse_pb(&pb_root);
    let oa = parse_openapi(&oa_root);
    let pb_index = pb
        .keys()
        .map(|(m, n)| ((m.clone(), n.to_ascii_lowercase()), (m.clone(), n.clone())))
        .collect();
    let go_names = oa
        .iter()
        .map(|t| {
            let (m, n) = definition_module(&t.definition);
            ((m, n.to_ascii_lowercase()), n)
        })
        .collect();
    let json_names = oa
        .iter()
        .flat_map(|t| t.fields.iter().map(|(j, _, _)| (norm(j), j.clone())))
        .collect();
    let type_fields = oa
        .iter()
        .map(|t| {
            (
                t.definition.clone(),
                t.fields.iter().map(|(j, _, _)| j.clone()).collect(),
            )
        })
        .collect();
    let mut g = Gen {
        json_names,
        type_fields,
        pb,
        pb_index,
        out: BTreeMap::new(),
        wanted: BTreeSet::new(),
        kinds: Vec::new(),
        notes: Vec::new(),
        go_names,
    };
    for t in oa.iter().filter(|t| t.definition != "io.k8s.List") {
        g.render(&t.definition, Some(t), t.gvk.clone());
        if let (Some((group, version, _)), Some(list)) = (&t.gvk, &t.list_kind) {
            let (module, _) = definition_module(&t.definition);
            let def = module_definition(&module, list);
            g.render(
                &def,
                None,
                Some((group.clone(), version.clone(), list.clone())),
            );
        }
    }
    // Referenced types the OpenAPI document leaves out (none expected; rendered from
    // protobuf alone if any).
    loop {
        let missing: Vec<String> = g
            .wanted
            .iter()
            .filter(|d| !g.out.contains_key(*d))
            .cloned()
            .collect();
        if missing.is_empty() {
            break;
        }
        for d in missing {
            g.notes.push(format!(
                "{d}: referenced, not in OpenAPI; rendered from protobuf"
            ));
            g.render(&d, None, None);
        }
    }
    g.kinds.sort();
    let dest = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/generated.rs");
    let mut s = String::new();
    s.push_str("//! The schema table, generated: do not edit.\n//!\n");
    s.push_str(
        "//! Regenerate with `cargo run -p kas-schema --example gen` (see `examples/gen/`):\n",
    );
    s.push_str("//! it reads the sources of `k8s-pb` 0.9.0 and `k8s-openapi` 0.29.0 (`v1_33`).\n");
    s.push_str("#![allow(clippy::all)]\n\n");
    s.push_str("use crate::types::{Elem as E, FieldDef, FieldKind as K, Format as F, Gvk, Scalar as S, TypeDef};\n\n");
    for body in g.out.values() {
        s.push_str(body);
        s.push('\n');
    }
    writeln!(
        s,
        "pub(crate) static TYPES: [&TypeDef; {}] = [",
        g.out.len()
    )
    .expect("w");
    for def in g.out.keys() {
        writeln!(s, "    &{},", ident(def)).expect("w");
    }
    s.push_str("];\n\n");
    writeln!(
        s,
        "pub(crate) static KINDS: [(&str, &str, &str, &TypeDef); {}] = [",
        g.kinds.len()
    )
    .expect("w");
    for (gr, v, k, id) in &g.kinds {
        writeln!(s, "    ({gr:?}, {v:?}, {k:?}, &{id}),").expect("w");
    }
    s.push_str("];\n");
    std::fs::write(&dest, s).expect("write generated.rs");
    // Keep the committed file in rustfmt's shape, as the rest of the crate.
    let fmt = std::process::Command::new("rustfmt")
        .arg("--edition")
        .arg("2021")
        .arg(&dest)
        .status();
    if !fmt.is_ok_and(|s| s.success()) {
        eprintln!("warning: rustfmt failed; src/generated.rs is left unformatted");
    }
    for n in &g.notes {
        eprintln!("note: {n}");
    }
    eprintln!(
        "wrote {} types, {} kinds to {}",
        g.out.len(),
        g.kinds.len(),
        dest.display()
    );
}
