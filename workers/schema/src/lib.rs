//! The built-in Kubernetes types (v1.33) as data, and the decoders built on them.
//!
//! # The table
//!
//! Every type of the built-in API — the kinds of every group and version, their lists, the
//! types they are made of, and `meta.k8s.io/v1` types such as `DeleteOptions` — has a
//! [`TypeDef`]: OpenAPI definition name, protobuf message name, group/version/kind for the
//! top-level kinds, its JSON [`Format`], and its fields ([`FieldDef`]): JSON name, protobuf
//! tag, value kind ([`FieldKind`], [`Elem`], [`Scalar`]), whether it is optional, whether
//! it is an embedded (inline) struct, and the markers of upstream's Go types
//! (`+patchStrategy`, `+patchMergeKey`, `+listType`, `+listMapKey`, and `+mapType` /
//! `+structType`, which server-side apply reads as `x-kubernetes-map-type`: on a field,
//! [`FieldDef::map_type`][map_type], on a type, [`TypeDef::struct_type`][struct_type]),
//! and what upstream's Go encoder writes for the field when it is absent
//! ([`FieldDef::zero`][zero], a [`Zero`]). Message fields point at
//! the [`TypeDef`] of their type, so the schema can be walked: [`TypeDef::field`] finds a
//! field by JSON name (through inline fields), [`FieldDef::message`] gives the type of a
//! message field or of the items/values of a list/map of messages.
//!
//! Lookups: [`type_def`] by definition name, [`kind_def`] / [`kind_def_for_api_version`] by
//! group/version/kind, [`all_types`].
//!
//! # How the table is made
//!
//! `src/generated.rs` is generated, not written: `examples/gen/` reads the sources of the
//! `k8s-pb` 0.9.0 crate (prost structs: protobuf tags and types; the Go markers kept in
//! their doc comments) and of `k8s-openapi` 0.29.0, `v1_33` (definition names, JSON names,
//! required fields, group/version/kind), and matches them field by field. Neither tells
//! which Go fields are pointers or `omitempty`, so it also reads upstream's Go types (tag
//! `v0.33.13` of `github.com/kubernetes/{api,apimachinery,apiextensions-apiserver,
//! kube-aggregator}`, laid out as `$K8S_GO_TYPES/k8s.io/<repo>/...`) for
//! [`FieldDef::zero`][zero]. The few types k8s-openapi lacks that the server serves
//! (`meta.k8s.io/v1` `PartialObjectMetadata`, `PartialObjectMetadataList`, `Table`,
//! `TableOptions`; `apidiscovery.k8s.io/v2` `APIGroupDiscoveryList`) are read from the Go
//! structs (JSON names, `omitempty`) and k8s-pb (tags). `Table` and its parts are
//! `+protobuf=false` upstream: their fields have tag 0, and [`encode_protobuf`] refuses them
//! (upstream serves tables as JSON and YAML only).
//! Regenerate with
//!
//! ```sh
//! D=/tmp/go-types; for r in api apimachinery apiextensions-apiserver kube-aggregator; do
//!     git clone -q --depth 1 -b v0.33.13 https://github.com/kubernetes/$r $D/k8s.io/$r
//! done
//! K8S_GO_TYPES=$D cargo run -p kas-schema --example gen
//! ```
//!
//! (it finds both crates in `~/.cargo/registry/src`, or in `K8S_PB_SRC` /
//! `K8S_OPENAPI_SRC`) and read the notes it prints: types protobuf lacks (taken from
//! k8s-openapi alone, without markers), protobuf fields newer than v1.33 (left out),
//! embedded structs the OpenAPI document flattens (taken from protobuf alone), and fields
//! whose Go type it could not find (no zero).
//!
//! # Decoding
//!
//! * [`decode_json`]: typed JSON decoding, as kube-apiserver's (case-sensitive) decoder
//!   does: type errors in upstream's words, unknown/duplicate fields handled per
//!   [`FieldValidation`], output the canonical JSON of the type.
//! * [`decode_protobuf`]: a `application/vnd.kubernetes.protobuf` body (`k8s\0` +
//!   `runtime.Unknown`) to the JSON object it holds.
//!
//! # Encoding as upstream does
//!
//! * [`encode_protobuf`]: a JSON object to an `application/vnd.kubernetes.protobuf` body,
//!   the mirror image of [`decode_protobuf`] (`decode_protobuf(encode_protobuf(x)) == x`
//!   for the canonical JSON of a type).
//! * [`fill_zero_fields`]: adds the fields kube-apiserver writes although nobody set them
//!   (`"spec":{}`, `"creationTimestamp":null`, `"rules":null`), as Go's `encoding/json`
//!   does on upstream's types, and drops the zeros it leaves out (`"hostNetwork":false`).
//! * [`to_json_vec`], [`InGoOrder`]: JSON in the field order of upstream's Go structs
//!   (`kind`, `apiVersion`, `metadata`, then the type's fields as declared), with Go's
//!   string escapes and float forms ([`go_json_vec`]: `<`, `>`, `&`, U+2028, U+2029 as
//!   `\u…`; `1.0` as `1`, `1e21` as `1e+21`).
//!
//! [zero]: FieldDef#structfield.zero
//! [map_type]: FieldDef#structfield.map_type
//! [struct_type]: TypeDef#structfield.struct_type
#![forbid(unsafe_code)]

