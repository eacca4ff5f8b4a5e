//! Tests of [`Documents`]: document contents over a realistic resource set, caching
//! headers, negotiation and bad input.

use super::*;
use crate::catalog::KINDS;
use http::header::ACCEPT;
use std::time::Instant;

const ALL_VERBS: &[&str] = &[
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];

/// Every listable catalog kind with every verb, `status` where the kind has one, and
/// `scale` on the workloads.
fn builtin() -> Vec<ApiResource> {
    KINDS
        .iter()
        .filter(|k| k.list_kind.is_some())
        .map(|k| {
            let subresources: &'static [&'static str] = match k.kind {
                "Deployment" | "ReplicaSet" | "StatefulSet" | "ReplicationController" => {
                    &["scale", "status"]
                }
                "Pod" => &[
                    "binding",
                    "eviction",
                    "ephemeralcontainers",
                    "resize",
                    "status",
                ],
                "ConfigMap" | "Secret" | "ServiceAccount" | "Event" | "Endpoints"
                | "ClusterRole" | "Role" | "RoleBinding" | "ClusterRoleBinding"
                | "StorageClass" | "PodTemplate" | "LimitRange" => &[],
                "Namespace" => &["finalize", "status"],
                _ => &["status"],
            };
            ApiResource {
                group: k.group,
                version: k.version,
                kind: k.kind,
                plural: k.plural,
                namespaced: k.namespaced,
                verbs: ALL_VERBS,
                subresources,
            }
        })
        .collect()
}

fn get(
    docs: &Documents,
    path: &str,
    query: Option<&str>,
    headers: &[(http::HeaderName, &str)],
) -> Response<Bytes> {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        map.append(name.clone(), HeaderValue::from_str(value).unwrap());
    }
    docs.respond(path, query, &map).unwrap()
}

fn json_of(response: &Response<Bytes>) -> Value {
    serde_json::from_slice(response.body()).unwrap()
}

fn assert_refs_resolve(doc: &Value, prefix: &str, container: &Value) {
    let mut refs = BTreeSet::new();
    definitions::collect_refs(doc, prefix, &mut refs);
    assert!(!refs.is_empty());
    for r in refs {
        assert!(container.get(&r).is_some(), "dangling $ref {r}");
    }
}

