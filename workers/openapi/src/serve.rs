//! [`Documents`]: the lazily built, cached documents and the HTTP answers for
//! `/openapi/v2`, `/openapi/v3` and `/openapi/v3/<gv>`, with kube-openapi's content
//! negotiation, ETags, `hash` query parameter and caching headers.

use crate::markers::MarkerLookup;
use crate::paths::{self, PathItem};
use crate::{accept, definitions, document, ApiResource, PatchMarkers};
use bytes::Bytes;
use http::header::{
    CACHE_CONTROL, CONTENT_TYPE, ETAG, EXPIRES, IF_MODIFIED_SINCE, IF_NONE_MATCH, LAST_MODIFIED,
    LOCATION, VARY,
};
use http::{HeaderMap, HeaderValue, Response, StatusCode};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const V2_PATH: &str = "/openapi/v2";
const V3_PATH: &str = "/openapi/v3";
/// Media types of the Swagger 2.0 document: JSON, then gnostic protobuf under its
/// deprecated and current names (kubectl asks for the deprecated one).
const V2_TYPES: &[(&str, &str)] = &[
    ("application", "json"),
    (
        "application",
        "com.github.proto-openapi.spec.v2@v1.0+protobuf",
    ),
    (
        "application",
        "com.github.proto-openapi.spec.v2.v1.0+protobuf",
    ),
];
const V2_PROTOBUF: &str = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
/// Media types of the group-version documents, as for v2 (kube-openapi's handler3).
const V3_TYPES: &[(&str, &str)] = &[
    ("application", "json"),
    (
        "application",
        "com.github.proto-openapi.spec.v3@v1.0+protobuf",
    ),
    (
        "application",
        "com.github.proto-openapi.spec.v3.v1.0+protobuf",
    ),
];
const V3_PROTOBUF: &str = "application/com.github.proto-openapi.spec.v3.v1.0+protobuf";

/// How a document is offered: JSON first, then the gnostic protobuf encoding.
struct Encodings {
    /// `(type, subtype)` pairs for [`accept::negotiate`]; index 0 is JSON.
    offered: &'static [(&'static str, &'static str)],
    /// `Content-Type` of the protobuf answer (the current name whichever was asked for).
    protobuf: &'static str,
    encode: fn(&Value) -> Vec<u8>,
}

const V2: Encodings = Encodings {
    offered: V2_TYPES,
    protobuf: V2_PROTOBUF,
    encode: crate::proto::encode_v2,
};
const V3: Encodings = Encodings {
    offered: V3_TYPES,
    protobuf: V3_PROTOBUF,
    encode: crate::proto_v3::encode_v3,
};
const ONE_YEAR: Duration = Duration::from_secs(365 * 24 * 60 * 60);

/// One serialized document.
pub(crate) struct Cached {
    pub(crate) body: Bytes,
    /// Upper-case hex SHA-512 of `body`, unquoted (it is also the `hash` parameter).
    pub(crate) etag: String,
    /// When it was serialized, whole seconds.
    modified: SystemTime,
    /// The document in gnostic protobuf, made on first request; it shares the JSON
    /// document's ETag, as upstream's does.
    protobuf: OnceLock<Bytes>,
}

impl Cached {
    pub(crate) fn new(value: &Value) -> Cached {
        let body = Bytes::from(serde_json::to_vec(value).unwrap_or_default());
        let digest = ring::digest::digest(&ring::digest::SHA512, &body);
        let etag = digest.as_ref().iter().map(|b| format!("{b:02X}")).collect();
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Cached {
            body,
            etag,
            modified: UNIX_EPOCH + Duration::from_secs(secs),
            protobuf: OnceLock::new(),
        }
    }

    /// The document in gnostic protobuf (`encode` makes it from the JSON, once).
    fn protobuf(&self, encode: fn(&Value) -> Vec<u8>) -> Bytes {
        self.protobuf
            .get_or_init(|| {
                let doc: Value = serde_json::from_slice(&self.body).unwrap_or(Value::Null);
                Bytes::from(encode(&doc))
            })
            .clone()
    }
}

/// Everything derived from the inputs, built on first use.
struct Built {
    definitions: Map<String, Value>,
    /// Path items per v3 document key (`api`, `api/v1`, `apis`, `apis/apps`, `apis/apps/v1`).
    groups: BTreeMap<String, Vec<PathItem>>,
    v3: BTreeMap<String, OnceLock<Cached>>,
    v2: OnceLock<Cached>,
    index: OnceLock<Cached>,
}

