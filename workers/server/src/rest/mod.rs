//! The generic REST store: one implementation of kube-apiserver's verbs (get, list, watch,
//! create, update, patch, delete, deletecollection) and of the `status` and `scale`
//! subresources over the storage layer, for any resource described by a [`Resource`]
//! (data, not a module per resource).
//!
//! Objects are JSON. Request bodies are decoded by type (JSON, YAML or Kubernetes
//! protobuf; unknown fields reported per `fieldValidation`); metadata is handled as
//! upstream does (uid, creationTimestamp, generation, generateName, finalizers and
//! deletionTimestamp, managedFields); lists apply label and field selectors and paginate
//! from one revision; watches stream ADDED/MODIFIED/DELETED, BOOKMARK when asked, and an
//! ERROR 410 once compacted; GET, LIST and WATCH render Tables when asked; storage
//! outages answer 503.

mod admit;
mod apply_schema;
pub mod body_type;
mod callbacks;
mod computed;
mod convert;
mod decode;
mod delete;
mod dispatch;
mod equivalent;
#[cfg(fuzzing)]
pub(crate) mod fuzzing;
mod graceful;
mod guaranteed;
mod hooks;
mod managed;
mod meta;
mod outlet;
mod patch;
mod query;
mod read;
mod render;
mod resource;
mod scale_fields;
mod strategic;
mod strategy;
mod subresource_write;
mod table;
mod watch;
mod write;
mod write_options;
mod yaml_depth;

pub use callbacks::{
    no_defaults, no_prepare, no_validation, no_warnings, Conversion, Defaults, GracePeriod,
    Prepare, Validate, Warnings,
};
pub use guaranteed::Preconditions;
pub use hooks::{HookFuture, Hooks};
pub use kas_schema::FieldValidation;
pub use meta::{
    add_to_set, forbidden, invalid, invalid_value, mask_trailing_dash, not_supported, now,
    path_segment_msgs, random_suffix, required, too_long,
};
pub use query::Query;
pub(crate) use render::Render;
pub use resource::{Column, NameRule, Resource, RowOrder, ScaleSpec, Verbs};
pub use strategy::{
    cell, json_path, set_path, ConvertFuture, Converter, DynColumn, ObjectStrategy, ScalePaths,
};
pub use table::age;
pub use write_options::WriteOptions;

use std::sync::Arc;

use http::header::CONTENT_TYPE;
use http::{HeaderValue, Response, StatusCode};
use serde_json::{json, Value};

use crate::body::{self, Body};
use crate::encode;
use crate::status::{Reason, Status};
use crate::storage::{Storage, StorageError, Stored};

/// Subresources that connect the client to something else (a kubelet, a pod): their
/// requests go to the resource's hooks as they came.
const CONNECT_SUBRESOURCES: &[&str] = &["attach", "exec", "log", "portforward", "proxy"];

/// The feature gates the server was started with (`--feature-gates`), set once per
/// worker process.
static FEATURE_GATES: std::sync::OnceLock<Vec<(String, bool)>> = std::sync::OnceLock::new();

/// Kubernetes v1.33's defaults of the gates the REST store looks at.
const GATE_DEFAULTS: &[(&str, bool)] = &[("WatchList", false)];

/// Records `--feature-gates` for this process.
pub fn set_feature_gates(gates: &[(String, bool)]) {
    let _ = FEATURE_GATES.set(gates.to_vec());
}

/// Whether feature gate `name` is on.
pub(crate) fn feature_enabled(name: &str) -> bool {
    FEATURE_GATES
        .get()
        .and_then(|g| g.iter().rev().find(|(n, _)| n == name).map(|(_, on)| *on))
        .or_else(|| {
            GATE_DEFAULTS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, on)| *on)
        })
        .unwrap_or(false)
}

/// The largest request body accepted (kube-apiserver's limit).
const MAX_BODY: usize = 3 << 20;

/// The generic store for one resource.
#[derive(Clone)]
pub struct RestStore {
    resource: Resource,
    storage: Storage,
    min_request_timeout: std::time::Duration,
    hooks: Option<Arc<dyn Hooks>>,
    cache: Option<crate::cache::Cacher>,
    strategy: Option<Arc<dyn ObjectStrategy>>,
    admission: Option<Arc<crate::admission::Chain>>,
    /// The resources sharing this one's storage in other versions and groups.
    equivalents: Arc<[Resource]>,
}

