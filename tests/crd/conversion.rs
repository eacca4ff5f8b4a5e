//! CRD conversion webhooks through kubectl: a Gadget CRD whose v1 (storage) has
//! `spec.host` + `spec.port` and whose v2 has `spec.url`, converted by a small HTTPS
//! webhook on 127.0.0.1 (its own CA, made with rcgen). Objects written in one version
//! read back in the other, in gets, lists (one review for the list), watches and write
//! answers; a webhook that is down or answers garbage fails that CRD's requests with a
//! 500 naming the conversion, and nothing else.

use http::Method;
use serde_json::{json, Value};

use super::harness::https::ReviewWebhook;
use super::harness::kubectl::Kubectl;
use super::harness::{require_tool, Server};

/// A Gadget's spec in `version`: v1 `{host, port}`, v2 `{url}`.
fn convert_spec(spec: &Value, version: &str) -> Value {
    match version {
        "v2" => {
            let host = spec["host"].as_str().unwrap_or("");
            let port = spec["port"].as_i64().unwrap_or(0);
            json!({"url": format!("http://{host}:{port}")})
        }
        _ => {
            let url = spec["url"].as_str().unwrap_or("");
            let rest = url.trim_start_matches("http://");
            let (host, port) = rest.split_once(':').unwrap_or((rest, "0"));
            json!({"host": host, "port": port.parse::<i64>().unwrap_or(0)})
        }
    }
}

/// The answer of `path` to `review`.
fn answer(path: &str, review: &Value) -> Value {
    if path == "/garbage" {
        return json!({"hello": "world"});
    }
    let request = &review["request"];
    let desired = request["desiredAPIVersion"].as_str().unwrap_or("");
    let version = desired.rsplit('/').next().unwrap_or("");
    let converted: Vec<Value> = request["objects"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|o| {
            let mut out = o.clone();
            out["apiVersion"] = json!(desired);
            out["spec"] = convert_spec(&o["spec"], version);
            out
        })
        .collect();
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
           "response": {"uid": request["uid"], "result": {"status": "Success"},
                        "convertedObjects": converted}})
}

/// A CRD `<plural>.conv.example.com` of kind `kind`, v1 (storage) and v2, converted by
/// the webhook at `url`.
fn crd(plural: &str, kind: &str, url: &str, ca: &str) -> String {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{plural}.conv.example.com")},
        "spec": {
            "group": "conv.example.com",
            "scope": "Namespaced",
            "names": {"plural": plural, "singular": kind.to_lowercase(), "kind": kind},
            "versions": [
                {"name": "v1", "served": true, "storage": true,
                 "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                     "spec": {"type": "object", "properties": {
                         "host": {"type": "string"}, "port": {"type": "integer"}}}}}}},
                {"name": "v2", "served": true, "storage": false,
                 "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                     "spec": {"type": "object", "properties": {
                         "url": {"type": "string"}}}}}}},
            ],
            "conversion": {"strategy": "Webhook", "webhook": {
                "clientConfig": {"url": url, "caBundle": ca},
                "conversionReviewVersions": ["v1"]}},
        },
    })
    .to_string()
}

