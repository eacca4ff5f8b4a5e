//! Schema definitions of every catalog kind, generated with schemars from k8s-openapi and
//! post-processed to upstream's conventions (list kinds, GVK extensions, IntOrString and
//! Quantity, no required `metadata`, patch markers); then rendered per OpenAPI version.

use crate::catalog::{self, Kind, KINDS};
use crate::markers::{self, MarkerLookup};
use schemars::generate::SchemaSettings;
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// `$ref` prefix of the canonical definitions (and of OpenAPI v3).
pub(crate) const V3_REF: &str = "#/components/schemas/";
/// `$ref` prefix of Swagger 2.0.
pub(crate) const V2_REF: &str = "#/definitions/";

/// Generates every definition in canonical form: `$ref`s point at `#/components/schemas/`
/// and may have sibling keywords (a description), as schemars writes them.
///
/// `group_versions` are the served group versions, listed in the GVK extension of
/// `DeleteOptions` and `WatchEvent`.
pub(crate) fn generate(
    group_versions: &BTreeSet<(String, String)>,
    lookup: Option<&MarkerLookup>,
) -> Map<String, Value> {
    let kinds: Vec<&Kind> = KINDS.iter().collect();
    generate_kinds(&kinds, group_versions, lookup)
}

/// The definitions custom resource documents share: the meta/v1 kinds (with `ObjectMeta`)
/// and `autoscaling/v1` `Scale`, in canonical form, generated once per process.
pub(crate) fn custom_base() -> &'static Map<String, Value> {
    static BASE: OnceLock<Map<String, Value>> = OnceLock::new();
    BASE.get_or_init(|| {
        let kinds: Vec<&Kind> = catalog::find("autoscaling", "v1", "Scale")
            .into_iter()
            .collect();
        generate_kinds(&kinds, &BTreeSet::new(), None)
    })
}

/// [`generate`] restricted to `kinds` (plus the meta/v1 kinds, always present).
fn generate_kinds(
    kinds: &[&Kind],
    group_versions: &BTreeSet<(String, String)>,
    lookup: Option<&MarkerLookup>,
) -> Map<String, Value> {
    let settings = SchemaSettings::draft07().with(|s| {
        s.definitions_path = "/components/schemas".into();
        s.meta_schema = None;
        s.transforms = Vec::new();
    });
    let mut generator = settings.into_generator();
    for kind in kinds {
        (kind.add)(&mut generator);
    }
    catalog::add_meta(&mut generator);
    let mut defs = generator.take_definitions(false);

    for kind in kinds {
        let name = (kind.name)().into_owned();
        set_gvk(&mut defs, &name, &[(kind.group, kind.version, kind.kind)]);
        if let (Some(list_name), Some(list_kind)) = (kind.list_name(), kind.list_kind) {
            defs.insert(list_name.clone(), list_schema(&name, kind.kind));
            set_gvk(
                &mut defs,
                &list_name,
                &[(kind.group, kind.version, list_kind)],
            );
        }
    }
    for (kind, name) in catalog::CORE_META_KINDS {
        set_gvk(&mut defs, name, &[("", "v1", kind)]);
    }
    let mut shared: Vec<(&str, &str)> = vec![("", "v1")];
    for (group, version) in group_versions {
        if !(group.is_empty() && version == "v1") {
            shared.push((group, version));
        }
    }
    for (name, kind) in [
        (catalog::DELETE_OPTIONS, "DeleteOptions"),
        (catalog::WATCH_EVENT, "WatchEvent"),
    ] {
        let gvks: Vec<_> = shared.iter().map(|(g, v)| (*g, *v, kind)).collect();
        set_gvk(&mut defs, name, &gvks);
    }

    if let Some(Value::Object(schema)) = defs.get_mut(catalog::INT_OR_STRING) {
        schema.remove("x-kubernetes-int-or-string");
        schema.insert("type".into(), "string".into());
        schema.insert("format".into(), "int-or-string".into());
    }
    if let Some(Value::Object(schema)) = defs.get_mut(catalog::QUANTITY) {
        schema.remove("x-kubernetes-int-or-string");
        schema.insert("type".into(), "string".into());
    }
    for schema in defs.values_mut() {
        drop_required_metadata(schema);
    }
    if let Some(lookup) = lookup {
        markers::inject(&mut defs, lookup);
    }
    defs
}

