//! The aggregator's shared state: configuration, lifecycle, the other workers' state as
//! the supervisor reports it, clients for their sockets, the routing table learnt from
//! their discovery, in-flight accounting, and the health checks built from all of it.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Instant;

use http::Request;
use http_body_util::BodyExt;
use kas_proto::{PeerState, PeerStatus, RequestContext, WorkerConfig, WorkerRole, CONTEXT_HEADER};
use kas_server::body;
use kas_server::control::Control;
use kas_server::delegate::{Traffic, WorkerClient};
use kas_server::health::{is_post_start_hook, CheckResult, LogCheck, PostStartHooks};
use kas_server::lifecycle::{Lifecycle, Phase};
use regex::Regex;
use serde_json::Value;
use tokio::sync::{watch, Notify, OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use crate::Error;

mod tasks;
use tasks::{follow_shutdown_phases, learn_routes, redial_replaced, report_health};

/// The back-end workers in delegation-chain order.
pub(crate) const CHAIN: [WorkerRole; 2] = [WorkerRole::KubeApi, WorkerRole::Extensions];

/// Counts requests that are not long-running, so shutdown can wait for them.
#[derive(Debug, Default)]
pub(crate) struct InFlight {
    count: AtomicUsize,
    zero: Notify,
}

/// Decrements [`InFlight`] when dropped.
pub(crate) struct InFlightGuard(Arc<InFlight>);

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.zero.notify_waiters();
        }
    }
}

impl InFlight {
    pub(crate) fn enter(self: &Arc<Self>) -> InFlightGuard {
        self.count.fetch_add(1, Ordering::AcqRel);
        InFlightGuard(self.clone())
    }

    pub(crate) async fn drained(&self) {
        loop {
            let notified = self.zero.notified();
            if self.count.load(Ordering::Acquire) == 0 {
                return;
            }
            notified.await;
        }
    }
}

/// The authorizer chain of `--authorization-mode`. With RBAC, its objects come from a
/// cache kept by watches, and readiness waits for the first read (`informer-sync`, as
/// kube-apiserver's) taken once the kube-api worker is ready: the bootstrap policy it
/// writes at start is then decided over from the first request `/readyz` lets through,
/// not a watch event later.
fn authorizer(control: &Control, hooks: &PostStartHooks) -> kas_authz::Authorizer {
    let config = control.config();
    let authorizer = kas_authz::Authorizer::for_worker(config);
    authorizer.follow_reloads(control);
    if kas_authz::Authorizer::uses_rbac(&config.authorization_modes) {
        hooks.set_check("informer-sync", Err("RBAC objects not read yet".into()));
        let (hooks, synced) = (hooks.clone(), authorizer.clone());
        let mut peers = control.peers();
        tokio::spawn(async move {
            synced.synced().await;
            let kube_api_ready = |p: &Vec<kas_proto::PeerStatus>| {
                p.iter().any(|s| {
                    s.role == kas_proto::WorkerRole::KubeApi
                        && s.state == kas_proto::PeerState::Ready
                })
            };
            if peers.wait_for(kube_api_ready).await.is_ok() {
                synced.relist_rbac().await;
            }
            hooks.set_check("informer-sync", Ok(()));
        });
    }
    authorizer
}

/// Counts the stored objects of every resource once a minute (sooner while no worker
/// answers), for the seats priority and fairness gives LISTs.
async fn count_objects(front: std::sync::Weak<Front>) {
    loop {
        let Some(f) = front.upgrade() else { return };
        let counts = crate::metrics::storage_object_counts(&f).await;
        let found = !counts.is_empty();
        if let Some(apf) = &f.apf {
            apf.counts.update(counts);
        }
        drop(f);
        let pause = if found { 60 } else { 2 };
        tokio::time::sleep(std::time::Duration::from_secs(pause)).await;
    }
}

/// The context of a request the aggregator makes itself (`path` may carry a query).
pub(crate) fn own_context(method: &http::Method, path: &str) -> RequestContext {
    let (path, query) = match path.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path, None),
    };
    RequestContext {
        user: kas_proto::UserInfo {
            name: "system:kube-aggregator".into(),
            groups: vec!["system:masters".into(), "system:authenticated".into()],
            ..Default::default()
        },
        audit_id: String::new(),
        info: kas_server::request_info::parse(method, path, query),
        audit_request_object: false,
    }
}

