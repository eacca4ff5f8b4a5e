//! Tests of the audit webhook, against a loopback HTTPS server.

use super::*;
use crate::audit::backend::test_event;
use crate::audit::backend::{BackendError, Backends};
use http::StatusCode;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use kas_proto::{AuditBatch, AuditConfig, AuditMode, AuditPolicy, WebhookClientConfig};
use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Instant;

/// One request the server received.
#[derive(Debug, Clone)]
pub(in crate::audit::backend) struct Received {
    pub(in crate::audit::backend) uri: String,
    pub(in crate::audit::backend) content_type: String,
    pub(in crate::audit::backend) authorization: String,
    pub(in crate::audit::backend) body: serde_json::Value,
}

/// A loopback HTTPS server answering with the statuses it is given (then 200).
pub(in crate::audit::backend) struct Server {
    pub(in crate::audit::backend) url: String,
    pub(in crate::audit::backend) ca_pem: String,
    pub(in crate::audit::backend) received: Arc<Mutex<Vec<Received>>>,
    pub(in crate::audit::backend) answers: Arc<Mutex<VecDeque<u16>>>,
}

impl Server {
    pub(in crate::audit::backend) async fn start() -> Server {
        let key = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).unwrap();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(
                vec![key.cert.der().clone()],
                rustls::pki_types::PrivateKeyDer::Pkcs8(key.signing_key.serialize_der().into()),
            )
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(tls));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let received = Arc::new(Mutex::new(Vec::new()));
        let answers = Arc::new(Mutex::new(VecDeque::new()));
        let (rec, ans) = (received.clone(), answers.clone());
        tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                let (rec, ans) = (rec.clone(), ans.clone());
                tokio::spawn(async move {
                    let Ok(tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let service = service_fn(move |req: http::Request<Incoming>| {
                        let (rec, ans) = (rec.clone(), ans.clone());
                        async move {
                            let header = |n| {
                                req.headers()
                                    .get(n)
                                    .and_then(|v: &HeaderValue| v.to_str().ok())
                                    .unwrap_or("")
                                    .to_owned()
                            };
                            let r = Received {
                                uri: req.uri().to_string(),
                                content_type: header(CONTENT_TYPE),
                                authorization: header(AUTHORIZATION),
                                body: serde_json::Value::Null,
                            };
                            let bytes = req.into_body().collect().await?.to_bytes();
                            let body = serde_json::from_slice(&bytes).unwrap_or_default();
                            rec.lock().unwrap().push(Received { body, ..r });
                            let code = ans.lock().unwrap().pop_front().unwrap_or(200);
                            let resp = http::Response::builder()
                                .status(StatusCode::from_u16(code).unwrap())
                                .body(Full::new(Bytes::from_static(b"{}")))
                                .unwrap();
                            Ok::<_, hyper::Error>(resp)
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(tls), service)
                        .await;
                });
            }
        });
        Server {
            url: format!("https://{addr}/audit"),
            ca_pem: key.cert.pem(),
            received,
            answers,
        }
    }

    pub(in crate::audit::backend) fn client(&self) -> WebhookClientConfig {
        WebhookClientConfig {
            file: "/etc/audit-webhook.kubeconfig".into(),
            server: self.url.clone(),
            ca_pem: Some(self.ca_pem.clone()),
            insecure_skip_tls_verify: false,
            tls_server_name: None,
            client_cert_key_pem: None,
            bearer_token: Some("s3cret".into()),
        }
    }

    pub(in crate::audit::backend) fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// Audit IDs received, in order.
    pub(in crate::audit::backend) fn ids(&self) -> Vec<String> {
        self.received()
            .iter()
            .flat_map(|r| r.body["items"].as_array().cloned().unwrap_or_default())
            .map(|i| i["auditID"].as_str().unwrap_or("").to_owned())
            .collect()
    }
}

pub(in crate::audit::backend) fn webhook_config(
    client: WebhookClientConfig,
    mode: AuditMode,
    initial_backoff: Duration,
) -> AuditWebhookBackend {
    AuditWebhookBackend {
        client,
        mode,
        batch: AuditBatch {
            buffer_size: 100,
            max_size: 400,
            max_wait: Duration::from_millis(50),
            throttle: None,
        },
        truncate: None,
        initial_backoff,
        version: "audit.k8s.io/v1".into(),
    }
}

pub(in crate::audit::backend) fn only_webhook(w: AuditWebhookBackend) -> AuditConfig {
    AuditConfig {
        policy: AuditPolicy::default(),
        log: None,
        webhook: Some(w),
    }
}

