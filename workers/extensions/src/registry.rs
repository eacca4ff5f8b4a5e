//! What the extensions worker serves right now: a store per served version of every
//! established CRD, and the discovery documents of their groups, rebuilt whenever the
//! CRDs change.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use kas_server::discovery;
use kas_server::encode::Prepared;
use kas_server::rest::{Resource, RestStore};
use kas_server::service_resolver::ServiceResolver;
use kas_server::storage::Storage;
use serde_json::{json, Value};

use crate::custom;

/// One served version's store, and the CRD it belongs to.
#[derive(Clone)]
pub(crate) struct Entry {
    pub(crate) store: RestStore,
    /// The CRD's name (`<plural>.<group>`).
    pub(crate) crd: String,
    /// Whether the CRD is being deleted (no new objects).
    pub(crate) terminating: bool,
}

/// The stores and discovery of every established CRD.
pub(crate) struct Registry {
    storage: Storage,
    min_request_timeout: Duration,
    /// The admission chain every custom resource's writes pass.
    admission: Arc<kas_server::admission::Chain>,
    /// Resolves conversion webhooks' service references.
    services: Arc<ServiceResolver>,
    inner: RwLock<Inner>,
}

#[derive(Default)]
struct Inner {
    /// (group, version, plural) → entry.
    served: HashMap<(String, String, String), Entry>,
    /// CRD name → the [`fingerprint`] of the CRD its stores were built from.
    built: HashMap<String, String>,
    /// UIDs of CRDs whose cleanup finished: never served again, even while the CRD
    /// object lingers until its finalizer is removed.
    forgotten: HashSet<String>,
    groups: Prepared,
    aggregated: Prepared,
    per_group: HashMap<String, Prepared>,
    per_version: HashMap<String, Prepared>,
    /// The OpenAPI v3 documents of the served custom group versions.
    openapi: Option<Arc<kas_openapi::CustomDocuments>>,
    /// The established CRDs (for the v2 document, built on request).
    established: Arc<Vec<Value>>,
}

/// Each document serialized once.
fn prepared(docs: HashMap<String, Value>) -> HashMap<String, Prepared> {
    docs.into_iter()
        .map(|(k, v)| (k, Prepared::new(v)))
        .collect()
}

/// Sorts versions most preferred first.
fn sort_versions(vs: &mut [String]) {
    vs.sort_by(|a, b| kas_server::discovery::compare_versions(a, b));
}

fn established(crd: &Value) -> bool {
    crd.pointer("/status/conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Established" && c["status"] == "True")
}

