//! What kube-apiserver creates and runs itself, with no controller-manager beside it:
//! the system namespaces, the `default/kubernetes` Service with its Endpoints and
//! EndpointSlice, the default ServiceCIDR, the RBAC bootstrap policy (reconciled at each
//! start by [`crate::rbac_reconcile`]) and the system
//! PriorityClasses (each a post-start hook named as upstream's), the API Priority and
//! Fairness configuration ([`crate::apf_bootstrap`]), and four controllers:
//! the `default` ServiceAccount and the `kube-root-ca.crt` ConfigMap in every namespace
//! (upstream's service account and root CA publisher controllers), namespace deletion (contents
//! deleted, then the `kubernetes` finalizer removed, then the namespace gone), ClusterRole
//! aggregation ([`crate::role_aggregation`]) and legacy token Secrets
//! ([`crate::sa_tokens`]).

use std::net::IpAddr;
use std::time::Duration;

use kas_proto::WorkerConfig;
use kas_server::health::{HookHandle, PostStartHooks};
use kas_server::rest::{RestStore, WriteOptions};
use kas_server::status::{Reason, Status};
use serde_json::{json, Value};

/// The longest wait before retrying a bootstrap step that failed (storage not up yet).
const RETRY: Duration = Duration::from_millis(200);
/// How often the controllers look again with no event to wake them.
const RESYNC: Duration = Duration::from_secs(5);
/// The field manager of the server's own writes.
const MANAGER: &str = "kube-apiserver";

/// The stores the bootstrap and the controllers write through.
#[derive(Debug, Clone)]
pub(crate) struct Stores {
    all: Vec<RestStore>,
}

impl Stores {
    pub(crate) fn new(all: Vec<RestStore>) -> Stores {
        Stores { all }
    }

    fn get(&self, group: &str, plural: &str) -> Option<&RestStore> {
        self.all.iter().find(|s| {
            let r = s.resource();
            r.group == group
                && r.plural == plural
                && !(r.group == "autoscaling" && r.version == "v1")
        })
    }

    /// Every namespaced store whose objects live in etcd (one per storage path).
    fn namespaced(&self) -> impl Iterator<Item = &RestStore> {
        self.all.iter().filter(|s| {
            let r = s.resource();
            r.namespaced && r.verbs.stored() && r.conversion.is_none()
        })
    }
}

/// Creates `obj` unless it exists.
async fn ensure(store: &RestStore, ns: &str, obj: Value) -> Result<(), Status> {
    match store
        .create_object(ns, obj, &WriteOptions::server(MANAGER))
        .await
    {
        Ok(_) => Ok(()),
        Err(s) if s.reason == Reason::AlreadyExists => Ok(()),
        Err(s) => Err(s),
    }
}

/// The ConfigMap that tells extension API servers how this server authenticates clients
/// and front proxies (`kube-system/extension-apiserver-authentication`).
const AUTHN_INFO: &str = "extension-apiserver-authentication";

/// The data of [`AUTHN_INFO`]: the client CA and the `--requestheader-*` settings (lists
/// as JSON arrays, as upstream writes them).
fn authentication_info(config: &WorkerConfig) -> serde_json::Map<String, Value> {
    let mut data = serde_json::Map::new();
    data.insert("client-ca-file".into(), json!(config.serving.client_ca_pem));
    if let Some(rh) = &config.request_header {
        let list = |v: &[String]| json!(serde_json::to_string(v).unwrap_or_default());
        data.insert(
            "requestheader-client-ca-file".into(),
            json!(rh.client_ca_pem),
        );
        data.insert(
            "requestheader-allowed-names".into(),
            list(&rh.allowed_names),
        );
        data.insert(
            "requestheader-username-headers".into(),
            list(&rh.username_headers),
        );
        data.insert("requestheader-uid-headers".into(), list(&rh.uid_headers));
        data.insert(
            "requestheader-group-headers".into(),
            list(&rh.group_headers),
        );
        data.insert(
            "requestheader-extra-headers-prefix".into(),
            list(&rh.extra_headers_prefix),
        );
    }
    data
}

