//! OpenAPI documents of custom resources, from the CustomResourceDefinitions the caller
//! passes as JSON: one v3 document per custom group version (served by
//! [`CustomDocuments`], listed in the `/openapi/v3` index through
//! [`CustomDocuments::index_entries`]) and the definitions and paths to merge into
//! `/openapi/v2` ([`custom_v2`]). Shapes follow the apiextensions server's builder:
//! definitions `com.example.v1.Widget` and `com.example.v1.WidgetList`, the usual REST
//! paths without the deprecated watch paths, `/status` and `/scale` when enabled.

mod crd;
mod schema;

use crate::serve::{self, Cached};
use crate::{catalog, definitions, document, paths};
use bytes::Bytes;
use crd::ServedVersion;
use http::{HeaderMap, Response};
use schema::Target;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

/// `info` of upstream's custom resource documents.
fn info() -> Value {
    json!({"title": "Kubernetes CRD Swagger", "version": "v0.1.0"})
}

/// The canonical definitions and the path items of `served` (all of one group version
/// for v3; any mix for v2).
fn assemble(
    served: &[&ServedVersion],
    target: Target,
) -> (Map<String, Value>, Vec<paths::PathItem>) {
    let mut defs = definitions::custom_base().clone();
    let mut items = Vec::new();
    for v in served {
        let (definition, list_definition) = (v.definition(), v.list_definition());
        defs.insert(definition.clone(), schema::kind_schema(v, target));
        defs.insert(list_definition.clone(), schema::list_schema(v));
        items.extend(paths::for_custom_resource(
            &v.resource(&definition, &list_definition),
        ));
    }
    (defs, items)
}

/// The v3 document of served versions that share one group version.
fn v3_document(served: &[&ServedVersion]) -> Option<Value> {
    let first = served.first()?;
    let (mut defs, items) = assemble(served, Target::V3);
    // As in the built-in documents, DeleteOptions lists the group versions it serves.
    if let Some(Value::Array(gvks)) = defs
        .get_mut(catalog::DELETE_OPTIONS)
        .and_then(|d| d.get_mut("x-kubernetes-group-version-kind"))
    {
        gvks.push(json!({"group": first.group, "kind": "DeleteOptions", "version": first.version}));
    }
    let mut doc = document::v3(&items, &defs);
    doc["info"] = info();
    Some(doc)
}

/// Every served version of `crds`, first one wins for a repeated group/version/kind.
fn served_of(crds: &[Value]) -> Vec<ServedVersion> {
    let mut out: Vec<ServedVersion> = Vec::new();
    for v in crds.iter().flat_map(crd::served_versions) {
        let clash = out.iter().any(|o| {
            let names = [&o.kind, &o.list_kind];
            o.group == v.group
                && o.version == v.version
                && (o.plural == v.plural
                    || names.contains(&&v.kind)
                    || names.contains(&&v.list_kind))
        });
        if !clash {
            out.push(v);
        }
    }
    out
}

/// The v3 document of one custom group version: paths for the kinds `crds` serve there
/// and every component they reach (the custom schemas plus the meta/v1 ones), in the
/// built-in documents' format. `None` if no CRD serves `group/version`.
pub fn custom_v3(group: &str, version: &str, crds: &[Value]) -> Option<Value> {
    let served = served_of(crds);
    let mine: Vec<&ServedVersion> = served
        .iter()
        .filter(|v| v.group == group && v.version == version)
        .collect();
    v3_document(&mine)
}

/// The Swagger 2.0 `definitions` and `paths` of every served version of `crds`, as
/// `{"definitions": {...}, "paths": {...}}`, to merge into `/openapi/v2`. The meta/v1 and
/// `autoscaling/v1` definitions they reach are included; the built-in document already has
/// the same ones, so a merge may keep either.
pub fn custom_v2(crds: &[Value]) -> Value {
    let served = served_of(crds);
    let all: Vec<&ServedVersion> = served.iter().collect();
    let (defs, items) = assemble(&all, Target::V2);
    let doc = document::v2(&items, &defs, crate::KUBERNETES_VERSION);
    json!({"definitions": doc["definitions"], "paths": doc["paths"]})
}