/// The OpenAPI documents of a set of served resources. Creating it is free; the schemas
/// are generated on the first request that needs them and every serialized document is
/// cached. Share it (`Arc`) between connections.
///
/// ```
/// use kas_openapi::{ApiResource, Documents, PatchMarkers};
///
/// let docs = Documents::new([ApiResource {
///     group: "",
///     version: "v1",
///     kind: "ConfigMap",
///     plural: "configmaps",
///     namespaced: true,
///     verbs: &["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
///     subresources: &[],
/// }])
/// .with_patch_markers(|_definition, _field| None::<PatchMarkers>);
/// let response = docs.respond("/openapi/v3", None, &http::HeaderMap::new()).unwrap();
/// assert_eq!(response.status(), 200);
/// assert!(docs.respond("/api/v1/configmaps", None, &http::HeaderMap::new()).is_none());
/// ```
pub struct Documents {
    resources: Vec<ApiResource>,
    lookup: Option<Box<MarkerLookup>>,
    built: OnceLock<Built>,
}

impl fmt::Debug for Documents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Documents")
            .field("resources", &self.resources.len())
            .field("patch_markers", &self.lookup.is_some())
            .field("built", &self.built.get().is_some())
            .finish()
    }
}

impl Documents {
    /// Documents for `resources`; kinds the catalog does not know get no paths.
    pub fn new(resources: impl IntoIterator<Item = ApiResource>) -> Documents {
        Documents {
            resources: resources.into_iter().collect(),
            lookup: None,
            built: OnceLock::new(),
        }
    }

    /// Adds patch-metadata extensions to every definition property `lookup` knows
    /// (`lookup("io.k8s.api.core.v1.PodSpec", "containers")`).
    pub fn with_patch_markers(
        mut self,
        lookup: impl Fn(&str, &str) -> Option<PatchMarkers> + Send + Sync + 'static,
    ) -> Documents {
        self.lookup = Some(Box::new(lookup));
        self
    }

    /// [`Documents::with_patch_markers`] taken from the schema table: each field's list
    /// type and keys, and its strategic-merge strategy and key.
    pub fn with_schema_markers(self) -> Documents {
        self.with_patch_markers(|definition, field| {
            let f = kas_schema::type_def(definition)?.field(field)?;
            if f.patch_strategy.is_none()
                && f.patch_merge_key.is_none()
                && f.list_type.is_none()
                && f.list_map_keys.is_empty()
            {
                return None;
            }
            Some(PatchMarkers {
                patch_strategy: f.patch_strategy.map(str::to_owned),
                patch_merge_key: f.patch_merge_key.map(str::to_owned),
                list_type: f.list_type.map(str::to_owned),
                list_map_keys: f.list_map_keys.iter().map(|k| (*k).to_owned()).collect(),
            })
        })
    }

    fn built(&self) -> &Built {
        self.built.get_or_init(|| {
            let mut group_versions = BTreeSet::new();
            let mut groups: BTreeMap<String, Vec<PathItem>> = BTreeMap::new();
            groups.insert("api".into(), vec![paths::discovery_core()]);
            groups.insert("apis".into(), vec![paths::discovery_apis()]);
            for r in &self.resources {
                let items = paths::for_resource(r);
                if items.is_empty() {
                    continue;
                }
                let key = r.openapi_v3_path();
                if group_versions.insert((r.group.to_owned(), r.version.to_owned())) {
                    groups
                        .entry(key.clone())
                        .or_default()
                        .push(paths::discovery_gv(r.group, r.version));
                    if !r.group.is_empty() {
                        groups
                            .entry(format!("apis/{}", r.group))
                            .or_insert_with(|| vec![paths::discovery_group(r.group)]);
                    }
                }
                groups.entry(key).or_default().extend(items);
            }
            let definitions = definitions::generate(&group_versions, self.lookup.as_deref());
            let v3 = groups
                .keys()
                .map(|k| (k.clone(), OnceLock::new()))
                .collect();
            Built {
                definitions,
                groups,
                v3,
                v2: OnceLock::new(),
                index: OnceLock::new(),
            }
        })
    }

    fn v2_cached(&self) -> &Cached {
        let built = self.built();
        built.v2.get_or_init(|| {
            let items: Vec<PathItem> = built.groups.values().flatten().cloned().collect();
            Cached::new(&document::v2(
                &items,
                &built.definitions,
                crate::KUBERNETES_VERSION,
            ))
        })
    }