/// Creates the authentication info ConfigMap, or brings its data up to date.
async fn publish_authentication_info(
    stores: &Stores,
    data: serde_json::Map<String, Value>,
) -> Result<(), Status> {
    let Some(configmaps) = stores.get("", "configmaps") else {
        return Ok(());
    };
    let ns = "kube-system";
    let want = json!({"metadata": {"name": AUTHN_INFO, "namespace": ns}, "data": data});
    let opts = WriteOptions::server(MANAGER);
    match configmaps.create_object(ns, want.clone(), &opts).await {
        Err(s) if s.reason == Reason::AlreadyExists => {}
        other => return other.map(|_| ()),
    }
    let current = configmaps.read_object(ns, AUTHN_INFO).await?;
    if current.get("data") == want.get("data") {
        return Ok(());
    }
    let mut updated = current.clone();
    updated["data"] = want["data"].clone();
    let expected = kas_server::rest::revision_of(&current);
    configmaps
        .update_object(ns, AUTHN_INFO, "", updated, expected, &opts)
        .await
        .map(|_| ())
}

/// Runs `step` until it succeeds, then marks `hook` done.
fn spawn_step<F, Fut>(hook: HookHandle, what: &'static str, step: F)
where
    F: Fn() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = Result<(), Status>> + Send,
{
    tokio::spawn(async move {
        let mut retry = kas_server::retry::Retry::up_to(RETRY);
        loop {
            match step().await {
                Ok(()) => {
                    hook.done();
                    return;
                }
                Err(e) => {
                    tracing::debug!(step = what, error = %e.message, "bootstrap step failed; retrying");
                    retry.wait().await;
                }
            }
        }
    });
}

/// How often the `kubernetes` Service and its endpoints are reconciled (upstream's
/// default endpoint reconciler interval).
const KUBERNETES_SERVICE_INTERVAL: std::time::Duration = std::time::Duration::from_secs(10);

/// Registers the bootstrap hooks and starts the steps and controllers.
pub(crate) fn start(
    hooks: &PostStartHooks,
    config: &WorkerConfig,
    stores: Stores,
    kubernetes_ip: Option<IpAddr>,
) {
    let ns_hook = hooks.register("start-system-namespaces-controller");
    let bootstrap_hook = hooks.register("bootstrap-controller");
    let rbac_hook = hooks.register("rbac/bootstrap-roles");
    let pc_hook = hooks.register("scheduling/bootstrap-system-priority-classes");
    let authn_info_hook = hooks.register("start-cluster-authentication-info-controller");
    {
        let stores = stores.clone();
        let data = authentication_info(config);
        spawn_step(authn_info_hook, "authentication info", move || {
            let stores = stores.clone();
            let data = data.clone();
            async move { publish_authentication_info(&stores, data).await }
        });
    }
    {
        // The CAs in it follow the files when they change.
        let stores = stores.clone();
        let base = config.clone();
        let start = kas_server::certfiles::CertSnapshot::from_config(config);
        kas_server::certfiles::watch(config.cert_files.clone(), start, move |snap| {
            let mut changed = base.clone();
            changed.serving.client_ca_pem = snap.client_ca_pem.clone();
            if let (Some(rh), Some(pem)) =
                (&mut changed.request_header, &snap.request_header_ca_pem)
            {
                rh.client_ca_pem = pem.clone();
            }
            let data = authentication_info(&changed);
            let stores = stores.clone();
            tokio::spawn(async move {
                for _ in 0..50 {
                    match publish_authentication_info(&stores, data.clone()).await {
                        Ok(()) => return,
                        Err(_) => tokio::time::sleep(RETRY).await,
                    }
                }
            });
            Ok(())
        });
    }
    {
        let stores = stores.clone();
        spawn_step(ns_hook, "system namespaces", move || {
            let stores = stores.clone();
            async move {
                let Some(namespaces) = stores.get("", "namespaces") else {
                    return Ok(());
                };
                let writes = ["default", "kube-system", "kube-public", "kube-node-lease"]
                    .map(|name| ensure(namespaces, "", json!({"metadata": {"name": name}})));
                for r in futures_util::future::join_all(writes).await {
                    r?;
                }
                Ok(())
            }
        });
    }
    {
        let stores = stores.clone();
        let advertise = config.advertise_address;
        let port = config.serving.port;
        let range = config
            .service_cluster_ip_ranges
            .first()
            .cloned()
            .unwrap_or_default();
        let (again, again_range) = (stores.clone(), range.clone());
        spawn_step(bootstrap_hook, "kubernetes service", move || {
            let stores = stores.clone();
            let range = range.clone();
            async move {
                kubernetes_service(&stores, advertise, port, &range, kubernetes_ip, true).await
            }
        });
        // Upstream's kubernetes service controller: every endpoint-reconciler interval
        // the Service, its Endpoints and EndpointSlice come back if someone deleted them.
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(KUBERNETES_SERVICE_INTERVAL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            tick.tick().await;
            loop {
                tick.tick().await;
                let r =
                    kubernetes_service(&again, advertise, port, &again_range, kubernetes_ip, false)
                        .await;
                if let Err(e) = r {
                    tracing::debug!(error = %e.message, "reconciling the kubernetes service");
                }
            }
        });
    }
    {
        let stores = stores.clone();
        spawn_step(rbac_hook, "rbac bootstrap", move || {
            let stores = stores.clone();
            async move {
                let policy = crate::bootstrap_policy::cluster_roles()
                    .into_iter()
                    .chain(crate::bootstrap_policy::cluster_role_bindings())
                    .chain(crate::bootstrap_policy::roles())
                    .chain(crate::bootstrap_policy::role_bindings());
                // All at once: the store commits concurrent writes together.
                let writes = policy.filter_map(|obj| {
                    let plural = match obj.get("kind").and_then(Value::as_str) {
                        Some("ClusterRole") => "clusterroles",
                        Some("ClusterRoleBinding") => "clusterrolebindings",
                        Some("Role") => "roles",
                        Some("RoleBinding") => "rolebindings",
                        _ => return None,
                    };
                    let store = stores.get("rbac.authorization.k8s.io", plural)?.clone();
                    Some(async move { crate::rbac_reconcile::apply(&store, obj, MANAGER).await })
                });
                for r in futures_util::future::join_all(writes).await {
                    r?;
                }
                Ok(())
            }
        });
    }
    {
        let stores = stores.clone();
        spawn_step(pc_hook, "priority classes", move || {
            let stores = stores.clone();
            async move {
                if let Some(store) = stores.get("scheduling.k8s.io", "priorityclasses") {
                    for pc in crate::bootstrap_policy::priority_classes() {
                        ensure(store, "", pc).await?;
                    }
                }
                Ok(())
            }
        });
    }
    let apf_stores = (
        stores.get("flowcontrol.apiserver.k8s.io", "flowschemas"),
        stores.get(
            "flowcontrol.apiserver.k8s.io",
            "prioritylevelconfigurations",
        ),
    );
    if let (Some(flow_schemas), Some(levels)) = apf_stores {
        let hook = hooks.register(crate::apf_bootstrap::HOOK);
        crate::apf_bootstrap::start(hook, flow_schemas.clone(), levels.clone());
    }
    let token_stores = (stores.get("", "secrets"), stores.get("", "serviceaccounts"));
    if let (Some(secrets), Some(accounts)) = token_stores {
        if let Ok(issuer) = crate::auth::TokenIssuer::from_config(config) {
            let controller = crate::sa_tokens::TokensController {
                secrets: secrets.clone(),
                accounts: accounts.clone(),
                issuer,
                root_ca: config.serving.ca_bundle_pem.clone(),
            };
            tokio::spawn(controller.run());
        }
    }
    if let Some(cluster_roles) = stores.get("rbac.authorization.k8s.io", "clusterroles") {
        tokio::spawn(crate::role_aggregation::run(cluster_roles.clone()));
    }
    tokio::spawn(namespace_controller(
        stores,
        config.serving.ca_bundle_pem.clone(),
    ));
}

