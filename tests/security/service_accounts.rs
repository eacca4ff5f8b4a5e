//! Service account tokens as a relying party outside the cluster sees them: the issuer
//! discovery document and key set, and a token from `kubectl create token` verified
//! against that key set by a JWT library that knows nothing of this server.

use std::time::Duration;

use super::harness::{require_tool, Server, BIN};

/// `/.well-known/openid-configuration` and `/openid/v1/jwks`: upstream's documents and
/// headers; readable by service accounts by default and by anonymous once an operator
/// binds `system:service-account-issuer-discovery` to `system:unauthenticated`; a token
/// `kubectl create token` made verifies against the published keys.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issuer_discovery_lets_outsiders_verify_tokens() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let anonymous_get = |path: &'static str| {
        let server = &server;
        async move {
            server
                .request(http::Method::GET, path, b"", true, true)
                .await
                .expect("request")
        }
    };
    let r = anonymous_get("/.well-known/openid-configuration").await;
    assert_eq!(r.status, 403, "{}", r.text());

    let out = server.kubectl(&[
        "create",
        "clusterrolebinding",
        "oidc-reviewer",
        "--clusterrole=system:service-account-issuer-discovery",
        "--group=system:unauthenticated",
    ]);
    assert!(out.status.success(), "{out:?}");
    let mut config = anonymous_get("/.well-known/openid-configuration").await;
    for _ in 0..100 {
        if config.status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        config = anonymous_get("/.well-known/openid-configuration").await;
    }
    assert_eq!(config.status, 200, "{}", config.text());
    assert_eq!(config.headers["content-type"], "application/json");
    assert_eq!(config.headers["cache-control"], "public, max-age=3600");
    let doc = config.json();
    assert_eq!(
        doc,
        serde_json::json!({
            "issuer": "https://kubernetes.default.svc.cluster.local",
            "jwks_uri": format!("https://127.0.0.1:{}/openid/v1/jwks", server.port),
            "response_types_supported": ["id_token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["ES256"],
        })
    );
    let jwks = anonymous_get("/openid/v1/jwks").await;
    assert_eq!(jwks.status, 200);
    assert_eq!(jwks.headers["content-type"], "application/jwk-set+json");
    let set: jsonwebtoken::jwk::JwkSet = serde_json::from_slice(&jwks.body).expect("a JWK set");
    // Only GET is served: anonymous may not even ask (403); the admin gets 405.
    let post =
        |anonymous| server.request(http::Method::POST, "/openid/v1/jwks", b"", true, anonymous);
    assert_eq!(post(true).await.expect("post").status, 403);
    assert_eq!(post(false).await.expect("post").status, 405);

    let out = server.kubectl(&["create", "token", "default", "--audience=vault"]);
    assert!(out.status.success(), "{out:?}");
    let token = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let header = jsonwebtoken::decode_header(&token).expect("header");
    let jwk = set
        .find(header.kid.as_deref().expect("kid"))
        .expect("the token's key is published");
    let key = jsonwebtoken::DecodingKey::from_jwk(jwk).expect("key");
    let mut validation = jsonwebtoken::Validation::new(header.alg);
    validation.set_audience(&["vault"]);
    validation.set_issuer(&[doc["issuer"].as_str().expect("issuer")]);
    let claims = jsonwebtoken::decode::<serde_json::Value>(&token, &key, &validation)
        .expect("the token verifies against the published key set");
    assert_eq!(
        claims.claims["sub"],
        "system:serviceaccount:default:default"
    );
}

/// `--service-account-jwks-uri` is published as given, and must be an https URL; an issuer
/// that is not an https URL means no discovery endpoints, as upstream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jwks_uri_flag_and_non_url_issuers() {
    let out = std::process::Command::new(BIN)
        .arg("--service-account-jwks-uri=http://keys.example.com/jwks")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(64), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("service-account-jwks-uri requires https scheme, parsed as: http://keys.example.com/jwks"),
        "{err}"
    );

    let server = Server::builder()
        .arg("--service-account-jwks-uri=https://keys.example.com/jwks")
        .start()
        .await;
    let r = server.get("/.well-known/openid-configuration").await;
    assert_eq!(r.json()["jwks_uri"], "https://keys.example.com/jwks");

    let server = Server::builder()
        .arg("--service-account-issuer=kubernetes/serviceaccount")
        .start()
        .await;
    let r = server.get("/.well-known/openid-configuration").await;
    assert_eq!(r.status, 404, "{}", r.text());
}

