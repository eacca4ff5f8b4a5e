//! The process architecture, black box: the process tree, TLS, health with kube-apiserver's
//! semantics, routing down the chain, `Status` errors, flag validation, first-run
//! certificates and kubectl; kube-apiserver's command line (`flags`).

mod flags;
mod harness;

use std::io::{Read, Write};
use std::process::Command;

use harness::{Server, BIN};
use http::Method;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn process_tree_is_a_supervisor_and_a_worker_per_role() {
    let server = Server::builder().start().await;
    let workers = server.workers();
    // With no --etcd-servers the embedded store runs as a fourth worker.
    for role in ["aggregator", "kube-api", "extensions", "storage"] {
        assert!(
            workers.contains_key(role),
            "no {role} worker in {workers:?}"
        );
    }
    // Each worker runs in its own process: distinct pids, none the supervisor's.
    let mut pids: Vec<u32> = workers.values().copied().collect();
    pids.sort();
    pids.dedup();
    assert_eq!(pids.len(), workers.len());
    assert!(!pids.contains(&server.pid()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_negotiates_h2_and_http11_and_refuses_tls11() {
    let server = Server::builder().start().await;

    let (_, proto) = server
        .connect(&[b"h2", b"http/1.1"], false)
        .await
        .expect("h2");
    assert_eq!(proto.as_deref(), Some(&b"h2"[..]));
    let (_, proto) = server.connect(&[b"http/1.1"], false).await.expect("h1");
    assert_eq!(proto.as_deref(), Some(&b"http/1.1"[..]));

    let r = server
        .request(Method::GET, "/version", b"", true, false)
        .await
        .expect("h2 get");
    assert_eq!(r.version, http::Version::HTTP_2);
    let r = server
        .request(Method::GET, "/version", b"", false, false)
        .await
        .expect("h1 get");
    assert_eq!(r.version, http::Version::HTTP_11);
    assert_eq!(r.status, 200);

    // A TLS 1.1 ClientHello (no supported_versions extension) gets a fatal alert: rustls
    // answers handshake_failure (40), as it does for OpenSSL's `s_client -tls1_1`.
    let mut tcp = std::net::TcpStream::connect(("127.0.0.1", server.port)).expect("tcp");
    tcp.set_read_timeout(Some(std::time::Duration::from_secs(5)))
        .expect("timeout");
    tcp.write_all(&tls11_client_hello()).expect("hello");
    let mut reply = [0u8; 7];
    tcp.read_exact(&mut reply).expect("alert");
    assert_eq!(reply[0], 21, "expected an alert record, got {reply:?}");
    assert_eq!(reply[5], 2, "expected a fatal alert, got {reply:?}");
    assert!(
        matches!(reply[6], 40 | 70),
        "expected a version refusal, got {reply:?}"
    );
}

/// A minimal TLS 1.1 ClientHello with no extensions.
fn tls11_client_hello() -> Vec<u8> {
    let mut body = vec![0x03, 0x02];
    body.extend_from_slice(&[0x42; 32]); // random
    body.push(0); // session id
                  // TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: suites the
                  // server has, so the version is the only thing wrong.
    body.extend_from_slice(&[0x00, 0x04, 0xc0, 0x2b, 0xc0, 0x2f]);
    body.extend_from_slice(&[0x01, 0x00]); // null compression
    let mut hs = vec![0x01, 0, 0, body.len() as u8];
    hs.extend_from_slice(&body);
    let mut rec = vec![0x16, 0x03, 0x02, 0, hs.len() as u8];
    rec.extend_from_slice(&hs);
    rec
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn version_health_and_routing() {
    let server = Server::builder().start().await;

    let v = server.get("/version").await.json();
    assert_eq!(v["gitVersion"], "v1.33.0");
    assert_eq!(
        (v["major"].as_str(), v["minor"].as_str()),
        (Some("1"), Some("33"))
    );

    let r = server.get("/readyz").await;
    assert_eq!((r.status.as_u16(), r.text().as_str()), (200, "ok"));
    let verbose = server.get("/readyz?verbose").await.text();
    for line in [
        "[+]ping ok",
        "[+]log ok",
        "[+]worker-kube-api ok",
        "[+]worker-extensions ok",
        "[+]worker-storage ok",
        "[+]poststarthook/apiservice-discovery-controller ok",
        "[+]shutdown ok",
    ] {
        assert!(verbose.contains(line), "{line:?} missing from:\n{verbose}");
    }
    assert!(verbose.ends_with("readyz check passed\n"), "{verbose}");

    for path in [
        "/readyz/ping",
        "/livez/ping",
        "/healthz/log",
        "/readyz/worker-kube-api",
    ] {
        let r = server.get(path).await;
        assert_eq!(
            (r.status.as_u16(), r.text().as_str()),
            (200, "ok"),
            "{path}"
        );
    }
    let r = server
        .get("/readyz/poststarthook/apiservice-discovery-controller")
        .await;
    assert_eq!(r.status, 200);

    let r = server
        .get("/readyz?verbose&exclude=worker-extensions&exclude=nonexistent")
        .await;
    let text = r.text();
    assert_eq!(r.status, 200);
    assert!(text.contains("[+]worker-extensions excluded: ok"), "{text}");
    assert!(
        text.contains(
            "warn: some health checks cannot be excluded: no matches for \"nonexistent\""
        ),
        "{text}"
    );
    let livez = server.get("/livez?verbose").await.text();
    assert!(livez.ends_with("livez check passed\n"), "{livez}");
    assert!(!livez.contains("shutdown"), "{livez}");

    // Routed to kube-api, to extensions, and merged by the aggregator.
    let api = server.get("/api").await.json();
    assert_eq!(api["kind"], "APIVersions");
    assert_eq!(api["versions"][0], "v1");
    let group = server.get("/apis/apiextensions.k8s.io").await.json();
    assert_eq!(group["kind"], "APIGroup");
    assert_eq!(
        group["preferredVersion"]["groupVersion"],
        "apiextensions.k8s.io/v1"
    );
    let groups = server.get("/apis").await.json();
    assert_eq!(groups["kind"], "APIGroupList");
    assert!(groups["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .any(|g| g["name"] == "apiextensions.k8s.io"));

    // Unknown paths fall through the chain to Go's plain-text 404, with or without a
    // body (kube-apiserver's notfoundhandler); under a served group-version an unknown
    // resource is a 404 Status from the worker serving it.
    for (method, body) in [(Method::GET, &b""[..]), (Method::POST, &b"{\"a\":1}"[..])] {
        for path in [
            "/no/such/path",
            "/apis/apps/v9",
            "/apis/no.such.group/v1/things",
        ] {
            let r = server
                .request(method.clone(), path, body, true, false)
                .await
                .expect("request");
            assert_eq!(r.status, 404, "{method} {path}");
            assert_eq!(r.text(), "404 page not found\n", "{method} {path}");
            assert_eq!(r.headers["content-type"], "text/plain; charset=utf-8");
            assert_eq!(r.headers["x-content-type-options"], "nosniff");
            assert!(r.headers.contains_key("audit-id"));
            assert_eq!(r.headers["cache-control"], "no-cache, private");
        }
        for path in [
            "/api/v1/nosuchthings",
            "/apis/apps/v1/namespaces/default/nosuchthings",
        ] {
            let r = server
                .request(method.clone(), path, body, true, false)
                .await
                .expect("request");
            assert_eq!(r.status, 404, "{method} {path}");
            assert_eq!(r.headers["content-type"], "application/json");
            assert_eq!(
                r.json(),
                serde_json::json!({
                    "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                    "message": "the server could not find the requested resource",
                    "reason": "NotFound", "details": {}, "code": 404
                }),
                "{method} {path}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anonymous_requests_and_unverifiable_tokens() {
    let server = Server::builder().start().await;
    let r = server
        .request(Method::GET, "/version", b"", true, true)
        .await
        .expect("anonymous");
    assert_eq!(r.status, 200);

    let denied = Server::builder()
        .arg("--anonymous-auth=false")
        .start()
        .await;
    let r = denied
        .request(Method::GET, "/version", b"", false, true)
        .await
        .expect("anonymous");
    assert_eq!(r.status, 401);
    assert_eq!(r.json()["reason"], "Unauthorized");
    // Negotiated like any Status (upstream's authentication filter, ErrorNegotiated).
    let pb = [("accept", "application/vnd.kubernetes.protobuf")];
    let r = denied
        .request_with(Method::GET, "/api/v1/namespaces", &pb, true, true)
        .await
        .expect("anonymous");
    assert_eq!(r.status, 401);
    assert_eq!(
        r.headers["content-type"],
        "application/vnd.kubernetes.protobuf"
    );
    assert!(r.body.starts_with(b"k8s\0"), "{:?}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn authorization_denies_with_kube_apiserver_wording() {
    let server = Server::builder()
        .arg("--authorization-mode=AlwaysDeny")
        .spawn()
        .await;
    // Everything is denied except to system:masters, which kube-apiserver always lets
    // through (the admin kubeconfig sees readiness).
    server.wait_ready().await;
    let r = server
        .request(Method::GET, "/api", b"", false, true)
        .await
        .expect("request");
    assert_eq!(r.status, 403);
    assert_eq!(
        r.json()["message"],
        "forbidden: User \"system:anonymous\" cannot get path \"/api\": Everything is forbidden."
    );
    // responsewriters.Forbidden: negotiated, with nosniff.
    assert_eq!(r.headers["x-content-type-options"], "nosniff");
    let yaml = [("accept", "application/yaml")];
    let r = server
        .request_with(Method::GET, "/api", &yaml, true, true)
        .await
        .expect("request");
    assert_eq!(
        (r.status.as_u16(), &r.headers["content-type"]),
        (
            403,
            &"application/yaml"
                .parse::<http::HeaderValue>()
                .expect("value")
        )
    );
    assert!(r.text().contains("reason: Forbidden"), "{}", r.text());
}

#[test]
fn flag_errors_are_all_reported_with_exit_64() {
    let out = Command::new(BIN)
        .args([
            "--secure-port=70000",
            "--service-cluster-ip-range=10.0.0.0/abc",
            "--tls-cert-file=/nonexistent/tls.crt",
            "--tls-private-key-file=/nonexistent/tls.key",
            "--min-request-timeout=0",
            "--authorization-mode=Node,Foo,Node",
            "--token-auth-file=/nonexistent/tokens.csv",
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(64));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for message in [
        "authorization-mode \"Foo\" is not a valid mode",
        "authorization-mode [\"Node\" \"Foo\" \"Node\"] has mode specified more than once",
    ] {
        assert!(stderr.contains(message), "{message} not in:\n{stderr}");
    }
    for flag in [
        "--secure-port",
        "--service-cluster-ip-range",
        "--tls-cert-file",
        "--tls-private-key-file",
        "--min-request-timeout",
        "--token-auth-file",
    ] {
        assert!(stderr.contains(flag), "{flag} not named in:\n{stderr}");
    }

    for bad in [
        vec!["--secure-port=-1"],
        vec!["--service-cluster-ip-range=not-a-cidr"],
        vec!["--tls-min-version=VersionTLS99"],
        vec!["--request-timeout=forever"],
        // Priority and fairness shares out their sum (upstream: "must add up to
        // something positive"); without it, zero means no limit.
        vec![
            "--max-requests-inflight=0",
            "--max-mutating-requests-inflight=0",
        ],
    ] {
        let out = Command::new(BIN).args(&bad).output().expect("run");
        assert_eq!(out.status.code(), Some(64), "{bad:?}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let flag = bad[0].split('=').next().unwrap_or_default();
        assert!(stderr.contains(flag), "{flag} not named in:\n{stderr}");
    }
}

#[test]
fn help_groups_flags_like_kube_apiserver() {
    let out = Command::new(BIN).arg("--help").output().expect("run");
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for section in [
        "Generic flags:",
        "Etcd flags:",
        "Secure serving flags:",
        "Features flags:",
        "Authentication flags:",
        "Authorization flags:",
        "API enablement flags:",
        "Misc flags:",
    ] {
        assert!(help.contains(section), "{section} missing");
    }
    let out = Command::new(BIN).arg("--version").output().expect("run");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "Kubernetes v1.33.0"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_run_kubeconfig_works_with_kubectl_and_is_reused() {
    use std::os::unix::fs::PermissionsExt;
    let data = tempfile::tempdir().expect("tempdir");
    let dir = data.path().join("state");
    let (ca, serving) = {
        let server = Server::builder().data_dir(&dir).start().await;
        let out = server.kubectl(&["get", "--raw", "/readyz"]);
        assert!(out.status.success(), "{out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ok");
        let out = server.kubectl(&["version", "-o", "json"]);
        assert!(out.status.success(), "{out:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(v["serverVersion"]["gitVersion"], "v1.33.0");
        let out = server.kubectl(&["get", "--raw", "/nope"]);
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("the server could not find the requested resource"),
            "{out:?}"
        );
        for f in [
            "admin.kubeconfig",
            "pki/ca.key",
            "pki/ca.crt",
            "pki/admin.key",
            "pki/apiserver.key",
        ] {
            let mode = std::fs::metadata(dir.join(f))
                .expect(f)
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "{f}");
        }
        (
            std::fs::read(server.pki("ca.crt")).expect("ca"),
            std::fs::read(server.pki("apiserver.crt")).expect("serving"),
        )
    };
    let server = Server::builder().data_dir(&dir).start().await;
    assert_eq!(std::fs::read(server.pki("ca.crt")).expect("ca"), ca);
    assert_eq!(
        std::fs::read(server.pki("apiserver.crt")).expect("serving"),
        serving
    );
    let out = server.kubectl(&["get", "--raw", "/readyz"]);
    assert!(out.status.success(), "{out:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_handler_is_a_500_status_and_the_worker_survives() {
    let server = Server::builder()
        .env("KUBE_APISERVER_RS_FAILPOINTS", "panic")
        .start()
        .await;
    let before = server.workers();
    for role in ["aggregator", "kube-api", "extensions"] {
        let r = server.get(&format!("/debug/failpoints/panic/{role}")).await;
        assert_eq!(r.status, 500, "{role}");
        let status = r.json();
        assert_eq!(status["reason"], "InternalError");
        assert_eq!(
            status["message"],
            "This request caused apiserver to panic. Look in the logs for details."
        );
    }
    assert_eq!(server.get("/api").await.status, 200);
    assert_eq!(server.get("/apis/apiextensions.k8s.io").await.status, 200);
    assert_eq!(server.workers(), before, "no worker restarted");
    // Without the environment variable the failpoint is an ordinary unknown path.
    let plain = Server::builder().start().await;
    assert_eq!(
        plain.get("/debug/failpoints/panic/aggregator").await.status,
        404
    );
}

#[test]
fn systemd_unit_verifies() {
    if !harness::require_tool("systemd-analyze") {
        return;
    }
    let unit = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../systemd/kube-apiserver.service"
    ))
    .expect("unit");
    for line in [
        "Type=notify",
        "NotifyAccess=main",
        "ExecReload=/bin/kill -HUP $MAINPID",
        "KillMode=mixed",
        "Restart=on-failure",
        "StateDirectory=kube-apiserver",
        "RuntimeDirectory=kube-apiserver",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
    ] {
        assert!(unit.lines().any(|l| l == line), "{line} missing");
    }
    let secs = |key: &str| -> u64 {
        unit.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("{key} missing"))
    };
    // Stop timeout covers the default request timeout (60s) plus the shutdown delay (0s).
    assert!(secs("TimeoutStopSec=") > 60);
    assert!(secs("WatchdogSec=") > 0);

    let socket = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../systemd/kube-apiserver.socket"
    ))
    .expect("socket unit");
    assert!(socket.lines().any(|l| l == "FileDescriptorName=secure"));

    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("kube-apiserver.service");
    std::fs::write(&path, unit.replace("/usr/local/bin/kube-apiserver", BIN)).expect("write");
    let socket_path = dir.path().join("kube-apiserver.socket");
    std::fs::write(&socket_path, socket).expect("write");
    let out = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&path)
        .arg(&socket_path)
        .output()
        .expect("systemd-analyze");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.trim().is_empty(), "{stderr}");
}

const CM: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\n  labels: {app: web}\ndata:\n  a: \"1\"\n";

fn cm_json(name: &str) -> Vec<u8> {
    serde_json::json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "labels": {"app": "web"}},
        "data": {"k": "v"}
    })
    .to_string()
    .into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn configmaps_through_kubectl_with_upstream_errors() {
    let server = Server::builder().start().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("cm.yaml");
    std::fs::write(&file, CM).expect("write");
    let file = file.to_str().expect("path");
    let stdout = |o: std::process::Output| {
        assert!(o.status.success(), "{o:?}");
        String::from_utf8_lossy(&o.stdout).trim().to_owned()
    };
    assert_eq!(
        stdout(server.kubectl(&["apply", "--validate=false", "-f", file])),
        "configmap/demo created"
    );
    assert_eq!(
        stdout(server.kubectl(&["apply", "--validate=false", "-f", file])),
        "configmap/demo unchanged"
    );
    let got: serde_json::Value = serde_json::from_str(&stdout(
        server.kubectl(&["get", "cm", "demo", "-o", "json"]),
    ))
    .expect("json");
    assert_eq!(got["data"]["a"], "1");
    assert!(got["metadata"]["uid"]
        .as_str()
        .is_some_and(|u| u.len() == 36));
    assert!(got["metadata"]["creationTimestamp"]
        .as_str()
        .is_some_and(|t| t.ends_with('Z')));
    let rv = got["metadata"]["resourceVersion"]
        .as_str()
        .expect("rv")
        .to_owned();
    assert_eq!(
        stdout(server.kubectl(&["label", "cm", "demo", "tier=front"])),
        "configmap/demo labeled"
    );
    assert_eq!(
        stdout(server.kubectl(&["get", "cm", "-l", "tier=front", "-o", "name"])),
        "configmap/demo"
    );
    assert_eq!(
        stdout(server.kubectl(&["get", "cm", "-l", "tier=back", "-o", "name"])),
        ""
    );
    let out = server.kubectl(&["get", "cm", "nope"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "Error from server (NotFound): configmaps \"nope\" not found"
    );

    let base = "/api/v1/namespaces/default/configmaps";
    let r = server
        .request(Method::POST, base, &cm_json("demo"), true, false)
        .await
        .expect("post");
    assert_eq!(
        (r.status.as_u16(), r.json()["reason"].as_str()),
        (409, Some("AlreadyExists"))
    );
    assert_eq!(r.json()["message"], "configmaps \"demo\" already exists");

    let mut stale: serde_json::Value = got.clone();
    stale["metadata"]["resourceVersion"] = serde_json::json!(rv);
    let r = server
        .request(
            Method::PUT,
            &format!("{base}/demo"),
            stale.to_string().as_bytes(),
            true,
            false,
        )
        .await
        .expect("put");
    assert_eq!(r.status, 409);
    assert_eq!(
        r.json()["message"],
        "Operation cannot be fulfilled on configmaps \"demo\": the object has been modified; please apply your changes to the latest version and try again"
    );

    let r = server
        .request(Method::POST, base, &cm_json("Bad_Name"), true, false)
        .await
        .expect("post");
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["reason"], "Invalid");
    assert_eq!(r.json()["details"]["causes"][0]["field"], "metadata.name");
    assert!(r.json()["message"]
        .as_str()
        .unwrap_or("")
        .starts_with("ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value"));

    let r = server
        .request(
            Method::POST,
            "/api/v1/namespaces",
            br#"{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"other"}}"#,
            true,
            false,
        )
        .await
        .expect("post namespace");
    assert_eq!(r.status, 201);
    let r = server
        .request(
            Method::POST,
            "/api/v1/namespaces/other/configmaps",
            &cm_json("x"),
            true,
            false,
        )
        .await
        .expect("post");
    assert_eq!(r.status, 201, "namespace comes from the URL");
    let mut wrong: serde_json::Value = serde_json::from_slice(&cm_json("y")).expect("json");
    wrong["metadata"]["namespace"] = serde_json::json!("other");
    let r = server
        .request(
            Method::POST,
            base,
            wrong.to_string().as_bytes(),
            true,
            false,
        )
        .await
        .expect("post");
    assert_eq!(r.status, 400);
    let r = server
        .request(Method::POST, base, b"{not json", true, false)
        .await
        .expect("post");
    assert_eq!(
        (r.status.as_u16(), r.json()["reason"].as_str()),
        (400, Some("BadRequest"))
    );

    let gen = serde_json::json!({"metadata": {"generateName": "gen-"}}).to_string();
    let r = server
        .request(Method::POST, base, gen.as_bytes(), true, false)
        .await
        .expect("post");
    assert_eq!(r.status, 201);
    assert!(r.json()["metadata"]["name"]
        .as_str()
        .is_some_and(|n| n.starts_with("gen-") && n.len() == 9));

    assert_eq!(
        stdout(server.kubectl(&["delete", "cm", "demo"])),
        "configmap \"demo\" deleted"
    );
    assert_eq!(server.get(&format!("{base}/demo")).await.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_paginate_and_watches_bookmark_and_expire() {
    let server = Server::builder()
        .arg("--etcd-compaction-interval=1s")
        .start()
        .await;
    let base = "/api/v1/namespaces/default/configmaps";
    // The namespace's published root CA is the sixth ConfigMap.
    server
        .wait_for(|r| r.status == 200, &format!("{base}/kube-root-ca.crt"))
        .await;
    for i in 0..5 {
        let r = server
            .request(Method::POST, base, &cm_json(&format!("c{i}")), true, false)
            .await
            .expect("post");
        assert_eq!(r.status, 201);
    }
    let first = server.get(&format!("{base}?limit=2")).await.json();
    assert_eq!(first["items"].as_array().map(Vec::len), Some(2));
    assert_eq!(first["metadata"]["remainingItemCount"], 4);
    let list_rv = first["metadata"]["resourceVersion"]
        .as_str()
        .expect("rv")
        .to_owned();
    let token = first["metadata"]["continue"]
        .as_str()
        .expect("continue")
        .to_owned();
    let rest = server
        .get(&format!("{base}?limit=10&continue={token}"))
        .await
        .json();
    assert_eq!(rest["items"].as_array().map(Vec::len), Some(4));
    assert_eq!(rest["metadata"]["resourceVersion"], list_rv.as_str());

    // A watch from the list's revision sees a new object and, when allowed, bookmarks.
    let watch = {
        let path = format!(
            "{base}?watch=true&resourceVersion={list_rv}&allowWatchBookmarks=true&timeoutSeconds=3"
        );
        let s = server.request(Method::GET, &path, b"", true, false);
        // The watch starts from the list's revision, so it sees this create whenever it
        // lands relative to the watch request.
        let create = async {
            server
                .request(Method::POST, base, &cm_json("late"), true, false)
                .await
        };
        let (w, c) = tokio::join!(s, create);
        assert_eq!(c.expect("create").status, 201);
        w.expect("watch")
    };
    assert_eq!(watch.status, 200);
    let events: Vec<serde_json::Value> = watch
        .text()
        .lines()
        .map(|l| serde_json::from_str(l).expect("event line"))
        .collect();
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "ADDED" && e["object"]["metadata"]["name"] == "late"),
        "{events:?}"
    );
    assert!(events.iter().any(|e| e["type"] == "BOOKMARK"), "{events:?}");

    // Once compacted, that revision is gone for lists and watches alike.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let r = server
            .get(&format!(
                "{base}?resourceVersion={list_rv}&resourceVersionMatch=Exact"
            ))
            .await;
        if r.status == 410 {
            assert_eq!(r.json()["reason"], "Expired");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "never compacted");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let r = server
        .get(&format!("{base}?limit=10&continue={token}"))
        .await;
    assert_eq!(
        (r.status.as_u16(), r.json()["reason"].as_str()),
        (410, Some("Expired"))
    );
    // Watches are served from the watch cache, as upstream's cacher serves them: a
    // revision still in the cache's window is replayed even after etcd compacted it (the
    // too-old case, a revision older than the window, is tested with the cache itself).
    server
        .request(
            Method::POST,
            base,
            &cm_json("after-compaction"),
            true,
            false,
        )
        .await
        .expect("post");
    let w = server
        .get(&format!(
            "{base}?watch=true&resourceVersion={list_rv}&timeoutSeconds=1"
        ))
        .await;
    let events: Vec<serde_json::Value> = w
        .text()
        .lines()
        .map(|l| serde_json::from_str(l).expect("event line"))
        .collect();
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "ADDED" && e["object"]["metadata"]["name"] == "late"),
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| e["object"]["metadata"]["name"] == "after-compaction"),
        "{events:?}"
    );
}
