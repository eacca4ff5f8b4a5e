//! An OpenAPI 3.0 group-version document in gnostic's protobuf encoding
//! (`openapi.v3.Document` of github.com/google/gnostic-models `openapiv3/OpenAPIv3.proto`),
//! which `/openapi/v3/<gv>` answers `application/com.github.proto-openapi.spec.v3.v1.0+protobuf`
//! with. Upstream parses its JSON document with gnostic and marshals the message; this
//! writes the same message straight from the JSON, following gnostic's conversion:
//!
//! - maps (paths, components, properties, content, responses) become `Named*` entries in
//!   the document's key order;
//! - an object with `$ref` is the `Reference` member of its `*OrReference` oneof;
//! - `x-` keys become `NamedAny` specification extensions (value as YAML text; see
//!   [`crate::wire::any`]); `example` and `enum` values become `Any`;
//! - `default` becomes `DefaultType`: its number, boolean or string, and an empty message
//!   for an object, array or null, which it cannot hold.
//!
//! Callbacks, links and encodings are not written (Kubernetes documents have none). Where
//! gnostic would reject the whole document (an unknown key, a value of the wrong type),
//! this writes what it can.

use crate::wire::{any, bool_of, extensions, str_of, strings, Writer};
use serde_json::{Map, Value};

/// Writes the fields of one message from its JSON object.
type Fields = fn(&mut Writer, &Map<String, Value>);

/// Encodes an OpenAPI 3.0 JSON document as `openapi.v3.Document`.
pub(crate) fn encode_v3(doc: &Value) -> Vec<u8> {
    let mut w = Writer::default();
    if let Some(d) = doc.as_object() {
        document(&mut w, d);
    }
    w.into_bytes()
}

/// The items of the JSON array `key` of `o`.
fn each<'a>(o: &'a Map<String, Value>, key: &str) -> impl Iterator<Item = &'a Value> {
    o.get(key).and_then(Value::as_array).into_iter().flatten()
}

/// Message `field` from a JSON object (empty if `value` is not one).
fn message(w: &mut Writer, field: u32, value: &Value, fields: Fields) {
    w.message(field, |w| {
        if let Some(o) = value.as_object() {
            fields(w, o);
        }
    });
}

/// Message `field` from the object `key` of `o`, if present.
fn child(w: &mut Writer, field: u32, o: &Map<String, Value>, key: &str, fields: Fields) {
    if let Some(value) = o.get(key) {
        message(w, field, value, fields);
    }
}

/// An `*OrReference` message at `field`: `Reference` (2) if the object has `$ref`, else
/// the message `fields` writes (1).
fn or_reference(w: &mut Writer, field: u32, value: &Value, fields: Fields) {
    w.message(field, |w| match value.as_object() {
        Some(o) if o.contains_key("$ref") => w.message(2, |w| reference(w, o)),
        Some(o) => w.message(1, |w| fields(w, o)),
        None => {}
    });
}

/// A map wrapper at `field` (`SchemasOrReferences`, `MediaTypes`, `Properties`, …: one
/// `repeated Named* = 1`) from the JSON object `key` of `o`; `value` writes each entry's
/// field 2.
fn named_map(
    w: &mut Writer,
    field: u32,
    o: &Map<String, Value>,
    key: &str,
    value: impl Fn(&mut Writer, &Value),
) {
    let Some(Value::Object(map)) = o.get(key) else {
        return;
    };
    w.message(field, |w| {
        for (name, v) in map {
            w.message(1, |w| {
                w.string(1, name);
                value(w, v);
            });
        }
    });
}

/// A map of `*OrReference` values.
fn map_or_reference(w: &mut Writer, field: u32, o: &Map<String, Value>, key: &str, fields: Fields) {
    named_map(w, field, o, key, |w, v| or_reference(w, 2, v, fields));
}

/// `Strings` (a map of strings).
fn string_map(w: &mut Writer, field: u32, o: &Map<String, Value>, key: &str) {
    named_map(w, field, o, key, |w, v| {
        w.string(2, v.as_str().unwrap_or(""))
    });
}

