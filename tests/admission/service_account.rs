//! ServiceAccount: new pods get the `default` account, must name one that exists, and
//! mount the projected API access volume unless automounting is off; every namespace
//! gets `default` and the `kube-root-ca.crt` ConfigMap the volume reads.

use std::time::{Duration, Instant};

use super::super::setup;

const POD: &str = r#"
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: web
    image: nginx
  initContainers:
  - name: init
    image: busybox
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pods_get_their_service_account() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    // A namespace used at once: its default account is waited for.
    k.ok(&["create", "namespace", "apps"]);
    k.ok_stdin(&["create", "-n", "apps", "-f", "-"], POD);
    let pod: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "pod", "web", "-n", "apps", "-o", "json"]))
            .expect("json");
    assert_eq!(pod["spec"]["serviceAccountName"], "default");
    assert_eq!(pod["spec"]["serviceAccount"], "default");
    let volume = &pod["spec"]["volumes"][0];
    let name = volume["name"].as_str().expect("volume name");
    assert!(name.starts_with("kube-api-access-"), "{volume}");
    assert_eq!(
        volume["projected"]["sources"][1]["configMap"]["name"],
        "kube-root-ca.crt"
    );
    for list in ["containers", "initContainers"] {
        let mount = &pod["spec"][list][0]["volumeMounts"][0];
        assert_eq!(mount["name"], name, "{list}");
        assert_eq!(
            mount["mountPath"],
            "/var/run/secrets/kubernetes.io/serviceaccount"
        );
        assert_eq!(mount["readOnly"], true);
    }

    // The ConfigMap the volume reads is published in every namespace.
    let deadline = Instant::now() + Duration::from_secs(10);
    let ca = loop {
        let out = k.run(&[
            "get",
            "configmap",
            "kube-root-ca.crt",
            "-n",
            "apps",
            "-o",
            "jsonpath={.data.ca\\.crt}",
        ]);
        if out.status.success() {
            break String::from_utf8_lossy(&out.stdout).into_owned();
        }
        assert!(
            Instant::now() < deadline,
            "kube-root-ca.crt never published"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(ca.starts_with("-----BEGIN CERTIFICATE-----"), "{ca}");

    // Automounting off (the pod's word wins over the account's).
    let off = POD
        .replace("spec:\n", "spec:\n  automountServiceAccountToken: false\n")
        .replace("name: web\nspec", "name: quiet\nspec");
    k.ok_stdin(&["create", "-n", "apps", "-f", "-"], &off);
    let volumes = k.ok(&[
        "get",
        "pod",
        "quiet",
        "-n",
        "apps",
        "-o",
        "jsonpath={.spec.volumes}",
    ]);
    assert_eq!(volumes, "", "no volume without automounting");

    // An account that does not exist.
    let ghost = POD
        .replace("spec:\n", "spec:\n  serviceAccountName: ghost\n")
        .replace("name: web\nspec", "name: lost\nspec");
    let err = k.fails_stdin(&["create", "-n", "apps", "-f", "-"], &ghost);
    assert!(
        err.contains("pods \"lost\" is forbidden: error looking up service account apps/ghost: serviceaccount \"ghost\" not found"),
        "{err}"
    );

    // An account's image pull secrets go to pods that name none; a dry run is
    // admitted alike.
    k.ok_stdin(
        &["create", "-n", "apps", "-f", "-"],
        "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: puller\nimagePullSecrets:\n- name: registry\n",
    );
    let puller = POD
        .replace("spec:\n", "spec:\n  serviceAccountName: puller\n")
        .replace("name: web\nspec", "name: pulled\nspec");
    let out = k.ok_stdin(
        &[
            "create",
            "-n",
            "apps",
            "--dry-run=server",
            "-o",
            "json",
            "-f",
            "-",
        ],
        &puller,
    );
    let dry: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        dry["spec"]["imagePullSecrets"],
        serde_json::json!([{"name": "registry"}])
    );
    assert!(dry["spec"]["volumes"][0]["name"]
        .as_str()
        .is_some_and(|n| n.starts_with("kube-api-access-")));
    k.fails(&["get", "pod", "pulled", "-n", "apps"]);
}
