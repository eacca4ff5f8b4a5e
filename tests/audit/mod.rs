//! Auditing (`--audit-policy-file` with `--audit-log-*` and `--audit-webhook-*`), black
//! box: the events kube-apiserver would write for kubectl's creates, reads, deletes and
//! refusals at each level, impersonation, failed authentication, a front-door panic and a
//! worker killed under a watch; standard output as JSON lines and a webhook receiving
//! batches.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::Method;
use http_body_util::{BodyExt, Full};
use serde_json::Value;

use super::harness::https::HttpsServer;
use super::harness::kubectl::Kubectl;
use super::harness::Server;

const POLICY: &str = r#"apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: None
    nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
  - level: Metadata
    resources: [{group: "", resources: [secrets]}]
  - level: RequestResponse
    resources: [{group: "", resources: [configmaps]}]
    omitManagedFields: true
  - level: Request
    resources: [{group: "", resources: [pods]}]
  - level: Metadata
"#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write file");
    path
}

/// The events in a JSON-lines file (a torn last line is left for the next read).
fn events(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Polls `path` until `pred` holds for some event, and returns that event.
async fn wait_event(path: &Path, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(e) = events(path).into_iter().find(|e| pred(e)) {
            return e;
        }
        assert!(
            Instant::now() < deadline,
            "no audit event {what}; events:\n{}",
            std::fs::read_to_string(path).unwrap_or_default()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn is(e: &Value, verb: &str, resource: &str, name: &str, stage: &str) -> bool {
    e["verb"] == verb
        && e["objectRef"]["resource"] == resource
        && e["objectRef"]["name"].as_str().unwrap_or("") == name
        && e["stage"] == stage
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_for_kubectl_at_each_level_and_for_refusals() {
    let dir = tempfile::tempdir().expect("tempdir");
    let policy = write(dir.path(), "policy.yaml", POLICY);
    let log = dir.path().join("logs/audit.log");
    let server = Server::builder()
        .arg(format!("--audit-policy-file={}", policy.display()))
        .arg(format!("--audit-log-path={}", log.display()))
        .env("KUBE_APISERVER_RS_FAILPOINTS", "panic")
        .start()
        .await;
    let kubectl = Kubectl::new(&server);

    // RequestResponse: both objects, managed fields left out, both stages.
    kubectl.ok(&["create", "configmap", "audited", "--from-literal=k=v"]);
    let created = wait_event(&log, "for the ConfigMap create", |e| {
        is(e, "create", "configmaps", "audited", "ResponseComplete")
    })
    .await;
    assert_eq!(created["kind"], "Event");
    assert_eq!(created["apiVersion"], "audit.k8s.io/v1");
    assert_eq!(created["level"], "RequestResponse");
    assert_eq!(created["responseStatus"]["code"], 201);
    assert_eq!(created["requestObject"]["data"]["k"], "v");
    assert_eq!(created["responseObject"]["data"]["k"], "v");
    assert!(created["responseObject"]["metadata"]["uid"].is_string());
    assert!(created["responseObject"]["metadata"]["managedFields"].is_null());
    assert_eq!(created["objectRef"]["namespace"], "default");
    assert_eq!(created["objectRef"]["apiVersion"], "v1");
    assert!(created["user"]["groups"]
        .as_array()
        .is_some_and(|g| g.iter().any(|g| g == "system:masters")));
    assert!(created["userAgent"]
        .as_str()
        .is_some_and(|a| a.starts_with("kubectl")));
    assert_eq!(created["sourceIPs"], serde_json::json!(["127.0.0.1"]));
    assert_eq!(
        created["annotations"]["authorization.k8s.io/decision"],
        "allow"
    );
    // system:masters is allowed before RBAC is asked, without a reason (upstream's
    // privileged-group authorizer).
    assert_eq!(created["annotations"]["authorization.k8s.io/reason"], "");
    let id = created["auditID"].as_str().expect("auditID").to_owned();
    let received = wait_event(&log, "RequestReceived of the create", |e| {
        e["auditID"] == id.as_str() && e["stage"] == "RequestReceived"
    })
    .await;
    assert!(received["requestObject"].is_null() && received["responseStatus"].is_null());
    assert_eq!(
        received["requestReceivedTimestamp"],
        created["requestReceivedTimestamp"]
    );
    assert!(created["stageTimestamp"].as_str() >= received["stageTimestamp"].as_str());

    kubectl.ok(&["get", "configmap", "audited", "-o", "json"]);
    let got = wait_event(&log, "for the ConfigMap get", |e| {
        is(e, "get", "configmaps", "audited", "ResponseComplete")
    })
    .await;
    assert_eq!(got["responseObject"]["data"]["k"], "v");
    assert!(got["requestObject"].is_null());

    // A failure's Status is the event's responseStatus.
    kubectl.fails(&["get", "configmap", "missing"]);
    let missing = wait_event(&log, "for the missing ConfigMap", |e| {
        is(e, "get", "configmaps", "missing", "ResponseComplete")
    })
    .await;
    assert_eq!(missing["responseStatus"]["code"], 404);
    assert_eq!(missing["responseStatus"]["reason"], "NotFound");
    assert_eq!(missing["responseStatus"]["status"], "Failure");
    assert_eq!(
        missing["responseStatus"]["message"],
        "configmaps \"missing\" not found"
    );

    kubectl.ok(&["delete", "configmap", "audited"]);
    wait_event(&log, "for the ConfigMap delete", |e| {
        is(e, "delete", "configmaps", "audited", "ResponseComplete")
            && e["responseStatus"]["code"] == 200
    })
    .await;

    // Metadata: no objects; the secret's value never reaches the log.
    kubectl.ok(&[
        "create",
        "secret",
        "generic",
        "hush",
        "--from-literal=p=hidden-value",
    ]);
    let secret = wait_event(&log, "for the Secret create", |e| {
        is(e, "create", "secrets", "hush", "ResponseComplete")
    })
    .await;
    assert_eq!(secret["level"], "Metadata");
    assert!(secret["requestObject"].is_null() && secret["responseObject"].is_null());
    let text = std::fs::read_to_string(&log).expect("log");
    assert!(!text.contains("hidden-value") && !text.contains("aGlkZGVuLXZhbHVl"));

    // Request level: the request object only.
    let pod = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}"#;
    kubectl.ok_stdin(&["create", "-f", "-"], pod);
    let created_pod = wait_event(&log, "for the Pod create", |e| {
        is(e, "create", "pods", "p1", "ResponseComplete")
    })
    .await;
    assert_eq!(created_pod["level"], "Request");
    assert_eq!(
        created_pod["requestObject"]["spec"]["containers"][0]["image"],
        "busybox"
    );
    // The object as decoded and defaulted, before admission and the create's own
    // fields, as upstream logs it.
    let logged = &created_pod["requestObject"];
    let container = &logged["spec"]["containers"][0];
    assert_eq!(container["imagePullPolicy"], "Always", "{logged}");
    assert_eq!(container["terminationMessagePath"], "/dev/termination-log");
    assert_eq!(logged["spec"]["restartPolicy"], "Always");
    assert_eq!(logged["spec"]["schedulerName"], "default-scheduler");
    assert_eq!(logged["status"], serde_json::json!({}));
    assert!(logged["metadata"]["uid"].is_null(), "{logged}");
    assert!(
        logged["spec"]["serviceAccountName"].is_null() && logged["spec"]["volumes"].is_null(),
        "admission's changes are not in the request object: {logged}"
    );
    assert!(created_pod["responseObject"].is_null());
    // Admission's annotations come back from the worker.
    assert_eq!(
        created_pod["annotations"]["pod-security.kubernetes.io/enforce-policy"],
        "privileged:latest"
    );

    // Impersonation: both users; the refusal's decision and Status.
    kubectl.fails(&["get", "pods", "--as=bob"]);
    let refused = wait_event(&log, "for bob's refused list", |e| {
        e["verb"] == "list"
            && e["impersonatedUser"]["username"] == "bob"
            && e["stage"] == "ResponseComplete"
    })
    .await;
    assert_ne!(refused["user"]["username"], "bob");
    assert_eq!(
        refused["annotations"]["authorization.k8s.io/decision"],
        "forbid"
    );
    assert_eq!(refused["responseStatus"]["code"], 403);
    assert_eq!(refused["responseStatus"]["reason"], "Forbidden");

    // Anonymous and refused; a bad token: one ResponseStarted event without a user.
    let reply = server
        .request(
            Method::GET,
            "/api/v1/namespaces/default/secrets",
            b"",
            true,
            true,
        )
        .await
        .expect("anonymous request");
    assert_eq!(reply.status, 403);
    wait_event(&log, "for the anonymous list", |e| {
        e["user"]["username"] == "system:anonymous"
            && e["objectRef"]["resource"] == "secrets"
            && e["responseStatus"]["code"] == 403
    })
    .await;
    let reply = server
        .request_with(
            Method::GET,
            "/api/v1/namespaces?bad-token",
            &[
                ("authorization", "Bearer not-a-token"),
                ("audit-id", "bad-token-request"),
            ],
            true,
            true,
        )
        .await
        .expect("request with a bad token");
    assert_eq!(reply.status, 401);
    assert_eq!(reply.headers["audit-id"], "bad-token-request");
    let failed = wait_event(&log, "for the bad token", |e| {
        e["auditID"] == "bad-token-request"
    })
    .await;
    assert_eq!(failed["stage"], "ResponseStarted");
    assert_eq!(failed["user"], serde_json::json!({}));
    assert_eq!(failed["responseStatus"]["code"], 401);
    assert_eq!(
        failed["responseStatus"]["message"],
        "Authentication failed, attempted: bearer"
    );
    let only: Vec<Value> = events(&log)
        .into_iter()
        .filter(|e| e["auditID"] == "bad-token-request")
        .collect();
    assert_eq!(only.len(), 1, "{only:?}");

    // A front-door panic: the Panic stage.
    let reply = server
        .request_with(
            Method::GET,
            "/debug/failpoints/panic/aggregator",
            &[("audit-id", "panicking-request")],
            true,
            false,
        )
        .await
        .expect("panicking request");
    assert_eq!(reply.status, 500);
    let panicked = wait_event(&log, "for the panic", |e| {
        e["auditID"] == "panicking-request" && e["stage"] == "Panic"
    })
    .await;
    assert_eq!(panicked["responseStatus"]["code"], 500);
    assert!(panicked["responseStatus"]["message"]
        .as_str()
        .is_some_and(|m| m.starts_with("APIServer panic'd: ")));

    // A back-end worker's panic: the Panic stage too, with the panic's text.
    let reply = server
        .request_with(
            Method::GET,
            "/debug/failpoints/panic/kube-api",
            &[("audit-id", "panicking-worker")],
            true,
            false,
        )
        .await
        .expect("panicking request");
    assert_eq!(reply.status, 500);
    assert!(!reply.headers.contains_key("x-kube-apiserver-rs-panic"));
    let panicked = wait_event(&log, "for the worker's panic", |e| {
        e["auditID"] == "panicking-worker" && e["stage"] == "Panic"
    })
    .await;
    assert_eq!(panicked["responseStatus"]["code"], 500);
    assert!(panicked["responseStatus"]["message"]
        .as_str()
        .is_some_and(|m| m.starts_with("APIServer panic'd: ")));
    assert!(!events(&log)
        .iter()
        .any(|e| e["auditID"] == "panicking-worker" && e["stage"] == "ResponseComplete"));

    // Health checks are not audited (the first rule).
    server.get("/healthz").await;
    server.get("/readyz?verbose").await;
    assert!(!events(&log).iter().any(|e| e["requestURI"]
        .as_str()
        .is_some_and(|u| u.starts_with("/healthz") || u.starts_with("/readyz"))));

    // The file is the operator's alone.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&log)
        .expect("log metadata")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_whose_worker_is_killed_completes_its_event_in_blocking_strict_mode() {
    let dir = tempfile::tempdir().expect("tempdir");
    let policy = write(
        dir.path(),
        "policy.yaml",
        "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: Metadata\n    verbs: [watch]\n",
    );
    let log = dir.path().join("audit.log");
    let server = Server::builder()
        .arg(format!("--audit-policy-file={}", policy.display()))
        .arg(format!("--audit-log-path={}", log.display()))
        .arg("--audit-log-mode=blocking-strict")
        .start()
        .await;
    let mut watch = Kubectl::new(&server)
        .command(&["get", "configmaps", "--watch", "-o", "name"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("kubectl --watch");
    let started = wait_event(&log, "ResponseStarted of the watch", |e| {
        e["verb"] == "watch" && e["stage"] == "ResponseStarted"
    })
    .await;
    assert_eq!(started["responseStatus"]["code"], 200);
    let id = started["auditID"].as_str().expect("auditID").to_owned();
    let kube_api = server.workers()["kube-api"];
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(kube_api as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .expect("kill the kube-api worker");
    let complete = wait_event(&log, "ResponseComplete of the cut watch", |e| {
        e["auditID"] == id.as_str() && e["stage"] == "ResponseComplete"
    })
    .await;
    assert_eq!(complete["verb"], "watch");
    let _ = watch.kill();
    let _ = watch.wait();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn standard_output_lines_and_webhook_batches() {
    let dir = tempfile::tempdir().expect("tempdir");
    let policy = write(
        dir.path(),
        "policy.yaml",
        "apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n  - level: None\n    nonResourceURLs: ['/healthz*', '/readyz*', '/livez*']\n  - level: Metadata\n",
    );
    let received: Arc<Mutex<Vec<Value>>> = Arc::default();
    let sink = received.clone();
    let webhook = HttpsServer::start(move |req: hyper::Request<hyper::body::Incoming>| {
        let sink = sink.clone();
        async move {
            let auth = req
                .headers()
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_owned();
            let body = req.into_body().collect().await?.to_bytes();
            if let Ok(v) = serde_json::from_slice::<Value>(&body) {
                sink.lock()
                    .expect("sink")
                    .push(serde_json::json!({"auth": auth, "list": v}));
            }
            Ok(hyper::Response::new(Full::new(Bytes::from_static(b"{}"))))
        }
    })
    .await;
    let kubeconfig = webhook.kubeconfig(dir.path(), "/audit");
    let stdout = dir.path().join("stdout");
    let server = Server::builder()
        .arg(format!("--audit-policy-file={}", policy.display()))
        .arg("--audit-log-path=-")
        .arg(format!(
            "--audit-webhook-config-file={}",
            kubeconfig.display()
        ))
        .arg("--audit-webhook-batch-max-wait=1s")
        .stdout_to(&stdout)
        .start()
        .await;
    let kubectl = Kubectl::new(&server);
    kubectl.ok(&["create", "namespace", "audited-ns"]);
    kubectl.ok(&["get", "namespace", "audited-ns"]);

    let line = wait_event(&stdout, "on standard output", |e| {
        is(e, "get", "namespaces", "audited-ns", "ResponseComplete")
    })
    .await;
    assert_eq!(line["level"], "Metadata");
    assert!(events(&stdout)
        .iter()
        .all(|e| e["stage"] != "RequestReceived"));

    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let got = received.lock().expect("received").clone();
        let items: Vec<&Value> = got
            .iter()
            .flat_map(|b| b["list"]["items"].as_array().into_iter().flatten())
            .collect();
        if items
            .iter()
            .any(|e| is(e, "get", "namespaces", "audited-ns", "ResponseComplete"))
        {
            let batch = &got[0];
            assert_eq!(batch["auth"], "Bearer apiserver-secret");
            assert_eq!(batch["list"]["kind"], "EventList");
            assert_eq!(batch["list"]["apiVersion"], "audit.k8s.io/v1");
            assert!(items.iter().any(|e| is(
                e,
                "create",
                "namespaces",
                "audited-ns",
                "ResponseComplete"
            )));
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no batch with the namespace get: {got:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_webhook_never_blocks_requests_in_batch_mode() {
    let dir = tempfile::tempdir().expect("tempdir");
    let policy = write(
        dir.path(),
        "policy.yaml",
        "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n  - level: RequestResponse\n",
    );
    // A webhook that was there once: its port now refuses connections.
    let webhook = HttpsServer::start(|_req: hyper::Request<hyper::body::Incoming>| async {
        Ok(hyper::Response::new(Full::new(Bytes::from_static(b"{}"))))
    })
    .await;
    let kubeconfig = webhook.kubeconfig(dir.path(), "/audit");
    drop(webhook);
    let server = Server::builder()
        .arg(format!("--audit-policy-file={}", policy.display()))
        .arg(format!(
            "--audit-webhook-config-file={}",
            kubeconfig.display()
        ))
        .arg("--audit-webhook-batch-max-wait=10ms")
        .arg("--audit-webhook-initial-backoff=10ms")
        .start()
        .await;
    let started = Instant::now();
    for _ in 0..50 {
        let reply = server.get("/api/v1/namespaces/default").await;
        assert_eq!(reply.status, 200);
    }
    // Fifty GETs on one machine take well under the webhook's retries; what matters is
    // that none waited for them.
    assert!(started.elapsed() < Duration::from_secs(10));
    let deadline = Instant::now() + Duration::from_secs(20);
    while !server.log().contains("not written") {
        assert!(
            Instant::now() < deadline,
            "no warning about the dead webhook:\n{}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // …and in the metrics: every request's level, both stages of each sent, the webhook's
    // failures counted against its plugin.
    let text = crate::metrics::scrape(&server).await;
    let metric = |series: &str| crate::metrics::value(&text, series).unwrap_or(0.0);
    assert!(
        metric(r#"apiserver_audit_level_total{level="RequestResponse"}"#) >= 50.0,
        "{text}"
    );
    assert!(metric("apiserver_audit_event_total") >= 100.0, "{text}");
    assert!(
        metric(r#"apiserver_audit_error_total{plugin="webhook"}"#) >= 1.0,
        "{text}"
    );
    assert_eq!(metric("apiserver_audit_requests_rejected_total"), 0.0);
}
