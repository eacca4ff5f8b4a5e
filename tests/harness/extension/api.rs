//! What the extension server says about itself: discovery (`/apis` legacy and aggregated
//! v2/v2beta1, the group, the version's resource list) and OpenAPI (v2, the v3 index and
//! the group-version's v3 document), with `x-kubernetes-group-version-kind` on the kinds
//! so `kubectl explain` finds them.

use std::hash::{DefaultHasher, Hash, Hasher};

use bytes::Bytes;
use http::{HeaderValue, StatusCode};
use serde_json::{json, Map, Value};

use super::reply::{accepts_json, json_response, not_acceptable, not_found_path, respond, Call};
use super::store::{Kind, VERBS};
use super::{Resp, GROUP, GROUP_VERSION, VERSION};

/// The aggregated discovery version the client asks for (`v2` preferred), if any.
fn aggregated_version(accept: &str) -> Option<&'static str> {
    let asks = |v: &str| {
        accept.split(',').any(|clause| {
            let params: Vec<&str> = clause.split(';').map(str::trim).collect();
            params.contains(&"g=apidiscovery.k8s.io")
                && params.contains(&"as=APIGroupDiscoveryList")
                && params.contains(&format!("v={v}").as_str())
        })
    };
    ["v2", "v2beta1"].into_iter().find(|v| asks(v))
}

/// A JSON answer with an ETag; 304 when the client already has it.
fn cached(call: &Call, content_type: &str, v: &Value) -> Resp {
    let body = serde_json::to_vec(v).unwrap_or_default();
    let etag = format!("\"{}\"", hash_hex(&body));
    let fresh = call
        .headers
        .get(http::header::IF_NONE_MATCH)
        .is_some_and(|h| h.as_bytes() == etag.as_bytes());
    let mut resp = if fresh {
        respond(StatusCode::NOT_MODIFIED, content_type, Bytes::new())
    } else {
        respond(StatusCode::OK, content_type, Bytes::from(body))
    };
    let headers = resp.headers_mut();
    if let Ok(e) = HeaderValue::from_str(&etag) {
        headers.insert(http::header::ETAG, e);
    }
    headers.insert(http::header::VARY, HeaderValue::from_static("Accept"));
    resp
}

fn hash_hex(bytes: &[u8]) -> String {
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    format!("{:016X}", h.finish())
}

fn version_ref() -> Value {
    json!({"groupVersion": GROUP_VERSION, "version": VERSION})
}

fn api_group() -> Value {
    json!({
        "name": GROUP,
        "versions": [version_ref()],
        "preferredVersion": version_ref(),
    })
}

/// `/apis`: an APIGroupList, or an APIGroupDiscoveryList when asked for one and
/// `aggregated` (else the APIGroupList whatever is asked, as older servers answer).
pub(crate) fn group_list(call: &Call, aggregated: bool) -> Resp {
    if let Some(v) = aggregated_version(call.accept()).filter(|_| aggregated) {
        let ct = format!("application/json;g=apidiscovery.k8s.io;v={v};as=APIGroupDiscoveryList");
        let list = json!({
            "kind": "APIGroupDiscoveryList",
            "apiVersion": format!("apidiscovery.k8s.io/{v}"),
            "metadata": {},
            "items": [{
                "metadata": {"name": GROUP, "creationTimestamp": null},
                "versions": [{
                    "version": VERSION,
                    "resources": Kind::ALL.map(discovery_resource),
                    "freshness": "Current",
                }],
            }],
        });
        return cached(call, &ct, &list);
    }
    if aggregated && !accepts_json(call.accept()) {
        return not_acceptable();
    }
    let list = json!({"kind": "APIGroupList", "apiVersion": "v1", "groups": [api_group()]});
    cached(call, "application/json", &list)
}

fn discovery_resource(k: Kind) -> Value {
    json!({
        "resource": k.plural(),
        "responseKind": {"group": GROUP, "version": VERSION, "kind": k.name()},
        "scope": if k.namespaced() { "Namespaced" } else { "Cluster" },
        "singularResource": k.singular(),
        "verbs": VERBS,
        "shortNames": k.short_names(),
        "categories": k.categories(),
    })
}

