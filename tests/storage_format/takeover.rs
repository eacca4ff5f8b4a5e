//! Taking over the etcd of a real kube-apiserver v1.33.4: every key and value it left after
//! bootstrapping and creating one object of each GA resource (and a CRD with a custom
//! resource) is loaded into a fresh etcd, this server starts on it, and every LIST it
//! answers is compared with kube-apiserver's answer for the same data, object by object.
//! The fixture, `kube-apiserver-1.33.4.json.gz`, was recorded by
//! `tests/fidelity/record-1.33.py` (its header says how). Then the allocators' state
//! must hold: the node port and cluster IP upstream allocated are taken; and objects
//! upstream wrote can be changed and deleted here.

use std::collections::BTreeMap;
use std::io::Read;

use base64::Engine;
use http::Method;
use serde_json::{json, Value};

use super::super::harness::etcdctl::{put_unchecked, raw};
use super::super::harness::kubectl::Kubectl;
use super::super::harness::Etcd;
use super::{start, tools};

fn fixture() -> Value {
    let gz = include_bytes!("kube-apiserver-1.33.4.json.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..])
        .read_to_string(&mut text)
        .expect("gunzip");
    serde_json::from_str(&text).expect("json")
}

/// Every key and value of the fixture into `etcd`, as they are.
fn load(etcd: &Etcd, kvs: &[Value]) {
    for kv in kvs {
        let key = kv[0].as_str().expect("key");
        let value = base64::engine::general_purpose::STANDARD
            .decode(kv[1].as_str().expect("value"))
            .expect("base64");
        put_unchecked(etcd, key, &value);
    }
}

/// Objects this server writes after its start, compared by presence only: as
/// kube-apiserver does on its own start, the `kubernetes` Service's endpoints name this
/// server's address and port, and each server keeps its own identity lease; and what
/// kube-controller-manager's controllers write upstream (aggregated ClusterRoles' rules, a
/// ValidatingAdmissionPolicy's type-checking status) this server writes itself.
fn written_after_start(path: &str, ns: &str, name: &str) -> bool {
    matches!(
        (path.rsplit('/').next().unwrap_or(""), ns, name),
        ("endpoints" | "endpointslices", "default", "kubernetes")
            | ("leases", "kube-system", _)
            | ("clusterroles", "", "admin" | "edit" | "view")
            | ("validatingadmissionpolicies", _, _)
    )
}

/// `v` without its resourceVersion (an etcd revision: the fixture's keys are written
/// again here, at other revisions).
fn without_revision(mut v: Value) -> Value {
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("resourceVersion");
    }
    v
}