impl std::fmt::Debug for RestStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RestStore")
            .field("resource", &self.resource.plural)
            .finish_non_exhaustive()
    }
}

pub(crate) fn json_response(code: StatusCode, v: &Value) -> Response<Body> {
    let mut resp = Response::new(body::full(encode::json_document(v)));
    *resp.status_mut() = code;
    resp.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

/// Adds `Warning: 299 - "<text>"` headers, as upstream reports decoding warnings.
pub(crate) fn with_warnings(mut resp: Response<Body>, warnings: &[String]) -> Response<Body> {
    for w in warnings {
        let text = format!("299 - {}", serde_json::Value::String(w.clone()));
        if let Ok(v) = HeaderValue::from_str(&text) {
            resp.headers_mut().append("warning", v);
        }
    }
    resp
}

/// Hands admission's audit annotations back to the front door, which writes the events
/// (see [`kas_proto::AUDIT_ANNOTATIONS_HEADER`]); the first value of a key wins. With
/// them the written object as decoded and defaulted, when it was kept
/// ([`kas_proto::AUDIT_REQUEST_OBJECT_HEADER`]).
fn with_audit_annotations(
    mut resp: Response<Body>,
    recorder: &crate::admission::Recorder,
) -> Response<Body> {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    if let Some(object) = recorder.take_request_object() {
        let value = crate::compress::gzip(object.to_string().as_bytes()).map(|z| b64.encode(z));
        let value = value.filter(|v| v.len() <= kas_proto::AUDIT_REQUEST_OBJECT_MAX);
        if let Some(v) = value.and_then(|v| HeaderValue::from_str(&v).ok()) {
            resp.headers_mut()
                .insert(kas_proto::AUDIT_REQUEST_OBJECT_HEADER, v);
        }
    }
    let annotations = recorder.annotations();
    if annotations.is_empty() {
        return resp;
    }
    let mut map = serde_json::Map::new();
    for (k, v) in annotations {
        map.entry(k).or_insert_with(|| Value::String(v));
    }
    let json = Value::Object(map).to_string();
    let value = b64.encode(json);
    if let Ok(v) = HeaderValue::from_str(&value) {
        resp.headers_mut()
            .insert(kas_proto::AUDIT_ANNOTATIONS_HEADER, v);
    }
    resp
}

pub(crate) fn bad_request(msg: impl Into<String>) -> Status {
    Status::new(Reason::BadRequest, msg)
}

/// Sets `metadata.resourceVersion` of a stored object.
/// Whether `v` holds an empty list or map anywhere but in `metadata.managedFields` (whose
/// field sets are stored as raw JSON, as they are).
fn has_empty_collection(v: &Value, top: bool) -> bool {
    match v {
        Value::Array(items) => {
            items.is_empty() || items.iter().any(|i| has_empty_collection(i, false))
        }
        Value::Object(map) => {
            map.is_empty()
                || map.iter().any(|(k, child)| {
                    if top && k == "metadata" {
                        child.as_object().is_some_and(|m| {
                            m.is_empty()
                                || m.iter().any(|(k, c)| {
                                    k != "managedFields" && has_empty_collection(c, false)
                                })
                        })
                    } else {
                        has_empty_collection(child, false)
                    }
                })
        }
        _ => false,
    }
}

pub(crate) fn with_revision(mut obj: Value, revision: i64) -> Value {
    if let Some(meta) = meta::metadata_mut(&mut obj) {
        meta.insert("resourceVersion".into(), json!(revision.to_string()));
    }
    obj
}

/// The revision in an object's `metadata.resourceVersion`, for a compare-and-swap update
/// of what was read (`None` when it has none).
pub fn revision_of(obj: &Value) -> Option<i64> {
    obj.pointer("/metadata/resourceVersion")
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok())
}

pub(crate) fn parse_rv(s: &str) -> Result<i64, Status> {
    s.parse::<i64>()
        .ok()
        .filter(|r| *r >= 0)
        .ok_or_else(|| bad_request(format!("invalid resource version: {s:?}")))
}

