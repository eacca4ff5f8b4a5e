//! The same limit gets the same `Status` over HTTP/1.1 and HTTP/2 (issue 15, "HTTP/2 and
//! limits"): a body over the 3 MiB limit is a 413 `RequestEntityTooLarge` (not a reset
//! stream), and a request whose body never ends is a 504 `Timeout` at `--request-timeout`.

use std::time::{Duration, Instant};

use http::Method;

use super::super::harness::Server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_the_limit_is_the_same_status_on_both_protocols() {
    let server = Server::builder().arg("--request-timeout=2s").start().await;
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
    let (tx, body) =
        http_body_util::channel::Channel::<bytes::Bytes, std::convert::Infallible>::new(1);
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

/// A header list well within the 1 MiB limit but sent, as nghttp2 sends it, in 16 KiB
/// frames (HEADERS and CONTINUATIONs) is served, and one over the limit gets a 431 on its
/// stream, the connection staying up (it ended with GOAWAY past 80 KiB when the server's
/// frames were 256 KiB: h2's CONTINUATION flood guard counts frames).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn header_lists_in_small_frames() {
    use super::engine::frames::{self, Raw, CONTINUATION, HEADERS};
    use std::sync::atomic::Ordering;

    let server = Server::builder().start().await;
    let target =
        super::engine::Target::new(server.port, server.pid(), &server.tls_config(&[], false));
    let send = |kb: usize, stream: u32| {
        let field = "v".repeat(15 << 10);
        let names: Vec<String> = (0..kb / 15).map(|i| format!("x-big-{i}")).collect();
        let extra: Vec<(&[u8], &[u8])> = names
            .iter()
            .map(|n| (n.as_bytes(), field.as_bytes()))
            .collect();
        let block = frames::request_block("GET", "/api/v1/namespaces/default", &extra);
        let mut out = Vec::new();
        let chunks: Vec<&[u8]> = block.chunks(16 << 10).collect();
        for (i, chunk) in chunks.iter().enumerate() {
            let last = i + 1 == chunks.len();
            let end_headers = if last { 0x4 } else { 0 };
            if i == 0 {
                frames::frame(&mut out, HEADERS, 0x1 | end_headers, stream, chunk);
            } else {
                frames::frame(&mut out, CONTINUATION, end_headers, stream, chunk);
            }
        }
        out
    };
    let report = |what: &str, seen: &frames::Seen| {
        eprintln!(
            "{what}: responses {} ok {} goaway {} resets {:?}",
            seen.responses.load(Ordering::Relaxed),
            seen.ok.load(Ordering::Relaxed),
            seen.goaway.load(Ordering::Relaxed),
            seen.resets.lock().map(|r| r.clone())
        );
    };
    let raw = Raw::open(&target, &[]).await.expect("connect");
    raw.send(&send(150, 1)).await.expect("send");
    // Over the limit (1.1 MiB in 71 frames): h2's 431 on the stream, then the connection
    // serves the next request.
    raw.send(&send(1125, 3)).await.expect("send");
    raw.send(&send(15, 5)).await.expect("send");
    let seen = &raw.seen;
    let deadline = Instant::now() + Duration::from_secs(10);
    while seen.responses.load(Ordering::Relaxed) < 3
        && seen.goaway.load(Ordering::Relaxed) == 0
        && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    report("150 KiB, 1.1 MiB, 15 KiB", seen);
    assert_eq!(seen.goaway.load(Ordering::Relaxed), 0, "no GOAWAY");
    assert_eq!(seen.responses.load(Ordering::Relaxed), 3, "three answers");
    assert_eq!(
        seen.ok.load(Ordering::Relaxed),
        2,
        "two served, one refused"
    );
}
