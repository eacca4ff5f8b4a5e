//! The kube-api worker: kube-apiserver's built-in API groups, served by the generic REST
//! store from the resource table ([`resources`]), with legacy and aggregated discovery,
//! OpenAPI, the objects the server bootstraps and the controllers it runs itself.

#![forbid(unsafe_code)]

mod apf_bootstrap;
mod auth;
mod bootstrap;
mod bootstrap_policy;
mod columns;
mod component_status;
mod conversions;
mod defaults;
mod event_recorder;
mod eviction;
mod kubelet;
mod pod_binding;
mod pod_connect;
mod proxy;
mod proxy_forward;
mod proxy_rewrite;
mod rbac_reconcile;
pub mod resources;
mod role_aggregation;
mod sa_tokens;
mod service_repair;
mod services;
mod subresources;
mod validation;

#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing;

use std::collections::HashMap;
use std::sync::Arc;

use http::{Method, Request, Response};
use kas_proto::RequestContext;
use kas_server::body::Body;
use kas_server::control::Control;
use kas_server::delegate;
use kas_server::discovery::{self, GroupVersions};
use kas_server::encode::Prepared;
use kas_server::health::PostStartHooks;
use kas_server::lifecycle::Lifecycle;
use kas_server::rest::{Resource, RestStore};
use kas_server::status::Status;
use serde_json::{json, Value};

pub use resources::RESOURCES;

/// The stores of every resource served.
#[derive(Debug, Default)]
struct Stores {
    all: Vec<RestStore>,
}

impl Stores {
    fn get(&self, group: &str, version: &str, plural: &str) -> Option<&RestStore> {
        self.all.iter().find(|s| {
            let r = s.resource();
            r.plural == plural && r.group == group && r.version == version
        })
    }
}

/// Runs the kube-api worker until the supervisor stops it.
pub async fn run(control: Control) -> Result<(), kas_server::Error> {
    let config = control.config().clone();
    kas_server::rest::set_feature_gates(&config.feature_gates);
    kas_server::storage::set_decode_defaults(defaults::on_decode);
    let hooks = PostStartHooks::default();
    let storage = kas_server::backend::connect_storage(&control, &hooks).await?;
    // One compactor per cluster is enough; the kube-api worker runs it, as upstream's
    // kube-apiserver (not apiextensions) does.
    tokio::spawn(kas_server::storage::compactor(
        storage.clone(),
        config.etcd_compaction_interval,
    ));
    let mut stores = Stores::default();
    for r in RESOURCES {
        let store = RestStore::new(*r, storage.clone(), config.min_request_timeout);
        let store = if r.verbs.stored() {
            store.with_cache()
        } else {
            store
        };
        stores.all.push(store);
    }
    let mut kubernetes_ip = None;
    let ipaddresses = stores
        .get("networking.k8s.io", "v1", "ipaddresses")
        .cloned();
    let range = config
        .service_cluster_ip_ranges
        .first()
        .cloned()
        .unwrap_or_default();
    if let Some(alloc) = ipaddresses
        .and_then(|ips| services::Allocator::new(&range, config.service_node_port_range, ips))
    {
        kubernetes_ip = Some(alloc.first_ip());
        if let Some(services) = stores.get("", "v1", "services").cloned() {
            let hook = hooks.register("start-service-ip-repair-controllers");
            let events = stores.get("events.k8s.io", "v1", "events").cloned();
            service_repair::start(alloc.clone(), services, events, hook);
        }
        let alloc = Arc::new(alloc);
        for s in &mut stores.all {
            if s.resource().plural == "services" && s.resource().group.is_empty() {
                *s = s.clone().with_hooks(alloc.clone());
            }
        }
    }
    let authz = hooks_install(&mut stores.all, &control);
    // Webhooks' service references resolve over the cluster's Services and Endpoints.
    let services = kas_server::service_resolver::ServiceResolver::start(&config, storage.clone());
    // Upstream keeps `--allow-privileged` process-wide (its capabilities package).
    validation::allow_privileged(config.admission.allow_privileged);
    admission_install(&mut stores, &config.admission, authz, services);
    let stores = Arc::new(stores);
    bootstrap::start(
        &hooks,
        &config,
        bootstrap::Stores::new(stores.all.clone()),
        kubernetes_ip,
    );
    let address = format!("{}:{}", config.advertise_address, config.serving.port);
    let discovery = Arc::new(Discovery::new(&address));
    let issuer = match auth::IssuerDiscovery::new(&config) {
        Ok(d) => Some(Arc::new(d)),
        Err(e) => {
            tracing::info!(reason = %e, "service account issuer discovery is not served");
            None
        }
    };
    let openapi = Arc::new(openapi_documents());
    let handler = move |ctx: RequestContext, req: Request<Body>| {
        let stores = stores.clone();
        let discovery = discovery.clone();
        let issuer = issuer.clone();
        let openapi = openapi.clone();
        async move { route(ctx, req, stores, discovery, openapi, issuer).await }
    };
    kas_server::backend::run(control, hooks, Lifecycle::new(), handler).await
}

