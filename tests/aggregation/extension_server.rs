//! The test extension API server (harness/extension), driven directly over HTTPS as the
//! aggregator will drive it: discovery in both forms and OpenAPI, Flunder and Fischer CRUD
//! with upstream's Status errors, and watch events. `extension_control` covers its
//! authentication, restarts and failure modes.

use std::time::Duration;

use http::Method;
use serde_json::{json, Value};

use super::super::harness::extension::{
    table, ExtClient, ExtensionServer, FrontProxyPki, GROUP_VERSION,
};
use super::super::harness::Reply;

pub(super) const NS_FLUNDERS: &str = "/apis/wardle.example.com/v1alpha1/namespaces/ns1/flunders";
const FISCHERS: &str = "/apis/wardle.example.com/v1alpha1/fischers";
pub(super) const ADMIN: &[(&str, &str)] = &[("x-remote-user", "admin")];
const AGGREGATED: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
const TABLE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

pub(super) async fn start() -> (FrontProxyPki, ExtensionServer, ExtClient) {
    let pki = FrontProxyPki::new();
    let ext = ExtensionServer::start(&pki).await;
    let client = ext.client(&pki);
    (pki, ext, client)
}

pub(super) fn flunder(name: &str) -> Value {
    json!({
        "apiVersion": GROUP_VERSION, "kind": "Flunder",
        "metadata": {"name": name, "labels": {"app": name}},
        "spec": {"reference": "f1", "referenceType": "Fischer"},
    })
}

