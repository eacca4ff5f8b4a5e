//! The extensions worker: `apiextensions.k8s.io/v1` CustomResourceDefinitions and every
//! custom resource they define, in a process of its own so that a CRD whose schema or
//! rule trips a bug takes down only this worker, which the supervisor restarts.
//!
//! CRDs are served by the generic REST store with kas-crd's validation; the controllers
//! ([`controllers`]) set their conditions and build, per served version of every
//! established CRD, a store with the CRD's schema as its strategy ([`custom`]) and the
//! discovery documents ([`registry`]).

#![forbid(unsafe_code)]

mod controllers;
mod conversion;
mod crd;
mod custom;
mod custom_scale;
mod registry;

#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing;

use std::sync::Arc;

use http::{Method, Request, Response};
use kas_proto::RequestContext;
use kas_server::body::Body;
use kas_server::control::Control;
use kas_server::delegate;
use kas_server::health::PostStartHooks;
use kas_server::lifecycle::Lifecycle;
use kas_server::rest::RestStore;
use kas_server::status::{Reason, Status};

use registry::Registry;

/// Runs the extensions worker until the supervisor stops it.
pub async fn run(control: Control) -> Result<(), kas_server::Error> {
    let config = control.config().clone();
    kas_server::rest::set_feature_gates(&config.feature_gates);
    let hooks = PostStartHooks::default();
    let informers = hooks.register("start-apiextensions-informers");
    let controllers_hook = hooks.register("start-apiextensions-controllers");
    let synced = hooks.register("crd-informer-synced");
    let storage = kas_server::backend::connect_storage(&control, &hooks).await?;
    let namespaces = RestStore::new(
        kas_admission::NAMESPACES,
        storage.clone(),
        config.min_request_timeout,
    )
    .with_cache();
    // Webhooks' service references (admission, CRD conversion) resolve over the
    // cluster's Services and Endpoints.
    let services = kas_server::service_resolver::ServiceResolver::start(&config, storage.clone());
    // Admission of custom resources asks the same authorizer chain as the front door
    // (a policy's `authorizer.check`), over this worker's own caches.
    let authorizer = kas_authz::Authorizer::for_worker(&config);
    authorizer.follow_reloads(&control);
    let admission = Arc::new(kas_admission::chain(
        &config.admission,
        &kas_admission::Sources {
            namespaces,
            service_accounts: None,
            priority_classes: None,
            limit_ranges: None,
            pods_and_nodes: None,
            served: Vec::new(),
            authorizer: Some(authorizer),
            resource_quotas: Some((
                RestStore::new(
                    kas_admission::RESOURCE_QUOTAS,
                    storage.clone(),
                    config.min_request_timeout,
                )
                .with_cache(),
                None,
            )),
            // ConfigMaps as ValidatingAdmissionPolicy params for custom resources (read
            // from storage; other built-in kinds are served by kube-api only).
            policy_stores: Some(vec![RestStore::new(
                kas_admission::CONFIG_MAPS,
                storage.clone(),
                config.min_request_timeout,
            )]),
            services: Some(services.clone()),
        },
    ));
    let crds = RestStore::new(crd::CRDS, storage.clone(), config.min_request_timeout)
        .with_cache()
        .with_admission(admission.clone());
    informers.done();
    let registry = Registry::new(storage, config.min_request_timeout, admission, services);
    tokio::spawn(controllers::run(
        crds.clone(),
        registry.clone(),
        control.clone(),
        synced,
    ));
    controllers_hook.done();
    let handler = move |ctx: RequestContext, req: Request<Body>| {
        let crds = crds.clone();
        let registry = registry.clone();
        async move { route(ctx, req, crds, registry).await }
    };
    kas_server::backend::run(control, hooks, Lifecycle::new(), handler).await
}

async fn route(
    ctx: RequestContext,
    req: Request<Body>,
    crds: RestStore,
    registry: Arc<Registry>,
) -> Response<Body> {
    if delegate::panic_failpoint(req.uri().path(), kas_proto::WorkerRole::Extensions) {
        panic!("failpoint: panic in a extensions handler");
    }
    let info = &ctx.info;
    if info.is_resource_request {
        if info.api_group == "apiextensions.k8s.io"
            && info.api_version == "v1"
            && info.resource == "customresourcedefinitions"
        {
            return crds.handle(ctx, req).await;
        }
        let Some(entry) = registry.get(&info.api_group, &info.api_version, &info.resource) else {
            return delegate::unhandled();
        };
        if entry.terminating && info.verb == "create" {
            return Status::new(
                Reason::MethodNotAllowed,
                "create not allowed while custom resource definition is terminating",
            )
            .into_response();
        }
        return entry.store.handle(ctx, req).await;
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return delegate::unhandled();
    }
    let path = req.uri().path().trim_end_matches('/');
    if path.starts_with("/openapi/") {
        return registry
            .openapi(path, req.uri().query(), req.headers())
            .unwrap_or_else(delegate::unhandled);
    }
    registry
        .discovery(path, req.headers())
        .unwrap_or_else(delegate::unhandled)
}
