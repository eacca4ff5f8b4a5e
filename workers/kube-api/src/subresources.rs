//! The POST-only endpoints: serviceaccounts/token, pods/binding and pods/eviction, the
//! core `bindings` resource, and the review APIs (tokenreviews, selfsubjectreviews and the
//! four access reviews), as hooks of the generic store. The logic lives in `auth` and
//! `eviction`; this module fetches what it needs and routes.

use std::sync::{Arc, OnceLock};
use std::time::SystemTime;

use kas_proto::{RequestContext, WorkerConfig};
use kas_server::rest::{HookFuture, Hooks, RestStore, WriteOptions};
use kas_server::status::{Reason, Status};
use serde_json::{json, Value};

use crate::auth::{self, Authorizer, Lookup, LookupKind, TokenIssuer, TokenRequestInput};

/// The hooks, with the stores they read (set once every store exists).
pub(crate) struct ApiHooks {
    issuer: Option<TokenIssuer>,
    /// `--enable-bootstrap-token-auth`.
    bootstrap_tokens: bool,
    authz: Authorizer,
    /// The client of kubelets (pods' log, exec, attach, portforward; nodes' proxy).
    kubelets: Option<crate::kubelet::Kubelets>,
    /// The client of pods, services and nodes' other ports (the proxy subresources).
    proxy: Option<kas_server::outbound::StreamClient>,
    stores: OnceLock<Vec<RestStore>>,
}

impl ApiHooks {
    pub(crate) fn new(config: &WorkerConfig, authz: Authorizer) -> Arc<ApiHooks> {
        let issuer = match TokenIssuer::from_config(config) {
            Ok(i) => Some(i),
            Err(e) => {
                tracing::warn!(error = %e, "service account tokens are disabled");
                None
            }
        };
        Arc::new(ApiHooks {
            issuer,
            bootstrap_tokens: config.enable_bootstrap_token_auth,
            // The access reviews ask the configured chain over the cluster's objects.
            authz,
            kubelets: match crate::kubelet::Kubelets::new(&config.kubelet) {
                Ok(k) => Some(k),
                Err(e) => {
                    tracing::warn!(error = %e, "the kubelet client cannot be made: pods' logs and exec are unavailable");
                    None
                }
            },
            proxy: match crate::proxy::client() {
                Ok(c) => Some(c),
                Err(e) => {
                    tracing::warn!(error = %e, "the proxy client cannot be made: the proxy subresources are unavailable");
                    None
                }
            },
            stores: OnceLock::new(),
        })
    }

    /// Gives the hooks the stores to read from.
    pub(crate) fn set_stores(&self, stores: Vec<RestStore>) {
        let _ = self.stores.set(stores);
    }

    fn store(&self, plural: &str) -> Result<&RestStore, Status> {
        self.store_of("", plural)
    }

    fn store_of(&self, group: &str, plural: &str) -> Result<&RestStore, Status> {
        self.stores
            .get()
            .and_then(|all| {
                all.iter()
                    .find(|s| s.resource().group == group && s.resource().plural == plural)
            })
            .ok_or_else(|| Status::internal(format!("no {plural} store")))
    }

    /// The object, or None when it does not exist.
    async fn fetch(&self, plural: &str, ns: &str, name: &str) -> Result<Option<Value>, Status> {
        match self.store(plural)?.read_object(ns, name).await {
            Ok(v) => Ok(Some(v)),
            Err(s) if s.reason == Reason::NotFound => Ok(None),
            Err(s) => Err(s),
        }
    }

    fn issuer(&self) -> Result<&TokenIssuer, Status> {
        self.issuer.as_ref().ok_or_else(|| {
            Status::new(
                Reason::NotFound,
                "the server could not find the requested resource: service account tokens are not configured",
            )
        })
    }

    async fn token(&self, ns: &str, sa: Value, body: Value) -> Result<Value, Status> {
        let issuer = self.issuer()?;
        let mut bound = None;
        let mut node = None;
        if let Some((kind, name)) = TokenIssuer::bound_object_ref(&body) {
            bound = match kind.as_str() {
                "Pod" => self.fetch("pods", ns, &name).await?,
                "Secret" => self.fetch("secrets", ns, &name).await?,
                "Node" => self.fetch("nodes", "", &name).await?,
                _ => None,
            };
            if kind == "Pod" {
                let node_name = bound
                    .as_ref()
                    .and_then(|p| p.pointer("/spec/nodeName"))
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                if !node_name.is_empty() {
                    node = self.fetch("nodes", "", &node_name).await?;
                }
            }
        }
        let out = issuer.token_request(&TokenRequestInput {
            namespace: ns,
            service_account: &sa,
            body: &body,
            bound_object: bound.as_ref(),
            pod_node: node.as_ref(),
            now: SystemTime::now(),
        })?;
        Ok(out.object)
    }

