//! End to end: kubectl (at /usr/bin/kubectl) against a tiny test-only HTTP server that
//! serves the documents plus the minimum of discovery and a ConfigMap create. Checks
//! `kubectl explain` and that `kubectl create --validate=strict` finds server-side field
//! validation in OpenAPI v3 (so it sends `fieldValidation=Strict` and never needs v2).
//! A custom group (`example.com`, a Widget CRD) is served from [`CustomDocuments`] and its
//! index entries merged into `/openapi/v3`, so `kubectl explain widgets.spec` works.
//! Skipped, with a message, when kubectl is missing.

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use kas_openapi::{ApiResource, CustomDocuments, Documents};
use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

const KUBECTL: &str = "/usr/bin/kubectl";
const VERBS: &[&str] = &[
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];

const RESOURCES: &[ApiResource] = &[
    ApiResource {
        group: "",
        version: "v1",
        kind: "Pod",
        plural: "pods",
        namespaced: true,
        verbs: VERBS,
        subresources: &["status"],
    },
    ApiResource {
        group: "",
        version: "v1",
        kind: "ConfigMap",
        plural: "configmaps",
        namespaced: true,
        verbs: VERBS,
        subresources: &[],
    },
    ApiResource {
        group: "apps",
        version: "v1",
        kind: "Deployment",
        plural: "deployments",
        namespaced: true,
        verbs: VERBS,
        subresources: &["scale", "status"],
    },
];

struct State {
    docs: Documents,
    custom: CustomDocuments,
    /// Method, path, query and content type of every request, for the assertions.
    seen: Mutex<Vec<String>>,
    /// The one ConfigMap, once created.
    configmap: Mutex<Option<serde_json::Value>>,
}

fn json(status: StatusCode, body: serde_json::Value) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    response
}

fn resource_list(group_version: &str) -> serde_json::Value {
    let resources: Vec<_> = RESOURCES
        .iter()
        .filter(|r| r.group_version() == group_version)
        .map(|r| {
            serde_json::json!({"name": r.plural, "singularName": r.kind.to_lowercase(),
                "namespaced": r.namespaced, "kind": r.kind, "verbs": r.verbs})
        })
        .collect();
    serde_json::json!({"kind": "APIResourceList", "apiVersion": "v1",
        "groupVersion": group_version, "resources": resources})
}

/// A Widget CRD: `v1` with status and scale, `v1beta1` without.
fn widget_crd() -> serde_json::Value {
    let schema = serde_json::json!({
        "type": "object",
        "description": "Widget is a test kind.",
        "properties": {
            "spec": {
                "type": "object",
                "description": "WidgetSpec says what the widget should be.",
                "required": ["color"],
                "properties": {
                    "color": {"type": "string", "description": "Color of the widget, in English."},
                    "replicas": {"type": "integer", "format": "int32"},
                    "size": {"x-kubernetes-int-or-string": true, "description": "Size, a number or a name."},
                },
            },
            "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}},
        },
    });
    serde_json::json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget", "listKind": "WidgetList", "plural": "widgets", "singular": "widget"},
            "scope": "Namespaced",
            "versions": [
                {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema},
                 "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
                                                          "statusReplicasPath": ".status.replicas"}}},
                {"name": "v1beta1", "served": true, "storage": false,
                 "schema": {"openAPIV3Schema": schema}},
            ],
        },
    })
}

fn widget_list(version: &str) -> serde_json::Value {
    let verbs = VERBS;
    serde_json::json!({"kind": "APIResourceList", "apiVersion": "v1",
    "groupVersion": format!("example.com/{version}"), "resources": [
        {"name": "widgets", "singularName": "widget", "namespaced": true, "kind": "Widget", "verbs": verbs},
        {"name": "widgets/status", "singularName": "", "namespaced": true, "kind": "Widget",
         "verbs": ["get", "patch", "update"]},
    ]})
}

