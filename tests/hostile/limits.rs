//! The same limit gets the same `Status` over HTTP/1.1 and HTTP/2 (issue 15, "HTTP/2 and
//! limits"): a body over the 3 MiB limit is a 413 `RequestEntityTooLarge` (not a reset
//! stream), and a request whose body never ends is a 504 `Timeout` at `--request-timeout`.

use std::time::{Duration, Instant};

use http::Method;

use super::super::harness::Server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_the_limit_is_the_same_status_on_both_protocols() {
    let server = Server::builder()
        .arg("--request-timeout=2s")
        .start()
        .await;
    let path = "/api/v1/namespaces/default/configmaps";
    let big = serde_json::to_vec(&serde_json::json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "big"},
        "data": {"blob": "x".repeat(4 << 20)},
    }))
    .expect("json");
    for h2 in [false, true] {
        let reply = server
            .request_full(
                Method::POST,
                path,
                &[("content-type", "application/json")],
                &big,
                h2,
                false,
            )
            .await
            .unwrap_or_else(|e| panic!("h2={h2}: no answer to a 4 MiB body: {e}"));
        assert_eq!(reply.status, 413, "h2={h2}: {}", reply.text());
        let status = reply.json();
        assert_eq!(status["kind"], "Status", "h2={h2}");
        assert_eq!(status["reason"], "RequestEntityTooLarge", "h2={h2}");
        assert_eq!(
            status["message"], "Request entity too large: limit is 3145728",
            "h2={h2}"
        );
    }

    // A body that never ends: 504 at the request timeout over HTTP/2 as over HTTP/1.1
    // (hostile::slow_clients covers HTTP/1.1 at scale).
    let (tls, _) = server.connect(&[b"h2"], false).await.expect("connect");
    let (mut send, conn) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(tls),
    )
    .await
    .expect("handshake");
    tokio::spawn(conn);
    let (tx, body) = http_body_util::channel::Channel::<bytes::Bytes, std::convert::Infallible>::new(1);
    let req = http::Request::post(format!("https://localhost{path}"))
        .header("content-type", "application/json")
        .body(body)
        .expect("request");
    let started = Instant::now();
    let resp = tokio::time::timeout(Duration::from_secs(20), send.send_request(req))
        .await
        .expect("answered before the test's own timeout")
        .expect("a response, not a reset");
    drop(tx);
    assert_eq!(resp.status(), 504);
    assert!(started.elapsed() >= Duration::from_secs(2));
    let body = http_body_util::BodyExt::collect(resp.into_body())
        .await
        .expect("body")
        .to_bytes();
    let status: serde_json::Value = serde_json::from_slice(&body).expect("a Status");
    assert_eq!(status["reason"], "Timeout");
    assert_eq!(
        status["message"],
        "Timeout: request did not complete within the allotted timeout"
    );
}