async fn get_with(c: &ExtClient, path: &str, headers: &[(&str, &str)]) -> Reply {
    c.request(Method::GET, path, headers, b"")
        .await
        .unwrap_or_else(|e| panic!("GET {path}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_in_both_forms_and_openapi() {
    let (_pki, _ext, c) = start().await;

    let apis = c.get("/apis").await;
    assert_eq!(apis.status, 200, "{}", apis.text());
    let v = apis.json();
    assert_eq!(v["kind"], "APIGroupList");
    assert_eq!(v["groups"][0]["name"], "wardle.example.com");
    assert_eq!(
        v["groups"][0]["preferredVersion"]["groupVersion"],
        GROUP_VERSION
    );
    // The ETag answers a conditional request with 304.
    let etag = apis.headers["etag"].to_str().expect("etag").to_owned();
    let again = get_with(
        &c,
        "/apis",
        &[("x-remote-user", "admin"), ("if-none-match", &etag)],
    )
    .await;
    assert_eq!(again.status, 304);

    let agg = get_with(
        &c,
        "/apis",
        &[("x-remote-user", "admin"), ("accept", AGGREGATED)],
    )
    .await;
    assert_eq!(agg.status, 200);
    assert_eq!(
        agg.headers["content-type"],
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
    );
    assert_ne!(agg.headers["etag"].to_str().ok(), Some(etag.as_str()));
    let v = agg.json();
    assert_eq!(v["kind"], "APIGroupDiscoveryList");
    assert_eq!(v["apiVersion"], "apidiscovery.k8s.io/v2");
    let version = &v["items"][0]["versions"][0];
    assert_eq!(v["items"][0]["metadata"]["name"], "wardle.example.com");
    assert_eq!(version["version"], "v1alpha1");
    assert_eq!(version["freshness"], "Current");
    let flunders = &version["resources"][0];
    assert_eq!(flunders["resource"], "flunders");
    assert_eq!(flunders["scope"], "Namespaced");
    assert_eq!(flunders["responseKind"]["kind"], "Flunder");
    assert_eq!(flunders["shortNames"], json!(["fl"]));
    assert_eq!(version["resources"][1]["scope"], "Cluster");
    // v2beta1 alone is answered in v2beta1.
    let beta = get_with(
        &c,
        "/apis",
        &[
            ("x-remote-user", "a"),
            (
                "accept",
                "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList",
            ),
        ],
    )
    .await;
    assert_eq!(beta.json()["apiVersion"], "apidiscovery.k8s.io/v2beta1");

    let group = c.get("/apis/wardle.example.com").await.json();
    assert_eq!(group["kind"], "APIGroup");
    assert_eq!(group["versions"][0]["version"], "v1alpha1");

    let list = c.get("/apis/wardle.example.com/v1alpha1").await.json();
    assert_eq!(list["kind"], "APIResourceList");
    assert_eq!(list["groupVersion"], GROUP_VERSION);
    let r = &list["resources"];
    assert_eq!(r[0]["name"], "flunders");
    assert_eq!(r[0]["namespaced"], true);
    assert_eq!(r[0]["categories"], json!(["wardle"]));
    assert_eq!(r[1]["name"], "fischers");
    assert_eq!(r[1]["namespaced"], false);
    assert!(r[0]["verbs"]
        .as_array()
        .expect("verbs")
        .contains(&json!("watch")));

    let v2 = c.get("/openapi/v2").await.json();
    assert_eq!(v2["swagger"], "2.0");
    let def = &v2["definitions"]["io.k8s.sample-apiserver.pkg.apis.wardle.v1alpha1.Flunder"];
    assert_eq!(
        def["x-kubernetes-group-version-kind"],
        json!([{"group": "wardle.example.com", "kind": "Flunder", "version": "v1alpha1"}])
    );
    assert!(v2["paths"]
        .get("/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders/{name}")
        .is_some());
    // kubectl asks v2 for protobuf only: 406, so a proxy must ask for JSON.
    let pb = get_with(
        &c,
        "/openapi/v2",
        &[
            ("x-remote-user", "a"),
            (
                "accept",
                "application/com.github.proto-openapi.spec.v2@v1.0+protobuf",
            ),
        ],
    )
    .await;
    assert_eq!(pb.status, 406);
    assert_eq!(pb.json()["reason"], "NotAcceptable");

    let index = c.get("/openapi/v3").await.json();
    let url = index["paths"]["apis/wardle.example.com/v1alpha1"]["serverRelativeURL"]
        .as_str()
        .expect("serverRelativeURL")
        .to_owned();
    assert!(
        url.starts_with("/openapi/v3/apis/wardle.example.com/v1alpha1?hash="),
        "{url}"
    );
    let doc = c.get(&url).await;
    assert_eq!(doc.headers["cache-control"], "public, immutable");
    let doc = doc.json();
    assert_eq!(doc["openapi"], "3.0.0");
    let fischer =
        &doc["components"]["schemas"]["io.k8s.sample-apiserver.pkg.apis.wardle.v1alpha1.Fischer"];
    assert_eq!(
        fischer["x-kubernetes-group-version-kind"][0]["kind"],
        "Fischer"
    );
    assert_eq!(
        fischer["properties"]["metadata"]["$ref"],
        "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    );
    let stale = c
        .get("/openapi/v3/apis/wardle.example.com/v1alpha1?hash=0")
        .await;
    assert_eq!(stale.status, 301);
    assert_eq!(stale.headers["location"].to_str().ok(), Some(url.as_str()));
    let missing = c.get("/openapi/v3/apis/other.example.com/v1").await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.json()["reason"], "NotFound");
    let unknown = c.get("/apis/wardle.example.com/v1alpha1/nothings").await;
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.json()["kind"], "Status");
    let put = c.send_json(Method::PUT, "/apis", &json!({})).await;
    assert_eq!(put.status, 405);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flunder_and_fischer_crud_with_status_errors() {
    let (_pki, ext, c) = start().await;

    let created = c
        .send_json(Method::POST, NS_FLUNDERS, &flunder("one"))
        .await;
    assert_eq!(created.status, 201, "{}", created.text());
    let one = created.json();
    assert_eq!(one["metadata"]["namespace"], "ns1");
    assert_eq!(one["metadata"]["uid"].as_str().map(str::len), Some(36));
    assert!(one["metadata"]["creationTimestamp"]
        .as_str()
        .is_some_and(|t| t.ends_with('Z')));
    let rv1 = one["metadata"]["resourceVersion"]
        .as_str()
        .expect("rv")
        .to_owned();

    let dup = c
        .send_json(Method::POST, NS_FLUNDERS, &flunder("one"))
        .await;
    assert_eq!(dup.status, 409);
    let dup = dup.json();
    assert_eq!(dup["reason"], "AlreadyExists");
    assert_eq!(
        dup["message"],
        "flunders.wardle.example.com \"one\" already exists"
    );
    assert_eq!(dup["details"]["kind"], "flunders");

    let got = c.get(&format!("{NS_FLUNDERS}/one")).await;
    assert_eq!(got.status, 200);
    assert_eq!(got.json(), one);
    let missing = c.get(&format!("{NS_FLUNDERS}/nope")).await;
    assert_eq!(missing.status, 404);
    assert_eq!(
        missing.json()["message"],
        "flunders.wardle.example.com \"nope\" not found"
    );

    let list = c.get(NS_FLUNDERS).await.json();
    assert_eq!(list["kind"], "FlunderList");
    assert_eq!(list["metadata"]["resourceVersion"], rv1.as_str());
    assert_eq!(list["items"].as_array().map(Vec::len), Some(1));
    let other_ns = c
        .get("/apis/wardle.example.com/v1alpha1/namespaces/ns2/flunders")
        .await
        .json();
    assert_eq!(other_ns["items"], json!([]));
    let all = c
        .get("/apis/wardle.example.com/v1alpha1/flunders")
        .await
        .json();
    assert_eq!(all["items"].as_array().map(Vec::len), Some(1));
    let by_label = c
        .get(&format!("{NS_FLUNDERS}?labelSelector=app%3Dother"))
        .await
        .json();
    assert_eq!(by_label["items"], json!([]));
    let by_name = c
        .get(&format!("{NS_FLUNDERS}?fieldSelector=metadata.name%3Done"))
        .await
        .json();
    assert_eq!(by_name["items"].as_array().map(Vec::len), Some(1));

    // Update: a stale resourceVersion conflicts, the current one (or none) applies.
    let mut stale = one.clone();
    stale["metadata"]["resourceVersion"] = json!("999");
    stale["spec"]["reference"] = json!("f2");
    let conflict = c
        .send_json(Method::PUT, &format!("{NS_FLUNDERS}/one"), &stale)
        .await;
    assert_eq!(conflict.status, 409);
    assert_eq!(conflict.json()["reason"], "Conflict");
    let mut fresh = one.clone();
    fresh["spec"]["reference"] = json!("f2");
    let updated = c
        .send_json(Method::PUT, &format!("{NS_FLUNDERS}/one"), &fresh)
        .await;
    assert_eq!(updated.status, 200, "{}", updated.text());
    let updated = updated.json();
    assert_eq!(updated["spec"]["reference"], "f2");
    assert_eq!(updated["metadata"]["uid"], one["metadata"]["uid"]);
    assert_ne!(updated["metadata"]["resourceVersion"], rv1.as_str());
    let renamed = c
        .send_json(Method::PUT, &format!("{NS_FLUNDERS}/two"), &fresh)
        .await;
    assert_eq!(renamed.status, 400);
    let absent = c
        .send_json(Method::PUT, &format!("{NS_FLUNDERS}/two"), &flunder("two"))
        .await;
    assert_eq!(absent.status, 404);

    let patched = c
        .request(
            Method::PATCH,
            &format!("{NS_FLUNDERS}/one"),
            &[
                ("x-remote-user", "admin"),
                ("content-type", "application/merge-patch+json"),
            ],
            br#"{"metadata":{"labels":{"tier":"gold"}},"spec":{"referenceType":null}}"#,
        )
        .await
        .expect("patch");
    assert_eq!(patched.status, 200, "{}", patched.text());
    let p = patched.json();
    assert_eq!(
        p["metadata"]["labels"],
        json!({"app": "one", "tier": "gold"})
    );
    assert_eq!(p["spec"], json!({"reference": "f2"}));
    let json_patch = c
        .request(
            Method::PATCH,
            &format!("{NS_FLUNDERS}/one"),
            &[
                ("x-remote-user", "admin"),
                ("content-type", "application/json-patch+json"),
            ],
            b"[]",
        )
        .await
        .expect("patch");
    assert_eq!(json_patch.status, 415);

    // Bad input: no name, a wrong kind, another namespace, not JSON.
    let mut nameless = flunder("x");
    nameless["metadata"] = json!({});
    let r = c.send_json(Method::POST, NS_FLUNDERS, &nameless).await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["details"]["causes"][0]["field"], "metadata.name");
    nameless["metadata"] = json!({"generateName": "gen-"});
    let generated = c
        .send_json(Method::POST, NS_FLUNDERS, &nameless)
        .await
        .json();
    assert!(generated["metadata"]["name"]
        .as_str()
        .is_some_and(|n| n.starts_with("gen-") && n.len() == 9));
    let mut wrong_kind = flunder("x");
    wrong_kind["kind"] = json!("Fischer");
    assert_eq!(
        c.send_json(Method::POST, NS_FLUNDERS, &wrong_kind)
            .await
            .status,
        400
    );
    let mut wrong_ns = flunder("x");
    wrong_ns["metadata"]["namespace"] = json!("ns2");
    let r = c.send_json(Method::POST, NS_FLUNDERS, &wrong_ns).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["reason"], "BadRequest");
    let r = c
        .request(Method::POST, NS_FLUNDERS, ADMIN, b"{not json")
        .await
        .expect("post");
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["kind"], "Status");
    // A namespaced kind is created in a namespace only.
    let r = c
        .send_json(
            Method::POST,
            "/apis/wardle.example.com/v1alpha1/flunders",
            &flunder("x"),
        )
        .await;
    assert_eq!(r.status, 405);

    // Unknown fields: dropped with a warning, refused under Strict.
    let mut extra = flunder("extra");
    extra["spec"]["colour"] = json!("red");
    let r = c
        .send_json(
            Method::POST,
            &format!("{NS_FLUNDERS}?fieldValidation=Strict"),
            &extra,
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "strict decoding error: unknown field \"spec.colour\""
    );
    let r = c.send_json(Method::POST, NS_FLUNDERS, &extra).await;
    assert_eq!(r.status, 201);
    assert_eq!(
        r.headers["warning"],
        "299 - \"unknown field \\\"spec.colour\\\"\""
    );
    assert_eq!(r.json()["spec"].get("colour"), None);

    // Fischers are cluster-scoped.
    let fischer = json!({"apiVersion": GROUP_VERSION, "kind": "Fischer",
        "metadata": {"name": "f1"}, "disallowedFlunders": ["one"]});
    let r = c.send_json(Method::POST, FISCHERS, &fischer).await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(r.json()["metadata"].get("namespace"), None);
    let r = c
        .get("/apis/wardle.example.com/v1alpha1/namespaces/ns1/fischers")
        .await;
    assert_eq!(r.status, 404);
    assert_eq!(ext.objects("fischers").len(), 1);

    // Tables for kubectl get.
    let t = get_with(
        &c,
        NS_FLUNDERS,
        &[("x-remote-user", "a"), ("accept", TABLE)],
    )
    .await;
    assert_eq!(t.headers["content-type"], table::TABLE_TYPE);
    let t = t.json();
    assert_eq!(t["kind"], "Table");
    assert_eq!(t["columnDefinitions"][0]["name"], "Name");
    assert_eq!(t["columnDefinitions"][1]["name"], "Age");
    let names: Vec<&str> = t["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["cells"][0].as_str())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.contains(&"one") && names.contains(&"extra"));
    assert_eq!(t["rows"][0]["object"]["kind"], "PartialObjectMetadata");

    // Delete: a Success Status, then 404.
    let r = c
        .request(Method::DELETE, &format!("{NS_FLUNDERS}/one"), ADMIN, b"")
        .await
        .expect("delete");
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["status"], "Success");
    assert_eq!(c.get(&format!("{NS_FLUNDERS}/one")).await.status, 404);
    let r = c
        .request(Method::DELETE, &format!("{NS_FLUNDERS}/one"), ADMIN, b"")
        .await
        .expect("delete");
    assert_eq!(r.status, 404);
    // Protobuf alone is not served.
    let r = get_with(
        &c,
        NS_FLUNDERS,
        &[
            ("x-remote-user", "a"),
            ("accept", "application/vnd.kubernetes.protobuf"),
        ],
    )
    .await;
    assert_eq!(r.status, 406);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_sends_existing_objects_then_changes() {
    let (_pki, _ext, c) = start().await;
    let first = c
        .send_json(Method::POST, NS_FLUNDERS, &flunder("a"))
        .await
        .json();
    let rv_a = first["metadata"]["resourceVersion"]
        .as_str()
        .expect("rv")
        .to_owned();

    let mut w = c
        .watch(&format!("{NS_FLUNDERS}?watch=1"), ADMIN)
        .await
        .expect("watch");
    assert_eq!(w.status, 200);
    let e = w.next().await.expect("event");
    assert_eq!(
        (e["type"].as_str(), e["object"]["metadata"]["name"].as_str()),
        (Some("ADDED"), Some("a"))
    );

    c.send_json(Method::POST, NS_FLUNDERS, &flunder("b")).await;
    let mut a = first.clone();
    a["spec"]["reference"] = json!("changed");
    assert_eq!(
        c.send_json(Method::PUT, &format!("{NS_FLUNDERS}/a"), &a)
            .await
            .status,
        200
    );
    c.request(Method::DELETE, &format!("{NS_FLUNDERS}/b"), ADMIN, b"")
        .await
        .expect("delete");
    // Another namespace is not this watch's business.
    c.send_json(
        Method::POST,
        "/apis/wardle.example.com/v1alpha1/namespaces/ns2/flunders",
        &flunder("c"),
    )
    .await;
    let mut seen = Vec::new();
    for _ in 0..3 {
        let e = w.next().await.expect("event");
        seen.push(format!(
            "{} {}",
            e["type"].as_str().unwrap_or(""),
            e["object"]["metadata"]["name"].as_str().unwrap_or("")
        ));
    }
    assert_eq!(seen, ["ADDED b", "MODIFIED a", "DELETED b"]);
    assert!(
        w.next_within(Duration::from_millis(200)).await.is_err(),
        "ns2's flunder leaked into ns1's watch"
    );

    // From a resourceVersion: the changes after it, no synthetic ADDED.
    let mut w = c
        .watch(
            &format!("{NS_FLUNDERS}?watch=true&resourceVersion={rv_a}"),
            ADMIN,
        )
        .await
        .expect("watch");
    let types: Vec<String> = [w.next().await, w.next().await, w.next().await]
        .into_iter()
        .map(|e| e.expect("event")["type"].as_str().unwrap_or("").to_owned())
        .collect();
    assert_eq!(types, ["ADDED", "MODIFIED", "DELETED"]);

    // With a label selector, and as Tables (columns in the first event only).
    let mut w = c
        .watch(
            &format!("{NS_FLUNDERS}?watch=1&labelSelector=app%3Da"),
            &[("x-remote-user", "a"), ("accept", TABLE)],
        )
        .await
        .expect("watch");
    let e = w.next().await.expect("event");
    assert_eq!(e["object"]["kind"], "Table");
    assert_eq!(e["object"]["rows"][0]["cells"][0], "a");
    assert!(e["object"]["columnDefinitions"].is_array());
    let mut d = flunder("d");
    d["metadata"]["labels"]["app"] = json!("a");
    c.send_json(Method::POST, NS_FLUNDERS, &d).await;
    let e = w.next().await.expect("event");
    assert_eq!(e["object"]["rows"][0]["cells"][0], "d");
    assert!(e["object"].get("columnDefinitions").is_none());

    // timeoutSeconds ends the stream; a bad resourceVersion is a 400.
    let mut w = c
        .watch(
            &format!("{NS_FLUNDERS}?watch=1&resourceVersion=999&timeoutSeconds=1"),
            ADMIN,
        )
        .await
        .expect("watch");
    assert_eq!(w.next().await, None);
    let bad = c
        .get(&format!("{NS_FLUNDERS}?watch=1&resourceVersion=x"))
        .await;
    assert_eq!(bad.status, 400);
}