/// kubectl against a new server where the CRD `<plural>.conv.example.com` is
/// established, converted by a new webhook (answering as [`answer`]) at `path`; None
/// without kubectl.
async fn setup(plural: &str, kind: &str, path: &str) -> Option<(Server, Kubectl, ReviewWebhook)> {
    if !require_tool("kubectl") {
        return None;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    let webhook = ReviewWebhook::start(|path, review| async move { answer(&path, &review) }).await;
    k.ok_stdin(
        &["apply", "-f", "-"],
        &crd(plural, kind, &webhook.url(path), &webhook.ca_bundle()),
    );
    k.wait_established(&format!("{plural}.conv.example.com"));
    Some((server, k, webhook))
}

fn json_of(out: &str) -> Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversion_webhook_converts_reads_and_writes_between_versions() {
    let Some((server, k, webhook)) = setup("gadgets", "Gadget", "/convert").await else {
        return;
    };

    // Created as v2: stored as v1 (the v1 read needs no conversion), answered as v2.
    let created = k.ok_stdin(
        &["create", "-o", "json", "-f", "-"],
        "apiVersion: conv.example.com/v2\nkind: Gadget\nmetadata:\n  name: a\nspec:\n  url: http://example.org:8080\n",
    );
    let created = json_of(&created);
    assert_eq!(created["apiVersion"], "conv.example.com/v2");
    assert_eq!(created["spec"], json!({"url": "http://example.org:8080"}));
    let first = webhook.seen();
    assert_eq!(first.len(), 2, "to storage and back: {first:?}");
    assert!(
        first[0].0.starts_with("/convert?timeout=30s"),
        "{}",
        first[0].0
    );
    assert_eq!(first[0].1["apiVersion"], "apiextensions.k8s.io/v1");
    assert_eq!(
        first[0].1["request"]["desiredAPIVersion"],
        "conv.example.com/v1"
    );
    assert_eq!(
        first[1].1["request"]["desiredAPIVersion"],
        "conv.example.com/v2"
    );

    let v1 = json_of(&k.ok(&["get", "gadgets.v1.conv.example.com", "a", "-o", "json"]));
    assert_eq!(v1["apiVersion"], "conv.example.com/v1");
    assert_eq!(v1["spec"], json!({"host": "example.org", "port": 8080}));
    let calls = webhook.seen().len();
    let v2 = json_of(&k.ok(&["get", "gadgets.v2.conv.example.com", "a", "-o", "json"]));
    assert_eq!(v2["apiVersion"], "conv.example.com/v2");
    assert_eq!(v2["spec"], json!({"url": "http://example.org:8080"}));
    assert_eq!(v2["metadata"]["uid"], v1["metadata"]["uid"]);
    assert_eq!(webhook.seen().len(), calls + 1);

    // A v1 write needs no call; a list through v2 converts both in one review.
    let calls = webhook.seen().len();
    k.ok_stdin(
        &["create", "-f", "-"],
        "apiVersion: conv.example.com/v1\nkind: Gadget\nmetadata:\n  name: b\nspec:\n  host: b.example\n  port: 9\n",
    );
    assert_eq!(webhook.seen().len(), calls);
    let list = server
        .get("/apis/conv.example.com/v2/namespaces/default/gadgets")
        .await;
    assert_eq!(list.status, 200, "{}", list.text());
    let list = list.json();
    assert_eq!(list["apiVersion"], "conv.example.com/v2");
    let urls: Vec<&str> = list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["spec"]["url"].as_str())
        .collect();
    assert_eq!(urls, ["http://example.org:8080", "http://b.example:9"]);
    let reviews = webhook.seen();
    assert_eq!(reviews.len(), calls + 1, "one review for the list");
    let objects = &reviews[calls].1["request"]["objects"];
    assert_eq!(objects.as_array().map(Vec::len), Some(2));
    let table = k.ok(&["get", "gadgets.v2.conv.example.com"]);
    assert!(table.contains('a') && table.contains('b'), "{table}");

    // A patch through v2 lands in v1's shape.
    k.ok(&[
        "patch",
        "gadgets.v2.conv.example.com",
        "a",
        "--type=merge",
        "-p",
        r#"{"spec":{"url":"http://other.example:7"}}"#,
    ]);
    let v1 = json_of(&k.ok(&["get", "gadgets.v1.conv.example.com", "a", "-o", "json"]));
    assert_eq!(v1["spec"], json!({"host": "other.example", "port": 7}));

    // A watch through v2 sees a change made through v1, converted.
    let rv = list["metadata"]["resourceVersion"]
        .as_str()
        .unwrap_or("0")
        .to_owned();
    let path = format!(
        "/apis/conv.example.com/v2/namespaces/default/gadgets?watch=true&resourceVersion={rv}&timeoutSeconds=2"
    );
    let watch = server.request(Method::GET, &path, b"", true, false);
    let change = async {
        k.ok(&["label", "gadgets.v1.conv.example.com", "b", "x=y"]);
    };
    let (w, ()) = tokio::join!(watch, change);
    let text = w.expect("watch").text();
    let events: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let labelled = events
        .iter()
        .find(|e| e["object"]["metadata"]["name"] == "b" && e["type"] == "MODIFIED")
        .unwrap_or_else(|| panic!("no MODIFIED b: {text}"));
    assert_eq!(labelled["object"]["apiVersion"], "conv.example.com/v2");
    assert_eq!(labelled["object"]["spec"]["url"], "http://b.example:9");
    assert_eq!(labelled["object"]["metadata"]["labels"]["x"], "y");

    // The webhook down: that CRD's converted requests fail with a 500 naming the
    // conversion; its storage version and everything else keep working.
    drop(webhook);
    let err = k.fails(&["get", "gadgets.v2.conv.example.com", "a"]);
    assert!(
        err.contains("conversion webhook for conv.example.com/v1, Kind=Gadget failed: Post"),
        "{err}"
    );
    let reply = server
        .get("/apis/conv.example.com/v2/namespaces/default/gadgets")
        .await;
    assert_eq!(reply.status, 500, "{}", reply.text());
    let status = reply.json();
    assert_eq!(status["reason"], "InternalError");
    assert!(
        status["message"]
            .as_str()
            .unwrap_or("")
            .starts_with("conversion webhook for conv.example.com/v2, Kind=GadgetList failed: "),
        "{status}"
    );
    // A watch whose events need converting ends with an ERROR event carrying the 500.
    let watched = server
        .request(
            Method::GET,
            "/apis/conv.example.com/v2/namespaces/default/gadgets?watch=true&resourceVersion=0&timeoutSeconds=5",
            b"",
            true,
            false,
        )
        .await
        .expect("watch");
    let first: Value =
        serde_json::from_str(watched.text().lines().next().unwrap_or("{}")).unwrap_or_default();
    assert_eq!(first["type"], "ERROR", "{}", watched.text());
    assert_eq!(first["object"]["code"], 500);
    let err = k.fails_stdin(
        &["create", "-f", "-"],
        "apiVersion: conv.example.com/v2\nkind: Gadget\nmetadata:\n  name: c\nspec:\n  url: http://c:1\n",
    );
    assert!(
        err.contains("Internal error occurred: conversion webhook for conv.example.com/v2, Kind=Gadget failed"),
        "{err}"
    );
    let v1 = k.ok(&["get", "gadgets.v1.conv.example.com", "a", "-o", "name"]);
    assert!(v1.contains("gadget.conv.example.com/a"), "{v1}");
    k.ok(&["create", "configmap", "still-works"]);
    k.ok(&["get", "configmap", "still-works"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webhook_answering_garbage_fails_the_conversion() {
    let Some((server, k, _webhook)) = setup("gizmos", "Gizmo", "/garbage").await else {
        return;
    };
    k.ok_stdin(
        &["create", "-f", "-"],
        "apiVersion: conv.example.com/v1\nkind: Gizmo\nmetadata:\n  name: g\nspec:\n  host: g\n  port: 1\n",
    );
    let reply = server
        .get("/apis/conv.example.com/v2/namespaces/default/gizmos/g")
        .await;
    assert_eq!(reply.status, 500, "{}", reply.text());
    let status = reply.json();
    assert_eq!(status["reason"], "InternalError");
    assert_eq!(
        status["message"],
        r#"conversion webhook for conv.example.com/v1, Kind=Gizmo failed: Object 'Kind' is missing in '{"hello":"world"}'"#
    );
    let err = k.fails(&["get", "gizmos.v2.conv.example.com", "g"]);
    assert!(err.contains("conversion webhook for"), "{err}");
    // The storage version needs no conversion.
    k.ok(&["get", "gizmos.v1.conv.example.com", "g"]);
}

/// A conversion webhook named by `clientConfig.service`: an ExternalName service for
/// `localhost` (cluster IP routing, the default) reaches it as
/// `https://conv.convs.svc:<port>/convert`, the name its certificate carries; a CRD
/// whose service does not exist fails its conversions with upstream's message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversion_webhook_named_by_a_service() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    let webhook = ReviewWebhook::start_named(&["conv.convs.svc"], |path, review| async move {
        answer(&path, &review)
    })
    .await;
    let port = webhook.addr().port();
    k.ok(&["create", "namespace", "convs"]);
    k.ok_stdin(
        &["create", "-f", "-"],
        &json!({"apiVersion": "v1", "kind": "Service",
                "metadata": {"name": "conv", "namespace": "convs"},
                "spec": {"type": "ExternalName", "externalName": "localhost"}})
        .to_string(),
    );
    let by_service = |plural: &str, kind: &str, service: Value| {
        let mut crd: Value =
            serde_json::from_str(&crd(plural, kind, "", &webhook.ca_bundle())).expect("crd");
        crd["spec"]["conversion"]["webhook"]["clientConfig"] =
            json!({"service": service, "caBundle": webhook.ca_bundle()});
        k.ok_stdin(&["apply", "-f", "-"], &crd.to_string());
        k.wait_established(&format!("{plural}.conv.example.com"));
    };
    by_service(
        "widgets",
        "Widget",
        json!({"namespace": "convs", "name": "conv", "port": port, "path": "/convert"}),
    );
    by_service(
        "doodads",
        "Doodad",
        json!({"namespace": "convs", "name": "nope", "path": "/convert"}),
    );

    let created = json_of(&k.ok_stdin(
        &["create", "-o", "json", "-f", "-"],
        "apiVersion: conv.example.com/v2\nkind: Widget\nmetadata:\n  name: w\nspec:\n  url: http://example.org:80\n",
    ));
    assert_eq!(created["spec"], json!({"url": "http://example.org:80"}));
    let seen = webhook.seen();
    assert_eq!(seen.len(), 2, "to storage and back: {seen:?}");
    assert_eq!(seen[0].0, "/convert?timeout=30s");
    let v1 = json_of(&k.ok(&["get", "widgets.v1.conv.example.com", "w", "-o", "json"]));
    assert_eq!(v1["spec"], json!({"host": "example.org", "port": 80}));

    let err = k.fails_stdin(
        &["create", "-f", "-"],
        "apiVersion: conv.example.com/v2\nkind: Doodad\nmetadata:\n  name: d\nspec:\n  url: http://example.org:80\n",
    );
    assert!(
        err.contains("Internal error occurred: conversion webhook for conv.example.com/v2, Kind=Doodad failed: Post \"https://nope.convs.svc:443/convert?timeout=30s\": service \"nope\" not found"),
        "{err}"
    );
}
