//! The test extension API server's edges: request-header authentication (401 without
//! the front proxy's certificate, the identity it records), restart on the same port, the
//! hang, garbage and slow modes, and the PKI and manifests for the server under test. One
//! test starts the server under test, to show it takes the flags.

use std::time::{Duration, Instant};

use http::{Method, StatusCode};
use serde_json::{json, Value};

use super::super::harness::extension::{
    apiservice_yaml, table, Ca, ExtClient, ExtensionServer, FrontProxyPki, Mode, Reach,
    Registration,
};
use super::super::harness::{Reply, Server};
use super::extension_server::{flunder, start, ADMIN, NS_FLUNDERS};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_front_proxy_certificate_vouches_for_identity_headers() {
    let (pki, ext, c) = start().await;
    let headers = [
        ("x-remote-user", "alice"),
        ("x-remote-uid", "uid-1"),
        ("x-remote-group", "devs"),
        ("x-remote-group", "system:authenticated"),
        ("x-remote-extra-scopes", "read"),
        ("x-remote-extra-scopes", "write"),
        ("x-remote-extra-acme.com%2Fproject", "p1"),
    ];
    let r = c
        .request(Method::GET, NS_FLUNDERS, &headers, b"")
        .await
        .expect("get");
    assert_eq!(r.status, 200, "{}", r.text());
    let seen = ext.seen_at(NS_FLUNDERS);
    let s = seen.last().expect("recorded");
    assert_eq!(s.method, Method::GET);
    assert_eq!(s.user.as_deref(), Some("alice"));
    assert_eq!(s.uid.as_deref(), Some("uid-1"));
    assert_eq!(s.groups, ["devs", "system:authenticated"]);
    assert_eq!(s.extra["scopes"], ["read", "write"]);
    assert_eq!(s.extra["acme.com/project"], ["p1"]);
    assert_eq!(s.client_cn.as_deref(), Some("front-proxy-client"));
    // Bodies are kept too, once read.
    let r = c
        .send_json(Method::POST, NS_FLUNDERS, &flunder("kept"))
        .await;
    assert_eq!(r.status, 201);
    let post = ext.wait_seen(|s| s.method == Method::POST).await;
    assert_eq!(
        serde_json::from_slice::<Value>(&post.body).ok(),
        Some(flunder("kept"))
    );

    let unauthorized = |r: &Reply| {
        assert_eq!(r.status, 401, "{}", r.text());
        let s = r.json();
        assert_eq!(
            (s["kind"].as_str(), s["reason"].as_str(), s["code"].as_u64()),
            (Some("Status"), Some("Unauthorized"), Some(401))
        );
    };
    // No certificate, a certificate from another CA, one from the CA with another CN.
    let anonymous = ext.anonymous_client();
    unauthorized(
        &anonymous
            .request(Method::GET, NS_FLUNDERS, &headers, b"")
            .await
            .expect("get"),
    );
    let other = Ca::new("other-ca");
    let (cert, key) = other.client("front-proxy-client", &[]);
    unauthorized(
        &ext.client_with(&cert, &key)
            .request(Method::GET, "/apis", &headers, b"")
            .await
            .expect("get"),
    );
    let (cert, key) = pki.ca().client("someone-else", &[]);
    unauthorized(
        &ext.client_with(&cert, &key)
            .request(Method::GET, "/apis", &headers, b"")
            .await
            .expect("get"),
    );
    // The proxy's certificate without a user names nobody.
    unauthorized(
        &c.request(Method::GET, "/apis", &[("x-remote-group", "g")], b"")
            .await
            .expect("get"),
    );
    let refused = ext.seen_at("/apis");
    assert!(refused.iter().all(|s| s.user.is_none()), "{refused:?}");
    assert_eq!(
        refused[0].client_cn.as_deref(),
        Some("front-proxy-client"),
        "the other CA's cert"
    );
    assert_eq!(refused[1].client_cn.as_deref(), Some("someone-else"));

    // Health checks need no certificate; HTTP/2 works as HTTP/1.1 does.
    for path in ["/healthz", "/readyz", "/livez"] {
        let r = anonymous
            .request(Method::GET, path, &[], b"")
            .await
            .expect("health");
        assert_eq!((r.status, r.text()), (StatusCode::OK, "ok".to_owned()));
    }
    let r = c.clone().http2().get("/apis").await;
    assert_eq!(
        (r.status, r.version),
        (StatusCode::OK, http::Version::HTTP_2)
    );
    assert_eq!(
        ext.seen().last().map(|s| s.version),
        Some(http::Version::HTTP_2)
    );
    // The serving certificate names the Service as the aggregator dials it.
    let r = c.clone().server_name("api.wardle.svc").get("/apis").await;
    assert_eq!(r.status, 200);
    assert!(c
        .clone()
        .server_name("other.wardle.svc")
        .request(Method::GET, "/apis", ADMIN, b"")
        .await
        .is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stops_and_restarts_on_the_same_port_keeping_its_objects() {
    let (pki, ext, c) = start().await;
    let port = ext.port();
    assert_eq!(
        c.send_json(Method::POST, NS_FLUNDERS, &flunder("kept"))
            .await
            .status,
        201
    );
    let mut w = c
        .watch(&format!("{NS_FLUNDERS}?watch=1"), ADMIN)
        .await
        .expect("watch");
    w.next().await.expect("ADDED");

    ext.stop().await;
    assert!(
        tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err(),
        "port still open"
    );
    assert_eq!(w.next().await, None, "the watch outlived the server");
    assert!(c.request(Method::GET, "/apis", ADMIN, b"").await.is_err());

    ext.restart().await;
    assert_eq!(ext.port(), port);
    let r = c.get(&format!("{NS_FLUNDERS}/kept")).await;
    assert_eq!(r.status, 200);

    // A server started on a given port (a fresh store) serves there.
    ext.stop().await;
    let again = ExtensionServer::start_on(&pki, port).await;
    assert_eq!(again.port(), port);
    let c2 = again.client(&pki);
    assert_eq!(c2.get(&format!("{NS_FLUNDERS}/kept")).await.status, 404);
    assert_eq!(c2.get("/healthz").await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hang_garbage_and_slow_modes() {
    let (_pki, ext, c) = start().await;

    ext.hang();
    assert_eq!(ext.mode(), Mode::Hang);
    let hung = c
        .request_within(Duration::from_millis(300), Method::GET, "/apis", ADMIN, b"")
        .await;
    assert_eq!(
        hung.map(|r| r.status).map_err(|e| e.kind()),
        Err(std::io::ErrorKind::TimedOut)
    );
    // A hanging request ends (with the connection) when the server stops.
    let pending = tokio::spawn({
        let c = c.clone();
        async move { c.request(Method::GET, "/apis", ADMIN, b"").await }
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    while ext.seen_at("/apis").len() < 2 {
        assert!(
            Instant::now() < deadline,
            "the second request never arrived"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    ext.restart().await;
    assert!(
        pending.await.expect("join").is_err(),
        "a hung request got an answer"
    );

    ext.garbage();
    let r = c.get("/apis/wardle.example.com/v1alpha1").await;
    assert_eq!(r.status, 200);
    assert!(
        serde_json::from_slice::<Value>(&r.body).is_err(),
        "{}",
        r.text()
    );

    ext.slow(Duration::from_millis(300));
    let t = Instant::now();
    assert_eq!(c.get("/apis").await.status, 200);
    assert!(t.elapsed() >= Duration::from_millis(300));

    ext.normal();
    assert_eq!(c.get("/apis").await.json()["kind"], "APIGroupList");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fail_drop_and_endless_modes() {
    let (_pki, ext, c) = start().await;

    ext.set_mode(Mode::Fail(503));
    let r = c.get("/apis").await;
    assert_eq!(r.status, 503);
    assert_eq!(r.json()["reason"], "ServiceUnavailable");
    ext.set_mode(Mode::Fail(403));
    assert_eq!(c.get("/healthz").await.json()["code"], 403);

    ext.set_mode(Mode::Drop);
    let dropped = c.request(Method::GET, "/apis", ADMIN, b"").await;
    assert!(dropped.is_err(), "{:?}", dropped.map(|r| r.status));

    // A response that never ends: the client gives up, the server is unharmed.
    ext.set_mode(Mode::Endless);
    let t = Instant::now();
    let endless = c
        .request_within(
            Duration::from_millis(500),
            Method::GET,
            NS_FLUNDERS,
            ADMIN,
            b"",
        )
        .await;
    assert_eq!(
        endless.map(|r| r.status).map_err(|e| e.kind()),
        Err(std::io::ErrorKind::TimedOut)
    );
    assert!(t.elapsed() < Duration::from_secs(5));
    ext.normal();
    assert_eq!(c.get(NS_FLUNDERS).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_echo_subresource_upgrades_and_echoes_bytes() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (_pki, ext, c) = start().await;
    let echo = "/apis/wardle.example.com/v1alpha1/namespaces/ns1/flunders/one/echo";
    let up = c
        .upgrade(
            echo,
            "SPDY/3.1",
            &[
                ("x-remote-user", "alice"),
                ("x-stream-protocol-version", "v4.channel.k8s.io"),
                ("x-stream-protocol-version", "v3.channel.k8s.io"),
            ],
        )
        .await
        .expect("upgrade");
    assert_eq!(up.status, StatusCode::SWITCHING_PROTOCOLS);
    assert_eq!(up.headers["upgrade"], "SPDY/3.1");
    assert_eq!(up.headers["x-stream-protocol-version"], "v4.channel.k8s.io");
    let mut io = up.io.expect("upgraded");
    io.write_all(b"hello through the tunnel")
        .await
        .expect("write");
    let mut back = [0u8; 24];
    tokio::time::timeout(Duration::from_secs(10), io.read_exact(&mut back))
        .await
        .expect("echo in time")
        .expect("read");
    assert_eq!(&back, b"hello through the tunnel");
    assert_eq!(ext.seen_at(echo)[0].user.as_deref(), Some("alice"));

    // Websocket is echoed too; without an Upgrade it is a 400, without a user a 401.
    let ws = c
        .upgrade(
            echo,
            "websocket",
            &[
                ("x-remote-user", "a"),
                (
                    "sec-websocket-protocol",
                    "v5.channel.k8s.io, base64.channel.k8s.io",
                ),
            ],
        )
        .await
        .expect("upgrade");
    assert_eq!(ws.status, StatusCode::SWITCHING_PROTOCOLS);
    assert_eq!(ws.headers["sec-websocket-protocol"], "v5.channel.k8s.io");
    let r = c.get(echo).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["message"], "Upgrade request required");
    let r = c.upgrade(echo, "SPDY/3.1", &[]).await.expect("upgrade");
    assert_eq!(r.status, 401);
    assert!(r.io.is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kept_alive_connections_and_recording_off_for_load() {
    let (_pki, ext, c) = start().await;
    ext.set_recording(false);
    for client in [c.clone(), c.clone().http2()] {
        let mut conn = client.conn(ADMIN);
        for _ in 0..100 {
            let r = conn.get(NS_FLUNDERS).await.expect("get");
            assert_eq!(r.status, 200);
        }
    }
    assert!(ext.seen().is_empty());
    ext.set_recording(true);
    let mut conn = c.conn(ADMIN);
    assert_eq!(conn.get("/apis").await.expect("get").status, 200);
    assert_eq!(ext.seen().len(), 1);
    // After a restart the connection is dialled again.
    ext.restart().await;
    let _ = conn.get("/apis").await;
    assert_eq!(conn.get("/apis").await.expect("re-dialled").status, 200);
}

#[test]
fn pki_flags_and_registration_manifests() {
    let pki = FrontProxyPki::new();
    for f in [pki.ca_file(), pki.client_cert_file(), pki.client_key_file()] {
        let text = std::fs::read_to_string(&f).expect("written");
        assert!(text.starts_with("-----BEGIN"), "{}", f.display());
    }
    let flags = pki.server_flags(None);
    assert!(flags.contains(&format!(
        "--requestheader-client-ca-file={}",
        pki.ca_file().display()
    )));
    assert!(flags.contains(&"--requestheader-allowed-names=front-proxy-client".to_owned()));
    assert!(flags.contains(&"--requestheader-uid-headers=X-Remote-Uid".to_owned()));
    assert!(flags.contains(&format!(
        "--proxy-client-key-file={}",
        pki.client_key_file().display()
    )));
    assert!(!flags
        .iter()
        .any(|f| f.starts_with("--enable-aggregator-routing")));
    assert!(pki
        .server_flags(Some(true))
        .contains(&"--enable-aggregator-routing=true".to_owned()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registration_manifests_parse_as_the_objects_to_apply() {
    let pki = FrontProxyPki::new();
    let ext = ExtensionServer::start(&pki).await;
    let docs = |yaml: &str| -> Vec<Value> {
        yaml.split("---\n")
            .map(|d| serde_yaml_ng::from_str::<Value>(d).unwrap_or_else(|e| panic!("{e}: {d}")))
            .collect()
    };
    let slice = docs(&apiservice_yaml(&ext, Reach::EndpointSlice));
    let kinds: Vec<&str> = slice.iter().filter_map(|d| d["kind"].as_str()).collect();
    assert_eq!(
        kinds,
        ["Namespace", "Service", "EndpointSlice", "APIService"]
    );
    assert_eq!(slice[1]["spec"]["ports"][0]["targetPort"], ext.port());
    assert_eq!(slice[2]["endpoints"][0]["addresses"][0], "127.0.0.1");
    assert_eq!(slice[2]["ports"][0]["port"], ext.port());
    assert_eq!(
        slice[2]["metadata"]["labels"]["kubernetes.io/service-name"],
        "api"
    );
    let svc = &slice[3];
    assert_eq!(svc["metadata"]["name"], "v1alpha1.wardle.example.com");
    assert_eq!(
        svc["spec"]["service"],
        json!({"namespace": "wardle", "name": "api", "port": 443})
    );
    assert_eq!(svc["spec"]["caBundle"], ext.ca_bundle());

    let external = docs(&apiservice_yaml(&ext, Reach::ExternalName));
    assert_eq!(external.len(), 3);
    assert_eq!(external[1]["spec"]["type"], "ExternalName");
    assert_eq!(external[1]["spec"]["externalName"], "localhost");
    let mut by_ip = Registration::for_server(&ext, Reach::ExternalName);
    by_ip.external_name = "127.0.0.1".to_owned();
    assert_eq!(docs(&by_ip.yaml())[1]["spec"]["externalName"], "127.0.0.1");
    assert_eq!(external[2]["spec"]["service"]["port"], ext.port());

    let mut reg = Registration::for_server(&ext, Reach::NoEndpoints);
    reg.ca_bundle = None;
    reg.insecure_skip_tls_verify = true;
    reg.with_service = false;
    let only = docs(&reg.yaml());
    assert_eq!(only.len(), 1);
    assert_eq!(only[0]["spec"]["insecureSkipTLSVerify"], true);
    assert!(only[0]["spec"].get("caBundle").is_none());
}

#[test]
fn timestamps_and_ages_as_kubernetes_prints_them() {
    use super::super::harness::extension::store::rfc3339;
    assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
    assert_eq!(rfc3339(1_709_251_199), "2024-02-29T23:59:59Z");
    assert_eq!(
        table::parse_rfc3339("2024-02-29T23:59:59Z"),
        Some(1_709_251_199)
    );
    assert_eq!(table::parse_rfc3339("garbage"), None);
    let ages: Vec<String> = [
        5,
        150,
        4000,
        5 * 3600 + 60,
        30 * 3600,
        3 * 86_400 + 3600,
        30 * 86_400,
    ]
    .into_iter()
    .map(table::human)
    .collect();
    assert_eq!(ages, ["5s", "2m30s", "66m", "5h1m", "30h", "3d1h", "30d"]);
}

/// The server under test takes the front-proxy flags (`--enable-aggregator-routing` left
/// out until it lands) and then believes the proxy's headers, uid included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_under_test_takes_the_front_proxy_flags() {
    let pki = FrontProxyPki::new();
    let server = Server::builder().front_proxy(&pki, None).start().await;
    let ca = std::fs::read_to_string(server.pki("ca.crt")).expect("server ca");
    let (cert, key) = pki.client_pem();
    let local = std::net::SocketAddr::from(([127, 0, 0, 1], server.port));
    let proxy = ExtClient::new(local, &ca, Some((cert, key)));
    let review = json!({"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"});
    let r = proxy
        .request(
            Method::POST,
            "/apis/authentication.k8s.io/v1/selfsubjectreviews",
            &[
                ("x-remote-user", "alice"),
                ("x-remote-uid", "uid-7"),
                ("x-remote-group", "system:masters"),
                ("x-remote-extra-scopes", "s1"),
            ],
            &serde_json::to_vec(&review).expect("json"),
        )
        .await
        .expect("review");
    assert_eq!(r.status, 201, "{}", r.text());
    let user = &r.json()["status"]["userInfo"];
    assert_eq!(user["username"], "alice");
    assert_eq!(user["uid"], "uid-7");
    assert_eq!(user["extra"]["scopes"], json!(["s1"]));

    // Endpoints may not name 127.0.0.1 (as upstream); the routable address is taken.
    let admin = (
        std::fs::read_to_string(server.pki("admin.crt")).expect("admin cert"),
        std::fs::read_to_string(server.pki("admin.key")).expect("admin key"),
    );
    let admin = ExtClient::new(local, &ca, Some(admin));
    let endpoints = |ip: &str| {
        json!({"apiVersion": "v1", "kind": "Endpoints", "metadata": {"name": "api"},
               "subsets": [{"addresses": [{"ip": ip}], "ports": [{"name": "https", "port": 8443}]}]})
    };
    let path = "/api/v1/namespaces/default/endpoints";
    let r = admin
        .send_json(Method::POST, path, &endpoints("127.0.0.1"))
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    // An address other hosts would reach is accepted (no network is used: the object
    // only names it).
    let r = admin
        .send_json(Method::POST, path, &endpoints("198.51.100.7"))
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
}
