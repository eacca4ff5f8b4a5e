//! NamespaceLifecycle: upstream's immortal namespaces refuse deletion; objects go only
//! into namespaces that exist; with the plugin disabled, neither holds.

use super::super::harness::kubectl::Kubectl;
use super::super::harness::Server;
use super::super::setup;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protected_namespaces_and_missing_ones() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    for ns in ["default", "kube-system", "kube-public"] {
        let err = k.fails(&["delete", "namespace", ns]);
        assert!(
            err.contains(&format!(
                "Error from server (Forbidden): namespaces \"{ns}\" is forbidden: this namespace may not be deleted"
            )),
            "{err}"
        );
    }
    // A dry run is refused alike, and nothing is marked.
    let err = k.fails(&["delete", "namespace", "default", "--dry-run=server"]);
    assert!(err.contains("this namespace may not be deleted"), "{err}");
    let phase = k.ok(&[
        "get",
        "namespace",
        "default",
        "-o",
        "jsonpath={.status.phase}",
    ]);
    assert_eq!(phase, "Active");

    let err = k.fails(&["create", "configmap", "c", "-n", "nowhere"]);
    assert!(
        err.contains("failed to create configmap: namespaces \"nowhere\" not found"),
        "{err}"
    );
    // Created and used at once: the cache may not have it yet, storage does.
    k.ok(&["create", "namespace", "fresh"]);
    k.ok(&["create", "configmap", "c", "-n", "fresh"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disabled_namespace_lifecycle_checks_nothing() {
    if !super::super::harness::require_tool("kubectl") {
        return;
    }
    let server = Server::builder()
        .arg("--disable-admission-plugins=NamespaceLifecycle")
        .start()
        .await;
    let k = Kubectl::new(&server);
    k.ok(&["create", "configmap", "c", "-n", "nowhere"]);
    let out = k.ok(&["delete", "namespace", "kube-public", "--dry-run=server"]);
    assert!(
        out.contains("namespace \"kube-public\" deleted (server dry run)"),
        "{out}"
    );
}