    async fn token_review(&self, body: Value) -> Result<Value, Status> {
        let issuer = self.issuer()?;
        let now = SystemTime::now();
        let reviewed = auth::token_review(
            issuer,
            self.bootstrap_tokens,
            &body,
            now,
            |l: Lookup| async move {
                let plural = match l.kind {
                    LookupKind::ServiceAccount => "serviceaccounts",
                    LookupKind::Pod => "pods",
                    LookupKind::Secret => "secrets",
                    LookupKind::Node => "nodes",
                };
                self.fetch(plural, &l.namespace, &l.name).await
            },
        )
        .await?;
        if let Some(secret) = &reviewed.legacy_secret {
            self.mark_legacy_token_used(secret, now).await;
        }
        Ok(reviewed.review)
    }

    /// Labels the Secret of a legacy token with the day it was last used (once a day), as
    /// upstream does so that unused tokens can be found and cleaned up.
    async fn mark_legacy_token_used(&self, secret: &Value, now: SystemTime) {
        let Some(day) = auth::last_used_update(secret, now) else {
            return;
        };
        let (Ok(store), Some(ns), Some(name)) = (
            self.store("secrets"),
            secret
                .pointer("/metadata/namespace")
                .and_then(Value::as_str),
            secret.pointer("/metadata/name").and_then(Value::as_str),
        ) else {
            return;
        };
        let mut labelled = secret.clone();
        labelled["metadata"]["labels"][auth::LAST_USED_LABEL] = json!(day);
        let opts = WriteOptions::server("kube-apiserver");
        let expected = kas_server::rest::revision_of(secret);
        if let Err(e) = store
            .update_object(ns, name, "", labelled, expected, &opts)
            .await
        {
            tracing::debug!(secret = %name, namespace = %ns, error = %e.message, "could not label a legacy token's last use");
        }
    }

    /// pods/binding and the `bindings` resource: assigns the pod to the target node.
    async fn bind(&self, ns: &str, pod: &str, body: &Value) -> Result<Value, Status> {
        crate::pod_binding::bind(self.store("pods")?, ns, pod, body).await
    }

    /// pods/eviction: as upstream, under the pod's PodDisruptionBudget.
    async fn evict(
        &self,
        ns: &str,
        pod: &str,
        body: &Value,
        opts: &WriteOptions,
    ) -> Result<Value, Status> {
        let eviction = crate::eviction::Eviction {
            pods: self.store("pods")?,
            budgets: self.store_of("policy", "poddisruptionbudgets")?,
            namespace: ns,
            name: pod,
        };
        eviction.run(body, opts).await
    }
}

impl ApiHooks {
    /// pods/log, exec, attach and portforward.
    async fn connect_pod(
        &self,
        sub: &str,
        pod: Value,
        req: crate::pod_connect::Connect,
    ) -> Result<http::Response<kas_server::body::Body>, Status> {
        let kubelets = self
            .kubelets
            .as_ref()
            .ok_or_else(|| Status::internal("the kubelet client is not configured"))?;
        let nodes = self.store("nodes")?.clone();
        let node = move |name: String| -> crate::pod_connect::NodeLookup<'static> {
            Box::pin(async move { nodes.read_object("", &name).await })
        };
        match sub {
            "log" => crate::pod_connect::log(kubelets, &pod, &req.uri, node).await,
            "exec" | "attach" | "portforward" => {
                crate::pod_connect::stream(kubelets, sub, &pod, req, node).await
            }
            _ => Err(Status::path_not_found()),
        }
    }
}