mod formats;
mod generated;
mod go_format;
mod go_json;
mod go_time;
mod json;
mod protobuf;
mod protobuf_encode;
pub mod quantity;
mod raw;
mod types;
mod zero;

pub use go_format::{go_json_pretty, go_json_vec};
pub use go_json::{to_json_pretty, to_json_vec, InGoOrder};
pub use go_time::{parse as parse_go_time, RFC3339};
pub use json::{decode_json, decode_value};
pub use protobuf::{decode_protobuf, decode_protobuf_message, PROTOBUF_MAGIC};
pub use protobuf_encode::{
    encode_protobuf, encode_protobuf_message, encode_protobuf_watch_event, encodes_protobuf,
};
pub use types::{
    all_types, kind_def, kind_def_for_api_version, type_def, Elem, FieldDef, FieldKind, Format,
    Gvk, Scalar, TypeDef, Zero,
};
pub use zero::fill_zero_fields;

/// The `fieldValidation` directive of a write request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FieldValidation {
    /// Drop unknown and duplicate fields silently.
    Ignore,
    /// Drop them and return one warning each. Upstream's default when the query parameter
    /// is absent or empty.
    #[default]
    Warn,
    /// Fail the request with a `strict decoding error`.
    Strict,
}

impl FieldValidation {
    /// Parses the `fieldValidation` query value; `None` and `""` are [`FieldValidation::Warn`].
    pub fn parse(value: Option<&str>) -> Result<Self, InvalidFieldValidation> {
        match value.unwrap_or("") {
            "" | "Warn" => Ok(FieldValidation::Warn),
            "Ignore" => Ok(FieldValidation::Ignore),
            "Strict" => Ok(FieldValidation::Strict),
            other => Err(InvalidFieldValidation(other.to_string())),
        }
    }
}

/// A `fieldValidation` value other than `Ignore`, `Warn` or `Strict`. Its message is
/// upstream's field error (the caller answers 400 BadRequest or 422 Invalid with it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "fieldValidation: Unsupported value: {0:?}: supported values: \"Ignore\", \"Strict\", \"Warn\""
)]
pub struct InvalidFieldValidation(pub String);

/// A decoded body: the canonical JSON object and the warnings to send (`Warn` only).
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    pub object: serde_json::Value,
    pub warnings: Vec<String>,
}

