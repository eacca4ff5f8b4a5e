//! The generic REST store: one implementation of kube-apiserver's verbs (get, list, watch,
//! create, update, patch, delete, deletecollection) over the storage layer, for any
//! resource described by a [`Resource`] (data, not a module per resource).
//!
//! Objects are JSON. Metadata is handled as upstream does (uid, creationTimestamp,
//! resourceVersion from the etcd revision, generateName, namespace consistency); lists
//! apply label and field selectors and paginate from one revision; watches stream
//! ADDED/MODIFIED/DELETED, BOOKMARK when asked, and an ERROR 410 once compacted; storage
//! outages answer 503.

mod meta;
mod watch;

pub use meta::{forbidden, invalid_value, required, too_long};

use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use http::header::CONTENT_TYPE;
use http::{HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::BodyExt;
use kas_proto::RequestContext;
use serde_json::{json, Value};

use crate::body::{self, Body};
use crate::health::percent_decode;
use crate::selectors::{self, FieldSelector, LabelSelector};
use crate::status::{Reason, Status};
use crate::storage::{ListOptions, ReadVersion, Storage, StorageError, Stored};

/// The largest request body accepted (kube-apiserver's limit).
const MAX_BODY: usize = 3 << 20;
/// How often a create with generateName retries a name that was taken.
const GENERATE_NAME_RETRIES: usize = 8;
/// How often a patch retries after losing a compare-and-swap race.
const PATCH_RETRIES: usize = 8;

/// Resource-specific validation: the new object and, on update, the stored one; returns
/// the field causes of a 422 (empty when valid).
pub type Validate = fn(&Value, Option<&Value>) -> Vec<crate::status::StatusCause>;

/// For resources with no rules beyond object metadata.
pub fn no_validation(_: &Value, _: Option<&Value>) -> Vec<crate::status::StatusCause> {
    Vec::new()
}

/// What a resource is: everything the generic store needs to serve it.
#[derive(Debug, Clone, Copy)]
pub struct Resource {
    /// API group ("" for core).
    pub group: &'static str,
    /// API version.
    pub version: &'static str,
    /// Plural resource name, e.g. `configmaps`.
    pub plural: &'static str,
    /// Singular name.
    pub singular: &'static str,
    /// Kind, e.g. `ConfigMap`.
    pub kind: &'static str,
    /// Whether objects live in namespaces.
    pub namespaced: bool,
    /// The key path under the etcd prefix (upstream's registry path).
    pub key_path: &'static str,
    /// Short names for discovery.
    pub short_names: &'static [&'static str],
    /// Field selectors allowed besides `metadata.name` and `metadata.namespace`.
    pub extra_fields: &'static [&'static str],
    /// The resource's own validation rules.
    pub validate: Validate,
}

impl Resource {
    /// `v1` or `group/version`.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_owned()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// The entry of this resource in an APIResourceList.
    pub fn discovery(&self) -> Value {
        json!({
            "name": self.plural,
            "singularName": self.singular,
            "namespaced": self.namespaced,
            "kind": self.kind,
            "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
            "shortNames": self.short_names,
        })
    }
}

/// The generic store for one resource.
#[derive(Debug, Clone)]
pub struct RestStore {
    resource: Resource,
    storage: Storage,
    min_request_timeout: std::time::Duration,
}

/// Query parameters, percent-decoded; the last value of a repeated key wins.
struct Query(HashMap<String, String>);

impl Query {
    fn parse(q: Option<&str>) -> Query {
        Query(
            q.unwrap_or("")
                .split('&')
                .filter(|kv| !kv.is_empty())
                .map(|kv| {
                    let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                    (percent_decode(k), percent_decode(v))
                })
                .collect(),
        )
    }

    fn get(&self, k: &str) -> Option<&str> {
        self.0.get(k).map(String::as_str).filter(|v| !v.is_empty())
    }

    fn flag(&self, k: &str) -> bool {
        matches!(self.0.get(k).map(String::as_str), Some("true" | "1" | ""))
    }
}

