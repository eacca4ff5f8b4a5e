//! Webhook token authentication and the Webhook authorizer through kubectl, against a
//! small HTTPS webhook on 127.0.0.1 (its own CA, made with rcgen) that answers
//! TokenReviews and SubjectAccessReviews from a table, and can be stopped.

use std::process::Output;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::harness::https::ReviewWebhook;
use super::harness::kubectl::Kubectl;
use super::harness::{alive, require_tool, Server, BIN};

/// The token table: token → the user it is (None: refused).
fn token_user(token: &str) -> Option<Value> {
    match token {
        "tok-jane" => Some(json!({"username": "jane", "uid": "u-7",
            "groups": ["webhook-users"], "extra": {"scopes": ["read", "write"]}})),
        _ => None,
    }
}

/// The permission table: (allowed, denied, reason) for a SubjectAccessReview spec.
fn decide(spec: &Value) -> (bool, bool, &'static str) {
    let attrs = &spec["resourceAttributes"];
    let user = spec["user"].as_str().unwrap_or("");
    match (user, attrs["verb"].as_str(), attrs["resource"].as_str()) {
        ("jane" | "bob", Some("list" | "get"), Some("pods")) => (true, false, "pods are fine"),
        ("jane" | "bob", Some("delete"), Some("pods")) => {
            (false, true, "the webhook says no deleting pods")
        }
        _ => (false, false, ""),
    }
}

fn answer(path: &str, review: &Value) -> Value {
    let mut out = json!({"apiVersion": review["apiVersion"], "kind": review["kind"]});
    if path == "/authn" {
        let token = review["spec"]["token"].as_str().unwrap_or("");
        out["status"] = match token_user(token) {
            Some(user) => json!({"authenticated": true, "user": user}),
            None => json!({"authenticated": false}),
        };
    } else {
        let (allowed, denied, reason) = decide(&review["spec"]);
        out["status"] = json!({"allowed": allowed, "denied": denied, "reason": reason});
    }
    out
}

/// A webhook on 127.0.0.1: `/authn` answers TokenReviews, `/authz` SubjectAccessReviews;
/// `/slow/...` answers as `/...`, ten seconds late.
async fn start_webhook() -> ReviewWebhook {
    ReviewWebhook::start(|path, review| async move {
        let path = match path.strip_prefix("/slow") {
            Some(rest) => {
                tokio::time::sleep(Duration::from_secs(10)).await;
                rest.to_owned()
            }
            None => path,
        };
        answer(&path, &review)
    })
    .await
}