/// Polls until `cond` holds.
async fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !cond() {
        assert!(Instant::now() < deadline, "timed out: {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn blocking_posts_one_event_list_per_event() {
    let server = Server::start().await;
    let cfg = webhook_config(
        server.client(),
        AuditMode::Blocking,
        Duration::from_millis(10),
    );
    let backends = Backends::start(&only_webhook(cfg)).unwrap();
    backends.process(Arc::new(test_event("a"))).await.unwrap();
    // Blocking: answered before process returns.
    let got = server.received();
    assert_eq!(got.len(), 1);
    let r = &got[0];
    assert_eq!(r.uri, "/audit?timeout=30s");
    assert_eq!(r.content_type, "application/json");
    assert_eq!(r.authorization, "Bearer s3cret");
    assert_eq!(r.body["kind"], "EventList");
    assert_eq!(r.body["apiVersion"], "audit.k8s.io/v1");
    assert_eq!(r.body["items"][0]["kind"], "Event");
    assert_eq!(r.body["items"][0]["auditID"], "a");
    backends.process(Arc::new(test_event("b"))).await.unwrap();
    assert_eq!(server.ids(), ["a", "b"]);
    assert_eq!(server.received().len(), 2);
    assert_eq!(backends.stats()[0].written, 2);
}

#[tokio::test]
async fn batch_mode_posts_batches() {
    let server = Server::start().await;
    let mut cfg = webhook_config(server.client(), AuditMode::Batch, Duration::from_millis(10));
    cfg.batch.max_size = 2;
    let backends = Backends::start(&only_webhook(cfg)).unwrap();
    for id in ["a", "b", "c"] {
        backends.process(Arc::new(test_event(id))).await.unwrap();
    }
    wait_until("three events posted", || server.ids().len() == 3).await;
    let mut ids = server.ids();
    ids.sort();
    assert_eq!(ids, ["a", "b", "c"]);
    // Two full-or-timed-out requests: [a, b] and [c].
    let sizes: Vec<usize> = server
        .received()
        .iter()
        .map(|r| r.body["items"].as_array().map_or(0, Vec::len))
        .collect();
    assert_eq!(sizes.iter().sum::<usize>(), 3);
    assert!(sizes.iter().all(|&n| n <= 2));
    backends.shutdown().await;
    assert_eq!(backends.stats()[0].written, 3);
}

#[tokio::test]
async fn retries_with_backoff_until_answered() {
    let server = Server::start().await;
    server.answers.lock().unwrap().extend([500, 503]);
    let cfg = webhook_config(
        server.client(),
        AuditMode::BlockingStrict,
        Duration::from_millis(40),
    );
    let backends = Backends::start(&only_webhook(cfg)).unwrap();
    let start = Instant::now();
    backends.process(Arc::new(test_event("a"))).await.unwrap();
    // Three attempts; waits of 40 ms and 60 ms at least between them.
    assert_eq!(server.received().len(), 3);
    assert!(
        start.elapsed() >= Duration::from_millis(100),
        "{:?}",
        start.elapsed()
    );
    let s = &backends.stats()[0];
    assert_eq!((s.written, s.errors), (1, 0));
}

#[tokio::test]
async fn gives_up_after_five_attempts() {
    let server = Server::start().await;
    server.answers.lock().unwrap().extend([500; 5]);
    let cfg = webhook_config(
        server.client(),
        AuditMode::BlockingStrict,
        Duration::from_millis(1),
    );
    let backends = Backends::start(&only_webhook(cfg)).unwrap();
    let err = backends
        .process(Arc::new(test_event("a")))
        .await
        .unwrap_err();
    assert_eq!(err.backend, "webhook");
    assert!(err.message.contains("status code 500"), "{err}");
    assert_eq!(server.received().len(), 5);
    let s = &backends.stats()[0];
    assert_eq!((s.written, s.errors), (0, 1));
    // Blocking (not strict) logs and goes on.
    server.answers.lock().unwrap().extend([500; 5]);
    let cfg = webhook_config(
        server.client(),
        AuditMode::Blocking,
        Duration::from_millis(1),
    );
    let backends = Backends::start(&only_webhook(cfg)).unwrap();
    backends.process(Arc::new(test_event("b"))).await.unwrap();
    assert_eq!(backends.stats()[0].errors, 1);
}

#[tokio::test]
async fn an_untrusted_server_fails() {
    let server = Server::start().await;
    let other = Server::start().await;
    let mut client = server.client();
    client.ca_pem = Some(other.ca_pem.clone());
    let cfg = webhook_config(client, AuditMode::BlockingStrict, Duration::from_millis(1));
    let backends = Backends::start(&only_webhook(cfg)).unwrap();
    let err = backends
        .process(Arc::new(test_event("a")))
        .await
        .unwrap_err();
    assert!(err.message.contains("certificate"), "{err}");
    assert!(server.received().is_empty());
}

#[tokio::test]
async fn a_bad_client_config_names_the_file() {
    let mut client = WebhookClientConfig {
        file: "/etc/audit-webhook.kubeconfig".into(),
        server: "https://127.0.0.1:1/audit".into(),
        ca_pem: Some("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".into()),
        insecure_skip_tls_verify: false,
        tls_server_name: None,
        client_cert_key_pem: None,
        bearer_token: None,
    };
    let cfg = webhook_config(client.clone(), AuditMode::Batch, Duration::from_secs(1));
    let err = Backends::start(&only_webhook(cfg)).err().unwrap();
    assert!(matches!(err, BackendError::Webhook { .. }));
    let text = err.to_string();
    assert!(
        text.starts_with("audit webhook \"/etc/audit-webhook.kubeconfig\": "),
        "{text}"
    );
    client.ca_pem = None;
    client.insecure_skip_tls_verify = true;
    client.bearer_token = Some("bad\ntoken".into());
    let cfg = webhook_config(client, AuditMode::Batch, Duration::from_secs(1));
    let err = Backends::start(&only_webhook(cfg)).err().unwrap();
    assert!(err.to_string().contains("token"), "{err}");
}