fn document(w: &mut Writer, d: &Map<String, Value>) {
    w.string(1, str_of(d, "openapi"));
    child(w, 2, d, "info", info);
    each(d, "servers").for_each(|s| message(w, 3, s, server));
    child(w, 4, d, "paths", paths);
    child(w, 5, d, "components", components);
    each(d, "security").for_each(|s| message(w, 6, s, security_requirement));
    each(d, "tags").for_each(|t| message(w, 7, t, tag));
    child(w, 8, d, "externalDocs", external_docs);
    extensions(w, 9, d);
}

fn info(w: &mut Writer, o: &Map<String, Value>) {
    w.string(1, str_of(o, "title"));
    w.string(2, str_of(o, "description"));
    w.string(3, str_of(o, "termsOfService"));
    child(w, 4, o, "contact", |w, o| {
        w.string(1, str_of(o, "name"));
        w.string(2, str_of(o, "url"));
        w.string(3, str_of(o, "email"));
        extensions(w, 4, o);
    });
    child(w, 5, o, "license", |w, o| {
        w.string(1, str_of(o, "name"));
        w.string(2, str_of(o, "url"));
        extensions(w, 3, o);
    });
    w.string(6, str_of(o, "version"));
    extensions(w, 7, o);
    w.string(8, str_of(o, "summary"));
}

fn server(w: &mut Writer, o: &Map<String, Value>) {
    w.string(1, str_of(o, "url"));
    w.string(2, str_of(o, "description"));
    named_map(w, 3, o, "variables", |w, v| {
        message(w, 2, v, |w, o| {
            strings(w, 1, o.get("enum"));
            w.string(2, str_of(o, "default"));
            w.string(3, str_of(o, "description"));
            extensions(w, 4, o);
        })
    });
    extensions(w, 4, o);
}

/// `SecurityRequirement`: scheme name → scopes, as `NamedStringArray` entries.
fn security_requirement(w: &mut Writer, o: &Map<String, Value>) {
    for (name, scopes) in o {
        w.message(1, |w| {
            w.string(1, name);
            w.message(2, |w| strings(w, 1, Some(scopes)));
        });
    }
}

fn tag(w: &mut Writer, o: &Map<String, Value>) {
    w.string(1, str_of(o, "name"));
    w.string(2, str_of(o, "description"));
    child(w, 3, o, "externalDocs", external_docs);
    extensions(w, 4, o);
}

fn external_docs(w: &mut Writer, o: &Map<String, Value>) {
    w.string(1, str_of(o, "description"));
    w.string(2, str_of(o, "url"));
    extensions(w, 3, o);
}

fn reference(w: &mut Writer, o: &Map<String, Value>) {
    w.string(1, str_of(o, "$ref"));
    w.string(2, str_of(o, "summary"));
    w.string(3, str_of(o, "description"));
}

/// `Paths`: the `/…` keys as `NamedPathItem` entries, then the extensions.
fn paths(w: &mut Writer, o: &Map<String, Value>) {
    for (path, item) in o.iter().filter(|(k, _)| k.starts_with('/')) {
        w.message(1, |w| {
            w.string(1, path);
            message(w, 2, item, path_item);
        });
    }
    extensions(w, 2, o);
}

fn path_item(w: &mut Writer, o: &Map<String, Value>) {
    w.string(1, str_of(o, "$ref"));
    w.string(2, str_of(o, "summary"));
    w.string(3, str_of(o, "description"));
    let methods = [
        ("get", 4),
        ("put", 5),
        ("post", 6),
        ("delete", 7),
        ("options", 8),
        ("head", 9),
        ("patch", 10),
        ("trace", 11),
    ];
    for (method, field) in methods {
        child(w, field, o, method, operation);
    }
    each(o, "servers").for_each(|s| message(w, 12, s, server));
    each(o, "parameters").for_each(|p| or_reference(w, 13, p, parameter));
    extensions(w, 14, o);
}

fn operation(w: &mut Writer, o: &Map<String, Value>) {
    strings(w, 1, o.get("tags"));
    w.string(2, str_of(o, "summary"));
    w.string(3, str_of(o, "description"));
    child(w, 4, o, "externalDocs", external_docs);
    w.string(5, str_of(o, "operationId"));
    each(o, "parameters").for_each(|p| or_reference(w, 6, p, parameter));
    if let Some(body) = o.get("requestBody") {
        or_reference(w, 7, body, request_body);
    }
    child(w, 8, o, "responses", responses);
    w.bool(10, bool_of(o, "deprecated"));
    each(o, "security").for_each(|s| message(w, 11, s, security_requirement));
    each(o, "servers").for_each(|s| message(w, 12, s, server));
    extensions(w, 13, o);
}

