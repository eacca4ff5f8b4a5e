//! CustomResourceDefinitions and custom resources through kubectl, and the isolation the
//! extensions worker gives: killed while custom resources are written, the built-in API
//! keeps serving and no acknowledged write is lost.

#[path = "crd/conversion.rs"]
mod conversion;
mod harness;

use std::time::{Duration, Instant};

use harness::kubectl::Kubectl;
use harness::{require_tool, Server};
use http::Method;

const CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: widgets
    singular: widget
    kind: Widget
    shortNames: [wd]
    categories: [all]
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Color
      type: string
      jsonPath: .spec.color
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.replicas <= self.maxReplicas"
              message: "replicas must not exceed maxReplicas"
            - rule: "!has(oldSelf.size) || self.size >= oldSelf.size"
              message: "size may only grow"
            properties:
              replicas:
                type: integer
                minimum: 0
              maxReplicas:
                type: integer
                default: 10
              color:
                type: string
                enum: [red, green, blue]
                default: red
              size:
                type: integer
          status:
            type: object
            properties:
              replicas:
                type: integer
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
"#;

async fn with_crd() -> Option<(Server, Kubectl)> {
    if !require_tool("kubectl") {
        return None;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    k.ok_stdin(&["apply", "-f", "-"], CRD);
    let start = Instant::now();
    k.wait_established("widgets.example.com");
    let took = start.elapsed();
    assert!(took < Duration::from_secs(5), "established after {took:?}");
    Some((server, k))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crd_is_established_and_its_objects_served() {
    let Some((_server, k)) = with_crd().await else {
        return;
    };
    let crd = k.ok(&["get", "crd", "widgets.example.com", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&crd).expect("json");
    let conds = v["status"]["conditions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for t in ["NamesAccepted", "Established"] {
        assert!(
            conds
                .iter()
                .any(|c| c["type"] == t && c["status"] == "True"),
            "{t} in {conds:?}"
        );
    }
    assert_eq!(v["status"]["acceptedNames"]["kind"], "Widget");
    // As upstream, the cleanup finalizer comes with the first delete, not the create.
    assert_eq!(v["metadata"]["finalizers"], serde_json::Value::Null);

    let explain = k.ok(&["explain", "widgets.spec"]);
    assert!(
        explain.contains("KIND:       Widget") && explain.contains("enum: red, green, blue"),
        "{explain}"
    );
    let res = k.ok(&["api-resources", "--api-group", "example.com"]);
    assert!(
        res.contains("widgets") && res.contains("wd") && res.contains("Widget"),
        "{res}"
    );

    let w = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: one\nspec:\n  replicas: 2\n  size: 5\n  unknown: x\n";
    let out = k.ok_stdin(&["apply", "--validate=false", "-f", "-"], w);
    assert!(out.contains("widget.example.com/one created"), "{out}");
    let got: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "widget", "one", "-o", "json"])).expect("json");
    assert_eq!(got["spec"]["color"], "red", "defaulted");
    assert_eq!(got["spec"]["maxReplicas"], 10, "defaulted");
    assert!(got["spec"].get("unknown").is_none(), "pruned: {got}");
    assert_eq!(got["metadata"]["generation"], 1);

    let table = k.ok(&["get", "wd"]);
    assert!(
        table.contains("REPLICAS") && table.contains("COLOR") && table.contains("red"),
        "{table}"
    );
    let all = k.ok(&["get", "all"]);
    assert!(all.contains("widget.example.com/one"), "{all}");

    // The other version serves the same object with its own apiVersion.
    let v2: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "widgets.v1beta1.example.com", "one", "-o", "json"]))
            .expect("json");
    assert_eq!(v2["apiVersion"], "example.com/v1beta1");
    assert_eq!(v2["spec"]["replicas"], 2);

    // Scale and status.
    k.ok(&["scale", "widget", "one", "--replicas", "3"]);
    let r = k.ok(&["get", "widget", "one", "-o", "jsonpath={.spec.replicas}"]);
    assert_eq!(r, "3");
    k.ok(&[
        "patch",
        "widget",
        "one",
        "--subresource",
        "status",
        "--type",
        "merge",
        "-p",
        r#"{"status":{"replicas":3},"spec":{"replicas":9}}"#,
    ]);
    let got: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "widget", "one", "-o", "json"])).expect("json");
    assert_eq!(got["status"]["replicas"], 3);
    assert_eq!(got["spec"]["replicas"], 3, "a status write ignores spec");

    // Strategic merge patch is refused for custom resources, as upstream.
    let err = k.fails(&[
        "patch",
        "widget",
        "one",
        "--type",
        "strategic",
        "-p",
        r#"{"spec":{"size":6}}"#,
    ]);
    assert!(
        err.contains("UnsupportedMediaType")
            || err.contains("415")
            || err.contains("unknown format"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_custom_resources_get_upstreams_messages() {
    let Some((_server, k)) = with_crd().await else {
        return;
    };
    let bad = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: bad\nspec:\n  replicas: -1\n  color: purple\n";
    let err = k.fails_stdin(&["create", "--validate=false", "-f", "-"], bad);
    assert!(err.contains("The Widget \"bad\" is invalid"), "{err}");
    assert!(err.contains("spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0"), "{err}");
    assert!(err.contains("spec.color: Unsupported value: \"purple\": supported values: \"red\", \"green\", \"blue\""), "{err}");

    let cel = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: cel\nspec:\n  replicas: 20\n  maxReplicas: 5\n";
    let err = k.fails_stdin(&["create", "--validate=false", "-f", "-"], cel);
    assert!(
        err.contains("replicas must not exceed maxReplicas"),
        "{err}"
    );

    let ok = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: grow\nspec:\n  replicas: 1\n  size: 5\n";
    k.ok_stdin(&["create", "--validate=false", "-f", "-"], ok);
    let err = k.fails(&[
        "patch",
        "widget",
        "grow",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"size":4}}"#,
    ]);
    assert!(err.contains("size may only grow"), "{err}");
    k.ok(&[
        "patch",
        "widget",
        "grow",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"size":6}}"#,
    ]);

    let wrong_type = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: typed\nspec:\n  replicas: lots\n";
    let err = k.fails_stdin(&["create", "--validate=false", "-f", "-"], wrong_type);
    assert!(err.contains("spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deleting_a_crd_deletes_its_objects() {
    let Some((_server, k)) = with_crd().await else {
        return;
    };
    for n in ["a", "b"] {
        let w = format!("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: {n}\nspec:\n  replicas: 1\n");
        k.ok_stdin(&["create", "--validate=false", "-f", "-"], &w);
    }
    k.ok(&["delete", "crd", "widgets.example.com", "--timeout=20s"]);
    let out = k.run(&["get", "crd", "widgets.example.com"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not found"), "{err}");
    // Re-created, the CRD starts empty.
    k.ok_stdin(&["apply", "-f", "-"], CRD);
    k.wait_established("widgets.example.com");
    let list = k.ok(&["get", "widgets", "-o", "name"]);
    assert_eq!(list.trim(), "", "{list}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_the_extensions_worker_leaves_the_builtin_api_serving() {
    let Some((server, k)) = with_crd().await else {
        return;
    };
    let base = "/apis/example.com/v1/namespaces/default/widgets";
    let mut acked = Vec::new();
    let mut unavailable = 0;
    let mut builtin_errors = 0;
    let mut killed = false;
    let start = Instant::now();
    let mut i = 0;
    while start.elapsed() < Duration::from_secs(30) {
        i += 1;
        if i == 20 {
            let pid = server.workers()["extensions"];
            nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            )
            .expect("kill -9");
            killed = true;
        }
        let body = format!(
            r#"{{"apiVersion":"example.com/v1","kind":"Widget","metadata":{{"name":"w{i}"}},"spec":{{"replicas":1}}}}"#
        );
        match server
            .request(Method::POST, base, body.as_bytes(), true, false)
            .await
        {
            Ok(r) if r.status == 201 => acked.push(format!("w{i}")),
            Ok(r) if r.status == 503 => {
                assert_eq!(r.json()["kind"], "Status", "{}", r.text());
                unavailable += 1;
            }
            Ok(r) => panic!("unexpected {}: {}", r.status, r.text()),
            Err(e) => panic!("request failed: {e}"),
        }
        let b = server.get("/api/v1/namespaces/default/configmaps").await;
        if b.status != 200 {
            builtin_errors += 1;
        }
        if killed && acked.len() >= 40 {
            break;
        }
    }
    assert!(killed);
    assert_eq!(builtin_errors, 0, "built-in resources kept serving");
    assert!(
        acked.len() >= 40,
        "custom resources came back: {} acked",
        acked.len()
    );
    let list = k.ok(&["get", "widgets", "-o", "name"]);
    for name in &acked {
        assert!(
            list.lines()
                .any(|l| l == format!("widget.example.com/{name}")),
            "acknowledged {name} lost"
        );
    }
    let _ = unavailable;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_crds_are_refused_and_protected_groups_need_approval() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    let two_storage = CRD.replace("    storage: false", "    storage: true");
    let err = k.fails_stdin(&["create", "-f", "-"], &two_storage);
    assert!(
        err.contains("The CustomResourceDefinition \"widgets.example.com\" is invalid")
            && err.contains("spec.versions: Invalid value:")
            && err.contains("must have exactly one version marked as storage version"),
        "{err}"
    );
    let bad_name = CRD.replace("name: widgets.example.com", "name: gadgets.example.com");
    let err = k.fails_stdin(&["create", "-f", "-"], &bad_name);
    assert!(
        err.contains("metadata.name: Invalid value: \"gadgets.example.com\": must be spec.names.plural+\".\"+spec.group"),
        "{err}"
    );
    // A group under k8s.io without the approval annotation is served, flagged.
    let protected = CRD
        .replace("widgets.example.com", "widgets.things.k8s.io")
        .replace("group: example.com", "group: things.k8s.io");
    k.ok_stdin(&["create", "-f", "-"], &protected);
    k.wait_established("widgets.things.k8s.io");
    let v: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "crd", "widgets.things.k8s.io", "-o", "json"]))
            .expect("json");
    let cond = v["status"]["conditions"]
        .as_array()
        .and_then(|c| {
            c.iter()
                .find(|c| c["type"] == "KubernetesAPIApprovalPolicyConformant")
                .cloned()
        })
        .expect("approval condition");
    assert_eq!(cond["status"], "False");
    assert_eq!(cond["reason"], "MissingAnnotation");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_on_one_version_sees_writes_made_through_another() {
    let Some((server, k)) = with_crd().await else {
        return;
    };
    let w =
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: seen\nspec:\n  replicas: 1\n";
    k.ok_stdin(&["create", "--validate=false", "-f", "-"], w);
    let list = server
        .get("/apis/example.com/v1beta1/namespaces/default/widgets")
        .await;
    let rv = list.json()["metadata"]["resourceVersion"]
        .as_str()
        .unwrap_or("0")
        .to_owned();
    let path = format!(
        "/apis/example.com/v1beta1/namespaces/default/widgets?watch=true&resourceVersion={rv}&timeoutSeconds=2"
    );
    let watch = server.request(Method::GET, &path, b"", true, false);
    let change = async {
        k.ok(&["label", "widget", "seen", "x=y"]);
    };
    let (w, ()) = tokio::join!(watch, change);
    let text = w.expect("watch").text();
    let ev: serde_json::Value =
        serde_json::from_str(text.lines().next().unwrap_or("{}")).expect("event");
    assert_eq!(ev["type"], "MODIFIED", "{text}");
    assert_eq!(ev["object"]["apiVersion"], "example.com/v1beta1");
    assert_eq!(ev["object"]["metadata"]["labels"]["x"], "y");
}

const CONFIGMAP_LIST: &str = r#"
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: listed-a}
  data: {x: "1"}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: listed-b}
