//! CustomResourceDefinitions and their custom resources through kube-rs (`kube` 5 with
//! `k8s-openapi` 0.29, API v1.33), unmodified: a typed CRD create that is watched until
//! Established, discovery of the new kind, `DynamicObject` CRUD with defaulting and pruning,
//! patch types, upstream's validation messages (schema, CEL, transition rules), the status
//! and scale subresources, reads through the second version, watches, and CRD deletion.
//! Each test starts its own server. A test marked `#[ignore = "server bug: ..."]` asserts
//! upstream's behaviour where the server still differs.

mod harness;

use std::fmt::Debug;
use std::time::{Duration, Instant};

use futures_util::{Stream, StreamExt};
use harness::Server;
use http_body_util::BodyExt;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DeleteParams, DynamicObject, GroupVersionKind, ListParams};
use kube::api::{Patch, PatchParams, PostParams, WatchEvent, WatchParams};
use kube::config::{KubeConfigOptions, Kubeconfig};
use kube::core::Status;
use kube::discovery::{self, Discovery, Scope};
use kube::{Client, Config, ResourceExt};
use serde_json::{json, Value};

/// No single watch event may take longer than this to arrive.
const EVENT_TIMEOUT: Duration = Duration::from_secs(20);

/// How long a new CRD may take to become Established (upstream: well under a second).
const ESTABLISH_LIMIT: Duration = Duration::from_secs(5);

const CRD_NAME: &str = "widgets.example.com";

/// The CRD under test: v1 (storage) with a structural schema, defaults, an enum, a minimum,
/// a CEL rule and a transition rule, status and scale subresources and printer columns;
/// v1beta1 served and schemaless.
fn widget_crd() -> CustomResourceDefinition {
    let schema = json!({
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "x-kubernetes-validations": [
                    {"rule": "self.replicas <= self.maxReplicas",
                     "message": "replicas must not exceed maxReplicas"},
                    {"rule": "!has(oldSelf.size) || self.size >= oldSelf.size",
                     "message": "size may only grow"},
                ],
                "properties": {
                    "replicas": {"type": "integer", "minimum": 0},
                    "maxReplicas": {"type": "integer", "default": 10},
                    "color": {"type": "string", "enum": ["red", "green", "blue"], "default": "red"},
                    "size": {"type": "integer"},
                },
            },
            "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}},
        },
    });
    serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": CRD_NAME},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {
                "plural": "widgets", "singular": "widget", "kind": "Widget",
                "shortNames": ["wd"], "categories": ["all"],
            },
            "versions": [
                {
                    "name": "v1", "served": true, "storage": true,
                    "subresources": {
                        "status": {},
                        "scale": {
                            "specReplicasPath": ".spec.replicas",
                            "statusReplicasPath": ".status.replicas",
                        },
                    },
                    "additionalPrinterColumns": [
                        {"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas"},
                        {"name": "Color", "type": "string", "jsonPath": ".spec.color"},
                    ],
                    "schema": {"openAPIV3Schema": schema},
                },
                {
                    "name": "v1beta1", "served": true, "storage": false,
                    "schema": {"openAPIV3Schema": {
                        "type": "object", "x-kubernetes-preserve-unknown-fields": true,
                    }},
                },
            ],
        },
    }))
    .expect("CRD JSON")
}

/// A client built the way a kube-rs program builds one from a kubeconfig file.
async fn admin_client(server: &Server) -> Client {
    let kubeconfig = Kubeconfig::read_from(server.kubeconfig()).expect("read kubeconfig");
    let config = Config::from_custom_kubeconfig(kubeconfig, &KubeConfigOptions::default()).await;
    Client::try_from(config.expect("config from the kubeconfig")).expect("client")
}

/// The Widget resource at `version`, as kube-rs names a dynamic type.
fn widget_resource(version: &str) -> ApiResource {
    let gvk = GroupVersionKind::gvk("example.com", version, "Widget");
    ApiResource::from_gvk_with_plural(&gvk, "widgets")
}

fn widgets(client: &Client, version: &str) -> Api<DynamicObject> {
    Api::namespaced_with(client.clone(), "default", &widget_resource(version))
}

fn crds(client: &Client) -> Api<CustomResourceDefinition> {
    Api::all(client.clone())
}

/// A v1 Widget with `labels` and `spec`.
fn widget(name: &str, labels: Value, spec: Value) -> DynamicObject {
    let mut object = DynamicObject::new(name, &widget_resource("v1"))
        .within("default")
        .data(json!({"spec": spec}));
    object.metadata.labels = Some(serde_json::from_value(labels).expect("labels JSON"));
    object
}

async fn create(api: &Api<DynamicObject>, object: &DynamicObject) -> DynamicObject {
    let r = api.create(&PostParams::default(), object).await;
    r.unwrap_or_else(|e| panic!("create {}: {e}", object.name_any()))
}