/// kubectl as a user with only a bearer token.
fn as_token_user(server: &Server, token: &str, args: &[&str]) -> Output {
    let empty = tempfile::NamedTempFile::new().expect("empty kubeconfig");
    let cache = server
        .kubeconfig()
        .with_file_name(format!("kubectl-cache-{token}"));
    std::process::Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(empty.path())
        .arg("--cache-dir")
        .arg(&cache)
        .args(["--server", &server.url, "--token", token])
        .arg("--certificate-authority")
        .arg(server.pki("ca.crt"))
        .args(args)
        .output()
        .expect("run kubectl")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Polls `check` until it holds, for at most 10 s; returns how long.
fn until(what: &str, check: impl FnMut() -> bool) -> Duration {
    until_within(Duration::from_secs(10), what, check)
}

/// Polls `check` until it holds, for at most `limit`; returns how long.
fn until_within(limit: Duration, what: &str, mut check: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < limit, "never: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
    start.elapsed()
}

const UNAUTHORIZED: &str = "error: You must be logged in to the server (Unauthorized)";

/// A token nothing else knows is asked of the webhook (TokenReview v1 with the API
/// audiences) and authenticates its user in `system:authenticated`; a refused token is
/// 401; the webhook down: its users are 401 at once while the admin certificate and
/// static tokens keep working.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_token_authentication() {
    if !require_tool("kubectl") {
        return;
    }
    let webhook = start_webhook().await;
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "tok-alice,alice,1001\n").expect("write");
    let server = Server::builder()
        .arg(format!(
            "--authentication-token-webhook-config-file={}",
            webhook.kubeconfig(dir.path(), "/authn").display()
        ))
        .arg("--authentication-token-webhook-version=v1")
        .arg("--authentication-token-webhook-cache-ttl=1s")
        .arg(format!("--token-auth-file={}", tokens.display()))
        .start()
        .await;

    let whoami = as_token_user(&server, "tok-jane", &["auth", "whoami", "-o", "json"]);
    assert!(whoami.status.success(), "{whoami:?}");
    let review: Value = serde_json::from_slice(&whoami.stdout).expect("json");
    assert_eq!(
        review["status"]["userInfo"],
        json!({"username": "jane", "uid": "u-7",
            "groups": ["webhook-users", "system:authenticated"],
            "extra": {"scopes": ["read", "write"]}})
    );
    let sent = webhook.bodies("/authn");
    assert_eq!(
        sent[0],
        json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview",
            "metadata": {"creationTimestamp": null},
            "spec": {"token": "tok-jane", "audiences": ["https://kubernetes.default.svc.cluster.local"]},
            "status": {"user": {}}})
    );
    assert!(webhook
        .seen()
        .iter()
        .all(|(p, _)| p == "/authn?timeout=30s"));

    let refused = as_token_user(&server, "tok-nobody", &["get", "--raw", "/version"]);
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains(UNAUTHORIZED), "{refused:?}");
    // A static token is never sent to the webhook.
    let alice = as_token_user(&server, "tok-alice", &["auth", "whoami"]);
    assert!(alice.status.success(), "{alice:?}");
    assert!(!webhook
        .bodies("/authn")
        .iter()
        .any(|r| r["spec"]["token"] == "tok-alice"));

    webhook.stop();
    // Once the cached answers are gone (the token union's success, 10 s as upstream's
    // TokenSuccessCacheTTL, and the webhook's own, 1 s), the webhook's users are refused,
    // quickly.
    let took = until_within(
        Duration::from_secs(20),
        "a webhook user is refused with the webhook down",
        || {
            let started = Instant::now();
            let out = as_token_user(&server, "tok-jane", &["get", "--raw", "/version"]);
            let refused = stderr(&out).contains(UNAUTHORIZED);
            if refused {
                assert!(started.elapsed() < Duration::from_secs(5), "slow refusal");
            }
            refused
        },
    );
    eprintln!("webhook user refused {took:?} after the webhook stopped");
    let alice = as_token_user(&server, "tok-alice", &["auth", "whoami"]);
    assert!(alice.status.success(), "{alice:?}");
    Kubectl::new(&server).ok(&["get", "namespaces"]);
    assert!(alive(server.pid()), "the server stays up");
}

/// A webhook kubeconfig that cannot be used refuses the start, naming the file and what
/// is wrong, with the other flag errors.
#[test]
fn broken_webhook_kubeconfig_refuses_the_start() {
    let dir = tempfile::tempdir().expect("dir");
    let plain = dir.path().join("plain-http.kubeconfig");
    std::fs::write(
        &plain,
        "clusters:\n- name: w\n  cluster: {server: 'http://127.0.0.1:9/authz'}\n",
    )
    .expect("write");
    let garbage = dir.path().join("garbage.kubeconfig");
    std::fs::write(&garbage, "clusters: [").expect("write");
    let out = std::process::Command::new(BIN)
        .arg(format!(
            "--authentication-token-webhook-config-file={}",
            garbage.display()
        ))
        .arg(format!(
            "--authorization-webhook-config-file={}",
            plain.display()
        ))
        .arg("--authorization-mode=RBAC,Webhook")
        .arg("--request-timeout=never")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(64), "{out:?}");
    let err = stderr(&out);
    for want in [
        format!(
            "invalid value for --authentication-token-webhook-config-file: {}: not a kubeconfig",
            garbage.display()
        ),
        format!(
            "invalid value for --authorization-webhook-config-file: {}: server \"http://127.0.0.1:9/authz\" must be an https:// URL",
            plain.display()
        ),
        "--request-timeout".to_owned(),
    ] {
        assert!(err.contains(&want), "{want} not in:\n{err}");
    }
}

