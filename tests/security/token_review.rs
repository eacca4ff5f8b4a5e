//! TokenReview answered by the whole token authenticator union (static tokens, service
//! account and bootstrap tokens here; OIDC in `oidc.rs`, the webhook in `webhook.rs`),
//! with audiences, in upstream's shape; bad input gets the Status errors it always got.

use bytes::Bytes;
use http::Method;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde_json::{json, Value};

use super::harness::kubectl::Kubectl;
use super::harness::{Reply, Server};

/// The path TokenReviews are posted to.
pub(super) const REVIEWS: &str = "/apis/authentication.k8s.io/v1/tokenreviews";
/// The API audiences by default (the default service account issuer).
pub(super) const API_AUDIENCE: &str = "https://kubernetes.default.svc.cluster.local";

/// POSTs `body` to `path` as the admin over HTTP/2 with `headers`.
pub(super) async fn post(
    server: &Server,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    let (tls, _) = server.connect(&[b"h2"], false).await.expect("connect");
    let (mut send, conn) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(tls))
            .await
            .expect("handshake");
    tokio::spawn(conn);
    let mut req = Request::builder()
        .method(Method::POST)
        .uri(format!("https://localhost:{}{path}", server.port));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let req = req
        .body(Full::new(Bytes::copy_from_slice(body)))
        .expect("request");
    let resp = send.send_request(req).await.expect("send");
    let (status, version, headers) = (resp.status(), resp.version(), resp.headers().clone());
    let body = resp.into_body().collect().await.expect("body").to_bytes();
    Reply {
        status,
        headers,
        body,
        version,
    }
}

/// A TokenReview of `token` for `audiences` (none: the field is left out), as the admin.
pub(super) async fn review(server: &Server, token: &str, audiences: &[&str]) -> Value {
    let mut spec = json!({"token": token});
    if !audiences.is_empty() {
        spec["audiences"] = json!(audiences);
    }
    let body =
        json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview", "spec": spec});
    let reply = post(
        server,
        REVIEWS,
        &[("content-type", "application/json")],
        body.to_string().as_bytes(),
    )
    .await;
    assert_eq!(reply.status, 201, "{}", reply.text());
    let out = reply.json();
    assert_eq!(out["kind"], "TokenReview");
    assert_eq!(out["apiVersion"], "authentication.k8s.io/v1");
    assert_eq!(out["spec"], spec, "the spec is echoed");
    out
}

/// A refused review's status.
pub(super) fn refused(error: &str) -> Value {
    json!({"user": {}, "error": error})
}