impl RestStore {
    /// A store for `resource` on `storage`.
    pub fn new(
        resource: Resource,
        storage: Storage,
        min_request_timeout: std::time::Duration,
    ) -> RestStore {
        let kind = if resource.group.is_empty() {
            resource.plural.to_owned()
        } else {
            format!("{}.{}", resource.plural, resource.group)
        };
        RestStore {
            storage: storage.for_kind(&kind),
            resource,
            min_request_timeout,
            hooks: None,
            cache: None,
            strategy: None,
            admission: None,
            equivalents: Arc::from(Vec::new()),
        }
    }

    /// The same store with a run-time strategy (custom resources).
    pub fn with_strategy(mut self, strategy: Arc<dyn ObjectStrategy>) -> RestStore {
        self.strategy = Some(strategy);
        self
    }

    /// A stored object as this version shows it: for versions served from another
    /// version's storage, with this version's apiVersion.
    pub(crate) fn present(&self, mut obj: Value) -> Value {
        if let Some(c) = self.resource.conversion {
            if obj.is_object() {
                c.version_shape(&mut obj, &self.resource.api_version());
            }
            return obj;
        }
        if !self.resource.storage_version.is_empty() {
            if let Some(o) = obj.as_object_mut() {
                o.insert("apiVersion".into(), json!(self.resource.api_version()));
            }
        }
        obj
    }

    /// `obj` as a read will show it once stored as `bytes` (from [`Self::storage_bytes`]),
    /// as upstream answers a write with what it decoded from the stored value: empty
    /// lists and maps do not survive protobuf. Objects without any are passed as they are,
    /// and so are those stored in another version.
    pub(crate) fn as_stored(&self, obj: Value, bytes: &[u8]) -> Value {
        let api_version = self.resource.api_version();
        let same_version = self
            .resource
            .conversion
            .is_none_or(|c| c.storage_api_version == api_version)
            && self.resource.storage_version.is_empty();
        if !same_version || !has_empty_collection(&obj, true) {
            return obj;
        }
        self.storage.reread(bytes).unwrap_or(obj)
    }

    /// The bytes to store for `obj` under `key`: with the storage version's apiVersion,
    /// in the storage media type (encoded here, from the object, so the write does not
    /// parse its JSON again).
    pub(crate) fn storage_bytes(&self, key: &str, obj: &Value) -> Result<Vec<u8>, Status> {
        let encode = |o: &Value| self.storage.encode(key, o).map_err(Status::internal);
        if let Some(c) = self.resource.conversion {
            let mut o = obj.clone();
            c.store_shape(&mut o);
            return encode(&o);
        }
        if self.resource.storage_version.is_empty() {
            return encode(obj);
        }
        let mut o = obj.clone();
        let av = if self.resource.group.is_empty() {
            self.resource.storage_version.to_owned()
        } else {
            format!("{}/{}", self.resource.group, self.resource.storage_version)
        };
        o["apiVersion"] = json!(av);
        encode(&o)
    }

    /// A cached object's JSON as this store shows it (with its resourceVersion):
    /// serialized once per object version and shared by every LIST and WATCH.
    pub(crate) fn encoded(&self, o: &crate::cache::CachedObject) -> bytes::Bytes {
        o.encoded(|s| {
            serde_json::from_slice::<Value>(&s.value)
                .ok()
                .map(|v| {
                    let shown = self.present(with_revision(v, s.revision));
                    bytes::Bytes::from(kas_schema::to_json_vec(&shown))
                })
                .unwrap_or_default()
        })
    }

    /// The dynamic printer columns, if the strategy has them.
    pub(crate) fn dyn_columns(&self) -> Option<Vec<DynColumn>> {
        self.strategy.as_ref().and_then(|s| s.columns())
    }

    /// The same store serving LIST, GET with a resourceVersion, and WATCH from a watch
    /// cache of its resource (started now).
    pub fn with_cache(mut self) -> RestStore {
        let prefix = self.storage.list_prefix(self.resource.key_path, None);
        self.cache = Some(crate::cache::Cacher::new(
            self.storage.clone(),
            &prefix,
            crate::cache::CacheConfig::default(),
        ));
        self
    }

    /// The same store with resource-specific hooks around writes.
    pub fn with_hooks(mut self, hooks: Arc<dyn Hooks>) -> RestStore {
        self.hooks = Some(hooks);
        self
    }

