//! PUT as each type's upstream strategy has it (v1.33.4 `pkg/registry/*/strategy.go`):
//! `AllowCreateOnUpdate` (leases, limit ranges, events, endpoints, services, runtime
//! classes, RBAC) turns a PUT of a missing object into a create; `AllowUnconditionalUpdate`
//! false (leases, runtime classes, PDBs, webhook configurations, admission policies, the
//! CSI and attachment types) makes a PUT without a resourceVersion a 422. Whether the
//! object exists is decided first, as upstream's store does.

use http::Method;
use serde_json::{json, Value};

use crate::harness::Server;

const JSON: &str = "application/json";

fn lease(rv: Option<&str>) -> Value {
    let mut l = json!({
        "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
        "metadata": {"name": "l1", "namespace": "default"},
        "spec": {"holderIdentity": "a"},
    });
    if let Some(rv) = rv {
        l["metadata"]["resourceVersion"] = json!(rv);
    }
    l
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn put_creates_or_requires_a_resource_version_per_type() {
    let server = Server::builder().start().await;
    let put = |path: &'static str, body: Value| {
        let server = &server;
        async move { server.send_json(Method::PUT, path, JSON, &body).await }
    };
    let lease_path = "/apis/coordination.k8s.io/v1/namespaces/default/leases/l1";

    // A missing lease is created by PUT, resourceVersion or not.
    let r = put(lease_path, lease(Some("12345"))).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let rv = r.json()["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(r.json()["metadata"]["uid"].is_string());

    // Then it must name what it replaces.
    let r = put(lease_path, lease(None)).await;
    assert_eq!(r.status, 422, "{}", r.text());
    let status = r.json();
    assert_eq!(
        status["message"],
        "leases.coordination.k8s.io \"l1\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"
    );
    assert_eq!(status["details"]["kind"], "leases");
    let mut changed = lease(Some(&rv));
    changed["spec"]["holderIdentity"] = json!("b");
    let r = put(lease_path, changed).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = put(lease_path, lease(Some(&rv))).await;
    assert_eq!(r.status, 409, "a stale resourceVersion: {}", r.text());

    // A ConfigMap is neither: PUT of a missing one is a 404, of a present one without a
    // resourceVersion an overwrite.
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "c1", "namespace": "default"}, "data": {"a": "1"}});
    let cm_path = "/api/v1/namespaces/default/configmaps/c1";
    let r = put(cm_path, cm.clone()).await;
    assert_eq!(r.status, 404, "{}", r.text());
    let r = server
        .send_json(
            Method::POST,
            "/api/v1/namespaces/default/configmaps",
            JSON,
            &cm,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let r = put(cm_path, cm).await;
    assert_eq!(r.status, 200, "{}", r.text());

    // A missing CSIDriver without a resourceVersion: not found before unconditional.
    let driver = json!({"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver",
        "metadata": {"name": "d.example.com"}, "spec": {}});
    let r = put("/apis/storage.k8s.io/v1/csidrivers/d.example.com", driver).await;
    assert_eq!(r.status, 404, "{}", r.text());

    // A PodDisruptionBudget's PUT needs its resourceVersion, its status' too.
    let pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": "p1", "namespace": "default"},
        "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "a"}}}});
    let r = server
        .send_json(
            Method::POST,
            "/apis/policy/v1/namespaces/default/poddisruptionbudgets",
            JSON,
            &pdb,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    for path in [
        "/apis/policy/v1/namespaces/default/poddisruptionbudgets/p1",
        "/apis/policy/v1/namespaces/default/poddisruptionbudgets/p1/status",
    ] {
        let r = put(path, pdb.clone()).await;
        assert_eq!(r.status, 422, "{path}: {}", r.text());
    }

    // A Role PUT to a missing name creates it.
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
        "metadata": {"name": "r1", "namespace": "default"}, "rules": []});
    let r = put(
        "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/r1",
        role,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
}

/// The field manager records an update as the writer sent it, before the strategy's
/// PrepareForUpdate: a DaemonSet whose template changes gets its
/// `deprecated.daemonset.template.generation` bumped by the strategy, and that
/// annotation stays its creator's field, not the updater's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_update_records_the_writers_fields_before_the_strategy_prepares() {
    let server = Server::builder().start().await;
    let path = "/apis/apps/v1/namespaces/default/daemonsets";
    let ds = json!({
        "apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "d"},
        "spec": {"selector": {"matchLabels": {"app": "d"}},
            "template": {"metadata": {"labels": {"app": "d"}},
                "spec": {"containers": [{"name": "c", "image": "busybox"}]}}},
    });
    let r = server
        .send_json(
            Method::POST,
            &format!("{path}?fieldManager=creator"),
            JSON,
            &ds,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let mut changed = r.json();
    changed["spec"]["template"]["spec"]["containers"][0]["image"] = json!("busybox:1.36");
    let r = server
        .send_json(
            Method::PUT,
            &format!("{path}/d?fieldManager=updater"),
            JSON,
            &changed,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let updated = r.json();
    let annotation = "deprecated.daemonset.template.generation";
    assert_eq!(updated["metadata"]["annotations"][annotation], "2");
    let fields = |manager: &str| {
        updated["metadata"]["managedFields"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|e| e["manager"] == manager)
            .map(|e| e["fieldsV1"].to_string())
            .unwrap_or_default()
    };
    let key = format!("f:{annotation}");
    assert!(fields("creator").contains(&key), "{updated:#}");
    assert!(!fields("updater").contains(&key), "{updated:#}");
    assert!(fields("updater").contains("f:image"), "{updated:#}");
}
