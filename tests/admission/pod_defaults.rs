//! Priority and DefaultTolerationSeconds on new pods: the priority comes from the named
//! PriorityClass (or the global default, else 0), a pod may not state another one, only
//! one class may be the default; the not-ready and unreachable NoExecute taints are
//! tolerated for the flags' seconds unless the pod tolerates them already.

use super::super::harness::kubectl::Kubectl;
use super::super::harness::{require_tool, Server};

fn pod(name: &str, extra: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n{extra}  containers:\n  - name: c\n    image: nginx\n"
    )
}

fn json(k: &Kubectl, name: &str) -> serde_json::Value {
    serde_json::from_str(&k.ok(&["get", "pod", name, "-o", "json"])).expect("json")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn priority_and_default_tolerations() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder()
        .arg("--default-unreachable-toleration-seconds=120")
        .start()
        .await;
    let k = Kubectl::new(&server);

    // No class named, none the default: priority 0, tolerations added.
    k.ok_stdin(&["create", "-f", "-"], &pod("plain", ""));
    let p = json(&k, "plain");
    assert_eq!(p["spec"]["priority"], 0);
    assert_eq!(p["spec"]["preemptionPolicy"], "PreemptLowerPriority");
    assert_eq!(
        p["spec"]["tolerations"],
        serde_json::json!([
            {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
            {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 120},
        ])
    );

    // A system class.
    k.ok_stdin(
        &["create", "-n", "kube-system", "-f", "-"],
        &pod("critical", "  priorityClassName: system-cluster-critical\n"),
    );
    let p: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "pod", "critical", "-n", "kube-system", "-o", "json"]))
            .expect("json");
    assert_eq!(p["spec"]["priority"], 2000000000);

    // A class that does not exist, and a priority stated by the pod.
    let err = k.fails_stdin(
        &["create", "-f", "-"],
        &pod("lost", "  priorityClassName: nope\n"),
    );
    assert!(
        err.contains("pods \"lost\" is forbidden: no PriorityClass with name nope was found"),
        "{err}"
    );
    let err = k.fails_stdin(&["create", "-f", "-"], &pod("pushy", "  priority: 5\n"));
    assert!(err.contains("pods \"pushy\" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name"), "{err}");

    // A global default, used by pods that name none; a second default is refused.
    k.ok_stdin(
        &["create", "-f", "-"],
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: normal\nvalue: 1000\nglobalDefault: true\npreemptionPolicy: Never\n",
    );
    let err = k.fails_stdin(
        &["create", "-f", "-"],
        "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: other\nvalue: 7\nglobalDefault: true\n",
    );
    assert!(
        err.contains("priorityclasses.scheduling.k8s.io \"other\" is forbidden: PriorityClass normal is already marked as default. Only one default can exist"),
        "{err}"
    );
    // The watch cache may take a moment to see the new default.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut n = 0;
    loop {
        n += 1;
        let name = format!("defaulted-{n}");
        k.ok_stdin(&["create", "-f", "-"], &pod(&name, ""));
        let p = json(&k, &name);
        if p["spec"]["priority"] == 1000 {
            assert_eq!(p["spec"]["priorityClassName"], "normal");
            assert_eq!(p["spec"]["preemptionPolicy"], "Never");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "default class never used: {p}"
        );
    }

    // A pod tolerating everything gets no default tolerations.
    k.ok_stdin(
        &["create", "-f", "-"],
        &pod("tolerant", "  tolerations:\n  - operator: Exists\n"),
    );
    let p = json(&k, "tolerant");
    assert_eq!(
        p["spec"]["tolerations"],
        serde_json::json!([{"operator": "Exists"}])
    );

    // With the plugins off, none of this happens.
    let bare = Server::builder()
        .arg("--disable-admission-plugins=Priority,DefaultTolerationSeconds")
        .start()
        .await;
    let k = Kubectl::new(&bare);
    k.ok_stdin(&["create", "-f", "-"], &pod("bare", "  priority: 5\n"));
    let p = json(&k, "bare");
    assert_eq!(p["spec"]["priority"], 5);
    assert!(p["spec"].get("tolerations").is_none(), "{p}");
}
