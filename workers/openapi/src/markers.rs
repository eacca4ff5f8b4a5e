//! Patch-metadata vendor extensions (`x-kubernetes-patch-strategy`, `…-patch-merge-key`,
//! `…-list-type`, `…-list-map-keys`) injected into definition properties from a lookup
//! the caller provides (the lead wires `kas_schema` to it).

use serde_json::{Map, Value};

/// The markers of one field of one definition, as `+patchStrategy`, `+patchMergeKey`,
/// `+listType` and `+listMapKey` set them upstream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatchMarkers {
    /// `merge`, `retainKeys`, `merge,retainKeys` or `replace`.
    pub patch_strategy: Option<String>,
    /// The key identifying list elements for strategic merge, e.g. `name`.
    pub patch_merge_key: Option<String>,
    /// `atomic`, `set` or `map`.
    pub list_type: Option<String>,
    /// Keys of a `map` list, in order.
    pub list_map_keys: Vec<String>,
}

impl PatchMarkers {
    fn is_empty(&self) -> bool {
        self.patch_strategy.is_none()
            && self.patch_merge_key.is_none()
            && self.list_type.is_none()
            && self.list_map_keys.is_empty()
    }
}

/// A lookup of the markers of `(definition name, JSON field name)`, e.g.
/// `("io.k8s.api.core.v1.PodSpec", "containers")`.
pub(crate) type MarkerLookup = dyn Fn(&str, &str) -> Option<PatchMarkers> + Send + Sync;

/// Adds the markers `lookup` knows to every property of every definition. Existing
/// extensions with the same names are replaced. Returns how many properties changed.
pub(crate) fn inject(definitions: &mut Map<String, Value>, lookup: &MarkerLookup) -> usize {
    let mut changed = 0;
    for (name, schema) in definitions.iter_mut() {
        let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
            continue;
        };
        for (field, property) in properties.iter_mut() {
            let Some(markers) = lookup(name, field) else {
                continue;
            };
            let Some(property) = property.as_object_mut() else {
                continue;
            };
            if markers.is_empty() {
                continue;
            }
            if let Some(strategy) = markers.patch_strategy {
                property.insert("x-kubernetes-patch-strategy".into(), strategy.into());
            }
            if let Some(key) = markers.patch_merge_key {
                property.insert("x-kubernetes-patch-merge-key".into(), key.into());
            }
            if let Some(list_type) = markers.list_type {
                property.insert("x-kubernetes-list-type".into(), list_type.into());
            }
            if !markers.list_map_keys.is_empty() {
                property.insert(
                    "x-kubernetes-list-map-keys".into(),
                    markers.list_map_keys.into_iter().map(Value::from).collect(),
                );
            }
            changed += 1;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn injects_only_known_fields() {
        let mut defs = json!({
            "io.k8s.api.core.v1.PodSpec": {"type": "object", "properties": {
                "containers": {"type": "array", "items": {"$ref": "#/components/schemas/io.k8s.api.core.v1.Container"}},
                "hostname": {"type": "string"},
            }},
            "io.k8s.apimachinery.pkg.api.resource.Quantity": {"type": "string"},
            "weird": {"properties": {"x": true}},
        });
        let defs = defs.as_object_mut().unwrap();
        let lookup = |def: &str, field: &str| match (def, field) {
            ("io.k8s.api.core.v1.PodSpec", "containers") => Some(PatchMarkers {
                patch_strategy: Some("merge".into()),
                patch_merge_key: Some("name".into()),
                list_type: Some("map".into()),
                list_map_keys: vec!["name".into()],
            }),
            ("weird", "x") => Some(PatchMarkers {
                list_type: Some("atomic".into()),
                ..Default::default()
            }),
            _ => None,
        };
        assert_eq!(inject(defs, &lookup), 1);
        let containers = &defs["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"];
        assert_eq!(containers["x-kubernetes-patch-strategy"], "merge");
        assert_eq!(containers["x-kubernetes-patch-merge-key"], "name");
        assert_eq!(containers["x-kubernetes-list-type"], "map");
        assert_eq!(containers["x-kubernetes-list-map-keys"], json!(["name"]));
        assert!(defs["io.k8s.api.core.v1.PodSpec"]["properties"]["hostname"]
            .get("x-kubernetes-list-type")
            .is_none());
    }
}