async fn kubernetes_service(
    stores: &Stores,
    advertise: IpAddr,
    port: u16,
    range: &str,
    kubernetes_ip: Option<IpAddr>,
    first: bool,
) -> Result<(), Status> {
    let (Some(services), Some(endpoints), Some(slices), Some(cidrs)) = (
        stores.get("", "services"),
        stores.get("", "endpoints"),
        stores.get("discovery.k8s.io", "endpointslices"),
        stores.get("networking.k8s.io", "servicecidrs"),
    ) else {
        return Ok(());
    };
    // The default namespace must exist first: made here too rather than waiting for the
    // system namespaces step (on a new store both run at once), with the ServiceCIDR.
    let namespaces = stores
        .get("", "namespaces")
        .ok_or_else(|| Status::internal("no namespaces store"))?;
    let cidr = async {
        if range.is_empty() {
            return Ok(());
        }
        let obj = json!({"metadata": {"name": "kubernetes"}, "spec": {"cidrs": [range]}});
        ensure(cidrs, "", obj).await
    };
    let default_ns = ensure(namespaces, "", json!({"metadata": {"name": "default"}}));
    let (cidr, default_ns) = futures_util::future::join(cidr, default_ns).await;
    cidr?;
    default_ns?;
    let mut svc = json!({
        "metadata": {"name": "kubernetes", "namespace": "default",
            "labels": {"component": "apiserver", "provider": "kubernetes"}},
        "spec": {
            "type": "ClusterIP",
            "sessionAffinity": "None",
            "ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": port}],
        },
    });
    if let Some(ip) = kubernetes_ip {
        svc["spec"]["clusterIP"] = json!(ip.to_string());
    }
    ensure(services, "default", svc).await?;
    let family = if advertise.is_ipv4() { "IPv4" } else { "IPv6" };
    // Endpoints refuse a loopback address (a server bound to 127.0.0.1): as upstream's
    // reconciler, report it and go on; the Service is what the hook waits for.
    let endpoints_result = ensure(
        endpoints,
        "default",
        json!({
            "metadata": {"name": "kubernetes", "namespace": "default",
                "labels": {"endpointslice.kubernetes.io/skip-mirror": "true"}},
            "subsets": [{
                "addresses": [{"ip": advertise.to_string()}],
                "ports": [{"name": "https", "port": port, "protocol": "TCP"}],
            }],
        }),
    )
    .await;
    let slice_result = ensure(
        slices,
        "default",
        json!({
            "metadata": {"name": "kubernetes", "namespace": "default",
                "labels": {"kubernetes.io/service-name": "kubernetes"}},
            "addressType": family,
            "endpoints": [{"addresses": [advertise.to_string()], "conditions": {"ready": true}}],
            "ports": [{"name": "https", "port": port, "protocol": "TCP"}],
        }),
    )
    .await;
    for r in [endpoints_result, slice_result] {
        match r {
            Err(e) if e.reason == Reason::Invalid && first => {
                tracing::warn!(error = %e.message, "the kubernetes service's endpoints cannot name this address");
            }
            Err(e) if e.reason == Reason::Invalid => {}
            other => other?,
        }
    }
    Ok(())
}

