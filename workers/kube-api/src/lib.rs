//! The kube-api worker: kube-apiserver's built-in API groups. It serves its discovery
//! documents today; the built-in resources come with their REST machinery.

#![forbid(unsafe_code)]

use http::{Method, Request, Response};
use kas_proto::RequestContext;
use kas_server::body::Body;
use kas_server::control::Control;
use kas_server::health::PostStartHooks;
use kas_server::lifecycle::Lifecycle;
use kas_server::{delegate, discovery};

/// Runs the kube-api worker until the supervisor stops it.
pub async fn run(control: Control) -> Result<(), kas_server::Error> {
    let config = control.config().clone();
    let hooks = PostStartHooks::default();
    let storage = kas_server::backend::connect_storage(&control, &hooks).await?;
    // One compactor per cluster is enough; the kube-api worker runs it, as upstream's
    // kube-apiserver (not apiextensions) does.
    tokio::spawn(kas_server::storage::compactor(
        storage,
        config.etcd_compaction_interval,
    ));
    let address = format!("{}:{}", config.advertise_address, config.serving.port);
    let handler = move |_ctx: RequestContext, req: Request<Body>| {
        let address = address.clone();
        async move { route(&req, &address) }
    };
    kas_server::backend::run(control, hooks, Lifecycle::new(), handler).await
}

fn route(req: &Request<Body>, address: &str) -> Response<Body> {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return delegate::unhandled();
    }
    if delegate::panic_failpoint(req.uri().path(), kas_proto::WorkerRole::KubeApi) {
        panic!("failpoint: panic in a kube-api handler");
    }
    match req.uri().path().trim_end_matches('/') {
        "/api" => discovery::json(&discovery::api_versions(&["v1"], address)),
        "/apis" => discovery::json(&discovery::group_list(&[])),
        _ => delegate::unhandled(),
    }
}
