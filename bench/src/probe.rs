//! Single requests on fresh connections: fetching a body once, and polling an endpoint
//! until it answers 200 (readiness).

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::header::CONTENT_TYPE;
use http::{Method, StatusCode};
use http_body_util::BodyExt;
use rustls::ClientConfig;
use tokio::time::Instant;

use crate::client::{Conn, Protocol, Target};
use crate::tls::{client_config, ClientIdentity, ServerTrust};
use crate::Error;

/// Longest a single probe may take before it counts as a failed attempt.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// One response, read whole.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Status code.
    pub status: StatusCode,
    /// `Content-Type`, if any and if it is text.
    pub content_type: Option<String>,
    /// The body.
    pub body: Bytes,
}

/// GETs `target` once over a fresh HTTP/1.1 connection.
pub async fn get(target: &Target, tls: Arc<ClientConfig>) -> Result<Fetched, Error> {
    let mut conn = Conn::connect(target, tls, Protocol::Http1).await?;
    let req = target.request(Protocol::Http1, &Method::GET, &[], Bytes::new())?;
    let resp = conn.send(req).await?;
    let status = resp.status();
    let content_type = resp
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let body = resp.into_body().collect().await?.to_bytes();
    Ok(Fetched {
        status,
        content_type,
        body,
    })
}

/// A client TLS configuration for polling a server that may still be writing its
/// certificates: it trusts any server certificate, and picks up the client identity as
/// soon as both of its files can be loaded.
#[derive(Debug)]
pub struct PollTls {
    identity: Option<ClientIdentity>,
    config: Arc<ClientConfig>,
    has_identity: bool,
}

impl PollTls {
    /// Starts without an identity unless it can already be loaded.
    pub fn new(identity: Option<ClientIdentity>) -> Result<Self, Error> {
        let mut poll = Self {
            identity,
            config: anonymous()?,
            has_identity: false,
        };
        poll.refresh();
        Ok(poll)
    }

    /// The configuration to use for the next attempt.
    pub fn config(&mut self) -> Arc<ClientConfig> {
        self.refresh();
        self.config.clone()
    }

    fn refresh(&mut self) {
        if self.has_identity {
            return;
        }
        let Some(id) = &self.identity else { return };
        if !(id.cert.exists() && id.key.exists()) {
            return;
        }
        // Files being written half-way fail to load; the next attempt tries again.
        if let Ok(config) = client_config(&ServerTrust::Any, Some(id), &[Protocol::Http1.alpn()]) {
            self.config = config;
            self.has_identity = true;
        }
    }
}

fn anonymous() -> Result<Arc<ClientConfig>, Error> {
    client_config(&ServerTrust::Any, None, &[Protocol::Http1.alpn()])
}

/// Polls `target` with GET every `interval` (measured start to start) until it answers
/// 200, and returns the instant the 200 arrived. `still_running` is asked before every
/// attempt and may stop the wait with its error (a child that exited, say).
pub async fn wait_ready(
    target: &Target,
    tls: &mut PollTls,
    interval: Duration,
    timeout: Duration,
    mut still_running: impl FnMut() -> Result<(), Error>,
) -> Result<Instant, Error> {
    let deadline = Instant::now() + timeout;
    loop {
        still_running()?;
        let attempt = Instant::now();
        if attempt >= deadline {
            return Err(Error::Timeout(
                timeout,
                format!("200 from {}", target.uri()),
            ));
        }
        let outcome = tokio::time::timeout(PROBE_TIMEOUT, get(target, tls.config())).await;
        if let Ok(Ok(resp)) = outcome {
            if resp.status == StatusCode::OK {
                return Ok(Instant::now());
            }
        }
        tokio::time::sleep_until(attempt + interval).await;
    }
}