/// `/apis/wardle.example.com`: the APIGroup.
pub(crate) fn group(call: &Call) -> Resp {
    if !accepts_json(call.accept()) {
        return not_acceptable();
    }
    let mut g = api_group();
    g["kind"] = json!("APIGroup");
    g["apiVersion"] = json!("v1");
    cached(call, "application/json", &g)
}

/// `/apis/wardle.example.com/v1alpha1`: the APIResourceList.
pub(crate) fn resource_list(call: &Call) -> Resp {
    if !accepts_json(call.accept()) {
        return not_acceptable();
    }
    let resources = Kind::ALL.map(|k| {
        json!({
            "name": k.plural(),
            "singularName": k.singular(),
            "namespaced": k.namespaced(),
            "kind": k.name(),
            "verbs": VERBS,
            "shortNames": k.short_names(),
            "categories": k.categories(),
        })
    });
    let list = json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": GROUP_VERSION,
        "resources": resources,
    });
    cached(call, "application/json", &list)
}

/// Definition names, as the sample-apiserver's generated OpenAPI names them.
const DEF_PREFIX: &str = "io.k8s.sample-apiserver.pkg.apis.wardle.v1alpha1.";
const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const LIST_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";

fn gvk(k: &str) -> Value {
    json!([{"group": GROUP, "kind": k, "version": VERSION}])
}

fn string(description: &str) -> Value {
    json!({"type": "string", "description": description})
}

/// The schemas, with references made from `refs` (`#/definitions/` for v2,
/// `#/components/schemas/` for v3).
fn schemas(refs: &str) -> Map<String, Value> {
    let r = |name: &str| json!({"$ref": format!("{refs}{name}")});
    let typemeta = |o: Value| -> Value {
        let mut props = json!({
            "apiVersion": string("APIVersion defines the versioned schema of this representation of an object."),
            "kind": string("Kind is a string value representing the REST resource this object represents."),
        });
        if let (Some(p), Some(extra)) = (props.as_object_mut(), o.as_object()) {
            p.extend(extra.clone());
        }
        props
    };
    let mut defs = Map::new();
    let flunder = format!("{DEF_PREFIX}Flunder");
    defs.insert(flunder.clone(), json!({
        "description": "Flunder is an example type with a reference to another flunder or a fischer.",
        "type": "object",
        "properties": typemeta(json!({
            "metadata": r(OBJECT_META),
            "spec": r(&format!("{DEF_PREFIX}FlunderSpec")),
            "status": r(&format!("{DEF_PREFIX}FlunderStatus")),
        })),
        "x-kubernetes-group-version-kind": gvk("Flunder"),
    }));
    defs.insert(format!("{DEF_PREFIX}FlunderSpec"), json!({
        "description": "FlunderSpec is the specification of a Flunder.",
        "type": "object",
        "properties": {
            "reference": string("A name of another flunder or fischer, depending on the reference type."),
            "referenceType": string("The type of the reference: Flunder or Fischer."),
        },
    }));
    defs.insert(
        format!("{DEF_PREFIX}FlunderStatus"),
        json!({
            "description": "FlunderStatus is the observed state of a Flunder.",
            "type": "object",
        }),
    );
    defs.insert(format!("{DEF_PREFIX}Fischer"), json!({
        "description": "Fischer is a cluster-wide list of flunders a flunder may not reference.",
        "type": "object",
        "properties": typemeta(json!({
            "metadata": r(OBJECT_META),
            "disallowedFlunders": {
                "description": "DisallowedFlunders holds a list of Flunder names that are not allowed.",
                "type": "array", "items": {"type": "string", "default": ""},
            },
        })),
        "x-kubernetes-group-version-kind": gvk("Fischer"),
    }));
    for k in ["Flunder", "Fischer"] {
        defs.insert(
            format!("{DEF_PREFIX}{k}List"),
            json!({
                "description": format!("{k}List is a list of {k} objects."),
                "type": "object",
                "required": ["items"],
                "properties": typemeta(json!({
                    "metadata": r(LIST_META),
                    "items": {"type": "array", "items": r(&format!("{DEF_PREFIX}{k}"))},
                })),
                "x-kubernetes-group-version-kind": gvk(&format!("{k}List")),
            }),
        );
    }
    defs.insert(OBJECT_META.to_owned(), object_meta());
    defs.insert(LIST_META.to_owned(), json!({
        "description": "ListMeta describes metadata that synthetic resources must have.",
        "type": "object",
        "properties": {
            "continue": string("continue may be set if the user set a limit on the number of items returned."),
            "remainingItemCount": {"type": "integer", "format": "int64"},
            "resourceVersion": string("String that identifies the server's internal version of this object."),
            "selfLink": string("Deprecated: selfLink is a legacy read-only field."),
        },
    }));
    defs
}