/// Static tokens (audience-agnostic: only for the API audiences), service account tokens
/// (audience-aware), bootstrap tokens (audience-agnostic), garbage, and bad input.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_review_of_static_service_account_and_bootstrap_tokens() {
    if !super::harness::require_tool("kubectl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "tok-alice,alice,1001,\"devs,ops\"\n").expect("write");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .arg("--enable-bootstrap-token-auth")
        .start()
        .await;

    // A static token: its user, for the API audiences.
    let alice = review(&server, "tok-alice", &[]).await;
    assert_eq!(
        alice["status"],
        json!({"authenticated": true, "audiences": [API_AUDIENCE],
            "user": {"username": "alice", "uid": "1001",
                "groups": ["devs", "ops", "system:authenticated"]}})
    );
    let both = review(&server, "tok-alice", &["other", API_AUDIENCE]).await;
    assert_eq!(both["status"]["authenticated"], true);
    assert_eq!(both["status"]["audiences"], json!([API_AUDIENCE]));
    let other = review(&server, "tok-alice", &["other"]).await;
    assert_eq!(other["status"], refused("invalid bearer token"));

    // Garbage, and a JWT nobody issued.
    for junk in ["garbage", "a.b.c", "abcdef.0123456789abcdef"] {
        let out = review(&server, junk, &[]).await;
        assert_eq!(out["status"], refused("invalid bearer token"), "{junk}");
    }

    // A service account token: audience-aware.
    let k = Kubectl::new(&server);
    let mut sa_token = String::new();
    let start = std::time::Instant::now();
    while sa_token.is_empty() {
        let out = k.run(&["create", "token", "default", "-n", "default"]);
        if out.status.success() {
            sa_token = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        } else {
            assert!(
                start.elapsed().as_secs() < 15,
                "no default service account: {out:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
    let sa = review(&server, &sa_token, &[]).await;
    assert_eq!(sa["status"]["authenticated"], true, "{sa}");
    assert_eq!(
        sa["status"]["user"]["username"],
        "system:serviceaccount:default:default"
    );
    assert_eq!(sa["status"]["audiences"], json!([API_AUDIENCE]));
    let for_other = review(&server, &sa_token, &["other"]).await;
    assert!(
        for_other["status"].get("authenticated").is_none(),
        "{for_other}"
    );
    let error = for_other["status"]["error"].as_str().unwrap_or("");
    assert!(error.starts_with("[invalid bearer token, "), "{error}");

    // A bootstrap token: audience-agnostic.
    let secret = json!({"apiVersion": "v1", "kind": "Secret", "type": "bootstrap.kubernetes.io/token",
        "metadata": {"name": "bootstrap-token-abcdef", "namespace": "kube-system"},
        "stringData": {"token-id": "abcdef", "token-secret": "0123456789abcdef",
            "usage-bootstrap-authentication": "true"}});
    let file = dir.path().join("bootstrap.json");
    std::fs::write(&file, secret.to_string()).expect("write");
    k.ok(&["create", "-f", &file.display().to_string()]);
    let boot = review(&server, "abcdef.0123456789abcdef", &[]).await;
    assert_eq!(boot["status"]["authenticated"], true, "{boot}");
    assert_eq!(
        boot["status"]["user"]["username"],
        "system:bootstrap:abcdef"
    );
    assert_eq!(boot["status"]["audiences"], json!([API_AUDIENCE]));
    let boot_other = review(&server, "abcdef.0123456789abcdef", &["other"]).await;
    assert_eq!(boot_other["status"], refused("invalid bearer token"));

    // Bad input: the Status errors of before.
    let bad = |body: &'static str| {
        let server = &server;
        async move {
            let reply = post(
                server,
                REVIEWS,
                &[("content-type", "application/json")],
                body.as_bytes(),
            )
            .await;
            assert_eq!(reply.status, 400, "{body}: {}", reply.text());
            let status = reply.json();
            assert_eq!(status["kind"], "Status");
            assert_eq!(status["reason"], "BadRequest");
            status["message"].as_str().unwrap_or("").to_owned()
        }
    };
    let message = bad("not json").await;
    assert_eq!(
        message,
        "the object provided is unrecognized (must be of type TokenReview): couldn't get version/kind; json parse error: invalid character 'o' in literal null (expecting 'u') (6e6f74206a736f6e)"
    );
    assert_eq!(
        bad(r#"{"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","spec":{}}"#).await,
        "token is required for TokenReview in authentication"
    );
    assert_eq!(
        bad(r#"{"apiVersion":"v1","kind":"Pod","spec":{"token":"tok-alice"}}"#).await,
        "Pod in version \"v1\" cannot be handled as a TokenReview: converting (v1.Pod) to (authentication.TokenReview): unknown conversion"
    );
    assert_eq!(
        bad(r#"{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview","spec":{"token":"tok-alice"}}"#).await,
        "SelfSubjectReview in version \"v1\" cannot be handled as a TokenReview: converting (v1.SelfSubjectReview) to (authentication.TokenReview): unknown conversion"
    );

    // The answer in the media type asked for.
    let body = json!({"kind": "TokenReview", "apiVersion": "authentication.k8s.io/v1",
        "spec": {"token": "tok-alice"}})
    .to_string();
    let yaml = post(
        &server,
        REVIEWS,
        &[
            ("content-type", "application/json"),
            ("accept", "application/yaml"),
        ],
        body.as_bytes(),
    )
    .await;
    assert_eq!(yaml.status, 201);
    assert_eq!(yaml.headers["content-type"], "application/yaml");
    assert!(yaml.text().contains("username: alice"), "{}", yaml.text());
    let proto = post(
        &server,
        REVIEWS,
        &[
            ("content-type", "application/json"),
            ("accept", "application/vnd.kubernetes.protobuf"),
        ],
        body.as_bytes(),
    )
    .await;
    assert_eq!(proto.status, 201);
    assert_eq!(
        proto.headers["content-type"],
        "application/vnd.kubernetes.protobuf"
    );
    assert!(proto.body.starts_with(b"k8s\0"));
    let yaml_in = post(
        &server,
        REVIEWS,
        &[("content-type", "application/yaml")],
        b"kind: TokenReview\napiVersion: authentication.k8s.io/v1\nspec:\n  token: tok-alice\n",
    )
    .await;
    assert_eq!(yaml_in.status, 201, "{}", yaml_in.text());
    assert_eq!(yaml_in.json()["status"]["user"]["username"], "alice");

    // Through kubectl: the admin may review; a user without `create tokenreviews` may not.
    let review_file = dir.path().join("review.json");
    std::fs::write(&review_file, &body).expect("write");
    let review_file = review_file.display().to_string();
    let out: Value =
        serde_json::from_str(&k.ok(&["create", "-f", &review_file, "-o", "json"])).expect("json");
    assert_eq!(out["status"]["user"]["username"], "alice");
    let denied = super::rbac::as_token_user(
        &server,
        "tok-alice",
        &["create", "--validate=false", "-f", &review_file],
    );
    let stderr = String::from_utf8_lossy(&denied.stderr);
    assert!(
        stderr.contains(
            "cannot create resource \"tokenreviews\" in API group \"authentication.k8s.io\""
        ),
        "{stderr}"
    );
}