/// One custom group version and its document, serialized on first use.
struct GroupVersion {
    served: Vec<ServedVersion>,
    doc: OnceLock<Option<Cached>>,
}

impl GroupVersion {
    fn cached(&self) -> Option<&Cached> {
        self.doc
            .get_or_init(|| {
                let served: Vec<&ServedVersion> = self.served.iter().collect();
                v3_document(&served).map(|doc| Cached::new(&doc))
            })
            .as_ref()
    }
}

/// The v3 documents of custom group versions, answered as the built-in ones are (ETag,
/// `hash`, 301 for a stale hash, 304, `Vary: Accept`, 406). Creating it only reads the
/// CRDs; each document is built on first use and cached. Rebuild it when the set of
/// established CRDs changes. Ask it before [`crate::Documents`], which answers 404 for
/// group versions it does not know.
///
/// ```
/// use kas_openapi::CustomDocuments;
///
/// let crd = serde_json::json!({"spec": {"group": "example.com", "scope": "Namespaced",
///     "names": {"kind": "Widget", "plural": "widgets"},
///     "versions": [{"name": "v1", "served": true, "storage": true,
///                   "schema": {"openAPIV3Schema": {"type": "object"}}}]}});
/// let docs = CustomDocuments::new(&[crd]);
/// let entries = docs.index_entries();
/// assert!(entries["apis/example.com/v1"]["serverRelativeURL"]
///     .as_str()
///     .unwrap()
///     .starts_with("/openapi/v3/apis/example.com/v1?hash="));
/// let response = docs
///     .respond("/openapi/v3/apis/example.com/v1", None, &http::HeaderMap::new())
///     .unwrap();
/// assert_eq!(response.status(), 200);
/// assert!(docs.respond("/openapi/v3/apis/apps/v1", None, &http::HeaderMap::new()).is_none());
/// ```
pub struct CustomDocuments {
    /// By document key (`apis/example.com/v1`).
    group_versions: BTreeMap<String, GroupVersion>,
}

impl fmt::Debug for CustomDocuments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CustomDocuments")
            .field(
                "group_versions",
                &self.group_versions.keys().collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl CustomDocuments {
    /// The documents of the served versions of `crds` (established CRDs as JSON);
    /// malformed ones are left out.
    pub fn new(crds: &[Value]) -> CustomDocuments {
        let mut group_versions: BTreeMap<String, GroupVersion> = BTreeMap::new();
        for v in served_of(crds) {
            group_versions
                .entry(v.doc_key())
                .or_insert_with(|| GroupVersion {
                    served: Vec::new(),
                    doc: OnceLock::new(),
                })
                .served
                .push(v);
        }
        CustomDocuments { group_versions }
    }

    /// The entries to merge into the `paths` of the `/openapi/v3` index:
    /// `{"apis/example.com/v1": {"serverRelativeURL": "/openapi/v3/apis/example.com/v1?hash=…"}}`.
    /// Builds every document not built yet (the hash is the document's).
    pub fn index_entries(&self) -> Map<String, Value> {
        self.group_versions
            .iter()
            .filter_map(|(key, gv)| {
                let doc = gv.cached()?;
                Some((
                    key.clone(),
                    json!({"serverRelativeURL": serve::gv_url(key, doc)}),
                ))
            })
            .collect()
    }

    /// The serialized v3 document of `key` (`apis/example.com/v1`).
    pub fn v3_json(&self, key: &str) -> Option<Bytes> {
        Some(self.group_versions.get(key)?.cached()?.body.clone())
    }

    /// The answer to a GET (or HEAD) of `path` if it is the document of a custom group
    /// version (`/openapi/v3/apis/<group>/<version>`), else `None`. `query` is the raw
    /// query string, without `?`.
    pub fn respond(
        &self,
        path: &str,
        query: Option<&str>,
        headers: &HeaderMap,
    ) -> Option<Response<Bytes>> {
        let key = serve::gv_key(path)?;
        let gv = self.group_versions.get(key)?;
        serve::respond_gv(key, query, headers, || gv.cached())
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
