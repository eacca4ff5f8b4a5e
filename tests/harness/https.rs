//! A small HTTPS server on 127.0.0.1 for tests to point the apiserver at (an admission,
//! authentication, authorization or conversion webhook, an OIDC issuer): its own CA made
//! with rcgen, a serving certificate for 127.0.0.1 and localhost (and any DNS names the
//! caller adds, such as a service's `<name>.<namespace>.svc`), h2 and http/1.1, each
//! request handed to the caller's async handler. [`ReviewWebhook`] is such a server
//! answering JSON reviews and keeping what it was sent.

use std::future::Future;
use std::net::SocketAddr;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use base64::Engine;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::Value;
use tokio::task::JoinSet;

/// What a handler answers.
pub type Answer = Result<Response<Full<Bytes>>, hyper::Error>;

/// An HTTPS server on 127.0.0.1; it stops when dropped (or at [`HttpsServer::stop`]).
pub struct HttpsServer {
    addr: SocketAddr,
    ca_pem: String,
    /// The accept loop and every connection.
    tasks: Arc<Mutex<JoinSet<()>>>,
}

impl HttpsServer {
    /// Starts a server on 127.0.0.1:0 answering every request with `handler`.
    pub async fn start<H, F>(handler: H) -> HttpsServer
    where
        H: Fn(Request<Incoming>) -> F + Send + Sync + 'static,
        F: Future<Output = Answer> + Send + 'static,
    {
        HttpsServer::start_with(|_| handler).await
    }

    /// [`HttpsServer::start`] with the handler made by `make` from the server's address.
    pub async fn start_with<H, F>(make: impl FnOnce(SocketAddr) -> H) -> HttpsServer
    where
        H: Fn(Request<Incoming>) -> F + Send + Sync + 'static,
        F: Future<Output = Answer> + Send + 'static,
    {
        HttpsServer::start_named(&[], make).await
    }

    /// [`HttpsServer::start`] on 127.0.0.1:`port`; `None` when the port is taken.
    pub async fn start_at<H, F>(port: u16, handler: H) -> Option<HttpsServer>
    where
        H: Fn(Request<Incoming>) -> F + Send + Sync + 'static,
        F: Future<Output = Answer> + Send + 'static,
    {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .ok()?;
        Some(HttpsServer::serve(listener, &[], |_| handler))
    }

    /// [`HttpsServer::start`] on `ip` (port chosen by the kernel).
    pub async fn start_on_ip<H, F>(ip: std::net::IpAddr, handler: H) -> HttpsServer
    where
        H: Fn(Request<Incoming>) -> F + Send + Sync + 'static,
        F: Future<Output = Answer> + Send + 'static,
    {
        let listener = tokio::net::TcpListener::bind((ip, 0)).await.expect("bind");
        HttpsServer::serve(listener, &[], |_| handler)
    }

    /// [`HttpsServer::start_with`], the serving certificate also naming `dns_names`.
    pub async fn start_named<H, F>(
        dns_names: &[&str],
        make: impl FnOnce(SocketAddr) -> H,
    ) -> HttpsServer
    where
        H: Fn(Request<Incoming>) -> F + Send + Sync + 'static,
        F: Future<Output = Answer> + Send + 'static,
    {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        HttpsServer::serve(listener, dns_names, make)
    }

