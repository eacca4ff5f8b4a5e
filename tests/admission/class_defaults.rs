//! The small built-in plugins on by default: TaintNodesByCondition,
//! StorageObjectInUseProtection, DefaultStorageClass, PersistentVolumeClaimResize,
//! DefaultIngressClass, RuntimeClass, CertificateSubjectRestriction; and
//! AlwaysPullImages when enabled.

use super::super::harness::kubectl::Kubectl;
use super::super::harness::{require_tool, Server};
use super::csr_request;

fn get(k: &Kubectl, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    all.extend(["-o", "json"]);
    serde_json::from_str(&k.ok(&all)).expect("json")
}

const PVC: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn defaults_and_restrictions() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder()
        .arg("--enable-admission-plugins=AlwaysPullImages")
        .start()
        .await;
    let k = Kubectl::new(&server);

    // A new node is tainted not-ready.
    k.ok_stdin(
        &["create", "-f", "-"],
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n",
    );
    let node = get(&k, &["node", "n1"]);
    assert_eq!(
        node["spec"]["taints"],
        serde_json::json!([{"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule"}])
    );

    // Claims: the default class, the protection finalizer, and growth only where the
    // class allows expansion.
    for (name, default, expand) in [("standard", false, false), ("fast", true, true)] {
        k.ok_stdin(
            &["create", "-f", "-"],
            &format!("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: {name}\n  annotations:\n    storageclass.kubernetes.io/is-default-class: \"{default}\"\nprovisioner: example.com/p\nallowVolumeExpansion: {expand}\n"),
        );
    }
    // The watch cache may take a moment to show the new class.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut n = 0;
    let pvc = loop {
        n += 1;
        let name = format!("data{n}");
        k.ok_stdin(
            &["create", "-f", "-"],
            &PVC.replace("name: data", &format!("name: {name}")),
        );
        let pvc = get(&k, &["pvc", &name]);
        if pvc["spec"]["storageClassName"] == "fast" {
            break pvc;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "never defaulted: {pvc}"
        );
    };
    assert_eq!(
        pvc["metadata"]["finalizers"],
        serde_json::json!(["kubernetes.io/pvc-protection"])
    );
    k.ok_stdin(
        &["create", "-f", "-"],
        &PVC.replace("name: data", "name: fixed")
            .replace("spec:\n", "spec:\n  storageClassName: standard\n"),
    );
    // An unbound claim's spec does not change (validation), a bound one grows only where
    // its class allows (admission).
    let resize = [
        "patch",
        "pvc",
        "fixed",
        "-p",
        r#"{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}"#,
    ];
    let err = k.fails(&resize);
    assert!(err.contains("spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"), "{err}");
    k.ok(&[
        "patch",
        "pvc",
        "fixed",
        "--subresource=status",
        "-p",
        r#"{"status":{"phase":"Bound"}}"#,
    ]);
    let err = k.fails(&resize);
    assert!(
        err.contains("only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize"),
        "{err}"
    );

    // Ingresses get the default IngressClass.
    k.ok_stdin(
        &["create", "-f", "-"],
        "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: nginx\n  annotations:\n    ingressclass.kubernetes.io/is-default-class: \"true\"\nspec:\n  controller: example.com/ingress\n",
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut n = 0;
    loop {
        n += 1;
        let name = format!("web{n}");
        k.ok_stdin(
            &["create", "-f", "-"],
            &format!("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: {name}\nspec:\n  defaultBackend:\n    service:\n      name: web\n      port:\n        number: 80\n"),
        );
        let ing = get(&k, &["ingress", &name]);
        if ing["spec"]["ingressClassName"] == "nginx" {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "never defaulted: {ing}"
        );
    }

    // RuntimeClass: missing refused; overhead and scheduling applied.
    let pod = |name: &str, extra: &str| {
        format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n{extra}  containers:\n  - name: c\n    image: nginx\n    imagePullPolicy: IfNotPresent\n")
    };
    let err = k.fails_stdin(
        &["create", "-f", "-"],
        &pod("sandboxed", "  runtimeClassName: gvisor\n"),
    );
    assert!(
        err.contains(
            "pods \"sandboxed\" is forbidden: pod rejected: RuntimeClass \"gvisor\" not found"
        ),
        "{err}"
    );
    k.ok_stdin(
        &["create", "-f", "-"],
        "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: gvisor\nhandler: runsc\noverhead:\n  podFixed:\n    cpu: 250m\nscheduling:\n  nodeSelector:\n    sandbox: \"yes\"\n",
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !k
        .run_stdin(
            &["create", "-f", "-"],
            &pod("sandboxed", "  runtimeClassName: gvisor\n"),
        )
        .status
        .success()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "RuntimeClass never seen"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let p = get(&k, &["pod", "sandboxed"]);
    assert_eq!(p["spec"]["overhead"], serde_json::json!({"cpu": "250m"}));
    assert_eq!(
        p["spec"]["nodeSelector"],
        serde_json::json!({"sandbox": "yes"})
    );
    // AlwaysPullImages rewrote the policy.
    assert_eq!(p["spec"]["containers"][0]["imagePullPolicy"], "Always");

    // No system:masters client certificates through the CSR API.
    let request = csr_request("mallory", &["system:masters"]);
    let err = k.fails_stdin(
        &["create", "-f", "-"],
        &format!("apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: evil\nspec:\n  request: {request}\n  signerName: kubernetes.io/kube-apiserver-client\n  usages: [client auth]\n"),
    );
    assert!(
        err.contains("certificatesigningrequests.certificates.k8s.io \"evil\" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed"),
        "{err}"
    );
}