fn set_gvk(defs: &mut Map<String, Value>, name: &str, gvks: &[(&str, &str, &str)]) {
    let Some(Value::Object(schema)) = defs.get_mut(name) else {
        return;
    };
    let list: Vec<Value> = gvks
        .iter()
        .map(|(group, version, kind)| json!({"group": group, "kind": kind, "version": version}))
        .collect();
    schema.insert("x-kubernetes-group-version-kind".into(), Value::Array(list));
}

/// k8s-openapi marks `metadata` required because its Rust field is not optional;
/// upstream's schemas never require it.
fn drop_required_metadata(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(required)) = object.get_mut("required") {
        required.retain(|field| field != "metadata");
        if required.is_empty() {
            object.remove("required");
        }
    }
}

/// Description of `apiVersion` in `TypeMeta`.
pub(crate) const API_VERSION_DOC: &str = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
/// Description of `kind` in `TypeMeta`.
pub(crate) const KIND_DOC: &str = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// The schema of `<Kind>List`, which k8s-openapi has no type for.
fn list_schema(item: &str, kind: &str) -> Value {
    json!({
        "description": format!("{kind}List is a list of {kind} objects."),
        "type": "object",
        "properties": {
            "apiVersion": {"description": API_VERSION_DOC, "type": "string"},
            "items": {
                "description": format!("Items is the list of {kind} objects."),
                "type": "array",
                "items": {"$ref": format!("{V3_REF}{item}")},
            },
            "kind": {"description": KIND_DOC, "type": "string"},
            "metadata": {
                "$ref": format!("{V3_REF}{}", catalog::LIST_META),
                "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
            },
        },
        "required": ["items"],
    })
}

/// Keywords whose value is one schema.
const SCHEMA_KEYWORDS: &[&str] = &["items", "additionalProperties", "not"];
/// Keywords whose value is an array of schemas.
const SCHEMA_ARRAY_KEYWORDS: &[&str] = &["allOf", "anyOf", "oneOf"];

/// Calls `f` on `schema` and on every sub-schema, depth first, parents first.
fn walk_schemas(schema: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    f(object);
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for property in properties.values_mut() {
            walk_schemas(property, f);
        }
    }
    for keyword in SCHEMA_KEYWORDS {
        if let Some(sub) = object.get_mut(*keyword) {
            walk_schemas(sub, f);
        }
    }
    for keyword in SCHEMA_ARRAY_KEYWORDS {
        if let Some(Value::Array(subs)) = object.get_mut(*keyword) {
            for sub in subs {
                walk_schemas(sub, f);
            }
        }
    }
}

/// Renders one canonical definition for OpenAPI v3: a `$ref` with siblings becomes
/// `allOf: [{$ref}]` next to them (OpenAPI 3.0 ignores siblings of `$ref`).
pub(crate) fn to_v3(name: &str, schema: &Value) -> Value {
    let mut schema = schema.clone();
    walk_schemas(&mut schema, &mut |object| {
        if object.len() > 1 {
            if let Some(reference) = object.remove("$ref") {
                object.insert("allOf".into(), json!([{ "$ref": reference }]));
            }
        }
    });
    if let Value::Object(object) = &mut schema {
        match name {
            catalog::INT_OR_STRING => {
                object.insert("x-kubernetes-int-or-string".into(), true.into());
            }
            catalog::QUANTITY => {
                object.remove("type");
                object.insert(
                    "oneOf".into(),
                    json!([{"type": "string"}, {"type": "number"}]),
                );
            }
            _ => {}
        }
    }
    schema
}

/// Renders one canonical definition for Swagger 2.0: `$ref`s point at `#/definitions/`,
/// and `oneOf` (the `JSONSchemaPropsOr…` types), which Swagger 2.0 lacks, is left out as
/// upstream leaves it out.
pub(crate) fn to_v2(schema: &Value) -> Value {
    let mut schema = schema.clone();
    walk_schemas(&mut schema, &mut |object| {
        object.remove("oneOf");
        if let Some(Value::String(reference)) = object.get_mut("$ref") {
            if let Some(name) = reference.strip_prefix(V3_REF) {
                *reference = format!("{V2_REF}{name}");
            }
        }
    });
    schema
}