/// `--authorization-mode=Node,RBAC,Webhook`: what RBAC allows never reaches the webhook;
/// the rest is a SubjectAccessReview (v1, the user's groups and extra, the request's
/// attributes); the webhook allows one verb and denies another with its reason in the
/// 403; `kubectl auth can-i` (a SelfSubjectAccessReview in kube-api) agrees. The webhook
/// down: a request nobody else allows is upstream's 500 naming the failure, quickly;
/// RBAC and the admin certificate keep working.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_authorizer() {
    if !require_tool("kubectl") {
        return;
    }
    let webhook = start_webhook().await;
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "tok-bob,bob,1002\n").expect("write");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .arg(format!(
            "--authentication-token-webhook-config-file={}",
            webhook.kubeconfig(dir.path(), "/authn").display()
        ))
        .arg("--authorization-mode=Node,RBAC,Webhook")
        .arg(format!(
            "--authorization-webhook-config-file={}",
            webhook.kubeconfig(dir.path(), "/authz").display()
        ))
        .arg("--authorization-webhook-version=v1")
        .arg("--authorization-webhook-cache-authorized-ttl=1s")
        .arg("--authorization-webhook-cache-unauthorized-ttl=1s")
        .start()
        .await;

    let list = as_token_user(&server, "tok-jane", &["get", "pods", "-n", "default"]);
    assert!(list.status.success(), "{list:?}");
    let delete = as_token_user(
        &server,
        "tok-jane",
        &["delete", "pod", "web", "-n", "default"],
    );
    assert!(
        stderr(&delete).contains(
            "pods \"web\" is forbidden: User \"jane\" cannot delete resource \"pods\" in API group \"\" in the namespace \"default\": the webhook says no deleting pods"
        ),
        "{delete:?}"
    );
    let other = as_token_user(&server, "tok-jane", &["get", "secrets", "-n", "default"]);
    assert!(
        stderr(&other).contains(
            "secrets is forbidden: User \"jane\" cannot list resource \"secrets\" in API group \"\" in the namespace \"default\""
        ),
        "no opinion anywhere is a 403: {other:?}"
    );
    let can_i = |token: &str, verb: &str| {
        let out = as_token_user(
            &server,
            token,
            &["auth", "can-i", verb, "pods", "-n", "default"],
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    assert_eq!(can_i("tok-jane", "list"), "yes");
    assert_eq!(
        can_i("tok-jane", "delete"),
        "no - the webhook says no deleting pods"
    );

    let reviews = webhook.bodies("/authz");
    let list_review = reviews
        .iter()
        .find(|r| r["spec"]["resourceAttributes"]["verb"] == "list")
        .expect("the list was asked");
    assert_eq!(
        list_review,
        &json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
            "metadata": {"creationTimestamp": null},
            "spec": {"resourceAttributes": {"namespace": "default", "verb": "list",
                "version": "v1", "resource": "pods"},
                "user": "jane", "uid": "u-7", "groups": ["webhook-users", "system:authenticated"],
                "extra": {"scopes": ["read", "write"]}},
            "status": {"allowed": false}})
    );
    // RBAC allowed discovery and the self reviews: the webhook never heard of them.
    assert!(
        reviews
            .iter()
            .all(|r| r["spec"]["resourceAttributes"]["resource"] == "pods"
                || r["spec"]["resourceAttributes"]["resource"] == "secrets"),
        "{reviews:#?}"
    );

    webhook.stop();
    let started = Instant::now();
    let bob = as_token_user(&server, "tok-bob", &["get", "pods", "-n", "default"]);
    let took = started.elapsed();
    let err = stderr(&bob);
    assert!(
        err.contains("InternalError")
            && err.contains("Internal Server Error")
            && err.contains("/api/v1/namespaces/default/pods?limit=500")
            && err.contains(&format!("https://{}/authz?timeout=30s", webhook.addr())),
        "{bob:?}"
    );
    println!("with the webhook down, a request it would decide failed in {took:?}: {err}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    let no = can_i("tok-bob", "list");
    assert!(
        no.starts_with("no - ") && no.contains("/authz?timeout=30s"),
        "{no}"
    );
    let whoami = as_token_user(&server, "tok-bob", &["auth", "whoami"]);
    assert!(whoami.status.success(), "RBAC still decides: {whoami:?}");
    Kubectl::new(&server).ok(&["get", "pods", "-n", "default"]);
}

