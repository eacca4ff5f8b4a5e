//! componentstatuses as kube-apiserver 1.33 serves them (issue 17): computed on each
//! read from the scheduler's and controller manager's health ports on loopback and the
//! store's health, get and list only, with the deprecation warning and the printer
//! columns kubectl shows.

use bytes::Bytes;
use http_body_util::Full;
use serde_json::json;

use crate::harness::https::HttpsServer;
use crate::harness::Server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn componentstatuses_report_the_control_plane() {
    let server = Server::builder().start().await;
    // A scheduler answering on its default secure port (when the port is free here).
    let scheduler = HttpsServer::start_at(10259, |_req| async {
        Ok(hyper::Response::new(Full::new(Bytes::from_static(b"ok"))))
    })
    .await;

    let out = server.kubectl(&["get", "componentstatuses"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("Warning: v1 ComponentStatus is deprecated in v1.19+"),
        "{stderr}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("NAME") && lines[0].contains("STATUS   "),
        "{stdout}"
    );
    let row = |name: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(name))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .unwrap_or_else(|| panic!("no {name}: {stdout}"))
    };
    assert_eq!(row("etcd-0")[1..], ["Healthy", "ok"]);
    let cm = row("controller-manager");
    assert_eq!(cm[1], "Unhealthy", "{stdout}");
    assert!(
        stdout.contains("Get \"https://127.0.0.1:10257/healthz\": dial tcp 127.0.0.1:10257: connect: connection refused"),
        "{stdout}"
    );
    if scheduler.is_some() {
        assert_eq!(row("scheduler")[1..], ["Healthy", "ok"]);
    }

    // One by name; an unknown name is upstream's plain error.
    let one = server.get("/api/v1/componentstatuses/etcd-0").await;
    assert_eq!(one.status, 200);
    assert_eq!(
        one.json(),
        json!({"kind": "ComponentStatus", "apiVersion": "v1",
            "metadata": {"name": "etcd-0", "creationTimestamp": null},
            "conditions": [{"type": "Healthy", "status": "True", "message": "ok"}]})
    );
    let missing = server.get("/api/v1/componentstatuses/nope").await;
    assert_eq!(missing.status, 500);
    assert_eq!(missing.json()["message"], "Component not found: nope");
    // Selectors filter; nothing but get and list is served.
    let list = server
        .get("/api/v1/componentstatuses?fieldSelector=metadata.name%3Detcd-0")
        .await
        .json();
    assert_eq!(list["kind"], "ComponentStatusList");
    assert_eq!(list["items"].as_array().map(Vec::len), Some(1));
    let watch = server.get("/api/v1/componentstatuses?watch=true").await;
    assert_eq!(watch.status, 405, "{}", watch.text());
    assert_eq!(
        watch.json()["message"],
        "watch is not supported on resources of kind \"componentstatuses\""
    );
    let out = server.kubectl(&["delete", "componentstatus", "etcd-0"]);
    assert!(!out.status.success());

    // Discovery as upstream: get and list, short name cs, no storage version hash.
    let v1 = server.get("/api/v1").await.json();
    let cs = v1["resources"]
        .as_array()
        .and_then(|rs| rs.iter().find(|r| r["name"] == "componentstatuses"))
        .cloned()
        .expect("componentstatuses in discovery");
    assert_eq!(
        cs,
        json!({"name": "componentstatuses", "singularName": "componentstatus",
            "namespaced": false, "kind": "ComponentStatus", "verbs": ["get", "list"],
            "shortNames": ["cs"]})
    );
}

/// The `kubernetes` Service and its EndpointSlice come back after a delete, as
/// upstream's kubernetes service controller reconciles them (every 10 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_kubernetes_service_is_reconciled_back() {
    let server = Server::builder().start().await;
    let svc = "/api/v1/namespaces/default/services/kubernetes";
    let slice = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes";
    server.wait_for(|r| r.status == 200, svc).await;
    for path in [svc, slice] {
        let r = server
            .request_full(http::Method::DELETE, path, &[], b"", true, false)
            .await
            .expect("delete");
        assert_eq!(r.status, 200, "{path}: {}", r.text());
    }
    let start = std::time::Instant::now();
    for path in [svc, slice] {
        loop {
            if server.get(path).await.status == 200 {
                break;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(30),
                "{path} not reconciled"
            );
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        }
    }
    let s = server.get(svc).await.json();
    assert_eq!(s["spec"]["ports"][0]["name"], "https");
    assert_eq!(s["metadata"]["labels"]["provider"], "kubernetes");
}
