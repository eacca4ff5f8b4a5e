//! Tests of [`encode_v3`]: known bytes, and real documents (built-in and custom) read
//! back by [`super::decode`] and compared with the JSON they came from.

use super::decode::{all, any_value, assert_same, decode, named, one, text, Msg};
use super::*;
use crate::catalog::KINDS;
use crate::{custom_v3, ApiResource, Documents};
use serde_json::json;

fn assert_round_trip(doc: &Value) {
    let bytes = encode_v3(doc);
    assert_same(&decode(Msg::Document, &bytes), doc, "");
}

fn builtin_documents() -> Documents {
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
    Documents::new(
        KINDS
            .iter()
            .filter(|k| k.list_kind.is_some())
            .map(|k| ApiResource {
                group: k.group,
                version: k.version,
                kind: k.kind,
                plural: k.plural,
                namespaced: k.namespaced,
                verbs: VERBS,
                subresources: &["status", "scale"],
            }),
    )
}

#[test]
fn encodes_known_bytes() {
    let bytes = encode_v3(&json!({"openapi": "3.0.0", "info": {"title": "K", "version": "v"}}));
    let mut expected = vec![0x0a, 5];
    expected.extend_from_slice(b"3.0.0");
    // info (2) → Info{title (1): "K", version (6): "v"}
    expected.extend_from_slice(&[0x12, 6, 0x0a, 1, b'K', 0x32, 1, b'v']);
    assert_eq!(bytes, expected);
    assert!(encode_v3(&json!("not a document")).is_empty());
    // Values of the wrong type leave empty messages where gnostic would fail.
    assert_eq!(
        encode_v3(&json!({"paths": 3, "security": [7]})),
        [0x22, 0, 0x32, 0]
    );
}

#[test]
fn encodes_schema_fields() {
    let mut w = Writer::default();
    let value = json!({"type": "string", "additionalProperties": false, "default": 0, "x-a": true});
    schema(&mut w, value.as_object().unwrap());
    // type (25): "string"
    let mut expected = vec![0xca, 0x01, 6];
    expected.extend_from_slice(b"string");
    // additionalProperties (32) → {boolean (2): false}, written although false (oneof)
    expected.extend_from_slice(&[0x82, 0x02, 2, 0x10, 0x00]);
    // default (33) → DefaultType{number (1): 0.0}
    expected.extend_from_slice(&[0x8a, 0x02, 9, 0x09, 0, 0, 0, 0, 0, 0, 0, 0]);
    // specification_extension (36) → {name: "x-a", value: Any{yaml: "true"}}
    expected.extend_from_slice(&[0xa2, 0x02, 13, 0x0a, 3, b'x', b'-', b'a', 0x12, 6, 0x12, 4]);
    expected.extend_from_slice(b"true");
    assert_eq!(w.as_bytes(), expected);

    let mut w = Writer::default();
    // A default DefaultType cannot hold is an empty message; `$ref` makes a Reference.
    let value = json!({"default": {}, "items": {"$ref": "#/r"}});
    schema(&mut w, value.as_object().unwrap());
    let mut expected = vec![0xf2, 0x01, 9, 0x0a, 7, 0x12, 5, 0x0a, 3];
    expected.extend_from_slice(b"#/r");
    expected.extend_from_slice(&[0x8a, 0x02, 0]);
    assert_eq!(w.as_bytes(), expected);
}

#[test]
fn key_fields_of_a_builtin_document() {
    let docs = builtin_documents();
    let json: Value = serde_json::from_slice(&docs.v3_json("api/v1").unwrap()).unwrap();
    let bytes = docs.v3_protobuf("api/v1").unwrap();
    assert_eq!(bytes, encode_v3(&json));
    assert_eq!(text(one(&bytes, 1)), "3.0.0");

    let path_names: Vec<String> = all(one(&bytes, 4), 1)
        .into_iter()
        .map(|e| named(e).0)
        .collect();
    let json_paths: Vec<&String> = json["paths"].as_object().unwrap().keys().collect();
    assert!(path_names.contains(&"/api/v1/namespaces/{namespace}/configmaps".to_owned()));
    assert_eq!(path_names.iter().collect::<Vec<_>>(), json_paths);

    let schemas: Vec<(String, &[u8])> = all(one(one(&bytes, 5), 1), 1)
        .into_iter()
        .map(named)
        .collect();
    let json_schemas = json["components"]["schemas"].as_object().unwrap();
    let names: Vec<&String> = schemas.iter().map(|(n, _)| n).collect();
    assert_eq!(names, json_schemas.keys().collect::<Vec<_>>());

    let (_, config_map) = schemas
        .iter()
        .find(|(n, _)| n == "io.k8s.api.core.v1.ConfigMap")
        .unwrap();
    // SchemaOrReference.schema (1)
    let config_map = one(config_map, 1);
    let expected = &json_schemas["io.k8s.api.core.v1.ConfigMap"];
    assert_eq!(text(one(config_map, 34)), expected["description"]);
    assert_eq!(text(one(config_map, 25)), "object");
    let properties: Vec<String> = all(one(config_map, 31), 1)
        .into_iter()
        .map(|e| named(e).0)
        .collect();
    assert!(properties.contains(&"data".to_owned()));
    let gvk = all(config_map, 36)
        .into_iter()
        .map(named)
        .find(|(n, _)| n == "x-kubernetes-group-version-kind")
        .unwrap();
    assert_eq!(
        any_value(gvk.1),
        json!([{"group": "", "kind": "ConfigMap", "version": "v1"}])
    );

    let (_, container) = schemas
        .iter()
        .find(|(n, _)| n == "io.k8s.api.core.v1.Container")
        .unwrap();
    let required: Vec<&str> = all(one(container, 1), 23).into_iter().map(text).collect();
    assert_eq!(required, ["name"]);
}