fn json_response(code: StatusCode, v: &Value) -> Response<Body> {
    let mut resp = Response::new(body::full(v.to_string()));
    *resp.status_mut() = code;
    resp.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

fn bad_request(msg: impl Into<String>) -> Status {
    Status::new(Reason::BadRequest, msg)
}

/// Sets `metadata.resourceVersion` of a stored object.
fn with_revision(mut obj: Value, revision: i64) -> Value {
    if let Some(meta) = meta::metadata_mut(&mut obj) {
        meta.insert("resourceVersion".into(), json!(revision.to_string()));
    }
    obj
}

fn parse_rv(s: &str) -> Result<i64, Status> {
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
        RestStore {
            resource,
            storage,
            min_request_timeout,
        }
    }

    /// The resource this store serves.
    pub fn resource(&self) -> &Resource {
        &self.resource
    }

    fn key(&self, ns: &str, name: &str) -> String {
        let ns = self.resource.namespaced.then_some(ns);
        self.storage.key(self.resource.key_path, ns, name)
    }

    fn prefix(&self, ns: &str) -> String {
        let ns = (self.resource.namespaced && !ns.is_empty()).then_some(ns);
        self.storage.list_prefix(self.resource.key_path, ns)
    }

    /// Serves one request already routed to this resource. It takes the store (cheap to
    /// clone) and the context by value, so the future borrows nothing from its caller.
    pub async fn handle(self, ctx: RequestContext, req: Request<Body>) -> Response<Body> {
        match self.dispatch(&ctx, req).await {
            Ok(resp) => resp,
            Err(status) => status.into_response(),
        }
    }

    async fn dispatch(
        &self,
        ctx: &RequestContext,
        req: Request<Body>,
    ) -> Result<Response<Body>, Status> {
        let info = &ctx.info;
        let query = Query::parse(req.uri().query());
        if !info.subresource.is_empty() {
            return Err(Status::path_not_found());
        }
        let (ns, name) = (info.namespace.clone(), info.name.clone());
        let (ns, name) = (ns.as_str(), name.as_str());
        let method = req.method().clone();
        let verb = info.verb.clone();
        match (method, verb.as_str()) {
            (_, "get") => (self.get(ns, name, &query)).await,
            (_, "list") => (self.list(ns, &query)).await,
            (_, "watch") => (self.watch(ns, name, &query)).await,
            (Method::POST, "create") => {
                let body = read_json(req).await?;
                (self.create(ns, body, &query)).await
            }
            (Method::PUT, "update") => {
                let body = read_json(req).await?;
                (self.update(ns, name, body, &query)).await
            }
            (Method::PATCH, "patch") => {
                let ctype = req
                    .headers()
                    .get(CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_owned();
                let patch = read_json(req).await?;
                (self.patch(ns, name, &ctype, patch, &query)).await
            }
            (Method::DELETE, "delete") => {
                let body = read_optional_json(req).await?;
                (self.delete(ns, name, body, &query)).await
            }
            (Method::DELETE, "deletecollection") => (self.delete_collection(ns, &query)).await,
            (method, _) => Err(Status::new(
                Reason::MethodNotAllowed,
                format!("{method} is not supported on {}", self.resource.plural),
            )),
        }
    }

    /// The stored object at `key`; NotFound names `name`.
    async fn read(&self, key: &str, name: &str, version: ReadVersion) -> Result<Stored, Status> {
        self.storage
            .get(key, version)
            .await
            .map_err(|e| storage_status(self.resource, &e, name))?
            .ok_or_else(|| Status::not_found(self.resource.group, self.resource.plural, name))
    }

    async fn get(&self, ns: &str, name: &str, q: &Query) -> Result<Response<Body>, Status> {
        let version = match q.get("resourceVersion") {
            None => ReadVersion::Latest,
            Some("0") => ReadVersion::Any,
            Some(rv) => ReadVersion::NotOlderThan(parse_rv(rv)?),
        };
        let stored = self.read(&self.key(ns, name), name, version).await?;
        let obj: Value = parse_stored(&stored)?;
        Ok(json_response(
            StatusCode::OK,
            &with_revision(obj, stored.revision),
        ))
    }

    fn selectors(&self, q: &Query) -> Result<Option<Box<crate::storage::Filter>>, Status> {
        let labels = LabelSelector::parse(q.get("labelSelector").unwrap_or(""))?;
        let fields = FieldSelector::parse(q.get("fieldSelector").unwrap_or(""))?;
        let mut allowed = vec!["metadata.name", "metadata.namespace"];
        allowed.extend_from_slice(self.resource.extra_fields);
        fields.check_fields(&allowed)?;
        Ok(selectors::filter(labels, fields))
    }

    fn read_version(q: &Query) -> Result<ReadVersion, Status> {
        let rv = q.get("resourceVersion");
        Ok(match (rv, q.get("resourceVersionMatch")) {
            (None, None) => ReadVersion::Latest,
            (None, Some(_)) => {
                return Err(bad_request(
                    "resourceVersionMatch is forbidden unless resourceVersion is provided",
                ))
            }
            (Some("0"), None | Some("NotOlderThan")) => ReadVersion::Any,
            (Some(rv), None | Some("NotOlderThan")) => ReadVersion::NotOlderThan(parse_rv(rv)?),
            (Some(rv), Some("Exact")) => ReadVersion::Exact(parse_rv(rv)?),
            (Some(_), Some(other)) => {
                return Err(bad_request(format!(
                    "resourceVersionMatch {other:?} is not one of Exact, NotOlderThan"
                )))
            }
        })
    }

    async fn list(&self, ns: &str, q: &Query) -> Result<Response<Body>, Status> {
        let filter = self.selectors(q)?;
        let version = Self::read_version(q)?;
        let limit = match q.get("limit") {
            Some(l) => l
                .parse::<i64>()
                .map_err(|_| bad_request(format!("invalid limit {l:?}")))?,
            None => 0,
        };
        let opts = ListOptions {
            limit,
            continue_token: q.get("continue").map(str::to_owned),
        };
        let page = self
            .storage
            .list(&self.prefix(ns), version, &opts, filter.as_deref())
            .await
            .map_err(|e| match (&e, &opts.continue_token) {
                (StorageError::Compacted { .. }, Some(_)) => StorageError::continue_expired(),
                _ => storage_status(self.resource, &e, ""),
            })?;
        let items: Vec<Value> = page
            .items
            .iter()
            .filter_map(|o| {
                serde_json::from_slice::<Value>(&o.value)
                    .ok()
                    .map(|v| with_revision(v, o.revision))
            })
            .collect();
        let mut metadata = json!({"resourceVersion": page.revision.to_string()});
        if let Some(c) = &page.continue_token {
            metadata["continue"] = json!(c);
        }
        if let Some(n) = page.remaining {
            metadata["remainingItemCount"] = json!(n);
        }
        Ok(json_response(
            StatusCode::OK,
            &json!({
                "kind": format!("{}List", self.resource.kind),
                "apiVersion": self.resource.api_version(),
                "metadata": metadata,
                "items": items,
            }),
        ))
    }

    async fn watch(&self, ns: &str, name: &str, q: &Query) -> Result<Response<Body>, Status> {
        let mut filter = self.selectors(q)?;
        if !name.is_empty() {
            // GET .../name?watch=true watches that one object.
            let labels = LabelSelector::default();
            let fields = FieldSelector::parse(&format!("metadata.name={name}"))?;
            filter = selectors::filter(labels, fields);
        }
        let start = match q.get("resourceVersion") {
            None | Some("0") => None,
            Some(rv) => Some(parse_rv(rv)?),
        };
        let timeout = match q.get("timeoutSeconds") {
            Some(t) => std::time::Duration::from_secs(
                t.parse::<u64>()
                    .map_err(|_| bad_request(format!("invalid timeoutSeconds {t:?}")))?,
            ),
            // Upstream picks a random timeout between the minimum and twice it.
            None => {
                self.min_request_timeout
                    + self
                        .min_request_timeout
                        .mul_f64(f64::from(uuid::Uuid::new_v4().as_bytes()[0]) / 255.0)
            }
        };
        let body = watch::stream(watch::WatchRequest {
            store: Arc::new(self.clone()),
            prefix: self.prefix(ns),
            start,
            filter,
            bookmarks: q.flag("allowWatchBookmarks"),
            timeout,
        })
        .await?;
        let mut resp = Response::new(body);
        resp.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        Ok(resp)
    }

    fn check_type(&self, obj: &Value) -> Result<(), Status> {
        let Some(o) = obj.as_object() else {
            return Err(bad_request("the body of the request must be a JSON object"));
        };
        let api_version = self.resource.api_version();
        match o.get("apiVersion").and_then(Value::as_str) {
            None | Some("") => {}
            Some(v) if v == api_version => {}
            Some(v) => {
                return Err(bad_request(format!(
                    "the API version in the data ({v}) does not match the expected API version ({api_version})"
                )))
            }
        }
        match o.get("kind").and_then(Value::as_str) {
            None | Some("") => Ok(()),
            Some(k) if k == self.resource.kind => Ok(()),
            Some(k) => Err(bad_request(format!(
                "the kind in the data ({k}) does not match the expected kind ({})",
                self.resource.kind
            ))),
        }
    }

    /// Fills apiVersion/kind and the namespace, refusing a namespace that contradicts the URL.
    fn normalize(&self, ns: &str, obj: &mut Value) -> Result<(), Status> {
        self.check_type(obj)?;
        if let Some(o) = obj.as_object_mut() {
            o.insert("apiVersion".into(), json!(self.resource.api_version()));
            o.insert("kind".into(), json!(self.resource.kind));
        }
        let Some(m) = meta::metadata_mut(obj) else {
            return Err(bad_request("metadata must be an object"));
        };
        if self.resource.namespaced {
            match m.get("namespace").and_then(Value::as_str) {
                None | Some("") => {
                    m.insert("namespace".into(), json!(ns));
                }
                Some(given) if given == ns => {}
                Some(_) => {
                    return Err(bad_request(
                        "the namespace of the provided object does not match the namespace sent on the request",
                    ))
                }
            }
        } else {
            m.remove("namespace");
        }
        m.remove("resourceVersion");
        Ok(())
    }

    fn validate(&self, obj: &Value, old: Option<&Value>) -> Result<(), Status> {
        let mut causes = meta::validate_name(obj);
        causes.extend((self.resource.validate)(obj, old));
        if causes.is_empty() {
            return Ok(());
        }
        let name = obj
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        Err(meta::invalid(
            self.resource.group,
            self.resource.kind,
            name,
            causes,
        ))
    }

    async fn create(&self, ns: &str, mut obj: Value, q: &Query) -> Result<Response<Body>, Status> {
        if obj
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty())
        {
            return Err(Status::internal(
                "resourceVersion should not be set on objects to be created",
            ));
        }
        self.normalize(ns, &mut obj)?;
        let generate = obj
            .pointer("/metadata/generateName")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let has_name = obj
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .is_some_and(|n| !n.is_empty());
        if let Some(m) = meta::metadata_mut(&mut obj) {
            m.insert("uid".into(), json!(uuid::Uuid::new_v4().to_string()));
            m.insert("creationTimestamp".into(), json!(meta::now()));
        }
        let dry_run = q.get("dryRun") == Some("All");
        let attempts = if has_name { 1 } else { GENERATE_NAME_RETRIES };
        for _ in 0..attempts {
            if let (false, Some(prefix)) = (has_name, &generate) {
                if let Some(m) = meta::metadata_mut(&mut obj) {
                    m.insert(
                        "name".into(),
                        json!(format!("{prefix}{}", meta::random_suffix())),
                    );
                }
            }
            self.validate(&obj, None)?;
            let name = obj
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned();
            if dry_run {
                return Ok(json_response(StatusCode::CREATED, &obj));
            }
            let bytes = serde_json::to_vec(&obj).map_err(Status::internal)?;
            match self.storage.create(&self.key(ns, &name), bytes, None).await {
                Ok(rev) => return Ok(json_response(StatusCode::CREATED, &with_revision(obj, rev))),
                Err(StorageError::AlreadyExists) if !has_name => continue,
                Err(e) => return Err(storage_status(self.resource, &e, &name)),
            }
        }
        Err(Status::new(
            Reason::AlreadyExists,
            "could not generate a unique name after several attempts",
        ))
    }

    async fn update(
        &self,
        ns: &str,
        name: &str,
        mut obj: Value,
        q: &Query,
    ) -> Result<Response<Body>, Status> {
        let body_name = obj
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        if body_name != name {
            return Err(bad_request(format!(
                "the name of the object ({body_name}) does not match the name on the URL ({name})"
            )));
        }
        let expected = obj
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(parse_rv)
            .transpose()?;
        self.normalize(ns, &mut obj)?;
        self.store_update(ns, name, obj, expected, q.get("dryRun") == Some("All"))
            .await
    }

    /// Writes `obj` over the current object, keeping what a client may not change.
    async fn store_update(
        &self,
        ns: &str,
        name: &str,
        mut obj: Value,
        expected: Option<i64>,
        dry_run: bool,
    ) -> Result<Response<Body>, Status> {
        let key = self.key(ns, name);
        let current = self.read(&key, name, ReadVersion::Latest).await?;
        let cur: Value = parse_stored(&current)?;
        if let Some(m) = meta::metadata_mut(&mut obj) {
            for keep in ["uid", "creationTimestamp"] {
                if let Some(v) = cur.pointer(&format!("/metadata/{keep}")) {
                    m.insert(keep.into(), v.clone());
                }
            }
            m.remove("resourceVersion");
        }
        self.validate(&obj, Some(&cur))?;
        let expected = expected.unwrap_or(current.revision);
        if dry_run {
            return Ok(json_response(StatusCode::OK, &with_revision(obj, expected)));
        }
        let bytes = serde_json::to_vec(&obj).map_err(Status::internal)?;
        let rev = self
            .storage
            .update(&key, bytes, expected, None)
            .await
            .map_err(|e| storage_status(self.resource, &e, name))?;
        Ok(json_response(StatusCode::OK, &with_revision(obj, rev)))
    }

    async fn patch(
        &self,
        ns: &str,
        name: &str,
        ctype: &str,
        patch: Value,
        q: &Query,
    ) -> Result<Response<Body>, Status> {
        let key = self.key(ns, name);
        for _ in 0..PATCH_RETRIES {
            let current = self.read(&key, name, ReadVersion::Latest).await?;
            let mut obj: Value = parse_stored(&current)?;
            obj = with_revision(obj, current.revision);
            match ctype {
                "application/json-patch+json" => {
                    let ops: json_patch::Patch = serde_json::from_value(patch.clone())
                        .map_err(|e| bad_request(format!("the server rejected our request due to an error in our request: {e}")))?;
                    json_patch::patch(&mut obj, &ops).map_err(|e| {
                        Status::new(Reason::Invalid, format!("the server rejected our request due to an error in our request: {e}"))
                    })?;
                }
                // Strategic merge patch equals a merge patch for objects with no lists of
                // merge keys; resources that have them need their own strategy.
                "application/merge-patch+json" | "application/strategic-merge-patch+json" => {
                    json_patch::merge(&mut obj, &patch);
                }
                _ => {
                    return Err(Status::new(
                        Reason::UnsupportedMediaType,
                        format!("the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json (got {ctype:?})"),
                    ))
                }
            }
            let patched_name = obj
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("");
            if patched_name != name {
                return Err(bad_request("metadata.name cannot be changed by a patch"));
            }
            // A patch that sets resourceVersion is a precondition; otherwise it applies
            // to whatever version it read.
            let expected = obj
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .map(parse_rv)
                .transpose()?
                .unwrap_or(current.revision);
            let explicit = expected != current.revision;
            self.normalize(ns, &mut obj)?;
            match self
                .store_update(
                    ns,
                    name,
                    obj,
                    Some(expected),
                    q.get("dryRun") == Some("All"),
                )
                .await
            {
                Err(s) if s.reason == Reason::Conflict && !explicit => continue,
                other => return other,
            }
        }
        Err(StorageError::Conflict { current: 0 }.to_status(
            self.resource.group,
            self.resource.plural,
            name,
        ))
    }

    async fn delete(
        &self,
        ns: &str,
        name: &str,
        opts: Option<Value>,
        q: &Query,
    ) -> Result<Response<Body>, Status> {
        let key = self.key(ns, name);
        let pre_rv = opts
            .as_ref()
            .and_then(|o| o.pointer("/preconditions/resourceVersion"))
            .and_then(Value::as_str)
            .map(parse_rv)
            .transpose()?;
        let pre_uid = opts
            .as_ref()
            .and_then(|o| o.pointer("/preconditions/uid"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let current = self.read(&key, name, ReadVersion::Latest).await?;
        let cur: Value = serde_json::from_slice(&current.value).unwrap_or(Value::Null);
        let uid = cur
            .pointer("/metadata/uid")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        if let Some(want) = pre_uid.filter(|u| *u != uid) {
            return Err(Status::new(
                Reason::Conflict,
                format!(
                    "Precondition failed: UID in precondition: {want}, UID in object meta: {uid}"
                ),
            ));
        }
        let expected = pre_rv.unwrap_or(current.revision);
        if q.get("dryRun") != Some("All") {
            self.storage
                .delete(&key, Some(expected))
                .await
                .map_err(|e| storage_status(self.resource, &e, name))?;
        }
        let status = json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
            "details": {"name": name, "group": self.resource.group, "kind": self.resource.plural, "uid": uid},
        });
        Ok(json_response(StatusCode::OK, &status))
    }

    async fn delete_collection(&self, ns: &str, q: &Query) -> Result<Response<Body>, Status> {
        let filter = self.selectors(q)?;
        let page = self
            .storage
            .list(
                &self.prefix(ns),
                ReadVersion::Latest,
                &ListOptions::default(),
                filter.as_deref(),
            )
            .await
            .map_err(|e| storage_status(self.resource, &e, ""))?;
        let mut deleted = Vec::new();
        for item in page.items {
            match self.storage.delete(&item.key, None).await {
                Ok(gone) => {
                    if let Ok(v) = serde_json::from_slice::<Value>(&gone.value) {
                        deleted.push(with_revision(v, gone.revision));
                    }
                }
                Err(StorageError::NotFound) => {}
                Err(e) => return Err(storage_status(self.resource, &e, "")),
            }
        }
        Ok(json_response(
            StatusCode::OK,
            &json!({
                "kind": format!("{}List", self.resource.kind),
                "apiVersion": self.resource.api_version(),
                "metadata": {},
                "items": deleted,
            }),
        ))
    }
}

