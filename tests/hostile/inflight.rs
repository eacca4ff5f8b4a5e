//! `--max-requests-inflight` and `--max-mutating-requests-inflight` against clients that
//! hold their slots: a POST whose body never comes, LISTs whose responses are never read.
//! As kube-apiserver's max-in-flight filter: the next request of the kind gets 429 with
//! `Retry-After: 1` (a plain-text body, as upstream's `http.Error`), `system:masters` and long-running requests
//! are exempt, and a slot is free again once its request ended — a response counts until
//! it is sent, as upstream's handler holds the slot while it writes, and one still being
//! sent at `--request-timeout` is cut off.

use std::time::{Duration, Instant};

use http::Method;
use tokio::io::AsyncWriteExt;

use super::super::harness::{Reply, Server};
use super::setup::serial;

const TOKEN: &str = "tok-limited";

/// A request as the token user over a fresh HTTP/1.1 connection.
async fn as_user(server: &Server, method: Method, path: &str, body: &[u8]) -> Reply {
    with_token(server, TOKEN, method, path, body).await
}

/// A request with bearer `token` over a fresh HTTP/1.1 connection.
pub(super) async fn with_token(
    server: &Server,
    token: &str,
    method: Method,
    path: &str,
    body: &[u8],
) -> Reply {
    let auth = format!("Bearer {token}");
    let headers = [
        ("authorization", auth.as_str()),
        ("content-type", "application/json"),
    ];
    server
        .request_full(method, path, &headers, body, false, true)
        .await
        .expect("answered")
}

/// A connection that sent `head` (and no more) and is never read.
pub(super) async fn held(
    server: &Server,
    head: String,
) -> tokio_rustls::client::TlsStream<tokio::net::TcpStream> {
    // A small fixed receive window, so that what the server can push before it must wait
    // for a reader does not depend on the machine's TCP autotuning.
    let mut tls = server
        .connect_small_window(&[b"http/1.1"], 16 << 10)
        .await
        .expect("connect");
    tls.write_all(head.as_bytes()).await.expect("send");
    tls.flush().await.expect("flush");
    tls
}

/// A held request that took its seat: one answered at once (refused, because the seat of
/// the request before it was not yet given back when it came) is sent again.
async fn held_seat(
    server: &Server,
    head: String,
) -> tokio_rustls::client::TlsStream<tokio::net::TcpStream> {
    let mut buf = [0u8; 256];
    for _ in 0..20 {
        let mut conn = held(server, head.clone()).await;
        let answered = tokio::time::timeout(
            Duration::from_millis(300),
            tokio::io::AsyncReadExt::read(&mut conn, &mut buf),
        )
        .await;
        match answered {
            Ok(Ok(n)) if n > 0 => continue,
            _ => return conn,
        }
    }
    panic!("the held request was answered every time instead of holding its seat");
}

fn assert_too_many(reply: &Reply) {
    assert_eq!(reply.status, 429, "{}", reply.text());
    assert_eq!(
        reply.headers.get("retry-after").map(|v| v.as_bytes()),
        Some(&b"1"[..])
    );
    // Upstream's filter answers with Go's http.Error: plain text, not a Status.
    assert_eq!(
        reply.text().trim_end(),
        "Too many requests, please try again later."
    );
}

