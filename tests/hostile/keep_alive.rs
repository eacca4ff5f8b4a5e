//! Regression tests for two defects the first fuzzing pass found on kept-alive HTTP/1.1
//! connections: a request answered before its body was read (415, 406, a bad query
//! parameter) cost the client its next request, and hyper's own answers to unparsable
//! request heads (a URI over 64 KiB, a head over 1 MiB, a malformed request line) had no
//! `Status` body.

use super::client::{H1Conn, RawResponse};
use crate::harness::Server;

/// A POST of a ConfigMap whose `data.a` is `size` bytes, with extra headers and query.
fn post(query: &str, headers: &str, size: usize) -> Vec<u8> {
    let body = format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"unread"}},"data":{{"a":"{}"}}}}"#,
        "x".repeat(size)
    );
    let mut req = format!(
        "POST /api/v1/namespaces/default/configmaps{query} HTTP/1.1\r\nHost: localhost\r\n{headers}Content-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    req.extend_from_slice(body.as_bytes());
    req
}

const GET: &[u8] =
    b"GET /api/v1/namespaces/default/configmaps?limit=1 HTTP/1.1\r\nHost: localhost\r\n\r\n";

fn assert_status(resp: &RawResponse, code: u16) {
    assert_eq!(resp.status, code, "{}", resp.text());
    let status: serde_json::Value = serde_json::from_slice(&resp.body)
        .unwrap_or_else(|e| panic!("a {code} without a JSON Status ({e}): {:?}", resp.text()));
    assert_eq!(status["kind"], "Status", "{status}");
    assert_eq!(status["code"], code, "{status}");
}

#[tokio::test]
async fn early_answers_keep_the_connection() {
    let server = Server::builder().start().await;
    let mut conn = H1Conn::open(&server).await.expect("connect");
    // Each early answer with a body of 10 KB to 200 KB, then a GET pipelined right
    // behind it: both answered, on the same connection, every round.
    let early: [(&str, &str, u16); 3] = [
        ("", "Content-Type: text/bogus\r\n", 415),
        (
            "",
            "Content-Type: application/json\r\nAccept: text/bogus\r\n",
            406,
        ),
        (
            "?fieldValidation=Sometimes",
            "Content-Type: application/json\r\n",
            400,
        ),
    ];
    for round in 0..60 {
        let (query, headers, code) = early[round % early.len()];
        let size = [10_000, 70_000, 200_000][round % 3];
        let mut requests = post(query, headers, size);
        requests.extend_from_slice(GET);
        let (answers, failed) = conn.exchange(&requests, &[false, false]).await;
        assert!(
            failed.is_none() && answers.len() == 2,
            "round {round} ({code}, {size} bytes): {} answer(s), then {failed:?}",
            answers.len()
        );
        assert_status(&answers[0], code);
        assert!(
            !answers[0].closes(),
            "round {round}: the connection was closed"
        );
        assert_eq!(answers[1].status, 200, "{}", answers[1].text());
    }
}

#[tokio::test]
async fn unparsable_heads_get_a_status() {
    let server = Server::builder().start().await;
    // A long name within the URI limit is an ordinary 404.
    let mut conn = H1Conn::open(&server).await.expect("connect");
    let name = "a".repeat(60_000);
    let req =
        format!("GET /api/v1/namespaces/default/configmaps/{name} HTTP/1.1\r\nHost: x\r\n\r\n");
    let (answers, failed) = conn.exchange(req.as_bytes(), &[false]).await;
    assert!(failed.is_none(), "{failed:?}");
    assert_status(&answers[0], 404);

    let long_uri = format!(
        "GET /api/v1/namespaces/default/configmaps/{name}{name} HTTP/1.1\r\nHost: x\r\n\r\n"
    );
    let huge_head = format!(
        "GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nX-Filler: {}\r\n\r\n",
        "f".repeat(2 << 20)
    );
    let cases: [(&[u8], u16); 4] = [
        (long_uri.as_bytes(), 414),
        (huge_head.as_bytes(), 431),
        (b"GE T / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nBad Header\r\n\r\n", 400),
    ];
    for (req, code) in cases {
        let mut conn = H1Conn::open(&server).await.expect("connect");
        let (answers, failed) = conn.exchange(req, &[false]).await;
        assert!(failed.is_none() && answers.len() == 1, "{code}: {failed:?}");
        assert_status(&answers[0], code);
        assert!(answers[0].closes(), "{code} must close the connection");
    }
}
