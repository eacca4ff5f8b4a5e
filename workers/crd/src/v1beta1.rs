//! CustomResourceDefinitions in their storage version, `apiextensions.k8s.io/v1beta1`, as
//! kube-apiserver (v1.33 too) writes them to etcd, and served as v1.
//!
//! Read ([`from_storage`], upstream's v1beta1 → internal → v1 conversion and v1beta1
//! defaulting): the single `version` becomes the version list, the schema, subresources,
//! printer columns and selectable fields given once for all versions go to each version,
//! `JSONPath` becomes `jsonPath`, `preserveUnknownFields` (true when unset in v1beta1)
//! stays only when true, and a conversion webhook's client config and review versions
//! move under `conversion.webhook`. v1 objects (an older store of this server's) pass
//! unchanged.
//!
//! Written ([`to_storage`], upstream's v1 → internal → v1beta1): `version` is the first
//! version's name; a schema (as `validation`), subresources, printer columns and — when
//! the schemas are too — selectable fields that every version has alike are given once
//! for all; printer columns name their path `JSONPath`; `preserveUnknownFields` is always
//! written; a webhook's client config and review versions sit on `conversion` itself.

use serde_json::{json, Map, Value};

/// The storage version's `apiVersion`.
pub const STORAGE_API_VERSION: &str = "apiextensions.k8s.io/v1beta1";
const V1BETA1: &str = STORAGE_API_VERSION;

/// What v1 shows of a stored CRD.
pub fn from_storage(crd: &mut Value) {
    if crd.get("apiVersion").and_then(Value::as_str) != Some(V1BETA1) {
        return;
    }
    let Some(spec) = crd.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    let version = spec.remove("version");
    let no_versions = spec
        .get("versions")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty);
    if no_versions {
        if let Some(Value::String(v)) =
            version.filter(|v| v.as_str().is_some_and(|s| !s.is_empty()))
        {
            spec.insert(
                "versions".into(),
                json!([{"name": v, "served": true, "storage": true}]),
            );
        }
    }
    let shared: Vec<(&str, Option<Value>)> = [
        ("schema", spec.remove("validation")),
        ("subresources", spec.remove("subresources")),
        (
            "additionalPrinterColumns",
            spec.remove("additionalPrinterColumns"),
        ),
        ("selectableFields", spec.remove("selectableFields")),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.filter(|v| !v.is_null())))
    .collect();
    let versions = spec.get_mut("versions").and_then(Value::as_array_mut);
    for v in versions
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
    {
        for (field, value) in &shared {
            if let Some(value) = value {
                v.entry(*field).or_insert_with(|| value.clone());
            }
        }
        rename_column_paths(
            v.get_mut("additionalPrinterColumns"),
            "JSONPath",
            "jsonPath",
        );
    }
    // v1beta1 defaults an unset preserveUnknownFields to true; v1 omits false.
    match spec.remove("preserveUnknownFields") {
        Some(Value::Bool(false)) => {}
        _ => {
            spec.insert("preserveUnknownFields".into(), json!(true));
        }
    }
    if let Some(conversion) = spec.get_mut("conversion").and_then(Value::as_object_mut) {
        let client = conversion.remove("webhookClientConfig");
        let reviews = conversion.remove("conversionReviewVersions");
        let webhook = conversion.get("strategy").and_then(Value::as_str) == Some("Webhook");
        if webhook || client.is_some() {
            let mut hook = Map::new();
            if let Some(c) = client {
                hook.insert("clientConfig".into(), c);
            }
            // v1beta1's default review versions.
            hook.insert(
                "conversionReviewVersions".into(),
                reviews.unwrap_or_else(|| json!(["v1beta1"])),
            );
            conversion.insert("webhook".into(), Value::Object(hook));
        }
    }
}