async fn handle(
    state: Arc<State>,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let (parts, body) = request.into_parts();
    let path = parts.uri.path().to_owned();
    let query = parts.uri.query();
    let content_type = parts
        .headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok());
    state.seen.lock().unwrap().push(format!(
        "{} {path}?{} {}",
        parts.method,
        query.unwrap_or(""),
        content_type.unwrap_or("")
    ));
    if let Some(response) = state.custom.respond(&path, query, &parts.headers) {
        return Ok(response.map(Full::new));
    }
    if path == "/openapi/v3" {
        // The aggregator's job: the built-in index plus the custom entries.
        let mut index: serde_json::Value =
            serde_json::from_slice(&state.docs.v3_index_json()).unwrap();
        if let Some(paths) = index["paths"].as_object_mut() {
            paths.extend(state.custom.index_entries());
        }
        return Ok(json(StatusCode::OK, index));
    }
    if let Some(response) = state.docs.respond(&path, query, &parts.headers) {
        return Ok(response.map(Full::new));
    }
    let response = match (parts.method.clone(), path.as_str()) {
        (Method::GET, "/api") => json(
            StatusCode::OK,
            serde_json::json!({"kind": "APIVersions", "versions": ["v1"],
                "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]}),
        ),
        (Method::GET, "/apis") => json(
            StatusCode::OK,
            serde_json::json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": [{"name": "apps",
                "versions": [{"groupVersion": "apps/v1", "version": "v1"}],
                "preferredVersion": {"groupVersion": "apps/v1", "version": "v1"}},
                {"name": "example.com", "versions": [
                    {"groupVersion": "example.com/v1", "version": "v1"},
                    {"groupVersion": "example.com/v1beta1", "version": "v1beta1"}],
                "preferredVersion": {"groupVersion": "example.com/v1", "version": "v1"}}]}),
        ),
        (Method::GET, "/apis/example.com/v1") => json(StatusCode::OK, widget_list("v1")),
        (Method::GET, "/apis/example.com/v1beta1") => json(StatusCode::OK, widget_list("v1beta1")),
        (Method::POST, "/apis/example.com/v1/namespaces/default/widgets") => {
            let body = body
                .collect()
                .await
                .map(|b| b.to_bytes())
                .unwrap_or_default();
            let object: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
            json(StatusCode::CREATED, object)
        }
        (Method::GET, "/api/v1") => json(StatusCode::OK, resource_list("v1")),
        (Method::GET, "/apis/apps/v1") => json(StatusCode::OK, resource_list("apps/v1")),
        (Method::POST, "/api/v1/namespaces/default/configmaps") => {
            let body = body
                .collect()
                .await
                .map(|b| b.to_bytes())
                .unwrap_or_default();
            let mut object: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
            object["metadata"]["resourceVersion"] = "1".into();
            *state.configmap.lock().unwrap() = Some(object.clone());
            json(StatusCode::CREATED, object)
        }
        (Method::GET | Method::PATCH, "/api/v1/namespaces/default/configmaps/demo") => {
            match state.configmap.lock().unwrap().clone() {
                Some(object) => json(StatusCode::OK, object),
                None => not_found(),
            }
        }
        _ => not_found(),
    };
    Ok(response)
}

fn not_found() -> Response<Full<Bytes>> {
    json(
        StatusCode::NOT_FOUND,
        serde_json::json!({"kind": "Status", "apiVersion": "v1", "status": "Failure",
            "reason": "NotFound", "code": 404, "message": "not found"}),
    )
}