/// The `Status` of a failed call; panics on success or on a non-API error.
fn api_error<T: Debug>(r: Result<T, kube::Error>) -> Status {
    match r {
        Err(kube::Error::Api(s)) => *s,
        other => panic!("expected an API error, got {other:?}"),
    }
}

/// Code, reason and message, to compare in one assertion.
fn summary(s: &Status) -> (u16, &str, &str) {
    (s.code, &s.reason, &s.message)
}

fn names(items: &[DynamicObject]) -> Vec<String> {
    items.iter().map(|o| o.name_any()).collect()
}

/// Whether a CRD carries condition `type` with status True.
fn condition_true(crd: &CustomResourceDefinition, type_: &str) -> bool {
    let conditions = crd.status.as_ref().and_then(|s| s.conditions.as_ref());
    conditions
        .into_iter()
        .flatten()
        .any(|c| c.type_ == type_ && c.status == "True")
}

/// The next watch event, or a panic after [`EVENT_TIMEOUT`].
async fn next_event<K, S>(stream: &mut S) -> WatchEvent<K>
where
    S: Stream<Item = Result<WatchEvent<K>, kube::Error>> + Unpin,
{
    let next = tokio::time::timeout(EVENT_TIMEOUT, stream.next()).await;
    let next = next.expect("a watch event in time");
    next.expect("the watch ended early")
        .expect("a watch event that decodes")
}

/// The next event that is not a BOOKMARK (the server may send those at any time).
async fn next_change<K, S>(stream: &mut S) -> WatchEvent<K>
where
    S: Stream<Item = Result<WatchEvent<K>, kube::Error>> + Unpin,
{
    loop {
        match next_event(stream).await {
            WatchEvent::Bookmark(_) => continue,
            other => return other,
        }
    }
}

/// Creates the Widget CRD and watches it until Established; returns how long that took.
async fn establish(client: &Client) -> Duration {
    let api = crds(client);
    let start = Instant::now();
    let created = api.create(&PostParams::default(), &widget_crd()).await;
    let created = created.expect("create CRD");
    if condition_true(&created, "Established") {
        return start.elapsed();
    }
    let wp = WatchParams::default()
        .fields(&format!("metadata.name={CRD_NAME}"))
        .timeout(30);
    let rv = created.resource_version().expect("resourceVersion");
    let mut events = api.watch(&wp, &rv).await.expect("watch CRD").boxed();
    loop {
        match next_change(&mut events).await {
            WatchEvent::Modified(crd) if condition_true(&crd, "Established") => {
                return start.elapsed()
            }
            WatchEvent::Modified(_) => continue,
            e => panic!("expected MODIFIED on the CRD, got {e:?}"),
        }
    }
}

/// Whether Widgets are served and discoverable every way kube-rs looks for them.
async fn widgets_discoverable(client: &Client) -> bool {
    let listed = widgets(client, "v1")
        .list(&ListParams::default())
        .await
        .is_ok();
    let groups = client.list_api_groups().await.ok();
    let in_groups = groups.is_some_and(|g| g.groups.iter().any(|g| g.name == "example.com"));
    let aggregated = client.list_api_groups_aggregated().await.ok();
    let in_aggregated = aggregated.is_some_and(|list| {
        let mut names = list.items.iter().filter_map(|g| g.metadata.as_ref());
        names.any(|m| m.name.as_deref() == Some("example.com"))
    });
    let resources = client.list_api_group_resources("example.com/v1").await.ok();
    let in_resources = resources.is_some_and(|r| r.resources.iter().any(|r| r.name == "widgets"));
    listed && in_groups && in_aggregated && in_resources
}

/// A server with the Widget CRD established, and an admin client. Like kube-apiserver,
/// the server serves and lists a CRD's group by the time `Established` is stored, so the
/// CRD must be discoverable at once, without polling.
async fn with_crd() -> (Server, Client) {
    let server = Server::builder().start().await;
    let client = admin_client(&server).await;
    let took = establish(&client).await;
    println!("CRD {CRD_NAME} Established {took:?} after the create was sent");
    assert!(took < ESTABLISH_LIMIT, "established after {took:?}");
    assert!(
        widgets_discoverable(&client).await,
        "Established but not discoverable"
    );
    (server, client)
}

/// Which of the merged documents name the example.com group: `/apis`, aggregated
/// discovery, the `/openapi/v3` index and `/openapi/v2`.
async fn example_group_in_merged_documents(client: &Client) -> [bool; 4] {
    let groups = client.list_api_groups().await.expect("/apis");
    let in_groups = groups.groups.iter().any(|g| g.name == "example.com");
    let aggregated = client.list_api_groups_aggregated().await;
    let aggregated = aggregated.expect("aggregated /apis");
    let in_aggregated = aggregated
        .items
        .iter()
        .any(|g| g.metadata.as_ref().and_then(|m| m.name.as_deref()) == Some("example.com"));
    let get = |path: &str| {
        let req = http::Request::get(path).body(Vec::new()).expect("request");
        client.request_text(req)
    };
    let index = get("/openapi/v3").await.expect("/openapi/v3");
    let in_index = index.contains("\"apis/example.com/v1\"");
    let v2 = get("/openapi/v2").await.expect("/openapi/v2");
    let in_v2 = v2.contains("\"/apis/example.com/v1/widgets\"");
    [in_groups, in_aggregated, in_index, in_v2]
}

