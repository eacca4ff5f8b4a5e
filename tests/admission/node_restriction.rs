//! NodeRestriction (with `--enable-admission-plugins=NodeRestriction`, as kubeadm sets
//! it): a kubelet writes only its own Node, without foreign labels or new taints, only
//! mirror pods bound to and owned by itself, and only its own Lease.

use super::super::harness::kubectl::Kubectl;
use super::super::harness::{require_tool, Server};
use super::super::rbac::as_token_user;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn node(name: &str, labels: &str) -> String {
    format!("apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels:\n    kubernetes.io/hostname: {name}\n{labels}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubelets_write_only_their_own() {
    if !require_tool("kubectl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "tok-n1,system:node:n1,n1,system:nodes\n").expect("write");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .arg("--enable-admission-plugins=NodeRestriction")
        .start()
        .await;
    let admin = Kubectl::new(&server);
    let kubelet = |args: &[&str], stdin: Option<&str>| -> std::process::Output {
        match stdin {
            None => as_token_user(&server, "tok-n1", args),
            Some(text) => {
                let file = dir.path().join("in.yaml");
                std::fs::write(&file, text).expect("write");
                let path = file.display().to_string();
                let mut all = args.to_vec();
                all.extend(["-f", path.as_str()]);
                as_token_user(&server, "tok-n1", &all)
            }
        }
    };

    // Registering with a label outside the kubelet's own is refused; then it registers.
    let out = kubelet(
        &["create"],
        Some(&node(
            "n1",
            "    node-role.kubernetes.io/control-plane: \"\"\n",
        )),
    );
    assert!(
        stderr(&out).contains("nodes \"n1\" is forbidden: node \"n1\" is not allowed to set the following labels: node-role.kubernetes.io/control-plane"),
        "{out:?}"
    );
    let out = kubelet(
        &["create"],
        Some(&node(
            "n1",
            "    node.kubernetes.io/exclude-from-external-load-balancers: \"\"\n",
        )),
    );
    assert!(out.status.success(), "{out:?}");

    // Another node is not its to change; its own taints are not either.
    admin.ok_stdin(&["create", "-f", "-"], &node("n2", ""));
    // (A kubelet may not read another Node, so the change is a blind PUT.)
    let out = kubelet(
        &["replace", "--raw", "/api/v1/nodes/n2"],
        Some(r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"n2","labels":{"team":"a"}}}"#),
    );
    assert!(
        stderr(&out).contains("node \"n1\" is not allowed to modify node \"n2\""),
        "{out:?}"
    );
    let out = kubelet(&["taint", "node", "n1", "dedicated=x:NoSchedule"], None);
    assert!(
        stderr(&out).contains("node \"n1\" is not allowed to modify taints"),
        "{out:?}"
    );
    let out = kubelet(
        &["label", "node", "n1", "topology.kubernetes.io/zone=z1"],
        None,
    );
    assert!(out.status.success(), "{out:?}");

    // Pods: only mirror pods bound to and owned by itself.
    let out = kubelet(
        &["create", "-n", "default"],
        Some("apiVersion: v1\nkind: Pod\nmetadata:\n  name: plain\nspec:\n  nodeName: n1\n  containers:\n  - name: c\n    image: nginx\n"),
    );
    assert!(
        stderr(&out).contains("pods \"plain\" is forbidden: pod does not have \"kubernetes.io/config.mirror\" annotation, node \"n1\" can only create mirror pods"),
        "{out:?}"
    );
    let uid = admin.ok(&["get", "node", "n1", "-o", "jsonpath={.metadata.uid}"]);
    let mirror = |name: &str, node: &str| {
        format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  annotations:\n    kubernetes.io/config.mirror: x\n  ownerReferences:\n  - apiVersion: v1\n    kind: Node\n    name: {node}\n    uid: {uid}\n    controller: true\nspec:\n  nodeName: {node}\n  containers:\n  - name: c\n    image: nginx\n")
    };
    let out = kubelet(
        &["create", "-n", "default"],
        Some(&mirror("elsewhere", "n2")),
    );
    assert!(
        stderr(&out).contains("node \"n1\" can only create pods with spec.nodeName set to itself"),
        "{out:?}"
    );
    let out = kubelet(
        &["create", "-n", "default"],
        Some(&mirror("static-web", "n1")),
    );
    assert!(out.status.success(), "{out:?}");

    // Leases: its own, in kube-node-lease.
    let lease = |name: &str, ns: &str| {
        format!("apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: {name}\n  namespace: {ns}\nspec:\n  holderIdentity: {name}\n")
    };
    let out = kubelet(&["create"], Some(&lease("n2", "kube-node-lease")));
    assert!(
        stderr(&out)
            .contains("can only access node lease with the same name as the requesting node"),
        "{out:?}"
    );
    let out = kubelet(&["create"], Some(&lease("n1", "kube-node-lease")));
    assert!(out.status.success(), "{out:?}");
}