"#;

/// kubectl's client-side validation, `explain` and strict field validation keep working
/// once CRDs exist (they read the merged `/openapi/v2` in protobuf and `/openapi/v3`): a
/// `kind: List` applies before and after, with every kubectl from 1.27 to 1.33.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_validation_and_explain_work_once_crds_exist() {
    let Some((server, k)) = with_crd().await else {
        return;
    };
    let gadgets = CRD
        .replace("widgets", "gadgets")
        .replace("widget", "gadget")
        .replace("Widget", "Gadget")
        .replace("[wd]", "[gd]");
    let out = k.ok_stdin(&["apply", "-f", "-"], &gadgets);
    assert!(out.contains("gadgets.example.com created"), "{out}");
    k.wait_established("gadgets.example.com");
    for minor in 27..=33 {
        let pinned = Kubectl::minor(&server, minor);
        let out = pinned.ok_stdin(&["apply", "-f", "-"], CONFIGMAP_LIST);
        assert!(
            out.contains("configmap/listed-a") && out.contains("configmap/listed-b"),
            "kubectl 1.{minor}: {out}"
        );
        let explain = pinned.ok(&["explain", "gadgets.spec.color"]);
        assert!(
            explain.contains("enum: red, green, blue") || explain.contains("<string>"),
            "kubectl 1.{minor}: {explain}"
        );
    }
    let explain = k.ok(&["explain", "configmap.data"]);
    assert!(
        explain.contains("FIELD: data <map[string]string>"),
        "{explain}"
    );
    let explain = k.ok(&["explain", "gadgets.spec"]);
    assert!(explain.contains("KIND:       Gadget"), "{explain}");

    // Strict field validation: the server's words, for a custom and a built-in kind.
    let widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: strict\nspec:\n  replicas: 1\n  unknown: x\n";
    let err = k.fails_stdin(&["create", "--validate=strict", "-f", "-"], widget);
    assert!(
        err.contains(r#"Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.unknown""#),
        "{err}"
    );
    let configmap = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: strict\nbogus: 1\n";
    let err = k.fails_stdin(&["create", "--validate=strict", "-f", "-"], configmap);
    assert!(
        err.contains(r#"ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus""#),
        "{err}"
    );
    let valid = widget.replace("  unknown: x\n", "");
    let out = k.ok_stdin(&["create", "--validate=strict", "-f", "-"], &valid);
    assert!(out.contains("widget.example.com/strict created"), "{out}");
}

/// One request a client sends and the `Content-Type` kube-apiserver v1.33 answers it with,
/// and where upstream decides it (k8s.io/apiserver, kube-aggregator and kube-openapi at
/// v0.33.0 unless named otherwise).
struct MediaRow {
    path: &'static str,
    accept: &'static str,
    status: u16,
    content_type: &'static str,
    source: &'static str,
}

const fn row(
    path: &'static str,
    accept: &'static str,
    status: u16,
    content_type: &'static str,
    source: &'static str,
) -> MediaRow {
    MediaRow {
        path,
        accept,
        status,
        content_type,
        source,
    }
}

const JSON: &str = "application/json";
const PROTOBUF: &str = "application/vnd.kubernetes.protobuf";
const TEXT: &str = "text/plain; charset=utf-8";
/// kubectl get's Accept (kubectl pkg/cmd/get/get.go).
const KUBECTL_TABLE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
/// client-go's typed clients for built-in types (rest/request.go, UseProtobufAsDefault).
const CLIENT_GO_TYPED: &str = "application/vnd.kubernetes.protobuf,application/json";
/// client-go's RESTClient default (rest/request.go, setAcceptHeader).
const CLIENT_GO_REST: &str = "application/json, */*";
/// client-go's metadata client (metadata/metadata.go).
const METADATA_LIST: &str = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
/// client-go's and kube-rs 3's discovery (discovery/discovery_client.go, AcceptV2…V1).
const DISCOVERY: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
const AGGREGATED_JSON: &str =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
const AGGREGATED_PB: &str =
    "application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
/// What client-go asks `/openapi/v2` for (discovery/discovery_client.go, OpenAPISchema).
const OPENAPI_V2_PB: &str = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";
const WATCH: &str = "/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1";
const WRITERS: &str = "handlers/responsewriters/writers.go SerializeObject";
const NEGOTIATE: &str = "handlers/negotiation/negotiate.go NegotiateMediaTypeOptions";

/// Endpoints served with or without CRDs. The Python client sends `application/json`
/// everywhere; kube-rs sends no Accept for reads.
const BUILT_IN_ROWS: &[MediaRow] = &[
    row(CONFIGMAPS, JSON, 200, JSON, WRITERS),
    row(CONFIGMAPS, CLIENT_GO_REST, 200, JSON, NEGOTIATE),
    row(CONFIGMAPS, "", 200, JSON, NEGOTIATE),
    row(CONFIGMAPS, CLIENT_GO_TYPED, 200, PROTOBUF, WRITERS),
    row(CONFIGMAPS, "application/yaml", 200, "application/yaml", WRITERS),
    row(CONFIGMAPS, KUBECTL_TABLE, 200, JSON, "handlers/response.go transformResponseObject"),
    row(
        CONFIGMAPS,
        "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io",
        406,
        JSON,
        "handlers/rest.go AllowsMediaTypeTransform",
    ),
    row(CONFIGMAPS, METADATA_LIST, 200, PROTOBUF, "handlers/response.go asPartialObjectMetadataList"),
    row(CONFIGMAPS, "text/html", 406, JSON, "responsewriters/writers.go WriteRawJSON"),
    row("/api/v1/namespaces/default/configmaps/missing", JSON, 404, JSON, "responsewriters/writers.go ErrorNegotiated"),
    row("/api/v1/namespaces/default/configmaps/missing", CLIENT_GO_TYPED, 404, PROTOBUF, "responsewriters/writers.go ErrorNegotiated"),
    row(WATCH, JSON, 200, JSON, "handlers/watch.go serveWatchHandler"),
    row(WATCH, "", 200, JSON, "handlers/watch.go serveWatchHandler"),
    row(WATCH, CLIENT_GO_TYPED, 200, "application/vnd.kubernetes.protobuf;stream=watch", "handlers/watch.go serveWatchHandler"),
    row(WATCH, "application/yaml", 406, JSON, "negotiation NegotiateOutputMediaTypeStream"),
    row("/version", JSON, 200, JSON, "server/routes/version.go handleVersion"),
    row("/version", "", 200, JSON, "server/routes/version.go handleVersion"),
    row("/version", "application/yaml", 406, "application/yaml", "go-restful jsr311.go, server/handler.go serviceErrorHandler"),
    row("/healthz", "", 200, TEXT, "server/healthz/healthz.go handleRootHealth"),
    row("/livez?verbose", "", 200, TEXT, "server/healthz/healthz.go handleRootHealth"),
    row("/readyz/ping", "", 200, TEXT, "server/healthz/healthz.go adaptCheckToHandler"),
    row("/no/such/path", JSON, 404, TEXT, "util/notfoundhandler/not_found_handler.go"),
    row("/api/v1/nosuchthings", JSON, 404, JSON, "server/handler.go serviceErrorHandler"),
    row("/api", JSON, 200, JSON, "endpoints/discovery/legacy.go"),
    row("/api/v1", JSON, 200, JSON, "endpoints/discovery/version.go"),
    row("/apis", JSON, 200, JSON, "kube-aggregator pkg/apiserver/handler_apis.go"),
    row("/apis/apps", JSON, 200, JSON, "kube-aggregator pkg/apiserver/handler_apis.go"),
    row("/apis/apps/v1", JSON, 200, JSON, "endpoints/discovery/version.go"),
    row("/api", DISCOVERY, 200, AGGREGATED_JSON, "discovery/aggregated/handler.go, writers.go generateMediaTypeWithGVK"),
    row("/apis", DISCOVERY, 200, AGGREGATED_JSON, "discovery/aggregated/handler.go, writers.go generateMediaTypeWithGVK"),
    row("/apis", AGGREGATED_PB, 200, AGGREGATED_PB, "discovery/aggregated/handler.go"),
    row(
        "/apis",
        "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList",
        406,
        JSON,
        "features/kube_features.go AggregatedDiscoveryRemoveBetaType",
    ),
    row(
        "/apis",
        "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json",
        200,
        JSON,
        "discovery/aggregated/negotiation.go",
    ),
    row("/openapi/v2", JSON, 200, JSON, "kube-openapi pkg/handler/handler.go"),
    row(
        "/openapi/v2",
        OPENAPI_V2_PB,
        200,
        "application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
        "kube-openapi pkg/handler/handler.go",
    ),
    row("/openapi/v3", CLIENT_GO_REST, 200, TEXT, "kube-aggregator openapiv3/aggregator/aggregator.go handleDiscovery"),
    row("/openapi/v3/apis/apps/v1", JSON, 200, JSON, "kube-openapi pkg/handler3/handler.go"),
    row(
        "/openapi/v3/apis/apps/v1",
        "application/com.github.proto-openapi.spec.v3@v1.0+protobuf",
        200,
        "application/com.github.proto-openapi.spec.v3.v1.0+protobuf",
        "kube-openapi pkg/handler3/handler.go",
    ),
];

const WIDGETS: &str = "/apis/example.com/v1/namespaces/default/widgets";
const CRD_HANDLER: &str = "apiextensions-apiserver pkg/apiserver/customresource_handler.go";

/// Endpoints of the Widget CRD.
const CUSTOM_ROWS: &[MediaRow] = &[
    row(WIDGETS, JSON, 200, JSON, CRD_HANDLER),
    row(WIDGETS, "", 200, JSON, CRD_HANDLER),
    row(WIDGETS, KUBECTL_TABLE, 200, JSON, CRD_HANDLER),
    row(WIDGETS, CLIENT_GO_TYPED, 200, JSON, CRD_HANDLER),
    row(WIDGETS, PROTOBUF, 406, JSON, CRD_HANDLER),
    row(
        "/apis/example.com/v1/namespaces/default/widgets?watch=1&timeoutSeconds=1",
        JSON,
        200,
        JSON,
        "handlers/watch.go serveWatchHandler",
    ),
    row(
        "/apis/example.com",
        JSON,
        200,
        JSON,
        "kube-aggregator pkg/apiserver/handler_apis.go",
    ),
    row(
        "/apis/example.com/v1",
        JSON,
        200,
        JSON,
        "endpoints/discovery/version.go",
    ),
    row(
        "/apis/example.com/v1/nosuchthings",
        JSON,
        404,
        TEXT,
        "util/notfoundhandler/not_found_handler.go",
    ),
    row(
        "/openapi/v3/apis/example.com/v1",
        JSON,
        200,
        JSON,
        "kube-openapi pkg/handler3/handler.go",
    ),
    row(
        "/openapi/v3/apis/example.com/v1",
        "application/com.github.proto-openapi.spec.v3@v1.0+protobuf",
        200,
        "application/com.github.proto-openapi.spec.v3.v1.0+protobuf",
        "kube-openapi pkg/handler3/handler.go",
    ),
];

/// Whether Go's `mime.ParseMediaType` accepts `value`: a `type/subtype` of token
/// characters, then `;name=value` parameters of tokens (quoted values aside).
fn go_parses_media_type(value: &str) -> bool {
    let token = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_graphic() && !b"()<>@,;:\\\"/[]?=".contains(&b))
    };
    let mut parts = value.split(';');
    let Some((kind, subtype)) = parts.next().and_then(|m| m.trim().split_once('/')) else {
        return false;
    };
    token(kind)
        && token(subtype)
        && parts.all(|p| {
            p.trim()
                .split_once('=')
                .is_some_and(|(k, v)| token(k) && (token(v) || v.starts_with('"')))
        })
}

