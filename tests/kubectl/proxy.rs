//! pods/proxy, services/proxy and nodes/proxy as kube-apiserver 1.33 answers them
//! (issue 17): the request carried to the pod's IP, a Service's ready endpoint or the
//! node's kubelet, the path after `/proxy` and the query passed on, credentials not; the
//! answer's links pointing through the proxy again; upstream's errors for names,
//! addresses and backends that cannot be used. The backends listen on this machine's
//! non-loopback address: upstream refuses to proxy to loopback addresses.

use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::Method;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use serde_json::{json, Value};

use crate::harness::extension::routable_ip;
use crate::harness::https::HttpsServer;
use crate::harness::{Reply, Server};

const PODS: &str = "/api/v1/namespaces/default/pods";
const SERVICES: &str = "/api/v1/namespaces/default/services";

/// What the backend answers: an echo of the request as JSON, or, by path, a redirect, an
/// HTML page, or an answer with CORS headers.
async fn backend_answer(mut req: hyper::Request<Incoming>) -> hyper::Response<Full<Bytes>> {
    if req.uri().path() == "/ws" && req.headers().contains_key("upgrade") {
        // An upgrade: says hello, then echoes what it reads.
        let upgrade = hyper::upgrade::on(&mut req);
        tokio::spawn(async move {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            let Ok(upgraded) = upgrade.await else { return };
            let mut io = hyper_util::rt::TokioIo::new(upgraded);
            let _ = io.write_all(b"hello upgrade\n").await;
            let mut buf = [0u8; 64];
            if let Ok(n) = io.read(&mut buf).await {
                let _ = io.write_all(&buf[..n]).await;
            }
            let _ = io.flush().await;
        });
        let query = req.uri().query().unwrap_or("").to_owned();
        return hyper::Response::builder()
            .status(101)
            .header("connection", "Upgrade")
            .header("upgrade", "echo")
            .header("x-query", query)
            .body(Full::new(Bytes::new()))
            .expect("response");
    }
    let (parts, body) = req.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let path = parts.uri.path().to_owned();
    let mut resp = hyper::Response::builder();
    let bytes: Bytes = match path.as_str() {
        "/redirect" => {
            resp = resp
                .status(302)
                .header("location", "/landing?from=redirect");
            Bytes::new()
        }
        "/page" => {
            resp = resp.header("content-type", "text/html; charset=utf-8");
            Bytes::from_static(
                b"<html><body><a href=\"/next\">next</a> <a href=\"rel\">rel</a> \
                  <img src=\"https://elsewhere.example/x.png\"></body></html>",
            )
        }
        _ => {
            let headers: serde_json::Map<String, Value> = parts
                .headers
                .iter()
                .map(|(k, v)| (k.to_string(), json!(v.to_str().unwrap_or(""))))
                .collect();
            resp = resp
                .header("content-type", "application/json")
                .header("access-control-allow-origin", "*")
                .header("x-backend", "yes");
            Bytes::from(
                json!({
                    "method": parts.method.as_str(),
                    "path": path,
                    "query": parts.uri.query(),
                    "headers": headers,
                    "body": String::from_utf8_lossy(&body),
                })
                .to_string(),
            )
        }
    };
    resp.body(Full::new(bytes)).expect("response")
}

/// A plain HTTP backend on `ip`; its port.
async fn backend(ip: IpAddr) -> u16 {
    let listener = tokio::net::TcpListener::bind((ip, 0)).await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                let service = hyper::service::service_fn(|req| async move {
                    Ok::<_, hyper::Error>(backend_answer(req).await)
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(tcp), service)
                    .with_upgrades()
                    .await;
            });
        }
    });
    port
}