/// `--authorization-config`: a chain of named authorizers (Node, RBAC, then a webhook
/// asked only about pods by its CEL match condition, failing closed with
/// `failurePolicy: Deny`); the structured file refuses to go with `--authorization-mode`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authorization_config_file() {
    if !require_tool("kubectl") {
        return;
    }
    let webhook = start_webhook().await;
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "tok-bob,bob,1002\n").expect("write");
    let config = dir.path().join("authz.yaml");
    std::fs::write(
        &config,
        format!(
            "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: Node\n  name: node\n- type: RBAC\n  name: rbac\n- type: Webhook\n  name: pods-only\n  webhook:\n    timeout: 2s\n    authorizedTTL: 1s\n    unauthorizedTTL: 1s\n    subjectAccessReviewVersion: v1\n    matchConditionSubjectAccessReviewVersion: v1\n    failurePolicy: Deny\n    connectionInfo:\n      type: KubeConfigFile\n      kubeConfigFile: {}\n    matchConditions:\n    - expression: has(request.resourceAttributes) && request.resourceAttributes.resource == 'pods'\n",
            webhook.kubeconfig(dir.path(), "/authz").display()
        ),
    )
    .expect("write");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .arg(format!("--authorization-config={}", config.display()))
        .start()
        .await;
    let pods = as_token_user(&server, "tok-bob", &["get", "pods", "-n", "default"]);
    assert!(pods.status.success(), "{pods:?}");
    let secrets = as_token_user(&server, "tok-bob", &["get", "secrets", "-n", "default"]);
    assert!(
        stderr(&secrets)
            .contains("secrets is forbidden: User \"bob\" cannot list resource \"secrets\""),
        "{secrets:?}"
    );
    // A list's selectors reach the webhook as requirements (AuthorizeWithSelectors).
    let selected = as_token_user(
        &server,
        "tok-bob",
        &[
            "get",
            "pods",
            "-n",
            "default",
            "-l",
            "app in (web,api),!canary",
            "--field-selector",
            "spec.nodeName=n1",
        ],
    );
    assert!(selected.status.success(), "{selected:?}");
    let reviews = webhook.bodies("/authz");
    assert!(!reviews.is_empty());
    assert!(
        reviews
            .iter()
            .all(|r| r["spec"]["resourceAttributes"]["resource"] == "pods"),
        "the match condition keeps everything but pods away from the webhook: {reviews:#?}"
    );
    let with_selectors = reviews
        .iter()
        .find(|r| {
            r["spec"]["resourceAttributes"]
                .get("labelSelector")
                .is_some()
        })
        .expect("a review with selectors");
    assert_eq!(
        with_selectors["spec"]["resourceAttributes"]["labelSelector"]["requirements"],
        json!([{"key": "app", "operator": "In", "values": ["web", "api"]},
            {"key": "canary", "operator": "DoesNotExist"}])
    );
    assert_eq!(
        with_selectors["spec"]["resourceAttributes"]["fieldSelector"]["requirements"],
        json!([{"key": "spec.nodeName", "operator": "In", "values": ["n1"]}])
    );
    // Down, with failurePolicy Deny: a pods request fails closed (500 naming the failure).
    webhook.stop();
    // The allow cached for 1 s expires; from then on the webhook is asked, and fails.
    until("the cached allow expires", || {
        !as_token_user(&server, "tok-bob", &["get", "pods", "-n", "default"])
            .status
            .success()
    });
    let started = Instant::now();
    let down = as_token_user(&server, "tok-bob", &["get", "pods", "-n", "default"]);
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    assert!(
        stderr(&down).contains("Internal Server Error") || stderr(&down).contains("InternalError"),
        "{down:?}"
    );
    // The admin (system:masters) is never asked about.
    let out = server.kubectl(&["get", "pods", "-n", "default"]);
    assert!(out.status.success(), "{out:?}");

    let out = std::process::Command::new(BIN)
        .arg(format!("--authorization-config={}", config.display()))
        .arg("--authorization-mode=RBAC")
        .output()
        .expect("run");
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined"),
        "{out:?}"
    );
}