fn object_meta() -> Value {
    let map = json!({"type": "object", "additionalProperties": {"type": "string", "default": ""}});
    let objects = json!({"type": "array", "items": {"type": "object"}});
    json!({
        "description": "ObjectMeta is metadata that all persisted resources must have.",
        "type": "object",
        "properties": {
            "annotations": map,
            "creationTimestamp": {"type": "string", "format": "date-time"},
            "deletionGracePeriodSeconds": {"type": "integer", "format": "int64"},
            "deletionTimestamp": {"type": "string", "format": "date-time"},
            "finalizers": {"type": "array", "items": {"type": "string", "default": ""}},
            "generateName": string("GenerateName is an optional prefix used by the server to generate a unique name."),
            "generation": {"type": "integer", "format": "int64"},
            "labels": map,
            "managedFields": objects,
            "name": string("Name must be unique within a namespace."),
            "namespace": string("Namespace defines the space within which each name must be unique."),
            "ownerReferences": objects,
            "resourceVersion": string("An opaque value that represents the internal version of this object."),
            "selfLink": string("Deprecated: selfLink is a legacy read-only field."),
            "uid": string("UID is the unique in time and space value for this object."),
        },
    })
}

/// Operations on the kinds' paths, for `v3` or v2 shapes.
fn paths(v3: bool, refs: &str) -> Map<String, Value> {
    let param = |name: &str, place: &str| -> Value {
        if v3 {
            json!({"name": name, "in": place, "required": place == "path", "schema": {"type": "string", "uniqueItems": true}})
        } else {
            json!({"name": name, "in": place, "required": place == "path", "type": "string", "uniqueItems": true})
        }
    };
    let respond_with = |def: &str| -> Value {
        let schema = json!({"$ref": format!("{refs}{DEF_PREFIX}{def}")});
        if v3 {
            json!({"200": {"description": "OK", "content": {"application/json": {"schema": schema}}}})
        } else {
            json!({"200": {"description": "OK", "schema": schema}})
        }
    };
    let op = |action: &str, id: &str, k: Kind, out: &str| -> Value {
        let mut o = json!({
            "operationId": id,
            "tags": ["wardleExampleCom_v1alpha1"],
            "responses": respond_with(out),
            "x-kubernetes-action": action,
            "x-kubernetes-group-version-kind": {"group": GROUP, "kind": k.name(), "version": VERSION},
        });
        // The writes take fieldValidation, as k8s.io/apiserver's do: kubectl then
        // leaves unknown-field checks to the server.
        if matches!(action, "post" | "put" | "patch") {
            o["parameters"] = json!([param("fieldValidation", "query"), param("dryRun", "query")]);
        }
        o
    };
    let mut out = Map::new();
    for k in Kind::ALL {
        let (name, list) = (k.name(), format!("{}List", k.name()));
        let scoped = if k.namespaced() { "Namespaced" } else { "" };
        let base = format!("/apis/{GROUP_VERSION}");
        let collection = if k.namespaced() {
            format!("{base}/namespaces/{{namespace}}/{}", k.plural())
        } else {
            format!("{base}/{}", k.plural())
        };
        let mut common = vec![param("pretty", "query")];
        if k.namespaced() {
            common.push(param("namespace", "path"));
        }
        out.insert(
            collection.clone(),
            json!({
                "get": op("list", &format!("listWardleV1alpha1{scoped}{name}"), k, &list),
                "post": op("post", &format!("createWardleV1alpha1{scoped}{name}"), k, name),
                "parameters": common.clone(),
            }),
        );
        let mut item_params = common.clone();
        item_params.push(param("name", "path"));
        out.insert(
            format!("{collection}/{{name}}"),
            json!({
                "get": op("get", &format!("readWardleV1alpha1{scoped}{name}"), k, name),
                "put": op("put", &format!("replaceWardleV1alpha1{scoped}{name}"), k, name),
                "patch": op("patch", &format!("patchWardleV1alpha1{scoped}{name}"), k, name),
                "delete": op("delete", &format!("deleteWardleV1alpha1{scoped}{name}"), k, name),
                "parameters": item_params,
            }),
        );
        if k.namespaced() {
            out.insert(format!("{base}/{}", k.plural()), json!({
                "get": op("list", &format!("listWardleV1alpha1{name}ForAllNamespaces"), k, &list),
                "parameters": [param("pretty", "query")],
            }));
        }
    }
    out
}

