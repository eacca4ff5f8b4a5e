//! Writes through `/status` keep the metadata each type's status strategy keeps in
//! kube-apiserver 1.33 (issue 17): a pod takes the client's labels and annotations but
//! not its owner references, a Deployment its annotations but not its labels, a custom
//! resource nothing but its status; what is taken is owned by the `status` manager.

use serde_json::Value;

use crate::harness::kubectl::Kubectl;
use crate::harness::Server;

fn ok(server: &Server, args: &[&str]) -> String {
    Kubectl::new(server).ok(args)
}

fn apply(server: &Server, yaml: &str) {
    let out = Kubectl::new(server).run_stdin(&["apply", "-f", "-"], yaml);
    assert!(
        out.status.success(),
        "apply: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn json(server: &Server, what: &[&str]) -> Value {
    let mut args = vec!["get"];
    args.extend_from_slice(what);
    args.extend_from_slice(&["-o", "json", "--show-managed-fields"]);
    serde_json::from_str(&ok(server, &args)).expect("json")
}

const PATCH: &str = r#"{"metadata":{"labels":{"from":"status"},"annotations":{"note":"status"},
  "ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"owner","uid":"6a7b0e2c-0000-4000-8000-000000000001"}]},
  "status":{"observedGeneration":1}}"#;

const WIDGETS: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_writes_keep_metadata_as_each_strategy_does() {
    let server = Server::builder().start().await;
    apply(
        &server,
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {app: p}\nspec:\n  containers:\n  - {name: c, image: x}\n",
    );
    ok(&server, &["create", "deployment", "d", "--image=x"]);
    apply(&server, WIDGETS);
    ok(
        &server,
        &[
            "wait",
            "--for=condition=Established",
            "crd/widgets.example.com",
        ],
    );
    apply(
        &server,
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  labels: {app: w}\n",
    );
    let widget_status = PATCH.replace(r#""observedGeneration":1"#, r#""ready":true"#);
    for (what, patch) in [
        ("pod/p", PATCH),
        ("deployment/d", PATCH),
        ("widget/w", widget_status.as_str()),
    ] {
        ok(
            &server,
            &[
                "patch",
                what,
                "--subresource=status",
                "--type=merge",
                "-p",
                patch,
            ],
        );
    }

    let pod = json(&server, &["pod", "p"]);
    let meta = &pod["metadata"];
    assert_eq!(meta["labels"]["from"], "status", "{meta}");
    assert_eq!(meta["labels"]["app"], "p");
    assert_eq!(meta["annotations"]["note"], "status");
    assert!(meta.get("ownerReferences").is_none(), "{meta}");
    assert_eq!(pod["status"]["observedGeneration"], 1);
    // The status manager owns the label it set.
    let status_entry = meta["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["subresource"] == "status")
        .cloned()
        .expect("a status entry");
    assert!(
        status_entry["fieldsV1"]["f:metadata"]["f:labels"]
            .get("f:from")
            .is_some(),
        "{status_entry}"
    );

    let deploy = json(&server, &["deployment", "d"]);
    let meta = &deploy["metadata"];
    assert!(meta["labels"].get("from").is_none(), "{meta}");
    assert_eq!(meta["annotations"]["note"], "status");
    assert_eq!(meta["ownerReferences"][0]["name"], "owner");

    let widget = json(&server, &["widget", "w"]);
    let meta = &widget["metadata"];
    assert!(meta["labels"].get("from").is_none(), "{meta}");
    assert!(meta["annotations"].get("note").is_none(), "{meta}");
    assert_eq!(widget["status"]["ready"], true);
}
