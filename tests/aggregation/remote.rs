//! Remote APIServices end to end: the test's extension server (wardle) registered behind a
//! Service, driven with kubectl through the aggregator — availability, discovery, CRUD,
//! the identity the extension server is told, and what happens when it goes away, hangs
//! or answers garbage.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::super::harness::extension::{ExtensionServer, FrontProxyPki, Reach, Registration};
use super::super::harness::kubectl::Kubectl;
use super::super::harness::{require_tool, Server};

/// An EndpointSlice of the registration's Service: 127.0.0.1 at `port`, the port named
/// `port_name` (what `--enable-aggregator-routing=true` dials; Endpoints may not name a
/// loopback address, EndpointSlices may).
pub(super) fn slice_yaml(reg: &Registration, port: u16, port_name: &str) -> String {
    format!(
        "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: {svc}-loopback\n\
         \x20 namespace: {ns}\n  labels:\n    kubernetes.io/service-name: {svc}\naddressType: IPv4\n\
         ports:\n- name: {port_name}\n  port: {port}\n  protocol: TCP\nendpoints:\n\
         - addresses: [\"127.0.0.1\"]\n  conditions:\n    ready: true\n",
        svc = reg.service,
        ns = reg.namespace,
    )
}

/// A server under test acting as front proxy, an extension server, and kubectl.
pub(super) async fn setup(
    routing: bool,
) -> Option<(Server, Kubectl, ExtensionServer, FrontProxyPki)> {
    if !require_tool("kubectl") {
        return None;
    }
    let pki = FrontProxyPki::new();
    let server = Server::builder()
        .front_proxy(&pki, Some(routing))
        .start()
        .await;
    let ext = ExtensionServer::start(&pki).await;
    let k = Kubectl::new(&server);
    Some((server, k, ext, pki))
}

/// Registers `ext` (reached through an EndpointSlice) and waits until it is Available.
pub(super) fn register(k: &Kubectl, ext: &ExtensionServer) -> Registration {
    let reg = Registration::for_server(ext, Reach::EndpointSlice);
    apply(k, &reg.yaml());
    wait_condition(k, &reg.name(), "True", None);
    reg
}