/// Legacy service account tokens: a Secret of type `kubernetes.io/service-account-token`
/// gets its token, CA and namespace filled in; the token authenticates as the service
/// account and marks the Secret last-used; a Secret labelled invalid-since or deleted no
/// longer authenticates; deleting the ServiceAccount deletes its token Secrets, and a token
/// Secret for a ServiceAccount that does not exist is deleted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_token_secrets() {
    use super::rbac::{as_token_user, until};
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let k = |args: &[&str]| {
        let out = server.kubectl(args);
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let secret = |name: &str, sa: &str| {
        format!("apiVersion: v1\nkind: Secret\nmetadata:\n  name: {name}\n  annotations:\n    kubernetes.io/service-account.name: {sa}\ntype: kubernetes.io/service-account-token\n")
    };
    let apply = |yaml: String| {
        let out =
            super::harness::kubectl::Kubectl::new(&server).ok_stdin(&["apply", "-f", "-"], &yaml);
        assert!(!out.is_empty());
    };
    k(&["create", "serviceaccount", "builder"]);
    for name in ["builder-token", "builder-token-2", "builder-token-3"] {
        apply(secret(name, "builder"));
    }
    let field = |name: &str, path: &str| {
        let out = server.kubectl(&["get", "secret", name, "-o", &format!("jsonpath={{{path}}}")]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let decoded = |name: &str, key: &str| {
        use base64::Engine;
        let b64 = field(name, &format!(".data.{key}"));
        String::from_utf8(
            base64::engine::general_purpose::STANDARD
                .decode(b64)
                .unwrap_or_default(),
        )
        .unwrap_or_default()
    };
    until("the token controller fills the secrets", || {
        ["builder-token", "builder-token-2", "builder-token-3"]
            .iter()
            .all(|n| !decoded(n, "token").is_empty())
    });
    assert_eq!(decoded("builder-token", "namespace"), "default");
    assert_eq!(
        decoded("builder-token", "ca\\.crt"),
        std::fs::read_to_string(server.pki("ca.crt")).expect("ca")
    );
    let sa_uid = k(&["get", "sa", "builder", "-o", "jsonpath={.metadata.uid}"]);
    assert_eq!(
        field(
            "builder-token",
            ".metadata.annotations.kubernetes\\.io/service-account\\.uid"
        ),
        sa_uid
    );

    let token = decoded("builder-token", "token");
    let whoami = as_token_user(&server, &token, &["auth", "whoami", "-o", "json"]);
    assert!(whoami.status.success(), "{whoami:?}");
    let review: serde_json::Value = serde_json::from_slice(&whoami.stdout).expect("json");
    assert_eq!(
        review["status"]["userInfo"],
        serde_json::json!({
            "username": "system:serviceaccount:default:builder",
            "uid": sa_uid,
            "groups": ["system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"],
        })
    );
    until("the secret is marked last-used", || {
        !field(
            "builder-token",
            ".metadata.labels.kubernetes\\.io/legacy-token-last-used",
        )
        .is_empty()
    });

    // An invalidated or deleted secret's token no longer authenticates.
    let second = decoded("builder-token-2", "token");
    k(&[
        "label",
        "secret",
        "builder-token-2",
        "kubernetes.io/legacy-token-invalid-since=2025-01-01",
    ]);
    let out = as_token_user(&server, &second, &["auth", "whoami"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Unauthorized"),
        "{out:?}"
    );
    let third = decoded("builder-token-3", "token");
    k(&["delete", "secret", "builder-token-3"]);
    let out = as_token_user(&server, &third, &["auth", "whoami"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Unauthorized"),
        "{out:?}"
    );
    // A token that is not the secret's copy does not either.
    let forged = format!("{}x", &token[..token.len() - 1]);
    let out = as_token_user(&server, &forged, &["auth", "whoami"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Unauthorized"),
        "{out:?}"
    );

    // Secrets of missing or deleted service accounts go.
    apply(secret("orphan-token", "nobody"));
    let gone = |name: &str| !server.kubectl(&["get", "secret", name]).status.success();
    until("the orphan token secret is deleted", || {
        gone("orphan-token")
    });
    k(&["delete", "serviceaccount", "builder"]);
    until("the service account's token secrets are deleted", || {
        gone("builder-token") && gone("builder-token-2")
    });
}

/// `--enable-bootstrap-token-auth`: a `bootstrap-token-<id>` Secret in kube-system makes
/// `<id>.<secret>` authenticate as `system:bootstrap:<id>` in `system:bootstrappers` and
/// its extra groups; an expired token, one not for authentication, or a wrong secret is
/// 401.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bootstrap_tokens() {
    use super::rbac::as_token_user;
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder()
        .arg("--enable-bootstrap-token-auth")
        .start()
        .await;
    let k = super::harness::kubectl::Kubectl::new(&server);
    let token_secret = |id: &str, expiration: &str, usage: &str| {
        format!(
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: bootstrap-token-{id}\n  namespace: kube-system\ntype: bootstrap.kubernetes.io/token\nstringData:\n  token-id: {id}\n  token-secret: 0123456789abcdef\n  expiration: \"{expiration}\"\n  usage-bootstrap-authentication: \"{usage}\"\n  auth-extra-groups: system:bootstrappers:kubeadm:default-node-token\n"
        )
    };
    k.ok_stdin(
        &["apply", "-f", "-"],
        &token_secret("abcdef", "2999-01-01T00:00:00Z", "true"),
    );
    k.ok_stdin(
        &["apply", "-f", "-"],
        &token_secret("expire", "2001-01-01T00:00:00Z", "true"),
    );
    k.ok_stdin(
        &["apply", "-f", "-"],
        &token_secret("nousge", "2999-01-01T00:00:00Z", "false"),
    );
    let whoami = as_token_user(
        &server,
        "abcdef.0123456789abcdef",
        &["auth", "whoami", "-o", "json"],
    );
    assert!(whoami.status.success(), "{whoami:?}");
    let review: serde_json::Value = serde_json::from_slice(&whoami.stdout).expect("json");
    assert_eq!(
        review["status"]["userInfo"],
        serde_json::json!({
            "username": "system:bootstrap:abcdef",
            "groups": ["system:bootstrappers", "system:bootstrappers:kubeadm:default-node-token", "system:authenticated"],
        })
    );
    for refused in [
        "expire.0123456789abcdef",
        "nousge.0123456789abcdef",
        "abcdef.0123456789abcdee",
        "zzzzzz.0123456789abcdef",
    ] {
        let out = as_token_user(&server, refused, &["auth", "whoami"]);
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("Unauthorized"),
            "{refused}: {out:?}"
        );
    }
}
