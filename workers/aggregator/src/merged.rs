//! The OpenAPI documents the aggregator merges from its back ends (`/openapi/v2` and the
//! `/openapi/v3` index), built once per routes epoch: a read when nothing changed is
//! answered from memory; a change of a back end's API moves the epoch on (see
//! `front::learn_routes`), and the next read rebuilds.

use std::sync::{Arc, Mutex};

use http::header::CONTENT_TYPE;
use http::{HeaderMap, HeaderValue, Response};
use kas_openapi::MergedDocument;
use kas_proto::WorkerRole;
use kas_server::body::{self, Body};
use serde_json::{json, Map, Value};

use crate::front::{Front, CHAIN};

/// The merged documents of one epoch.
#[derive(Debug, Default)]
pub(crate) struct MergedDocs {
    v2: Mutex<Option<(u64, Option<Arc<MergedDocument>>)>>,
    v3_index: Mutex<Option<(u64, Arc<MergedDocument>)>>,
}

fn epoch(front: &Front) -> u64 {
    front.routes.read().map(|r| r.epoch).unwrap_or(0)
}

/// `/openapi/v2` with the custom resources' definitions and paths merged into the
/// built-in document; None when no custom resource is served (the built-in document is
/// then served by its worker as it is).
pub(crate) async fn openapi_v2(front: &Front, headers: &HeaderMap) -> Option<Response<Body>> {
    let at = epoch(front);
    let cached = front.merged.v2.lock().ok().and_then(|c| c.clone());
    let doc = match cached {
        Some((e, doc)) if e == at => doc,
        _ => {
            let doc = build_v2(front).await.map(Arc::new);
            if let Ok(mut c) = front.merged.v2.lock() {
                *c = Some((at, doc.clone()));
            }
            doc
        }
    };
    Some(doc?.respond_v2(headers).map(body::full))
}

async fn build_v2(front: &Front) -> Option<MergedDocument> {
    if !front.peer_serving(WorkerRole::Extensions) {
        return None;
    }
    let custom = front
        .fetch_json(WorkerRole::Extensions, "/openapi/v2", "application/json")
        .await?;
    let custom_paths = custom.get("paths").and_then(Value::as_object)?;
    if custom_paths.is_empty() {
        return None;
    }
    let mut doc = front
        .fetch_json(WorkerRole::KubeApi, "/openapi/v2", "application/json")
        .await?;
    for key in ["definitions", "paths"] {
        if let (Some(into), Some(from)) = (
            doc.get_mut(key).and_then(Value::as_object_mut),
            custom.get(key).and_then(Value::as_object),
        ) {
            for (k, v) in from {
                into.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    }
    Some(MergedDocument::new(&doc))
}

/// The `/openapi/v3` index of every back end: their `paths` together.
pub(crate) async fn openapi_v3_index(front: &Front, headers: &HeaderMap) -> Response<Body> {
    let at = epoch(front);
    let cached = front.merged.v3_index.lock().ok().and_then(|c| c.clone());
    let doc = match cached {
        Some((e, doc)) if e == at => doc,
        _ => {
            let doc = Arc::new(build_v3_index(front).await);
            if let Ok(mut c) = front.merged.v3_index.lock() {
                *c = Some((at, doc.clone()));
            }
            doc
        }
    };
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
    let mut paths = Map::new();
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
    MergedDocument::new(&json!({ "paths": paths }))
}
