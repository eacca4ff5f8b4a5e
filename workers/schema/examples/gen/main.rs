//! Generates `src/generated.rs`, the schema table, from the sources of the `k8s-pb` 0.9.0
//! (protobuf tags, value types, Go markers in doc comments) and `k8s-openapi` 0.29.0
//! (`v1_33`: definition names, JSON names, required fields, group/version/kind) crates, and
//! of upstream's Go types (pointers, `omitempty`: what Go writes for an absent field, see
//! `go_types.rs`).
//!
//! The Go sources are those of tag `v0.33.13` (the newest v1.33 release) of
//! `github.com/kubernetes/api`, `…/apimachinery`, `…/apiextensions-apiserver` and
//! `…/kube-aggregator`, each put at `$K8S_GO_TYPES/k8s.io/<repo>` (only the `.go` files of
//! the API packages are read: `k8s.io/api/**`, apimachinery `pkg/apis/meta/v1`,
//! `pkg/api/resource`, `pkg/util/intstr`, `pkg/runtime`, `pkg/types`, `pkg/version`,
//! apiextensions `pkg/apis/apiextensions/v1`, aggregator `pkg/apis/apiregistration/v1`).
//! The types k8s-openapi lacks that the server serves (`PartialObjectMetadata`, `Table`,
//! aggregated discovery) are rendered from those Go structs and k8s-pb (`go_render.rs`).
//!
//! ```sh
//! D=/tmp/go-types; for r in api apimachinery apiextensions-apiserver kube-aggregator; do
//!     git clone -q --depth 1 -b v0.33.13 https://github.com/kubernetes/$r $D/k8s.io/$r
//! done
//! K8S_GO_TYPES=$D cargo run -p kas-schema --example gen   # crates from ~/.cargo/registry
//! K8S_GO_TYPES=$D K8S_PB_SRC=.../k8s-pb-0.9.0/src \
//!     K8S_OPENAPI_SRC=.../k8s-openapi-0.29.0/src/v1_33 cargo run -p kas-schema --example gen
//! ```
mod go_fields;
mod go_parse;
mod go_render;
mod go_types;
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
    let go_root = std::env::var("K8S_GO_TYPES")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            panic!(
                "set K8S_GO_TYPES to the directory of upstream's Go sources (see the module doc)"
            )
        });
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
        go: go_types::GoTypes::new(go_root),
        go_fields: BTreeMap::new(),
        zero_fields: 0,
        omits_zero_fields: 0,
        object_fields: 0,
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
    // Types k8s-openapi lacks that the server serves, from upstream's Go structs.
    for (def, gvk) in go_render::FROM_GO {
        let gvk = gvk.map(|(g, v, k)| (g.to_string(), v.to_string(), k.to_string()));
        g.render_go(def, gvk);
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
    s.push_str(
        "//! it reads the sources of `k8s-pb` 0.9.0 and `k8s-openapi` 0.29.0 (`v1_33`), and\n",
    );
    s.push_str("//! upstream's Go types at v0.33.13 (`K8S_GO_TYPES`).\n");
    s.push_str("#![allow(clippy::all)]\n\n");
    s.push_str("use crate::types::{Elem as E, FieldDef, FieldKind as K, Format as F, Gvk, Scalar as S, TypeDef, Zero as Z};\n\n");
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
    let go_structs = g.go_fields.values().filter(|f| f.is_ok()).count();
    eprintln!(
        "Go structs found for {go_structs} of {} object types; {} of {} fields always written, {} without their zero",
        g.go_fields.len(),
        g.zero_fields,
        g.object_fields,
        g.omits_zero_fields
    );
    eprintln!(
        "wrote {} types, {} kinds to {}",
        g.out.len(),
        g.kinds.len(),
        dest.display()
    );
}