/// Writes a FlowSchema's status by server-side apply through the kube-api worker.
fn flow_schema_status_writer(
    front: std::sync::Weak<Front>,
) -> impl Fn(String, Value) -> std::pin::Pin<Box<dyn std::future::Future<Output = bool> + Send>> {
    move |name, body| {
        let front = front.clone();
        Box::pin(async move {
            let Some(front) = front.upgrade() else {
                return false;
            };
            let path = format!(
                "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas/{name}/status?fieldManager={}&force=true",
                crate::apf::status::FIELD_MANAGER
            );
            front
                .call_json(
                    WorkerRole::KubeApi,
                    http::Method::PATCH,
                    &path,
                    "application/json",
                    Some(("application/apply-patch+yaml", &body)),
                )
                .await
                .is_some()
        })
    }
}

/// Routing learnt from the back ends' `/apis`.
#[derive(Debug, Default)]
pub(crate) struct Routes {
    /// API group → owning worker.
    pub(crate) groups: BTreeMap<String, WorkerRole>,
    /// Each back end's groups as it last listed them, in chain order.
    pub(crate) lists: BTreeMap<WorkerRole, Vec<Value>>,
    /// Each back end's aggregated discovery (APIGroupDiscovery items) of `/apis`.
    pub(crate) aggregated: BTreeMap<WorkerRole, Vec<Value>>,
    /// Counts re-reads of the back ends: documents merged from them (OpenAPI) are
    /// rebuilt when it moves on.
    pub(crate) epoch: u64,
}

/// The seats of `--max-requests-inflight` or `--max-mutating-requests-inflight`.
#[derive(Debug)]
pub(crate) struct Seats {
    sem: Arc<Semaphore>,
    size: usize,
}

impl Seats {
    /// `n` seats; none (no limit) for 0.
    fn new(n: u32) -> Option<Seats> {
        (n > 0).then(|| Seats {
            sem: Arc::new(Semaphore::new(n as usize)),
            size: n as usize,
        })
    }

    /// A seat, held for as long as the permit lives; none when all are taken.
    pub(crate) fn take(&self) -> Option<OwnedSemaphorePermit> {
        self.sem.clone().try_acquire_owned().ok()
    }

    /// How many seats are taken now.
    pub(crate) fn in_use(&self) -> usize {
        self.size.saturating_sub(self.sem.available_permits())
    }
}

/// Everything the aggregator's handlers share.
pub(crate) struct Front {
    pub(crate) config: Arc<WorkerConfig>,
    pub(crate) control: Control,
    pub(crate) lifecycle: Lifecycle,
    pub(crate) peers: watch::Receiver<Vec<PeerStatus>>,
    pub(crate) clients: BTreeMap<WorkerRole, WorkerClient>,
    pub(crate) routes: RwLock<Routes>,
    /// The OpenAPI documents merged from the back ends, as of a routes epoch.
    pub(crate) merged: crate::merged::MergedDocs,
    /// `--max-requests-inflight` and `--max-mutating-requests-inflight`: a slot is held
    /// until the response is sent, as upstream's handler holds it while it writes.
    /// Only without priority and fairness.
    pub(crate) readonly_limit: Option<Seats>,
    pub(crate) mutating_limit: Option<Seats>,
    /// `--enable-priority-and-fairness`.
    pub(crate) apf: Option<Arc<crate::apf::Apf>>,
    pub(crate) in_flight: Arc<InFlight>,
    /// Cancelled at the end of the drain: long-running responses end cleanly.
    pub(crate) end_long_running: CancellationToken,
    /// Set after NotAcceptingNewRequest with `--shutdown-send-retry-after`.
    pub(crate) refuse_new: AtomicBool,
    pub(crate) cors: Vec<Regex>,
    /// The TLS configuration and the client certificate authenticator, reloaded when the
    /// certificate files change.
    pub(crate) certs: crate::front_certs::FrontCerts,
    pub(crate) hooks: PostStartHooks,
    log: LogCheck,
    started: Instant,
    /// Service account tokens verified lately (by TokenReview in the kube-api worker).
    pub(crate) tokens: crate::authn::TokenCache,
    /// `--authorization-mode`, RBAC over a watch-fed cache of the RBAC objects (replaced
    /// when `--authorization-config` changes).
    pub(crate) authorizer: kas_authz::Authorizer,
    /// `--token-auth-file`: token → user.
    pub(crate) static_tokens: std::collections::HashMap<String, kas_proto::UserInfo>,
    /// `--authentication-token-webhook-config-file`: asked about tokens nothing else takes.
    pub(crate) token_webhook: Option<crate::authn_webhook::TokenWebhook>,
    /// `--oidc-*` or `--authentication-config`: JWT issuers' tokens.
    pub(crate) jwt: crate::jwt_authn::JwtAuthenticators,
    /// The remote APIServices, followed from storage, and where requests to them go.
    pub(crate) remotes: Arc<crate::remote::Remotes>,
    /// Notified when a proxied request could not reach its remote server.
    pub(crate) remote_failures: Notify,
    /// Services and their endpoints, once storage is reachable.
    pub(crate) services: std::sync::OnceLock<Arc<kas_server::service_resolver::ServiceResolver>>,
    /// apiregistration.k8s.io: the APIService store and autoregistration.
    pub(crate) apiservices: crate::apiservices::ApiServices,
    /// Auditing, when a policy and a backend are configured.
    pub(crate) audit: Option<Arc<crate::audit::Auditor>>,
}

