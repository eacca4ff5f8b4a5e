//! The HTTPS client of kube-apiserver's webhooks (token authentication and
//! authorization), as `k8s.io/apiserver/pkg/util/webhook` behaves: a review object POSTed
//! as JSON to the kubeconfig's server URL exactly (plus `?timeout=30s`), the server
//! certificate verified against the kubeconfig's CA (else the system's roots), client
//! certificate or bearer token as the kubeconfig says; each attempt bounded by 30 s
//! (`defaultRequestTimeout`), and retried with upstream's backoff (500 ms × 1.5, 20 %
//! jitter, 5 attempts) only when upstream retries: a connection reset or lost, a 500, a
//! 504, a 429, or an answer with `Retry-After`. Connections are pooled (HTTP/2 when the
//! webhook offers it).

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::header::{HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE, RETRY_AFTER, USER_AGENT};
use http::{Method, Request, StatusCode, Uri};
use http_body_util::{BodyExt, Full, Limited};
use hyper_rustls::{FixedServerNameResolver, HttpsConnector};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use kas_proto::WebhookClientConfig;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, RootCertStore, SignatureScheme};
use serde_json::Value;

use crate::service_resolver::connect::{ServiceConnector, ServiceDial};

/// Upstream's `defaultRequestTimeout`: the whole of one attempt, body included.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The most a webhook answer may weigh.
const MAX_ANSWER: usize = 3 << 20;

/// `wait.Backoff` as upstream's `DefaultRetryBackoffWithInitialDelay(500ms)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    /// The first wait.
    pub initial: Duration,
    /// What each wait is multiplied by.
    pub factor: f64,
    /// Up to this fraction of a wait is added at random.
    pub jitter: f64,
    /// Attempts in all.
    pub steps: u32,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            initial: Duration::from_millis(500),
            factor: 1.5,
            jitter: 0.2,
            steps: 5,
        }
    }
}

/// Why a webhook call failed (the message is what upstream's error would say).
#[derive(Debug, Clone, thiserror::Error)]
pub enum WebhookError {
    /// The client could not be built from the kubeconfig.
    #[error("webhook client for {file}: {message}")]
    Config {
        /// The kubeconfig file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// The request did not get an answer.
    #[error("Post {url:?}: {message}")]
    Transport {
        /// The URL posted to.
        url: String,
        /// What went wrong.
        message: String,
        /// Whether upstream would try again (connection reset or lost).
        retry: bool,
    },
    /// The webhook answered with an error status.
    #[error("{message}")]
    Status {
        /// The HTTP status.
        code: u16,
        /// client-go's wording of it.
        message: String,
        /// Whether upstream would try again.
        retry: bool,
    },
    /// The answer is not the JSON object expected.
    #[error("{0}")]
    Decode(String),
}

impl WebhookError {
    fn retriable(&self) -> bool {
        match self {
            WebhookError::Transport { retry, .. } | WebhookError::Status { retry, .. } => *retry,
            _ => false,
        }
    }
}

type HttpsClient = Client<HttpsConnector<ServiceConnector>, Full<Bytes>>;

/// A client for one webhook.
#[derive(Clone)]
pub struct WebhookClient {
    client: HttpsClient,
    uri: Uri,
    authorization: Option<HeaderValue>,
    timeout: Duration,
    backoff: Backoff,
}

impl std::fmt::Debug for WebhookClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookClient")
            .field("uri", &self.uri)
            .finish_non_exhaustive()
    }
}

/// What a client presents to an admission or conversion webhook, beyond TLS.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientAuth {
    /// A client certificate chain and its key, PEM.
    pub cert_key_pem: Option<(String, String)>,
    /// Sent as `Authorization: Bearer`.
    pub bearer_token: Option<String>,
}

impl WebhookClient {
    /// A client for the webhook `config` describes, with upstream's timeout and backoff.
    pub fn new(config: &WebhookClientConfig) -> Result<WebhookClient, WebhookError> {
        WebhookClient::dialling(config, None)
    }

