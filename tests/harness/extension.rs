//! A small extension API server for the aggregation tests, like upstream's sample-apiserver
//! "wardle": HTTPS on 127.0.0.1 with its own CA, request-header authentication as a
//! k8s.io/apiserver server does it (a client certificate from the front-proxy CA with an
//! allowed CN vouches for the `X-Remote-*` headers), group `wardle.example.com/v1alpha1`
//! with `Flunder` (namespaced) and `Fischer` (cluster-scoped) kept in memory, discovery
//! and OpenAPI. Tests can stop it, restart it on the same port, and make it hang, answer
//! garbage or answer slowly; it keeps who asked what.

pub mod api;
pub mod auth;
pub mod client;
pub mod fields;
pub mod modes;
pub mod pki;
pub mod reply;
pub mod rest;
pub mod store;
pub mod table;
pub mod upgrade;
pub mod watch;

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use bytes::Bytes;
use http::{HeaderMap, Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Channel, Either, Full, Limited};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::server::danger::ClientCertVerifier;
use serde_json::Value;
use tokio::task::JoinSet;

use crate::harness::READY_TIMEOUT;
use auth::{identity_from, judge_peer, verifier_for, AnyClientCert, Peer};
use reply::{bad_request, method_not_allowed, not_found_path, parse_query, respond, status, Call};

// Re-exported for tests; a test binary that uses none of them must not warn.
#[allow(unused_imports)]
pub use client::{ExtClient, ExtConn, Upgrade, WatchStream};
#[allow(unused_imports)]
pub use modes::Mode;
#[allow(unused_imports)]
pub use pki::{apiservice_yaml, Ca, FrontProxyPki, Reach, Registration};

/// The group and version the server serves.
pub const GROUP: &str = "wardle.example.com";
pub const VERSION: &str = "v1alpha1";
/// `group/version`.
pub const GROUP_VERSION: &str = "wardle.example.com/v1alpha1";
/// The Service the default [`Registration`] names; the serving certificate carries
/// `<service>.<namespace>.svc`, the name the aggregator verifies (as kube-aggregator does).
pub const SERVICE_NAMESPACE: &str = "wardle";
pub const SERVICE_NAME: &str = "api";

/// Requests larger than this are refused (413), as a real server bounds what it reads.
const MAX_BODY: usize = 3 << 20;

/// A local address other hosts' rules accept as an endpoint (not loopback, link-local or
/// unspecified): the one the kernel would send from towards a documentation address.
/// Nothing is sent. `None` on a machine with loopback only.
pub fn routable_ip() -> Option<IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    let link_local = match ip {
        IpAddr::V4(v4) => v4.is_link_local(),
        IpAddr::V6(_) => true,
    };
    (!ip.is_loopback() && !ip.is_unspecified() && !link_local).then_some(ip)
}

/// One request as the server saw it.
#[derive(Clone, Debug)]
pub struct Seen {
    pub method: Method,
    /// Path and query, as sent.
    pub path: String,
    /// The user from `X-Remote-User`; `None` when the request was not authenticated.
    pub user: Option<String>,
    pub uid: Option<String>,
    pub groups: Vec<String>,
    /// From `X-Remote-Extra-<key>`: keys lower-cased and percent-decoded.
    pub extra: BTreeMap<String, Vec<String>>,
    /// The CN of the client certificate, when one was presented (verified or not).
    pub client_cn: Option<String>,
    pub version: http::Version,
    pub headers: HeaderMap,
    /// The request body, once read (empty until then, and for requests refused before).
    pub body: Bytes,
    /// The request's number, from 0 at start.
    pub seq: u64,
}

type Body = Either<Full<Bytes>, Channel<Bytes>>;
pub(crate) type Resp = Response<Body>;