async fn check_media_rows(server: &harness::Server, rows: &[MediaRow], when: &str) {
    for r in rows {
        let reply = server.get_accepting(r.path, r.accept).await;
        let ctype = reply
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        assert_eq!(
            (reply.status.as_u16(), ctype),
            (r.status, r.content_type),
            "{when}: GET {} with Accept {:?} (upstream: {})",
            r.path,
            r.accept,
            r.source
        );
        assert!(go_parses_media_type(ctype), "{ctype:?} does not parse");
    }
}

/// Every endpoint × every Accept form kubectl, client-go, the Python client and kube-rs
/// send gets the `Content-Type` kube-apiserver writes, before and after a CRD exists.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn content_types_are_kube_apiservers_before_and_after_a_crd() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    k.ok(&["create", "configmap", "media", "--from-literal=k=v"]);
    check_media_rows(&server, BUILT_IN_ROWS, "without CRDs").await;
    k.ok_stdin(&["apply", "-f", "-"], CRD);
    k.wait_established("widgets.example.com");
    check_media_rows(&server, BUILT_IN_ROWS, "with a CRD").await;
    check_media_rows(&server, CUSTOM_ROWS, "with a CRD").await;
    let v2 = server.get_accepting("/openapi/v2", OPENAPI_V2_PB).await;
    assert_eq!(
        v2.headers["content-type"],
        "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"
    );

    // Aggregated discovery carries upstream's caching headers, and revalidates
    // (endpoints/discovery/aggregated/etag.go); a change gives a new tag.
    let apis = server.get_accepting("/apis", DISCOVERY).await;
    let etag = apis.headers["etag"].to_str().expect("etag").to_owned();
    assert_eq!(apis.headers["vary"], "Accept");
    assert_eq!(apis.headers["cache-control"], "public");
    let again = [("accept", DISCOVERY), ("if-none-match", etag.as_str())];
    let r = server
        .request_with(http::Method::GET, "/apis", &again, true, false)
        .await
        .expect("revalidate");
    assert_eq!(r.status, 304);
    assert!(r.body.is_empty());
    k.ok_stdin(
        &["apply", "-f", "-"],
        &CRD.replace("widget", "sprocket")
            .replace("Widget", "Sprocket")
            .replace("[wd]", "[sp]"),
    );
    k.wait_established("sprockets.example.com");
    let r = server
        .request_with(http::Method::GET, "/apis", &again, true, false)
        .await
        .expect("revalidate");
    assert_eq!(r.status, 200, "a new CRD changes the document");
    assert_ne!(r.headers["etag"], etag.as_str());

    // The protobuf answers decode with upstream's generated messages.
    use prost::Message as _;
    let unknown = |bytes: &[u8]| {
        let body = bytes.strip_prefix(b"k8s\0").expect("protobuf magic");
        k8s_pb::apimachinery::pkg::runtime::Unknown::decode(body).expect("runtime.Unknown")
    };
    let list = unknown(&server.get_accepting(CONFIGMAPS, CLIENT_GO_TYPED).await.body);
    let kind = list.type_meta.as_ref().and_then(|t| t.kind.clone());
    assert_eq!(kind.as_deref(), Some("ConfigMapList"));
    let list =
        k8s_pb::api::core::v1::ConfigMapList::decode(list.raw.unwrap_or_default().as_slice())
            .expect("ConfigMapList");
    let media = list
        .items
        .iter()
        .find(|c| c.metadata.as_ref().and_then(|m| m.name.as_deref()) == Some("media"))
        .expect("the media ConfigMap");
    assert_eq!(media.data.get("k").map(String::as_str), Some("v"));

    let watch = server.get_accepting(WATCH, CLIENT_GO_TYPED).await.body;
    let (len, rest) = watch.split_at(4);
    let len = u32::from_be_bytes(len.try_into().expect("length")) as usize;
    let event = k8s_pb::apimachinery::pkg::apis::meta::v1::WatchEvent::decode(&rest[..len])
        .expect("WatchEvent");
    assert_eq!(event.r#type.as_deref(), Some("ADDED"));
    let raw = event.object.and_then(|o| o.raw).expect("object");
    let object = unknown(&raw);
    let kind = object.type_meta.as_ref().and_then(|t| t.kind.clone());
    assert_eq!(kind.as_deref(), Some("ConfigMap"));
}