fn kubectl(server: &str, dir: &Path, args: &[&str]) -> (bool, String) {
    let output = std::process::Command::new(KUBECTL)
        .arg(format!("--server={server}"))
        .arg(format!("--cache-dir={}", dir.join("cache").display()))
        .args(args)
        .env("KUBECONFIG", dir.join("no-kubeconfig"))
        .env("HOME", dir)
        .output()
        .expect("run kubectl");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("kas-openapi-kubectl-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A test server on a free port, with its state.
async fn start() -> (String, Arc<State>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = format!("http://{}", listener.local_addr().unwrap());
    let state = Arc::new(State {
        docs: Documents::new(RESOURCES.iter().copied()),
        custom: CustomDocuments::new(&[widget_crd()]),
        seen: Mutex::default(),
        configmap: Mutex::default(),
    });
    let accept_state = state.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let state = accept_state.clone();
            tokio::spawn(async move {
                let service = service_fn(move |request| handle(state.clone(), request));
                let _ = http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    (server, state)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_explain_and_strict_create() {
    if !Path::new(KUBECTL).exists() {
        eprintln!("skipped: {KUBECTL} not found");
        return;
    }
    let (server, state) = start().await;
    let dir = temp_dir("builtin");
    let manifest = dir.join("cm.yaml");
    std::fs::write(&manifest, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\n  namespace: default\ndata:\n  a: b\n").unwrap();

    let (server2, dir2) = (server.clone(), dir.clone());
    let explain = tokio::task::spawn_blocking(move || {
        kubectl(&server2, &dir2, &["explain", "pods.spec.containers"])
    })
    .await
    .unwrap();
    assert!(explain.0, "kubectl explain failed:\n{}", explain.1);
    assert!(explain.1.contains("FIELD: containers"), "{}", explain.1);
    assert!(explain.1.contains("imagePullPolicy"), "{}", explain.1);

    let (server2, dir2) = (server.clone(), dir.clone());
    let explain = tokio::task::spawn_blocking(move || {
        kubectl(&server2, &dir2, &["explain", "deployments.spec.replicas"])
    })
    .await
    .unwrap();
    let (server2, dir2) = (server.clone(), dir.clone());
    let special = tokio::task::spawn_blocking(move || {
        let surge = kubectl(
            &server2,
            &dir2,
            &[
                "explain",
                "deployments.spec.strategy.rollingUpdate.maxSurge",
            ],
        );
        let limits = kubectl(
            &server2,
            &dir2,
            &["explain", "pods.spec.containers.resources.limits"],
        );
        (surge, limits)
    })
    .await
    .unwrap();
    assert!(
        special.0 .0 && special.0 .1.contains("FIELD: maxSurge <string>"),
        "{}",
        special.0 .1
    );
    assert!(
        special.1 .0 && special.1 .1.contains("<map[string]Quantity>"),
        "{}",
        special.1 .1
    );
    assert!(
        explain.0 && explain.1.contains("replicas"),
        "kubectl explain deployments failed:\n{}",
        explain.1
    );

    let (server2, dir2, manifest2) = (server.clone(), dir.clone(), manifest.clone());
    let create = tokio::task::spawn_blocking(move || {
        kubectl(
            &server2,
            &dir2,
            &[
                "create",
                "--validate=strict",
                "-o",
                "name",
                "-f",
                manifest2.to_str().unwrap(),
            ],
        )
    })
    .await
    .unwrap();
    assert!(create.0, "kubectl create failed:\n{}", create.1);
    let seen = state.seen.lock().unwrap().clone();
    assert!(
        seen.iter().any(
            |r| r.starts_with("POST /api/v1/namespaces/default/configmaps?")
                && r.contains("fieldValidation=Strict")
        ),
        "{seen:#?}"
    );

    // A `kind: List` is validated client-side against /openapi/v2, in protobuf.
    let list = dir.join("list.yaml");
    let bad_list = dir.join("bad-list.yaml");
    std::fs::write(
        &list,
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: demo\n    namespace: default\n",
    )
    .unwrap();
    let (server2, dir2) = (server.clone(), dir.clone());
    let create_list = tokio::task::spawn_blocking(move || {
        kubectl(
            &server2,
            &dir2,
            &[
                "create",
                "--validate=strict",
                "-o",
                "name",
                "-f",
                list.to_str().unwrap(),
            ],
        )
    })
    .await
    .unwrap();
    assert!(
        create_list.0,
        "kubectl create of a List failed:\n{}",
        create_list.1
    );
    std::fs::write(
        &bad_list,
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: demo\n    namespace: default\n  bogus: 1\n",
    )
    .unwrap();
    let (server2, dir2) = (server.clone(), dir.clone());
    let rejected = tokio::task::spawn_blocking(move || {
        kubectl(
            &server2,
            &dir2,
            &[
                "create",
                "--validate=strict",
                "-f",
                bad_list.to_str().unwrap(),
            ],
        )
    })
    .await
    .unwrap();
    assert!(
        !rejected.0 && rejected.1.contains("bogus"),
        "{}",
        rejected.1
    );
    let (server2, dir2) = (server.clone(), dir.clone());
    let explain_v2 = tokio::task::spawn_blocking(move || {
        let path = "deployments.spec.template.spec.containers";
        kubectl(
            &server2,
            &dir2,
            &["explain", "--output=plaintext-openapiv2", path],
        )
    })
    .await
    .unwrap();
    assert!(
        explain_v2.0 && explain_v2.1.contains("imagePullPolicy"),
        "{}",
        explain_v2.1
    );

    // Client-side apply of a changed manifest: a strategic merge patch computed from v3.
    std::fs::write(&manifest, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\n  namespace: default\ndata:\n  a: c\n").unwrap();
    let (server2, dir2, manifest2) = (server.clone(), dir.clone(), manifest.clone());
    let apply = tokio::task::spawn_blocking(move || {
        kubectl(
            &server2,
            &dir2,
            &[
                "apply",
                "--validate=strict",
                "-f",
                manifest2.to_str().unwrap(),
            ],
        )
    })
    .await
    .unwrap();
    assert!(apply.0, "kubectl apply failed:\n{}", apply.1);
    let seen = state.seen.lock().unwrap().clone();
    assert!(
        seen.iter().any(
            |r| r.starts_with("PATCH /api/v1/namespaces/default/configmaps/demo?")
                && r.contains("fieldValidation=Strict")
                && r.ends_with("application/strategic-merge-patch+json")
        ),
        "{seen:#?}"
    );

    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_explain_custom_resource() {
    if !Path::new(KUBECTL).exists() {
        eprintln!("skipped: {KUBECTL} not found");
        return;
    }
    let (server, state) = start().await;
    let dir = temp_dir("custom");
    let run = |args: &'static [&'static str]| {
        let (server, dir) = (server.clone(), dir.clone());
        tokio::task::spawn_blocking(move || kubectl(&server, &dir, args))
    };

    let (ok, out) = run(&["explain", "widgets.spec"]).await.unwrap();
    assert!(ok, "kubectl explain widgets.spec failed:\n{out}");
    for expected in [
        "GROUP:      example.com",
        "KIND:       Widget",
        "VERSION:    v1",
        "FIELD: spec <Object>",
        "WidgetSpec says what the widget should be.",
        "color\t<string> -required-",
        "Color of the widget, in English.",
        "replicas\t<integer>",
    ] {
        assert!(out.contains(expected), "{expected:?} missing from:\n{out}");
    }
    let (ok, out) = run(&["explain", "widgets"]).await.unwrap();
    assert!(ok && out.contains("Widget is a test kind."), "{out}");
    assert!(out.contains("metadata\t<ObjectMeta>"), "{out}");
    let (ok, out) = run(&["explain", "widgets.metadata.ownerReferences"])
        .await
        .unwrap();
    assert!(
        ok && out.contains("FIELD: ownerReferences <[]OwnerReference>"),
        "{out}"
    );
    let (ok, out) = run(&[
        "explain",
        "widgets.spec",
        "--api-version=example.com/v1beta1",
    ])
    .await
    .unwrap();
    assert!(ok && out.contains("VERSION:    v1beta1"), "{out}");
    let (ok, out) = run(&["explain", "widgets.spec.nope"]).await.unwrap();
    assert!(!ok && out.contains("nope"), "{out}");

    // Server-side field validation is found in the custom document.
    let manifest = dir.join("widget.yaml");
    std::fs::write(
        &manifest,
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: default\nspec:\n  color: red\n",
    )
    .unwrap();
    let path = manifest.to_str().unwrap().to_owned();
    let (server2, dir2) = (server.clone(), dir.clone());
    let (ok, out) = tokio::task::spawn_blocking(move || {
        kubectl(
            &server2,
            &dir2,
            &["create", "--validate=strict", "-o", "name", "-f", &path],
        )
    })
    .await
    .unwrap();
    assert!(ok, "kubectl create of a Widget failed:\n{out}");
    let seen = state.seen.lock().unwrap().clone();
    assert!(
        seen.iter().any(
            |r| r.starts_with("POST /apis/example.com/v1/namespaces/default/widgets?")
                && r.contains("fieldValidation=Strict")
        ),
        "{seen:#?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