    /// The hooks given with [`RestStore::with_hooks`], if any.
    pub fn hooks(&self) -> Option<&Arc<dyn Hooks>> {
        self.hooks.as_ref()
    }

    /// The same store, its clients' writes passing `chain` (admission).
    pub fn with_admission(mut self, chain: Arc<crate::admission::Chain>) -> RestStore {
        self.admission = Some(chain);
        self
    }

    /// The resource this store serves.
    pub fn resource(&self) -> &Resource {
        &self.resource
    }

    /// The storage the store writes to.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    pub(crate) fn key(&self, ns: &str, name: &str) -> String {
        let ns = self.resource.namespaced.then_some(ns);
        self.storage.key(self.resource.key_path, ns, name)
    }

    pub(crate) fn prefix(&self, ns: &str) -> String {
        let ns = (self.resource.namespaced && !ns.is_empty()).then_some(ns);
        self.storage.list_prefix(self.resource.key_path, ns)
    }
}

impl RestStore {
    /// A decoded body pruned by the run-time strategy, unknown fields reported per
    /// `fieldValidation` as upstream reports them for custom resources.
    fn pruned(
        &self,
        mut body: decode::Decoded,
        opts: &WriteOptions,
    ) -> Result<decode::Decoded, Status> {
        let Some(strategy) = &self.strategy else {
            return Ok(body);
        };
        let unknown = strategy.prune(&mut body.object);
        unknown_fields(unknown, opts, &mut body.warnings)
            .map_err(|e| decode::cannot_be_handled(&self.resource, e.message))?;
        Ok(body)
    }
}

/// Whether DeleteOptions in the body ask for a dry run (`dryRun: ["All"]`).
fn dry_run_in(options: Option<&Value>) -> bool {
    options
        .and_then(|o| o.get("dryRun"))
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|v| v == "All"))
}

/// Reports pruned fields: an error under Strict, warnings under Warn.
pub(crate) fn unknown_fields(
    unknown: Vec<String>,
    opts: &WriteOptions,
    warnings: &mut Vec<String>,
) -> Result<(), Status> {
    if unknown.is_empty() {
        return Ok(());
    }
    let items: Vec<String> = unknown
        .iter()
        .map(|p| format!("unknown field \"{p}\""))
        .collect();
    match opts.validation {
        FieldValidation::Strict => Err(bad_request(format!(
            "strict decoding error: {}",
            items.join(", ")
        ))),
        FieldValidation::Warn => {
            warnings.extend(items);
            Ok(())
        }
        FieldValidation::Ignore => Ok(()),
    }
}

/// A stored object's JSON; anything else in storage is a server fault.
pub(crate) fn parse_stored(stored: &Stored) -> Result<Value, Status> {
    serde_json::from_slice(&stored.value)
        .map_err(|e| Status::internal(format!("stored object is not JSON: {e}")))
}

/// The client-facing status of a storage failure on `resource`.
pub(crate) fn storage_status(resource: &Resource, e: &StorageError, name: &str) -> Status {
    e.to_status(resource.group, resource.plural, name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::negotiate::Media;
    use http::Request;
    use kas_proto::RequestContext;

    #[test]
    fn the_handler_future_is_send() {
        fn is_send<T: Send>(_: T) {}
        fn check(s: RestStore, ctx: RequestContext, req: Request<Body>) {
            is_send(s.handle(ctx, req));
        }
        let _ = check;
    }

    #[test]
    fn accept_picks_table_or_object() {
        let q = Query::default();
        let mut h = http::HeaderMap::new();
        h.insert(
            http::header::ACCEPT,
            HeaderValue::from_static("application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"),
        );
        assert!(matches!(
            Render::negotiate(&h, &q, false, true),
            Ok((Render::Table { .. }, Media::Json))
        ));
        h.insert(
            http::header::ACCEPT,
            HeaderValue::from_static("application/yaml"),
        );
        assert_eq!(
            Render::negotiate(&h, &q, false, true).ok(),
            Some((Render::Object, Media::Yaml))
        );
        let watch = Render::negotiate(&h, &q, true, true).expect_err("no YAML watch");
        assert_eq!(
            watch.message,
            "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch"
        );
        h.insert(http::header::ACCEPT, HeaderValue::from_static("text/html"));
        assert!(Render::negotiate(&h, &q, false, true).is_err());
    }
}
