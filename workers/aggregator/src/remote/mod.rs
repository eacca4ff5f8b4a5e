//! Remote APIServices: group-versions served by an extension API server behind a
//! Service, as kube-aggregator's proxy handlers know them. The APIService objects are
//! followed from storage; each remote one gets a target with its own TLS client (the
//! `caBundle` or `insecureSkipTLSVerify`, the `--proxy-client-*` certificate, the server
//! name `<service>.<namespace>.svc`), rebuilt only when its spec changes so pooled
//! connections survive status updates. Requests under a remote group-version are
//! forwarded by [`proxy`]; [`available`] keeps each one's `Available` condition.

pub(crate) mod available;
pub(crate) mod discovery;
pub(crate) mod groups;
pub(crate) mod proxy;
mod resolve;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use hyper_rustls::{FixedServerNameResolver, HttpsConnector};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use kas_proto::{ClientCertificate, WebhookClientConfig};
use kas_server::body::Body;
use kas_server::follow::{self, Follower, Synced};
use kas_server::storage::StorageConfig;
use rustls::pki_types::ServerName;
use serde_json::Value;
use tokio::sync::Notify;

/// Where APIServices are stored, relative to the storage prefix.
pub(crate) const APISERVICES: &str = "apiregistration.k8s.io/apiservices";

/// An HTTPS client of one remote APIService.
pub(crate) type HttpsClient = Client<HttpsConnector<HttpConnector>, Body>;

/// The clients of one remote APIService: HTTP/2 or HTTP/1.1 as the server offers, and
/// HTTP/1.1 alone for connection upgrades (which HTTP/2 cannot carry).
#[derive(Clone)]
pub(crate) struct RemoteClient {
    pub(crate) any: HttpsClient,
    pub(crate) http1: HttpsClient,
}

impl RemoteClient {
    /// Sends `req` as an ordinary request.
    pub(crate) fn request(
        &self,
        req: http::Request<Body>,
    ) -> hyper_util::client::legacy::ResponseFuture {
        self.any.request(req)
    }
}

/// `spec.service` of an APIService.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct ServiceRef {
    pub(crate) namespace: String,
    pub(crate) name: String,
    pub(crate) port: u16,
}

/// One remote group-version and how to reach it.
pub(crate) struct Target {
    /// The APIService's name (`v1alpha1.wardle.example.com`).
    pub(crate) name: String,
    pub(crate) group: String,
    pub(crate) version: String,
    pub(crate) service: ServiceRef,
    pub(crate) group_priority_minimum: i64,
    pub(crate) version_priority: i64,
    /// Whether the `Available` condition is True: requests are forwarded only then.
    pub(crate) available: bool,
    /// The client, or why it could not be built (reported to every request).
    pub(crate) client: Result<RemoteClient, String>,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("name", &self.name)
            .field("service", &self.service)
            .field("available", &self.available)
            .finish_non_exhaustive()
    }
}

/// What is known of the APIServices.
#[derive(Default)]
struct Known {
    /// Every APIService by name, as stored.
    objects: BTreeMap<String, Value>,
    /// The clients built so far, by APIService name, with the spec they were built for.
    clients: BTreeMap<String, (Value, Result<RemoteClient, String>)>,
}

/// The remote APIServices, kept current from storage.
pub(crate) struct Remotes {
    known: Mutex<Known>,
    /// `group/version` → its target, rebuilt on every change.
    targets: RwLock<BTreeMap<String, Arc<Target>>>,
    proxy_client: Option<ClientCertificate>,
    synced: Synced,
    /// Notified on every change of the APIServices (the availability controller waits).
    pub(crate) changed: Notify,
    /// The aggregated discovery of each remote `group/version` fetched so far.
    pub(crate) fetched: RwLock<BTreeMap<String, discovery::Fetched>>,
    /// Counts changes of the APIServices (see [`Remotes::generation`]).
    generation: AtomicU64,
}

impl std::fmt::Debug for Remotes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Remotes").finish_non_exhaustive()
    }
}

impl Remotes {
    /// Starts following the APIServices in the storage of `config`.
    pub(crate) fn start(
        config: StorageConfig,
        proxy_client: Option<ClientCertificate>,
    ) -> Arc<Remotes> {
        let (synced, tx) = Synced::new();
        let remotes = Arc::new(Remotes {
            known: Mutex::default(),
            targets: RwLock::default(),
            proxy_client,
            synced,
            changed: Notify::new(),
            fetched: RwLock::default(),
            generation: AtomicU64::new(0),
        });
        follow::start(&remotes, config, tx, Arc::default());
        remotes
    }

