//! The kube-api worker: kube-apiserver's built-in API groups, served by the generic REST
//! store. Today it serves core/v1 ConfigMaps and the discovery documents; every other
//! built-in resource is described the same way, as data (see [`RESOURCES`]).

#![forbid(unsafe_code)]

mod validation;

use std::sync::Arc;

use http::{Method, Request, Response};
use kas_proto::RequestContext;
use kas_server::body::Body;
use kas_server::control::Control;
use kas_server::health::PostStartHooks;
use kas_server::lifecycle::Lifecycle;
use kas_server::rest::{Resource, RestStore};
use kas_server::{delegate, discovery};
use serde_json::json;

/// The built-in resources this worker serves.
pub const RESOURCES: &[Resource] = &[Resource {
    group: "",
    version: "v1",
    plural: "configmaps",
    singular: "configmap",
    kind: "ConfigMap",
    namespaced: true,
    key_path: "configmaps",
    short_names: &["cm"],
    extra_fields: &[],
    validate: validation::configmap,
}];

/// Runs the kube-api worker until the supervisor stops it.
pub async fn run(control: Control) -> Result<(), kas_server::Error> {
    let config = control.config().clone();
    let hooks = PostStartHooks::default();
    let storage = kas_server::backend::connect_storage(&control, &hooks).await?;
    // One compactor per cluster is enough; the kube-api worker runs it, as upstream's
    // kube-apiserver (not apiextensions) does.
    tokio::spawn(kas_server::storage::compactor(
        storage.clone(),
        config.etcd_compaction_interval,
    ));
    let stores: Arc<Vec<RestStore>> = Arc::new(
        RESOURCES
            .iter()
            .map(|r| RestStore::new(*r, storage.clone(), config.min_request_timeout))
            .collect(),
    );
    let address = format!("{}:{}", config.advertise_address, config.serving.port);
    let handler = move |ctx: RequestContext, req: Request<Body>| {
        let address = address.clone();
        let stores = stores.clone();
        async move { route(ctx, req, address, stores).await }
    };
    kas_server::backend::run(control, hooks, Lifecycle::new(), handler).await
}

async fn route(
    ctx: RequestContext,
    req: Request<Body>,
    address: String,
    stores: Arc<Vec<RestStore>>,
) -> Response<Body> {
    if delegate::panic_failpoint(req.uri().path(), kas_proto::WorkerRole::KubeApi) {
        panic!("failpoint: panic in a kube-api handler");
    }
    let info = &ctx.info;
    if info.is_resource_request {
        // An owned store: nothing borrowed from `stores` is held across the await.
        let store = stores
            .iter()
            .find(|s| {
                let r = s.resource();
                r.group == info.api_group
                    && r.version == info.api_version
                    && r.plural == info.resource
            })
            .cloned();
        return match store {
            Some(store) => store.handle(ctx, req).await,
            None => delegate::unhandled(),
        };
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return delegate::unhandled();
    }
    match req.uri().path().trim_end_matches('/') {
        "/api" => discovery::json(&discovery::api_versions(&["v1"], &address)),
        "/api/v1" => discovery::json(&json!({
            "kind": "APIResourceList",
            "groupVersion": "v1",
            "resources": stores
                .iter()
                .filter(|s| s.resource().group.is_empty())
                .map(|s| s.resource().discovery())
                .collect::<Vec<_>>(),
        })),
        "/apis" => discovery::json(&discovery::group_list(&[])),
        _ => delegate::unhandled(),
    }
}