#[test]
fn builtin_documents_read_back() {
    let docs = builtin_documents();
    for key in ["api/v1", "apis/apps/v1", "apis/batch/v1", "apis", "api"] {
        let json: Value = serde_json::from_slice(&docs.v3_json(key).unwrap()).unwrap();
        assert_round_trip(&json);
    }
}

#[test]
fn custom_documents_read_back() {
    let schema = json!({
        "type": "object",
        "description": "Widget is a test kind.",
        "required": ["spec"],
        "properties": {
            "spec": {
                "type": "object",
                "required": ["color"],
                "properties": {
                    "color": {"type": "string", "enum": ["red", "blue"], "default": "red"},
                    "replicas": {"type": "integer", "format": "int32", "minimum": 0,
                                 "maximum": 10, "default": 1, "nullable": true},
                    "ratio": {"type": "number", "multipleOf": 0.5, "exclusiveMaximum": true},
                    "size": {"x-kubernetes-int-or-string": true,
                             "anyOf": [{"type": "integer"}, {"type": "string"}]},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"},
                               "maxProperties": 5, "default": {}},
                    "ports": {"type": "array", "maxItems": 3, "minItems": 1,
                              "items": {"type": "object", "properties": {"name": {"type": "string",
                                  "pattern": "^[a-z]+$", "maxLength": 15}}},
                              "x-kubernetes-list-type": "map",
                              "x-kubernetes-list-map-keys": ["name"]},
                    "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                    "flag": {"type": "boolean", "default": false, "example": true},
                },
                "x-kubernetes-validations": [{"rule": "self.replicas <= 10", "message": "m"}],
            },
        },
    });
    let crd = json!({"spec": {"group": "example.com", "scope": "Namespaced",
        "names": {"kind": "Widget", "listKind": "WidgetList", "plural": "widgets"},
        "versions": [{"name": "v1", "served": true, "storage": true,
                      "schema": {"openAPIV3Schema": schema},
                      "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
                                                               "statusReplicasPath": ".status.replicas"}}}]}});
    let doc = custom_v3("example.com", "v1", &[crd]).unwrap();
    // As served: through the JSON text.
    let doc: Value = serde_json::from_slice(&serde_json::to_vec(&doc).unwrap()).unwrap();
    assert_round_trip(&doc);
    let decoded = decode(Msg::Document, &encode_v3(&doc));
    let spec = &decoded["components"]["schemas"]["com.example.v1.Widget"]["properties"]["spec"];
    assert_eq!(spec["properties"]["color"]["default"], "red");
    assert_eq!(spec["properties"]["labels"]["default"], Value::Null);
    assert_eq!(spec["properties"]["flag"]["default"], false);
    assert_eq!(
        spec["properties"]["ports"]["x-kubernetes-list-map-keys"],
        json!(["name"])
    );
}

#[test]
fn every_kind_of_field_reads_back() {
    let doc = json!({
        "openapi": "3.0.0",
        "info": {"title": "T", "version": "1", "description": "d", "x-i": 1},
        "paths": {
            "/a": {
                "summary": "s",
                "parameters": [{"$ref": "#/components/parameters/p"}],
                "get": {
                    "operationId": "getA",
                    "deprecated": true,
                    "requestBody": {"$ref": "#/components/requestBodies/b"},
                    "responses": {
                        "default": {"description": "other"},
                        "2XX": {"$ref": "#/components/responses/r"},
                        "x-r": "v",
                    },
                },
            },
            "x-p": {"k": [1, 2]},
        },
        "components": {
            "schemas": {"S": {"not": {"type": "string"}, "oneOf": [{"$ref": "#/s"}],
                              "allOf": [{"type": "object"}], "readOnly": true, "title": "t"}},
            "parameters": {"p": {"name": "q", "in": "query", "style": "form", "explode": true,
                                 "example": "e", "schema": {"type": "string"}}},
            "requestBodies": {"b": {"description": "body", "required": true,
                                    "content": {"application/json": {"example": {"a": 1}}}}},
            "responses": {"r": {"description": "ok", "content": {"text/plain": {}}}},
            "securitySchemes": {"s": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}},
            "x-c": null,
        },
        "security": [{"s": ["a", "b"]}, {}],
        "x-d": "top",
    });
    assert_round_trip(&doc);
}