    /// Remotes over `objects` given by hand, following nothing (tests).
    #[cfg(test)]
    pub(crate) fn fixed(objects: Vec<Value>) -> Remotes {
        let (synced, _tx) = Synced::new();
        let remotes = Remotes {
            known: Mutex::default(),
            targets: RwLock::default(),
            proxy_client: None,
            synced,
            changed: Notify::new(),
            fetched: RwLock::default(),
            generation: AtomicU64::new(0),
        };
        let listed = objects
            .into_iter()
            .map(|o| (o["metadata"]["name"].as_str().unwrap_or("").to_owned(), o))
            .collect();
        remotes.reset(vec![listed]);
        remotes
    }

    /// Waits until the APIServices have been listed once.
    pub(crate) async fn synced(&self) {
        self.synced.wait().await;
    }

    /// The remote target serving `path`, if a remote APIService owns its group-version.
    pub(crate) fn target_for(&self, path: &str) -> Option<Arc<Target>> {
        let rest = path
            .strip_prefix("/apis/")
            .or_else(|| path.strip_prefix("/openapi/v3/apis/"))?;
        let mut segments = rest.split('/');
        let group = segments.next().filter(|g| !g.is_empty())?;
        let version = segments.next().filter(|v| !v.is_empty())?;
        let targets = self.targets.read().ok()?;
        if targets.is_empty() {
            // Every local request asks: no key is built when there is nothing remote.
            return None;
        }
        targets.get(&format!("{group}/{version}")).cloned()
    }

    /// Every remote target, by `group/version`.
    pub(crate) fn targets(&self) -> Vec<Arc<Target>> {
        self.targets
            .read()
            .map(|t| t.values().cloned().collect())
            .unwrap_or_default()
    }

    /// Rebuilds the targets from the objects (clients kept while their spec holds).
    fn rebuild(&self, known: &mut Known) {
        let mut targets = BTreeMap::new();
        let mut clients = BTreeMap::new();
        for (name, object) in &known.objects {
            let spec = object.get("spec").cloned().unwrap_or(Value::Null);
            let Some(service) = service_ref(&spec) else {
                continue;
            };
            let client = match known.clients.remove(name) {
                Some((built_for, client)) if built_for == spec => client,
                _ => self.client_for(&spec, &service),
            };
            let str_of = |k: &str| spec.get(k).and_then(Value::as_str).unwrap_or("");
            let int_of = |k: &str| spec.get(k).and_then(Value::as_i64).unwrap_or(0);
            let (group, version) = (str_of("group").to_owned(), str_of("version").to_owned());
            let target = Target {
                name: name.clone(),
                group: group.clone(),
                version: version.clone(),
                service,
                group_priority_minimum: int_of("groupPriorityMinimum"),
                version_priority: int_of("versionPriority"),
                available: is_available(object),
                client: client.clone(),
            };
            clients.insert(name.clone(), (spec, client));
            targets.insert(format!("{group}/{version}"), Arc::new(target));
        }
        known.clients = clients;
        if let Ok(mut t) = self.targets.write() {
            *t = targets;
        }
        self.generation.fetch_add(1, Ordering::Relaxed);
        self.changed.notify_waiters();
    }