/// The v1beta1 shape of a v1 CRD, to store (apiVersion is the caller's).
pub fn to_storage(crd: &mut Value) {
    if crd.get("apiVersion").and_then(Value::as_str) == Some(V1BETA1) {
        return;
    }
    let Some(spec) = crd.get_mut("spec").and_then(Value::as_object_mut) else {
        return;
    };
    let first = spec
        .get("versions")
        .and_then(Value::as_array)
        .and_then(|v| v.first())
        .and_then(|v| v.get("name"))
        .cloned();
    if let Some(name) = first {
        spec.insert("version".into(), name);
    }
    if let Some(versions) = spec.get_mut("versions").and_then(Value::as_array_mut) {
        for v in versions.iter_mut() {
            rename_column_paths(
                v.get_mut("additionalPrinterColumns"),
                "jsonPath",
                "JSONPath",
            );
        }
    }
    let schemas_alike = hoist(spec, "schema", "validation");
    hoist(spec, "subresources", "subresources");
    hoist(spec, "additionalPrinterColumns", "additionalPrinterColumns");
    if schemas_alike {
        hoist(spec, "selectableFields", "selectableFields");
    }
    let preserve = spec
        .get("preserveUnknownFields")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    spec.insert("preserveUnknownFields".into(), json!(preserve));
    if let Some(conversion) = spec.get_mut("conversion").and_then(Value::as_object_mut) {
        if let Some(Value::Object(webhook)) = conversion.remove("webhook") {
            if let Some(client) = webhook.get("clientConfig") {
                conversion.insert("webhookClientConfig".into(), client.clone());
            }
            if let Some(reviews) = webhook.get("conversionReviewVersions") {
                conversion.insert("conversionReviewVersions".into(), reviews.clone());
            }
        }
    }
}

/// Moves `field` of the versions to `spec[top]` when every version has it alike (or none
/// has it); returns whether they were alike. As upstream's semantic equality, an empty
/// list is the same as none.
fn hoist(spec: &mut Map<String, Value>, field: &str, top: &str) -> bool {
    let Some(versions) = spec.get_mut("versions").and_then(Value::as_array_mut) else {
        return false;
    };
    let of = |v: &Value| {
        v.get(field)
            .filter(|f| !f.is_null() && f.as_array().is_none_or(|a| !a.is_empty()))
            .cloned()
    };
    let Some(first) = versions.first().map(of) else {
        return false;
    };
    if versions.iter().any(|v| of(v) != first) {
        return false;
    }
    for v in versions.iter_mut().filter_map(Value::as_object_mut) {
        v.remove(field);
    }
    if let Some(value) = first {
        spec.insert(top.into(), value);
    }
    true
}