/// Why a body could not be decoded. The messages are upstream's where upstream has one;
/// the caller wraps them (`Deployment in version "v1" cannot be handled as a Deployment:
/// <message>`, 400 BadRequest).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DecodeError {
    /// Not JSON.
    #[error("{0}")]
    Syntax(String),
    /// A value of the wrong JSON type, or a number out of range for its field.
    #[error("{0}")]
    Type(String),
    /// A value of the right JSON type that its type rejects (time, quantity, base64).
    #[error("{0}")]
    Invalid(String),
    /// Unknown or duplicate fields under `fieldValidation=Strict`.
    #[error("strict decoding error: {}", .0.join(", "))]
    Strict(Vec<String>),
    /// Malformed protobuf.
    #[error("protobuf: {0}")]
    Protobuf(String),
    /// A protobuf body of a kind the table does not have.
    #[error("no kind {kind:?} is registered for version {api_version:?}")]
    UnknownKind { api_version: String, kind: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_validation_values() {
        assert_eq!(FieldValidation::parse(None), Ok(FieldValidation::Warn));
        assert_eq!(FieldValidation::parse(Some("")), Ok(FieldValidation::Warn));
        assert_eq!(
            FieldValidation::parse(Some("Strict")),
            Ok(FieldValidation::Strict)
        );
        assert_eq!(
            FieldValidation::parse(Some("Ignore")),
            Ok(FieldValidation::Ignore)
        );
        let err = FieldValidation::parse(Some("strict")).expect_err("case matters");
        assert_eq!(
            err.to_string(),
            "fieldValidation: Unsupported value: \"strict\": supported values: \"Ignore\", \"Strict\", \"Warn\""
        );
    }

    #[test]
    fn lookups() {
        let pod = kind_def("", "v1", "Pod").expect("pod");
        assert_eq!(pod.name, "io.k8s.api.core.v1.Pod");
        assert_eq!(pod.proto, "k8s.io.api.core.v1.Pod");
        assert!(std::ptr::eq(
            pod,
            type_def("io.k8s.api.core.v1.Pod").expect("by name")
        ));
        assert!(kind_def_for_api_version("apps/v1", "Deployment").is_some());
        assert!(kind_def_for_api_version("v1", "ConfigMapList").is_some());
        assert!(kind_def_for_api_version("policy/v1", "Eviction").is_some());
        assert!(kind_def_for_api_version("authentication.k8s.io/v1", "TokenRequest").is_some());
        assert!(
            kind_def_for_api_version("authorization.k8s.io/v1", "SelfSubjectAccessReview")
                .is_some()
        );
        let del = kind_def_for_api_version("apps/v1", "DeleteOptions").expect("delete options");
        assert_eq!(
            del.name,
            "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"
        );
        for (api_version, kind) in [
            ("meta.k8s.io/v1", "PartialObjectMetadata"),
            ("meta.k8s.io/v1", "PartialObjectMetadataList"),
            ("meta.k8s.io/v1", "Table"),
            ("apidiscovery.k8s.io/v2", "APIGroupDiscoveryList"),
        ] {
            let def = kind_def_for_api_version(api_version, kind).expect(kind);
            assert_eq!(def.go_name(), kind);
        }
        assert!(kind_def("", "v1", "Nope").is_none());
        assert!(all_types().windows(2).all(|w| w[0].name < w[1].name));
    }

    /// The JSON names of a type, inline fields flattened.
    fn json_names(def: &TypeDef, out: &mut Vec<&'static str>) {
        for f in def.fields {
            match (f.inline, f.message()) {
                (true, Some(inner)) => json_names(inner, out),
                _ => out.push(f.json),
            }
        }
    }

    #[test]
    fn table_is_consistent() {
        assert!(all_types().len() > 700);
        for def in all_types() {
            let mut names = Vec::new();
            json_names(def, &mut names);
            let mut unique = names.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(
                unique.len(),
                names.len(),
                "{}: duplicate JSON names {names:?}",
                def.name
            );
            let mut tags: Vec<u32> = def
                .fields
                .iter()
                .map(|f| f.tag)
                .filter(|t| *t != 0)
                .collect();
            let count = tags.len();
            tags.sort_unstable();
            tags.dedup();
            assert_eq!(tags.len(), count, "{}: duplicate protobuf tags", def.name);
            for f in def.fields {
                // Map-list keys name fields of the item type.
                if let (FieldKind::List(Elem::Message(item)), false) =
                    (f.kind, f.list_map_keys.is_empty())
                {
                    for key in f.list_map_keys {
                        assert!(
                            item.field(key).is_some(),
                            "{}.{}: no key {key}",
                            def.name,
                            f.json
                        );
                    }
                }
                if let (Some(key), Some(item)) = (f.patch_merge_key, f.message()) {
                    assert!(
                        item.field(key).is_some(),
                        "{}.{}: no merge key {key}",
                        def.name,
                        f.json
                    );
                }
                if f.inline {
                    assert!(
                        f.json.is_empty() && f.message().is_some(),
                        "{}: bad inline field",
                        def.name
                    );
                }
            }
            if def.format != Format::Object {
                assert!(def.fields.is_empty(), "{}", def.name);
            }
        }
        for def in all_types().iter().filter(|d| d.gvk.is_some()) {
            let gvk = def.gvk.expect("gvk");
            assert!(std::ptr::eq(
                kind_def(gvk.group, gvk.version, gvk.kind).expect("kind"),
                *def
            ));
            assert!(
                decode_json(b"{}", def, FieldValidation::Strict).is_ok(),
                "{}",
                def.name
            );
        }
    }

    #[test]
    fn schema_walk_and_markers() {
        let spec = type_def("io.k8s.api.core.v1.PodSpec").expect("podspec");
        let containers = spec.field("containers").expect("containers");
        assert_eq!(containers.tag, 2);
        assert_eq!(containers.patch_strategy, Some("merge"));
        assert_eq!(containers.patch_merge_key, Some("name"));
        assert_eq!(containers.list_type, Some("map"));
        assert_eq!(containers.list_map_keys, &["name"]);
        assert!(!containers.optional);
        let container = containers.message().expect("container type");
        assert_eq!(container.name, "io.k8s.api.core.v1.Container");
        let ports = container.field("ports").expect("ports");
        assert_eq!(ports.list_map_keys, &["containerPort", "protocol"]);
        assert_eq!(
            spec.field("volumes").and_then(|f| f.patch_strategy),
            Some("merge,retainKeys")
        );
        assert!(matches!(
            spec.field("hostIPC").map(|f| f.kind),
            Some(FieldKind::Single(Elem::Scalar(Scalar::Bool)))
        ));
        // Embedded structs are looked through.
        let env = type_def("io.k8s.api.core.v1.ConfigMapEnvSource").expect("env source");
        assert_eq!(env.field("name").map(|f| f.json), Some("name"));
        let vol = type_def("io.k8s.api.core.v1.Volume").expect("volume");
        assert_eq!(vol.field("scaleIO").map(|f| f.json), Some("scaleIO"));
        assert!(vol.field("configMap").is_some());
        let secret = kind_def("", "v1", "Secret").expect("secret");
        assert!(matches!(
            secret.field("data").map(|f| f.kind),
            Some(FieldKind::Map(Elem::Scalar(Scalar::Bytes)))
        ));
        let meta = type_def("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta").expect("meta");
        let ts = meta
            .field("creationTimestamp")
            .and_then(FieldDef::message)
            .expect("time");
        assert_eq!(ts.format, Format::Time);
        assert_eq!(ts.go_type(), "v1.Time");
    }

    #[test]
    fn map_and_struct_types() {
        let def = |name: &str| type_def(name).expect(name);
        let field = |ty: &str, json: &str| def(ty).field(json).expect(json);
        // `+structType=atomic` types.
        for name in [
            "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector",
            "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference",
            "io.k8s.api.core.v1.LocalObjectReference",
            "io.k8s.api.core.v1.ObjectReference",
            "io.k8s.api.core.v1.NodeSelector",
            "io.k8s.api.rbac.v1.RoleRef",
        ] {
            assert!(def(name).is_atomic(), "{name}");
            assert_eq!(def(name).struct_type, Some("atomic"), "{name}");
        }
        for name in [
            "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
            "io.k8s.api.core.v1.PodSpec",
            "io.k8s.api.core.v1.ConfigMapVolumeSource",
        ] {
            assert!(!def(name).is_atomic(), "{name}");
        }
        // `+mapType=atomic` maps; unmarked maps are granular.
        let node_selector = field("io.k8s.api.core.v1.PodSpec", "nodeSelector");
        assert_eq!(node_selector.map_type, Some("atomic"));
        assert!(node_selector.is_atomic_map());
        assert!(field("io.k8s.api.core.v1.ServiceSpec", "selector").is_atomic_map());
        let labels = field("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "labels");
        assert_eq!(labels.map_type, None);
        assert!(!labels.is_atomic_map());
        let statuses = field(
            "io.k8s.api.core.v1.PersistentVolumeClaimStatus",
            "allocatedResourceStatuses",
        );
        assert_eq!(statuses.map_type, Some("granular"));
        assert!(!statuses.is_atomic_map());
        // A struct field is atomic through its type, unless the field says otherwise.
        assert!(field("io.k8s.api.apps.v1.DeploymentSpec", "selector").is_atomic_map());
        let claim_ref = field("io.k8s.api.core.v1.PersistentVolumeSpec", "claimRef");
        assert_eq!(
            claim_ref.message().map(|t| t.name),
            Some("io.k8s.api.core.v1.ObjectReference")
        );
        assert_eq!(claim_ref.map_type, Some("granular"));
        assert!(!claim_ref.is_atomic_map());
        // Lists of atomic structs: the items are atomic, the list is `+listType`'s business.
        let pull_secrets = field("io.k8s.api.core.v1.PodSpec", "imagePullSecrets");
        assert!(pull_secrets.message().is_some_and(TypeDef::is_atomic));
        assert!(!pull_secrets.is_atomic_map());
        // An embedded atomic struct does not make its parent's fields atomic.
        let embedded = def("io.k8s.api.core.v1.ConfigMapVolumeSource")
            .fields
            .iter()
            .find(|f| f.inline)
            .expect("embedded LocalObjectReference");
        assert!(embedded.message().is_some_and(TypeDef::is_atomic));
        assert!(!embedded.is_atomic_map());
        // The markers of the v1.33 types in k8s-pb 0.9.0 and upstream's Go sources: 35
        // atomic types (k8s-pb's 36 less the newer `FileKeySelector`); 4 atomic and 2
        // granular fields (4 more atomic maps are in versions no longer served).
        let atomic_types = all_types().iter().filter(|t| t.is_atomic()).count();
        assert_eq!(atomic_types, 35);
        assert!(all_types()
            .iter()
            .all(|t| t.struct_type != Some("granular")));
        let marked: Vec<&str> = all_types()
            .iter()
            .flat_map(|t| t.fields)
            .filter_map(|f| f.map_type)
            .collect();
        assert_eq!(marked.iter().filter(|t| **t == "atomic").count(), 4);
        assert_eq!(marked.iter().filter(|t| **t == "granular").count(), 2);
    }
}