impl ApiHooks {
    /// pods/proxy, services/proxy and nodes/proxy: the request carried to where the
    /// named object leads.
    async fn connect_proxy(
        &self,
        plural: &str,
        ctx: &RequestContext,
        req: http::Request<kas_server::body::Body>,
    ) -> Result<http::Response<kas_server::body::Body>, Status> {
        let (ns, id) = (ctx.info.namespace.as_str(), ctx.info.name.as_str());
        let proxy = self
            .proxy
            .as_ref()
            .ok_or_else(|| Status::internal("the proxy client is not configured"))?;
        let (location, client, segments) = match plural {
            "pods" => (
                crate::proxy::pod(self.store("pods")?, ns, id).await?,
                proxy,
                7,
            ),
            "services" => {
                let stores = crate::proxy::ServiceStores {
                    services: self.store("services")?,
                    endpoints: self.store("endpoints")?,
                    pods: self.store("pods")?,
                };
                (crate::proxy::service(&stores, ns, id).await?, proxy, 7)
            }
            "nodes" => {
                let kubelets = self
                    .kubelets
                    .as_ref()
                    .ok_or_else(|| Status::internal("the kubelet client is not configured"))?;
                let location = crate::proxy::node(self.store("nodes")?, kubelets, id).await?;
                let client = if location.kubelet {
                    kubelets.client(false)
                } else {
                    proxy
                };
                (location, client, 5)
            }
            _ => return Err(Status::path_not_found()),
        };
        crate::proxy_forward::forward(client, &location, segments, req).await
    }
}

/// A resource's own hooks, its connect subresources answered by the API hooks (Services:
/// the IP and port allocator, and `services/proxy`).
pub(crate) struct ConnectVia {
    pub(crate) own: Arc<dyn Hooks>,
    pub(crate) connect: Arc<ApiHooks>,
}

impl Hooks for ConnectVia {
    fn before_create<'a>(
        &'a self,
        store: &'a RestStore,
        obj: &'a mut Value,
        opts: &'a WriteOptions,
    ) -> HookFuture<'a, Result<(), Status>> {
        self.own.before_create(store, obj, opts)
    }

    fn before_update<'a>(
        &'a self,
        store: &'a RestStore,
        obj: &'a mut Value,
        old: &'a Value,
        opts: &'a WriteOptions,
    ) -> HookFuture<'a, Result<(), Status>> {
        self.own.before_update(store, obj, old, opts)
    }

    fn after_delete<'a>(&'a self, store: &'a RestStore, obj: &'a Value) -> HookFuture<'a, ()> {
        self.own.after_delete(store, obj)
    }

    fn create_failed<'a>(&'a self, store: &'a RestStore, obj: &'a Value) -> HookFuture<'a, ()> {
        self.own.create_failed(store, obj)
    }

    fn prepare_create(&self, store: &RestStore, obj: &mut Value, opts: &WriteOptions) {
        self.own.prepare_create(store, obj, opts)
    }

    fn prepare_update(&self, store: &RestStore, sub: &str, obj: &mut Value, old: &Value) {
        self.own.prepare_update(store, sub, obj, old)
    }

    fn validate_subresource(
        &self,
        sub: &str,
        obj: &Value,
        old: &Value,
    ) -> Option<Vec<kas_server::status::StatusCause>> {
        self.own.validate_subresource(sub, obj, old)
    }

    fn computed<'a>(
        &'a self,
        store: &'a RestStore,
        name: Option<&'a str>,
    ) -> HookFuture<'a, Result<Vec<Value>, Status>> {
        self.own.computed(store, name)
    }

    fn subresource_create<'a>(
        &'a self,
        store: &'a RestStore,
        ctx: &'a RequestContext,
        sub: &'a str,
        parent: Value,
        body: Value,
        opts: &'a WriteOptions,
    ) -> HookFuture<'a, Result<Value, Status>> {
        self.own
            .subresource_create(store, ctx, sub, parent, body, opts)
    }

    fn connect<'a>(
        &'a self,
        store: &'a RestStore,
        ctx: &'a RequestContext,
        sub: &'a str,
        parent: Value,
        req: http::Request<kas_server::body::Body>,
    ) -> HookFuture<'a, Result<http::Response<kas_server::body::Body>, Status>> {
        self.connect.connect(store, ctx, sub, parent, req)
    }
}