/// The discovery documents, built once.
struct Discovery {
    api_versions: Prepared,
    core: Prepared,
    groups: Prepared,
    per_group: HashMap<&'static str, Prepared>,
    per_version: HashMap<String, Prepared>,
    aggregated_api: Prepared,
    aggregated_apis: Prepared,
}

impl Discovery {
    fn new(address: &str) -> Discovery {
        let list = |group: &str, version: &str| -> Vec<Value> {
            RESOURCES
                .iter()
                .filter(|r| r.group == group && r.version == version)
                .flat_map(Resource::discovery)
                .collect()
        };
        let aggregated = |group: &str, version: &str| -> Vec<Value> {
            RESOURCES
                .iter()
                .filter(|r| r.group == group && r.version == version)
                .map(Resource::aggregated_discovery)
                .collect()
        };
        let gvs: Vec<GroupVersions> = resources::GROUPS
            .iter()
            .map(|(name, versions)| GroupVersions { name, versions })
            .collect();
        let mut per_group = HashMap::new();
        let mut per_version = HashMap::new();
        let mut agg_groups = Vec::new();
        for g in &gvs {
            per_group.insert(g.name, Prepared::new(discovery::group(g)));
            let mut versions = Vec::new();
            for v in g.versions {
                let gv = format!("{}/{v}", g.name);
                per_version.insert(
                    gv.clone(),
                    Prepared::new(json!({"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": list(g.name, v)})),
                );
                versions.push((*v, aggregated(g.name, v)));
            }
            agg_groups.push(discovery::aggregated_group(g.name, versions));
        }
        Discovery {
            api_versions: Prepared::new(discovery::api_versions(&["v1"], address)),
            core: Prepared::new(
                json!({"kind": "APIResourceList", "groupVersion": "v1", "resources": list("", "v1")}),
            ),
            groups: Prepared::new(discovery::group_list(&gvs)),
            per_group,
            per_version,
            aggregated_api: Prepared::new(discovery::aggregated_list(vec![
                discovery::aggregated_group("", vec![("v1", aggregated("", "v1"))]),
            ])),
            aggregated_apis: Prepared::new(discovery::aggregated_list(agg_groups)),
        }
    }

    /// Whether `group/version` is one of the built-in group-versions.
    fn serves(&self, group: &str, version: &str) -> bool {
        if group.is_empty() {
            return version == "v1";
        }
        self.per_version.contains_key(&format!("{group}/{version}"))
    }

    fn respond(&self, req: &Request<Body>) -> Option<Response<Body>> {
        let path = req.uri().path().trim_end_matches('/');
        let (plain, aggregated) = match path {
            "/api" => (&self.api_versions, Some(&self.aggregated_api)),
            "/api/v1" => (&self.core, None),
            "/apis" => (&self.groups, Some(&self.aggregated_apis)),
            _ => {
                let rest = path.strip_prefix("/apis/")?;
                let doc = match rest.split_once('/') {
                    None => self.per_group.get(rest),
                    Some(_) => self.per_version.get(rest),
                };
                (doc?, None)
            }
        };
        Some(discovery::respond(req.headers(), plain, aggregated))
    }
}

/// A number below `n` (0 when `n` is 0), for the choices upstream makes at random (an
/// endpoint to proxy to, where a dynamic IP or node port search starts).
pub(crate) fn random_below(n: u64) -> u64 {
    (uuid::Uuid::new_v4().as_u128() % u128::from(n.max(1))) as u64
}

/// The OpenAPI documents of the served resources, with patch markers from kas-schema.
/// Built lazily, on the first request for them.
fn openapi_documents() -> kas_openapi::Documents {
    let resources = RESOURCES.iter().map(|r| kas_openapi::ApiResource {
        group: r.group,
        version: r.version,
        kind: r.kind,
        plural: r.plural,
        namespaced: r.namespaced,
        verbs: r.verbs.names(),
        subresources: r.subresources,
    });
    kas_openapi::Documents::new(resources).with_schema_markers()
}

