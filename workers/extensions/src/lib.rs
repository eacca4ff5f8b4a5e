//! The extensions worker: apiextensions.k8s.io and every custom resource, in a process of
//! its own so that a CRD that trips a bug takes down only this worker.

#![forbid(unsafe_code)]

use http::{Method, Request, Response};
use kas_proto::RequestContext;
use kas_server::body::Body;
use kas_server::control::Control;
use kas_server::delegate;
use kas_server::discovery::{self, GroupVersions};
use kas_server::health::PostStartHooks;
use kas_server::lifecycle::Lifecycle;

const GROUP: GroupVersions = GroupVersions {
    name: "apiextensions.k8s.io",
    versions: &["v1"],
};

/// Runs the extensions worker until the supervisor stops it.
pub async fn run(control: Control) -> Result<(), kas_server::Error> {
    let hooks = PostStartHooks::default();
    // Custom resources will live here; today the worker only needs etcd for readiness.
    let _storage = kas_server::backend::connect_storage(&control, &hooks).await?;
    let handler = |_ctx: RequestContext, req: Request<Body>| async move { route(&req) };
    kas_server::backend::run(control, hooks, Lifecycle::new(), handler).await
}

fn route(req: &Request<Body>) -> Response<Body> {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return delegate::unhandled();
    }
    if delegate::panic_failpoint(req.uri().path(), kas_proto::WorkerRole::Extensions) {
        panic!("failpoint: panic in a extensions handler");
    }
    match req.uri().path().trim_end_matches('/') {
        "/apis" if discovery::wants_aggregated(req.headers()) => {
            discovery::aggregated_json(&discovery::aggregated_list(vec![
                discovery::aggregated_group(GROUP.name, vec![("v1", Vec::new())]),
            ]))
        }
        "/apis" => discovery::json(&discovery::group_list(&[GROUP])),
        "/apis/apiextensions.k8s.io" => discovery::json(&discovery::group(&GROUP)),
        "/apis/apiextensions.k8s.io/v1" => {
            discovery::json(&discovery::resource_list("apiextensions.k8s.io/v1"))
        }
        _ => delegate::unhandled(),
    }
}
