//! The apiregistration.k8s.io API, served by the aggregator itself as kube-aggregator
//! serves it: APIServices (cluster-scoped, with `status`) in storage through the generic
//! REST store, the group's discovery documents and OpenAPI, its place in the merged
//! `/apis`, and the autoregistration of a local APIService for every group-version the
//! back ends serve ([`autoregister`]).

mod admission;
mod autoregister;
mod priorities;
mod resource;
pub(crate) use resource::AUTOMANAGED;
mod validation;

use std::sync::{Arc, OnceLock};

use http::{Method, Request, Response};
use kas_proto::RequestContext;
use kas_server::body::{self, Body};
use kas_server::discovery::{self, GroupVersions};
use kas_server::encode::Prepared;
use kas_server::rest::{Resource, RestStore};
use kas_server::status::Status;
use serde_json::{json, Value};
use tokio::sync::Notify;

use crate::front::Front;
use resource::{APISERVICES, GROUP, VERSION};

const GROUP_VERSIONS: GroupVersions = GroupVersions {
    name: GROUP,
    versions: &[VERSION],
};

/// The group's state in the front door.
pub(crate) struct ApiServices {
    /// Set once storage is connected, right after the front door starts.
    store: OnceLock<RestStore>,
    /// Woken when the back ends' API changed (a CRD came or went).
    changed: Arc<Notify>,
    group: Prepared,
    version: Prepared,
    openapi: Arc<kas_openapi::Documents>,
}

impl Default for ApiServices {
    fn default() -> Self {
        let resources = json!({
            "kind": "APIResourceList",
            "apiVersion": "v1",
            "groupVersion": format!("{GROUP}/{VERSION}"),
            "resources": APISERVICES.discovery(),
        });
        ApiServices {
            store: OnceLock::new(),
            changed: Arc::new(Notify::new()),
            group: Prepared::new(discovery::group(&GROUP_VERSIONS)),
            version: Prepared::new(resources),
            openapi: Arc::new(openapi_documents()),
        }
    }
}

fn openapi_documents() -> kas_openapi::Documents {
    let r: &Resource = &APISERVICES;
    kas_openapi::Documents::new([kas_openapi::ApiResource {
        group: r.group,
        version: r.version,
        kind: r.kind,
        plural: r.plural,
        namespaced: r.namespaced,
        verbs: r.verbs.names(),
        subresources: r.subresources,
    }])
}

impl ApiServices {
    /// Tells autoregistration the back ends' routes changed.
    pub(crate) fn routes_changed(&self) {
        self.changed.notify_one();
    }

    /// The group's entry in the legacy `/apis` (an APIGroup without kind).
    pub(crate) fn legacy_group(&self) -> Value {
        let mut g = discovery::group(&GROUP_VERSIONS);
        if let Some(o) = g.as_object_mut() {
            o.remove("kind");
            o.remove("apiVersion");
        }
        g
    }

    /// The group's entry in aggregated discovery.
    pub(crate) fn aggregated_group(&self) -> Value {
        discovery::aggregated_group(
            GROUP,
            vec![(VERSION, vec![APISERVICES.aggregated_discovery()])],
        )
    }

    /// The `/openapi/v3` index entries of the group (`apis/apiregistration.k8s.io/v1`);
    /// the document is built off the runtime's threads the first time.
    pub(crate) async fn openapi_v3_paths(&self) -> serde_json::Map<String, Value> {
        let openapi = self.openapi.clone();
        let index = tokio::task::spawn_blocking(move || openapi.v3_index_json()).await;
        index
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .and_then(|v| v.get("paths").and_then(Value::as_object).cloned())
            .unwrap_or_default()
    }

    /// The group's Swagger 2.0 document (definitions and paths), for `/openapi/v2`;
    /// built off the runtime's threads the first time.
    pub(crate) async fn openapi_v2_blocking(&self) -> Option<Value> {
        let openapi = self.openapi.clone();
        let bytes = tokio::task::spawn_blocking(move || openapi.v2_json())
            .await
            .ok()?;
        serde_json::from_slice(&bytes).ok()
    }
}

/// Connects storage and starts autoregistration; requests for the group are answered
/// from then on.
pub(crate) async fn start(front: &Arc<Front>) -> Result<(), kas_server::Error> {
    let storage = kas_server::backend::connect_storage(&front.control, &front.hooks).await?;
    // kube-apiserver's readiness waits for the local APIServices (`autoregister-
    // completion`, listed after etcd); its post-start hook only starts the controllers
    // (here: once clients' writes can be admitted).
    front.hooks.set_check(
        autoregister::COMPLETION,
        Err("autoregistration not run yet".into()),
    );
    let hook = front.hooks.register("kube-apiserver-autoregistration");
    let store = RestStore::new(
        APISERVICES,
        storage.clone(),
        front.config.min_request_timeout,
    )
    .with_cache()
    .with_hooks(Arc::new(resource::Strategy));
    let changed = front.apiservices.changed.clone();
    tokio::spawn(autoregister::run(front.clone(), store.clone(), changed));
    let front = front.clone();
    tokio::spawn(async move {
        let chain = admission::chain(&front, &storage).await;
        let _ = front.apiservices.store.set(store.with_admission(chain));
        hook.done();
    });
    Ok(())
}

