//! Tests of the custom resource documents: a Widget CRD with two versions and a
//! cluster-scoped Gadget, through [`custom_v3`], [`custom_v2`] and [`CustomDocuments`].

use super::*;
use crate::definitions::{collect_refs, V2_REF, V3_REF};
use http::header::{ACCEPT, CACHE_CONTROL, ETAG, IF_NONE_MATCH, LOCATION};
use http::{HeaderValue, StatusCode};
use std::collections::BTreeSet;

fn widget_crd() -> Value {
    let schema = json!({
        "type": "object",
        "description": "Widget is a test kind.",
        "properties": {
            "spec": {
                "type": "object",
                "description": "Spec of the widget.",
                "properties": {
                    "color": {"type": "string", "description": "Color of the widget."},
                    "replicas": {"type": "integer", "format": "int32"},
                    "size": {"x-kubernetes-int-or-string": true},
                },
            },
            "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}},
        },
    });
    json!({
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

fn gadget_crd() -> Value {
    json!({"spec": {"group": "example.com", "scope": "Cluster",
        "names": {"kind": "Gadget", "plural": "gadgets"},
        "versions": [{"name": "v1", "served": true, "storage": true,
                      "schema": {"openAPIV3Schema": {"type": "object",
                          "x-kubernetes-preserve-unknown-fields": true}}}]}})
}

fn crds() -> Vec<Value> {
    vec![
        widget_crd(),
        gadget_crd(),
        json!({"spec": "nonsense"}),
        json!(null),
    ]
}

fn assert_refs_resolve(doc: &Value, prefix: &str, container: &Value) {
    let mut refs = BTreeSet::new();
    collect_refs(doc, prefix, &mut refs);
    assert!(!refs.is_empty());
    for r in refs {
        assert!(container.get(&r).is_some(), "dangling $ref {r}");
    }
}

fn param_names(op: &Value) -> Vec<&str> {
    op["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["name"].as_str())
        .collect()
}

#[test]
fn v3_document_of_a_custom_group_version() {
    let doc = custom_v3("example.com", "v1", &crds()).unwrap();
    let text = serde_json::to_string(&doc).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["openapi"], "3.0.0");
    let schemas = &doc["components"]["schemas"];
    assert_refs_resolve(&doc, V3_REF, schemas);
    let mut v2_refs = BTreeSet::new();
    collect_refs(&doc, V2_REF, &mut v2_refs);
    assert!(v2_refs.is_empty());

    let widget = &schemas["com.example.v1.Widget"];
    assert_eq!(
        widget["x-kubernetes-group-version-kind"],
        json!([{"group": "example.com", "kind": "Widget", "version": "v1"}])
    );
    assert_eq!(
        widget["properties"]["metadata"]["allOf"][0]["$ref"],
        format!("{V3_REF}{}", catalog::OBJECT_META)
    );
    assert_eq!(
        widget["properties"]["spec"]["properties"]["color"]["description"],
        "Color of the widget."
    );
    assert_eq!(
        schemas["com.example.v1.WidgetList"]["x-kubernetes-group-version-kind"][0]["kind"],
        "WidgetList"
    );
    assert!(schemas["com.example.v1.Gadget"].is_object());
    assert!(schemas.get("com.example.v1beta1.Widget").is_none());
    for name in [
        catalog::OBJECT_META,
        catalog::LIST_META,
        catalog::STATUS,
        catalog::DELETE_OPTIONS,
        catalog::PATCH,
        "io.k8s.api.autoscaling.v1.Scale",
    ] {
        assert!(schemas[name].is_object(), "{name}");
    }
    assert!(
        schemas[catalog::DELETE_OPTIONS]["x-kubernetes-group-version-kind"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["group"] == "example.com")
    );

    let paths = &doc["paths"];
    let item = &paths["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}"];
    let patch = &item["patch"];
    assert_eq!(patch["operationId"], "patchExampleComV1NamespacedWidget");
    assert_eq!(patch["x-kubernetes-group-version-kind"]["kind"], "Widget");
    assert!(param_names(patch).contains(&"fieldValidation"));
    let content = patch["requestBody"]["content"].as_object().unwrap();
    assert!(content.contains_key("application/merge-patch+json"));
    assert!(!content.contains_key("application/strategic-merge-patch+json"));
    assert!(
        param_names(&paths["/apis/example.com/v1/namespaces/{namespace}/widgets"]["post"])
            .contains(&"fieldValidation")
    );
    let scale = &paths["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/scale"];
    assert_eq!(
        scale["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
        format!("{V3_REF}io.k8s.api.autoscaling.v1.Scale")
    );
    assert!(
        paths["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status"]["put"]
            .is_object()
    );
    assert!(paths["/apis/example.com/v1/widgets"]["get"].is_object());
    assert!(paths["/apis/example.com/v1/gadgets/{name}"]["patch"].is_object());
    assert!(paths
        .as_object()
        .unwrap()
        .keys()
        .all(|p| !p.contains("/watch/")));
}

#[test]
fn each_version_has_its_own_document() {
    let doc = custom_v3("example.com", "v1beta1", &crds()).unwrap();
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    assert!(schemas.contains_key("com.example.v1beta1.Widget"));
    assert!(!schemas.contains_key("com.example.v1.Widget"));
    assert!(!schemas.contains_key("io.k8s.api.autoscaling.v1.Scale"));
    assert!(doc["paths"]
        .get("/apis/example.com/v1beta1/namespaces/{namespace}/widgets/{name}/status")
        .is_none());
    assert!(custom_v3("example.com", "v2", &crds()).is_none());
    assert!(custom_v3("", "v1", &crds()).is_none());
    assert!(custom_v3("example.com", "v1", &[]).is_none());
}

#[test]
fn v2_definitions_and_paths() {
    let v2 = custom_v2(&crds());
    let definitions = &v2["definitions"];
    assert_refs_resolve(&v2, V2_REF, definitions);
    let mut v3_refs = BTreeSet::new();
    collect_refs(&v2, V3_REF, &mut v3_refs);
    assert!(v3_refs.is_empty());
    for name in [
        "com.example.v1.Widget",
        "com.example.v1beta1.Widget",
        "com.example.v1.WidgetList",
        "com.example.v1.Gadget",
        "com.example.v1.GadgetList",
    ] {
        assert!(
            definitions[name]["x-kubernetes-group-version-kind"].is_array(),
            "{name}"
        );
    }
    let widget = &definitions["com.example.v1.Widget"];
    assert!(widget["properties"]["spec"]["properties"]["size"]
        .get("anyOf")
        .is_none());
    assert_eq!(
        widget["properties"]["metadata"]["$ref"],
        format!("{V2_REF}{}", catalog::OBJECT_META)
    );
    assert_eq!(definitions["com.example.v1.Gadget"].get("properties"), None);
    let patch =
        &v2["paths"]["/apis/example.com/v1beta1/namespaces/{namespace}/widgets/{name}"]["patch"];
    assert!(param_names(patch).contains(&"fieldValidation"));
    assert_eq!(patch["consumes"].as_array().unwrap().len(), 3);

    // It merges into a Swagger 2.0 document that encodes to protobuf.
    let doc = json!({"swagger": "2.0", "info": {"title": "Kubernetes", "version": "v1.33.0"},
        "paths": v2["paths"], "definitions": v2["definitions"]});
    assert!(crate::proto::encode_v2(&doc).len() > 1000);
    assert_eq!(custom_v2(&[]), json!({"definitions": {}, "paths": {}}));
}

fn request(
    docs: &CustomDocuments,
    path: &str,
    query: Option<&str>,
    headers: &[(http::HeaderName, &str)],
) -> Option<Response<Bytes>> {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        map.append(name.clone(), HeaderValue::from_str(value).unwrap());
    }
    docs.respond(path, query, &map)
}

#[test]
fn serves_documents_like_the_built_in_ones() {
    let docs = CustomDocuments::new(&crds());
    let entries = docs.index_entries();
    assert_eq!(
        entries.keys().collect::<Vec<_>>(),
        ["apis/example.com/v1", "apis/example.com/v1beta1"]
    );
    let url = entries["apis/example.com/v1"]["serverRelativeURL"]
        .as_str()
        .unwrap();
    let (path, query) = url.split_once('?').unwrap();
    let hash = query.strip_prefix("hash=").unwrap();
    assert_eq!(hash.len(), 128);

    let plain = request(&docs, path, None, &[]).unwrap();
    assert_eq!(plain.status(), StatusCode::OK);
    assert_eq!(plain.headers()[ETAG], format!("\"{hash}\"").as_str());
    let body: Value = serde_json::from_slice(plain.body()).unwrap();
    assert_eq!(body, custom_v3("example.com", "v1", &crds()).unwrap());
    assert_eq!(docs.v3_json("apis/example.com/v1").unwrap(), plain.body());

    let immutable = request(&docs, path, Some(query), &[]).unwrap();
    assert_eq!(immutable.headers()[CACHE_CONTROL], "public, immutable");
    let stale = request(&docs, path, Some("hash=ABC"), &[]).unwrap();
    assert_eq!(stale.status(), StatusCode::MOVED_PERMANENTLY);
    assert_eq!(stale.headers()[LOCATION], url);
    let etag = format!("\"{hash}\"");
    let cached = request(&docs, path, None, &[(IF_NONE_MATCH, &etag)]).unwrap();
    assert_eq!(cached.status(), StatusCode::NOT_MODIFIED);
    let refused = request(&docs, path, None, &[(ACCEPT, "text/html")]).unwrap();
    assert_eq!(refused.status(), StatusCode::NOT_ACCEPTABLE);
    let pb = "application/com.github.proto-openapi.spec.v3@v1.0+protobuf";
    let protobuf = request(&docs, path, None, &[(ACCEPT, pb)]).unwrap();
    assert_eq!(protobuf.status(), StatusCode::OK);
    assert_eq!(
        protobuf.headers()[http::header::CONTENT_TYPE],
        "application/com.github.proto-openapi.spec.v3.v1.0+protobuf"
    );
    assert_eq!(protobuf.headers()[ETAG], etag.as_str());
    // Document.openapi (1) = "3.0.0"
    assert_eq!(
        protobuf.body()[..7],
        [0x0a, 5, b'3', b'.', b'0', b'.', b'0']
    );

    for other in [
        "/openapi/v3",
        "/openapi/v2",
        "/openapi/v3/apis/apps/v1",
        "/openapi/v3/apis/example.com",
        "/openapi/v3/apis/example.com/v1/",
        "/apis/example.com/v1",
        "",
    ] {
        assert!(request(&docs, other, None, &[]).is_none(), "{other}");
    }
    assert!(format!("{docs:?}").contains("apis/example.com/v1beta1"));
}

#[test]
fn bad_and_clashing_input() {
    let empty = CustomDocuments::new(&[json!(null), json!([1, 2]), json!({"spec": {"group": 1}})]);
    assert!(empty.index_entries().is_empty());
    assert!(empty.v3_json("apis/example.com/v1").is_none());
    // A second CRD claiming the same kind in the same group version is left out.
    let mut twin = widget_crd();
    twin["spec"]["names"]["plural"] = json!("widgetz");
    let served = served_of(&[widget_crd(), twin, gadget_crd()]);
    assert_eq!(served.len(), 3);
    fn shareable<T: Send + Sync + 'static>() {}
    shareable::<CustomDocuments>();
}
