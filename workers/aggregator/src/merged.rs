//! The documents the aggregator merges from its back ends (`/apis`, plain and aggregated,
//! `/openapi/v2` and the `/openapi/v3` index), built once per routes epoch: a read when
//! nothing changed is answered from memory, already serialized; a change of a back end's
//! API moves the epoch on (see `front::tasks::learn_routes`), and the next read rebuilds.

use std::sync::{Arc, Mutex};

use http::header::CONTENT_TYPE;
use http::{HeaderMap, HeaderValue, Response};
use kas_openapi::MergedDocument;
use kas_proto::WorkerRole;
use kas_server::body::{self, Body};
use kas_server::encode::Prepared;
use serde_json::{json, Value};

use crate::front::{Front, CHAIN};

/// The merged documents, each as of the epoch it was built in.
#[derive(Debug, Default)]
pub(crate) struct MergedDocs {
    apis: PerEpoch<Arc<(Prepared, Prepared)>>,
    v2: PerEpoch<Option<Arc<MergedDocument>>>,
    v3_index: PerEpoch<Arc<MergedDocument>>,
}

/// One cached document and the epoch it belongs to.
#[derive(Debug)]
struct PerEpoch<T> {
    cached: Mutex<Option<(u64, T)>>,
    /// Held while a document is built from the back ends, so that many first reads at
    /// once build it once (180 concurrent cold `/openapi/v2` GETs built it 180 times).
    building: tokio::sync::Mutex<()>,
}

impl<T> Default for PerEpoch<T> {
    fn default() -> Self {
        PerEpoch {
            cached: Mutex::new(None),
            building: tokio::sync::Mutex::new(()),
        }
    }
}

impl<T: Clone> PerEpoch<T> {
    /// The document if it was built in epoch `at`.
    fn get(&self, at: u64) -> Option<T> {
        let cached = self.cached.lock().ok()?;
        cached
            .as_ref()
            .filter(|(e, _)| *e == at)
            .map(|(_, d)| d.clone())
    }

    fn put(&self, at: u64, doc: T) -> T {
        if let Ok(mut c) = self.cached.lock() {
            *c = Some((at, doc.clone()));
        }
        doc
    }

    /// The document of epoch `at`, built by `build` unless it is cached or another
    /// caller is building it (then this one waits for theirs).
    async fn get_or_build<F>(&self, at: u64, build: impl FnOnce() -> F) -> T
    where
        F: std::future::Future<Output = T>,
    {
        if let Some(doc) = self.get(at) {
            return doc;
        }
        let _building = self.building.lock().await;
        if let Some(doc) = self.get(at) {
            return doc;
        }
        let doc = build().await;
        self.put(at, doc)
    }
}

/// Moves on when a back end's API or the APIServices change.
fn epoch(front: &Front) -> u64 {
    let routes = front.routes.read().map(|r| r.epoch).unwrap_or(0);
    routes.wrapping_add(front.remotes.generation())
}

/// `/apis`: every back end's groups in chain order, plain or aggregated as asked.
pub(crate) fn apis(front: &Front, headers: &HeaderMap) -> Response<Body> {
    let at = epoch(front);
    let docs = front.merged.apis.get(at).unwrap_or_else(|| {
        let docs = (
            Prepared::new(merged_groups(front)),
            Prepared::new(merged_aggregated(front)),
        );
        front.merged.apis.put(at, Arc::new(docs))
    });
    kas_server::discovery::respond(headers, &docs.0, Some(&docs.1))
}