/// Whether the aggregator answers `path` itself: the group's API and its OpenAPI.
pub(crate) fn owns(path: &str) -> bool {
    let under = |prefix: &str| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    under("/apis/apiregistration.k8s.io") || under("/openapi/v3/apis/apiregistration.k8s.io")
}

/// Answers a request for a path [`owns`] says is the group's.
pub(crate) async fn serve(
    front: &Front,
    ctx: RequestContext,
    req: Request<Body>,
) -> Response<Body> {
    let api = &front.apiservices;
    let info = &ctx.info;
    if info.is_resource_request {
        if info.api_group != GROUP || info.api_version != VERSION {
            return not_found();
        }
        if info.resource != APISERVICES.plural {
            return Status::path_not_found().into_response();
        }
        return match api.store.get() {
            Some(store) => store.clone().handle(ctx, req).await,
            None => Status::service_unavailable("the APIService storage is not ready yet", 1)
                .into_response(),
        };
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return not_found();
    }
    let path = req.uri().path().trim_end_matches('/').to_owned();
    if path.starts_with("/openapi/") {
        let openapi = api.openapi.clone();
        let query = req.uri().query().map(str::to_owned);
        let headers = req.headers().clone();
        // Built on first use, which takes a moment: off the runtime's threads.
        let answer =
            tokio::task::spawn_blocking(move || openapi.respond(&path, query.as_deref(), &headers))
                .await
                .ok()
                .flatten();
        return answer.map_or_else(not_found, |r| r.map(body::full));
    }
    let doc = match path.strip_prefix("/apis/apiregistration.k8s.io") {
        Some("") => &api.group,
        Some("/v1") => &api.version,
        _ => return not_found(),
    };
    discovery::respond(req.headers(), doc, None)
}

/// Go's plain-text 404, as kube-apiserver answers paths no server handles.
fn not_found() -> Response<Body> {
    kas_server::status::go_http_error(http::StatusCode::NOT_FOUND, "404 page not found")
}

/// `groups` (APIGroups, or APIGroupDiscovery items when `aggregated`) in `/apis` order:
/// by group priority (the built-in table's, or a custom resource group's; this group
/// first), then by name.
pub(crate) fn sorted_groups(groups: Vec<Value>, aggregated: bool) -> Vec<Value> {
    let mut keyed: Vec<(String, i64, Value)> = groups
        .into_iter()
        .map(|g| {
            let name_at = if aggregated {
                "/metadata/name"
            } else {
                "/name"
            };
            let name = g
                .pointer(name_at)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            let versions: Vec<&str> = g
                .get("versions")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|v| v.get("version").and_then(Value::as_str))
                .collect();
            let fallback = if name == GROUP {
                priorities::APIREGISTRATION
            } else {
                priorities::CUSTOM
            };
            let priority = priorities::group_priority(&name, &versions, fallback);
            (name, priority, g)
        })
        .collect();
    keyed.sort_by(|a, b| priorities::compare_groups((&a.0, a.1), (&b.0, b.1)));
    keyed.into_iter().map(|(_, _, g)| g).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_of_the_group() {
        for path in [
            "/apis/apiregistration.k8s.io",
            "/apis/apiregistration.k8s.io/",
            "/apis/apiregistration.k8s.io/v1/apiservices/v1.apps/status",
            "/openapi/v3/apis/apiregistration.k8s.io/v1",
        ] {
            assert!(owns(path), "{path}");
        }
        for path in [
            "/apis",
            "/apis/apiregistration.k8s.io.example.com/v1",
            "/apis/apps/v1",
            "/openapi/v3",
        ] {
            assert!(!owns(path), "{path}");
        }
    }

    #[test]
    fn apis_order() {
        let legacy = |name: &str, versions: &[&str]| {
            let vs: Vec<Value> = versions.iter().map(|v| json!({"version": v})).collect();
            json!({"name": name, "versions": vs})
        };
        let groups = vec![
            legacy("apps", &["v1"]),
            legacy("zeta.example.com", &["v1"]),
            legacy("apiextensions.k8s.io", &["v1"]),
            legacy("admissionregistration.k8s.io", &["v1"]),
            legacy("alpha.example.com", &["v1"]),
        ];
        let names = |gs: &[Value], at: &str| -> Vec<String> {
            gs.iter()
                .filter_map(|g| g.pointer(at).and_then(Value::as_str).map(str::to_owned))
                .collect()
        };
        let sorted = sorted_groups(groups, false);
        assert_eq!(
            names(&sorted, "/name"),
            [
                "apps",
                "admissionregistration.k8s.io",
                "apiextensions.k8s.io",
                "alpha.example.com",
                "zeta.example.com"
            ]
        );
        let api = ApiServices::default();
        let aggregated = vec![
            discovery::aggregated_group("zeta.example.com", vec![("v1", vec![])]),
            api.aggregated_group(),
            discovery::aggregated_group("apps", vec![("v1", vec![])]),
            discovery::aggregated_group("alpha.example.com", vec![("v1", vec![])]),
        ];
        let sorted = sorted_groups(aggregated, true);
        assert_eq!(
            names(&sorted, "/metadata/name"),
            [
                "apiregistration.k8s.io",
                "apps",
                "alpha.example.com",
                "zeta.example.com"
            ]
        );
        assert_eq!(api.legacy_group()["name"], GROUP);
        assert!(api.legacy_group().get("kind").is_none());
    }
}