/// The ConfigMap every namespace gets with the CA bundle that verifies this server
/// (upstream's root CA publisher, in kube-controller-manager).
const ROOT_CA: &str = "kube-root-ca.crt";
const ROOT_CA_DESCRIPTION: &str = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

/// Makes `ns/kube-root-ca.crt` hold `ca`: created when missing, updated when it differs.
async fn publish_root_ca(configmaps: &RestStore, ns: &str, ca: &str) -> Result<(), Status> {
    let wanted = json!({"ca.crt": ca});
    let cm = json!({
        "metadata": {"name": ROOT_CA, "namespace": ns,
            "annotations": {"kubernetes.io/description": ROOT_CA_DESCRIPTION}},
        "data": wanted,
    });
    if let Some(cached) = configmaps.read_cached(ns, ROOT_CA).await? {
        if cached.get("data") == Some(&wanted) {
            return Ok(());
        }
    }
    let opts = WriteOptions::server("kube-controller-manager");
    match configmaps.create_object(ns, cm, &opts).await {
        Err(s) if s.reason == Reason::AlreadyExists => {}
        other => return other.map(|_| ()),
    }
    let mut current = configmaps.read_object(ns, ROOT_CA).await?;
    if current.get("data") == Some(&wanted) {
        return Ok(());
    }
    current["data"] = wanted;
    configmaps
        .update_object(ns, ROOT_CA, "", current, None, &opts)
        .await
        .map(|_| ())
}