    /// The Swagger 2.0 document in gnostic's protobuf encoding (`openapi.v2.Document`).
    pub fn v2_protobuf(&self) -> Bytes {
        self.v2_cached().protobuf(V2.encode)
    }

    fn v3_cached(&self, key: &str) -> Option<&Cached> {
        let built = self.built();
        let (cell, items) = (built.v3.get(key)?, built.groups.get(key)?);
        Some(cell.get_or_init(|| Cached::new(&document::v3(items, &built.definitions))))
    }

    fn index_cached(&self) -> &Cached {
        let built = self.built();
        built.index.get_or_init(|| {
            let mut paths = Map::new();
            for key in built.v3.keys() {
                if let Some(doc) = self.v3_cached(key) {
                    paths.insert(
                        key.clone(),
                        json!({ "serverRelativeURL": gv_url(key, doc) }),
                    );
                }
            }
            Cached::new(&json!({ "paths": paths }))
        })
    }

    /// The Swagger 2.0 document, serialized.
    pub fn v2_json(&self) -> Bytes {
        self.v2_cached().body.clone()
    }

    /// The `/openapi/v3` index, serialized.
    pub fn v3_index_json(&self) -> Bytes {
        self.index_cached().body.clone()
    }

    /// The OpenAPI v3 document of `gv_path` (`api/v1`, `apis/apps/v1`), serialized.
    pub fn v3_json(&self, gv_path: &str) -> Option<Bytes> {
        self.v3_cached(gv_path).map(|c| c.body.clone())
    }

    /// The OpenAPI v3 document of `gv_path` in gnostic's protobuf encoding
    /// (`openapi.v3.Document`).
    pub fn v3_protobuf(&self, gv_path: &str) -> Option<Bytes> {
        self.v3_cached(gv_path).map(|c| c.protobuf(V3.encode))
    }

    /// The answer to a GET (or HEAD) of `path`, or `None` if `path` is not an OpenAPI
    /// path. `query` is the raw query string, without `?`.
    pub fn respond(
        &self,
        path: &str,
        query: Option<&str>,
        headers: &HeaderMap,
    ) -> Option<Response<Bytes>> {
        if path == V2_PATH {
            return Some(respond_v2(self.v2_cached(), headers));
        }
        if path == V3_PATH {
            return Some(serve(self.index_cached(), headers, false, false));
        }
        let key = gv_key(path)?;
        if !self.built().v3.contains_key(key) {
            return Some(simple(StatusCode::NOT_FOUND, "404 page not found\n"));
        }
        respond_gv(key, query, headers, || self.v3_cached(key))
    }
}

/// `/openapi/v2`: 406 unless JSON or gnostic protobuf is acceptable, else the document in
/// the negotiated encoding, or 304.
fn respond_v2(doc: &Cached, headers: &HeaderMap) -> Response<Bytes> {
    match accept::negotiate(headers, V2.offered) {
        None => not_acceptable(),
        Some(choice) => serve_encoded(doc, headers, &V2, choice, false),
    }
}

/// [`serve`] (with `Vary: Accept`) in the encoding `choice` of `encodings` picked: JSON
/// for 0, else protobuf. Both encodings share one ETag.
fn serve_encoded(
    doc: &Cached,
    headers: &HeaderMap,
    encodings: &Encodings,
    choice: usize,
    immutable: bool,
) -> Response<Bytes> {
    let mut response = serve(doc, headers, true, immutable);
    if choice > 0 && response.status() == StatusCode::OK {
        *response.body_mut() = doc.protobuf(encodings.encode);
        insert(&mut response, CONTENT_TYPE, encodings.protobuf);
    }
    response
}

/// A finished document served as it is: the aggregator's merge of its back ends'
/// `/openapi/v2` documents, or of their `/openapi/v3` indexes. Served with the same
/// negotiation, encodings, ETag and caching headers as [`Documents`] serves its own.
pub struct MergedDocument {
    doc: Cached,
}

impl fmt::Debug for MergedDocument {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MergedDocument")
            .field("etag", &self.doc.etag)
            .finish()
    }
}

impl MergedDocument {
    /// Serializes `doc` once.
    pub fn new(doc: &Value) -> MergedDocument {
        MergedDocument {
            doc: Cached::new(doc),
        }
    }

    /// The answer to a GET of `/openapi/v2` with this document.
    pub fn respond_v2(&self, headers: &HeaderMap) -> Response<Bytes> {
        respond_v2(&self.doc, headers)
    }