/// Renames each printer column's path field `from` to `to`.
fn rename_column_paths(columns: Option<&mut Value>, from: &str, to: &str) {
    let columns = columns.and_then(Value::as_array_mut);
    for c in columns
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
    {
        if let Some(path) = c.remove(from) {
            c.insert(to.into(), path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1beta1_shared_fields_go_to_each_version() {
        let mut crd = json!({"apiVersion": V1BETA1, "kind": "CustomResourceDefinition",
            "spec": {"group": "example.com", "version": "v1", "preserveUnknownFields": false,
                "validation": {"openAPIV3Schema": {"type": "object"}},
                "subresources": {"status": {}},
                "additionalPrinterColumns": [{"name": "Size", "type": "integer", "JSONPath": ".spec.size"}],
                "versions": [{"name": "v1", "served": true, "storage": true},
                             {"name": "v2", "served": true, "storage": false}]}});
        from_storage(&mut crd);
        let spec = &crd["spec"];
        assert!(spec.get("version").is_none() && spec.get("validation").is_none());
        assert!(spec.get("preserveUnknownFields").is_none());
        for v in spec["versions"].as_array().unwrap() {
            assert_eq!(v["schema"], json!({"openAPIV3Schema": {"type": "object"}}));
            assert_eq!(v["subresources"], json!({"status": {}}));
            assert_eq!(v["additionalPrinterColumns"][0]["jsonPath"], ".spec.size");
        }
    }

    #[test]
    fn single_version_defaults_and_webhooks() {
        let mut crd = json!({"apiVersion": V1BETA1, "spec": {"version": "v1",
            "conversion": {"strategy": "Webhook", "webhookClientConfig": {"url": "https://x"}}}});
        from_storage(&mut crd);
        assert_eq!(
            crd["spec"],
            json!({"versions": [{"name": "v1", "served": true, "storage": true}],
                "preserveUnknownFields": true,
                "conversion": {"strategy": "Webhook", "webhook": {
                    "clientConfig": {"url": "https://x"}, "conversionReviewVersions": ["v1beta1"]}}})
        );
        let mut v1 = json!({"apiVersion": "apiextensions.k8s.io/v1", "spec": {"version": "x"}});
        let before = v1.clone();
        from_storage(&mut v1);
        assert_eq!(v1, before);
        for mut bad in [
            json!(null),
            json!({"apiVersion": V1BETA1, "spec": 1}),
            json!({"apiVersion": V1BETA1, "spec": {"versions": 2, "conversion": 3}}),
        ] {
            from_storage(&mut bad);
        }
    }

    /// As kube-apiserver v1.33.4 stored a CRD it was sent as v1 (its etcd value).
    #[test]
    fn written_as_upstream_writes_it_and_read_back_unchanged() {
        let v1 = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "spec": {"conversion": {"strategy": "None"}, "group": "example.com",
                "names": {"kind": "Widget", "plural": "widgets"}, "scope": "Namespaced",
                "versions": [{"additionalPrinterColumns": [{"jsonPath": ".spec.size", "name": "Size", "type": "integer"}],
                    "name": "v1", "schema": {"openAPIV3Schema": {"type": "object"}},
                    "served": true, "storage": true, "subresources": {"status": {}}}]}});
        let mut stored = v1.clone();
        to_storage(&mut stored);
        assert_eq!(
            stored["spec"],
            json!({"conversion": {"strategy": "None"}, "group": "example.com",
                "names": {"kind": "Widget", "plural": "widgets"}, "scope": "Namespaced",
                "version": "v1", "versions": [{"name": "v1", "served": true, "storage": true}],
                "validation": {"openAPIV3Schema": {"type": "object"}},
                "subresources": {"status": {}},
                "additionalPrinterColumns": [{"JSONPath": ".spec.size", "name": "Size", "type": "integer"}],
                "preserveUnknownFields": false})
        );
        stored["apiVersion"] = json!(V1BETA1);
        from_storage(&mut stored);
        stored["apiVersion"] = json!("apiextensions.k8s.io/v1");
        assert_eq!(stored, v1);
    }

    #[test]
    fn versions_that_differ_keep_their_own_and_webhooks_sit_on_conversion() {
        let v1 = json!({"spec": {"group": "example.com", "preserveUnknownFields": true,
            "conversion": {"strategy": "Webhook", "webhook": {
                "clientConfig": {"url": "https://x"}, "conversionReviewVersions": ["v1"]}},
            "versions": [
                {"name": "v2", "served": true, "storage": true,
                 "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
                 "selectableFields": [{"jsonPath": ".spec.a"}],
                 "additionalPrinterColumns": [{"jsonPath": ".spec.a", "name": "A", "type": "string"}]},
                {"name": "v1", "served": true, "storage": false,
                 "schema": {"openAPIV3Schema": {"type": "object"}},
                 "selectableFields": [{"jsonPath": ".spec.a"}],
                 "additionalPrinterColumns": []}]}});
        let mut stored = v1.clone();
        to_storage(&mut stored);
        let spec = &stored["spec"];
        assert_eq!(spec["version"], "v2");
        assert_eq!(spec["preserveUnknownFields"], true);
        assert_eq!(
            spec["conversion"],
            json!({"strategy": "Webhook", "webhookClientConfig": {"url": "https://x"},
                "conversionReviewVersions": ["v1"]})
        );
        // Schemas differ: each version keeps its own, and so its selectable fields.
        assert!(spec.get("validation").is_none() && spec.get("selectableFields").is_none());
        assert_eq!(
            spec["versions"][0]["selectableFields"],
            json!([{"jsonPath": ".spec.a"}])
        );
        assert_eq!(
            spec["versions"][0]["additionalPrinterColumns"][0]["JSONPath"],
            ".spec.a"
        );
        assert!(spec.get("additionalPrinterColumns").is_none());
        // Read back: the same v1 object (v1's empty column list is the same as none).
        stored["apiVersion"] = json!(V1BETA1);
        from_storage(&mut stored);
        assert_eq!(stored["spec"]["versions"][0], v1["spec"]["versions"][0]);
        assert_eq!(stored["spec"]["conversion"], v1["spec"]["conversion"]);
        assert_eq!(stored["spec"]["preserveUnknownFields"], true);
        for mut bad in [
            json!(null),
            json!({"spec": 1}),
            json!({"spec": {"versions": 2, "conversion": 3}}),
        ] {
            to_storage(&mut bad);
        }
    }
}
