//! Reads what the documents need from a CustomResourceDefinition (`apiextensions.k8s.io/v1`,
//! as JSON): one [`ServedVersion`] per served version. Anything malformed is skipped,
//! never a panic: a CRD without usable names has no versions, a version without a name
//! is left out.

use crate::paths::CustomResource;
use serde_json::Value;

/// One served version of a custom resource.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ServedVersion {
    pub(crate) group: String,
    pub(crate) version: String,
    pub(crate) kind: String,
    pub(crate) list_kind: String,
    pub(crate) plural: String,
    pub(crate) namespaced: bool,
    /// `subresources.status` is set.
    pub(crate) status: bool,
    /// `subresources.scale` is set.
    pub(crate) scale: bool,
    /// `schema.openAPIV3Schema`, as written.
    pub(crate) schema: Option<Value>,
    /// `spec.preserveUnknownFields` (always false for valid v1 CRDs; kept for old objects).
    pub(crate) preserve_unknown_fields: bool,
    /// `selectableFields[].jsonPath` without the leading dot (`spec.color`).
    pub(crate) selectable_fields: Vec<String>,
}

impl ServedVersion {
    /// The definition name upstream gives the kind: the group reversed, then version and
    /// kind (`example.com`, `v1`, `Widget` → `com.example.v1.Widget`).
    pub(crate) fn definition(&self) -> String {
        definition_name(&self.group, &self.version, &self.kind)
    }

    /// The definition name of the list kind.
    pub(crate) fn list_definition(&self) -> String {
        definition_name(&self.group, &self.version, &self.list_kind)
    }

    /// The `/openapi/v3` key of its group version: `apis/<group>/<version>`.
    pub(crate) fn doc_key(&self) -> String {
        crate::gv_doc_path(&self.group, &self.version)
    }

    /// The paths' view of it; `definition` and `list_definition` must outlive it.
    pub(crate) fn resource<'a>(
        &'a self,
        definition: &'a str,
        list_definition: &'a str,
    ) -> CustomResource<'a> {
        CustomResource {
            group: &self.group,
            version: &self.version,
            kind: &self.kind,
            plural: &self.plural,
            namespaced: self.namespaced,
            status: self.status,
            scale: self.scale,
            definition,
            list_definition,
        }
    }
}

fn definition_name(group: &str, version: &str, kind: &str) -> String {
    let reversed: Vec<&str> = group.rsplit('.').collect();
    format!("{}.{version}.{kind}", reversed.join("."))
}

/// Whether `s` can go into a URL path segment and a definition name unescaped: DNS-ish
/// names (`example.com`, `v1beta1`, `widgets`, `Widget`).
fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

fn str_at<'a>(value: &'a Value, pointer: &str) -> Option<&'a str> {
    value.pointer(pointer).and_then(Value::as_str)
}