/// State that lives across restarts: the objects, the mode, what was seen.
pub(crate) struct Shared {
    mode: Mutex<Mode>,
    seen: Mutex<Vec<Seen>>,
    next_seq: std::sync::atomic::AtomicU64,
    /// Off for benchmarks: nothing is kept per request.
    recording: std::sync::atomic::AtomicBool,
    /// Off: `/apis` answers the legacy APIGroupList whatever is asked, as a server
    /// without aggregated discovery does.
    aggregated_discovery: std::sync::atomic::AtomicBool,
    store: store::Store,
    verifier: Arc<dyn ClientCertVerifier>,
    allowed_names: Vec<String>,
    direct_user: Option<String>,
    /// Bumped at every stop: hanging handlers and watch feeders end with the server.
    generation: tokio::sync::watch::Sender<u64>,
    started: Instant,
}

/// Builds an [`ExtensionServer`].
pub struct Builder {
    front_proxy_ca: String,
    allowed_names: Vec<String>,
    direct_user: Option<String>,
    dns_names: Vec<String>,
    port: u16,
    host: IpAddr,
}

impl Builder {
    /// DNS names for the serving certificate besides 127.0.0.1 and localhost (default:
    /// `api.wardle.svc`).
    pub fn dns_names(mut self, names: &[&str]) -> Self {
        self.dns_names = names.iter().map(|n| n.to_string()).collect();
        self
    }

    /// CNs the proxy's client certificate may carry (default `front-proxy-client`; empty:
    /// any certificate from the CA, as `--requestheader-allowed-names` empty means).
    pub fn allowed_names(mut self, names: &[&str]) -> Self {
        self.allowed_names = names.iter().map(|n| n.to_string()).collect();
        self
    }

    /// Take a request from the front proxy's certificate that names no user as made by
    /// `user` (in `system:authenticated`), so kubectl can be pointed straight at the
    /// server with that certificate. Not upstream's behaviour (it refuses such requests):
    /// only for checking what kubectl makes of this server without an aggregator.
    pub fn direct_user(mut self, user: &str) -> Self {
        self.direct_user = Some(user.to_owned());
        self
    }

    /// Listen on this address instead of 127.0.0.1, e.g. [`routable_ip`]: Endpoints may
    /// not name a loopback address, so a test that routes through Endpoints needs one.
    /// The serving certificate names it too.
    pub fn host(mut self, ip: IpAddr) -> Self {
        self.host = ip;
        self
    }

    /// Listen on this port (0: any free one).
    pub fn port(mut self, port: u16) -> Self {
        self.port = port;
        self
    }

    pub async fn start(self) -> ExtensionServer {
        let ca = Ca::new("wardle-ca");
        let mut sans = vec!["127.0.0.1".to_owned(), "localhost".to_owned()];
        if !self.host.is_loopback() {
            sans.push(self.host.to_string());
        }
        sans.extend(self.dns_names);
        let (cert, key) = ca.serving_der(SERVICE_NAME, &sans);
        let mut tls = rustls::ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .expect("versions")
            .with_client_cert_verifier(Arc::new(AnyClientCert(verifier_for(&self.front_proxy_ca))))
            .with_single_cert(vec![cert], key)
            .expect("tls");
        tls.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        let shared = Arc::new(Shared {
            mode: Mutex::new(Mode::Normal),
            seen: Mutex::default(),
            next_seq: Default::default(),
            recording: std::sync::atomic::AtomicBool::new(true),
            aggregated_discovery: std::sync::atomic::AtomicBool::new(true),
            store: store::Store::default(),
            verifier: verifier_for(&self.front_proxy_ca),
            allowed_names: self.allowed_names,
            direct_user: self.direct_user,
            generation: tokio::sync::watch::channel(0).0,
            started: Instant::now(),
        });
        let server = ExtensionServer {
            host: self.host,
            port: Mutex::new(self.port),
            ca_pem: ca.pem().to_owned(),
            acceptor: tokio_rustls::TlsAcceptor::from(Arc::new(tls)),
            shared,
            tasks: Arc::default(),
        };
        server.listen().await;
        server
    }
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The running extension server; it stops when dropped.
pub struct ExtensionServer {
    host: IpAddr,
    port: Mutex<u16>,
    ca_pem: String,
    acceptor: tokio_rustls::TlsAcceptor,
    shared: Arc<Shared>,
    /// The accept loop and every connection.
    tasks: Arc<Mutex<JoinSet<()>>>,
}

impl ExtensionServer {
    /// A server trusting `pki`'s front-proxy CA, allowing CN `front-proxy-client`.
    pub fn builder(pki: &FrontProxyPki) -> Builder {
        Builder {
            front_proxy_ca: pki.ca_pem().to_owned(),
            allowed_names: vec![pki::CLIENT_CN.to_owned()],
            direct_user: None,
            dns_names: vec![format!("{SERVICE_NAME}.{SERVICE_NAMESPACE}.svc")],
            port: 0,
            host: IpAddr::from([127, 0, 0, 1]),
        }
    }

