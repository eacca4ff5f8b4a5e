//! `--audit-webhook-config-file`: events POSTed as an `audit.k8s.io` EventList
//! (`Content-Type: application/json`) to the kubeconfig's server, with its TLS settings
//! and credentials (kas-server's webhook TLS), as upstream's audit webhook: each attempt
//! bounded by 30 s (stated in the URL's `timeout` parameter, as client-go does), any
//! failure (transport or non-2xx) retried with exponential backoff from
//! `--audit-webhook-initial-backoff` (× 1.5 per retry, 20 % jitter, 5 attempts in all).
//! The answer's body is read and ignored.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::header::{HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE, USER_AGENT};
use http::{Method, Request, Uri};
use http_body_util::{BodyExt, Full, Limited};
use hyper_rustls::{FixedServerNameResolver, HttpsConnector};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use kas_proto::AuditWebhookBackend;
use kas_server::webhook::{tls_config, Backoff, REQUEST_TIMEOUT};
use rustls::pki_types::ServerName;

use super::super::Event;

/// What is read of an answer before it is dropped (it is not looked at).
const MAX_ANSWER: usize = 1 << 20;

pub(super) struct WebhookWriter {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    uri: Uri,
    authorization: Option<HeaderValue>,
    version: String,
    backoff: Backoff,
    timeout: Duration,
}

impl WebhookWriter {
    /// The client `cfg.client` describes; the error says what is wrong with it.
    pub(super) fn new(cfg: &AuditWebhookBackend) -> Result<WebhookWriter, String> {
        let client_cfg = &cfg.client;
        let sep = if client_cfg.server.contains('?') {
            '&'
        } else {
            '?'
        };
        let url = format!(
            "{}{sep}timeout={}s",
            client_cfg.server,
            REQUEST_TIMEOUT.as_secs()
        );
        let uri: Uri = url
            .parse()
            .map_err(|e| format!("server {:?}: {e}", client_cfg.server))?;
        let tls = tls_config(client_cfg)?;
        let builder = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_only();
        let builder = match &client_cfg.tls_server_name {
            Some(name) => {
                let name = ServerName::try_from(name.clone())
                    .map_err(|e| format!("tls-server-name {name:?}: {e}"))?;
                builder.with_server_name_resolver(FixedServerNameResolver::new(name))
            }
            None => builder,
        };
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        // No Nagle: an EventList goes out in several segments.
        http.set_nodelay(true);
        let client = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(90))
            .build(builder.enable_all_versions().wrap_connector(http));
        let authorization = match &client_cfg.bearer_token {
            Some(t) => Some(
                HeaderValue::from_str(&format!("Bearer {t}"))
                    .map_err(|_| "the token is not a valid header value".to_owned())?,
            ),
            None => None,
        };
        Ok(WebhookWriter {
            client,
            uri,
            authorization,
            version: cfg.version.clone(),
            backoff: Backoff {
                initial: cfg.initial_backoff,
                ..Backoff::default()
            },
            timeout: REQUEST_TIMEOUT,
        })
    }

    /// POSTs `events` as one EventList until a 2xx answer or the attempts run out; the
    /// error is the last attempt's.
    pub(super) async fn post(&self, events: &[Arc<Event>]) -> Result<(), String> {
        let body = Bytes::from(Event::list_json(events, &self.version));
        let mut wait = self.backoff.initial;
        let mut attempt = 1;
        loop {
            match self.attempt(body.clone()).await {
                Ok(()) => return Ok(()),
                Err(e) if attempt < self.backoff.steps => {
                    tracing::debug!(error = %e, attempt, "audit webhook call failed; retrying");
                    tokio::time::sleep(jittered(wait, self.backoff.jitter)).await;
                    wait = wait.mul_f64(self.backoff.factor);
                    attempt += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }

    async fn attempt(&self, body: Bytes) -> Result<(), String> {
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
        let req = req.body(Full::new(body)).map_err(|e| e.to_string())?;
        let exchange = async {
            let resp = self
                .client
                .request(req)
                .await
                .map_err(|e| format!("Post {:?}: {}", self.uri.to_string(), innermost(&e)))?;
            let (parts, body) = resp.into_parts();
            let bytes = Limited::new(body, MAX_ANSWER)
                .collect()
                .await
                .map_err(|e| format!("reading the answer: {e}"))?
                .to_bytes();
            Ok::<_, String>((parts.status, bytes))
        };
        let (status, bytes) = tokio::time::timeout(self.timeout, exchange)
            .await
            .map_err(|_| {
                format!(
                    "Post {:?}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
                    self.uri.to_string()
                )
            })??;
        if status.is_success() {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim();
        Err(if text.is_empty() {
            format!(
                "the server responded with the status code {} but did not return more information",
                status.as_u16()
            )
        } else {
            let cut: String = text.chars().take(200).collect();
            format!(
                "the server responded with the status code {}: {cut}",
                status.as_u16()
            )
        })
    }
}

/// `d` plus up to `jitter` of itself, at random.
fn jittered(d: Duration, jitter: f64) -> Duration {
    use std::hash::{BuildHasher, Hasher};
    let random = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    d.mul_f64(1.0 + jitter * ((random % 1_000_000) as f64 / 1_000_000.0))
}

/// The innermost cause of `e`, the one that says what happened.
fn innermost(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cur = e;
    while let Some(next) = cur.source() {
        cur = next;
    }
    cur.to_string()
}

#[cfg(test)]
#[path = "webhook_tests.rs"]
mod tests;
