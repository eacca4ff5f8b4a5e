//! The baseline: a bare hyper (HTTP/1.1 and HTTP/2 by ALPN) + tokio-rustls server that
//! answers every request on every path with the same bytes and content type. It does
//! what the real server must do at the least — accept, TLS, parse, answer — and nothing
//! else, so "real / baseline" is the cost of everything the real server adds.

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http::header::{HeaderValue, CONTENT_TYPE};
use http::{Request, Response};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use rustls::ServerConfig;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

/// The fixed answer.
#[derive(Debug, Clone)]
pub struct Answer {
    /// Response body.
    pub body: Bytes,
    /// `Content-Type` of every response.
    pub content_type: HeaderValue,
    /// Answer AdmissionReviews instead: allow each, echoing its uid (a no-op admission
    /// webhook).
    pub admission_review: bool,
}

/// The allowing answer to an AdmissionReview request body.
fn allow(review: &[u8]) -> Bytes {
    let uid = serde_json::from_slice::<serde_json::Value>(review)
        .ok()
        .and_then(|r| r.pointer("/request/uid").cloned())
        .unwrap_or_default();
    let answer = serde_json::json!({
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "response": {"uid": uid, "allowed": true},
    });
    Bytes::from(answer.to_string())
}

/// Accepts connections on `listener` until the future is dropped. Per-connection
/// failures (handshake, reset) end that connection only.
pub async fn serve(listener: TcpListener, tls: Arc<ServerConfig>, answer: Answer) {
    let acceptor = TlsAcceptor::from(tls);
    let answer = Arc::new(answer);
    loop {
        let (tcp, _peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            // EMFILE and friends: keep serving the connections we have.
            Err(_) => {
                tokio::task::yield_now().await;
                continue;
            }
        };
        let acceptor = acceptor.clone();
        let answer = answer.clone();
        tokio::spawn(async move {
            if tcp.set_nodelay(true).is_err() {
                return;
            }
            let Ok(stream) = acceptor.accept(tcp).await else {
                return;
            };
            let service = service_fn(move |req: Request<Incoming>| {
                let answer = answer.clone();
                async move {
                    let body = if answer.admission_review {
                        use http_body_util::BodyExt;
                        let review = req.into_body().collect().await.map(|b| b.to_bytes());
                        allow(&review.unwrap_or_default())
                    } else {
                        answer.body.clone()
                    };
                    let mut resp = Response::new(Full::new(body));
                    resp.headers_mut()
                        .insert(CONTENT_TYPE, answer.content_type.clone());
                    Ok::<_, Infallible>(resp)
                }
            });
            let _ = auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
