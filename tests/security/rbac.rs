//! Authentication, authorization and impersonation through kubectl: RBAC by default,
//! the impersonation headers, the static token file.

use std::time::{Duration, Instant};

use super::harness::{self, require_tool, Server};
use super::setup;

/// kubectl as a user that authenticates with `token` only (no client certificate). The
/// discovery cache is kept per server (kubectl cannot read discovery while impersonating
/// someone it may not: client-go reports that 403 as "unknown", as against
/// kube-apiserver).
fn as_token_user(server: &harness::Server, token: &str, args: &[&str]) -> std::process::Output {
    let empty = tempfile::NamedTempFile::new().expect("empty kubeconfig");
    let cache = server
        .kubeconfig()
        .with_file_name("token-user-kubectl-cache");
    let url = format!("https://127.0.0.1:{}", server.port);
    std::process::Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(empty.path())
        .arg("--cache-dir")
        .arg(&cache)
        .args([
            "--server",
            &url,
            "--token",
            token,
            "--certificate-authority",
        ])
        .arg(server.pki("ca.crt"))
        .args(args)
        .output()
        .expect("run kubectl")
}

/// Polls `check` (a kubectl run) until it holds, for at most 10 s; returns how long.
fn until(what: &str, mut check: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < Duration::from_secs(10), "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
    start.elapsed()
}

