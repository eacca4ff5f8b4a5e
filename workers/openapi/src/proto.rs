//! The Swagger 2.0 document in gnostic's protobuf encoding (`openapi.v2.Document`), which
//! kubectl asks `/openapi/v2` for: it validates `kind: List` manifests client-side with
//! it, and falls back to it for patch metadata. Encoded by hand from the JSON document;
//! only the fields our documents use are written.

use crate::wire::{any, bool_of, extensions, str_of, strings, Writer};
use serde_json::{Map, Value};

/// `openapi.v2.Schema`.
fn schema(w: &mut Writer, value: &Value) {
    let Some(o) = value.as_object() else {
        return;
    };
    w.string(1, str_of(o, "$ref"));
    w.string(2, str_of(o, "format"));
    w.string(3, str_of(o, "title"));
    w.string(4, str_of(o, "description"));
    if let Some(default) = o.get("default") {
        any(w, 5, default);
    }
    for (key, field) in [("multipleOf", 6), ("maximum", 7), ("minimum", 9)] {
        w.double(field, o.get(key).and_then(Value::as_f64).unwrap_or(0.0));
    }
    w.bool(8, bool_of(o, "exclusiveMaximum"));
    w.bool(10, bool_of(o, "exclusiveMinimum"));
    let ints = [
        ("maxLength", 11),
        ("minLength", 12),
        ("maxItems", 14),
        ("minItems", 15),
        ("maxProperties", 17),
        ("minProperties", 18),
    ];
    for (key, field) in ints {
        w.int64(field, o.get(key).and_then(Value::as_i64).unwrap_or(0));
    }
    w.string(13, str_of(o, "pattern"));
    w.bool(16, bool_of(o, "uniqueItems"));
    strings(w, 19, o.get("required"));
    for item in o
        .get("enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        any(w, 20, item);
    }
    match o.get("additionalProperties") {
        Some(Value::Bool(b)) => w.message(21, |w| w.oneof_bool(2, *b)),
        Some(sub @ Value::Object(_)) => w.message(21, |w| w.message(1, |w| schema(w, sub))),
        _ => {}
    }
    match o.get("type") {
        Some(Value::String(t)) => w.message(22, |w| w.string(1, t)),
        Some(list @ Value::Array(_)) => w.message(22, |w| strings(w, 1, Some(list))),
        _ => {}
    }
    match o.get("items") {
        Some(Value::Array(items)) => w.message(23, |w| {
            items.iter().for_each(|i| w.message(1, |w| schema(w, i)))
        }),
        Some(item @ Value::Object(_)) => w.message(23, |w| w.message(1, |w| schema(w, item))),
        _ => {}
    }
    for sub in o
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        w.message(24, |w| schema(w, sub));
    }
    if let Some(Value::Object(properties)) = o.get("properties") {
        w.message(25, |w| named_schemas(w, 1, properties));
    }
    w.string(26, str_of(o, "discriminator"));
    w.bool(27, bool_of(o, "readOnly"));
    if let Some(example) = o.get("example") {
        any(w, 30, example);
    }
    extensions(w, 31, o);
}

/// `repeated NamedSchema` from a JSON map.
fn named_schemas(w: &mut Writer, field: u32, map: &Map<String, Value>) {
    for (name, value) in map {
        w.message(field, |w| {
            w.string(1, name);
            w.message(2, |w| schema(w, value));
        });
    }
}

/// `openapi.v2.ParametersItem` of one JSON parameter.
fn parameter(w: &mut Writer, value: &Value) {
    let Some(p) = value.as_object() else {
        return;
    };
    // ParametersItem.parameter (1) → Parameter
    w.message(1, |w| {
        let location = str_of(p, "in");
        if location == "body" {
            w.message(1, |w| {
                w.string(1, str_of(p, "description"));
                w.string(2, str_of(p, "name"));
                w.string(3, location);
                w.bool(4, bool_of(p, "required"));
                if let Some(s) = p.get("schema") {
                    w.message(5, |w| schema(w, s));
                }
            });
            return;
        }
        // NonBodyParameter: query (3) and path (4) sub-schemas share their first fields;
        // they differ in where type and uniqueItems go.
        let (oneof, type_field, unique_field) = match location {
            "path" => (4, 5, 19),
            "header" => (1, 5, 19),
            _ => (3, 6, 20),
        };
        w.message(2, |w| {
            w.message(oneof, |w| {
                w.bool(1, bool_of(p, "required"));
                w.string(2, location);
                w.string(3, str_of(p, "description"));
                w.string(4, str_of(p, "name"));
                w.string(type_field, str_of(p, "type"));
                w.bool(unique_field, bool_of(p, "uniqueItems"));
            });
        });
    });
}

