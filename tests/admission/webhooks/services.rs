//! Admission webhooks named by `clientConfig.service`: called at
//! `https://<name>.<namespace>.svc:<port><path>` (the name the serving certificate must
//! carry) over a connection to where the service resolves, as kube-apiserver 1.33's
//! resolvers do: an `ExternalName` service under cluster IP routing (the default), the
//! server itself for `default/kubernetes:443`, and upstream's failures (a missing
//! service, no Endpoints, ExternalName under `--enable-aggregator-routing`) as call
//! failures that `failurePolicy: Ignore` passes over.
//!
//! Endpoint routing reads Endpoints objects, as 1.33 does, and their validation refuses
//! loopback addresses, so its success path is unit-tested in kas-server
//! (`service_resolver`), not here.

use std::time::Duration;

use serde_json::{json, Value};

use super::super::super::harness::https::ReviewWebhook;
use super::super::super::harness::kubectl::Kubectl;
use super::super::super::harness::{require_tool, Server};
use super::{answer, configmap, configuration, until};

const NS: &str = "webhooks";

/// A webhook whose certificate also names the services `ext` and `hook` of [`NS`].
async fn start_webhook() -> ReviewWebhook {
    ReviewWebhook::start_named(
        &["ext.webhooks.svc", "hook.webhooks.svc"],
        |path, review| async move { answer(&path, &review) },
    )
    .await
}

/// A webhook called through `service` (a `clientConfig.service`), for ConfigMaps
/// labelled `scenario: <scenario>`.
fn hook(name: &str, service: Value, ca: &str, scenario: &str, extra: Value) -> Value {
    let mut h = json!({
        "name": name,
        "clientConfig": {"service": service, "caBundle": ca},
        "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"],
                   "resources": ["configmaps"]}],
        "objectSelector": {"matchLabels": {"scenario": scenario}},
        "sideEffects": "None",
        "admissionReviewVersions": ["v1"],
    });
    if let (Some(h), Some(extra)) = (h.as_object_mut(), extra.as_object()) {
        h.extend(extra.clone());
    }
    h
}

fn service(name: &str, spec: Value) -> String {
    json!({"apiVersion": "v1", "kind": "Service",
           "metadata": {"name": name, "namespace": NS}, "spec": spec})
    .to_string()
}

/// A server started with `args`, kubectl, the webhook and the namespace [`NS`].
async fn setup(args: &[&str]) -> Option<(Server, Kubectl, ReviewWebhook)> {
    if !require_tool("kubectl") {
        return None;
    }
    let webhook = start_webhook().await;
    let mut builder = Server::builder();
    for a in args {
        builder = builder.arg(*a);
    }
    let server = builder.start().await;
    let k = Kubectl::new(&server);
    k.ok(&["create", "namespace", NS]);
    Some((server, k, webhook))
}

/// Waits until the webhook configured for `scenario` refuses (it is in effect).
fn wait_in_effect(k: &Kubectl, scenario: &str) {
    until(Duration::from_secs(5), "the webhooks are in effect", || {
        !k.run_stdin(
            &["create", "-f", "-", "--dry-run=server"],
            &configmap("probe", json!({"scenario": scenario})),
        )
        .status
        .success()
    });
}

fn refusal(k: &Kubectl, name: &str, scenario: &str) -> String {
    k.fails_stdin(
        &["create", "-f", "-"],
        &configmap(name, json!({"scenario": scenario})),
    )
}

/// Cluster IP routing (the default): an ExternalName service pointing at `localhost`
/// reaches the webhook under the service's name; a missing service fails the call with
/// upstream's message, or is passed over with Ignore; a service whose name the
/// certificate does not carry fails verification; `default/kubernetes:443` is this
/// server itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn service_references_with_cluster_ip_routing() {
    let Some((server, k, webhook)) = setup(&[]).await else {
        return;
    };
    let port = webhook.addr().port();
    let external = json!({"type": "ExternalName", "externalName": "localhost"});
    k.ok_stdin(&["create", "-f", "-"], &service("ext", external.clone()));
    k.ok_stdin(&["create", "-f", "-"], &service("unnamed", external));
    let ca = &webhook.ca_bundle();
    let svc = |name: &str, port: u16, path: &str| json!({"namespace": NS, "name": name, "port": port, "path": path});
    let server_ca = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        std::fs::read(server.pki("ca.crt")).expect("server CA"),
    );
    let config = configuration(
        "ValidatingWebhookConfiguration",
        "services",
        vec![
            hook(
                "ext.example.com",
                svc("ext", port, "/deny-bad"),
                ca,
                "ext",
                json!({}),
            ),
            hook(
                "missing-fail.example.com",
                json!({"namespace": NS, "name": "nope", "path": "/allow"}),
                ca,
                "missing-fail",
                json!({}),
            ),
            hook(
                "missing-ignore.example.com",
                svc("nope", 443, "/allow"),
                ca,
                "missing-ignore",
                json!({"failurePolicy": "Ignore"}),
            ),
            hook(
                "unnamed.example.com",
                svc("unnamed", port, "/allow"),
                ca,
                "unnamed",
                json!({}),
            ),
            hook(
                "loopback.example.com",
                json!({"namespace": "default", "name": "kubernetes", "path": "/deny-bad"}),
                &server_ca,
                "loopback",
                json!({}),
            ),
        ],
    );
    k.ok_stdin(&["create", "-f", "-"], &config);
    wait_in_effect(&k, "missing-fail");

    // Through the ExternalName service: the webhook decides.
    k.ok_stdin(
        &["create", "-f", "-"],
        &configmap("good", json!({"scenario": "ext"})),
    );
    let err = refusal(&k, "bad-one", "ext");
    assert!(
        err.contains("admission webhook \"ext.example.com\" denied the request: names starting with bad are not allowed"),
        "{err}"
    );
    let seen = webhook.reviews("/deny-bad");
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[0].0, "/deny-bad?timeout=10s");

    let err = refusal(&k, "missing", "missing-fail");
    assert!(
        err.contains("Error from server (InternalError): error when creating \"STDIN\": Internal error occurred: failed calling webhook \"missing-fail.example.com\": failed to call webhook: Post \"https://nope.webhooks.svc:443/allow?timeout=10s\": service \"nope\" not found"),
        "{err}"
    );
    k.ok_stdin(
        &["create", "-f", "-"],
        &configmap("ignored", json!({"scenario": "missing-ignore"})),
    );

    // Reached (localhost), but the certificate does not name unnamed.webhooks.svc.
    let err = refusal(&k, "unverified", "unnamed");
    assert!(
        err.contains(&format!(
            "failed calling webhook \"unnamed.example.com\": failed to call webhook: Post \"https://unnamed.webhooks.svc:{port}/allow?timeout=10s\": "
        )),
        "{err}"
    );
    assert!(webhook.reviews("/allow").is_empty());

    // default/kubernetes:443 is this server, which verifies as kubernetes.default.svc
    // against its own CA and answers the anonymous POST itself.
    let err = refusal(&k, "loop", "loopback");
    assert!(
        err.contains("failed calling webhook \"loopback.example.com\": failed to call webhook: ")
            && err.contains("system:anonymous"),
        "{err}"
    );
}