/// Keeps a `default` ServiceAccount and the `kube-root-ca.crt` ConfigMap (holding
/// `root_ca`) in every active namespace, and finishes the deletion of namespaces marked
/// for it. Woken by every namespace change, and every few seconds.
async fn namespace_controller(stores: Stores, root_ca: String) {
    let Some(namespaces) = stores.get("", "namespaces").cloned() else {
        return;
    };
    let Some(accounts) = stores.get("", "serviceaccounts").cloned() else {
        return;
    };
    let configmaps = stores.get("", "configmaps").cloned();
    let prefix = namespaces.storage().list_prefix("namespaces", None);
    loop {
        // Watch first, so a change between the list and the watch is not missed.
        let watch = match namespaces.storage().current_revision().await {
            Ok(rev) => namespaces.storage().watch(&prefix, rev).await,
            Err(e) => Err(e),
        };
        match namespaces.list_objects("").await {
            Ok((all, _)) => {
                for ns in all {
                    let name = ns
                        .pointer("/metadata/name")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned();
                    if ns.pointer("/metadata/deletionTimestamp").is_some() {
                        let stores = stores.clone();
                        let namespaces = namespaces.clone();
                        tokio::spawn(async move {
                            if let Err(e) = finish_deletion(&stores, &namespaces, &name).await {
                                tracing::debug!(namespace = %name, error = %e.message, "namespace deletion not finished yet");
                            }
                        });
                    } else {
                        let has_default =
                            matches!(accounts.read_cached(&name, "default").await, Ok(Some(_)));
                        let made = match has_default {
                            true => Ok(()),
                            false => {
                                ensure(
                                    &accounts,
                                    &name,
                                    json!({"metadata": {"name": "default", "namespace": name}}),
                                )
                                .await
                            }
                        };
                        if let Err(e) = made {
                            if e.reason != Reason::Forbidden {
                                tracing::debug!(namespace = %name, error = %e.message, "could not create the default service account");
                            }
                        }
                        if let Some(configmaps) = &configmaps {
                            if let Err(e) = publish_root_ca(configmaps, &name, &root_ca).await {
                                if e.reason != Reason::Forbidden {
                                    tracing::debug!(namespace = %name, error = %e.message, "could not publish the root CA");
                                }
                            }
                        }
                    }
                }
            }
            Err(e) => tracing::debug!(error = %e.message, "listing namespaces failed"),
        }
        match watch {
            Ok(mut w) => {
                let next = tokio::time::timeout(RESYNC, w.next()).await;
                if matches!(next, Ok(Err(_))) {
                    tokio::time::sleep(RETRY).await;
                }
            }
            Err(_) => tokio::time::sleep(RETRY).await,
        }
    }
}

/// Deletes everything in namespace `name`, then removes its `kubernetes` finalizer.
async fn finish_deletion(
    stores: &Stores,
    namespaces: &RestStore,
    name: &str,
) -> Result<(), Status> {
    let opts = WriteOptions::server(MANAGER);
    let mut remaining = 0;
    for store in stores.namespaced() {
        let (items, _) = store.list_objects(name).await?;
        for item in items {
            remaining += 1;
            let obj_name = item
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("");
            match store.delete_object(name, obj_name, None, &opts).await {
                Ok(_) => {}
                Err(s) if s.reason == Reason::NotFound => {}
                Err(s) => return Err(s),
            }
        }
    }
    if remaining > 0 {
        // Look again: objects held by finalizers are still there.
        for store in stores.namespaced() {
            if !store.list_objects(name).await?.0.is_empty() {
                return Err(Status::new(
                    Reason::Conflict,
                    format!("namespace {name} still has content"),
                ));
            }
        }
    }
    let ns = namespaces.read_object("", name).await?;
    let finalizers: Vec<Value> = ns
        .pointer("/spec/finalizers")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|f| f.as_str() != Some("kubernetes"))
        .collect();
    let mut update = ns.clone();
    update["spec"]["finalizers"] = json!(finalizers);
    namespaces
        .update_object("", name, "finalize", update, None, &opts)
        .await?;
    Ok(())
}