/// A CRD of `kind` in group `partial.example.com` with `schema` as its only version's.
fn partial_crd(kind: &str, schema: serde_json::Value) -> String {
    let plural = format!("{}s", kind.to_ascii_lowercase());
    serde_json::json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{plural}.partial.example.com")},
        "spec": {
            "group": "partial.example.com",
            "scope": "Namespaced",
            "names": {"plural": plural, "kind": kind},
            "versions": [{"name": "v1", "served": true, "storage": true,
                          "schema": {"openAPIV3Schema": schema}}],
        },
    })
    .to_string()
}

/// CRDs whose schemas OpenAPI v2 can only carry in part (root
/// `x-kubernetes-preserve-unknown-fields`, `x-kubernetes-int-or-string`, `nullable`) leave
/// `/openapi/v2` and `/openapi/v3` well formed and every other type's schema as it was;
/// each is published as upstream's CRD OpenAPI builder publishes it
/// (apiextensions-apiserver `pkg/controller/openapi/v2/conversion.go`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schemas_openapi_v2_carries_in_part_leave_the_documents_well_formed() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let k = Kubectl::new(&server);
    let v2 = |reply: harness::Reply| -> serde_json::Value {
        assert_eq!(reply.status, 200);
        reply.json()
    };
    let before = v2(server.get("/openapi/v2").await);
    let core_before = server.get("/openapi/v3/api/v1").await.json();

    let crds = [
        partial_crd(
            "Loose",
            serde_json::json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
        ),
        partial_crd(
            "Flexible",
            serde_json::json!({"type": "object", "properties": {"spec": {"type": "object",
                "properties": {"port": {"x-kubernetes-int-or-string": true}}}}}),
        ),
        partial_crd(
            "Optional",
            serde_json::json!({"type": "object", "properties": {"spec": {"type": "object",
                "required": ["note", "size"],
                "properties": {
                    "note": {"type": "string", "nullable": true},
                    "size": {"type": "integer"},
                    "tags": {"type": "array", "nullable": true, "items": {"type": "string"}}}}}}),
        ),
    ];
    for crd in &crds {
        k.ok_stdin(&["apply", "-f", "-"], crd);
    }
    for plural in ["looses", "flexibles", "optionals"] {
        k.wait_established(&format!("{plural}.partial.example.com"));
    }

    let after = v2(server.get("/openapi/v2").await);
    let defs = after["definitions"].as_object().expect("definitions");
    for (name, schema) in before["definitions"].as_object().expect("definitions") {
        assert_eq!(defs.get(name), Some(schema), "{name} changed");
    }
    let core_after = server.get("/openapi/v3/api/v1").await.json();
    assert_eq!(core_before, core_after, "core/v1 OpenAPI v3 changed");

    // v2: the root preserve-unknown-fields kind is a bare object; int-or-string and
    // nullable fields lose their type, and a nullable field is not required.
    let loose = &defs["com.example.partial.v1.Loose"];
    assert_eq!(loose["type"], "object", "{loose}");
    assert!(loose.get("properties").is_none(), "{loose}");
    let spec = &defs["com.example.partial.v1.Flexible"]["properties"]["spec"];
    let port = &spec["properties"]["port"];
    assert!(
        port.get("type").is_none() && port.get("anyOf").is_none(),
        "{port}"
    );
    assert_eq!(port["x-kubernetes-int-or-string"], true);
    let spec = &defs["com.example.partial.v1.Optional"]["properties"]["spec"];
    assert_eq!(spec["required"], serde_json::json!(["size"]), "{spec}");
    let note = &spec["properties"]["note"];
    assert!(
        note.get("type").is_none() && note.get("nullable").is_none(),
        "{note}"
    );
    let tags = &spec["properties"]["tags"];
    assert!(
        tags.get("items").is_none() && tags.get("type").is_none(),
        "{tags}"
    );

    // v3 keeps all of it.
    let v3 = server.get("/openapi/v3/apis/partial.example.com/v1").await;
    assert_eq!(v3.status, 200);
    let schemas = v3.json()["components"]["schemas"].clone();
    let loose = &schemas["com.example.partial.v1.Loose"];
    assert_eq!(
        loose["x-kubernetes-preserve-unknown-fields"], true,
        "{loose}"
    );
    assert!(loose["properties"].get("metadata").is_some(), "{loose}");
    let port =
        &schemas["com.example.partial.v1.Flexible"]["properties"]["spec"]["properties"]["port"];
    assert_eq!(
        port["anyOf"],
        serde_json::json!([{"type": "integer"}, {"type": "string"}]),
        "{port}"
    );
    let note =
        &schemas["com.example.partial.v1.Optional"]["properties"]["spec"]["properties"]["note"];
    assert_eq!(
        (note["type"].clone(), note["nullable"].clone()),
        ("string".into(), true.into())
    );

    // kubectl keeps validating and explaining with these documents.
    let out = k.ok_stdin(&["apply", "-f", "-"], CONFIGMAP_LIST);
    assert!(out.contains("configmap/listed-a"), "{out}");
    let objects = "apiVersion: partial.example.com/v1\nkind: Loose\nmetadata: {name: l}\nanything: [1, {a: b}]\n---\napiVersion: partial.example.com/v1\nkind: Flexible\nmetadata: {name: f}\nspec: {port: http}\n---\napiVersion: partial.example.com/v1\nkind: Optional\nmetadata: {name: o}\nspec: {note: hi, size: 1}\n";
    let out = k.ok_stdin(&["apply", "-f", "-"], objects);
    assert_eq!(
        out.lines().filter(|l| l.ends_with(" created")).count(),
        3,
        "{out}"
    );
    let explain = k.ok(&["explain", "flexibles.spec.port"]);
    assert!(explain.contains("port"), "{explain}");
}