/// `openapi.v2.Operation`.
fn operation(w: &mut Writer, value: &Value) {
    let Some(o) = value.as_object() else {
        return;
    };
    strings(w, 1, o.get("tags"));
    w.string(3, str_of(o, "description"));
    w.string(5, str_of(o, "operationId"));
    strings(w, 6, o.get("produces"));
    strings(w, 7, o.get("consumes"));
    for p in o
        .get("parameters")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        w.message(8, |w| parameter(w, p));
    }
    if let Some(Value::Object(responses)) = o.get("responses") {
        w.message(9, |w| {
            for (code, response) in responses {
                w.message(1, |w| {
                    w.string(1, code);
                    // ResponseValue.response (1) → Response
                    w.message(2, |w| {
                        w.message(1, |w| {
                            w.string(
                                1,
                                response
                                    .get("description")
                                    .and_then(Value::as_str)
                                    .unwrap_or(""),
                            );
                            if let Some(s) = response.get("schema") {
                                w.message(2, |w| w.message(1, |w| schema(w, s)));
                            }
                        });
                    });
                });
            }
        });
    }
    strings(w, 10, o.get("schemes"));
    extensions(w, 13, o);
}

/// Encodes a Swagger 2.0 JSON document as `openapi.v2.Document`.
pub(crate) fn encode_v2(doc: &Value) -> Vec<u8> {
    let mut w = Writer::default();
    let Some(d) = doc.as_object() else {
        return w.into_bytes();
    };
    w.string(1, str_of(d, "swagger"));
    if let Some(Value::Object(info)) = d.get("info") {
        w.message(2, |w| {
            w.string(1, str_of(info, "title"));
            w.string(2, str_of(info, "version"));
        });
    }
    if let Some(Value::Object(paths)) = d.get("paths") {
        w.message(8, |w| {
            for (path, item) in paths {
                w.message(2, |w| {
                    w.string(1, path);
                    w.message(2, |w| {
                        for (method, field) in [
                            ("get", 2),
                            ("put", 3),
                            ("post", 4),
                            ("delete", 5),
                            ("patch", 8),
                        ] {
                            if let Some(op) = item.get(method) {
                                w.message(field, |w| operation(w, op));
                            }
                        }
                        for p in item
                            .get("parameters")
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten()
                        {
                            w.message(9, |w| parameter(w, p));
                        }
                    });
                });
            }
        });
    }
    if let Some(Value::Object(definitions)) = d.get("definitions") {
        w.message(9, |w| named_schemas(w, 1, definitions));
    }
    for requirement in d
        .get("security")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(requirement) = requirement.as_object() else {
            continue;
        };
        w.message(12, |w| {
            for (name, scopes) in requirement {
                w.message(1, |w| {
                    w.string(1, name);
                    w.message(2, |w| strings(w, 1, Some(scopes)));
                });
            }
        });
    }
    if let Some(Value::Object(definitions)) = d.get("securityDefinitions") {
        w.message(13, |w| {
            for (name, item) in definitions {
                let Some(item) = item.as_object() else {
                    continue;
                };
                w.message(1, |w| {
                    w.string(1, name);
                    // SecurityDefinitionsItem.api_key_security (2): the only kind we write.
                    w.message(2, |w| {
                        w.message(2, |w| {
                            w.string(1, str_of(item, "type"));
                            w.string(2, str_of(item, "name"));
                            w.string(3, str_of(item, "in"));
                            w.string(4, str_of(item, "description"));
                        });
                    });
                });
            }
        });
    }
    w.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn encodes_known_bytes() {
        // Document{swagger: "2.0", info: {title: "K", version: "v"}}
        let bytes = encode_v2(&json!({"swagger": "2.0", "info": {"title": "K", "version": "v"}}));
        assert_eq!(
            bytes,
            [0x0a, 3, b'2', b'.', b'0', 0x12, 6, 0x0a, 1, b'K', 0x12, 1, b'v']
        );
        assert!(encode_v2(&json!("not a document")).is_empty());
        assert!(encode_v2(&json!({"paths": 3, "definitions": [1], "security": [7]})).is_empty());
    }

    #[test]
    fn encodes_schema_fields() {
        let mut w = Writer::default();
        schema(&mut w, &json!({"type": "string", "x-a": true}));
        // type (22) → TypeItem{value: "string"}; vendor_extension (31) → {name: "x-a", value: Any{yaml: "true"}}
        let mut expected = vec![0xb2, 0x01, 8, 0x0a, 6];
        expected.extend_from_slice(b"string");
        expected.extend_from_slice(&[0xfa, 0x01, 13, 0x0a, 3, b'x', b'-', b'a', 0x12, 6, 0x12, 4]);
        expected.extend_from_slice(b"true");
        assert_eq!(w.as_bytes(), expected);
        let mut w = Writer::default();
        w.varint(300);
        assert_eq!(w.as_bytes(), [0xac, 0x02]);
    }
}