async fn route(
    ctx: RequestContext,
    req: Request<Body>,
    stores: Arc<Stores>,
    discovery: Arc<Discovery>,
    openapi: Arc<kas_openapi::Documents>,
    issuer: Option<Arc<auth::IssuerDiscovery>>,
) -> Response<Body> {
    if delegate::panic_failpoint(req.uri().path(), kas_proto::WorkerRole::KubeApi) {
        panic!("failpoint: panic in a kube-api handler");
    }
    if let Some(bytes) =
        delegate::allocate_failpoint(req.uri().path(), kas_proto::WorkerRole::KubeApi)
    {
        return delegate::allocate(bytes);
    }
    let info = &ctx.info;
    if info.is_resource_request {
        // An owned store: nothing borrowed from `stores` is held across the await.
        let store = stores
            .get(&info.api_group, &info.api_version, &info.resource)
            .cloned();
        return match store {
            Some(store) => store.handle(ctx, req).await,
            // Under a group-version this worker serves, an unknown resource is its own
            // 404 `Status` (kube-apiserver's go-restful web service of that version
            // answers it); elsewhere, the next server may know the path.
            None if discovery.serves(&info.api_group, &info.api_version) => {
                Status::path_not_found().into_response()
            }
            None => delegate::unhandled(),
        };
    }
    if let Some(resp) = issuer.and_then(|i| i.respond(req.method(), req.uri().path())) {
        return resp;
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return delegate::unhandled();
    }
    if req.uri().path().starts_with("/openapi/") {
        // Building the documents takes tens of milliseconds the first time: off the
        // runtime's thread.
        let path = req.uri().path().to_owned();
        let query = req.uri().query().map(str::to_owned);
        let headers = req.headers().clone();
        let answer =
            tokio::task::spawn_blocking(move || openapi.respond(&path, query.as_deref(), &headers))
                .await
                .ok()
                .flatten();
        return match answer {
            Some(resp) => resp.map(kas_server::body::full),
            None => delegate::unhandled(),
        };
    }
    discovery.respond(&req).unwrap_or_else(delegate::unhandled)
}

/// Puts every store's clients' writes through the admission chain of the flags.
fn admission_install(
    stores: &mut Stores,
    config: &kas_proto::AdmissionConfig,
    authz: auth::Authorizer,
    services: Arc<kas_server::service_resolver::ServiceResolver>,
) {
    let Some(namespaces) = stores.get("", "v1", "namespaces").cloned() else {
        return;
    };
    // The quota controller counts what quotas cover (upstream runs it in
    // kube-controller-manager); admission tells it about deletes.
    let (replenish, deleted) = tokio::sync::mpsc::unbounded_channel();
    let quotas = stores.get("", "v1", "resourcequotas").cloned();
    if let Some(quotas) = &quotas {
        let counted = kas_admission::resource_quota::controller::Counted {
            quotas: quotas.clone(),
            stores: stores.all.clone(),
        };
        tokio::spawn(counted.run(deleted));
    }
    let sources = kas_admission::Sources {
        namespaces,
        service_accounts: stores.get("", "v1", "serviceaccounts").cloned(),
        priority_classes: stores
            .get("scheduling.k8s.io", "v1", "priorityclasses")
            .cloned(),
        limit_ranges: stores.get("", "v1", "limitranges").cloned(),
        pods_and_nodes: stores
            .get("", "v1", "pods")
            .cloned()
            .zip(stores.get("", "v1", "nodes").cloned()),
        resource_quotas: quotas.map(|q| (q, Some(replenish))),
        served: stores.all.clone(),
        authorizer: Some(authz),
        policy_stores: Some(stores.all.clone()),
        services: Some(services),
    };
    let chain = Arc::new(kas_admission::chain(config, &sources));
    // Equivalent resources (for `matchPolicy: Equivalent`) share a key path.
    let resources: Vec<_> = stores.all.iter().map(|s| *s.resource()).collect();
    for s in &mut stores.all {
        *s = s
            .clone()
            .with_admission(chain.clone())
            .with_equivalents(&resources);
    }
}

/// Attaches the hooks of the review APIs, tokens and pod subresources, and RBAC's
/// escalation checks; both ask one authorizer chain.
fn hooks_install(stores: &mut [RestStore], control: &Control) -> auth::Authorizer {
    let config = control.config();
    let authz = auth::Authorizer::for_worker(config);
    authz.follow_reloads(control);
    let hooks = subresources::ApiHooks::new(config, authz.clone());
    let escalation = std::sync::Arc::new(auth::EscalationHooks::new(authz.clone()));
    for s in stores.iter_mut() {
        let r = s.resource();
        let wants = r.verbs == kas_server::rest::Verbs::CreateOnly
            || (r.group.is_empty()
                && matches!(r.plural, "serviceaccounts" | "pods" | "services" | "nodes"))
            || (r.group == "certificates.k8s.io" && r.plural == "certificatesigningrequests");
        if r.verbs == kas_server::rest::Verbs::ReadOnly {
            let computed = component_status::ComponentStatuses::new(s.storage().clone());
            *s = s.clone().with_hooks(std::sync::Arc::new(computed));
        } else if let (true, Some(own)) = (r.plural == "services", s.hooks().cloned()) {
            // The allocator's hooks, and the proxy subresource of the API hooks.
            let both = subresources::ConnectVia {
                own,
                connect: hooks.clone(),
            };
            *s = s.clone().with_hooks(std::sync::Arc::new(both));
        } else if wants {
            *s = s.clone().with_hooks(hooks.clone());
        } else if auth::escalation_guards(r.group, r.plural) {
            *s = s.clone().with_hooks(escalation.clone());
        }
    }
    hooks.set_stores(stores.to_vec());
    escalation.set_stores(
        stores
            .iter()
            .filter(|s| auth::escalation_guards(s.resource().group, s.resource().plural))
            .cloned()
            .collect(),
    );
    authz
}