/// Names of every definition `$ref`erenced by `value` (any JSON), without the prefix.
pub(crate) fn collect_refs(value: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(object) => {
            for (key, sub) in object {
                if key == "$ref" {
                    if let Some(name) = sub.as_str().and_then(|r| r.strip_prefix(prefix)) {
                        out.insert(name.to_owned());
                    }
                } else {
                    collect_refs(sub, prefix, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, prefix, out)),
        _ => {}
    }
}

/// The closure of `roots` under `$ref` in the canonical definitions. Unknown names are
/// kept out (tests check that nothing dangles).
pub(crate) fn reachable(defs: &Map<String, Value>, roots: BTreeSet<String>) -> BTreeSet<String> {
    let mut done = BTreeSet::new();
    let mut todo: Vec<String> = roots.into_iter().collect();
    while let Some(name) = todo.pop() {
        let Some(schema) = defs.get(&name) else {
            continue;
        };
        if !done.insert(name) {
            continue;
        }
        let mut refs = BTreeSet::new();
        collect_refs(schema, V3_REF, &mut refs);
        todo.extend(refs.into_iter().filter(|r| !done.contains(r)));
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defs() -> Map<String, Value> {
        let gvs = [
            ("".to_owned(), "v1".to_owned()),
            ("apps".to_owned(), "v1".to_owned()),
        ];
        generate(&gvs.into_iter().collect(), None)
    }

    #[test]
    fn canonical_definitions_follow_upstream() {
        let defs = defs();
        let pod = &defs["io.k8s.api.core.v1.Pod"];
        assert_eq!(
            pod["x-kubernetes-group-version-kind"],
            json!([{"group": "", "kind": "Pod", "version": "v1"}])
        );
        assert!(
            pod.get("required").is_none(),
            "metadata must not be required"
        );
        let list = &defs["io.k8s.api.apps.v1.DeploymentList"];
        assert_eq!(
            list["x-kubernetes-group-version-kind"][0]["kind"],
            "DeploymentList"
        );
        assert_eq!(
            list["properties"]["items"]["items"]["$ref"],
            "#/components/schemas/io.k8s.api.apps.v1.Deployment"
        );
        let ios = &defs[catalog::INT_OR_STRING];
        assert_eq!(
            (ios["type"].as_str(), ios["format"].as_str()),
            (Some("string"), Some("int-or-string"))
        );
        assert_eq!(
            defs["io.k8s.apimachinery.pkg.apis.meta.v1.Time"]["format"],
            "date-time"
        );
        let delete = defs[catalog::DELETE_OPTIONS]["x-kubernetes-group-version-kind"]
            .as_array()
            .unwrap();
        assert_eq!(delete.len(), 2);
        // schemars renames a clashing name with a numeric suffix; none may clash.
        for key in defs.keys() {
            let stem = key.trim_end_matches(|c: char| c.is_ascii_digit());
            assert!(
                stem == key || !defs.contains_key(stem),
                "{key} clashes with {stem}"
            );
        }
    }

    #[test]
    fn every_ref_resolves() {
        let defs = defs();
        let mut refs = BTreeSet::new();
        for schema in defs.values() {
            collect_refs(schema, V3_REF, &mut refs);
        }
        for name in refs {
            assert!(defs.contains_key(&name), "dangling $ref {name}");
        }
    }

    #[test]
    fn v3_wraps_refs_with_siblings() {
        let defs = defs();
        let pod = to_v3("io.k8s.api.core.v1.Pod", &defs["io.k8s.api.core.v1.Pod"]);
        let metadata = &pod["properties"]["metadata"];
        assert!(metadata.get("$ref").is_none());
        assert_eq!(
            metadata["allOf"][0]["$ref"],
            "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
        );
        assert!(metadata["description"].is_string());
        let ios = to_v3(catalog::INT_OR_STRING, &defs[catalog::INT_OR_STRING]);
        assert_eq!(ios["x-kubernetes-int-or-string"], true);
        let or_array =
            "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray";
        assert!(to_v2(&defs[or_array]).get("oneOf").is_none());
        assert!(to_v3(or_array, &defs[or_array]).get("oneOf").is_some());
        let v2 = to_v2(&defs["io.k8s.api.core.v1.Pod"]);
        assert_eq!(
            v2["properties"]["metadata"]["$ref"],
            "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
        );
    }

    #[test]
    fn reachable_follows_refs() {
        let defs = defs();
        let set = reachable(
            &defs,
            ["io.k8s.api.core.v1.ConfigMap".to_owned(), "nope".to_owned()].into(),
        );
        assert!(set.contains("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
        assert!(set.contains("io.k8s.apimachinery.pkg.apis.meta.v1.Time"));
        assert!(!set.contains("io.k8s.api.core.v1.PodSpec"));
        assert!(!set.contains("nope"));
    }
}