    /// [`ExtensionServer::builder`] with its defaults, on a free port.
    pub async fn start(pki: &FrontProxyPki) -> ExtensionServer {
        ExtensionServer::builder(pki).start().await
    }

    /// [`ExtensionServer::builder`] with its defaults, on `port`.
    pub async fn start_on(pki: &FrontProxyPki, port: u16) -> ExtensionServer {
        ExtensionServer::builder(pki).port(port).start().await
    }

    pub fn port(&self) -> u16 {
        *self.port.lock().expect("port")
    }

    pub fn addr(&self) -> SocketAddr {
        SocketAddr::new(self.host, self.port())
    }

    /// `https://<host>:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("https://{}{path}", self.addr())
    }

    /// The CA that signed the serving certificate, PEM.
    pub fn ca_pem(&self) -> &str {
        &self.ca_pem
    }

    /// The CA as an APIService `caBundle` (base64 of the PEM).
    pub fn ca_bundle(&self) -> String {
        base64::engine::general_purpose::STANDARD.encode(&self.ca_pem)
    }

    pub fn set_mode(&self, mode: Mode) {
        *self.shared.mode.lock().expect("mode") = mode;
    }

    pub fn mode(&self) -> Mode {
        *self.shared.mode.lock().expect("mode")
    }

    pub fn hang(&self) {
        self.set_mode(Mode::Hang);
    }

    pub fn garbage(&self) {
        self.set_mode(Mode::Garbage);
    }

    pub fn slow(&self, delay: Duration) {
        self.set_mode(Mode::Slow(delay));
    }

    pub fn normal(&self) {
        self.set_mode(Mode::Normal);
    }

    /// Every request received, in order.
    pub fn seen(&self) -> Vec<Seen> {
        self.shared.seen.lock().expect("seen").clone()
    }

    /// The requests whose path (query excluded) is `path`.
    pub fn seen_at(&self, path: &str) -> Vec<Seen> {
        self.seen()
            .into_iter()
            .filter(|s| s.path.split('?').next() == Some(path))
            .collect()
    }

