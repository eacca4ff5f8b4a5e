//! pods/log, exec, attach and portforward as kube-apiserver 1.33 answers them (issue
//! 17): the log streamed from the pod's kubelet (a stand-in kubelet on loopback, found
//! from the node's address and kubelet port), PodLogOptions checked and passed on, and
//! upstream's errors when there is no node, no address, or no kubelet answering.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::Method;
use http_body_util::Full;
use serde_json::{json, Value};

use crate::harness::https::HttpsServer;
use crate::harness::{free_port, Reply, Server};

const PODS: &str = "/api/v1/namespaces/default/pods";

async fn send(server: &Server, method: Method, path: &str, ctype: &str, body: &Value) -> Reply {
    server.send_json(method, path, ctype, body).await
}

/// A node whose kubelet is at 127.0.0.1:`port` (no address at all when `port` is 0).
async fn node(server: &Server, name: &str, port: u16) {
    let r = send(
        server,
        Method::POST,
        "/api/v1/nodes",
        "application/json",
        &json!({"metadata": {"name": name}}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    if port == 0 {
        return;
    }
    let status = json!({"status": {
        "addresses": [{"type": "InternalIP", "address": "127.0.0.1"}],
        "daemonEndpoints": {"kubeletEndpoint": {"Port": port}}}});
    let r = send(
        server,
        Method::PATCH,
        &format!("/api/v1/nodes/{name}/status"),
        "application/merge-patch+json",
        &status,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
}

async fn pod(server: &Server, name: &str, node: &str, containers: &[&str]) {
    let cs: Vec<Value> = containers
        .iter()
        .map(|c| json!({"name": c, "image": "busybox"}))
        .collect();
    let mut p = json!({"metadata": {"name": name}, "spec": {"containers": cs}});
    if !node.is_empty() {
        p["spec"]["nodeName"] = json!(node);
    }
    let r = send(server, Method::POST, PODS, "application/json", &p).await;
    assert_eq!(r.status, 201, "{}", r.text());
}

/// A stand-in kubelet's answer to a WebSocket exec (`v5.channel.k8s.io`): "hello" on
/// stdout, then success on the error channel, then close.
fn websocket_exec(req: &mut hyper::Request<hyper::body::Incoming>) -> hyper::Response<Full<Bytes>> {
    use base64::Engine;
    let key = req.headers()["sec-websocket-key"]
        .to_str()
        .unwrap()
        .to_owned();
    let digest = ring::digest::digest(
        &ring::digest::SHA1_FOR_LEGACY_USE_ONLY,
        format!("{key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11").as_bytes(),
    );
    let accept = base64::engine::general_purpose::STANDARD.encode(digest.as_ref());
    let protocols = req.headers()["sec-websocket-protocol"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(protocols.contains("v5.channel.k8s.io"), "{protocols}");
    let upgrade = hyper::upgrade::on(req);
    tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        let Ok(upgraded) = upgrade.await else { return };
        let mut io = hyper_util::rt::TokioIo::new(upgraded);
        let frame = |channel: u8, data: &[u8]| {
            let mut f = vec![0x82, (data.len() + 1) as u8, channel];
            f.extend_from_slice(data);
            f
        };
        let _ = io.write_all(&frame(1, b"hello\n")).await;
        let _ = io
            .write_all(&frame(3, br#"{"metadata":{},"status":"Success"}"#))
            .await;
        let _ = io.write_all(&[0x88, 0x02, 0x03, 0xe8]).await;
        let _ = io.flush().await;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    });
    hyper::Response::builder()
        .status(101)
        .header("connection", "Upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-accept", accept)
        .header("sec-websocket-protocol", "v5.channel.k8s.io")
        .body(Full::new(Bytes::new()))
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_come_from_the_kubelet_and_errors_are_upstreams() {
    let server = Server::builder().start().await;
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let seen2 = seen.clone();
    // An upgrade reaches the kubelet with the host kubectl asked the API server for.
    let client_host = format!("127.0.0.1:{}", server.port);
    let kubelet = HttpsServer::start(move |mut req| {
        let seen = seen2.clone();
        let client_host = client_host.clone();
        async move {
            let target = req.uri().to_string();
            seen.lock().unwrap().push(target.clone());
            if target.starts_with("/exec/default/web/c?") && req.headers().contains_key("upgrade") {
                assert!(!req.headers().contains_key("authorization"));
                assert_eq!(req.headers()["host"], client_host.as_str());
                return Ok(websocket_exec(&mut req));
            }
            let (code, body): (u16, &'static str) =
                if target.starts_with("/containerLogs/default/web/c") {
                    (200, "line one\nline two\n")
                } else if target.starts_with("/containerLogs/default/starting/c") {
                    (
                    400,
                    "container \"c\" in pod \"starting\" is waiting to start: ContainerCreating",
                )
                } else {
                    (404, "404 page not found")
                };
            let mut resp = hyper::Response::new(Full::new(Bytes::from_static(body.as_bytes())));
            *resp.status_mut() = hyper::StatusCode::from_u16(code).unwrap();
            Ok(resp)
        }
    })
    .await;
    node(&server, "n1", kubelet.addr().port()).await;
    node(&server, "bare", 0).await;
    node(&server, "down", free_port()).await;
    pod(&server, "web", "n1", &["c"]).await;
    pod(&server, "starting", "n1", &["c"]).await;
    pod(&server, "two", "n1", &["a", "b"]).await;
    pod(&server, "waiting", "", &["c"]).await;
    pod(&server, "lost", "bare", &["c"]).await;
    pod(&server, "gone", "down", &["c"]).await;

    let out = server.kubectl(&["logs", "web", "--tail=1", "--timestamps"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "line one\nline two\n");
    assert!(
        seen.lock()
            .unwrap()
            .iter()
            .any(|t| t == "/containerLogs/default/web/c?tailLines=1&timestamps=true"),
        "{:?}",
        seen.lock().unwrap()
    );
    let r = server.get(&format!("{PODS}/web/log?follow=true")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.headers["content-type"], "text/plain");
    // The kubelet's own refusal, as upstream passes a 400 on.
    let out = server.kubectl(&["logs", "starting"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "Error from server (BadRequest): container \"c\" in pod \"starting\" is waiting to start: ContainerCreating"
    );
    // No node yet: nothing to show.
    let r = server.get(&format!("{PODS}/waiting/log")).await;
    assert_eq!(r.status, 204, "{}", r.text());
    // Bad options and containers.
    let r = server.get(&format!("{PODS}/web/log?tailLines=-1")).await;
    assert_eq!(r.status, 422);
    assert_eq!(
        r.json()["message"],
        "PodLogOptions \"web\" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0"
    );
    let r = server.get(&format!("{PODS}/two/log")).await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "a container name must be specified for pod two, choose one of: [a b]"
    );
    let r = server.get(&format!("{PODS}/web/log?container=z")).await;
    assert_eq!(r.json()["message"], "container z is not valid for pod web");
    let r = server.get(&format!("{PODS}/nope/log")).await;
    assert_eq!(r.status, 404);
    // A node without an address, a kubelet not answering.
    let r = server.get(&format!("{PODS}/lost/log")).await;
    assert_eq!(r.status, 500);
    assert_eq!(
        r.json()["message"],
        "no preferred addresses found; known addresses: []"
    );
    let out = server.kubectl(&["logs", "gone"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Error from server: Get \"https://127.0.0.1:")
            && stderr.contains("/containerLogs/default/gone/c\": dial tcp 127.0.0.1:")
            && stderr.contains(": connect: connection refused"),
        "{stderr}"
    );

    // exec through to the kubelet's WebSocket stream, and back.
    let out = server.kubectl(&["exec", "web", "--", "echo", "hello"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "hello\n");
    assert!(
        seen.lock()
            .unwrap()
            .iter()
            .any(|t| t.starts_with("/exec/default/web/c?")
                && t.contains("command=echo&command=hello")),
        "{:?}",
        seen.lock().unwrap()
    );
    // exec: upstream's checks before it dials, and its dial error.
    let out = server.kubectl(&["exec", "waiting", "--", "ls"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("pod waiting does not have a host assigned"),
        "{stderr}"
    );
    let out = server.kubectl(&["exec", "gone", "--", "ls"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error dialing backend: dial tcp 127.0.0.1:"),
        "{stderr}"
    );
}

/// A stand-in kubelet that takes a SPDY/3.1 upgrade marked `x-echo` with the first stream
/// protocol the client offers, then echoes what it reads (others get a 400); each
/// request's path, offered protocols and host are noted.
async fn spdy_kubelet(seen: Arc<Mutex<Vec<(String, String, String)>>>) -> HttpsServer {
    HttpsServer::start(move |mut req| {
        let seen = seen.clone();
        async move {
            let offered: Vec<&str> = req
                .headers()
                .get_all("x-stream-protocol-version")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .collect();
            let offered = offered.join(",");
            let host = req.headers()["host"].to_str().unwrap_or("").to_owned();
            seen.lock()
                .unwrap()
                .push((req.uri().path().to_owned(), offered.clone(), host));
            if req.headers().get("upgrade").is_none_or(|u| u != "SPDY/3.1")
                || !req.headers().contains_key("x-echo")
            {
                let mut resp = hyper::Response::new(Full::new(Bytes::from_static(b"no")));
                *resp.status_mut() = hyper::StatusCode::BAD_REQUEST;
                return Ok(resp);
            }
            let upgrade = hyper::upgrade::on(&mut req);
            tokio::spawn(async move {
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                let Ok(upgraded) = upgrade.await else { return };
                let mut io = hyper_util::rt::TokioIo::new(upgraded);
                let mut buf = [0u8; 64];
                while let Ok(n) = io.read(&mut buf).await {
                    if n == 0 || io.write_all(&buf[..n]).await.is_err() {
                        break;
                    }
                }
            });
            let first = offered.split(',').next().unwrap_or("").trim().to_owned();
            Ok(hyper::Response::builder()
                .status(101)
                .header("connection", "Upgrade")
                .header("upgrade", "SPDY/3.1")
                .header("x-stream-protocol-version", first)
                .body(Full::new(Bytes::new()))
                .unwrap())
        }
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spdy_upgrades_reach_the_kubelet_with_the_clients_protocols() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = Server::builder().start().await;
    let seen: Arc<Mutex<Vec<(String, String, String)>>> = Arc::default();
    let kubelet = spdy_kubelet(seen.clone()).await;
    node(&server, "n1", kubelet.addr().port()).await;
    pod(&server, "web", "n1", &["c"]).await;
    let read = |f: &str| std::fs::read_to_string(server.pki(f)).expect("pki file");
    let admin = crate::harness::extension::ExtClient::new(
        std::net::SocketAddr::from(([127, 0, 0, 1], server.port)),
        &read("ca.crt"),
        Some((read("admin.crt"), read("admin.key"))),
    );
    // exec, attach and portforward over SPDY (what kubectl before 1.31 speaks, and still
    // can): the kubelet picks the stream protocol, and the streams are joined end to end.
    for (path, protocol, kubelet_path) in [
        (
            format!("{PODS}/web/exec?command=cat&stdin=true&stdout=true"),
            "v4.channel.k8s.io",
            "/exec/default/web/c",
        ),
        (
            format!("{PODS}/web/attach?stdin=true&stdout=true"),
            "v4.channel.k8s.io",
            "/attach/default/web/c",
        ),
        (
            format!("{PODS}/web/portforward?ports=80"),
            "portforward.k8s.io",
            "/portForward/default/web",
        ),
    ] {
        let up = admin
            .upgrade(
                &path,
                "SPDY/3.1",
                &[("x-stream-protocol-version", protocol), ("x-echo", "1")],
            )
            .await
            .expect("upgrade");
        assert_eq!(up.status, 101, "{path}");
        assert_eq!(up.headers["upgrade"], "SPDY/3.1");
        assert_eq!(up.headers["x-stream-protocol-version"], protocol);
        let mut io = up.io.expect("upgraded connection");
        io.write_all(b"\x80\x03\x00\x01ping").await.expect("write");
        let mut echo = [0u8; 8];
        io.read_exact(&mut echo).await.expect("echo");
        assert_eq!(&echo, b"\x80\x03\x00\x01ping");
        let last = seen.lock().unwrap().last().cloned().expect("seen");
        assert_eq!(last.0, kubelet_path);
        assert_eq!(last.1, protocol);
        // The host this client asked for (the API server's port), not the kubelet's.
        assert_eq!(
            last.2,
            format!("localhost:{}", server.port),
            "the client's host"
        );
    }
    // kubectl 1.27 execs over SPDY: its offer reaches the kubelet as it made it (the
    // stand-in refuses it, so the command itself fails).
    let old = crate::harness::kubectl::Kubectl::minor(&server, 27);
    let _ = old.run(&["exec", "web", "--", "true"]);
    let offers: Vec<String> = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|(p, ..)| p == "/exec/default/web/c")
        .map(|(_, o, _)| o.clone())
        .collect();
    assert!(
        offers
            .iter()
            .any(|o| o.starts_with("v4.channel.k8s.io") && o.contains("channel.k8s.io")),
        "{offers:?}"
    );
}