impl Front {
    pub(crate) fn new(control: Control) -> Result<Arc<Front>, Error> {
        let config = control.config().clone();
        let certs = crate::front_certs::FrontCerts::new(&config)?;
        let clients = CHAIN
            .into_iter()
            .map(|r| (r, WorkerClient::new(r, config.socket_path(r))))
            .collect();
        let cors = config
            .cors_allowed_origins
            .iter()
            .filter_map(|r| Regex::new(r).ok())
            .collect();
        let hooks = PostStartHooks::default();
        let discovery_hook = hooks.register("apiservice-discovery-controller");
        let authorizer = authorizer(&control, &hooks);
        let audit = match &config.audit {
            Some(cfg) => Some(Arc::new(
                crate::audit::Auditor::start(cfg).map_err(|e| Error::Audit(e.to_string()))?,
            )),
            None => None,
        };
        let apf = config.enable_priority_and_fairness.then(|| {
            // Upstream's hooks: the configuration is followed and the filter in place
            // from the start (the mandatory objects are in force until the rest is read).
            hooks
                .register("priority-and-fairness-config-consumer")
                .done();
            hooks.register("priority-and-fairness-filter").done();
            hooks.register("storage-object-count-tracker-hook").done();
            crate::apf::Apf::start(&config)
        });
        let max_in_flight = |n| if apf.is_some() { None } else { Seats::new(n) };
        let front = Arc::new(Front {
            readonly_limit: max_in_flight(config.max_requests_inflight),
            mutating_limit: max_in_flight(config.max_mutating_requests_inflight),
            apf,
            peers: control.peers(),
            lifecycle: Lifecycle::new(),
            clients,
            routes: RwLock::new(Routes::default()),
            merged: Default::default(),
            in_flight: Arc::new(InFlight::default()),
            end_long_running: CancellationToken::new(),
            refuse_new: AtomicBool::new(false),
            cors,
            certs,
            hooks,
            log: LogCheck::start(),
            started: Instant::now(),
            tokens: crate::authn::TokenCache::default(),
            authorizer,
            static_tokens: crate::authn::static_tokens(&config),
            token_webhook: config
                .token_webhook
                .as_ref()
                .map(|w| crate::authn_webhook::TokenWebhook::new(w, &config.api_audiences)),
            jwt: crate::jwt_authn::JwtAuthenticators::new(&config.jwt),
            remotes: crate::remote::Remotes::start(
                kas_server::storage::StorageConfig::for_worker(&config),
                config.proxy_client.clone(),
            ),
            remote_failures: Notify::new(),
            services: std::sync::OnceLock::new(),
            apiservices: Default::default(),
            audit,
            config,
            control,
        });
        if let Some(apf) = &front.apf {
            tokio::spawn(count_objects(Arc::downgrade(&front)));
            tokio::spawn(crate::apf::status::keep(
                Arc::downgrade(apf),
                apf.status_changed.clone(),
                flow_schema_status_writer(Arc::downgrade(&front)),
            ));
        }
        tokio::spawn(report_health(front.clone()));
        tokio::spawn(redial_replaced(front.clone()));
        tokio::spawn(follow_shutdown_phases(front.clone()));
        tokio::spawn(learn_routes(front.clone(), discovery_hook));
        tokio::spawn(crate::remote::available::run(front.clone()));
        tokio::spawn(crate::remote::discovery::run(front.clone()));
        Ok(front)
    }

    /// Requests holding a seat now, read-only and mutating: max-in-flight's seats, or the
    /// requests priority and fairness lets run.
    pub(crate) fn seats_in_use(&self) -> [usize; 2] {
        match &self.apf {
            Some(apf) => apf.executing(),
            None => [&self.readonly_limit, &self.mutating_limit]
                .map(|seats| seats.as_ref().map_or(0, Seats::in_use)),
        }
    }