fn gvk_of(schema: &Value) -> Vec<(String, String, String)> {
    schema["x-kubernetes-group-version-kind"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|g| {
                    let s = |k: &str| g[k].as_str().unwrap_or_default().to_owned();
                    (s("group"), s("version"), s("kind"))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn documents_are_shareable() {
    fn shareable<T: Send + Sync + 'static>() {}
    shareable::<Documents>();
}

#[test]
fn nothing_is_built_up_front() {
    let start = Instant::now();
    let docs = Documents::new(builtin());
    assert!(start.elapsed() < Duration::from_millis(5));
    assert!(docs.built.get().is_none());
    assert!(docs.respond("/apis", None, &HeaderMap::new()).is_none());
    assert!(docs
        .respond("/api/v1/pods", None, &HeaderMap::new())
        .is_none());
    assert!(docs.respond("/openapi", None, &HeaderMap::new()).is_none());
    assert!(docs.built.get().is_none());
}

#[test]
fn v3_index_and_documents() {
    let docs = Documents::new(builtin());
    let index = get(&docs, "/openapi/v3", None, &[]);
    assert_eq!(index.status(), StatusCode::OK);
    assert_eq!(index.headers()[CONTENT_TYPE], "application/json");
    let index = json_of(&index);
    let paths = index["paths"].as_object().unwrap();
    for key in [
        "api",
        "api/v1",
        "apis",
        "apis/apps",
        "apis/apps/v1",
        "apis/rbac.authorization.k8s.io/v1",
    ] {
        assert!(paths.contains_key(key), "{key}");
    }
    let url = paths["api/v1"]["serverRelativeURL"].as_str().unwrap();
    let (path, query) = url.split_once('?').unwrap();
    assert_eq!(path, "/openapi/v3/api/v1");
    assert!(
        query.starts_with("hash=") && query.len() == 5 + 128,
        "{query}"
    );

    let response = get(&docs, path, Some(query), &[(ACCEPT, "application/json")]);
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CACHE_CONTROL], "public, immutable");
    assert!(response.headers().contains_key(EXPIRES));
    assert_eq!(response.headers()[VARY], "Accept");
    let core = json_of(&response);
    assert_eq!(core["openapi"], "3.0.0");
    let schemas = &core["components"]["schemas"];
    assert_refs_resolve(&core, definitions::V3_REF, schemas);
    for (name, kind) in [
        ("io.k8s.api.core.v1.Pod", "Pod"),
        ("io.k8s.api.core.v1.ConfigMap", "ConfigMap"),
    ] {
        assert_eq!(
            gvk_of(&schemas[name]),
            [("".into(), "v1".into(), kind.into())]
        );
    }
    let patch = &core["paths"]["/api/v1/namespaces/{namespace}/pods/{name}"]["patch"];
    assert!(patch["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "fieldValidation"));
    assert_eq!(patch["x-kubernetes-group-version-kind"]["kind"], "Pod");

    let apps = json_of(&get(&docs, "/openapi/v3/apis/apps/v1", None, &[]));
    let schemas = &apps["components"]["schemas"];
    assert_refs_resolve(&apps, definitions::V3_REF, schemas);
    assert_eq!(
        gvk_of(&schemas["io.k8s.api.apps.v1.Deployment"]),
        [("apps".into(), "v1".into(), "Deployment".into())]
    );
    assert!(
        apps["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale"]["patch"]
            .is_object()
    );
    assert!(apps["paths"]["/apis/apps/v1/"]["get"].is_object());
    let group = json_of(&get(&docs, "/openapi/v3/apis/apps", None, &[]));
    assert!(group["paths"]["/apis/apps/"]["get"].is_object());
}

#[test]
fn v2_document() {
    let docs = Documents::new(builtin());
    let response = get(&docs, "/openapi/v2", None, &[(ACCEPT, "application/json")]);
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[VARY], "Accept");
    let doc = json_of(&response);
    assert_eq!(doc["swagger"], "2.0");
    assert_refs_resolve(&doc, definitions::V2_REF, &doc["definitions"]);
    let deploy = &doc["definitions"]["io.k8s.api.apps.v1.Deployment"];
    assert_eq!(
        gvk_of(deploy),
        [("apps".into(), "v1".into(), "Deployment".into())]
    );
    let mut stray = BTreeSet::new();
    definitions::collect_refs(&doc, definitions::V3_REF, &mut stray);
    assert!(stray.is_empty(), "{stray:?}");
    let patch = &doc["paths"]["/api/v1/namespaces/{namespace}/configmaps/{name}"]["patch"];
    assert!(patch["consumes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c == "application/strategic-merge-patch+json"));
}

#[test]
fn protobuf_v2_and_not_acceptable() {
    let docs = Documents::new(builtin());
    let pb = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
    let response = get(&docs, "/openapi/v2", None, &[(ACCEPT, pb)]);
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[CONTENT_TYPE], V2_PROTOBUF);
    assert_eq!(response.body()[..5], [0x0a, 3, b'2', b'.', b'0']);
    let json = get(&docs, "/openapi/v2", None, &[(ACCEPT, "application/json")]);
    assert_eq!(response.headers()[ETAG], json.headers()[ETAG]);
    let response = get(&docs, "/openapi/v2", None, &[(ACCEPT, "text/html")]);
    assert_eq!(response.status(), StatusCode::NOT_ACCEPTABLE);
    assert!(response.body().is_empty());
    let pb3 = "application/com.github.proto-openapi.spec.v3.v1.0+protobuf";
    let response = get(&docs, "/openapi/v2", None, &[(ACCEPT, pb3)]);
    assert_eq!(response.status(), StatusCode::NOT_ACCEPTABLE);
}

#[test]
fn protobuf_v3() {
    let docs = Documents::new(builtin());
    let path = "/openapi/v3/apis/apps/v1";
    let json = get(&docs, path, None, &[(ACCEPT, "application/json")]);
    assert_eq!(json.headers()[CONTENT_TYPE], "application/json");
    let etag = json.headers()[ETAG].to_str().unwrap().to_owned();
    for accept in [
        "application/com.github.proto-openapi.spec.v3@v1.0+protobuf",
        "application/com.github.proto-openapi.spec.v3.v1.0+protobuf",
        "application/com.github.proto-openapi.spec.v3.v1.0+protobuf;q=0.9, application/json;q=0.5",
        "text/html, application/com.github.proto-openapi.spec.v3@v1.0+protobuf;q=0.1",
    ] {
        let response = get(&docs, path, None, &[(ACCEPT, accept)]);
        assert_eq!(response.status(), StatusCode::OK, "{accept}");
        assert_eq!(
            response.headers()[CONTENT_TYPE],
            "application/com.github.proto-openapi.spec.v3.v1.0+protobuf"
        );
        assert_eq!(response.headers()[ETAG], etag.as_str());
        assert_eq!(response.headers()[VARY], "Accept");
        // Document.openapi (1) = "3.0.0"
        assert_eq!(
            response.body()[..7],
            [0x0a, 5, b'3', b'.', b'0', b'.', b'0']
        );
        assert_eq!(response.body(), &docs.v3_protobuf("apis/apps/v1").unwrap());
        let again = get(
            &docs,
            path,
            None,
            &[(ACCEPT, accept), (IF_NONE_MATCH, &etag)],
        );
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert!(again.body().is_empty());
    }
    // JSON first for wildcards and equal preference.
    for accept in [
        "*/*",
        "application/*",
        "application/json, application/com.github.proto-openapi.spec.v3.v1.0+protobuf",
    ] {
        let response = get(&docs, path, None, &[(ACCEPT, accept)]);
        assert_eq!(
            response.headers()[CONTENT_TYPE],
            "application/json",
            "{accept}"
        );
    }
    // The bytes are made once per document.
    let first = docs.v3_protobuf("apis/apps/v1").unwrap();
    assert_eq!(
        first.as_ptr(),
        docs.v3_protobuf("apis/apps/v1").unwrap().as_ptr()
    );
    // `hash` works as for JSON.
    let hash = etag.trim_matches('"');
    let pb = "application/com.github.proto-openapi.spec.v3.v1.0+protobuf";
    let fresh = get(&docs, path, Some(&format!("hash={hash}")), &[(ACCEPT, pb)]);
    assert_eq!(fresh.status(), StatusCode::OK);
    assert_eq!(fresh.headers()[CACHE_CONTROL], "public, immutable");
    assert_eq!(fresh.headers()[CONTENT_TYPE], pb);
    let stale = get(&docs, path, Some("hash=00"), &[(ACCEPT, pb)]);
    assert_eq!(stale.status(), StatusCode::MOVED_PERMANENTLY);
    // Neither JSON nor gnostic protobuf, or the v2 protobuf: 406.
    for accept in [
        "text/html",
        "application/com.github.proto-openapi.spec.v2@v1.0+protobuf",
        "application/json;q=0",
    ] {
        let response = get(&docs, path, None, &[(ACCEPT, accept)]);
        assert_eq!(response.status(), StatusCode::NOT_ACCEPTABLE, "{accept}");
        assert_eq!(response.headers()[VARY], "Accept");
    }
    // The index stays JSON only.
    let index = get(&docs, "/openapi/v3", None, &[(ACCEPT, pb)]);
    assert_eq!(index.headers()[CONTENT_TYPE], "application/json");
}

#[test]
fn etag_and_not_modified() {
    let docs = Documents::new(builtin());
    for path in ["/openapi/v2", "/openapi/v3", "/openapi/v3/api/v1"] {
        let first = get(&docs, path, None, &[]);
        let etag = first.headers()[ETAG].to_str().unwrap().to_owned();
        assert!(
            etag.starts_with('"') && etag.ends_with('"') && etag.len() == 130,
            "{etag}"
        );
        let again = get(&docs, path, None, &[(IF_NONE_MATCH, &etag)]);
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{path}");
        assert!(again.body().is_empty());
        assert_eq!(again.headers()[ETAG], etag.as_str());
        let weak = format!("\"other\", W/{etag}");
        assert_eq!(
            get(&docs, path, None, &[(IF_NONE_MATCH, &weak)]).status(),
            StatusCode::NOT_MODIFIED
        );
        assert_eq!(
            get(&docs, path, None, &[(IF_NONE_MATCH, "\"other\"")]).status(),
            StatusCode::OK
        );
        let since = first.headers()[LAST_MODIFIED].to_str().unwrap().to_owned();
        assert_eq!(
            get(&docs, path, None, &[(IF_MODIFIED_SINCE, &since)]).status(),
            StatusCode::NOT_MODIFIED
        );
        assert_eq!(
            get(&docs, path, None, &[(IF_MODIFIED_SINCE, "yesterday")]).status(),
            StatusCode::OK
        );
        // Same bytes on the next request: the ETag is stable.
        assert_eq!(get(&docs, path, None, &[]).headers()[ETAG], etag.as_str());
    }
}

#[test]
fn hash_parameter() {
    let docs = Documents::new(builtin());
    let plain = get(&docs, "/openapi/v3/api/v1", None, &[]);
    assert!(!plain.headers().contains_key(CACHE_CONTROL));
    let etag = plain.headers()[ETAG]
        .to_str()
        .unwrap()
        .trim_matches('"')
        .to_owned();
    let stale = get(&docs, "/openapi/v3/api/v1", Some("hash=0123&x=1"), &[]);
    assert_eq!(stale.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(
        stale.headers()[LOCATION],
        format!("/openapi/v3/api/v1?hash={etag}").as_str()
    );
    let query = format!("x=1&hash={etag}");
    let fresh = get(&docs, "/openapi/v3/api/v1", Some(&query), &[]);
    assert_eq!(fresh.status(), StatusCode::OK);
    assert_eq!(fresh.headers()[CACHE_CONTROL], "public, immutable");
    assert_eq!(
        get(&docs, "/openapi/v3/api/v1", Some("hash="), &[]).status(),
        StatusCode::OK
    );
}

#[test]
fn unknown_paths() {
    let docs = Documents::new(builtin());
    for path in [
        "/openapi/v3/apis/nope/v1",
        "/openapi/v3/",
        "/openapi/v3/api/v2",
        "/openapi/v3/../v2",
        "/openapi/v3/api/v1/",
    ] {
        assert_eq!(
            get(&docs, path, None, &[]).status(),
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    for path in ["/openapi/v2/", "/openapi/v3x", "/openapi", ""] {
        assert!(
            docs.respond(path, None, &HeaderMap::new()).is_none(),
            "{path}"
        );
    }
    assert!(docs.v3_json("apis/nope/v1").is_none());
    let empty = Documents::new([]);
    let index = json_of(&get(&empty, "/openapi/v3", None, &[]));
    assert_eq!(index["paths"].as_object().unwrap().len(), 2);
    assert_eq!(
        get(&empty, "/openapi/v2", None, &[]).status(),
        StatusCode::OK
    );
}

#[test]
fn patch_markers_reach_the_documents() {
    let docs = Documents::new(builtin()).with_patch_markers(|def, field| {
        (def == "io.k8s.api.core.v1.PodSpec" && field == "containers").then(|| PatchMarkers {
            patch_strategy: Some("merge".into()),
            patch_merge_key: Some("name".into()),
            list_type: Some("map".into()),
            list_map_keys: vec!["name".into()],
        })
    });
    let core = json_of(&get(&docs, "/openapi/v3/api/v1", None, &[]));
    let containers =
        &core["components"]["schemas"]["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"];
    assert_eq!(containers["x-kubernetes-patch-merge-key"], "name");
    assert_eq!(containers["x-kubernetes-list-map-keys"], json!(["name"]));
    let v2 = json_of(&get(&docs, "/openapi/v2", None, &[]));
    let containers = &v2["definitions"]["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"];
    assert_eq!(containers["x-kubernetes-patch-strategy"], "merge");
}

/// Run with `--nocapture` to see the numbers.
#[test]
fn measure() {
    let docs = Documents::new(builtin());
    let start = Instant::now();
    docs.built();
    let definitions = start.elapsed();
    let start = Instant::now();
    let core = docs.v3_json("api/v1").unwrap();
    let v3 = start.elapsed();
    let start = Instant::now();
    let v2 = docs.v2_json();
    let v2_time = start.elapsed();
    let start = Instant::now();
    let protobuf = docs.v2_protobuf();
    let protobuf_time = start.elapsed();
    let start = Instant::now();
    let core_protobuf = docs.v3_protobuf("api/v1").unwrap();
    let v3_protobuf_time = start.elapsed();
    let start = Instant::now();
    let index = docs.v3_index_json();
    let index_time = start.elapsed();
    println!(
        "definitions: {definitions:?} ({} schemas); v3 api/v1: {v3:?}, {} bytes; v2: {v2_time:?}, {} bytes; \
         v2 protobuf: {protobuf_time:?}, {} bytes; v3 api/v1 protobuf: {v3_protobuf_time:?}, {} bytes; \
         v3 index (all other GV documents): {index_time:?}, {} bytes",
        docs.built().definitions.len(),
        core.len(),
        v2.len(),
        protobuf.len(),
        core_protobuf.len(),
        index.len()
    );
}

#[test]
fn odd_input_never_panics() {
    let docs = Documents::new(builtin());
    let mut headers = HeaderMap::new();
    headers.insert(
        ACCEPT,
        HeaderValue::from_bytes(b"\xff;q=\xfe, */*;q=0.5").unwrap(),
    );
    headers.insert(IF_NONE_MATCH, HeaderValue::from_bytes(b"\xff\"").unwrap());
    headers.insert(
        IF_MODIFIED_SINCE,
        HeaderValue::from_static("Thu, 01 Jan 1970 00:00:00 GMT"),
    );
    let queries = [
        None,
        Some(""),
        Some("&&&"),
        Some("hash"),
        Some("hash=%ZZ&hash=1"),
        Some("="),
    ];
    let paths = [
        "/openapi/v2",
        "/openapi/v3",
        "/openapi/v3/api/v1",
        "/openapi/v3//",
        "/openapi/v3/\u{0}",
        "/",
    ];
    for path in paths {
        for query in queries {
            let _ = docs.respond(path, query, &headers);
        }
    }
    let ok = docs.respond("/openapi/v3/api/v1", None, &headers).unwrap();
    assert_eq!(ok.status(), StatusCode::OK);
}