impl Hooks for ApiHooks {
    fn validate_subresource(
        &self,
        sub: &str,
        obj: &Value,
        old: &Value,
    ) -> Option<Vec<kas_server::status::StatusCause>> {
        match sub {
            "status" | "approval" if obj["kind"] == "CertificateSigningRequest" => {
                Some(crate::validation::csr_subresource(sub, obj, old))
            }
            // A pod's status write is checked as upstream's status strategy checks it,
            // not against the spec rules (the spec stays as stored).
            "status" if obj["kind"] == "Pod" => Some(crate::validation::pod_status(obj, old)),
            "ephemeralcontainers" => Some(crate::validation::pod_ephemeral(obj, old)),
            "resize" => Some(crate::validation::pod_resize(obj, old)),
            _ => None,
        }
    }

    /// A CertificateSigningRequest's update keeps what upstream's csr strategies keep.
    fn prepare_update(&self, store: &RestStore, sub: &str, obj: &mut Value, old: &Value) {
        if store.resource().plural == "certificatesigningrequests" {
            let now = humantime::format_rfc3339_seconds(SystemTime::now()).to_string();
            crate::validation::csr_prepare_update(sub, obj, old, &now);
        }
    }

    /// A CertificateSigningRequest names who asked for it, whatever the body said, and
    /// starts unapproved (upstream's csrStrategy.PrepareForCreate).
    fn prepare_create(&self, store: &RestStore, obj: &mut Value, opts: &WriteOptions) {
        if store.resource().plural != "certificatesigningrequests" {
            return;
        }
        let Some(spec) = obj.get_mut("spec").and_then(Value::as_object_mut) else {
            return;
        };
        for k in ["username", "uid", "groups", "extra"] {
            spec.remove(k);
        }
        if let Some(user) = &opts.user {
            let info = auth::user_info_json(user);
            for (k, v) in info.as_object().into_iter().flatten() {
                if k != "username" || !user.name.is_empty() {
                    spec.insert(k.clone(), v.clone());
                }
            }
        }
        obj["status"] = json!({});
    }

    fn connect<'a>(
        &'a self,
        store: &'a RestStore,
        ctx: &'a RequestContext,
        sub: &'a str,
        parent: Value,
        req: http::Request<kas_server::body::Body>,
    ) -> HookFuture<'a, Result<http::Response<kas_server::body::Body>, Status>> {
        Box::pin(async move {
            let plural = store.resource().plural;
            if sub == "proxy" {
                return self.connect_proxy(plural, ctx, req).await;
            }
            match plural {
                "pods" => {
                    let mut req = req;
                    let upgrade = kas_server::upgrade::is_upgrade(req.headers())
                        .then(|| hyper::upgrade::on(&mut req));
                    let (parts, _) = req.into_parts();
                    let connect = crate::pod_connect::Connect {
                        method: parts.method,
                        uri: parts.uri,
                        headers: parts.headers,
                        upgrade,
                    };
                    self.connect_pod(sub, parent, connect).await
                }
                _ => Err(Status::path_not_found()),
            }
        })
    }

    fn subresource_create<'a>(
        &'a self,
        store: &'a RestStore,
        ctx: &'a RequestContext,
        sub: &'a str,
        parent: Value,
        body: Value,
        opts: &'a WriteOptions,
    ) -> HookFuture<'a, Result<Value, Status>> {
        Box::pin(async move {
            let ns = ctx.info.namespace.as_str();
            let now = SystemTime::now();
            match (store.resource().plural, sub) {
                ("serviceaccounts", "token") => self.token(ns, parent, body).await,
                ("pods", "binding") => self.bind(ns, &ctx.info.name, &body).await,
                ("pods", "eviction") => self.evict(ns, &ctx.info.name, &body, opts).await,
                ("bindings", "") => {
                    let pod = body
                        .pointer("/metadata/name")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_owned();
                    self.bind(ns, &pod, &body).await
                }
                ("tokenreviews", "") => self.token_review(body).await,
                ("selfsubjectreviews", "") => auth::self_subject_review(&ctx.user, &body, now),
                ("subjectaccessreviews", "") => {
                    auth::subject_access_review(&self.authz, &body).await
                }
                ("selfsubjectaccessreviews", "") => {
                    auth::self_subject_access_review(&self.authz, &ctx.user, &body).await
                }
                ("localsubjectaccessreviews", "") => {
                    auth::local_subject_access_review(&self.authz, ns, &body).await
                }
                ("selfsubjectrulesreviews", "") => {
                    auth::self_subject_rules_review(&self.authz, &ctx.user, &body)
                }
                _ => Err(Status::path_not_found()),
            }
        })
    }
}
