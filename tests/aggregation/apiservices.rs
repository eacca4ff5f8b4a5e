//! APIServices through kubectl: the local ones autoregistration keeps for every served
//! group-version (built-in and custom), a remote-style one created, updated and deleted,
//! discovery and OpenAPI of the group, and watch.

use std::time::{Duration, Instant};

use serde_json::Value;

use super::super::harness::kubectl::Kubectl;
use super::super::setup;

/// Every group-version a fresh server serves, as `kubectl get apiservices` lists them.
const LOCAL: &[&str] = &[
    "v1.",
    "v1.admissionregistration.k8s.io",
    "v1.apiextensions.k8s.io",
    "v1.apps",
    "v1.authentication.k8s.io",
    "v1.authorization.k8s.io",
    "v1.autoscaling",
    "v1.batch",
    "v1.certificates.k8s.io",
    "v1.coordination.k8s.io",
    "v1.discovery.k8s.io",
    "v1.events.k8s.io",
    "v1.flowcontrol.apiserver.k8s.io",
    "v1.networking.k8s.io",
    "v1.node.k8s.io",
    "v1.policy",
    "v1.rbac.authorization.k8s.io",
    "v1.scheduling.k8s.io",
    "v1.storage.k8s.io",
    "v2.autoscaling",
];

/// A remote-style APIService: a service and the CA to verify it with.
pub(super) const REMOTE: &str = r#"
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1alpha1.wardle.example.com
spec:
  group: wardle.example.com
  version: v1alpha1
  groupPriorityMinimum: 1000
  versionPriority: 15
  service:
    namespace: wardle
    name: api
  caBundle: AAECAwQ=
"#;

const CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - name: v1beta1
    served: false
    storage: false
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
"#;

/// The rows of a kubectl table, split at whitespace, the header first.
fn rows(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .collect()
}

fn get_json(k: &Kubectl, args: &[&str]) -> Value {
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", "json"]);
    serde_json::from_str(&k.ok(&all)).expect("json")
}