async fn read_body(req: Request<Body>) -> Result<Bytes, Status> {
    // A plain frame loop rather than `Limited`: its error conversion bound trips rustc's
    // higher-ranked `Send` inference for this future.
    let mut body = req.into_body();
    let mut buf = bytes::BytesMut::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| bad_request(format!("reading the request body: {e}")))?;
        if let Ok(data) = frame.into_data() {
            if buf.len() + data.len() > MAX_BODY {
                return Err(Status::new(
                    Reason::RequestEntityTooLarge,
                    "Request entity too large: limit is 3145728",
                ));
            }
            buf.extend_from_slice(&data);
        }
    }
    Ok(buf.freeze())
}

async fn read_json(req: Request<Body>) -> Result<Value, Status> {
    let ctype = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("application/json")
        .to_owned();
    if ctype.starts_with("application/vnd.kubernetes.protobuf")
        || ctype.starts_with("application/yaml")
    {
        return Err(Status::new(
            Reason::UnsupportedMediaType,
            format!("the body of the request was in an unknown format - accepted media types include: application/json (got {ctype:?})"),
        ));
    }
    let bytes = read_body(req).await?;
    serde_json::from_slice(&bytes)
        .map_err(|e| bad_request(format!("couldn't get version/kind; json parse error: {e}")))
}

async fn read_optional_json(req: Request<Body>) -> Result<Option<Value>, Status> {
    let bytes = read_body(req).await?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| bad_request(format!("invalid DeleteOptions: {e}")))
}

/// A stored object's JSON; anything else in storage is a server fault.
fn parse_stored(stored: &Stored) -> Result<Value, Status> {
    serde_json::from_slice(&stored.value)
        .map_err(|e| Status::internal(format!("stored object is not JSON: {e}")))
}

/// The client-facing status of a storage failure on `resource`.
fn storage_status(resource: Resource, e: &StorageError, name: &str) -> Status {
    e.to_status(resource.group, resource.plural, name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handler_future_is_send() {
        fn is_send<T: Send>(_: T) {}
        fn check(s: RestStore, ctx: RequestContext, req: Request<Body>) {
            is_send(s.handle(ctx, req));
        }
        let _ = check;
    }
}