fn merged_groups(front: &Front) -> Value {
    let groups: Vec<Value> = front
        .routes
        .read()
        .map(|r| {
            CHAIN
                .iter()
                .filter_map(|role| r.lists.get(role))
                .flatten()
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    // kube-aggregator lists its own group first, the others by APIService priority.
    let mut groups = crate::apiservices::sorted_groups(groups, false);
    groups.insert(0, front.apiservices.legacy_group());
    let groups = front.remotes.legacy_groups(groups);
    json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
}

/// The aggregated discovery of every back end, in chain order.
fn merged_aggregated(front: &Front) -> Value {
    let items: Vec<Value> = front
        .routes
        .read()
        .map(|r| {
            CHAIN
                .iter()
                .filter_map(|role| r.aggregated.get(role))
                .flatten()
                .cloned()
                .chain([front.apiservices.aggregated_group()])
                .collect()
        })
        .unwrap_or_default();
    // Aggregated discovery sorts every group by priority, apiregistration.k8s.io first.
    let items = crate::apiservices::sorted_groups(items, true);
    let items = front.remotes.aggregated_groups(items);
    kas_server::discovery::aggregated_list(items)
}

/// The versions of `group` the back ends serve (none when they do not serve it).
pub(crate) fn served_versions(front: &Front, group: &str) -> Vec<String> {
    let Ok(routes) = front.routes.read() else {
        return Vec::new();
    };
    routes
        .lists
        .values()
        .flatten()
        .filter(|g| g["name"] == group)
        .flat_map(|g| g["versions"].as_array().into_iter().flatten())
        .filter_map(|v| v["version"].as_str().map(str::to_owned))
        .collect()
}

/// `/openapi/v2`: the built-in document with apiregistration.k8s.io's and the custom
/// resources' definitions and paths merged in; None when the kube-api worker's document
/// cannot be had.
pub(crate) async fn openapi_v2(front: &Front, headers: &HeaderMap) -> Option<Response<Body>> {
    let at = epoch(front);
    let doc = front
        .merged
        .v2
        .get_or_build(at, || async { build_v2(front).await.map(Arc::new) })
        .await;
    Some(doc?.respond_v2(headers).map(body::full))
}

async fn build_v2(front: &Front) -> Option<MergedDocument> {
    let mut others = Vec::new();
    if front.peer_serving(WorkerRole::Extensions) {
        let custom = front
            .fetch_json(WorkerRole::Extensions, "/openapi/v2", "application/json")
            .await;
        others.extend(custom);
    }
    let own = front.apiservices.openapi_v2_blocking().await;
    others.extend(own);
    others.extend(
        front
            .remotes
            .openapi_v2_documents()
            .iter()
            .map(|d| Value::clone(d)),
    );
    let mut doc = front
        .fetch_json(WorkerRole::KubeApi, "/openapi/v2", "application/json")
        .await?;
    for other in &others {
        for key in ["definitions", "paths"] {
            if let (Some(into), Some(from)) = (
                doc.get_mut(key).and_then(Value::as_object_mut),
                other.get(key).and_then(Value::as_object),
            ) {
                for (k, v) in from {
                    into.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
    }
    Some(MergedDocument::new(&doc))
}

/// The `/openapi/v3` index of every back end: their `paths` together.
pub(crate) async fn openapi_v3_index(front: &Front, headers: &HeaderMap) -> Response<Body> {
    let at = epoch(front);
    let doc = front
        .merged
        .v3_index
        .get_or_build(at, || async { Arc::new(build_v3_index(front).await) })
        .await;
    let mut resp = doc.respond_v3_index(headers);
    if resp.headers().contains_key(CONTENT_TYPE) {
        // kube-aggregator serves the index with `http.ServeContent` and no type of its
        // own, so Go sniffs the JSON as text (`openapiv3/aggregator.go`, handleDiscovery).
        resp.headers_mut().insert(
            CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
    }
    resp.map(body::full)
}

async fn build_v3_index(front: &Front) -> MergedDocument {
    let mut paths = front.apiservices.openapi_v3_paths().await;
    for role in CHAIN {
        if !front.peer_serving(role) {
            continue;
        }
        if let Some(index) = front
            .fetch_json(role, "/openapi/v3", "application/json")
            .await
        {
            if let Some(p) = index.get("paths").and_then(Value::as_object) {
                paths.extend(p.clone());
            }
        }
    }
    for (k, v) in front.remotes.openapi_v3_paths() {
        paths.entry(k).or_insert(v);
    }
    MergedDocument::new(&json!({ "paths": paths }))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    /// Many first reads at once build the document once; a new epoch builds again.
    #[tokio::test]
    async fn concurrent_first_reads_build_once() {
        let doc: Arc<PerEpoch<Arc<String>>> = Arc::default();
        let builds = Arc::new(AtomicUsize::new(0));
        let read = |at: u64| {
            let (doc, builds) = (doc.clone(), builds.clone());
            tokio::spawn(async move {
                doc.get_or_build(at, || async {
                    builds.fetch_add(1, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    Arc::new(format!("epoch {at}"))
                })
                .await
            })
        };
        let readers: Vec<_> = (0..50).map(|_| read(1)).collect();
        for r in readers {
            assert_eq!(*r.await.expect("reader"), "epoch 1");
        }
        assert_eq!(builds.load(Ordering::SeqCst), 1);
        assert_eq!(*read(2).await.expect("reader"), "epoch 2");
        assert_eq!(builds.load(Ordering::SeqCst), 2);
    }
}
