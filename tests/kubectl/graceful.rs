//! Graceful pod deletion as kube-apiserver 1.33's pod strategy and BeforeDelete do it
//! (issue 17): a pod a node runs is marked with a deletion time its grace period ahead
//! and kept for its kubelet to end; a later delete may only shorten that; unscheduled,
//! finished and zero-grace pods go at once.

use std::time::SystemTime;

use http::Method;
use serde_json::{json, Value};

use crate::harness::{Reply, Server};

const PODS: &str = "/api/v1/namespaces/default/pods";

async fn create(server: &Server, name: &str, spec: Value) -> Value {
    let mut p = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
        "spec": {"containers": [{"name": "c", "image": "nginx"}]}});
    for (k, v) in spec.as_object().into_iter().flatten() {
        p["spec"][k] = v.clone();
    }
    let r = server
        .send_json(Method::POST, PODS, "application/json", &p)
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

async fn delete(server: &Server, name: &str, options: Value) -> Reply {
    server
        .send_json(
            Method::DELETE,
            &format!("{PODS}/{name}"),
            "application/json",
            &options,
        )
        .await
}

fn grace(seconds: i64) -> Value {
    json!({"apiVersion": "v1", "kind": "DeleteOptions", "gracePeriodSeconds": seconds})
}

/// Seconds from now to the pod's deletion time.
fn left(pod: &Value) -> i64 {
    let ts = pod["metadata"]["deletionTimestamp"]
        .as_str()
        .unwrap_or_else(|| panic!("no deletionTimestamp: {pod}"));
    let at = humantime::parse_rfc3339(ts).expect("RFC 3339");
    let now = SystemTime::now();
    match at.duration_since(now) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs() as i64),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_pod_terminates_for_its_grace_period() {
    let server = Server::builder().start().await;
    let created = create(&server, "web", json!({"nodeName": "n1"})).await;
    assert_eq!(created["spec"]["terminationGracePeriodSeconds"], 30);
    let generation = created["metadata"]["generation"].as_i64().unwrap_or(0);

    let out = server.kubectl(&["delete", "pod", "web", "--wait=false"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "pod \"web\" deleted"
    );
    let r = server.get(&format!("{PODS}/web")).await;
    assert_eq!(r.status, 200, "kept while it terminates: {}", r.text());
    let pod = r.json();
    assert_eq!(pod["metadata"]["deletionGracePeriodSeconds"], 30, "{pod}");
    assert!((28..=30).contains(&left(&pod)), "{pod}");
    assert_eq!(pod["metadata"]["generation"], generation + 1, "{pod}");
    let out = server.kubectl(&["get", "pod", "web", "--no-headers"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Terminating"),
        "{out:?}"
    );

    // Asking again, or for longer, changes nothing: the pending deletion is the answer.
    let rv = &pod["metadata"]["resourceVersion"];
    for options in [json!({}), grace(60), grace(30)] {
        let r = delete(&server, "web", options.clone()).await;
        assert_eq!(r.status, 200, "{options}: {}", r.text());
        assert_eq!(&r.json()["metadata"]["resourceVersion"], rv, "{options}");
    }
    // A shorter period moves the deletion time, counted from the same start.
    let r = delete(&server, "web", grace(10)).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let shorter = r.json();
    assert_eq!(shorter["metadata"]["deletionGracePeriodSeconds"], 10);
    assert!((8..=10).contains(&left(&shorter)), "{shorter}");
    assert_eq!(shorter["metadata"]["generation"], generation + 1);
    // A dry run of the final delete leaves it be.
    let r = server
        .send_json(
            Method::DELETE,
            &format!("{PODS}/web?dryRun=All"),
            "application/json",
            &grace(0),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(server.get(&format!("{PODS}/web")).await.status, 200);

    // What its kubelet (or an impatient user) does last: a zero-grace delete ends it.
    let out = server.kubectl(&["delete", "pod", "web", "--grace-period=0", "--force"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(server.get(&format!("{PODS}/web")).await.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pods_nothing_runs_go_at_once() {
    let server = Server::builder().start().await;
    create(&server, "unscheduled", json!({})).await;
    create(
        &server,
        "no-grace",
        json!({"nodeName": "n1", "terminationGracePeriodSeconds": 0}),
    )
    .await;
    create(&server, "finished", json!({"nodeName": "n1"})).await;
    let r = server
        .send_json(
            Method::PATCH,
            &format!("{PODS}/finished/status"),
            "application/merge-patch+json",
            &json!({"status": {"phase": "Succeeded"}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    for name in ["unscheduled", "no-grace", "finished"] {
        let r = delete(&server, name, json!({})).await;
        assert_eq!(r.status, 200, "{name}: {}", r.text());
        assert_eq!(
            r.json()["metadata"]["deletionGracePeriodSeconds"],
            0,
            "{name}"
        );
        assert_eq!(
            server.get(&format!("{PODS}/{name}")).await.status,
            404,
            "{name}"
        );
    }

    // A negative period is one second; a finalizer keeps a zero-grace pod, marked.
    create(&server, "negative", json!({"nodeName": "n1"})).await;
    let r = delete(&server, "negative", grace(-5)).await;
    assert_eq!(
        r.json()["metadata"]["deletionGracePeriodSeconds"],
        1,
        "{}",
        r.text()
    );
    let held = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "held", "finalizers": ["example.com/hold"]},
        "spec": {"nodeName": "n1", "containers": [{"name": "c", "image": "nginx"}]}});
    let r = server
        .send_json(Method::POST, PODS, "application/json", &held)
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let r = delete(&server, "held", grace(0)).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let kept = server.get(&format!("{PODS}/held")).await.json();
    assert_eq!(kept["metadata"]["deletionGracePeriodSeconds"], 0, "{kept}");

    // A collection delete marks each running pod the same way and removes the rest.
    for (name, node) in [("a", "n2"), ("b", "n2"), ("c", "")] {
        create(&server, name, json!({"nodeName": node})).await;
    }
    let r = server
        .send_json(
            Method::DELETE,
            &format!("{PODS}?fieldSelector=metadata.name%21%3Dheld,metadata.name%21%3Dnegative"),
            "application/json",
            &json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    for name in ["a", "b"] {
        let p = server.get(&format!("{PODS}/{name}")).await.json();
        assert_eq!(p["metadata"]["deletionGracePeriodSeconds"], 30, "{p}");
    }
    assert_eq!(server.get(&format!("{PODS}/c")).await.status, 404);
}