    /// The answer to a GET of the `/openapi/v3` index with this document.
    pub fn respond_v3_index(&self, headers: &HeaderMap) -> Response<Bytes> {
        serve(&self.doc, headers, false, false)
    }
}

/// The key of a group-version document path (`/openapi/v3/apis/apps/v1` → `apis/apps/v1`).
pub(crate) fn gv_key(path: &str) -> Option<&str> {
    path.strip_prefix(V3_PATH)?.strip_prefix('/')
}

/// The `serverRelativeURL` of a group-version document in the `/openapi/v3` index.
pub(crate) fn gv_url(key: &str, doc: &Cached) -> String {
    format!("{V3_PATH}/{key}?hash={}", doc.etag)
}

/// The answer to a GET of the group-version document `key`: 406 unless JSON or gnostic
/// protobuf is acceptable, a redirect for a stale `hash`, else the document (`doc` builds
/// it) in the negotiated encoding or 304, immutable when the `hash` matches.
pub(crate) fn respond_gv<'a>(
    key: &str,
    query: Option<&str>,
    headers: &HeaderMap,
    doc: impl FnOnce() -> Option<&'a Cached>,
) -> Option<Response<Bytes>> {
    let Some(choice) = accept::negotiate(headers, V3.offered) else {
        return Some(not_acceptable());
    };
    let doc = doc()?;
    let hash = query.and_then(|q| {
        q.split('&')
            .find_map(|pair| pair.strip_prefix("hash="))
            .filter(|h| !h.is_empty())
    });
    match hash {
        Some(hash) if hash != doc.etag => {
            let mut response = simple(StatusCode::MOVED_PERMANENTLY, "");
            insert(&mut response, LOCATION, &gv_url(key, doc));
            Some(response)
        }
        Some(_) => Some(serve_encoded(doc, headers, &V3, choice, true)),
        None => Some(serve_encoded(doc, headers, &V3, choice, false)),
    }
}

fn insert(response: &mut Response<Bytes>, name: http::HeaderName, value: &str) {
    if let Ok(value) = HeaderValue::from_str(value) {
        response.headers_mut().insert(name, value);
    }
}

fn simple(status: StatusCode, body: &'static str) -> Response<Bytes> {
    let mut response = Response::new(Bytes::from_static(body.as_bytes()));
    *response.status_mut() = status;
    if !body.is_empty() {
        insert(&mut response, CONTENT_TYPE, "text/plain; charset=utf-8");
    }
    response
}

fn not_acceptable() -> Response<Bytes> {
    let mut response = simple(StatusCode::NOT_ACCEPTABLE, "");
    insert(&mut response, VARY, "Accept");
    response
}

/// Whether the request's validators say the client's copy is current.
fn not_modified(doc: &Cached, headers: &HeaderMap) -> bool {
    let quoted = format!("\"{}\"", doc.etag);
    let if_none_match: Vec<&HeaderValue> = headers.get_all(IF_NONE_MATCH).iter().collect();
    if !if_none_match.is_empty() {
        return if_none_match
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|tag| {
                let tag = tag.trim();
                tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == quoted
            });
    }
    headers
        .get(IF_MODIFIED_SINCE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| httpdate::parse_http_date(v).ok())
        .is_some_and(|since| doc.modified <= since)
}

/// 200 with the document, or 304. `vary` adds `Vary: Accept`; `immutable` (a matching
/// `hash`) adds `Cache-Control: public, immutable` and a one-year `Expires`.
fn serve(doc: &Cached, headers: &HeaderMap, vary: bool, immutable: bool) -> Response<Bytes> {
    let fresh = not_modified(doc, headers);
    let mut response = if fresh {
        simple(StatusCode::NOT_MODIFIED, "")
    } else {
        let mut response = Response::new(doc.body.clone());
        insert(&mut response, CONTENT_TYPE, "application/json");
        response
    };
    insert(&mut response, ETAG, &format!("\"{}\"", doc.etag));
    insert(
        &mut response,
        LAST_MODIFIED,
        &httpdate::fmt_http_date(doc.modified),
    );
    if vary {
        insert(&mut response, VARY, "Accept");
    }
    if immutable {
        insert(&mut response, CACHE_CONTROL, "public, immutable");
        insert(
            &mut response,
            EXPIRES,
            &httpdate::fmt_http_date(SystemTime::now() + ONE_YEAR),
        );
    }
    response
}

#[cfg(test)]
#[path = "serve_tests.rs"]
mod tests;