/// Polls the APIService's Available condition until it has `status` (and `reason`).
pub(super) fn wait_condition(k: &Kubectl, name: &str, status: &str, reason: Option<&str>) -> Value {
    let start = Instant::now();
    loop {
        let out = k.run(&["get", "apiservice", name, "-o", "json"]);
        if out.status.success() {
            let o: Value = serde_json::from_slice(&out.stdout).expect("json");
            let available = o["status"]["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|c| c["type"] == "Available")
                .cloned()
                .unwrap_or(Value::Null);
            if available["status"] == status && reason.is_none_or(|r| available["reason"] == r) {
                return available;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "{name} never became {status} {reason:?}: {available}"
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `kubectl apply -f -` of `manifests`, which must succeed.
pub(super) fn apply(k: &Kubectl, manifests: &str) {
    let out = k.run_stdin(&["apply", "-f", "-"], manifests);
    assert!(
        out.status.success(),
        "apply: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Registers `ext` behind an ExternalName Service (cluster IP routing, the default) and
/// waits until it is Available.
pub(super) fn register_external(k: &Kubectl, ext: &ExtensionServer) -> Registration {
    let reg = Registration::for_server(ext, Reach::ExternalName);
    apply(k, &reg.yaml());
    wait_condition(k, &reg.name(), "True", Some("Passed"));
    reg
}

pub(super) const FLUNDER: &str = r#"
apiVersion: wardle.example.com/v1alpha1
kind: Flunder
metadata:
  name: first
  namespace: default
spec:
  reference: none
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_group_is_served_through_the_aggregator() {
    let Some((server, k, ext, _pki)) = setup(true).await else {
        return;
    };
    let reg = register(&k, &ext);
    let row = k.ok(&["get", "apiservice", &reg.name()]);
    assert!(row.contains("wardle/api") && row.contains("True"), "{row}");

    // Discovery: legacy group document, the group in /apis, kubectl api-resources.
    let group: Value = serde_json::from_str(&k.ok(&["get", "--raw", "/apis/wardle.example.com"]))
        .expect("group json");
    assert_eq!(group["kind"], "APIGroup", "{group}");
    assert_eq!(
        group["preferredVersion"]["groupVersion"],
        "wardle.example.com/v1alpha1"
    );
    let apis: Value = serde_json::from_str(&k.ok(&["get", "--raw", "/apis"])).expect("apis");
    assert!(
        apis["groups"]
            .as_array()
            .is_some_and(|g| g.iter().any(|g| g["name"] == "wardle.example.com")),
        "{apis}"
    );
    let start = Instant::now();
    loop {
        let resources = k.ok(&["api-resources", "--api-group=wardle.example.com"]);
        if resources.contains("flunders") && resources.contains("fischers") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "api-resources never listed the remote kinds:\n{resources}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }

    // CRUD through the proxy, as the admin.
    ext.clear_seen();
    let out = k.run_stdin(&["create", "-f", "-"], FLUNDER);
    assert!(
        out.status.success(),
        "create: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value =
        serde_json::from_str(&k.ok(&["get", "flunder", "first", "-o", "json"])).expect("json");
    assert_eq!(got["kind"], "Flunder");
    assert_eq!(got["metadata"]["name"], "first");
    let listed = k.ok(&["get", "flunders"]);
    assert!(listed.contains("first"), "{listed}");
    let seen = ext.seen();
    let create = seen
        .iter()
        .find(|s| s.method == "POST")
        .expect("the create reached the extension server");
    assert_eq!(
        create.user.as_deref(),
        Some("kubernetes-admin"),
        "{create:?}"
    );
    assert!(
        create.groups.iter().any(|g| g == "system:masters"),
        "{create:?}"
    );
    // The proxy speaks HTTP/2 to a server that offers it, with the front-proxy identity.
    assert_eq!(create.version, http::Version::HTTP_2, "{create:?}");
    assert_eq!(create.client_cn.as_deref(), Some("front-proxy-client"));
    assert!(create.headers.get("authorization").is_none());
    assert!(create.headers.get("audit-id").is_some(), "{create:?}");
    k.ok(&["delete", "flunder", "first"]);
    assert!(ext.objects("flunders").is_empty());

    // A user without rights is refused by the aggregator before the remote hears of it.
    ext.clear_seen();
    let out = k.run(&["get", "flunders", "--as=nobody"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("forbidden"), "{err}");
    assert!(ext
        .seen_at("/apis/wardle.example.com/v1alpha1/namespaces/default/flunders")
        .is_empty());
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_external_name_service_is_reached_by_cluster_ip_routing() {
    let Some((_server, k, ext, _pki)) = setup(false).await else {
        return;
    };
    register_external(&k, &ext);
    let out = k.run_stdin(&["create", "-f", "-"], FLUNDER);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(ext.objects("flunders").len(), 1);

    // The remote OpenAPI is merged: the v3 index lists the group-version, v2 has its
    // paths, and kubectl explain finds the remote kind.
    let start = Instant::now();
    loop {
        let index: Value =
            serde_json::from_str(&k.ok(&["get", "--raw", "/openapi/v3"])).expect("index");
        if index["paths"]
            .get("apis/wardle.example.com/v1alpha1")
            .is_some()
        {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "v3 index: {index}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let explained = k.ok(&["explain", "flunders"]);
    assert!(
        explained.contains("KIND:") && explained.contains("Flunder"),
        "{explained}"
    );
    let v2: Value = serde_json::from_str(&k.ok(&["get", "--raw", "/openapi/v2"])).expect("v2");
    assert!(
        v2["paths"]
            .as_object()
            .is_some_and(|p| p.keys().any(|k| k.starts_with("/apis/wardle.example.com/"))),
        "no remote paths in /openapi/v2"
    );

    // A watch streams through the proxy: a create after kubectl's listing is an event.
    let (mut child, rx) = k.watch_lines(&[
        "get",
        "flunders",
        "--watch",
        "--output-watch-events",
        "-o",
        "custom-columns=EVENT:.type,NAME:.object.metadata.name",
    ]);
    let mut seen: Vec<String> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline && !seen.iter().any(|l| l.starts_with("EVENT")) {
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
            seen.push(line);
        }
    }
    let out = k.run_stdin(&["create", "-f", "-"], &FLUNDER.replace("first", "second"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let added = |l: &String| l.split_whitespace().collect::<Vec<_>>() == ["ADDED", "second"];
    while Instant::now() < deadline && !seen.iter().any(added) {
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
            seen.push(line);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(seen.iter().any(added), "{seen:?}");
}

/// The same remote group through kube-rs: discovery finds it, and typed-less CRUD and a
/// watch go through the proxy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kube_rs_sees_the_remote_group() {
    use futures_util::StreamExt;
    use kube::api::{
        Api, DeleteParams, DynamicObject, ListParams, PostParams, WatchEvent, WatchParams,
    };
    use kube::discovery::{ApiResource, Discovery, Scope};

    let Some((server, k, ext, _pki)) = setup(false).await else {
        return;
    };
    register_external(&k, &ext);

    let config = kube::Config::from_custom_kubeconfig(
        kube::config::Kubeconfig::read_from(server.kubeconfig()).expect("kubeconfig"),
        &kube::config::KubeConfigOptions::default(),
    )
    .await
    .expect("config");
    let client = kube::Client::try_from(config).expect("client");
    let start = Instant::now();
    let (resource, caps) = loop {
        let discovery = Discovery::new(client.clone())
            .filter(&["wardle.example.com"])
            .run()
            .await
            .expect("discovery");
        let found = discovery
            .groups()
            .flat_map(|g| g.recommended_resources())
            .find(|(r, _)| r.plural == "flunders");
        if let Some(found) = found {
            break found;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no flunders in discovery"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(resource.group, "wardle.example.com");
    assert_eq!(resource.version, "v1alpha1");
    assert_eq!(caps.scope, Scope::Namespaced);

    let api: Api<DynamicObject> =
        Api::namespaced_with(client, "default", &ApiResource { ..resource });
    let mut events = api
        .watch(&WatchParams::default(), "0")
        .await
        .expect("watch")
        .boxed();
    let flunder: DynamicObject = serde_json::from_str(
        &serde_json::to_string(&serde_yaml_ng::from_str::<Value>(FLUNDER).expect("yaml"))
            .expect("json"),
    )
    .expect("object");
    let created = api
        .create(&PostParams::default(), &flunder)
        .await
        .expect("create");
    assert_eq!(created.metadata.name.as_deref(), Some("first"));
    let got = api.get("first").await.expect("get");
    assert_eq!(got.data["spec"]["reference"], "none");
    let listed = api.list(&ListParams::default()).await.expect("list");
    assert_eq!(listed.items.len(), 1);
    let event = tokio::time::timeout(Duration::from_secs(20), events.next())
        .await
        .expect("an event in time")
        .expect("an event")
        .expect("a good event");
    assert!(
        matches!(&event, WatchEvent::Added(o) if o.metadata.name.as_deref() == Some("first")),
        "{event:?}"
    );
    api.delete("first", &DeleteParams::default())
        .await
        .expect("delete");
    let missing = api.get("first").await.expect_err("gone");
    assert!(matches!(missing, kube::Error::Api(s) if s.code == 404));
}

/// An upgraded connection (exec-like, SPDY/3.1) passes through the aggregator to the
/// remote server and back, byte for byte.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upgraded_connection_passes_through() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let Some((server, k, ext, _pki)) = setup(false).await else {
        return;
    };
    register_external(&k, &ext);

    let read = |f: &str| std::fs::read_to_string(server.pki(f)).expect("pki file");
    let client = super::super::harness::extension::ExtClient::new(
        std::net::SocketAddr::from(([127, 0, 0, 1], server.port)),
        &read("ca.crt"),
        Some((read("admin.crt"), read("admin.key"))),
    );
    let path = "/apis/wardle.example.com/v1alpha1/namespaces/default/flunders/first/echo";
    let upgrade = client
        .upgrade(
            path,
            "SPDY/3.1",
            &[("x-stream-protocol-version", "v4.channel.k8s.io")],
        )
        .await
        .expect("upgrade");
    assert_eq!(upgrade.status, http::StatusCode::SWITCHING_PROTOCOLS);
    let mut io = upgrade.io.expect("upgraded connection");
    io.write_all(b"hello through the aggregator")
        .await
        .expect("write");
    let mut back = [0u8; 28];
    tokio::time::timeout(Duration::from_secs(10), io.read_exact(&mut back))
        .await
        .expect("echo in time")
        .expect("read");
    assert_eq!(&back, b"hello through the aggregator");
    let seen = ext.seen_at(path);
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].user.as_deref(), Some("kubernetes-admin"));
}

/// With no front-proxy flags the server sets itself up as kubeadm does: a front-proxy CA
/// and client certificate in the cert dir (used as they are when already there),
/// request-header authentication for `front-proxy-client`, published for extension
/// servers; so a remote group works on a server started with no flags at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_with_no_flags_is_a_front_proxy_as_under_kubeadm() {
    if !require_tool("kubectl") {
        return;
    }
    let data = tempfile::tempdir().expect("data dir");
    // A kubeadm-style cert dir: the front proxy's CA and client pair (no CA key).
    let pki = FrontProxyPki::in_dir(&data.path().join("pki"));
    let server = Server::builder().data_dir(data.path()).start().await;
    let k = Kubectl::new(&server);
    let cm: Value = serde_json::from_str(&k.ok(&[
        "get",
        "configmap",
        "-n",
        "kube-system",
        "extension-apiserver-authentication",
        "-o",
        "json",
    ]))
    .expect("json");
    assert_eq!(cm["data"]["requestheader-client-ca-file"], pki.ca_pem());
    assert_eq!(
        cm["data"]["requestheader-allowed-names"],
        "[\"front-proxy-client\"]"
    );
    assert_eq!(
        cm["data"]["requestheader-username-headers"],
        "[\"X-Remote-User\"]"
    );

    let ext = ExtensionServer::start(&pki).await;
    register_external(&k, &ext);
    ext.clear_seen();
    k.ok(&["get", "flunders"]);
    let seen = ext.seen();
    let list = seen
        .iter()
        .find(|s| s.path.contains("/flunders"))
        .expect("listed");
    assert_eq!(list.user.as_deref(), Some("kubernetes-admin"));

    // A server whose cert dir has nothing made its own pair.
    let fresh = Server::builder().start().await;
    for f in [
        "front-proxy-ca.crt",
        "front-proxy-client.crt",
        "front-proxy-client.key",
    ] {
        assert!(fresh.pki(f).exists(), "{f} missing");
    }
}