/// `--enable-aggregator-routing=true`: a service is reached through its EndpointSlices, so
/// one without them fails as upstream words it, and an ExternalName service is refused;
/// Ignore passes over a failure; a slice naming the webhook on 127.0.0.1 is then used.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn service_references_with_endpoint_routing() {
    let Some((_server, k, webhook)) = setup(&["--enable-aggregator-routing=true"]).await else {
        return;
    };
    let port = webhook.addr().port();
    k.ok_stdin(
        &["create", "-f", "-"],
        &service(
            "hook",
            json!({"type": "ClusterIP",
                   "ports": [{"name": "https", "port": 443, "targetPort": port}]}),
        ),
    );
    k.ok_stdin(
        &["create", "-f", "-"],
        &service(
            "ext",
            json!({"type": "ExternalName", "externalName": "localhost"}),
        ),
    );
    let ca = &webhook.ca_bundle();
    let svc = |name: &str| json!({"namespace": NS, "name": name, "path": "/allow"});
    let config = configuration(
        "ValidatingWebhookConfiguration",
        "routed",
        vec![
            hook("hook.example.com", svc("hook"), ca, "hook", json!({})),
            hook(
                "hook-ignore.example.com",
                svc("hook"),
                ca,
                "hook-ignore",
                json!({"failurePolicy": "Ignore"}),
            ),
            hook(
                "ext.example.com",
                json!({"namespace": NS, "name": "ext", "port": port, "path": "/allow"}),
                ca,
                "ext",
                json!({}),
            ),
            hook(
                "port.example.com",
                json!({"namespace": NS, "name": "hook", "port": 8443}),
                ca,
                "port",
                json!({}),
            ),
        ],
    );
    k.ok_stdin(&["create", "-f", "-"], &config);
    wait_in_effect(&k, "hook");

    let failed = |hook: &str, url: &str, why: &str| {
        format!("Internal error occurred: failed calling webhook \"{hook}\": failed to call webhook: Post \"{url}\": {why}")
    };
    let err = refusal(&k, "no-endpoints", "hook");
    let url = "https://hook.webhooks.svc:443/allow?timeout=10s";
    assert!(
        err.contains(&failed(
            "hook.example.com",
            url,
            "no endpoints available for service \"hook\""
        )),
        "{err}"
    );
    k.ok_stdin(
        &["create", "-f", "-"],
        &configmap("ignored", json!({"scenario": "hook-ignore"})),
    );
    let err = refusal(&k, "external", "ext");
    let ext_url = format!("https://ext.webhooks.svc:{port}/allow?timeout=10s");
    assert!(
        err.contains(&failed(
            "ext.example.com",
            &ext_url,
            "unsupported service type \"ExternalName\""
        )),
        "{err}"
    );
    let err = refusal(&k, "other-port", "port");
    assert!(
        err.contains("failed calling webhook \"port.example.com\": failed to call webhook: Post \"https://hook.webhooks.svc:8443")
            && err.contains("\": no service port 8443 found for service \"hook\""),
        "{err}"
    );

    assert!(webhook.seen().is_empty());

    // An EndpointSlice of the service naming the webhook on 127.0.0.1 (slices may name a
    // loopback address; v1 Endpoints may not): the watch delivers it and calls go there.
    k.ok_stdin(
        &["create", "-f", "-"],
        &json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
                "metadata": {"name": "hook-loopback", "namespace": NS,
                             "labels": {"kubernetes.io/service-name": "hook"}},
                "addressType": "IPv4",
                "ports": [{"name": "https", "port": port, "protocol": "TCP"}],
                "endpoints": [{"addresses": ["127.0.0.1"], "conditions": {"ready": true}}]})
        .to_string(),
    );
    until(Duration::from_secs(5), "the EndpointSlice is used", || {
        k.run_stdin(
            &["create", "-f", "-"],
            &configmap("routed-ok", json!({"scenario": "hook"})),
        )
        .status
        .success()
    });
    assert!(!webhook.seen().is_empty());
}