/// Polls `kubectl get apiservice <name>` until `present` holds; returns how long it took.
fn wait_apiservice(k: &Kubectl, name: &str, present: bool) -> Duration {
    let start = Instant::now();
    loop {
        let out = k.run(&["get", "apiservice", name, "-o", "name"]);
        if out.status.success() == present {
            return start.elapsed();
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "apiservice {name} present={present} never held"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fresh_server_lists_every_local_group_version() {
    let Some((server, k)) = setup().await else {
        return;
    };
    // Readiness waited for autoregistration (`autoregister-completion`).
    let verbose = server.get("/readyz?verbose").await.text();
    for line in [
        "[+]autoregister-completion ok",
        "[+]poststarthook/kube-apiserver-autoregistration ok",
    ] {
        assert!(verbose.contains(line), "{line:?} missing from:\n{verbose}");
    }
    let table = rows(&k.ok(&["get", "apiservices"]));
    assert_eq!(table[0], ["NAME", "SERVICE", "AVAILABLE", "AGE"]);
    let names: Vec<&str> = table[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names, LOCAL);
    for row in &table[1..] {
        assert_eq!(row.len(), 4, "{row:?}");
        assert_eq!(
            (row[1].as_str(), row[2].as_str()),
            ("Local", "True"),
            "{row:?}"
        );
    }

    let apps = get_json(&k, &["apiservice", "v1.apps"]);
    assert_eq!(apps["apiVersion"], "apiregistration.k8s.io/v1");
    assert_eq!(apps["kind"], "APIService");
    assert_eq!(
        apps["metadata"]["labels"],
        serde_json::json!({"kube-aggregator.kubernetes.io/automanaged": "onstart"})
    );
    assert_eq!(
        apps["spec"],
        serde_json::json!({"group": "apps", "version": "v1", "groupPriorityMinimum": 17800, "versionPriority": 15})
    );
    let conditions = apps["status"]["conditions"].as_array().expect("conditions");
    assert_eq!(conditions.len(), 1);
    let c = &conditions[0];
    assert_eq!(
        (&c["type"], &c["status"], &c["reason"], &c["message"]),
        (
            &Value::from("Available"),
            &Value::from("True"),
            &Value::from("Local"),
            &Value::from("Local APIServices are always available")
        )
    );
    assert!(c["lastTransitionTime"]
        .as_str()
        .is_some_and(|t| t.ends_with('Z')));
    let core = get_json(&k, &["apiservice", "v1."]);
    assert_eq!(
        core["spec"],
        serde_json::json!({"version": "v1", "groupPriorityMinimum": 18000, "versionPriority": 1})
    );
    let yaml = k.ok(&["get", "apiservice", "v2.autoscaling", "-o", "yaml"]);
    assert!(yaml.contains("  groupPriorityMinimum: 17500\n"), "{yaml}");
    assert!(yaml.contains("  versionPriority: 30\n"), "{yaml}");

    // Field selectors as upstream: metadata.name (and namespace) only.
    let one = rows(&k.ok(&[
        "get",
        "apiservices",
        "--field-selector",
        "metadata.name=v1.apps",
    ]));
    assert_eq!(one.len(), 2);
    assert_eq!(one[1][0], "v1.apps");
    let err = k.fails(&["get", "apiservices", "--field-selector", "spec.group=apps"]);
    assert!(
        err.contains("\"spec.group\" is not a known field selector"),
        "{err}"
    );

    let resources = k.ok(&["api-resources", "--api-group=apiregistration.k8s.io"]);
    let line = resources
        .lines()
        .find(|l| l.starts_with("apiservices "))
        .unwrap_or_else(|| panic!("apiservices missing from:\n{resources}"));
    assert_eq!(
        line.split_whitespace().collect::<Vec<_>>(),
        [
            "apiservices",
            "apiregistration.k8s.io/v1",
            "false",
            "APIService"
        ]
    );
    let extensions = k.ok(&["get", "api-extensions", "-o", "name"]);
    assert!(
        extensions.contains("apiservice.apiregistration.k8s.io/v1.apps"),
        "{extensions}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_group_in_discovery_and_openapi() {
    let Some((server, k)) = setup().await else {
        return;
    };
    let groups = server.get("/apis").await.json();
    let names: Vec<&str> = groups["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .filter_map(|g| g["name"].as_str())
        .collect();
    // kube-aggregator's own group first, then by APIService priority.
    assert_eq!(
        names[..3],
        ["apiregistration.k8s.io", "apps", "events.k8s.io"]
    );
    let admission = names
        .iter()
        .position(|n| *n == "admissionregistration.k8s.io");
    let extensions = names.iter().position(|n| *n == "apiextensions.k8s.io");
    assert_eq!(extensions, admission.map(|i| i + 1), "{names:?}");

    let group = server.get("/apis/apiregistration.k8s.io").await.json();
    assert_eq!(group["kind"], "APIGroup");
    assert_eq!(
        group["preferredVersion"]["groupVersion"],
        "apiregistration.k8s.io/v1"
    );
    let list = server.get("/apis/apiregistration.k8s.io/v1").await.json();
    assert_eq!(list["kind"], "APIResourceList");
    let resources: Vec<&str> = list["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(resources, ["apiservices", "apiservices/status"]);
    let r = server.get("/apis/apiregistration.k8s.io/v1beta1").await;
    assert_eq!(
        (r.status.as_u16(), r.text().as_str()),
        (404, "404 page not found\n")
    );

    let aggregated = server
        .get_accepting(
            "/apis",
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
        )
        .await
        .json();
    // The group comes first there too (kube-aggregator gives it priority 20001).
    let items = aggregated["items"].as_array().expect("items");
    let item = &items[0];
    assert_eq!(item["metadata"]["name"], "apiregistration.k8s.io");
    assert_eq!(items[1]["metadata"]["name"], "apps");
    assert_eq!(item["versions"][0]["version"], "v1");
    assert_eq!(
        item["versions"][0]["resources"][0]["resource"],
        "apiservices"
    );
    assert_eq!(item["versions"][0]["resources"][0]["scope"], "Cluster");

    let index = server.get("/openapi/v3").await.json();
    let url = index["paths"]["apis/apiregistration.k8s.io/v1"]["serverRelativeURL"]
        .as_str()
        .expect("apiregistration.k8s.io/v1 in the v3 index");
    assert!(
        url.starts_with("/openapi/v3/apis/apiregistration.k8s.io/v1?hash="),
        "{url}"
    );
    let v3 = server.get(url).await.json();
    assert!(v3["components"]["schemas"]
        .get("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService")
        .is_some());
    let v2 = server.get("/openapi/v2").await.json();
    assert!(v2["definitions"]
        .get("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService")
        .is_some());
    assert!(v2["paths"]
        .get("/apis/apiregistration.k8s.io/v1/apiservices/{name}/status")
        .is_some());
    let explain = k.ok(&["explain", "apiservice.spec.groupPriorityMinimum"]);
    assert!(
        explain.contains("FIELD: groupPriorityMinimum <integer>"),
        "{explain}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_apiservice_is_created_updated_and_deleted() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok_stdin(&["create", "-f", "-"], REMOTE);
    let created = get_json(&k, &["apiservice", "v1alpha1.wardle.example.com"]);
    assert_eq!(
        created["spec"]["service"],
        serde_json::json!({"namespace": "wardle", "name": "api", "port": 443})
    );
    assert_eq!(created["spec"]["caBundle"], "AAECAwQ=");
    let table = rows(&k.ok(&["get", "apiservices", "v1alpha1.wardle.example.com"]));
    assert_eq!(table[1][..2], ["v1alpha1.wardle.example.com", "wardle/api"]);

    // A spec update keeps the status; a status update keeps the spec.
    k.ok(&[
        "patch",
        "apiservice",
        "v1alpha1.wardle.example.com",
        "--type=merge",
        "-p",
        r#"{"spec":{"versionPriority":20},"status":{"conditions":[{"type":"Available","status":"True"}]}}"#,
    ]);
    let patched = get_json(&k, &["apiservice", "v1alpha1.wardle.example.com"]);
    assert_eq!(patched["spec"]["versionPriority"], 20);
    let conditions = patched["status"]["conditions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        !conditions.iter().any(|c| c["status"] == "True"),
        "{patched}"
    );
    // What the status write answered (the availability controller may write the
    // status again at any moment after it).
    let status = k.ok(&[
        "patch",
        "apiservice",
        "v1alpha1.wardle.example.com",
        "--subresource=status",
        "--type=merge",
        "-o",
        "json",
        "-p",
        r#"{"spec":{"versionPriority":30},"status":{"conditions":[{"type":"Available","status":"False","reason":"Testing","message":"set by the test","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}"#,
    ]);
    let status: Value = serde_json::from_str(&status).expect("json");
    assert_eq!(status["spec"]["versionPriority"], 20);
    assert_eq!(status["status"]["conditions"][0]["reason"], "Testing");
    let err = k.fails(&[
        "patch",
        "apiservice",
        "v1alpha1.wardle.example.com",
        "--subresource=status",
        "--type=merge",
        "-p",
        r#"{"status":{"conditions":[{"type":"Available","status":"Maybe"}]}}"#,
    ]);
    assert!(
        err.contains("status.conditions[0].status: Unsupported value: \"Maybe\": supported values: \"True\", \"False\", \"Unknown\""),
        "{err}"
    );

    // A local APIService of one's own: Available at once, and autoregistration leaves
    // it alone (no automanaged label).
    k.ok_stdin(
        &["create", "-f", "-"],
        "apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {name: v1.mine.example.com}\nspec: {group: mine.example.com, version: v1, groupPriorityMinimum: 10, versionPriority: 10}\n",
    );
    let mine = rows(&k.ok(&["get", "apiservice", "v1.mine.example.com"]));
    assert_eq!(mine[1][..3], ["v1.mine.example.com", "Local", "True"]);

    k.ok(&["delete", "apiservice", "v1alpha1.wardle.example.com"]);
    wait_apiservice(&k, "v1alpha1.wardle.example.com", false);
    let err = k.fails(&["get", "apiservice", "v1alpha1.wardle.example.com"]);
    assert!(
        err.contains(
            "apiservices.apiregistration.k8s.io \"v1alpha1.wardle.example.com\" not found"
        ),
        "{err}"
    );
    // Still there after autoregistration had every chance to pass over it.
    k.ok(&["get", "apiservice", "v1.mine.example.com"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crds_versions_come_and_go() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    k.ok_stdin(&["apply", "-f", "-"], CRD);
    k.wait_established("gadgets.stable.example.com");
    let took = wait_apiservice(&k, "v1.stable.example.com", true);
    assert!(
        took < Duration::from_secs(1),
        "v1.stable.example.com after {took:?}"
    );
    let crd = get_json(&k, &["apiservice", "v1.stable.example.com"]);
    assert_eq!(
        crd["metadata"]["labels"],
        serde_json::json!({"kube-aggregator.kubernetes.io/automanaged": "true"})
    );
    assert_eq!(
        crd["spec"],
        serde_json::json!({"group": "stable.example.com", "version": "v1", "groupPriorityMinimum": 1000, "versionPriority": 100})
    );
    let row = rows(&k.ok(&["get", "apiservice", "v1.stable.example.com"]));
    assert_eq!(row[1][..3], ["v1.stable.example.com", "Local", "True"]);
    // Not served: no APIService.
    assert!(!k
        .run(&["get", "apiservice", "v1beta1.stable.example.com"])
        .status
        .success());

    // Deleted by someone while still served: it comes back at once.
    k.ok(&["delete", "apiservice", "v1.stable.example.com"]);
    let took = wait_apiservice(&k, "v1.stable.example.com", true);
    assert!(took < Duration::from_secs(2), "back after {took:?}");
    // Its spec changed by someone: put back at once.
    k.ok(&[
        "patch",
        "apiservice",
        "v1.stable.example.com",
        "--type=merge",
        "-p",
        r#"{"spec":{"versionPriority":7}}"#,
    ]);
    let start = Instant::now();
    while get_json(&k, &["apiservice", "v1.stable.example.com"])["spec"]["versionPriority"] != 100 {
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "the spec was not put back"
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    k.ok(&["delete", "crd", "gadgets.stable.example.com"]);
    wait_apiservice(&k, "v1.stable.example.com", false);
    // The built-in ones stay.
    k.ok(&["get", "apiservice", "v1.apps"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apiservices_can_be_watched() {
    let Some((_server, k)) = setup().await else {
        return;
    };
    let (mut child, rx) = k.watch_lines(&[
        "get",
        "apiservices",
        "--watch",
        "--output-watch-events",
        "-o",
        "custom-columns=EVENT:.type,NAME:.object.metadata.name",
    ]);
    // kubectl prints the listing (with its header) and then watches from its revision:
    // a write after the header is seen as an event.
    let header = rx.recv_timeout(Duration::from_secs(20));
    assert!(
        header.is_ok_and(|h| h.starts_with("EVENT")),
        "no watch header"
    );
    k.ok_stdin(&["create", "-f", "-"], REMOTE);
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut seen = Vec::new();
    while Instant::now() < deadline {
        let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) else {
            continue;
        };
        seen.push(line.clone());
        if line.split_whitespace().collect::<Vec<_>>() == ["ADDED", "v1alpha1.wardle.example.com"] {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        seen.iter()
            .any(|l| l.contains("ADDED") && l.contains("v1alpha1.wardle.example.com")),
        "{seen:?}"
    );
}
