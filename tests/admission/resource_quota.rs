//! ResourceQuota: usage counted into `status.used`, writes over a limit refused with
//! upstream's message, pods that state no limit a quota limits refused, dry runs not
//! charged, and a delete freeing its share again.

use std::time::{Duration, Instant};

use super::super::setup;

fn pod(name: &str, cpu: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources:\n      requests:\n        cpu: {cpu}\n      limits:\n        cpu: {cpu}\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quotas_count_and_refuse() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok(&["create", "namespace", "q"]);
    k.ok_stdin(
        &["create", "-n", "q", "-f", "-"],
        "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: small\nspec:\n  hard:\n    pods: \"2\"\n    limits.cpu: \"1\"\n    count/configmaps: \"3\"\n",
    );
    // The controller fills in the status (kube-root-ca.crt is one ConfigMap already).
    let used = |what: &str| {
        k.ok(&[
            "get",
            "resourcequota",
            "small",
            "-n",
            "q",
            "-o",
            &format!("jsonpath={{.status.used.{}}}", what.replace('.', "\\.")),
        ])
    };
    // The namespace's kube-root-ca.crt is written by the server itself (not admitted, so
    // not charged at once): wait until the controller has counted it too.
    let deadline = Instant::now() + Duration::from_secs(10);
    while used("pods") != "0" || used("count/configmaps") != "1" {
        assert!(Instant::now() < deadline, "quota status never filled");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // A pod that states no cpu limit is refused, naming the container.
    let err = k.fails_stdin(
        &["create", "-n", "q", "-f", "-"],
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: bare\nspec:\n  containers:\n  - name: app\n    image: nginx\n",
    );
    assert!(
        err.contains(
            "pods \"bare\" is forbidden: failed quota: small: must specify limits.cpu for: app"
        ),
        "{err}"
    );

    // A dry run is checked but not charged.
    k.ok_stdin(
        &["create", "-n", "q", "--dry-run=server", "-f", "-"],
        &pod("dry", "400m"),
    );
    assert_eq!(used("pods"), "0");

    k.ok_stdin(&["create", "-n", "q", "-f", "-"], &pod("a", "400m"));
    assert_eq!(used("pods"), "1");
    assert_eq!(used("limits.cpu"), "400m");
    let err = k.fails_stdin(&["create", "-n", "q", "-f", "-"], &pod("b", "700m"));
    assert!(
        err.contains("pods \"b\" is forbidden: exceeded quota: small, requested: limits.cpu=700m, used: limits.cpu=400m, limited: limits.cpu=1"),
        "{err}"
    );
    k.ok_stdin(&["create", "-n", "q", "-f", "-"], &pod("b", "500m"));
    let err = k.fails_stdin(&["create", "-n", "q", "-f", "-"], &pod("c", "100m"));
    assert!(
        err.contains("exceeded quota: small, requested: pods=1, used: pods=2, limited: pods=2"),
        "{err}"
    );

    // Object counts for any resource.
    k.ok(&["create", "configmap", "one", "-n", "q"]);
    k.ok(&["create", "configmap", "two", "-n", "q"]);
    let err = k.fails(&["create", "configmap", "three", "-n", "q"]);
    assert!(
        err.contains("exceeded quota: small, requested: count/configmaps=1, used: count/configmaps=3, limited: count/configmaps=3"),
        "{err}"
    );

    // A delete frees its share soon after.
    k.ok(&["delete", "pod", "a", "-n", "q", "--wait=false"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let out = k.run_stdin(&["create", "-n", "q", "-f", "-"], &pod("c", "100m"));
        if out.status.success() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the deleted pod's share never came back: {out:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
