//! Renders path items and definitions into a Swagger 2.0 document (`/openapi/v2`) or an
//! OpenAPI 3.0 group-version document (`/openapi/v3/<gv>`).

use crate::definitions::{self, V2_REF, V3_REF};
use crate::params::{In, Param};
use crate::paths::{Body, Operation, PathItem, Produces};
use serde_json::{json, Map, Value};
use std::collections::BTreeSet;

/// Media types of responses. The server answers JSON only for now; add `application/yaml`
/// and `application/vnd.kubernetes.protobuf` here when it serves them.
const OBJECT_MEDIA_TYPES: &[&str] = &["application/json"];
/// Media types of list responses (a list can be watched with `?watch=true`).
const LIST_MEDIA_TYPES: &[&str] = &["application/json", "application/json;stream=watch"];
/// Media types of watch responses.
const WATCH_MEDIA_TYPES: &[&str] = &["application/json", "application/json;stream=watch"];
/// Media types a PATCH accepts.
const PATCH_MEDIA_TYPES: &[&str] = &[
    "application/apply-patch+yaml",
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/strategic-merge-patch+json",
];

/// Media types a PATCH of a custom resource accepts.
const CUSTOM_PATCH_MEDIA_TYPES: &[&str] = &[
    "application/apply-patch+yaml",
    "application/json-patch+json",
    "application/merge-patch+json",
];

fn media_types(produces: Produces) -> &'static [&'static str] {
    match produces {
        Produces::Object => OBJECT_MEDIA_TYPES,
        Produces::List => LIST_MEDIA_TYPES,
        Produces::Watch => WATCH_MEDIA_TYPES,
    }
}

fn patch_media_types(body: &Body) -> &'static [&'static str] {
    match body {
        Body::CustomPatch => CUSTOM_PATCH_MEDIA_TYPES,
        _ => PATCH_MEDIA_TYPES,
    }
}

fn status_text(code: u16) -> &'static str {
    match code {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        401 => "Unauthorized",
        _ => "",
    }
}

fn gvk_value((group, version, kind): &(String, String, String)) -> Value {
    json!({"group": group, "kind": kind, "version": version})
}

/// The operation fields both versions share.
fn common(op: &Operation) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("description".into(), op.description.clone().into());
    out.insert("operationId".into(), op.id.clone().into());
    out.insert("tags".into(), json!([op.tag]));
    if let Some(action) = op.action {
        out.insert("x-kubernetes-action".into(), action.into());
    }
    if let Some(gvk) = &op.gvk {
        out.insert("x-kubernetes-group-version-kind".into(), gvk_value(gvk));
    }
    out
}

fn v2_param(param: &Param) -> Value {
    let mut out = json!({
        "description": param.description,
        "in": match param.location { In::Path => "path", In::Query => "query" },
        "name": param.name,
        "type": param.kind.as_str(),
        "uniqueItems": true,
    });
    if param.location == In::Path {
        out["required"] = true.into();
    }
    out
}

fn v3_param(param: &Param) -> Value {
    let mut out = json!({
        "description": param.description,
        "in": match param.location { In::Path => "path", In::Query => "query" },
        "name": param.name,
        "schema": {"type": param.kind.as_str(), "uniqueItems": true},
    });
    if param.location == In::Path {
        out["required"] = true.into();
    }
    out
}

fn v2_operation(op: &Operation) -> Value {
    let mut out = common(op);
    let mut params: Vec<Value> = op.params.iter().map(v2_param).collect();
    let consumes: Vec<&str> = match &op.body {
        Body::None => vec!["*/*"],
        Body::Object {
            definition,
            required,
        } => {
            params.insert(
                0,
                json!({"in": "body", "name": "body", "required": required,
                       "schema": {"$ref": format!("{V2_REF}{definition}")}}),
            );
            vec!["*/*"]
        }
        Body::Patch | Body::CustomPatch => {
            params.insert(
                0,
                json!({"in": "body", "name": "body", "required": true,
                       "schema": {"$ref": format!("{V2_REF}{}", crate::catalog::PATCH)}}),
            );
            patch_media_types(&op.body).to_vec()
        }
    };
    out.insert("consumes".into(), json!(consumes));
    if !params.is_empty() {
        out.insert("parameters".into(), Value::Array(params));
    }
    out.insert("produces".into(), json!(media_types(op.produces)));
    let mut responses = Map::new();
    for (code, definition) in op.responses.iter().chain(&[(401, None)]) {
        let mut response = json!({"description": status_text(*code)});
        if let Some(definition) = definition {
            response["schema"] = json!({"$ref": format!("{V2_REF}{definition}")});
        }
        responses.insert(code.to_string(), response);
    }
    out.insert("responses".into(), Value::Object(responses));
    out.insert("schemes".into(), json!(["https"]));
    Value::Object(out)
}

fn v3_content(types: &[&str], definition: &str) -> Value {
    let schema = json!({"schema": {"$ref": format!("{V3_REF}{definition}")}});
    Value::Object(
        types
            .iter()
            .map(|t| ((*t).to_owned(), schema.clone()))
            .collect(),
    )
}

fn v3_operation(op: &Operation) -> Value {
    let mut out = common(op);
    if !op.params.is_empty() {
        out.insert(
            "parameters".into(),
            op.params.iter().map(v3_param).collect(),
        );
    }
    match &op.body {
        Body::None => {}
        Body::Object {
            definition,
            required,
        } => {
            let mut body = json!({"content": v3_content(&["*/*"], definition)});
            if *required {
                body["required"] = true.into();
            }
            out.insert("requestBody".into(), body);
        }
        Body::Patch | Body::CustomPatch => {
            out.insert(
                "requestBody".into(),
                json!({"content": v3_content(patch_media_types(&op.body), crate::catalog::PATCH), "required": true}),
            );
        }
    }
    let mut responses = Map::new();
    for (code, definition) in op.responses.iter().chain(&[(401, None)]) {
        let mut response = json!({"description": status_text(*code)});
        if let Some(definition) = definition {
            response["content"] = v3_content(media_types(op.produces), definition);
        }
        responses.insert(code.to_string(), response);
    }
    out.insert("responses".into(), Value::Object(responses));
    Value::Object(out)
}