fn by_name(list: &Value) -> BTreeMap<(String, String), Value> {
    list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| {
            let text = |f: &str| item["metadata"][f].as_str().unwrap_or("").to_owned();
            (
                (text("namespace"), text("name")),
                without_revision(item.clone()),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_etcd_kube_apiserver_wrote_is_served_as_it_served_it() {
    if !tools() {
        return;
    }
    let fixture = fixture();
    let mut etcd = Etcd::new();
    etcd.start();
    load(&etcd, fixture["etcd"].as_array().expect("keys"));
    // The range kube-apiserver was started with.
    let server = start(&etcd, &["--service-cluster-ip-range=10.0.0.0/24"]).await;

    let mut diffs = Vec::new();
    let lists = fixture["lists"].as_object().expect("lists");
    for (path, theirs) in lists {
        let reply = server.get(path).await;
        if reply.status != 200 {
            diffs.push(format!("{path}: {} {}", reply.status, reply.text()));
            continue;
        }
        let (theirs, ours) = (by_name(theirs), by_name(&reply.json()));
        for ((ns, name), object) in &theirs {
            let Some(mine) = ours.get(&(ns.clone(), name.clone())) else {
                diffs.push(format!("{path} {ns}/{name}: not served"));
                continue;
            };
            if mine != object && !written_after_start(path, ns, name) {
                diffs.push(format!(
                    "{path} {ns}/{name}:\n  upstream {object}\n  here     {mine}"
                ));
            }
        }
    }
    assert!(
        diffs.is_empty(),
        "{} object(s) served differently from kube-apiserver v1.33.4:\n{}",
        diffs.len(),
        diffs.join("\n")
    );

    // What upstream's allocators handed out is taken.
    let svc = |name: &str, spec: Value| json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name}, "spec": spec});
    let path = "/api/v1/namespaces/default/services";
    let port = server
        .send_json(
            Method::POST,
            path,
            "application/json",
            &svc(
                "port",
                json!({"type": "NodePort", "ports": [{"port": 80, "nodePort": 30080}]}),
            ),
        )
        .await;
    assert_eq!(port.status, 422, "{}", port.text());
    assert!(
        port.text().contains("provided port is already allocated"),
        "{}",
        port.text()
    );
    let ip = server
        .send_json(
            Method::POST,
            path,
            "application/json",
            &svc(
                "ip",
                json!({"clusterIP": "10.0.0.77", "ports": [{"port": 80}]}),
            ),
        )
        .await;
    assert_eq!(ip.status, 422, "{}", ip.text());
    assert!(
        ip.text().contains("provided IP is already allocated"),
        "{}",
        ip.text()
    );

    // Objects upstream wrote change and go through this server.
    let k = Kubectl::new(&server);
    k.ok(&["label", "deployment", "min", "taken=over"]);
    k.ok(&["annotate", "widget", "min", "taken=over"]);
    let widget = server
        .get("/apis/example.com/v1/namespaces/default/widgets/min")
        .await
        .json();
    assert_eq!(widget["metadata"]["annotations"]["taken"], "over");
    assert_eq!(widget["spec"], json!({"color": "blue", "size": 3}));
    // The definition upstream stored (as v1beta1) gives new custom resources their
    // schema's defaults and printer columns.
    let fresh = server
        .send_json(
            Method::POST,
            "/apis/example.com/v1/namespaces/default/widgets",
            "application/json",
            &json!({"apiVersion": "example.com/v1", "kind": "Widget",
                "metadata": {"name": "fresh"}, "spec": {"color": "red"}}),
        )
        .await;
    assert_eq!(fresh.status, 201, "{}", fresh.text());
    assert_eq!(fresh.json()["spec"]["size"], 3, "{}", fresh.text());
    let table = k.ok(&["get", "widgets"]);
    assert!(table.contains("SIZE"), "{table}");
    k.ok(&["delete", "service", "fixed"]);
    let again = server
        .send_json(
            Method::POST,
            path,
            "application/json",
            &svc(
                "again",
                json!({"type": "NodePort", "clusterIP": "10.0.0.77",
                "ports": [{"port": 80, "nodePort": 30080}]}),
            ),
        )
        .await;
    assert_eq!(again.status, 201, "freed by the delete: {}", again.text());
}

/// The value kube-apiserver left under `key`, as JSON.
fn upstream_value(fixture: &Value, key: &str) -> Value {
    let kv = fixture["etcd"]
        .as_array()
        .expect("keys")
        .iter()
        .find(|kv| kv[0] == key)
        .unwrap_or_else(|| panic!("{key} in the fixture"));
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(kv[1].as_str().expect("value"))
        .expect("base64");
    serde_json::from_slice(&bytes).expect("upstream stored JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crds_and_apiservices_are_written_as_kube_apiserver_writes_them() {
    if !tools() {
        return;
    }
    let fixture = fixture();
    let mut etcd = Etcd::new();
    etcd.start();
    let server = start(&etcd, &[]).await;
    // The CRD kube-apiserver was sent (its v1 answer, without what the server sets).
    let crds = &fixture["lists"]["/apis/apiextensions.k8s.io/v1/customresourcedefinitions"];
    let mut crd = crds["items"][0].clone();
    crd["metadata"] = json!({"name": crd["metadata"]["name"]});
    crd.as_object_mut().expect("object").remove("status");
    crd["apiVersion"] = json!("apiextensions.k8s.io/v1");
    crd["kind"] = json!("CustomResourceDefinition");
    let created = server
        .send_json(
            Method::POST,
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            "application/json",
            &crd,
        )
        .await;
    assert_eq!(created.status, 201, "{}", created.text());
    let key = "/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com";
    let ours: Value = serde_json::from_slice(&raw(&etcd, key)).expect("stored JSON");
    let theirs = upstream_value(&fixture, key);
    for field in ["apiVersion", "kind", "spec"] {
        assert_eq!(ours[field], theirs[field], "{field} of the stored CRD");
    }

    // The aggregator's own APIServices, registered at start.
    let key = "/registry/apiregistration.k8s.io/apiservices/v1.apps";
    let ours: Value = serde_json::from_slice(&raw(&etcd, key)).expect("stored JSON");
    let theirs = upstream_value(&fixture, key);
    for field in ["apiVersion", "kind", "spec"] {
        assert_eq!(
            ours[field], theirs[field],
            "{field} of the stored APIService"
        );
    }
    assert_eq!(ours["metadata"]["labels"], theirs["metadata"]["labels"]);
}