    fn serve<H, F>(
        listener: tokio::net::TcpListener,
        dns_names: &[&str],
        make: impl FnOnce(SocketAddr) -> H,
    ) -> HttpsServer
    where
        H: Fn(Request<Incoming>) -> F + Send + Sync + 'static,
        F: Future<Output = Answer> + Send + 'static,
    {
        let ca_key = rcgen::KeyPair::generate().expect("key");
        let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        let ca = ca_params.self_signed(&ca_key).expect("ca");
        let issuer = rcgen::Issuer::new(ca_params, ca_key);
        let key = rcgen::KeyPair::generate().expect("key");
        let mut names = vec!["127.0.0.1".to_owned(), "localhost".to_owned()];
        names.extend(dns_names.iter().map(|n| (*n).to_owned()));
        let params = rcgen::CertificateParams::new(names).expect("params");
        let cert = params.signed_by(&key, &issuer).expect("cert");
        let mut tls = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_no_client_auth()
        .with_single_cert(
            vec![cert.der().clone()],
            rustls::pki_types::PrivateKeyDer::try_from(key.serialize_der()).expect("key der"),
        )
        .expect("tls");
        tls.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(tls));
        let addr = listener.local_addr().expect("addr");
        let handler = Arc::new(make(addr));
        let tasks: Arc<Mutex<JoinSet<()>>> = Arc::default();
        let tasks2 = tasks.clone();
        tasks.lock().expect("tasks").spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    return;
                };
                let _ = tcp.set_nodelay(true);
                let (acceptor, handler) = (acceptor.clone(), handler.clone());
                let conn = async move {
                    let Ok(tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let service = hyper::service::service_fn(move |req| handler(req));
                    let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                        .serve_connection_with_upgrades(TokioIo::new(tls), service)
                        .await;
                };
                tasks2.lock().expect("tasks").spawn(conn);
            }
        });
        HttpsServer {
            addr,
            ca_pem: ca.pem(),
            tasks,
        }
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `https://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("https://{}{path}", self.addr)
    }

    /// The CA that signed the serving certificate, PEM.
    pub fn ca_pem(&self) -> &str {
        &self.ca_pem
    }

    /// The CA as a `caBundle` (base64 of the PEM).
    pub fn ca_bundle(&self) -> String {
        base64::engine::general_purpose::STANDARD.encode(&self.ca_pem)
    }

    /// A kubeconfig for `path` on this server (as a webhook's, with a bearer token),
    /// written in `dir` as `<path>.kubeconfig`.
    pub fn kubeconfig(&self, dir: &Path, path: &str) -> PathBuf {
        let file = dir.join(format!("{}.kubeconfig", path.trim_start_matches('/')));
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: webhook\n  cluster:\n    server: {}\n    certificate-authority-data: {}\nusers:\n- name: apiserver\n  user:\n    token: apiserver-secret\ncontexts:\n- name: webhook\n  context: {{cluster: webhook, user: apiserver}}\ncurrent-context: webhook\n",
            self.url(path),
            self.ca_bundle()
        );
        std::fs::write(&file, text).expect("write kubeconfig");
        file
    }

    /// Closes the listener and every connection: the server is down.
    pub fn stop(&self) {
        self.tasks.lock().expect("tasks").abort_all();
    }
}

impl Drop for HttpsServer {
    fn drop(&mut self) {
        if let Ok(mut t) = self.tasks.lock() {
            t.abort_all();
        }
    }
}

/// A webhook answering JSON reviews: it keeps every (`path?query`, review) it is sent, in
/// order, and answers what the caller's `answer` makes of (path, review), as JSON.
pub struct ReviewWebhook {
    server: HttpsServer,
    seen: Arc<Mutex<Vec<(String, Value)>>>,
}

impl ReviewWebhook {
    pub async fn start<A, F>(answer: A) -> ReviewWebhook
    where
        A: Fn(String, Value) -> F + Send + Sync + 'static,
        F: Future<Output = Value> + Send + 'static,
    {
        ReviewWebhook::start_named(&[], answer).await
    }

    /// [`ReviewWebhook::start`], the serving certificate also naming `dns_names`.
    pub async fn start_named<A, F>(dns_names: &[&str], answer: A) -> ReviewWebhook
    where
        A: Fn(String, Value) -> F + Send + Sync + 'static,
        F: Future<Output = Value> + Send + 'static,
    {
        let seen: Arc<Mutex<Vec<(String, Value)>>> = Arc::default();
        let (seen2, answer) = (seen.clone(), Arc::new(answer));
        let server = HttpsServer::start_named(dns_names, |_| {
            move |req: Request<Incoming>| {
                let (seen, answer) = (seen2.clone(), answer.clone());
                async move {
                    let path = req.uri().path().to_owned();
                    let query = req.uri().query().unwrap_or("").to_owned();
                    let body = req.into_body().collect().await?.to_bytes();
                    let review: Value = serde_json::from_slice(&body).unwrap_or_default();
                    seen.lock()
                        .expect("seen")
                        .push((format!("{path}?{query}"), review.clone()));
                    let out = serde_json::to_vec(&answer(path, review).await).unwrap_or_default();
                    Ok(Response::builder()
                        .header("content-type", "application/json")
                        .body(Full::new(Bytes::from(out)))
                        .expect("response"))
                }
            }
        })
        .await;
        ReviewWebhook { server, seen }
    }

    /// Every (`path?query`, review) received, in order.
    pub fn seen(&self) -> Vec<(String, Value)> {
        self.seen.lock().expect("seen").clone()
    }

    /// The (`path?query`, review)s sent to `path`, in order.
    pub fn reviews(&self, path: &str) -> Vec<(String, Value)> {
        let prefix = format!("{path}?");
        self.seen
            .lock()
            .expect("seen")
            .iter()
            .filter(|(p, _)| p.starts_with(&prefix))
            .cloned()
            .collect()
    }

    /// The reviews sent to `path`, in order.
    pub fn bodies(&self, path: &str) -> Vec<Value> {
        self.reviews(path).into_iter().map(|(_, v)| v).collect()
    }
}

impl Deref for ReviewWebhook {
    type Target = HttpsServer;

    fn deref(&self) -> &HttpsServer {
        &self.server
    }
}
