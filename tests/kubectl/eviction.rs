//! pods/eviction under PodDisruptionBudgets, as kube-apiserver 1.33's eviction REST
//! (issue 17): the budget's status decides, the eviction takes a disruption from it, the
//! refusals are upstream's 429s; `kubectl drain` and the Python client as clients.

use http::Method;
use serde_json::{json, Value};

use crate::harness::{Reply, Server};

async fn send(server: &Server, method: Method, path: &str, ctype: &str, body: &Value) -> Reply {
    server.send_json(method, path, ctype, body).await
}

const PODS: &str = "/api/v1/namespaces/default/pods";
const PDBS: &str = "/apis/policy/v1/namespaces/default/poddisruptionbudgets";

/// A pod of app=web on node n1, Running and Ready or not.
async fn pod(server: &Server, name: &str, phase: &str, ready: bool) {
    let p = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "labels": {"app": "web"}},
        "spec": {"nodeName": "n1", "containers": [{"name": "c", "image": "nginx"}]}});
    let r = send(server, Method::POST, PODS, "application/json", &p).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let ready = if ready { "True" } else { "False" };
    let status = json!({"status": {"phase": phase,
        "conditions": [{"type": "Ready", "status": ready}]}});
    let r = send(
        server,
        Method::PATCH,
        &format!("{PODS}/{name}/status"),
        "application/merge-patch+json",
        &status,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
}