/// A port on `ip` nothing listens on.
fn closed_port(ip: IpAddr) -> u16 {
    std::net::TcpListener::bind((ip, 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

async fn send(server: &Server, method: Method, path: &str, ctype: &str, body: &Value) -> Reply {
    server.send_json(method, path, ctype, body).await
}

/// A pod `name` whose first container declares `port` and whose IP is `ip` ("" none).
async fn pod(server: &Server, name: &str, port: u16, ip: &str) {
    let p = json!({"metadata": {"name": name}, "spec": {"containers": [
        {"name": "sidecar", "image": "x"},
        {"name": "web", "image": "x", "ports": [{"containerPort": port}]}]}});
    let r = send(server, Method::POST, PODS, "application/json", &p).await;
    assert_eq!(r.status, 201, "{}", r.text());
    if ip.is_empty() {
        return;
    }
    let status = json!({"status": {"podIP": ip, "podIPs": [{"ip": ip}]}});
    let path = format!("{PODS}/{name}/status");
    let r = send(
        server,
        Method::PATCH,
        &path,
        "application/merge-patch+json",
        &status,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
}

fn status_of(r: &Reply) -> (u16, String, String) {
    let v: Value = serde_json::from_slice(&r.body).unwrap_or(Value::Null);
    (
        r.status.as_u16(),
        v["reason"].as_str().unwrap_or("").to_owned(),
        v["message"].as_str().unwrap_or("").to_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pods_proxy_carries_requests_to_the_pod() {
    let Some(ip) = routable_ip() else {
        eprintln!("no non-loopback address on this machine: skipped");
        return;
    };
    let server = Server::builder().start().await;
    let port = backend(ip).await;
    pod(&server, "web", port, &ip.to_string()).await;
    pod(&server, "pending", port, "").await;
    pod(&server, "local", port, "127.0.0.1").await;
    pod(&server, "gone", closed_port(ip), &ip.to_string()).await;

    // kubectl's raw GET: the path after /proxy and the query reach the pod.
    let out = server.kubectl(&[
        "get",
        "--raw",
        &format!("{PODS}/web/proxy/hello/there?x=1&path=/no"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let echo: Value = serde_json::from_slice(&out.stdout).expect("echo");
    assert_eq!(echo["method"], "GET");
    assert_eq!(echo["path"], "/hello/there");
    // kubectl sends the query re-encoded; it reaches the pod as sent.
    assert_eq!(echo["query"], "path=%2Fno&x=1");
    assert_eq!(
        echo["headers"]["x-forwarded-uri"],
        format!("{PODS}/web/proxy/hello/there")
    );
    assert!(echo["headers"].get("authorization").is_none(), "{echo}");
    assert_eq!(echo["headers"]["x-forwarded-for"], "127.0.0.1");
    // The host the client asked for, as upstream's proxy passes it on.
    assert_eq!(
        echo["headers"]["host"],
        format!("127.0.0.1:{}", server.port),
        "{echo}"
    );

    // A body, another method, an explicit scheme and port; CORS headers are dropped.
    let r = send(
        &server,
        Method::POST,
        &format!("{PODS}/http:web:{port}/proxy/submit/"),
        "application/json",
        &json!({"a": 1}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.headers["x-backend"], "yes");
    assert!(r.headers.get("access-control-allow-origin").is_none());
    let echo = r.json();
    assert_eq!(
        (echo["method"].as_str(), echo["path"].as_str()),
        (Some("POST"), Some("/submit/"))
    );
    assert_eq!(echo["body"], r#"{"a":1}"#);

    // The proxy root without its slash is redirected to it.
    let r = server.get(&format!("{PODS}/web/proxy?a=b")).await;
    assert_eq!(r.status, 301);
    assert_eq!(r.headers["location"], format!("{PODS}/web/proxy/?a=b"));
    // The backend's redirect and links point through the proxy.
    let r = server.get(&format!("{PODS}/web/proxy/redirect")).await;
    assert_eq!(r.status, 302);
    assert_eq!(
        r.headers["location"],
        format!("{PODS}/web/proxy/landing?from=redirect")
    );
    let r = server.get(&format!("{PODS}/web/proxy/page")).await;
    let page = r.text();
    assert!(
        page.contains(&format!("href=\"{PODS}/web/proxy/next\"")),
        "{page}"
    );
    assert!(page.contains("href=\"rel\"") && page.contains("https://elsewhere.example/x.png"));

    // An upgrade is joined end to end (the path goes, the query does not, as upstream).
    let read = |f: &str| std::fs::read_to_string(server.pki(f)).expect("pki file");
    let admin = crate::harness::extension::ExtClient::new(
        std::net::SocketAddr::from(([127, 0, 0, 1], server.port)),
        &read("ca.crt"),
        Some((read("admin.crt"), read("admin.key"))),
    );
    let up = admin
        .upgrade(&format!("{PODS}/web/proxy/ws?q=1"), "echo", &[])
        .await
        .expect("upgrade");
    assert_eq!(up.status, 101);
    assert_eq!(up.headers["x-query"], "");
    let mut io = up.io.expect("upgraded connection");
    {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut got = vec![0u8; 14];
        io.read_exact(&mut got).await.expect("hello");
        assert_eq!(got, b"hello upgrade\n");
        io.write_all(b"ping").await.expect("write");
        let mut echo = [0u8; 4];
        io.read_exact(&mut echo).await.expect("echo");
        assert_eq!(&echo, b"ping");
    }

    // Upstream's refusals.
    let cases = [
        (
            format!("{PODS}/pending/proxy/"),
            (400, "BadRequest", "address not allowed".to_owned()),
        ),
        (
            format!("{PODS}/local/proxy/"),
            (400, "BadRequest", "address not allowed".to_owned()),
        ),
        (
            format!("{PODS}/ftp:web:21/proxy/"),
            (
                400,
                "BadRequest",
                "invalid pod request \"ftp:web:21\"".to_owned(),
            ),
        ),
        (
            format!("{PODS}/nope/proxy/"),
            (404, "NotFound", "pods \"nope\" not found".to_owned()),
        ),
        (
            format!("{PODS}/web/proxy/?dryRun=All"),
            (400, "BadRequest", "dryRun is not supported".to_owned()),
        ),
    ];
    for (path, (code, reason, message)) in cases {
        let r = server.get(&path).await;
        assert_eq!(status_of(&r), (code, reason.to_owned(), message), "{path}");
    }
    let r = server.get(&format!("{PODS}/gone/proxy/")).await;
    let (code, reason, message) = status_of(&r);
    assert_eq!(
        (code, reason.as_str()),
        (503, "ServiceUnavailable"),
        "{message}"
    );
    assert!(
        message.starts_with("error trying to reach service: dial tcp ")
            && message.ends_with("connect: connection refused"),
        "{message}"
    );
    // Discovery lists the subresource with upstream's kind and verbs.
    let list = server.get("/api/v1").await.json();
    let proxy = list["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|r| r["name"] == "pods/proxy")
        .cloned()
        .expect("pods/proxy listed");
    assert_eq!(proxy["kind"], "PodProxyOptions");
    assert_eq!(
        proxy["verbs"],
        json!(["create", "delete", "get", "patch", "update"])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn services_proxy_goes_to_a_ready_endpoint_of_a_pod() {
    let Some(ip) = routable_ip() else {
        eprintln!("no non-loopback address on this machine: skipped");
        return;
    };
    let server = Server::builder().start().await;
    let port = backend(ip).await;
    pod(&server, "web", port, &ip.to_string()).await;
    let svc = json!({"metadata": {"name": "websvc"}, "spec": {"ports": [
        {"name": "http", "port": 80, "targetPort": port}]}});
    let r = send(&server, Method::POST, SERVICES, "application/json", &svc).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let address = |target: bool| {
        let mut a = json!({"ip": ip.to_string()});
        if target {
            a["targetRef"] = json!({"kind": "Pod", "namespace": "default", "name": "web"});
        }
        a
    };
    let endpoints = |name: &str, target: bool| {
        json!({"metadata": {"name": name}, "subsets": [{
            "addresses": [address(target)], "ports": [{"name": "http", "port": port}]}]})
    };
    for (name, target) in [("websvc", true), ("manual", false)] {
        let r = send(
            &server,
            Method::POST,
            "/api/v1/namespaces/default/endpoints",
            "application/json",
            &endpoints(name, target),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    let svc =
        json!({"metadata": {"name": "manual"}, "spec": {"ports": [{"name": "http", "port": 80}]}});
    let r = send(&server, Method::POST, SERVICES, "application/json", &svc).await;
    assert_eq!(r.status, 201, "{}", r.text());

    // A Service port by number, and the endpoint port by name.
    for id in ["websvc:80", "websvc:http", "http:websvc:http"] {
        let out = server.kubectl(&["get", "--raw", &format!("{SERVICES}/{id}/proxy/status")]);
        assert!(
            out.status.success(),
            "{id}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let echo: Value = serde_json::from_slice(&out.stdout).expect("echo");
        assert_eq!(echo["path"], "/status", "{id}");
        assert_eq!(
            echo["headers"]["x-forwarded-uri"],
            format!("{SERVICES}/{id}/proxy/status")
        );
    }
    let cases = [
        (
            "websvc",
            503,
            "ServiceUnavailable",
            "no endpoints available for service \"websvc\"",
        ),
        (
            "websvc:81",
            503,
            "ServiceUnavailable",
            "no service port 81 found for service \"websvc\"",
        ),
        (
            "manual:http",
            503,
            "ServiceUnavailable",
            "no endpoints available for service \"manual:http\"",
        ),
        ("nosvc", 404, "NotFound", "endpoints \"nosvc\" not found"),
        ("nosvc:80", 404, "NotFound", "services \"nosvc\" not found"),
        (
            "a:b:c:d",
            400,
            "BadRequest",
            "invalid service request \"a:b:c:d\"",
        ),
    ];
    for (id, code, reason, message) in cases {
        let r = server.get(&format!("{SERVICES}/{id}/proxy/")).await;
        assert_eq!(
            status_of(&r),
            (code, reason.to_owned(), message.to_owned()),
            "{id}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_proxy_reaches_the_kubelet_or_another_port() {
    let Some(ip) = routable_ip() else {
        eprintln!("no non-loopback address on this machine: skipped");
        return;
    };
    let server = Server::builder().start().await;
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen2 = seen.clone();
    let kubelet = HttpsServer::start_on_ip(ip, move |req| {
        let seen = seen2.clone();
        async move {
            seen.lock().unwrap().push(req.uri().to_string());
            Ok(hyper::Response::new(Full::new(Bytes::from_static(
                b"kubelet metrics\n",
            ))))
        }
    })
    .await;
    let other = backend(ip).await;
    for (name, address) in [("n1", ip.to_string()), ("lo", "127.0.0.1".to_owned())] {
        let r = send(
            &server,
            Method::POST,
            "/api/v1/nodes",
            "application/json",
            &json!({"metadata": {"name": name}}),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.text());
        let status = json!({"status": {
            "addresses": [{"type": "InternalIP", "address": address}],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": kubelet.addr().port()}}}});
        let path = format!("/api/v1/nodes/{name}/status");
        let r = send(
            &server,
            Method::PATCH,
            &path,
            "application/merge-patch+json",
            &status,
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text());
    }
    let out = server.kubectl(&["get", "--raw", "/api/v1/nodes/n1/proxy/metrics?x=1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "kubelet metrics\n");
    assert_eq!(seen.lock().unwrap().as_slice(), ["/metrics?x=1"]);
    // Another port of the node: plain HTTP there, not the kubelet.
    let out = server.kubectl(&["get", "--raw", &format!("/api/v1/nodes/n1:{other}/proxy/x")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let echo: Value = serde_json::from_slice(&out.stdout).expect("echo");
    assert_eq!(
        echo["headers"]["x-forwarded-uri"],
        format!("/api/v1/nodes/n1:{other}/proxy/x")
    );

    let r = server.get("/api/v1/nodes/lo/proxy/metrics").await;
    assert_eq!(
        status_of(&r),
        (400, "BadRequest".into(), "address not allowed".into())
    );
    let r = server.get("/api/v1/nodes/none/proxy/").await;
    assert_eq!(
        status_of(&r),
        (404, "NotFound".into(), "nodes \"none\" not found".into())
    );
}