/// A client that reads the merged documents, creates a CRD, waits for Established and
/// reads again sees the group every time; after the CRD's deletion is seen, the group is
/// gone from all of them. No sleeps: every read follows the event it depends on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn merged_discovery_follows_crd_changes_at_once() {
    // Enough rounds to meet a racy ordering often; a soak run is for many more (each
    // round is about half a second of CI time).
    const ROUNDS: usize = 60;
    let server = Server::builder().start().await;
    let client = admin_client(&server).await;
    let api = crds(&client);
    let start = Instant::now();
    let mut established = Duration::ZERO;
    for round in 0..ROUNDS {
        let before = example_group_in_merged_documents(&client).await;
        assert_eq!(before, [false; 4], "round {round}: before the create");
        established += establish(&client).await;
        let after = example_group_in_merged_documents(&client).await;
        assert_eq!(after, [true; 4], "round {round}: once Established");

        let deleted = api.delete(CRD_NAME, &DeleteParams::default()).await;
        let crd = deleted.expect("delete CRD").left().expect("the CRD");
        let wp = WatchParams::default()
            .fields(&format!("metadata.name={CRD_NAME}"))
            .timeout(60);
        let rv = crd.resource_version().expect("resourceVersion");
        let mut events = api.watch(&wp, &rv).await.expect("watch").boxed();
        loop {
            match next_change(&mut events).await {
                WatchEvent::Deleted(_) => break,
                WatchEvent::Modified(_) => continue,
                e => panic!("expected MODIFIED or DELETED, got {e:?}"),
            }
        }
    }
    let gone = example_group_in_merged_documents(&client).await;
    assert_eq!(gone, [false; 4], "after the last delete");
    println!(
        "{ROUNDS} CRD create/establish/delete rounds in {:?}; mean time to Established {:?}",
        start.elapsed(),
        established / ROUNDS as u32
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crd_is_established_and_discovered() {
    let (_server, client) = with_crd().await;
    let crd = crds(&client).get(CRD_NAME).await.expect("get CRD");
    for t in ["NamesAccepted", "Established"] {
        assert!(condition_true(&crd, t), "{t}: {:?}", crd.status);
    }
    let accepted = crd.status.as_ref().and_then(|s| s.accepted_names.as_ref());
    let accepted = accepted.expect("acceptedNames");
    assert_eq!(
        (accepted.kind.as_str(), accepted.plural.as_str()),
        ("Widget", "widgets")
    );
    assert_eq!(
        accepted.short_names.as_deref(),
        Some(&["wd".to_owned()][..])
    );
    let stored = crd.status.as_ref().and_then(|s| s.stored_versions.clone());
    assert_eq!(stored, Some(vec!["v1".to_owned()]));
    // The cleanup finalizer comes with the first delete, as upstream's.
    assert!(crd.finalizers().is_empty());

    // Discovery, both ways kube-rs walks the groups (per group, and aggregated).
    let plain = Discovery::new(client.clone()).run().await;
    let aggregated = Discovery::new(client.clone()).run_aggregated().await;
    for found in [
        &plain.expect("discovery"),
        &aggregated.expect("aggregated discovery"),
    ] {
        let group = found.get("example.com");
        let group = group.unwrap_or_else(|| {
            panic!(
                "no example.com group in {:?}",
                found
                    .groups_alphabetical()
                    .iter()
                    .map(|g| g.name())
                    .collect::<Vec<_>>()
            )
        });
        assert_eq!(group.preferred_version(), Some("v1"));
        let versions: Vec<&str> = group.versions().collect();
        assert_eq!(versions, ["v1", "v1beta1"]);
        let (ar, caps) = group.recommended_kind("Widget").expect("Widget");
        let resource = (ar.api_version.as_str(), ar.plural.as_str());
        assert_eq!(resource, ("example.com/v1", "widgets"));
        assert!(matches!(caps.scope, Scope::Namespaced));
        let verbs = [
            "create", "get", "list", "watch", "patch", "update", "delete",
        ];
        for verb in verbs.into_iter().chain(["deletecollection"]) {
            assert!(caps.supports_operation(verb), "widgets lack {verb}");
        }
        let mut subresources: Vec<&str> =
            caps.subresources.iter().map(|(r, _)| &*r.plural).collect();
        subresources.sort_unstable();
        assert_eq!(subresources, ["scale", "status"]);
    }

    // One kind pinned to the other version: served without subresources.
    let gvk = GroupVersionKind::gvk("example.com", "v1beta1", "Widget");
    let (ar, caps) = discovery::pinned_kind(&client, &gvk)
        .await
        .expect("pinned kind");
    assert_eq!(
        (ar.api_version.as_str(), ar.plural.as_str()),
        ("example.com/v1beta1", "widgets")
    );
    assert!(caps.subresources.is_empty(), "{:?}", caps.subresources);

    // kube-rs does not surface short names and categories; the raw resource list has them.
    let list = client.list_api_group_resources("example.com/v1").await;
    let list = list.expect("resource list");
    let widgets = list.resources.iter().find(|r| r.name == "widgets");
    let widgets = widgets.expect("widgets in the resource list");
    assert_eq!(widgets.singular_name, "widget");
    assert_eq!(widgets.short_names.as_deref(), Some(&["wd".to_owned()][..]));
    assert_eq!(widgets.categories.as_deref(), Some(&["all".to_owned()][..]));
    assert!(widgets.namespaced);
    let mut all: Vec<&str> = list.resources.iter().map(|r| r.name.as_str()).collect();
    all.sort_unstable();
    assert_eq!(all, ["widgets", "widgets/scale", "widgets/status"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dynamic_object_crud_defaults_prunes_and_conflicts() {
    let (_server, client) = with_crd().await;
    let api = widgets(&client, "v1");
    let pp = PostParams {
        field_manager: Some("widget-maker".into()),
        ..PostParams::default()
    };
    let one = widget(
        "one",
        json!({"color": "red"}),
        json!({"replicas": 2, "size": 5, "unknown": "x"}),
    );
    let created = api.create(&pp, &one).await.expect("create");
    let spec = &created.data["spec"];
    assert_eq!(spec["color"], "red", "defaulted: {spec}");
    assert_eq!(spec["maxReplicas"], 10, "defaulted: {spec}");
    assert!(spec.get("unknown").is_none(), "pruned: {spec}");
    assert_eq!(created.metadata.generation, Some(1));
    assert!(created.uid().is_some() && created.creation_timestamp().is_some());
    let types = created.types.as_ref().expect("apiVersion and kind");
    assert_eq!(
        (types.api_version.as_str(), types.kind.as_str()),
        ("example.com/v1", "Widget")
    );
    let managers = created.managed_fields();
    let manager = managers
        .iter()
        .map(|m| (m.manager.as_deref(), m.operation.as_deref()));
    assert_eq!(
        manager.collect::<Vec<_>>(),
        [(Some("widget-maker"), Some("Update"))]
    );

    create(
        &api,
        &widget("two", json!({"color": "blue"}), json!({"replicas": 1})),
    )
    .await;
    create(&api, &widget("three", json!({}), json!({"replicas": 1}))).await;

    let got = api.get("one").await.expect("get");
    assert_eq!(got.resource_version(), created.resource_version());
    assert_eq!(got.data["spec"], created.data["spec"]);
    let select = |selector: &'static str| {
        let api = api.clone();
        async move {
            let list = api.list(&ListParams::default().labels(selector)).await;
            names(&list.expect("list").items)
        }
    };
    assert_eq!(select("color=red").await, ["one"]);
    assert_eq!(select("color in (red,blue)").await, ["one", "two"]);
    assert_eq!(select("!color").await, ["three"]);
    let by_name = api
        .list(&ListParams::default().fields("metadata.name=two"))
        .await;
    assert_eq!(names(&by_name.expect("list by field").items), ["two"]);

    // A replace carrying the resourceVersion it read succeeds; the same one again is stale.
    let mut edit = got.clone();
    edit.data["spec"]["replicas"] = json!(4);
    let replaced = api.replace("one", &PostParams::default(), &edit).await;
    let replaced = replaced.expect("replace");
    assert_ne!(replaced.resource_version(), got.resource_version());
    assert_eq!(replaced.metadata.generation, Some(2), "a spec change");
    let stale = api_error(api.replace("one", &PostParams::default(), &edit).await);
    let message = "Operation cannot be fulfilled on widgets.example.com \"one\": the object has \
                   been modified; please apply your changes to the latest version and try again";
    assert_eq!(summary(&stale), (409, "Conflict", message));
    let details = stale.details.expect("details");
    assert_eq!(
        (
            details.name.as_str(),
            details.group.as_str(),
            details.kind.as_str()
        ),
        ("one", "example.com", "widgets")
    );

    // Merge and JSON patches; a strategic merge patch is refused for custom resources.
    let params = PatchParams::default();
    let merge =
        Patch::Merge(json!({"metadata": {"labels": {"tier": "front"}}, "spec": {"size": 6}}));
    let patched = api
        .patch("one", &params, &merge)
        .await
        .expect("merge patch");
    assert_eq!(
        patched.labels().get("tier").map(String::as_str),
        Some("front")
    );
    assert_eq!(
        patched.labels().get("color").map(String::as_str),
        Some("red")
    );
    assert_eq!(patched.data["spec"]["size"], 6);
    let ops: Patch<()> = Patch::Json(
        serde_json::from_value(json!([
            {"op": "test", "path": "/spec/replicas", "value": 4},
            {"op": "replace", "path": "/spec/color", "value": "green"},
        ]))
        .expect("JSON patch"),
    );
    let patched = api.patch("one", &params, &ops).await.expect("json patch");
    assert_eq!(patched.data["spec"]["color"], "green");
    let failing: Patch<()> = Patch::Json(
        serde_json::from_value(json!([
            {"op": "test", "path": "/spec/replicas", "value": 7},
        ]))
        .expect("JSON patch"),
    );
    let failed = api_error(api.patch("one", &params, &failing).await);
    assert_eq!(
        (failed.code, failed.reason.as_str()),
        (422, "Invalid"),
        "{failed:?}"
    );
    let strategic = Patch::Strategic(json!({"spec": {"size": 7}}));
    let refused = api_error(api.patch("one", &params, &strategic).await);
    assert_eq!(
        (refused.code, refused.reason.as_str()),
        (415, "UnsupportedMediaType")
    );
    let prefix = "the body of the request was in an unknown format - accepted media types \
                  include: application/json-patch+json, application/merge-patch+json, \
                  application/apply-patch+yaml";
    assert!(refused.message.starts_with(prefix), "{refused:?}");

    let missing = api_error(api.get("nope").await);
    let message = "widgets.example.com \"nope\" not found";
    assert_eq!(summary(&missing), (404, "NotFound", message));
    let twice = api_error(
        api.create(
            &PostParams::default(),
            &widget("two", json!({}), json!({"replicas": 1})),
        )
        .await,
    );
    let message = "widgets.example.com \"two\" already exists";
    assert_eq!(summary(&twice), (409, "AlreadyExists", message));

    // A custom resource delete answers with a success Status naming what was deleted.
    let deleted = api
        .delete("one", &DeleteParams::default())
        .await
        .expect("delete");
    let status = deleted.right().expect("a Status, not the object");
    let details = status.details.expect("details");
    assert_eq!(
        (details.name.as_str(), details.kind.as_str()),
        ("one", "widgets")
    );
    assert_eq!(Some(details.uid), created.uid());
    assert_eq!(api.get_opt("one").await.expect("get_opt"), None);
    let gone = api_error(api.delete("one", &DeleteParams::default()).await);
    assert_eq!(
        summary(&gone),
        (404, "NotFound", "widgets.example.com \"one\" not found")
    );

    // A collection delete by label answers with the objects it deleted.
    let lp = ListParams::default().labels("color=blue");
    let deleted = api.delete_collection(&DeleteParams::default(), &lp).await;
    let deleted = deleted.expect("delete collection").left().expect("a list");
    assert_eq!(names(&deleted.items), ["two"]);
    let left = api.list(&ListParams::default()).await.expect("list");
    assert_eq!(names(&left.items), ["three"]);
}

/// Creates Widget `one` and lists Widgets as a Table: its (name, type) column pairs and the
/// cells of its one row.
async fn widget_table(client: &Client) -> (Vec<(String, String)>, Vec<Value>) {
    create(
        &widgets(client, "v1"),
        &widget("one", json!({}), json!({"replicas": 2})),
    )
    .await;
    // kube-rs has no Table type: a list request from kube-core asking for a Table.
    let request = kube::core::Request::new("/apis/example.com/v1/namespaces/default/widgets");
    let mut request = request.list(&ListParams::default()).expect("request");
    let accept = "application/json;as=Table;v=v1;g=meta.k8s.io";
    let accept = http::HeaderValue::from_static(accept);
    request.headers_mut().insert(http::header::ACCEPT, accept);
    let table: Value = client.request(request).await.expect("table");
    assert_eq!(table["kind"], "Table", "{table}");
    assert_eq!(table["apiVersion"], "meta.k8s.io/v1");
    let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
    let columns = table["columnDefinitions"].as_array().expect("columns");
    let headers = columns.iter().map(|c| (text(&c["name"]), text(&c["type"])));
    let rows = table["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 1, "{table}");
    let cells = rows[0]["cells"].as_array().expect("cells").clone();
    (headers.collect(), cells)
}

fn column(name: &str, type_: &str) -> (String, String) {
    (name.to_owned(), type_.to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_shows_the_printer_columns() {
    let (_server, client) = with_crd().await;
    let (headers, cells) = widget_table(&client).await;
    let want = [
        column("Name", "string"),
        column("Replicas", "integer"),
        column("Color", "string"),
    ];
    assert!(headers.len() >= 3, "{headers:?}");
    assert_eq!(headers[..3], want);
    assert_eq!(cells[..3], [json!("one"), json!(2), json!("red")]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_shows_only_the_declared_printer_columns() {
    let (_server, client) = with_crd().await;
    let (headers, cells) = widget_table(&client).await;
    // Upstream adds Age only to a version that declares no columns at all.
    let want = [
        column("Name", "string"),
        column("Replicas", "integer"),
        column("Color", "string"),
    ];
    assert_eq!(headers, want);
    assert_eq!(cells, [json!("one"), json!(2), json!("red")]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pruned_unknown_field_is_reported_as_a_warning() {
    let (_server, client) = with_crd().await;
    // kube-rs does not expose response warnings, so the request goes through its raw
    // `Client::send` with a request built by kube-core.
    let object = widget("warned", json!({}), json!({"replicas": 1, "unknown": "x"}));
    let body = serde_json::to_vec(&object).expect("JSON");
    let request = kube::core::Request::new("/apis/example.com/v1/namespaces/default/widgets");
    let request = request
        .create(&PostParams::default(), body)
        .expect("request");
    let response = client.send(request.map(kube::client::Body::from)).await;
    let response = response.expect("response");
    assert_eq!(response.status(), 201);
    let warnings: Vec<String> = response
        .headers()
        .get_all("warning")
        .iter()
        .map(|v| v.to_str().expect("ASCII warning").to_owned())
        .collect();
    assert_eq!(warnings, [r#"299 - "unknown field \"spec.unknown\"""#]);
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    let stored: Value = serde_json::from_slice(&body).expect("JSON body");
    assert!(stored["spec"].get("unknown").is_none(), "pruned: {stored}");
}

/// The field errors of a 422 Invalid answer for Widget `name`: the message after its
/// `<kind> "<name>" is invalid: ` prefix (the kind is checked apart, see
/// [`invalid_messages_name_the_group_qualified_kind`]).
fn field_errors<'a>(err: &'a Status, name: &str) -> &'a str {
    assert_eq!((err.code, err.reason.as_str()), (422, "Invalid"), "{err:?}");
    let infix = format!(" \"{name}\" is invalid: ");
    let at = err.message.find(&infix);
    let at = at.unwrap_or_else(|| panic!("no {infix:?} in {err:?}"));
    &err.message[at + infix.len()..]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_custom_resources_get_upstreams_messages() {
    let (_server, client) = with_crd().await;
    let api = widgets(&client, "v1");
    let pp = PostParams::default();

    let bad = widget("bad", json!({}), json!({"replicas": -1, "color": "purple"}));
    let err = api_error(api.create(&pp, &bad).await);
    let enum_message = "spec.color: Unsupported value: \"purple\": supported values: \"red\", \
                        \"green\", \"blue\"";
    let minimum_message = "spec.replicas: Invalid value: -1: spec.replicas in body should be \
                           greater than or equal to 0";
    // Several errors: bracketed and comma-separated (their order is not part of the contract).
    let errors = field_errors(&err, "bad");
    assert!(errors.starts_with('[') && errors.ends_with(']'), "{err:?}");
    for m in [enum_message, minimum_message] {
        assert!(errors.contains(m), "{m} in {err:?}");
    }
    let details = err.details.as_ref().expect("details");
    let named = (
        details.name.as_str(),
        details.group.as_str(),
        details.kind.as_str(),
    );
    assert_eq!(named, ("bad", "example.com", "Widget"));
    let mut causes: Vec<(&str, &str, &str)> = details
        .causes
        .iter()
        .map(|c| (c.reason.as_str(), c.field.as_str(), c.message.as_str()))
        .collect();
    causes.sort_unstable();
    let minimum = "Invalid value: -1: spec.replicas in body should be greater than or equal to 0";
    let one_of = "Unsupported value: \"purple\": supported values: \"red\", \"green\", \"blue\"";
    // The scale subresource's own check of spec.replicas comes too (upstream's
    // ValidateScaleSpec, at the path as the CRD writes it).
    let scale = "Invalid value: -1: should be a non-negative integer";
    assert_eq!(
        causes,
        [
            ("FieldValueInvalid", ".spec.replicas", scale),
            ("FieldValueInvalid", "spec.replicas", minimum),
            ("FieldValueNotSupported", "spec.color", one_of),
        ]
    );

    let wrong_type = widget("typed", json!({}), json!({"replicas": "lots"}));
    let err = api_error(api.create(&pp, &wrong_type).await);
    let message = "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of \
                   type integer";
    assert!(field_errors(&err, "typed").contains(message), "{err:?}");

    // A CEL rule: its message, on the field that holds the rule, with the value's type.
    let cel = widget("cel", json!({}), json!({"replicas": 20, "maxReplicas": 5}));
    let err = api_error(api.create(&pp, &cel).await);
    let message = "spec: Invalid value: \"object\": replicas must not exceed maxReplicas";
    assert_eq!(field_errors(&err, "cel"), message);
    // A rule that reads a missing field fails to evaluate.
    let err = api_error(
        api.create(&pp, &widget("empty", json!({}), json!({})))
            .await,
    );
    let message = "spec: Invalid value: \"object\": no such key: replicas evaluating rule: \
                   replicas must not exceed maxReplicas";
    assert_eq!(field_errors(&err, "empty"), message);

    // The transition rule runs on update only: the create passes, shrinking fails.
    let grow = widget("grow", json!({}), json!({"replicas": 1, "size": 5}));
    create(&api, &grow).await;
    let shrink = Patch::Merge(json!({"spec": {"size": 4}}));
    let err = api_error(api.patch("grow", &PatchParams::default(), &shrink).await);
    let message = "spec: Invalid value: \"object\": size may only grow";
    assert_eq!(field_errors(&err, "grow"), message);
    let mut edit = api.get("grow").await.expect("get");
    edit.data["spec"]["size"] = json!(3);
    let err = api_error(api.replace("grow", &pp, &edit).await);
    assert_eq!(field_errors(&err, "grow"), message);
    let bigger = Patch::Merge(json!({"spec": {"size": 6}}));
    let grown = api.patch("grow", &PatchParams::default(), &bigger).await;
    assert_eq!(grown.expect("growing is fine").data["spec"]["size"], 6);
    // Nothing invalid was stored.
    let list = api.list(&ListParams::default()).await.expect("list");
    assert_eq!(names(&list.items), ["grow"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_messages_name_the_group_qualified_kind() {
    let (_server, client) = with_crd().await;
    let api = widgets(&client, "v1");
    let pp = PostParams::default();
    // Upstream builds the message from the object's GroupKind: `Widget.example.com`.
    let cel = widget("cel", json!({}), json!({"replicas": 20, "maxReplicas": 5}));
    let err = api_error(api.create(&pp, &cel).await);
    let message = "Widget.example.com \"cel\" is invalid: spec: Invalid value: \"object\": \
                   replicas must not exceed maxReplicas";
    assert_eq!(summary(&err), (422, "Invalid", message));
    let bad = widget("bad", json!({}), json!({"replicas": -1, "color": "purple"}));
    let err = api_error(api.create(&pp, &bad).await);
    let prefix = "Widget.example.com \"bad\" is invalid: [";
    assert!(err.message.starts_with(prefix), "{err:?}");
    create(
        &api,
        &widget("grow", json!({}), json!({"replicas": 1, "size": 5})),
    )
    .await;
    let shrink = Patch::Merge(json!({"spec": {"size": 4}}));
    let err = api_error(api.patch("grow", &PatchParams::default(), &shrink).await);
    let message = "Widget.example.com \"grow\" is invalid: spec: Invalid value: \"object\": \
                   size may only grow";
    assert_eq!(summary(&err), (422, "Invalid", message));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_and_scale_subresources_and_the_other_version() {
    let (_server, client) = with_crd().await;
    let api = widgets(&client, "v1");
    let params = PatchParams::default();
    let created = create(&api, &widget("one", json!({}), json!({"replicas": 2}))).await;

    // A status write ignores spec changes and leaves the generation alone.
    let both = Patch::Merge(json!({"status": {"replicas": 2}, "spec": {"replicas": 9}}));
    let w = api
        .patch_status("one", &params, &both)
        .await
        .expect("patch status");
    assert_eq!(w.data["status"]["replicas"], 2);
    assert_eq!(w.data["spec"]["replicas"], 2, "spec ignored");
    assert_eq!(w.metadata.generation, created.metadata.generation);
    let read = api.get_status("one").await.expect("get status");
    assert_eq!(read.data["status"]["replicas"], 2);

    // A write to the main resource ignores status changes.
    let mut edit = w.clone();
    edit.data["status"]["replicas"] = json!(42);
    edit.data["spec"]["size"] = json!(1);
    let w = api
        .replace("one", &PostParams::default(), &edit)
        .await
        .expect("replace");
    assert_eq!(w.data["status"]["replicas"], 2, "status ignored");
    assert_eq!(w.data["spec"]["size"], 1);
    assert_eq!(w.metadata.generation, Some(2));

    // The scale subresource maps spec.replicas and status.replicas.
    let scale = api.get_scale("one").await.expect("get scale");
    assert_eq!(scale.metadata.name.as_deref(), Some("one"));
    assert_eq!(scale.metadata.uid, created.uid());
    assert_eq!(scale.spec.as_ref().and_then(|s| s.replicas), Some(2));
    assert_eq!(scale.status.as_ref().map(|s| s.replicas), Some(2));
    let to_three = Patch::Merge(json!({"spec": {"replicas": 3}}));
    let scale = api
        .patch_scale("one", &params, &to_three)
        .await
        .expect("patch scale");
    assert_eq!(scale.spec.as_ref().and_then(|s| s.replicas), Some(3));
    let w = api.get("one").await.expect("get");
    assert_eq!(w.data["spec"]["replicas"], 3);
    let too_many = Patch::Merge(json!({"spec": {"replicas": 11}}));
    let err = api_error(api.patch_scale("one", &params, &too_many).await);
    assert_eq!((err.code, err.reason.as_str()), (422, "Invalid"), "{err:?}");
    assert!(
        err.message.contains("replicas must not exceed maxReplicas"),
        "{err:?}"
    );
    let missing = api_error(api.get_scale("nope").await);
    let message = "widgets.example.com \"nope\" not found";
    assert_eq!(summary(&missing), (404, "NotFound", message));

    // The same object through v1beta1, and a write there seen through v1.
    let beta = widgets(&client, "v1beta1");
    let b = beta.get("one").await.expect("get v1beta1");
    let types = b.types.as_ref().expect("apiVersion and kind");
    assert_eq!(
        (types.api_version.as_str(), types.kind.as_str()),
        ("example.com/v1beta1", "Widget")
    );
    assert_eq!(b.uid(), created.uid());
    assert_eq!(b.resource_version(), w.resource_version());
    assert_eq!(b.data["spec"], w.data["spec"]);
    let listed = beta
        .list(&ListParams::default())
        .await
        .expect("list v1beta1");
    assert_eq!(names(&listed.items), ["one"]);
    let label = Patch::Merge(json!({"metadata": {"labels": {"via": "beta"}}}));
    beta.patch("one", &params, &label)
        .await
        .expect("patch v1beta1");
    let w = api.get("one").await.expect("get v1");
    assert_eq!(w.labels().get("via").map(String::as_str), Some("beta"));
    assert_eq!(
        w.types.as_ref().map(|t| t.api_version.as_str()),
        Some("example.com/v1")
    );
    // v1beta1 has no subresources.
    let err = api_error(beta.get_scale("one").await);
    assert_eq!(err.code, 404, "{err:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_sees_added_modified_deleted() {
    let (_server, client) = with_crd().await;
    let api = widgets(&client, "v1");
    create(
        &api,
        &widget("before", json!({"w": "1"}), json!({"replicas": 1})),
    )
    .await;
    // From "0": the current state as ADDED first, then changes as they happen.
    let wp = WatchParams::default().labels("w=1").timeout(60);
    let mut events = api.watch(&wp, "0").await.expect("watch").boxed();
    match next_change(&mut events).await {
        WatchEvent::Added(o) => assert_eq!(o.name_any(), "before"),
        e => panic!("expected ADDED before, got {e:?}"),
    }
    let other = widgets(&client, "v1");
    create(
        &other,
        &widget("during", json!({"w": "1"}), json!({"replicas": 1})),
    )
    .await;
    match next_change(&mut events).await {
        WatchEvent::Added(o) => {
            assert_eq!(o.name_any(), "during");
            assert_eq!(o.data["spec"]["color"], "red", "defaulted in the event");
        }
        e => panic!("expected ADDED during, got {e:?}"),
    }
    let size = Patch::Merge(json!({"spec": {"size": 2}}));
    other
        .patch("during", &PatchParams::default(), &size)
        .await
        .expect("patch");
    match next_change(&mut events).await {
        WatchEvent::Modified(o) => {
            assert_eq!(o.name_any(), "during");
            assert_eq!(o.data["spec"]["size"], 2);
        }
        e => panic!("expected MODIFIED, got {e:?}"),
    }
    other
        .delete("during", &DeleteParams::default())
        .await
        .expect("delete");
    match next_change(&mut events).await {
        WatchEvent::Deleted(o) => assert_eq!(o.name_any(), "during"),
        e => panic!("expected DELETED, got {e:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_the_crd_removes_its_objects() {
    let (_server, client) = with_crd().await;
    let api = widgets(&client, "v1");
    for name in ["a", "b"] {
        create(&api, &widget(name, json!({}), json!({"replicas": 1}))).await;
    }
    let crd_api = crds(&client);
    // The delete answers with the CRD, held by its cleanup finalizer.
    let deleted = crd_api.delete(CRD_NAME, &DeleteParams::default()).await;
    let crd = deleted
        .expect("delete CRD")
        .left()
        .expect("the CRD, not a Status");
    assert!(crd.metadata.deletion_timestamp.is_some());
    let wp = WatchParams::default()
        .fields(&format!("metadata.name={CRD_NAME}"))
        .timeout(60);
    let rv = crd.resource_version().expect("resourceVersion");
    let mut events = crd_api.watch(&wp, &rv).await.expect("watch").boxed();
    let start = Instant::now();
    loop {
        match next_change(&mut events).await {
            WatchEvent::Modified(crd) => assert!(crd.metadata.deletion_timestamp.is_some()),
            WatchEvent::Deleted(crd) => break assert_eq!(crd.name_any(), CRD_NAME),
            e => panic!("expected MODIFIED or DELETED, got {e:?}"),
        }
    }
    println!("CRD {CRD_NAME} gone {:?} after its delete", start.elapsed());
    assert_eq!(crd_api.get_opt(CRD_NAME).await.expect("get_opt"), None);
    let gone = api_error(api.list(&ListParams::default()).await);
    assert_eq!(gone.code, 404, "{gone:?}");

    // Re-created, the CRD starts empty.
    let took = establish(&client).await;
    assert!(took < ESTABLISH_LIMIT, "re-established after {took:?}");
    assert!(
        widgets_discoverable(&client).await,
        "re-established, not discoverable"
    );
    let list = api.list(&ListParams::default()).await.expect("list");
    assert!(list.items.is_empty(), "{:?}", names(&list.items));
}