fn parameter(w: &mut Writer, o: &Map<String, Value>) {
    w.string(1, str_of(o, "name"));
    w.string(2, str_of(o, "in"));
    parameter_fields(w, o, 2);
}

fn header(w: &mut Writer, o: &Map<String, Value>) {
    parameter_fields(w, o, 0);
}

/// The fields `Parameter` and `Header` share, in the same order: from 3 in `Parameter`
/// (after `name` and `in`), from 1 in `Header`.
fn parameter_fields(w: &mut Writer, o: &Map<String, Value>, offset: u32) {
    w.string(offset + 1, str_of(o, "description"));
    w.bool(offset + 2, bool_of(o, "required"));
    w.bool(offset + 3, bool_of(o, "deprecated"));
    w.bool(offset + 4, bool_of(o, "allowEmptyValue"));
    w.string(offset + 5, str_of(o, "style"));
    w.bool(offset + 6, bool_of(o, "explode"));
    w.bool(offset + 7, bool_of(o, "allowReserved"));
    if let Some(s) = o.get("schema") {
        or_reference(w, offset + 8, s, schema);
    }
    if let Some(example) = o.get("example") {
        any(w, offset + 9, example);
    }
    map_or_reference(w, offset + 10, o, "examples", example);
    media_types(w, offset + 11, o);
    extensions(w, offset + 12, o);
}

fn request_body(w: &mut Writer, o: &Map<String, Value>) {
    w.string(1, str_of(o, "description"));
    media_types(w, 2, o);
    w.bool(3, bool_of(o, "required"));
    extensions(w, 4, o);
}

/// `MediaTypes` from the `content` of `o`.
fn media_types(w: &mut Writer, field: u32, o: &Map<String, Value>) {
    named_map(w, field, o, "content", |w, v| {
        message(w, 2, v, |w, o| {
            if let Some(s) = o.get("schema") {
                or_reference(w, 1, s, schema);
            }
            if let Some(example) = o.get("example") {
                any(w, 2, example);
            }
            map_or_reference(w, 3, o, "examples", example);
            extensions(w, 5, o);
        })
    });
}

fn example(w: &mut Writer, o: &Map<String, Value>) {
    w.string(1, str_of(o, "summary"));
    w.string(2, str_of(o, "description"));
    if let Some(value) = o.get("value") {
        any(w, 3, value);
    }
    w.string(4, str_of(o, "externalValue"));
    extensions(w, 5, o);
}

/// `Responses`: `default`, then the status codes (`200`, `4XX`), then the extensions.
fn responses(w: &mut Writer, o: &Map<String, Value>) {
    if let Some(default) = o.get("default") {
        or_reference(w, 1, default, response);
    }
    let is_status = |k: &str| k.len() == 3 && k.bytes().all(|b| b.is_ascii_digit() || b == b'X');
    for (code, value) in o.iter().filter(|(k, _)| is_status(k)) {
        w.message(2, |w| {
            w.string(1, code);
            or_reference(w, 2, value, response);
        });
    }
    extensions(w, 3, o);
}

fn response(w: &mut Writer, o: &Map<String, Value>) {
    w.string(1, str_of(o, "description"));
    map_or_reference(w, 2, o, "headers", header);
    media_types(w, 3, o);
    extensions(w, 5, o);
}

fn components(w: &mut Writer, o: &Map<String, Value>) {
    map_or_reference(w, 1, o, "schemas", schema);
    map_or_reference(w, 2, o, "responses", response);
    map_or_reference(w, 3, o, "parameters", parameter);
    map_or_reference(w, 4, o, "examples", example);
    map_or_reference(w, 5, o, "requestBodies", request_body);
    map_or_reference(w, 6, o, "headers", header);
    map_or_reference(w, 7, o, "securitySchemes", security_scheme);
    extensions(w, 10, o);
}