fn info() -> Value {
    json!({"title": "Wardle", "version": "v0.1.0"})
}

/// Whether the client takes a JSON OpenAPI document (kubectl asks v2 for protobuf only).
fn accepts_openapi_json(accept: &str) -> bool {
    accept.trim().is_empty()
        || accept
            .split(',')
            .map(|c| c.split(';').next().unwrap_or("").trim())
            .any(|m| matches!(m, "*/*" | "application/*" | "application/json"))
}

/// `/openapi/v2`: Swagger 2.0, JSON only (406 for the protobuf form).
pub(crate) fn openapi_v2(call: &Call) -> Resp {
    if !accepts_openapi_json(call.accept()) {
        return not_acceptable();
    }
    let refs = "#/definitions/";
    let doc = json!({
        "swagger": "2.0",
        "info": info(),
        "paths": paths(false, refs),
        "definitions": schemas(refs),
    });
    cached(call, "application/json", &doc)
}

fn v3_group_version() -> Value {
    let refs = "#/components/schemas/";
    json!({
        "openapi": "3.0.0",
        "info": info(),
        "paths": paths(true, refs),
        "components": {"schemas": schemas(refs)},
    })
}

fn v3_group() -> Value {
    json!({
        "openapi": "3.0.0",
        "info": info(),
        "paths": {format!("/apis/{GROUP}/"): {"get": {
            "operationId": "getWardleExampleComAPIGroup",
            "responses": {"200": {"description": "OK"}},
        }}},
        "components": {},
    })
}

fn v3_docs() -> [(String, Value); 2] {
    [
        (format!("apis/{GROUP_VERSION}"), v3_group_version()),
        (format!("apis/{GROUP}"), v3_group()),
    ]
}

fn doc_hash(doc: &Value) -> String {
    hash_hex(&serde_json::to_vec(doc).unwrap_or_default())
}

/// `/openapi/v3`: the index of the documents, each with its hash.
pub(crate) fn openapi_v3_index(call: &Call) -> Resp {
    if !accepts_openapi_json(call.accept()) {
        return not_acceptable();
    }
    let mut paths = Map::new();
    for (path, doc) in v3_docs() {
        let url = format!("/openapi/v3/{path}?hash={}", doc_hash(&doc));
        paths.insert(path, json!({"serverRelativeURL": url}));
    }
    cached(call, "application/json", &json!({"paths": paths}))
}

/// `/openapi/v3/<path>`: the document; a stale `hash` is redirected to the current one,
/// as upstream does.
pub(crate) fn openapi_v3_doc(call: &Call) -> Resp {
    if !accepts_openapi_json(call.accept()) {
        return not_acceptable();
    }
    let wanted = call.path.trim_start_matches("/openapi/v3/");
    let Some((path, doc)) = v3_docs().into_iter().find(|(p, _)| p == wanted) else {
        return not_found_path();
    };
    let hash = doc_hash(&doc);
    match call.param("hash") {
        Some(h) if h != hash => {
            let mut resp = respond(StatusCode::MOVED_PERMANENTLY, "text/plain", Bytes::new());
            if let Ok(loc) = HeaderValue::from_str(&format!("/openapi/v3/{path}?hash={hash}")) {
                resp.headers_mut().insert(http::header::LOCATION, loc);
            }
            resp
        }
        Some(_) => {
            let mut resp = json_response(StatusCode::OK, &doc);
            resp.headers_mut().insert(
                http::header::CACHE_CONTROL,
                HeaderValue::from_static("public, immutable"),
            );
            resp
        }
        None => cached(call, "application/json", &doc),
    }
}