/// Asks for `path` as the token user until `done` holds for the answer, for up to 10 s;
/// the last answer.
async fn until(
    server: &Server,
    method: Method,
    path: &str,
    body: &[u8],
    done: impl Fn(&Reply) -> bool,
) -> Reply {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let reply = as_user(server, method.clone(), path, body).await;
        if done(&reply) || Instant::now() > deadline {
            return reply;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Asks until no longer refused (the held slots were given back).
async fn until_admitted(server: &Server, method: Method, path: &str, body: &[u8]) -> Reply {
    until(server, method, path, body, |r| r.status != 429).await
}

/// Asks until refused (the held requests have taken their slots).
async fn until_refused(server: &Server, method: Method, path: &str, body: &[u8]) -> Reply {
    until(server, method, path, body, |r| r.status == 429).await
}

#[test]
fn held_slots_refuse_others_with_429_until_they_end() {
    serial(async {
        let dir = tempfile::tempdir().expect("dir");
        let tokens = dir.path().join("tokens.csv");
        std::fs::write(&tokens, format!("{TOKEN},limited,3001\n")).expect("write");
        let server = Server::builder()
            .arg(format!("--token-auth-file={}", tokens.display()))
            .arg("--enable-priority-and-fairness=false")
            .arg("--max-requests-inflight=2")
            .arg("--max-mutating-requests-inflight=1")
            .arg("--request-timeout=5s")
            .start()
            .await;
        let out = server.kubectl(&[
            "create",
            "clusterrolebinding",
            "limited-edit",
            "--clusterrole=edit",
            "--user=limited",
        ]);
        assert!(out.status.success(), "{out:?}");
        let cm = |name: &str, size: usize| {
            serde_json::to_vec(&serde_json::json!({
                "apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": name},
                "data": {"blob": "x".repeat(size)},
            }))
            .expect("json")
        };
        let path = "/api/v1/namespaces/default/configmaps";
        let created = until_admitted(&server, Method::POST, path, &cm("first", 10)).await;
        assert_eq!(created.status, 201, "{}", created.text());

        // Mutating: one POST whose body never comes holds the only slot.
        let slow_post = held_seat(
            &server,
            format!(
                "POST {path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {TOKEN}\r\n\
                 content-type: application/json\r\ncontent-length: 1000\r\n\r\n{{\"kind\":"
            ),
        )
        .await;
        // Asked with dryRun (still a write), so that an attempt let in before the held
        // POST took its slot creates nothing.
        let dry_run = format!("{path}?dryRun=All");
        assert_too_many(&until_refused(&server, Method::POST, &dry_run, &cm("second", 10)).await);
        // Reads have their own limit; the admin (system:masters) is never limited.
        assert_eq!(as_user(&server, Method::GET, path, b"").await.status, 200);
        let admin = server
            .request(Method::POST, path, &cm("by-admin", 10), false, false)
            .await
            .expect("answered");
        assert_eq!(admin.status, 201, "{}", admin.text());
        drop(slow_post);
        let created = until_admitted(&server, Method::POST, path, &cm("second", 10)).await;
        assert_eq!(created.status, 201, "{}", created.text());

        // Read-only: two LISTs of 25 MiB nobody reads hold both slots (more than the
        // sockets and the delegation window take), while the response is being sent.
        for i in 0..28 {
            let big = server
                .request(
                    Method::POST,
                    path,
                    &cm(&format!("big-{i}"), 900 << 10),
                    false,
                    false,
                )
                .await
                .expect("answered");
            assert_eq!(big.status, 201, "{}", big.text());
        }
        let list = format!(
            "GET {path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {TOKEN}\r\n\
             accept: application/json\r\n\r\n"
        );
        let seats = |text: &str| {
            super::super::metrics::value(
                text,
                r#"apiserver_current_inflight_requests{request_kind="readOnly"}"#,
            )
        };
        // Rarely, on a loaded CI machine, no GET was refused while the LISTs were held
        // (seen twice in a few hundred runs, never here): a second try, once, with what
        // the first one saw — what the LISTs were answered and the seats /metrics
        // counted — for the report if that fails too.
        let mut tries = Vec::new();
        let unread = loop {
            let unread = [
                held(&server, list.clone()).await,
                held(&server, list.clone()).await,
            ];
            let reply = until_refused(&server, Method::GET, &format!("{path}/first"), b"").await;
            if reply.status == 429 {
                assert_too_many(&reply);
                break unread;
            }
            let mut answered = Vec::new();
            for mut conn in unread {
                let mut buf = vec![0u8; 512];
                let n = tokio::time::timeout(
                    Duration::from_secs(2),
                    tokio::io::AsyncReadExt::read(&mut conn, &mut buf),
                )
                .await;
                answered.push(match n {
                    Ok(Ok(n)) => String::from_utf8_lossy(&buf[..n]).into_owned(),
                    other => format!("{other:?}"),
                });
            }
            let text = server.get("/metrics").await.text();
            tries.push(format!(
                "GET answered {}; readOnly seats now {:?}; the LISTs began {answered:?}",
                reply.status,
                seats(&text)
            ));
            eprintln!(
                "held LISTs, try {}: {}",
                tries.len(),
                tries[tries.len() - 1]
            );
            assert!(
                tries.len() < 2,
                "no GET refused while two LISTs were held:\n{}",
                tries.join("\n")
            );
        };
        // Both read-only seats in use, as /metrics says once its next one-second tick
        // has published them.
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut text = server.get("/metrics").await.text();
        while seats(&text) != Some(2.0) && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
            text = server.get("/metrics").await.text();
        }
        assert_eq!(seats(&text), Some(2.0), "{text}");
        // Writes, the admin and watches (long-running) go on.
        let created = as_user(&server, Method::POST, path, &cm("third", 10)).await;
        assert_eq!(created.status, 201, "{}", created.text());
        let admin = server.get(&format!("{path}/first")).await;
        assert_eq!(admin.status, 200, "{}", admin.text());
        let watch = as_user(
            &server,
            Method::GET,
            &format!("{path}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dfirst"),
            b"",
        )
        .await;
        assert_eq!(watch.status, 200, "{}", watch.text());
        // At the request timeout (5 s) the unread responses are cut off, their slots
        // given back, and their HTTP/1 connections closed, as upstream aborts a handler
        // still writing.
        let got = until_admitted(&server, Method::GET, &format!("{path}/first"), b"").await;
        assert_eq!(got.status, 200, "{}", got.text());
        for mut conn in unread {
            let mut received = 0usize;
            let mut buf = vec![0u8; 1 << 16];
            let read_all = async {
                loop {
                    match tokio::io::AsyncReadExt::read(&mut conn, &mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => received += n,
                    }
                }
            };
            tokio::time::timeout(Duration::from_secs(10), read_all)
                .await
                .expect("the server closed the connection");
            assert!(
                received < 28 * (900 << 10),
                "cut off after {received} bytes"
            );
        }
    })
}