    /// A client for the APIService `spec` (as kube-aggregator's `updateAPIService`).
    fn client_for(&self, spec: &Value, service: &ServiceRef) -> Result<RemoteClient, String> {
        let ca_pem = match spec.get("caBundle").and_then(Value::as_str) {
            Some(b64) if !b64.is_empty() => {
                use base64::Engine as _;
                let der = base64::engine::general_purpose::STANDARD
                    .decode(b64)
                    .map_err(|e| format!("caBundle: {e}"))?;
                let pem = String::from_utf8(der).ok().filter(|pem| {
                    use rustls::pki_types::pem::PemObject as _;
                    rustls::pki_types::CertificateDer::pem_slice_iter(pem.as_bytes())
                        .next()
                        .is_some_and(|c| c.is_ok())
                });
                // client-go's words for a CA bundle that holds no certificate.
                Some(pem.ok_or(
                    "unable to load root certificates: unable to parse bytes as PEM block",
                )?)
            }
            _ => None,
        };
        let server_name = format!("{}.{}.svc", service.name, service.namespace);
        let config = WebhookClientConfig {
            file: format!("APIService {server_name}"),
            server: String::new(),
            ca_pem,
            insecure_skip_tls_verify: spec
                .get("insecureSkipTLSVerify")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            tls_server_name: Some(server_name.clone()),
            client_cert_key_pem: self
                .proxy_client
                .as_ref()
                .map(|c| (c.cert_pem.clone(), c.key_pem.clone())),
            bearer_token: None,
        };
        let tls = kas_server::webhook::tls_config(&config)?;
        let name = ServerName::try_from(server_name).map_err(|e| e.to_string())?;
        let build = |http2: bool| {
            let mut http = HttpConnector::new();
            http.enforce_http(false);
            http.set_nodelay(true);
            http.set_connect_timeout(Some(std::time::Duration::from_secs(30)));
            let builder = hyper_rustls::HttpsConnectorBuilder::new()
                .with_tls_config(tls.clone())
                .https_only()
                .with_server_name_resolver(FixedServerNameResolver::new(name.clone()));
            let connector = if http2 {
                builder.enable_all_versions().wrap_connector(http)
            } else {
                builder.enable_http1().wrap_connector(http)
            };
            Client::builder(TokioExecutor::new())
                .pool_idle_timeout(std::time::Duration::from_secs(90))
                .build(connector)
        };
        Ok(RemoteClient {
            any: build(true),
            http1: build(false),
        })
    }
}

/// A GET of `url` as the aggregator itself asks a remote server (availability probes,
/// discovery and OpenAPI fetches): `system:kube-aggregator` in `system:masters`, so it is
/// always allowed, as upstream's.
pub(crate) fn aggregator_get(url: &str) -> Result<http::Request<Body>, String> {
    http::Request::get(url)
        .header("x-remote-user", "system:kube-aggregator")
        .header("x-remote-group", "system:masters")
        .body(kas_server::body::empty())
        .map_err(|e| e.to_string())
}

/// The innermost cause of a client error (what upstream's messages show).
pub(crate) fn innermost(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

/// `spec.service` when the APIService is remote (port defaulted to 443).
fn service_ref(spec: &Value) -> Option<ServiceRef> {
    let service = spec.get("service").filter(|s| s.is_object())?;
    let text = |k: &str| service.get(k).and_then(Value::as_str).map(str::to_owned);
    Some(ServiceRef {
        namespace: text("namespace")?,
        name: text("name")?,
        port: service
            .get("port")
            .and_then(Value::as_u64)
            .and_then(|p| u16::try_from(p).ok())
            .unwrap_or(443),
    })
}

/// Whether the APIService's `Available` condition is True.
pub(crate) fn is_available(object: &Value) -> bool {
    object
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Available" && c["status"] == "True")
}

impl Follower for Remotes {
    const WHAT: &'static str = "APIService";

    fn resources(&self) -> &'static [&'static str] {
        &[APISERVICES]
    }

    fn reset(&self, mut listed: Vec<Vec<(String, Value)>>) {
        let Ok(mut known) = self.known.lock() else {
            return;
        };
        known.objects = listed.pop().unwrap_or_default().into_iter().collect();
        self.rebuild(&mut known);
    }

    fn apply(&self, _resource: usize, key: &str, object: Option<Value>) {
        let Ok(mut known) = self.known.lock() else {
            return;
        };
        match object {
            Some(o) => known.objects.insert(key.to_owned(), o),
            None => known.objects.remove(key),
        };
        self.rebuild(&mut known);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn service_references() {
        let spec = json!({"service": {"namespace": "wardle", "name": "api"}});
        assert_eq!(
            service_ref(&spec),
            Some(ServiceRef {
                namespace: "wardle".into(),
                name: "api".into(),
                port: 443
            })
        );
        assert_eq!(service_ref(&json!({"service": null})), None);
        assert_eq!(service_ref(&json!({})), None);
    }

    #[test]
    fn availability_is_the_condition() {
        let up = json!({"status": {"conditions": [{"type": "Available", "status": "True"}]}});
        let down = json!({"status": {"conditions": [{"type": "Available", "status": "False"}]}});
        assert!(is_available(&up));
        assert!(!is_available(&down));
        assert!(!is_available(&json!({})));
    }
}