fn uid(crd: &Value) -> &str {
    crd.pointer("/metadata/uid")
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// What the served stores and documents of a CRD depend on: the object (uid), its spec
/// (generation) and whether it is being deleted. Status writes (conditions, accepted
/// names) leave it alone, so the controllers' own status updates never rebuild a CRD.
fn fingerprint(crd: &Value) -> String {
    let uid = uid(crd);
    let generation = crd
        .pointer("/metadata/generation")
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let terminating = crd.pointer("/metadata/deletionTimestamp").is_some();
    format!("{uid}/{generation}/{terminating}")
}

impl Registry {
    pub(crate) fn new(
        storage: Storage,
        min_request_timeout: Duration,
        admission: Arc<kas_server::admission::Chain>,
        services: Arc<ServiceResolver>,
    ) -> Arc<Registry> {
        let registry = Arc::new(Registry {
            storage,
            min_request_timeout,
            admission,
            services,
            inner: RwLock::new(Inner::default()),
        });
        registry.rebuild(&[]);
        registry
    }

    /// The store serving `group/version/plural`.
    pub(crate) fn get(&self, group: &str, version: &str, plural: &str) -> Option<Entry> {
        let inner = self.inner.read().ok()?;
        inner
            .served
            .get(&(group.to_owned(), version.to_owned(), plural.to_owned()))
            .cloned()
    }

    /// Every store of CRD `name`, any version (they share one storage prefix).
    pub(crate) fn stores_of(&self, name: &str) -> Vec<RestStore> {
        self.inner
            .read()
            .map(|i| {
                i.served
                    .values()
                    .filter(|e| e.crd == name)
                    .map(|e| e.store.clone())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Stops serving CRD `name` at once, store and discovery (its objects are gone and
    /// it is about to be). True when it was served.
    pub(crate) fn forget(&self, name: &str) -> bool {
        let Ok(established) = self.inner.write().map(|mut i| {
            let uids: Vec<String> = i
                .established
                .iter()
                .filter(|c| c.pointer("/metadata/name").and_then(Value::as_str) == Some(name))
                .map(|c| uid(c).to_owned())
                .collect();
            i.forgotten.extend(uids);
            i.established.clone()
        }) else {
            return false;
        };
        let served = established
            .iter()
            .any(|c| c.pointer("/metadata/name").and_then(Value::as_str) == Some(name));
        served && self.rebuild(&established)
    }

    /// Serves exactly the established CRDs of `crds` (all CRDs, as stored or about to
    /// be). True when what is served changed.
    pub(crate) fn rebuild(&self, crds: &[Value]) -> bool {
        // What can be reused: the stores of CRDs unchanged since the last build. Read
        // under a short lock; the new registry is built outside it and swapped in, so
        // requests never wait for a rebuild.
        let (old_served, old_built, built_once, mut forgotten) = match self.inner.read() {
            Ok(i) => (
                i.served.clone(),
                i.built.clone(),
                i.openapi.is_some(),
                i.forgotten.clone(),
            ),
            Err(_) => return false,
        };
        forgotten.retain(|u| crds.iter().any(|c| uid(c) == u));
        let established = |c: &&Value| established(c) && !forgotten.contains(uid(c));
        let unchanged: Vec<&str> = crds
            .iter()
            .filter(established)
            .filter(|c| {
                let name = c
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                old_built.get(name) == Some(&fingerprint(c))
            })
            .filter_map(|c| c.pointer("/metadata/name").and_then(Value::as_str))
            .collect();
        if unchanged.len() == old_built.len()
            && crds.iter().filter(established).count() == old_built.len()
            && built_once
        {
            return false;
        }
        let mut served = HashMap::new();
        let mut built = HashMap::new();
        let mut groups: BTreeMap<String, BTreeMap<String, Vec<Resource>>> = BTreeMap::new();
        let established_crds: Vec<Value> = crds.iter().filter(established).cloned().collect();
        for crd in crds.iter().filter(established) {
            let name = crd
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let rv = fingerprint(crd);
            let terminating = crd.pointer("/metadata/deletionTimestamp").is_some();
            if unchanged.contains(&name.as_str()) {
                // Same CRD object: same stores, no schema parsing or CEL compilation.
                for (key, e) in old_served.iter().filter(|(_, e)| e.crd == name) {
                    let r = *e.store.resource();
                    groups
                        .entry(r.group.to_owned())
                        .or_default()
                        .entry(r.version.to_owned())
                        .or_default()
                        .push(r);
                    served.insert(key.clone(), e.clone());
                }
                built.insert(name, rv);
                continue;
            }
            let versions = custom::served_versions(crd, &self.services);
            let resources: Vec<Resource> = versions.iter().map(|v| v.resource).collect();
            for v in versions {
                let key = (
                    v.resource.group.to_owned(),
                    v.resource.version.to_owned(),
                    v.resource.plural.to_owned(),
                );
                let store =
                    RestStore::new(v.resource, self.storage.clone(), self.min_request_timeout)
                        .with_strategy(Arc::new(v.strategy))
                        .with_cache()
                        .with_admission(self.admission.clone())
                        .with_equivalents(&resources);
                groups
                    .entry(v.resource.group.to_owned())
                    .or_default()
                    .entry(v.resource.version.to_owned())
                    .or_default()
                    .push(v.resource);
                served.insert(
                    key,
                    Entry {
                        store,
                        crd: name.clone(),
                        terminating,
                    },
                );
            }
            built.insert(name, rv);
        }
        // Discovery: apiextensions.k8s.io first, then the custom groups by name.
        let mut list_groups = vec![json!({
            "name": "apiextensions.k8s.io",
            "versions": [{"groupVersion": "apiextensions.k8s.io/v1", "version": "v1"}],
            "preferredVersion": {"groupVersion": "apiextensions.k8s.io/v1", "version": "v1"},
        })];
        let mut aggregated = vec![discovery::aggregated_group(
            "apiextensions.k8s.io",
            vec![("v1", vec![crate::crd::CRDS.aggregated_discovery()])],
        )];
        let mut per_group = HashMap::new();
        let mut per_version = HashMap::new();
        per_version.insert(
            "apiextensions.k8s.io/v1".to_owned(),
            json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": "apiextensions.k8s.io/v1",
                "resources": crate::crd::CRDS.discovery()}),
        );
        for (group, versions) in &groups {
            let mut names: Vec<String> = versions.keys().cloned().collect();
            sort_versions(&mut names);
            let gvs: Vec<Value> = names
                .iter()
                .map(|v| json!({"groupVersion": format!("{group}/{v}"), "version": v}))
                .collect();
            let g = json!({"name": group, "versions": gvs, "preferredVersion": gvs[0]});
            let mut with_kind = g.clone();
            with_kind["kind"] = json!("APIGroup");
            with_kind["apiVersion"] = json!("v1");
            per_group.insert(group.clone(), with_kind);
            list_groups.push(g);
            let mut agg_versions = Vec::new();
            for v in &names {
                let resources = &versions[v];
                per_version.insert(
                    format!("{group}/{v}"),
                    json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": format!("{group}/{v}"),
                        "resources": resources.iter().flat_map(Resource::discovery).collect::<Vec<_>>()}),
                );
                agg_versions.push((
                    v.as_str(),
                    resources
                        .iter()
                        .map(Resource::aggregated_discovery)
                        .collect(),
                ));
            }
            aggregated.push(discovery::aggregated_group(group, agg_versions));
        }
        per_group.insert(
            "apiextensions.k8s.io".to_owned(),
            json!({"kind": "APIGroup", "apiVersion": "v1", "name": "apiextensions.k8s.io",
                "versions": [{"groupVersion": "apiextensions.k8s.io/v1", "version": "v1"}],
                "preferredVersion": {"groupVersion": "apiextensions.k8s.io/v1", "version": "v1"}}),
        );
        let Ok(mut inner) = self.inner.write() else {
            return false;
        };
        *inner = Inner {
            served,
            built,
            groups: Prepared::new(
                json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": list_groups}),
            ),
            aggregated: Prepared::new(discovery::aggregated_list(aggregated)),
            per_group: prepared(per_group),
            per_version: prepared(per_version),
            openapi: Some(Arc::new(kas_openapi::CustomDocuments::new(
                &established_crds,
            ))),
            established: Arc::new(established_crds),
            forgotten,
        };
        true
    }

    /// `/openapi/v3` (this worker's index entries) and `/openapi/v3/apis/<g>/<v>`: the
    /// custom resources' group-versions and `apiextensions.k8s.io/v1` itself.
    pub(crate) fn openapi(
        &self,
        path: &str,
        query: Option<&str>,
        headers: &http::HeaderMap,
    ) -> Option<http::Response<kas_server::body::Body>> {
        let own = own_openapi();
        if path.starts_with("/openapi/v3/apis/apiextensions.k8s.io") {
            return own
                .respond(path, query, headers)
                .map(|r| r.map(kas_server::body::full));
        }
        let (docs, established) = {
            let inner = self.inner.read().ok()?;
            (inner.openapi.clone(), inner.established.clone())
        };
        if path == "/openapi/v3" {
            let mut entries = docs.map(|d| d.index_entries()).unwrap_or_default();
            let index: Value = serde_json::from_slice(&own.v3_index_json()).unwrap_or_default();
            for (k, v) in index["paths"].as_object().into_iter().flatten() {
                if k.starts_with("apis/apiextensions.k8s.io") {
                    entries.insert(k.clone(), v.clone());
                }
            }
            return Some(discovery::json(&json!({ "paths": entries })));
        }
        let docs = docs?;
        if path == "/openapi/v2" {
            // Definitions and paths only: the aggregator merges them into the built-in
            // document.
            return Some(discovery::json(&kas_openapi::custom_v2(&established)));
        }
        docs.respond(path, query, headers)
            .map(|r| r.map(kas_server::body::full))
    }

    /// A discovery document for `path` (`/apis`, `/apis/<g>`, `/apis/<g>/<v>`).
    pub(crate) fn discovery(
        &self,
        path: &str,
        headers: &http::HeaderMap,
    ) -> Option<http::Response<kas_server::body::Body>> {
        let inner = self.inner.read().ok()?;
        if path == "/apis" {
            return Some(discovery::respond(
                headers,
                &inner.groups,
                Some(&inner.aggregated),
            ));
        }
        let rest = path.strip_prefix("/apis/")?;
        let doc = match rest.split_once('/') {
            None => inner.per_group.get(rest),
            Some(_) => inner.per_version.get(rest),
        };
        Some(discovery::respond(headers, doc?, None))
    }
}

/// The OpenAPI documents of `apiextensions.k8s.io/v1` (CustomResourceDefinitions), built
/// on first use.
fn own_openapi() -> &'static kas_openapi::Documents {
    static DOCS: std::sync::OnceLock<kas_openapi::Documents> = std::sync::OnceLock::new();
    DOCS.get_or_init(|| {
        let r = &crate::crd::CRDS;
        kas_openapi::Documents::new([kas_openapi::ApiResource {
            group: r.group,
            version: r.version,
            kind: r.kind,
            plural: r.plural,
            namespaced: r.namespaced,
            verbs: r.verbs.names(),
            subresources: r.subresources,
        }])
        .with_schema_markers()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_sort_by_kubernetes_priority() {
        let mut v: Vec<String> = ["v1alpha1", "v1", "v2beta1", "v1beta2", "foo", "v2", "v10"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        sort_versions(&mut v);
        assert_eq!(
            v,
            ["v10", "v2", "v1", "v2beta1", "v1beta2", "v1alpha1", "foo"]
        );
    }
}