fn security_scheme(w: &mut Writer, o: &Map<String, Value>) {
    w.string(1, str_of(o, "type"));
    w.string(2, str_of(o, "description"));
    w.string(3, str_of(o, "name"));
    w.string(4, str_of(o, "in"));
    w.string(5, str_of(o, "scheme"));
    w.string(6, str_of(o, "bearerFormat"));
    child(w, 7, o, "flows", |w, o| {
        let flows = [
            ("implicit", 1),
            ("password", 2),
            ("clientCredentials", 3),
            ("authorizationCode", 4),
        ];
        for (key, field) in flows {
            child(w, field, o, key, |w, o| {
                w.string(1, str_of(o, "authorizationUrl"));
                w.string(2, str_of(o, "tokenUrl"));
                w.string(3, str_of(o, "refreshUrl"));
                string_map(w, 4, o, "scopes");
                extensions(w, 5, o);
            });
        }
        extensions(w, 5, o);
    });
    w.string(8, str_of(o, "openIdConnectUrl"));
    extensions(w, 9, o);
}

/// `openapi.v3.Schema`.
fn schema(w: &mut Writer, o: &Map<String, Value>) {
    let double = |key: &str| o.get(key).and_then(Value::as_f64).unwrap_or(0.0);
    let int = |key: &str| o.get(key).and_then(Value::as_i64).unwrap_or(0);
    w.bool(1, bool_of(o, "nullable"));
    child(w, 2, o, "discriminator", |w, o| {
        w.string(1, str_of(o, "propertyName"));
        string_map(w, 2, o, "mapping");
        extensions(w, 3, o);
    });
    w.bool(3, bool_of(o, "readOnly"));
    w.bool(4, bool_of(o, "writeOnly"));
    child(w, 5, o, "xml", |w, o| {
        w.string(1, str_of(o, "name"));
        w.string(2, str_of(o, "namespace"));
        w.string(3, str_of(o, "prefix"));
        w.bool(4, bool_of(o, "attribute"));
        w.bool(5, bool_of(o, "wrapped"));
        extensions(w, 6, o);
    });
    child(w, 6, o, "externalDocs", external_docs);
    if let Some(example) = o.get("example") {
        any(w, 7, example);
    }
    w.bool(8, bool_of(o, "deprecated"));
    w.string(9, str_of(o, "title"));
    w.double(10, double("multipleOf"));
    w.double(11, double("maximum"));
    w.bool(12, bool_of(o, "exclusiveMaximum"));
    w.double(13, double("minimum"));
    w.bool(14, bool_of(o, "exclusiveMinimum"));
    w.int64(15, int("maxLength"));
    w.int64(16, int("minLength"));
    w.string(17, str_of(o, "pattern"));
    w.int64(18, int("maxItems"));
    w.int64(19, int("minItems"));
    w.bool(20, bool_of(o, "uniqueItems"));
    w.int64(21, int("maxProperties"));
    w.int64(22, int("minProperties"));
    strings(w, 23, o.get("required"));
    each(o, "enum").for_each(|v| any(w, 24, v));
    w.string(25, str_of(o, "type"));
    for (key, field) in [("allOf", 26), ("oneOf", 27), ("anyOf", 28)] {
        each(o, key).for_each(|s| or_reference(w, field, s, schema));
    }
    child(w, 29, o, "not", schema);
    if let Some(items) = o.get("items") {
        // ItemsItem: one schema in a repeated field.
        w.message(30, |w| or_reference(w, 1, items, schema));
    }
    map_or_reference(w, 31, o, "properties", schema);
    match o.get("additionalProperties") {
        Some(Value::Bool(b)) => w.message(32, |w| w.oneof_bool(2, *b)),
        Some(sub @ Value::Object(_)) => w.message(32, |w| or_reference(w, 1, sub, schema)),
        _ => {}
    }
    if let Some(default) = o.get("default") {
        w.message(33, |w| match default {
            Value::Number(n) => w.oneof_double(1, n.as_f64().unwrap_or(0.0)),
            Value::Bool(b) => w.oneof_bool(2, *b),
            Value::String(s) => w.oneof_string(3, s),
            _ => {}
        });
    }
    w.string(34, str_of(o, "description"));
    w.string(35, str_of(o, "format"));
    extensions(w, 36, o);
}

#[cfg(test)]
#[path = "proto_v3_decode.rs"]
mod decode;
#[cfg(test)]
#[path = "proto_v3_tests.rs"]
mod tests;