async fn budget_status(server: &Server, name: &str, allowed: i64, current: i64, desired: i64) {
    let status = json!({"status": {"observedGeneration": 1, "disruptionsAllowed": allowed,
        "currentHealthy": current, "desiredHealthy": desired, "expectedPods": 3}});
    let r = send(
        server,
        Method::PATCH,
        &format!("{PDBS}/{name}/status"),
        "application/merge-patch+json",
        &status,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
}

async fn evict(server: &Server, name: &str, query: &str, body: Value) -> Reply {
    send(
        server,
        Method::POST,
        &format!("{PODS}/{name}/eviction{query}"),
        "application/json",
        &body,
    )
    .await
}

/// What a kubelet does when its pods are deleted gracefully: once their containers are
/// stopped (at once here), it deletes each with a zero grace period.
async fn kubelet_ends_terminating_pods(server: &Server) {
    let pods = server.get(PODS).await.json();
    for p in pods["items"].as_array().into_iter().flatten() {
        if p["metadata"]["deletionTimestamp"].is_null() {
            continue;
        }
        let name = p["metadata"]["name"].as_str().unwrap_or_default();
        let zero = json!({"apiVersion": "v1", "kind": "DeleteOptions", "gracePeriodSeconds": 0});
        let r = send(
            server,
            Method::DELETE,
            &format!("{PODS}/{name}"),
            "application/json",
            &zero,
        )
        .await;
        assert!(matches!(r.status.as_u16(), 200 | 404), "{}", r.text());
    }
}

fn eviction(name: &str) -> Value {
    json!({"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": name}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn evictions_respect_the_disruption_budget() {
    let server = Server::builder().start().await;
    for p in ["p1", "p2", "p3"] {
        pod(&server, p, "Running", true).await;
    }
    let pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": "web"},
        "spec": {"minAvailable": 2, "selector": {"matchLabels": {"app": "web"}}}});
    let r = send(&server, Method::POST, PDBS, "application/json", &pdb).await;
    assert_eq!(r.status, 201, "{}", r.text());

    // No controller has looked at the budget yet: come back later.
    let r = evict(&server, "p1", "", eviction("p1")).await;
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(
        r.headers.get("retry-after").and_then(|v| v.to_str().ok()),
        Some("10")
    );
    let s = r.json();
    assert_eq!(s["reason"], "TooManyRequests");
    assert_eq!(
        s["message"],
        "Cannot evict pod as it would violate the pod's disruption budget."
    );
    assert_eq!(
        s["details"]["causes"],
        json!([{"reason": "DisruptionBudget",
            "message": "The disruption budget web is still being processed by the server."}])
    );

    budget_status(&server, "web", 1, 3, 2).await;
    // Bad input: another pod's name, another kind.
    let r = evict(&server, "p1", "", eviction("p2")).await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(
        r.json()["message"],
        "name in URL does not match name in Eviction object"
    );
    let r = evict(&server, "nope", "", eviction("nope")).await;
    assert_eq!(r.status, 404, "{}", r.text());
    // A dry run changes nothing.
    let r = evict(&server, "p1", "?dryRun=All", eviction("p1")).await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(server.get(&format!("{PODS}/p1")).await.status, 200);
    let b = server.get(&format!("{PDBS}/web")).await.json();
    assert_eq!(b["status"]["disruptionsAllowed"], 1);

    // The one allowed disruption.
    let r = evict(&server, "p1", "", eviction("p1")).await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(
        r.json(),
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201})
    );
    // It is bound to n1: it terminates with its 30 s grace period, for its kubelet to end.
    let p1 = server.get(&format!("{PODS}/p1")).await.json();
    assert_eq!(p1["metadata"]["deletionGracePeriodSeconds"], 30, "{p1}");
    assert!(p1["metadata"]["deletionTimestamp"].is_string(), "{p1}");
    let b = server.get(&format!("{PDBS}/web")).await.json();
    assert_eq!(b["status"]["disruptionsAllowed"], 0, "{b}");
    assert!(b["status"]["disruptedPods"]["p1"].is_string(), "{b}");
    let cond = &b["status"]["conditions"][0];
    assert_eq!(
        (&cond["type"], &cond["status"], &cond["reason"]),
        (
            &json!("DisruptionAllowed"),
            &json!("False"),
            &json!("InsufficientPods")
        )
    );

    // None left: 429 naming the budget's health, with no Retry-After.
    let r = evict(&server, "p2", "", eviction("p2")).await;
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.headers.get("retry-after").is_none());
    assert_eq!(
        r.json()["details"]["causes"][0]["message"],
        "The disruption budget web needs 2 healthy pods and has 3 currently"
    );
    assert_eq!(server.get(&format!("{PODS}/p2")).await.status, 200);

    // An unready pod goes while the application is healthy enough, taking nothing.
    pod(&server, "sick", "Running", false).await;
    let r = evict(&server, "sick", "", eviction("sick")).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let sick = server.get(&format!("{PODS}/sick")).await.json();
    assert!(sick["metadata"]["deletionTimestamp"].is_string(), "{sick}");
    // Pending and terminal pods go without asking the budget.
    pod(&server, "waiting", "Pending", false).await;
    pod(&server, "done", "Succeeded", false).await;
    for p in ["waiting", "done"] {
        let r = evict(&server, p, "", eviction(p)).await;
        assert_eq!(r.status, 201, "{p}: {}", r.text());
    }
    // A finished pod has nothing left to stop: it is gone at once.
    assert_eq!(server.get(&format!("{PODS}/done")).await.status, 404);
    let b = server.get(&format!("{PDBS}/web")).await.json();
    assert_eq!(b["status"]["disruptionsAllowed"], 0);
    // A pod a finalizer holds shows the eviction's mark while it terminates.
    let held = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "held", "finalizers": ["example.com/hold"]},
        "spec": {"containers": [{"name": "c", "image": "nginx"}]}});
    let r = send(&server, Method::POST, PODS, "application/json", &held).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let r = evict(&server, "held", "", eviction("held")).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let p = server.get(&format!("{PODS}/held")).await.json();
    assert!(p["metadata"]["deletionTimestamp"].is_string(), "{p}");
    let cond = p["status"]["conditions"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["type"] == "DisruptionTarget"))
        .cloned()
        .unwrap_or_else(|| panic!("no DisruptionTarget: {p}"));
    assert_eq!(cond["reason"], "EvictionByEvictionAPI");
    assert_eq!(cond["message"], "Eviction API: evicting");

    // A second budget over the same pods: upstream's failure, inside a 201.
    let mut second = pdb.clone();
    second["metadata"]["name"] = json!("web2");
    let r = send(&server, Method::POST, PDBS, "application/json", &second).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let r = evict(&server, "p2", "", eviction("p2")).await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["status"], "Failure");
    assert_eq!(r.json()["code"], 500);
    assert_eq!(
        r.json()["message"],
        "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."
    );
    assert_eq!(server.get(&format!("{PODS}/p2")).await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_drain_and_the_python_client_evict_through_the_budget() {
    let server = Server::builder().start().await;
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}});
    let r = send(
        &server,
        Method::POST,
        "/api/v1/nodes",
        "application/json",
        &node,
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    for p in ["d1", "d2"] {
        pod(&server, p, "Running", true).await;
    }
    let pdb = json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
        "metadata": {"name": "web"},
        "spec": {"maxUnavailable": 0, "selector": {"matchLabels": {"app": "web"}}}});
    let r = send(&server, Method::POST, PDBS, "application/json", &pdb).await;
    assert_eq!(r.status, 201, "{}", r.text());
    budget_status(&server, "web", 0, 2, 2).await;

    // The budget allows nothing: drain retries the 429 until its timeout.
    let out = server.kubectl(&["drain", "n1", "--force", "--timeout=3s"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("Cannot evict pod as it would violate the pod's disruption budget."),
        "{stderr}"
    );
    let n = server.get("/api/v1/nodes/n1").await.json();
    assert_eq!(n["spec"]["unschedulable"], true, "cordoned: {n}");

    // The Python client sees the same refusal as an ApiException.
    if let Some(python) = crate::harness::python::python() {
        let script = r#"
import sys, json
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
v1 = client.CoreV1Api()
body = client.V1Eviction(metadata=client.V1ObjectMeta(name="d1", namespace="default"))
try:
    v1.create_namespaced_pod_eviction("d1", "default", body)
    print("evicted")
except client.exceptions.ApiException as e:
    print(e.status, json.loads(e.body)["details"]["causes"][0]["reason"])
"#;
        let out = crate::harness::python::run(&python, &server, script);
        assert_eq!(out.trim(), "429 DisruptionBudget");
    }

    // Room for two: drain evicts both, waits while they terminate (the test plays n1's
    // kubelet, ending each one the eviction marked) and the node ends drained.
    budget_status(&server, "web", 2, 2, 0).await;
    let kubeconfig = server.kubeconfig();
    let drain = std::thread::spawn(move || {
        std::process::Command::new("kubectl")
            .arg("--kubeconfig")
            .arg(kubeconfig)
            .args(["drain", "n1", "--force", "--timeout=20s"])
            .output()
            .expect("run kubectl")
    });
    while !drain.is_finished() {
        kubelet_ends_terminating_pods(&server).await;
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let out = drain.join().expect("drain");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("pod/d1 evicted"), "{stdout}");
    assert!(stdout.contains("node/n1 drained"), "{stdout}");
    let pods = server.get(PODS).await.json();
    assert_eq!(pods["items"], json!([]));
    let b = server.get(&format!("{PDBS}/web")).await.json();
    assert_eq!(b["status"]["disruptionsAllowed"], 0);
    assert_eq!(
        b["status"]["disruptedPods"]
            .as_object()
            .map(|m| m.len())
            .unwrap_or(0),
        2,
        "{b}"
    );
}
