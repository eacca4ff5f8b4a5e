//! Remote APIServices that misbehave: an extension server that stops, hangs, answers
//! forever or is misconfigured costs only its own group, with upstream's availability
//! reasons; a killed aggregator comes back with its remote APIServices.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::super::harness::extension::{ExtensionServer, FrontProxyPki, Reach, Registration};
use super::super::harness::kubectl::Kubectl;
use super::super::harness::{require_tool, Server};
use super::remote::{
    apply, register, register_external, setup, slice_yaml, wait_condition, FLUNDER,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_extension_server_that_goes_away_costs_only_its_group() {
    let Some((server, k, ext, _pki)) = setup(true).await else {
        return;
    };
    let reg = register(&k, &ext);
    k.ok(&["get", "flunders"]);
    let read = |f: &str| std::fs::read_to_string(server.pki(f)).expect("pki file");
    let admin = super::super::harness::extension::ExtClient::new(
        std::net::SocketAddr::from(([127, 0, 0, 1], server.port)),
        &read("ca.crt"),
        Some((read("admin.crt"), read("admin.key"))),
    );
    // The remote group-version in aggregated discovery, with its freshness.
    let freshness = || async {
        let accept = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
        let r = admin
            .request(http::Method::GET, "/apis", &[("accept", accept)], b"")
            .await
            .expect("GET /apis");
        let list: Value = serde_json::from_slice(&r.body).expect("aggregated discovery");
        list["items"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|g| g["metadata"]["name"] == "wardle.example.com")
            .map(|g| {
                g["versions"][0]["freshness"]
                    .as_str()
                    .unwrap_or("")
                    .to_owned()
            })
    };
    let start = Instant::now();
    while freshness().await.as_deref() != Some("Current") {
        assert!(start.elapsed() < Duration::from_secs(20), "never listed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    ext.stop().await;
    let down = wait_condition(&k, &reg.name(), "False", Some("FailedDiscoveryCheck"));
    let message = down["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with("failing or missing response from https://127.0.0.1:"),
        "{message}"
    );
    let out = k.run(&["get", "flunders"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ServiceUnavailable") || err.contains("unable to handle"),
        "{err}"
    );
    // Built-in resources keep answering.
    k.ok(&["get", "namespaces"]);
    let row = k.ok(&["get", "apiservice", &reg.name()]);
    assert!(row.contains("False (FailedDiscoveryCheck)"), "{row}");
    // Discovery keeps the group, marked Stale; readiness does not depend on it.
    let start = Instant::now();
    while freshness().await.as_deref() != Some("Stale") {
        assert!(start.elapsed() < Duration::from_secs(20), "never Stale");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(server.get("/readyz").await.status, 200);

    ext.restart().await;
    wait_condition(&k, &reg.name(), "True", Some("Passed"));
    k.ok(&["get", "flunders"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn availability_reasons_as_upstream_words_them() {
    let Some((_server, k, ext, _pki)) = setup(true).await else {
        return;
    };
    // No Service at all.
    let mut reg = Registration::for_server(&ext, Reach::NoEndpoints);
    reg.with_service = false;
    apply(&k, &reg.yaml());
    let c = wait_condition(&k, &reg.name(), "False", Some("ServiceNotFound"));
    assert_eq!(c["message"], "service/api in \"wardle\" is not present");

    // The Service without Endpoints.
    let reg = Registration::for_server(&ext, Reach::NoEndpoints);
    apply(&k, &reg.yaml());
    let c = wait_condition(&k, &reg.name(), "False", Some("EndpointsNotFound"));
    assert_eq!(
        c["message"],
        "cannot find endpointslices for service/api in \"wardle\""
    );

    // Endpoints, but on another port name.
    let wrong = slice_yaml(&reg, ext.port(), "other");
    apply(&k, &wrong);
    let c = wait_condition(&k, &reg.name(), "False", Some("MissingEndpoints"));
    assert_eq!(
        c["message"],
        "endpointslices for service/api in \"wardle\" have no addresses with port name \"https\""
    );

    // A server answering garbage fails discovery; the right endpoints make it Available.
    ext.garbage();
    let out = k.run_stdin(
        &["apply", "-f", "-"],
        &slice_yaml(&reg, ext.port(), "https"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    ext.normal();
    wait_condition(&k, &reg.name(), "True", Some("Passed"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_or_misconfigured_extension_server_costs_only_its_group() {
    let Some((_server, k, ext, _pki)) = setup(false).await else {
        return;
    };
    let reg = register_external(&k, &ext);

    // A caBundle that holds no certificate: client-go's words in the condition.
    use base64::Engine as _;
    let mut bad = Registration::for_server(&ext, Reach::ExternalName);
    bad.version = "v1beta1".into();
    bad.with_service = false;
    bad.ca_bundle = Some(base64::engine::general_purpose::STANDARD.encode("not a certificate"));
    apply(&k, &bad.yaml());
    let c = wait_condition(&k, &bad.name(), "False", Some("FailedDiscoveryCheck"));
    assert_eq!(
        c["message"],
        "unable to load root certificates: unable to parse bytes as PEM block"
    );

    // A server that stops answering: its requests time out, nothing else waits.
    ext.hang();
    let started = Instant::now();
    let out = k.run(&["get", "flunders", "--request-timeout=2s"]);
    assert!(!out.status.success());
    assert!(started.elapsed() < Duration::from_secs(10));
    let started = Instant::now();
    k.ok(&["get", "namespaces"]);
    k.ok(&["get", "--raw", "/apis"]);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "built-in requests slowed: {:?}",
        started.elapsed()
    );
    let c = wait_condition(&k, &reg.name(), "False", Some("FailedDiscoveryCheck"));
    assert!(
        c["message"]
            .as_str()
            .is_some_and(|m| m.contains("wardle.example.com/v1alpha1")),
        "{c}"
    );
    ext.normal();
    wait_condition(&k, &reg.name(), "True", Some("Passed"));
    k.ok(&["get", "flunders"]);
}

/// The aggregator worker killed: the supervisor restarts it, and its remote APIServices
/// come back from storage; the extension server keeps its objects.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_aggregator_proxies_again() {
    let Some((server, k, ext, _pki)) = setup(false).await else {
        return;
    };
    register_external(&k, &ext);
    let out = k.run_stdin(&["create", "-f", "-"], FLUNDER);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let before = server.workers()["aggregator"];
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(before as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .expect("kill the aggregator");
    let start = Instant::now();
    loop {
        let out = k.run(&[
            "get",
            "flunder",
            "first",
            "-o",
            "name",
            "--request-timeout=2s",
        ]);
        if out.status.success() {
            assert_eq!(
                String::from_utf8_lossy(&out.stdout).trim(),
                "flunder.wardle.example.com/first"
            );
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the remote group never came back: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_ne!(server.workers().get("aggregator").copied(), Some(before));
}

/// A remote response that never ends is cut off at the request timeout, and the rest of
/// the API keeps answering meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endless_remote_response_is_bounded_by_the_request_timeout() {
    use super::super::harness::extension::Mode;

    if !require_tool("kubectl") {
        return;
    }
    let pki = FrontProxyPki::new();
    let server = Server::builder()
        .front_proxy(&pki, Some(false))
        .arg("--request-timeout=3s")
        .start()
        .await;
    let ext = ExtensionServer::start(&pki).await;
    let k = Kubectl::new(&server);
    register_external(&k, &ext);

    ext.set_mode(Mode::Endless);
    let mut conn = server.conn(false);
    let started = Instant::now();
    let endless = conn
        .get("/apis/wardle.example.com/v1alpha1/namespaces/default/flunders")
        .await;
    assert!(endless.is_err(), "an endless body ended");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_secs(2) && took < Duration::from_secs(15),
        "cut off after {took:?}"
    );
    k.ok(&["get", "namespaces"]);
}
