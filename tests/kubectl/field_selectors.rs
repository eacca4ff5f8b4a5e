//! Field selectors as kube-apiserver 1.33 evaluates them (issue 17): the built-in types'
//! field sets (an unset boolean is `false`, an unset count `0`, fields that are not a
//! path of their own), which fields each type allows and how a refusal is worded, and
//! custom resources' `selectableFields`.

use http::Method;
use serde_json::{json, Value};

use crate::harness::{Reply, Server};

async fn post(server: &Server, path: &str, body: Value) {
    let r: Reply = server
        .send_json(Method::POST, path, "application/json", &body)
        .await;
    assert_eq!(r.status, 201, "{path}: {}", r.text());
}

/// The names a list with `selector` returns, or the refusal's message.
async fn names(server: &Server, path: &str, selector: &str) -> Result<Vec<String>, String> {
    let q: String = selector
        .bytes()
        .map(|b| match b {
            b'=' => "%3D".to_owned(),
            b'!' => "%21".to_owned(),
            b',' => "%2C".to_owned(),
            _ => (b as char).to_string(),
        })
        .collect();
    let r = server.get(&format!("{path}?fieldSelector={q}")).await;
    let v = r.json();
    if r.status != 200 {
        assert_eq!(r.status, 400, "{}", r.text());
        return Err(v["message"].as_str().unwrap_or("").to_owned());
    }
    Ok(v["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| i["metadata"]["name"].as_str().unwrap_or("").to_owned())
        .collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn built_in_field_sets_and_custom_selectable_fields() {
    let server = Server::builder().start().await;
    post(
        &server,
        "/api/v1/nodes",
        json!({"metadata": {"name": "plain"}}),
    )
    .await;
    post(
        &server,
        "/api/v1/nodes",
        json!({"metadata": {"name": "cordoned"}, "spec": {"unschedulable": true}}),
    )
    .await;
    let nodes = "/api/v1/nodes";
    assert_eq!(
        names(&server, nodes, "spec.unschedulable=false").await,
        Ok(vec!["plain".into()])
    );
    assert_eq!(
        names(&server, nodes, "spec.unschedulable!=true").await,
        Ok(vec!["plain".into()])
    );
    assert_eq!(
        names(&server, nodes, "metadata.namespace=x").await,
        Err("field label not supported: metadata.namespace".into())
    );

    let pods = "/api/v1/namespaces/default/pods";
    let pod = |name: &str, spec: Value| {
        let mut p = json!({"metadata": {"name": name},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}});
        for (k, v) in spec.as_object().into_iter().flatten() {
            p["spec"][k] = v.clone();
        }
        p
    };
    post(&server, pods, pod("a", json!({}))).await;
    post(
        &server,
        pods,
        pod("b", json!({"hostNetwork": true, "nodeName": "plain"})),
    )
    .await;
    assert_eq!(
        names(&server, pods, "spec.hostNetwork=false").await,
        Ok(vec!["a".into()])
    );
    // spec.host is the old name of spec.nodeName.
    assert_eq!(
        names(&server, pods, "spec.host=plain").await,
        Ok(vec!["b".into()])
    );
    assert_eq!(
        names(&server, pods, "status.podIP=").await.map(|n| n.len()),
        Ok(2)
    );
    assert_eq!(
        names(&server, pods, "spec.foo=bar").await,
        Err("field label not supported: spec.foo".into())
    );
    // A type with no fields of its own refuses in the generic words.
    assert_eq!(
        names(&server, "/api/v1/namespaces/default/configmaps", "data.x=1").await,
        Err("\"data.x\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"".into())
    );

    let jobs = "/apis/batch/v1/namespaces/default/jobs";
    post(
        &server,
        jobs,
        json!({"metadata": {"name": "j"}, "spec": {"template": {"spec": {
            "restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}}}),
    )
    .await;
    assert_eq!(
        names(&server, jobs, "status.successful=0").await,
        Ok(vec!["j".into()])
    );
    let rcs = "/api/v1/namespaces/default/replicationcontrollers";
    post(
        &server,
        rcs,
        json!({"metadata": {"name": "rc"}, "spec": {"selector": {"app": "x"}, "template": {
            "metadata": {"labels": {"app": "x"}},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}),
    )
    .await;
    assert_eq!(
        names(&server, rcs, "status.replicas=0").await,
        Ok(vec!["rc".into()])
    );
    let events = "/api/v1/namespaces/default/events";
    post(
        &server,
        events,
        json!({"metadata": {"name": "e"}, "involvedObject": {"kind": "Pod", "name": "a", "namespace": "default"},
            "reason": "Test", "reportingComponent": "my-controller", "reportingInstance": "x"}),
    )
    .await;
    assert_eq!(
        names(&server, events, "source=my-controller").await,
        Ok(vec!["e".into()])
    );

    // Custom resources: their version's selectableFields, printed as Go's fmt.Sprint.
    post(
        &server,
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        json!({"metadata": {"name": "widgets.example.com"}, "spec": {
            "group": "example.com", "scope": "Cluster",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "selectableFields": [{"jsonPath": ".spec.color"}, {"jsonPath": ".spec.size"},
                    {"jsonPath": ".spec.enabled"}],
                "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {
                    "type": "object", "properties": {"color": {"type": "string"},
                        "size": {"type": "integer"}, "enabled": {"type": "boolean"}}}}}}}]}}),
    )
    .await;
    let widgets = "/apis/example.com/v1/widgets";
    server.wait_for(|r| r.status == 200, widgets).await;
    post(
        &server,
        widgets,
        json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w1"}, "spec": {"color": "red", "size": 3, "enabled": true}}),
    )
    .await;
    post(
        &server,
        widgets,
        json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w2"}, "spec": {"color": "blue"}}),
    )
    .await;
    assert_eq!(
        names(&server, widgets, "spec.color=red").await,
        Ok(vec!["w1".into()])
    );
    assert_eq!(
        names(&server, widgets, "spec.size=3").await,
        Ok(vec!["w1".into()])
    );
    assert_eq!(
        names(&server, widgets, "spec.enabled=true").await,
        Ok(vec!["w1".into()])
    );
    assert_eq!(
        names(&server, widgets, "spec.size=").await,
        Ok(vec!["w2".into()])
    );
    assert_eq!(
        names(&server, widgets, "spec.color!=red,metadata.name=w2").await,
        Ok(vec!["w2".into()])
    );
    assert_eq!(
        names(&server, widgets, "spec.nope=1").await,
        Err("field label not supported: spec.nope".into())
    );
    // Cluster-scoped: no metadata.namespace.
    assert_eq!(
        names(&server, widgets, "metadata.namespace=").await,
        Err("field label not supported: metadata.namespace".into())
    );
    // kubectl, as a user types it.
    let out = server.kubectl(&[
        "get",
        "widgets",
        "--field-selector",
        "spec.color=blue",
        "-o",
        "name",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "widget.example.com/w2"
    );
}