/// A slow authorization webhook (`--authorization-config`, timeout 1s): a request it
/// would decide fails within about the timeout, closed (NoOpinion: the 403 of nobody
/// allowing, with the timeout as the error makes it upstream's 500), and requests others
/// decide are not held up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_authorization_webhook_times_out() {
    if !require_tool("kubectl") {
        return;
    }
    let webhook = start_webhook().await;
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "tok-bob,bob,1002\n").expect("write");
    std::fs::create_dir_all(dir.path().join("slow")).expect("dir");
    let config = dir.path().join("authz.yaml");
    std::fs::write(
        &config,
        format!(
            "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: rbac\n- type: Webhook\n  name: slow\n  webhook:\n    timeout: 1s\n    subjectAccessReviewVersion: v1\n    failurePolicy: NoOpinion\n    connectionInfo:\n      type: KubeConfigFile\n      kubeConfigFile: {}\n",
            webhook.kubeconfig(dir.path(), "/slow/authz").display()
        ),
    )
    .expect("write");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .arg(format!("--authorization-config={}", config.display()))
        .start()
        .await;
    let started = Instant::now();
    let pods = as_token_user(
        &server,
        "tok-bob",
        &["get", "--raw", "/api/v1/namespaces/default/pods"],
    );
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert!(
        stderr(&pods).contains("context deadline exceeded"),
        "{pods:?}"
    );
    // What RBAC decides never waits for the webhook.
    let started = Instant::now();
    let whoami = as_token_user(&server, "tok-bob", &["auth", "whoami"]);
    assert!(whoami.status.success(), "{whoami:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    println!("a 1s webhook timeout answered in {took:?}");
}

/// TokenReview of webhook tokens: the webhook is asked for the audiences of the review
/// (the API audiences when it names none), and a token is good for those it answers
/// (the API audiences when it names none); a webhook that fails is the review's error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_review_of_webhook_tokens() {
    use super::token_review::{refused, review, API_AUDIENCE};
    let webhook = start_webhook().await;
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::builder()
        .arg(format!(
            "--authentication-token-webhook-config-file={}",
            webhook.kubeconfig(dir.path(), "/authn").display()
        ))
        .arg("--authentication-token-webhook-version=v1")
        .start()
        .await;
    let jane = review(&server, "tok-jane", &[]).await;
    assert_eq!(
        jane["status"],
        json!({"authenticated": true, "audiences": [API_AUDIENCE],
            "user": {"username": "jane", "uid": "u-7",
                "groups": ["webhook-users", "system:authenticated"],
                "extra": {"scopes": ["read", "write"]}}})
    );
    let custom = review(&server, "tok-jane", &["custom"]).await;
    assert_eq!(custom["status"], refused("invalid bearer token"));
    let asked: Vec<Value> = webhook
        .bodies("/authn")
        .iter()
        .map(|r| r["spec"]["audiences"].clone())
        .collect();
    assert!(asked.contains(&json!([API_AUDIENCE])), "{asked:?}");
    assert!(asked.contains(&json!(["custom"])), "{asked:?}");
    let nobody = review(&server, "tok-nobody", &[]).await;
    assert_eq!(nobody["status"], refused("invalid bearer token"));

    webhook.stop();
    let down = review(&server, "tok-someone", &[]).await;
    assert!(down["status"].get("authenticated").is_none(), "{down}");
    let error = down["status"]["error"].as_str().unwrap_or("");
    assert!(
        !error.is_empty() && error != "invalid bearer token",
        "{error}"
    );
}