    /// [`WebhookClient::new`], dialling `service` where it resolves when it is given.
    fn dialling(
        config: &WebhookClientConfig,
        service: Option<Arc<ServiceDial>>,
    ) -> Result<WebhookClient, WebhookError> {
        let err = |message: String| WebhookError::Config {
            file: config.file.clone(),
            message,
        };
        let url = with_timeout_query(&config.server, REQUEST_TIMEOUT);
        let uri: Uri = url
            .parse()
            .map_err(|e| err(format!("server {:?}: {e}", config.server)))?;
        let tls = tls_config(config).map_err(err)?;
        let builder = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_only();
        let builder = match &config.tls_server_name {
            Some(name) => {
                let name = ServerName::try_from(name.clone())
                    .map_err(|e| err(format!("tls-server-name {name:?}: {e}")))?;
                builder.with_server_name_resolver(FixedServerNameResolver::new(name))
            }
            None => builder,
        };
        // No Nagle: a review is written in more than one segment, and waiting for the
        // peer's delayed ACK would add ~40 ms to every call.
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_nodelay(true);
        let http = match service {
            Some(s) => ServiceConnector::via(http, s),
            None => ServiceConnector::direct(http),
        };
        let connector = builder.enable_all_versions().wrap_connector(http);
        let client = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(90))
            .build(connector);
        let authorization = match &config.bearer_token {
            Some(t) => Some(
                HeaderValue::from_str(&format!("Bearer {t}"))
                    .map_err(|_| err("the token is not a valid header value".into()))?,
            ),
            None => None,
        };
        Ok(WebhookClient {
            client,
            uri,
            authorization,
            timeout: REQUEST_TIMEOUT,
            backoff: Backoff::default(),
        })
    }

    /// A client for an admission webhook's `clientConfig.url`: the server certificate
    /// verified against `ca_pem` (the `caBundle`; else the system's roots), `auth`
    /// presented, one attempt bounded by `timeout`, which the URL's `timeout` parameter
    /// states in whole seconds as upstream's dispatchers do. Connections are pooled as
    /// for every client.
    pub fn for_admission(
        url: &str,
        ca_pem: Option<String>,
        timeout: Duration,
        auth: ClientAuth,
    ) -> Result<WebhookClient, WebhookError> {
        WebhookClient::for_admission_via(url, ca_pem, timeout, auth, None)
    }

    /// [`WebhookClient::for_admission`] for a `clientConfig.service`: the request goes to
    /// `https://<name>.<namespace>.svc:<port><path>`, whose name the serving certificate
    /// must carry, over a connection to wherever the service resolves at each dial (a
    /// resolution failure is the call's failure), as upstream's webhook client manager.
    pub fn for_service(
        service: Arc<ServiceDial>,
        path: &str,
        ca_pem: Option<String>,
        timeout: Duration,
        auth: ClientAuth,
    ) -> Result<WebhookClient, WebhookError> {
        let url = service.url(path);
        WebhookClient::for_admission_via(&url, ca_pem, timeout, auth, Some(service))
    }

    fn for_admission_via(
        url: &str,
        ca_pem: Option<String>,
        timeout: Duration,
        auth: ClientAuth,
        service: Option<Arc<ServiceDial>>,
    ) -> Result<WebhookClient, WebhookError> {
        let config = WebhookClientConfig {
            file: url.to_owned(),
            server: url.to_owned(),
            ca_pem,
            insecure_skip_tls_verify: false,
            tls_server_name: None,
            client_cert_key_pem: auth.cert_key_pem,
            bearer_token: auth.bearer_token,
        };
        let mut client = WebhookClient::dialling(&config, service)?;
        let secs = timeout.as_secs() + u64::from(timeout.subsec_nanos() > 0);
        let with_query = with_timeout_query(url, Duration::from_secs(secs));
        client.uri = with_query.parse().map_err(|e| WebhookError::Config {
            file: url.to_owned(),
            message: format!("url {url:?}: {e}"),
        })?;
        client.timeout = timeout;
        client.backoff.steps = 1;
        Ok(client)
    }

    /// The same client with another per-attempt timeout and backoff (tests).
    pub fn with_limits(mut self, timeout: Duration, backoff: Backoff) -> WebhookClient {
        self.timeout = timeout;
        self.backoff = backoff;
        self
    }

    /// POSTs `review` and returns the webhook's answer, retrying as upstream does.
    pub async fn post(&self, review: &Value) -> Result<Value, WebhookError> {
        let body = Bytes::from(serde_json::to_vec(review).unwrap_or_default());
        let mut wait = self.backoff.initial;
        let mut attempt = 1;
        loop {
            let result = self.attempt(body.clone()).await;
            match result {
                Err(e) if e.retriable() && attempt < self.backoff.steps => {
                    tracing::debug!(error = %e, attempt, "webhook call failed; retrying");
                    tokio::time::sleep(jittered(wait, self.backoff.jitter)).await;
                    wait = wait.mul_f64(self.backoff.factor);
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    async fn attempt(&self, body: Bytes) -> Result<Value, WebhookError> {
        let url = self.uri.to_string();
        let transport = |message: String, retry: bool| WebhookError::Transport {
            url: url.clone(),
            message,
            retry,
        };
        let mut req = Request::builder()
            .method(Method::POST)
            .uri(self.uri.clone())
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, */*")
            .header(
                USER_AGENT,
                concat!("kube-apiserver-rs/", env!("CARGO_PKG_VERSION")),
            );
        if let Some(auth) = &self.authorization {
            req = req.header(AUTHORIZATION, auth.clone());
        }
        let req = req
            .body(Full::new(body))
            .map_err(|e| transport(e.to_string(), false))?;
        let exchange = async {
            let resp = self
                .client
                .request(req)
                .await
                .map_err(|e| transport(self.cause(&e), connection_lost(&e)))?;
            let (parts, body) = resp.into_parts();
            let bytes = Limited::new(body, MAX_ANSWER)
                .collect()
                .await
                .map_err(|e| transport(format!("reading the answer: {e}"), false))?
                .to_bytes();
            Ok::<_, WebhookError>((parts, bytes))
        };
        let (parts, bytes) =
            match tokio::time::timeout(self.timeout, exchange).await {
                Ok(r) => r?,
                Err(_) => return Err(transport(
                    "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"
                        .into(),
                    false,
                )),
            };
        if !parts.status.is_success() {
            let retry_after = parts
                .headers
                .get(RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok())
                .is_some_and(|s| s > 0);
            return Err(status_error(parts.status, &bytes, retry_after));
        }
        let value: Value = serde_json::from_slice(&bytes)
            .map_err(|e| WebhookError::Decode(format!("decoding the webhook's answer: {e}")))?;
        if !value.is_object() {
            return Err(WebhookError::Decode(
                "the webhook's answer is not a JSON object".into(),
            ));
        }
        Ok(value)
    }
}

impl WebhookClient {
    /// GETs `url` with this client's TLS settings, pool and per-attempt timeout, once
    /// (OIDC discovery documents and key sets), and returns the answer's status and body.
    pub async fn get(&self, url: &str) -> Result<(StatusCode, Bytes), WebhookError> {
        let transport = |message: String| WebhookError::Transport {
            url: url.to_owned(),
            message,
            retry: false,
        };
        let uri: Uri = url.parse().map_err(|e| transport(format!("{e}")))?;
        let req = Request::builder()
            .method(Method::GET)
            .uri(uri.clone())
            .header(ACCEPT, "application/json")
            .header(
                USER_AGENT,
                concat!("kube-apiserver-rs/", env!("CARGO_PKG_VERSION")),
            )
            .body(Full::new(Bytes::new()))
            .map_err(|e| transport(e.to_string()))?;
        let exchange = async {
            let resp = self
                .client
                .request(req)
                .await
                .map_err(|e| transport(cause_for(&uri, &e)))?;
            let (parts, body) = resp.into_parts();
            let bytes = Limited::new(body, MAX_ANSWER)
                .collect()
                .await
                .map_err(|e| transport(format!("reading the answer: {e}")))?
                .to_bytes();
            Ok::<_, WebhookError>((parts.status, bytes))
        };
        match tokio::time::timeout(self.timeout, exchange).await {
            Ok(r) => r,
            Err(_) => Err(transport(
                "context deadline exceeded (Client.Timeout exceeded while awaiting headers)".into(),
            )),
        }
    }

    /// What went wrong, in Go's words for a refused connection.
    fn cause(&self, e: &(dyn std::error::Error + 'static)) -> String {
        cause_for(&self.uri, e)
    }
}

/// What went wrong calling `uri`, in Go's words for a refused connection.
pub(crate) fn cause_for(uri: &Uri, e: &(dyn std::error::Error + 'static)) -> String {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            if io.kind() == std::io::ErrorKind::ConnectionRefused {
                let authority = uri.authority().map(|a| a.as_str()).unwrap_or("");
                let port = if uri.port().is_some() { "" } else { ":443" };
                return format!("dial tcp {authority}{port}: connect: connection refused");
            }
        }
        cur = err.source();
    }
    innermost(e)
}

/// The server URL with upstream's `timeout` query parameter.
fn with_timeout_query(server: &str, timeout: Duration) -> String {
    let sep = if server.contains('?') { '&' } else { '?' };
    format!("{server}{sep}timeout={}s", timeout.as_secs())
}

/// `d` plus up to `jitter` of itself, at random.
fn jittered(d: Duration, jitter: f64) -> Duration {
    use std::hash::{BuildHasher, Hasher};
    let random = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    let fraction = (random % 1_000_000) as f64 / 1_000_000.0;
    d.mul_f64(1.0 + jitter * fraction)
}

/// The innermost cause of `e`, the one that says what happened.
fn innermost(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cur = e;
    while let Some(next) = cur.source() {
        cur = next;
    }
    cur.to_string()
}

/// Connection reset by the peer or a lost HTTP/2 connection (upstream retries those).
fn connection_lost(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            if matches!(
                io.kind(),
                std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe
            ) {
                return true;
            }
        }
        if let Some(h) = err.downcast_ref::<hyper::Error>() {
            if h.is_incomplete_message() || h.is_canceled() {
                return true;
            }
        }
        cur = err.source();
    }
    false
}

/// A non-2xx answer worded as client-go words it (the Status message when the body is
/// one), retriable as upstream's `DefaultShouldRetry` says.
fn status_error(code: StatusCode, body: &[u8], retry_after: bool) -> WebhookError {
    let text = String::from_utf8_lossy(body).trim().to_owned();
    let status_message = serde_json::from_slice::<Value>(body)
        .ok()
        .filter(|v| v.get("kind").and_then(Value::as_str) == Some("Status"))
        .and_then(|v| v.get("message").and_then(Value::as_str).map(str::to_owned));
    let message = status_message.unwrap_or_else(|| match code.as_u16() {
        400 => "the server rejected our request for an unknown reason".into(),
        401 => "the server has asked for the client to provide credentials".into(),
        403 => format!("forbidden: {text}"),
        404 => "the server could not find the requested resource".into(),
        429 => {
            "the server has received too many requests and has asked us to try again later".into()
        }
        503 => "the server is currently unable to handle the request".into(),
        504 => "the server was unable to return a response in the time allotted, but may still be processing the request".into(),
        c if c >= 500 => format!(
            "an error on the server ({text:?}) has prevented the request from succeeding"
        ),
        c => format!("the server responded with the status code {c} but did not return more information"),
    });
    let retry = matches!(code.as_u16(), 500 | 504 | 429) || retry_after;
    WebhookError::Status {
        code: code.as_u16(),
        message,
        retry,
    }
}

/// The rustls client configuration a kubeconfig cluster and user ask for.
pub fn tls_config(config: &WebhookClientConfig) -> Result<rustls::ClientConfig, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?;
    let builder = if config.insecure_skip_tls_verify {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(NoVerification(provider)))
    } else {
        let mut roots = RootCertStore::empty();
        match &config.ca_pem {
            Some(pem) => {
                for cert in CertificateDer::pem_slice_iter(pem.as_bytes()) {
                    let cert = cert.map_err(|e| format!("certificate-authority: {e}"))?;
                    roots
                        .add(cert)
                        .map_err(|e| format!("certificate-authority: {e}"))?;
                }
            }
            None => {
                let found = rustls_native_certs::load_native_certs();
                for cert in found.certs {
                    let _ = roots.add(cert);
                }
                if roots.is_empty() {
                    return Err("no certificate-authority given and no system roots found".into());
                }
            }
        }
        builder.with_root_certificates(roots)
    };
    match &config.client_cert_key_pem {
        Some((cert, key)) => {
            let chain = CertificateDer::pem_slice_iter(cert.as_bytes())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("client-certificate: {e}"))?;
            let key = PrivateKeyDer::from_pem_slice(key.as_bytes())
                .map_err(|e| format!("client-key: {e}"))?;
            builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| format!("client certificate: {e}"))
        }
        None => Ok(builder.with_no_client_auth()),
    }
}

/// `insecure-skip-tls-verify: true`: any server certificate is accepted (signatures are
/// still checked, so the handshake itself is sound).
#[derive(Debug)]
struct NoVerification(Arc<CryptoProvider>);

impl ServerCertVerifier for NoVerification {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
#[path = "webhook_tests.rs"]
mod tests;