/// Every served version of `crd`, in the CRD's order; empty if `crd` is not a usable
/// CustomResourceDefinition.
pub(crate) fn served_versions(crd: &Value) -> Vec<ServedVersion> {
    let (Some(group), Some(kind), Some(plural)) = (
        str_at(crd, "/spec/group"),
        str_at(crd, "/spec/names/kind"),
        str_at(crd, "/spec/names/plural"),
    ) else {
        return Vec::new();
    };
    let list_kind = match str_at(crd, "/spec/names/listKind") {
        Some(list_kind) if !list_kind.is_empty() => list_kind.to_owned(),
        _ => format!("{kind}List"),
    };
    let namespaced = match str_at(crd, "/spec/scope") {
        Some("Namespaced") => true,
        Some("Cluster") => false,
        _ => return Vec::new(),
    };
    if ![group, kind, plural, &list_kind].into_iter().all(is_name) {
        return Vec::new();
    }
    let preserve_unknown_fields =
        crd.pointer("/spec/preserveUnknownFields") == Some(&Value::Bool(true));
    let Some(versions) = crd.pointer("/spec/versions").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut out: Vec<ServedVersion> = Vec::new();
    for v in versions {
        let Some(name) = str_at(v, "/name").filter(|n| is_name(n)) else {
            continue;
        };
        if v.get("served") != Some(&Value::Bool(true)) || out.iter().any(|o| o.version == name) {
            continue;
        }
        let subresource = |which: &str| {
            v.pointer(&format!("/subresources/{which}"))
                .is_some_and(Value::is_object)
        };
        let selectable_fields = v
            .get("selectableFields")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|f| f.get("jsonPath").and_then(Value::as_str))
            .map(|path| path.strip_prefix('.').unwrap_or(path).to_owned())
            .filter(|path| !path.is_empty())
            .collect();
        out.push(ServedVersion {
            group: group.to_owned(),
            version: name.to_owned(),
            kind: kind.to_owned(),
            list_kind: list_kind.clone(),
            plural: plural.to_owned(),
            namespaced,
            status: subresource("status"),
            scale: subresource("scale"),
            schema: v.pointer("/schema/openAPIV3Schema").cloned(),
            preserve_unknown_fields,
            selectable_fields,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_served_versions() {
        let crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {
                "group": "example.com",
                "names": {"kind": "Widget", "plural": "widgets"},
                "scope": "Namespaced",
                "versions": [
                    {"name": "v1", "served": true, "storage": true,
                     "schema": {"openAPIV3Schema": {"type": "object"}},
                     "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas"}},
                     "selectableFields": [{"jsonPath": ".spec.color"}, {"jsonPath": 3}]},
                    {"name": "v1beta1", "served": true, "storage": false},
                    {"name": "v1alpha1", "served": false, "storage": false},
                    {"name": "v1", "served": true},
                    {"served": true},
                ],
            },
        });
        let versions = served_versions(&crd);
        assert_eq!(versions.len(), 2);
        let v1 = &versions[0];
        assert_eq!(v1.definition(), "com.example.v1.Widget");
        assert_eq!(v1.list_definition(), "com.example.v1.WidgetList");
        assert_eq!(v1.doc_key(), "apis/example.com/v1");
        assert!(v1.namespaced && v1.status && v1.scale);
        assert_eq!(v1.schema, Some(json!({"type": "object"})));
        assert_eq!(v1.selectable_fields, ["spec.color"]);
        let beta = &versions[1];
        assert_eq!(beta.version, "v1beta1");
        assert!(!beta.status && !beta.scale && beta.schema.is_none());
    }

    #[test]
    fn malformed_crds_have_no_versions() {
        let good = json!({"spec": {"group": "a.io", "names": {"kind": "A", "plural": "as", "listKind": "AList"},
            "scope": "Cluster", "versions": [{"name": "v1", "served": true}]}});
        assert_eq!(served_versions(&good).len(), 1);
        assert!(!served_versions(&good)[0].namespaced);
        for pointer_value in [
            ("/spec/group", json!("")),
            ("/spec/group", json!("a/b")),
            ("/spec/group", json!(7)),
            ("/spec/names/kind", Value::Null),
            ("/spec/names/plural", json!("a s")),
            ("/spec/names/listKind", json!("A~List")),
            ("/spec/scope", json!("Galaxy")),
            ("/spec/versions", json!({"v1": {}})),
            ("/spec/versions/0/name", json!("v1/x")),
            ("/spec/versions/0/served", json!("true")),
        ] {
            let mut crd = good.clone();
            *crd.pointer_mut(pointer_value.0).unwrap() = pointer_value.1.clone();
            assert!(served_versions(&crd).is_empty(), "{pointer_value:?}");
        }
        for junk in [json!(null), json!([]), json!("crd"), json!({"spec": 1})] {
            assert!(served_versions(&junk).is_empty());
        }
    }

    #[test]
    fn list_kind_defaults() {
        let crd = json!({"spec": {"group": "x.y.z", "names": {"kind": "Thing", "plural": "things", "listKind": ""},
            "scope": "Cluster", "versions": [{"name": "v2", "served": true}]}});
        let v = &served_versions(&crd)[0];
        assert_eq!(v.list_kind, "ThingList");
        assert_eq!(v.definition(), "z.y.x.v2.Thing");
    }
}