/// With no flags, RBAC decides every request (`--authorization-mode=Node,RBAC`, as under
/// kubeadm): anonymous reaches health and version only, a service account only what is
/// bound to it, a binding takes effect as soon as it is written and stops when it is
/// deleted, and the admin kubeconfig (system:masters) may do everything.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rbac_decides_every_request_by_default() {
    let Some((server, k)) = setup().await else {
        return;
    };
    for path in ["/version", "/healthz", "/livez", "/readyz"] {
        let r = server
            .request(http::Method::GET, path, b"", true, true)
            .await
            .expect("anonymous");
        assert_eq!(r.status, 200, "anonymous GET {path}: {}", r.text());
    }
    let r = server
        .request(
            http::Method::GET,
            "/api/v1/namespaces/kube-system/secrets",
            b"",
            true,
            true,
        )
        .await
        .expect("anonymous");
    assert_eq!(r.status, 403);
    assert_eq!(
        r.json()["message"],
        "secrets is forbidden: User \"system:anonymous\" cannot list resource \"secrets\" in API group \"\" in the namespace \"kube-system\""
    );
    let ns = br#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"sneaky"}}"#;
    let r = server
        .request(http::Method::POST, "/api/v1/namespaces", ns, true, true)
        .await
        .expect("anonymous");
    assert_eq!(r.status, 403, "{}", r.text());
    let r = server
        .request(http::Method::GET, "/api", b"", true, true)
        .await
        .expect("anonymous");
    assert_eq!(r.status, 403, "discovery is for authenticated users");

    k.ok(&["create", "namespace", "team"]);
    k.ok(&["create", "serviceaccount", "robot", "-n", "team"]);
    let token = k.ok(&["create", "token", "robot", "-n", "team"]);
    let token = token.trim();
    let get_pods = || as_token_user(&server, token, &["get", "pods", "-n", "team"]);
    let out = get_pods();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "pods is forbidden: User \"system:serviceaccount:team:robot\" cannot list resource \"pods\" in API group \"\" in the namespace \"team\""
        ),
        "{out:?}"
    );
    let can_i = |verb: &str| {
        let out = as_token_user(
            &server,
            token,
            &["auth", "can-i", verb, "pods", "-n", "team"],
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    assert_eq!(can_i("list"), "no");

    k.ok(&[
        "create",
        "rolebinding",
        "robot-view",
        "--clusterrole=view",
        "--serviceaccount=team:robot",
        "-n",
        "team",
    ]);
    let took = until("the binding allows", || get_pods().status.success());
    println!("a new RoleBinding took effect after {took:?}");
    assert_eq!(can_i("list"), "yes");
    assert_eq!(can_i("delete"), "no");
    let out = as_token_user(&server, token, &["create", "configmap", "x", "-n", "team"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "configmaps is forbidden: User \"system:serviceaccount:team:robot\" cannot create resource \"configmaps\" in API group \"\" in the namespace \"team\""
        ),
        "view does not create: {out:?}"
    );

    k.ok(&["delete", "rolebinding", "robot-view", "-n", "team"]);
    until("the deleted binding stops allowing", || {
        !get_pods().status.success()
    });
    // The admin (system:masters) may do everything.
    k.ok(&["get", "secrets", "-n", "kube-system"]);
}

/// `kubectl --as` / `--as-group`: impersonation is authorized with the `impersonate` verb
/// for the real user, then the request runs as the impersonated one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn impersonation_needs_the_impersonate_verb() {
    let Some((server, k)) = setup().await else {
        return;
    };
    // The admin (system:masters) may impersonate anyone; alice may do nothing herself.
    let whoami = k.ok(&[
        "auth",
        "whoami",
        "--as=alice",
        "--as-group=devs",
        "-o",
        "json",
    ]);
    let review: serde_json::Value = serde_json::from_str(&whoami).expect("json");
    assert_eq!(review["status"]["userInfo"]["username"], "alice");
    assert_eq!(
        review["status"]["userInfo"]["groups"],
        serde_json::json!(["devs", "system:authenticated"])
    );
    let err = k.fails(&["get", "pods", "--as=alice"]);
    assert!(
        err.contains("pods is forbidden: User \"alice\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\""),
        "{err}"
    );

    k.ok(&["create", "serviceaccount", "robot"]);
    let token = k.ok(&["create", "token", "robot"]);
    let token = token.trim();
    // Discovery as robot itself (authenticated users may read it), cached for the rest.
    as_token_user(&server, token, &["api-resources"]);
    let out = as_token_user(&server, token, &["get", "pods", "--as=bob"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "users \"bob\" is forbidden: User \"system:serviceaccount:default:robot\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope"
        ),
        "{out:?}"
    );
    k.ok(&[
        "create",
        "clusterrole",
        "impersonate-bob",
        "--verb=impersonate",
        "--resource=users",
        "--resource-name=bob",
    ]);
    k.ok(&[
        "create",
        "clusterrolebinding",
        "robot-as-bob",
        "--clusterrole=impersonate-bob",
        "--serviceaccount=default:robot",
    ]);
    until("robot may impersonate bob", || {
        let out = as_token_user(&server, token, &["get", "pods", "--as=bob"]);
        String::from_utf8_lossy(&out.stderr).contains("User \"bob\" cannot list resource \"pods\"")
    });
    // Only bob: another user, or a group, is still refused.
    let out = as_token_user(&server, token, &["get", "pods", "--as=carol"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("users \"carol\" is forbidden"),
        "{out:?}"
    );
    let out = as_token_user(
        &server,
        token,
        &["get", "pods", "--as=bob", "--as-group=system:masters"],
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("groups \"system:masters\" is forbidden"),
        "{out:?}"
    );

    // Groups without a user: upstream's plain-text 500.
    let r = server
        .request_with(
            http::Method::GET,
            "/api/v1/namespaces",
            &[("impersonate-group", "devs")],
            true,
            false,
        )
        .await
        .expect("request");
    assert_eq!(r.status, 500);
    assert_eq!(
        r.text(),
        "Internal Server Error: \"/api/v1/namespaces\": requested [{Group  devs    }] without impersonating a user\n"
    );
}

/// `--token-auth-file`: each token authenticates its user (in `system:authenticated` and
/// the file's groups); RBAC then decides; an unknown token is 401, never anonymous.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn static_token_file_users() {
    if !require_tool("kubectl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "s3cr3t-alice,alice,1001,\"devs,ops\"\n").expect("write");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .start()
        .await;
    let whoami = as_token_user(&server, "s3cr3t-alice", &["auth", "whoami", "-o", "json"]);
    assert!(whoami.status.success(), "{whoami:?}");
    let review: serde_json::Value = serde_json::from_slice(&whoami.stdout).expect("json");
    let info = &review["status"]["userInfo"];
    assert_eq!(
        (info["username"].as_str(), info["uid"].as_str()),
        (Some("alice"), Some("1001"))
    );
    assert_eq!(
        info["groups"],
        serde_json::json!(["devs", "ops", "system:authenticated"])
    );
    let out = as_token_user(
        &server,
        "s3cr3t-alice",
        &["get", "secrets", "-n", "kube-system"],
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "secrets is forbidden: User \"alice\" cannot list resource \"secrets\" in API group \"\" in the namespace \"kube-system\""
        ),
        "{out:?}"
    );
    let out = as_token_user(&server, "wrong", &["get", "--raw", "/version"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Unauthorized"),
        "{out:?}"
    );
}
