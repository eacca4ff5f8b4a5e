//! CustomResourceDefinitions stored as `apiextensions.k8s.io/v1beta1`, as kube-apiserver
//! (v1.33 too) stores them, read as v1 (upstream's v1beta1 → internal → v1 conversion and
//! v1beta1 defaulting): the single `version` becomes the version list, the schema,
//! subresources, printer columns and selectable fields given once for all versions go to
//! each version, `JSONPath` becomes `jsonPath`, `preserveUnknownFields` (true when unset
//! in v1beta1) stays only when true, and a conversion webhook's client config and review
//! versions move under `conversion.webhook`. v1 objects pass unchanged.

use serde_json::{json, Map, Value};

const V1BETA1: &str = "apiextensions.k8s.io/v1beta1";

/// What v1 shows of a stored CRD.
pub(crate) fn from_storage(crd: &mut Value) {
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
        if let Some(columns) = v
            .get_mut("additionalPrinterColumns")
            .and_then(Value::as_array_mut)
        {
            for c in columns.iter_mut().filter_map(Value::as_object_mut) {
                if let Some(path) = c.remove("JSONPath") {
                    c.insert("jsonPath".into(), path);
                }
            }
        }
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

/// Stored as v1: nothing to change.
pub(crate) fn to_storage(_crd: &mut Value) {}

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
}