    /// The supervisor's view of `role`.
    pub(crate) fn peer(&self, role: WorkerRole) -> Option<PeerStatus> {
        self.peers.borrow().iter().find(|p| p.role == role).cloned()
    }

    /// Whether `role` can take requests now.
    pub(crate) fn peer_serving(&self, role: WorkerRole) -> bool {
        self.peers
            .borrow()
            .iter()
            .any(|p| p.role == role && matches!(p.state, PeerState::Ready | PeerState::Stopping))
    }

    fn hook_results(&self, within_grace: bool) -> Vec<CheckResult> {
        let mut out: Vec<CheckResult> = Vec::new();
        let own = self.hooks.statuses();
        let peers = self.peers.borrow();
        let theirs = peers.iter().flat_map(|p| p.health.checks.iter());
        for c in own.iter().chain(theirs) {
            let is_hook = is_post_start_hook(&c.name);
            let ok = c.ok || (within_grace && is_hook);
            let reason = c.reason.clone().unwrap_or_else(|| "not finished".into());
            match out.iter_mut().find(|r| r.name == c.name) {
                // Several workers report the same check (etcd): it passes only if it
                // passes for all of them.
                Some(existing) => {
                    if existing.result.is_ok() && !ok {
                        existing.result = Err(reason);
                    }
                }
                None => out.push(CheckResult::from_bool(c.name.clone(), ok, reason)),
            }
        }
        // Plain checks (etcd) come before post-start hooks, as upstream lists them.
        out.sort_by_key(|r| is_post_start_hook(&r.name));
        out
    }

    /// The checks behind `/healthz` and `/livez`.
    pub(crate) fn live_checks(&self) -> Vec<CheckResult> {
        let grace = self.started.elapsed() < self.config.livez_grace_period;
        let mut checks = vec![CheckResult::ok("ping"), self.log.result()];
        checks.extend(self.hook_results(grace));
        checks
    }

    /// The checks behind `/readyz`: ping, log, etcd, one per worker, every post-start
    /// hook, shutdown.
    pub(crate) fn ready_checks(&self) -> Vec<CheckResult> {
        let mut checks = vec![CheckResult::ok("ping"), self.log.result()];
        let (hooks, plain): (Vec<_>, Vec<_>) = self
            .hook_results(false)
            .into_iter()
            .partition(|r| is_post_start_hook(&r.name));
        checks.extend(plain);
        for role in self.config.roles() {
            if role == WorkerRole::Aggregator {
                continue;
            }
            let state = self.peer(role).map(|p| p.state);
            checks.push(CheckResult::from_bool(
                role.check_name(),
                matches!(state, Some(PeerState::Ready | PeerState::Stopping)),
                format!("{role} worker is {state:?}"),
            ));
        }
        checks.extend(hooks);
        checks.push(CheckResult::from_bool(
            "shutdown",
            self.lifecycle.current() < Phase::ShutdownInitiated,
            "process is shutting down",
        ));
        checks
    }

    /// A request to a back end on behalf of the aggregator itself.
    pub(crate) async fn fetch_json(
        &self,
        role: WorkerRole,
        path: &str,
        accept: &str,
    ) -> Option<Value> {
        self.call_json(role, http::Method::GET, path, accept, None)
            .await
    }

    /// A GET or POST (with a JSON body) to a back end as the aggregator itself.
    pub(crate) async fn call_json(
        &self,
        role: WorkerRole,
        method: http::Method,
        path: &str,
        accept: &str,
        json_body: Option<(&str, &Value)>,
    ) -> Option<Value> {
        let client = self.clients.get(&role)?;
        let ctx = own_context(&method, path);
        let (content_type, body) = match json_body {
            Some((content_type, v)) => (content_type, body::full(v.to_string())),
            None => ("application/json", body::empty()),
        };
        let req = Request::builder()
            .method(method)
            .uri(format!("http://{}{path}", role.as_str()))
            .header(CONTEXT_HEADER, ctx.to_header_value().ok()?)
            .header(http::header::ACCEPT, accept)
            .header(http::header::CONTENT_TYPE, content_type)
            .body(body)
            .ok()?;
        let resp = client.send(Traffic::Short, req).await.ok()?;
        if !resp.status().is_success() {
            return None;
        }
        let bytes = resp.into_body().collect().await.ok()?.to_bytes();
        serde_json::from_slice(&bytes).ok()
    }
}