    /// Polls until a request `pred` holds for arrives (as the body is read, for bodies);
    /// panics after [`READY_TIMEOUT`].
    pub async fn wait_seen(&self, pred: impl Fn(&Seen) -> bool) -> Seen {
        let deadline = Instant::now() + READY_TIMEOUT;
        loop {
            if let Some(s) = self.seen().into_iter().find(|s| pred(s)) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "no such request; seen: {:?}",
                self.seen()
                    .iter()
                    .map(|s| format!("{} {}", s.method, s.path))
                    .collect::<Vec<_>>()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Whether requests are kept for [`ExtensionServer::seen`] (on at start; off for
    /// benchmarks, so memory does not grow with the request count).
    pub fn set_recording(&self, on: bool) {
        self.shared
            .recording
            .store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether `/apis` offers aggregated discovery (on at start); off, it answers the
    /// legacy APIGroupList to every Accept, as servers before aggregated discovery did.
    pub fn set_aggregated_discovery(&self, on: bool) {
        self.shared
            .aggregated_discovery
            .store(on, std::sync::atomic::Ordering::Relaxed);
    }

    pub fn clear_seen(&self) {
        self.shared.seen.lock().expect("seen").clear();
    }

    /// The objects of `plural` (`flunders` or `fischers`) now stored, as JSON.
    pub fn objects(&self, plural: &str) -> Vec<Value> {
        self.shared.store.objects(plural)
    }

    /// Closes the listener and every connection and waits until they are gone: the port
    /// refuses connections when this returns. Hanging requests and watches end.
    pub async fn stop(&self) {
        let mut tasks = {
            let mut guard = self.tasks.lock().expect("tasks");
            self.shared.generation.send_modify(|g| *g += 1);
            std::mem::take(&mut *guard)
        };
        tasks.abort_all();
        while tasks.join_next().await.is_some() {}
    }

    /// Listens again on the same port, with the same certificates, objects and mode.
    pub async fn restart(&self) {
        self.stop().await;
        self.listen().await;
    }

    /// Binds the port (polling while the old socket is released) and accepts.
    async fn listen(&self) {
        let wanted = self.port();
        let deadline = Instant::now() + Duration::from_secs(10);
        let listener = loop {
            match tokio::net::TcpListener::bind((self.host, wanted)).await {
                Ok(l) => break l,
                Err(e) => {
                    assert!(
                        Instant::now() < deadline,
                        "bind {}:{wanted}: {e}",
                        self.host
                    );
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
        };
        *self.port.lock().expect("port") = listener.local_addr().expect("addr").port();
        let (acceptor, shared, tasks) = (
            self.acceptor.clone(),
            self.shared.clone(),
            self.tasks.clone(),
        );
        let generation = *self.shared.generation.borrow();
        // Connections go into the same set as the accept loop, so `stop` ends them too; a
        // loop that outlived its `stop` spawns nothing into the next server's set.
        self.tasks.lock().expect("tasks").spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    continue;
                };
                let _ = tcp.set_nodelay(true);
                let mut tasks = tasks.lock().expect("tasks");
                if *shared.generation.borrow() != generation {
                    return;
                }
                tasks.spawn(serve_conn(acceptor.clone(), shared.clone(), tcp));
            }
        });
    }

    /// A client presenting `pki`'s front-proxy client certificate.
    pub fn client(&self, pki: &FrontProxyPki) -> ExtClient {
        let (cert, key) = pki.client_pem();
        ExtClient::new(self.addr(), &self.ca_pem, Some((cert, key)))
    }

    /// A client presenting no certificate.
    pub fn anonymous_client(&self) -> ExtClient {
        ExtClient::new(self.addr(), &self.ca_pem, None)
    }

    /// A client presenting this certificate and key (PEM).
    pub fn client_with(&self, cert_pem: &str, key_pem: &str) -> ExtClient {
        ExtClient::new(
            self.addr(),
            &self.ca_pem,
            Some((cert_pem.to_owned(), key_pem.to_owned())),
        )
    }
}

impl Drop for ExtensionServer {
    fn drop(&mut self) {
        self.shared.generation.send_modify(|g| *g += 1);
        if let Ok(mut t) = self.tasks.lock() {
            t.abort_all();
        }
    }
}

/// One connection: TLS, the peer's certificate judged once, then HTTP/1.1 or h2.
async fn serve_conn(
    acceptor: tokio_rustls::TlsAcceptor,
    shared: Arc<Shared>,
    tcp: tokio::net::TcpStream,
) {
    let Ok(tls) = acceptor.accept(tcp).await else {
        return;
    };
    let peer = judge_peer(&shared, tls.get_ref().1.peer_certificates());
    let service = hyper::service::service_fn(move |req| {
        let (shared, peer) = (shared.clone(), peer.clone());
        async move { handle(shared, peer, req).await }
    });
    let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
        .serve_connection_with_upgrades(TokioIo::new(tls), service)
        .await;
}

fn is_health(path: &str) -> bool {
    ["/healthz", "/readyz", "/livez"]
        .iter()
        .any(|p| path == *p || path.starts_with(&format!("{p}/")))
}

/// An answer, or `Err` to close the connection without one ([`Mode::Drop`]).
async fn handle(
    shared: Arc<Shared>,
    peer: Peer,
    req: Request<Incoming>,
) -> Result<Resp, std::io::Error> {
    let (mut parts, body) = req.into_parts();
    let path = parts.uri.path().to_owned();
    let path_and_query = parts
        .uri
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| path.clone());
    let identity = match &peer {
        Peer::Proxy(_) => identity_from(&parts.headers).or_else(|| {
            shared.direct_user.as_ref().map(|user| auth::Identity {
                user: user.clone(),
                groups: vec!["system:authenticated".to_owned()],
                ..Default::default()
            })
        }),
        _ => None,
    };
    let seq = shared
        .next_seq
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let recording = shared.recording.load(std::sync::atomic::Ordering::Relaxed);
    if recording {
        shared.seen.lock().expect("seen").push(Seen {
            method: parts.method.clone(),
            path: path_and_query,
            user: identity.as_ref().map(|i| i.user.clone()),
            uid: identity.as_ref().and_then(|i| i.uid.clone()),
            groups: identity
                .as_ref()
                .map(|i| i.groups.clone())
                .unwrap_or_default(),
            extra: identity
                .as_ref()
                .map(|i| i.extra.clone())
                .unwrap_or_default(),
            client_cn: match &peer {
                Peer::Proxy(cn) => Some(cn.clone()),
                Peer::Refused(cn) => cn.clone(),
                Peer::None => None,
            },
            version: parts.version,
            headers: parts.headers.clone(),
            body: Bytes::new(),
            seq,
        });
    }
    let mode = *shared.mode.lock().expect("mode");
    if let Some(answer) = modes::misbehave(&shared, mode).await {
        return answer;
    }
    // Health checks are always allowed, anonymous or not, as upstream's defaults do.
    if is_health(&path) {
        return Ok(respond(
            StatusCode::OK,
            "text/plain; charset=utf-8",
            "ok".into(),
        ));
    }
    let Some(identity) = identity else {
        return Ok(status(
            StatusCode::UNAUTHORIZED,
            "Unauthorized",
            "Unauthorized",
        ));
    };
    if let Some(resp) = upgrade::echo(&shared, &path, &mut parts) {
        return Ok(resp);
    }
    let body = match Limited::new(body, MAX_BODY).collect().await {
        Ok(b) => b.to_bytes(),
        Err(e)
            if e.downcast_ref::<http_body_util::LengthLimitError>()
                .is_some() =>
        {
            return Ok(status(
                StatusCode::PAYLOAD_TOO_LARGE,
                "RequestEntityTooLarge",
                "Request entity too large: limit is 3145728",
            ))
        }
        Err(e) => return Ok(bad_request(&format!("reading the request body: {e}"))),
    };
    if recording {
        if let Some(s) = shared
            .seen
            .lock()
            .expect("seen")
            .iter_mut()
            .find(|s| s.seq == seq)
        {
            s.body = body.clone();
        }
    }
    let call = Call {
        method: parts.method,
        path,
        query: parse_query(parts.uri.query().unwrap_or("")),
        headers: parts.headers,
        body,
        identity,
    };
    Ok(route(&shared, call).await)
}

async fn route(shared: &Shared, call: Call) -> Resp {
    let gv_prefix = format!("/apis/{GROUP_VERSION}/");
    let path = call.path.trim_end_matches('/');
    if let Some(rest) = call.path.strip_prefix(&gv_prefix) {
        let rest = rest.to_owned();
        return rest::serve(&shared.store, &call, &rest, shared).await;
    }
    if call.method != Method::GET && call.method != Method::HEAD {
        return method_not_allowed();
    }
    match path {
        "/apis" => api::group_list(
            &call,
            shared
                .aggregated_discovery
                .load(std::sync::atomic::Ordering::Relaxed),
        ),
        p if p == format!("/apis/{GROUP}") => api::group(&call),
        p if p == format!("/apis/{GROUP_VERSION}") => api::resource_list(&call),
        "/openapi/v2" => api::openapi_v2(&call),
        "/openapi/v3" => api::openapi_v3_index(&call),
        p if p.starts_with("/openapi/v3/") => api::openapi_v3_doc(&call),
        _ => not_found_path(),
    }
}
