//! Tests of `webhook`.

use super::*;

#[test]
fn upstream_wording_and_retries() {
    let e = status_error(StatusCode::INTERNAL_SERVER_ERROR, b"boom", false);
    assert_eq!(
        e.to_string(),
        "an error on the server (\"boom\") has prevented the request from succeeding"
    );
    assert!(e.retriable());
    assert!(status_error(StatusCode::TOO_MANY_REQUESTS, b"", false).retriable());
    assert!(status_error(StatusCode::GATEWAY_TIMEOUT, b"", false).retriable());
    assert!(!status_error(StatusCode::BAD_REQUEST, b"", false).retriable());
    assert!(status_error(StatusCode::SERVICE_UNAVAILABLE, b"", true).retriable());
    let status = br#"{"kind":"Status","message":"nope","code":403}"#;
    assert_eq!(
        status_error(StatusCode::FORBIDDEN, status, false).to_string(),
        "nope"
    );
    assert_eq!(
        with_timeout_query("https://h/authorize", REQUEST_TIMEOUT),
        "https://h/authorize?timeout=30s"
    );
    assert_eq!(
        with_timeout_query("https://h/a?x=1", REQUEST_TIMEOUT),
        "https://h/a?x=1&timeout=30s"
    );
    let d = jittered(Duration::from_millis(500), 0.2);
    assert!(d >= Duration::from_millis(500) && d <= Duration::from_millis(600));
}

#[tokio::test]
async fn refused_connection_fails_at_once() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    drop(listener);
    let client = WebhookClient::new(&WebhookClientConfig {
        file: "k".into(),
        server: format!("https://127.0.0.1:{port}/review"),
        ca_pem: None,
        insecure_skip_tls_verify: true,
        tls_server_name: None,
        client_cert_key_pem: None,
        bearer_token: Some("t".into()),
    })
    .expect("client");
    let started = std::time::Instant::now();
    let err = client
        .post(&serde_json::json!({}))
        .await
        .expect_err("refused");
    assert!(started.elapsed() < Duration::from_millis(400), "retried");
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "Post \"https://127.0.0.1:{port}/review?timeout=30s\": "
        )),
        "{text}"
    );
    assert!(
        text.ends_with(&format!(
            "dial tcp 127.0.0.1:{port}: connect: connection refused"
        )),
        "{text}"
    );
}