fn render_paths(
    items: &[PathItem],
    param: fn(&Param) -> Value,
    operation: fn(&Operation) -> Value,
) -> Map<String, Value> {
    let mut paths = Map::new();
    for item in items {
        let mut out = Map::new();
        if !item.params.is_empty() {
            out.insert("parameters".into(), item.params.iter().map(param).collect());
        }
        for op in &item.operations {
            out.insert(op.method.as_str().into(), operation(op));
        }
        paths.insert(item.path.clone(), Value::Object(out));
    }
    paths
}

fn roots(paths: &Map<String, Value>, prefix: &str) -> BTreeSet<String> {
    let mut refs = BTreeSet::new();
    for item in paths.values() {
        definitions::collect_refs(item, prefix, &mut refs);
    }
    refs
}

/// The Swagger 2.0 document of `items`, with every definition they reach.
pub(crate) fn v2(items: &[PathItem], defs: &Map<String, Value>, version: &str) -> Value {
    let paths = render_paths(items, v2_param, v2_operation);
    let names = definitions::reachable(defs, roots(&paths, V2_REF));
    let definitions: Map<String, Value> = names
        .into_iter()
        .filter_map(|n| defs.get(&n).map(|s| (n, definitions::to_v2(s))))
        .collect();
    json!({
        "definitions": definitions,
        "info": {"title": "Kubernetes", "version": version},
        "paths": paths,
        "security": [{"BearerToken": []}],
        "securityDefinitions": {
            "BearerToken": {
                "description": "Bearer Token authentication",
                "in": "header",
                "name": "authorization",
                "type": "apiKey",
            },
        },
        "swagger": "2.0",
    })
}

/// The OpenAPI 3.0 document of `items`, with every definition they reach.
pub(crate) fn v3(items: &[PathItem], defs: &Map<String, Value>) -> Value {
    let paths = render_paths(items, v3_param, v3_operation);
    let names = definitions::reachable(defs, roots(&paths, V3_REF));
    let schemas: Map<String, Value> = names
        .into_iter()
        .filter_map(|n| defs.get(&n).map(|s| (n.clone(), definitions::to_v3(&n, s))))
        .collect();
    json!({
        "components": {
            "schemas": schemas,
            "securitySchemes": {
                "BearerToken": {
                    "description": "Bearer Token authentication",
                    "in": "header",
                    "name": "authorization",
                    "type": "apiKey",
                },
            },
        },
        "info": {"title": "Kubernetes", "version": "unversioned"},
        "openapi": "3.0.0",
        "paths": paths,
        "security": [{"BearerToken": []}],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths;
    use crate::ApiResource;

    fn items() -> Vec<PathItem> {
        let cm = ApiResource {
            group: "",
            version: "v1",
            kind: "ConfigMap",
            plural: "configmaps",
            namespaced: true,
            verbs: &[
                "create",
                "delete",
                "deletecollection",
                "get",
                "list",
                "patch",
                "update",
                "watch",
            ],
            subresources: &[],
        };
        let mut items = vec![paths::discovery_gv("", "v1")];
        items.extend(paths::for_resource(&cm));
        items
    }

    fn defs() -> Map<String, Value> {
        definitions::generate(&[("".to_owned(), "v1".to_owned())].into(), None)
    }

    #[test]
    fn v3_patch_operation_shape() {
        let doc = v3(&items(), &defs());
        let patch = &doc["paths"]["/api/v1/namespaces/{namespace}/configmaps/{name}"]["patch"];
        assert_eq!(
            patch["x-kubernetes-group-version-kind"],
            json!({"group": "", "kind": "ConfigMap", "version": "v1"})
        );
        let names: Vec<_> = patch["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert!(names.contains(&"fieldValidation"));
        assert!(
            patch["requestBody"]["content"]["application/strategic-merge-patch+json"].is_object()
        );
        assert!(doc["components"]["schemas"]["io.k8s.api.core.v1.ConfigMap"].is_object());
        assert!(doc["components"]["schemas"]
            ["io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList"]
            .is_object());
        assert!(doc["components"]["schemas"]
            .get("io.k8s.api.core.v1.Pod")
            .is_none());
        let mut refs = BTreeSet::new();
        definitions::collect_refs(&doc, V3_REF, &mut refs);
        for r in refs {
            assert!(
                doc["components"]["schemas"].get(&r).is_some(),
                "dangling {r}"
            );
        }
    }

    #[test]
    fn v2_shape() {
        let doc = v2(&items(), &defs(), "v1.33.0");
        let post = &doc["paths"]["/api/v1/namespaces/{namespace}/configmaps"]["post"];
        assert_eq!(post["parameters"][0]["in"], "body");
        assert_eq!(
            post["parameters"][0]["schema"]["$ref"],
            "#/definitions/io.k8s.api.core.v1.ConfigMap"
        );
        assert_eq!(post["responses"]["401"]["description"], "Unauthorized");
        let mut refs = BTreeSet::new();
        definitions::collect_refs(&doc, V2_REF, &mut refs);
        for r in refs {
            assert!(doc["definitions"].get(&r).is_some(), "dangling {r}");
        }
        let mut v3_refs = BTreeSet::new();
        definitions::collect_refs(&doc, V3_REF, &mut v3_refs);
        assert!(v3_refs.is_empty());
    }
}
