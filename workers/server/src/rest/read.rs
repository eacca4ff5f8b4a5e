//! The read verbs: get, list and watch, and GET of the `scale` subresource.

use std::sync::Arc;

use http::header::CONTENT_TYPE;
use http::{HeaderValue, Response, StatusCode};
use serde_json::{json, Value};

use super::{
    bad_request, json_response, parse_rv, parse_stored, storage_status, watch, with_revision,
    Query, Render, RestStore,
};
use crate::body::{Body, Item};
use crate::cache::Outcome;
use crate::negotiate::Media;
use crate::selectors::{self, FieldSelector, FieldSet, LabelSelector};
use crate::status::Status;
use crate::storage::{Filter, ListOptions, ReadVersion, StorageError, Stored};

impl RestStore {
    /// The stored object at `key`; NotFound names `name`.
    pub(crate) async fn read(
        &self,
        key: &str,
        name: &str,
        version: ReadVersion,
    ) -> Result<Stored, Status> {
        self.storage
            .get(key, version)
            .await
            .map_err(|e| storage_status(&self.resource, &e, name))?
            .ok_or_else(|| Status::not_found(self.resource.group, self.resource.plural, name))
    }

    /// The current object `ns/name`, with its resourceVersion.
    pub async fn read_object(&self, ns: &str, name: &str) -> Result<Value, Status> {
        let stored = self
            .read(&self.key(ns, name), name, ReadVersion::Latest)
            .await?;
        let obj = with_revision(parse_stored(&stored)?, stored.revision);
        match self.converter() {
            None => Ok(self.present(obj)),
            Some(_) => self.present_one(obj).await,
        }
    }

    /// The object `ns/name` as this worker's watch cache holds it (any recent version,
    /// as `resourceVersion=0`), else from storage; `None` when there is none.
    pub async fn read_cached(&self, ns: &str, name: &str) -> Result<Option<Value>, Status> {
        let key = self.key(ns, name);
        let stored = match &self.cache {
            Some(cache) => match cache.get(&key, ReadVersion::Any).await {
                Ok(Outcome::Served(found)) => found,
                Ok(Outcome::Delegate(_)) => self.storage_get(&key, name).await?,
                Err(e) => return Err(storage_status(&self.resource, &e, name)),
            },
            None => self.storage_get(&key, name).await?,
        };
        let Some(s) = stored else {
            return Ok(None);
        };
        let obj = with_revision(parse_stored(&s)?, s.revision);
        match self.converter() {
            None => Ok(Some(self.present(obj))),
            Some(_) => self.present_one(obj).await.map(Some),
        }
    }

    /// The object `ns/name` read from storage (a quorum read), `None` when there is none.
    pub async fn read_latest(&self, ns: &str, name: &str) -> Result<Option<Value>, Status> {
        let key = self.key(ns, name);
        let Some(s) = self.storage_get(&key, name).await? else {
            return Ok(None);
        };
        let obj = with_revision(parse_stored(&s)?, s.revision);
        match self.converter() {
            None => Ok(Some(self.present(obj))),
            Some(_) => self.present_one(obj).await.map(Some),
        }
    }

    async fn storage_get(&self, key: &str, name: &str) -> Result<Option<Stored>, Status> {
        self.storage
            .get(key, ReadVersion::Latest)
            .await
            .map_err(|e| storage_status(&self.resource, &e, name))
    }

    /// Every object in `ns` (all namespaces when empty) as this worker's watch cache holds
    /// them (as `resourceVersion=0`), else from storage.
    pub async fn list_cached(&self, ns: &str) -> Result<Vec<Value>, Status> {
        if let Some(cache) = &self.cache {
            let served = cache
                .list_objects(
                    &self.prefix(ns),
                    ReadVersion::Any,
                    &ListOptions::default(),
                    None,
                )
                .await
                .map_err(|e| storage_status(&self.resource, &e, ""))?;
            if let Outcome::Served(page) = served {
                if self.converter().is_some() {
                    let items = page
                        .items
                        .iter()
                        .filter_map(|o| {
                            let stored = o.stored();
                            serde_json::from_slice::<Value>(&stored.value)
                                .ok()
                                .map(|v| with_revision(v, stored.revision))
                        })
                        .collect();
                    return self.present_all(items, true).await;
                }
                return Ok(page
                    .items
                    .iter()
                    .filter_map(|o| {
                        let stored = o.stored();
                        serde_json::from_slice::<Value>(&stored.value)
                            .ok()
                            .map(|v| self.present(with_revision(v, stored.revision)))
                    })
                    .collect());
            }
        }
        Ok(self.list_objects(ns).await?.0)
    }

    /// Every object in `ns` (all namespaces when empty), at one revision.
    pub async fn list_objects(&self, ns: &str) -> Result<(Vec<Value>, i64), Status> {
        let page = self
            .storage
            .list(
                &self.prefix(ns),
                ReadVersion::Latest,
                &ListOptions::default(),
                None,
            )
            .await
            .map_err(|e| storage_status(&self.resource, &e, ""))?;
        if self.converter().is_some() {
            let items = page
                .items
                .iter()
                .filter_map(|o| {
                    serde_json::from_slice::<Value>(&o.value)
                        .ok()
                        .map(|v| with_revision(v, o.revision))
                })
                .collect();
            return Ok((self.present_all(items, true).await?, page.revision));
        }
        let items = page
            .items
            .iter()
            .filter_map(|o| {
                serde_json::from_slice::<Value>(&o.value)
                    .ok()
                    .map(|v| self.present(with_revision(v, o.revision)))
            })
            .collect();
        Ok((items, page.revision))
    }

    pub(super) async fn get(
        &self,
        ns: &str,
        name: &str,
        q: &Query,
        render: Render,
    ) -> Result<Response<Body>, Status> {
        let version = match q.get("resourceVersion") {
            None => ReadVersion::Latest,
            Some("0") => ReadVersion::Any,
            Some(rv) => ReadVersion::NotOlderThan(parse_rv(rv)?),
        };
        let key = self.key(ns, name);
        let cached = match (&self.cache, version) {
            (Some(cache), ReadVersion::Any | ReadVersion::NotOlderThan(_)) => {
                match cache.get(&key, version).await {
                    Ok(Outcome::Served(found)) => Some(found.ok_or_else(|| {
                        Status::not_found(self.resource.group, self.resource.plural, name)
                    })?),
                    Ok(Outcome::Delegate(_)) => None,
                    Err(e) => return Err(storage_status(&self.resource, &e, name)),
                }
            }
            _ => None,
        };
        let stored = match cached {
            Some(s) => s,
            None => self.read(&key, name, version).await?,
        };
        let obj = with_revision(parse_stored(&stored)?, stored.revision);
        let obj = match self.converter() {
            None => self.present(obj),
            Some(_) => self.present_one(obj).await?,
        };
        let out = self.object_rendered(obj, render);
        Ok(json_response(StatusCode::OK, &out))
    }

    pub(super) fn selectors(&self, q: &Query) -> Result<Option<Box<Filter>>, Status> {
        let labels = LabelSelector::parse(q.get("labelSelector").unwrap_or(""))?;
        let fields = FieldSelector::parse(q.get("fieldSelector").unwrap_or(""))?;
        let (allowed, own_words) = self.selectable_fields();
        let allowed: Vec<&str> = allowed.iter().map(String::as_str).collect();
        fields.check_fields(&allowed, own_words)?;
        let fields = match self.strategy {
            Some(_) => fields,
            None => fields.reading(FieldSet::BuiltIn),
        };
        Ok(selectors::filter(labels, fields))
    }

    /// The fields a field selector may name, and whether a refusal is worded as a
    /// resource with fields of its own words it (`field label not supported`). Custom
    /// resources: `metadata.name`, `metadata.namespace` when namespaced, and their
    /// version's `selectableFields` (upstream's crConverter). Built-in types with field
    /// sets of their own: likewise with theirs (a pod's `spec.host` meaning
    /// `spec.nodeName`, as upstream still converts it); other built-ins: the two
    /// metadata fields, refused in the generic words.
    fn selectable_fields(&self) -> (Vec<String>, bool) {
        let r = &self.resource;
        let own: Vec<String> = match &self.strategy {
            Some(s) => s.selectable_fields().to_vec(),
            None => r.extra_fields.iter().map(|f| (*f).to_owned()).collect(),
        };
        let custom = self.strategy.is_some() || !own.is_empty();
        let mut allowed = vec!["metadata.name".to_owned()];
        if r.namespaced || !custom {
            allowed.push("metadata.namespace".to_owned());
        }
        if own.iter().any(|f| f == "spec.nodeName") && self.strategy.is_none() {
            allowed.push("spec.host".to_owned());
        }
        allowed.extend(own);
        (allowed, custom)
    }

    pub(crate) fn read_version(q: &Query, paged: bool) -> Result<ReadVersion, Status> {
        let rv = q.get("resourceVersion");
        Ok(match (rv, q.get("resourceVersionMatch")) {
            // A legacy paged read at a version is an exact read.
            (Some(rv), None) if paged && rv != "0" => ReadVersion::Exact(parse_rv(rv)?),
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

    pub(super) async fn list(
        &self,
        ns: &str,
        q: &Query,
        render: Render,
    ) -> Result<Response<Body>, Status> {
        let filter = self.selectors(q)?;
        let limit = q.int("limit")?.unwrap_or(0);
        let version = Self::read_version(q, limit > 0)?;
        let opts = ListOptions {
            limit,
            continue_token: q.get("continue").map(str::to_owned),
        };
        let prefix = self.prefix(ns);
        if let (Render::Object, Some(cache)) = (render, &self.cache) {
            match cache
                .list_objects(&prefix, version, &opts, filter.as_deref())
                .await
            {
                Ok(Outcome::Served(page)) => {
                    let items = match self.converter() {
                        None => page.items.iter().map(|o| self.encoded(o)).collect(),
                        Some(_) => {
                            let objs: Vec<&crate::cache::CachedObject> =
                                page.items.iter().map(|o| &**o).collect();
                            self.encoded_all(&objs, true).await?
                        }
                    };
                    return Ok(self.list_body(page, items));
                }
                Ok(Outcome::Delegate(_)) => {}
                Err(e) => return Err(storage_status(&self.resource, &e, "")),
            }
        }
        let cached = match &self.cache {
            Some(cache) => match cache.list(&prefix, version, &opts, filter.as_deref()).await {
                Ok(Outcome::Served(page)) => Ok(Some(page)),
                Ok(Outcome::Delegate(_)) => Ok(None),
                Err(e) => Err(e),
            },
            None => Ok(None),
        };
        let page = match cached {
            Ok(Some(page)) => Ok(page),
            Ok(None) => {
                self.storage
                    .list(&prefix, version, &opts, filter.as_deref())
                    .await
            }
            Err(e) => Err(e),
        };
        let page = page.map_err(|e| match (&e, &opts.continue_token) {
            (StorageError::Compacted { .. }, Some(_)) => StorageError::continue_expired(),
            _ => storage_status(&self.resource, &e, ""),
        })?;
        let items: Vec<Value> = match self.converter() {
            None => page
                .items
                .iter()
                .filter_map(|o| {
                    serde_json::from_slice::<Value>(&o.value)
                        .ok()
                        .map(|v| self.present(with_revision(v, o.revision)))
                })
                .collect(),
            Some(_) => {
                let stored = page
                    .items
                    .iter()
                    .filter_map(|o| {
                        serde_json::from_slice::<Value>(&o.value)
                            .ok()
                            .map(|v| with_revision(v, o.revision))
                    })
                    .collect();
                self.present_all(stored, true).await?
            }
        };
        let mut metadata = json!({"resourceVersion": page.revision.to_string()});
        if let Some(c) = &page.continue_token {
            metadata["continue"] = json!(c);
        }
        if let Some(n) = page.remaining {
            metadata["remainingItemCount"] = json!(n);
        }
        let out = self.list_rendered(items, metadata, render);
        Ok(json_response(StatusCode::OK, &out))
    }

    pub(super) async fn watch(
        &self,
        ns: &str,
        name: &str,
        q: &Query,
        render: Render,
        media: Media,
    ) -> Result<Response<Body>, Status> {
        let mut filter = self.selectors(q)?;
        if !name.is_empty() {
            // GET .../name?watch=true watches that one object.
            let labels = LabelSelector::default();
            let fields = FieldSelector::parse(&format!(
                "metadata.name={}",
                selectors::escape_field_value(name)
            ))?;
            filter = selectors::filter(labels, fields);
        }
        let initial = q.flag("sendInitialEvents");
        if initial && !super::feature_enabled("WatchList") {
            return Err(super::meta::invalid(
                "meta.k8s.io",
                "ListOptions",
                "",
                vec![super::forbidden(
                    "sendInitialEvents",
                    "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
                )],
            ));
        }
        let start = match (q.get("resourceVersion"), initial) {
            (None, _) => watch::Start::WithState {
                any: false,
                end_marker: initial,
            },
            (Some("0"), _) => watch::Start::WithState {
                any: true,
                end_marker: initial,
            },
            (Some(rv), false) => watch::Start::After(parse_rv(rv)?),
            (Some(rv), true) => {
                parse_rv(rv)?;
                watch::Start::WithState {
                    any: false,
                    end_marker: true,
                }
            }
        };
        let timeout = match q.int("timeoutSeconds")?.filter(|t| *t != 0) {
            // A negative timeout ends the watch at once, as upstream's timer does.
            Some(t) => std::time::Duration::from_secs(t.max(0) as u64)
                .max(std::time::Duration::from_millis(1)),
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
            render,
            media,
        })
        .await?;
        // kube-apiserver keeps JSON watches `application/json` (legacy) and marks the
        // others as streams (`handlers/watch.go`, serveWatchHandler).
        let ctype = match media {
            Media::Json => "application/json",
            _ => "application/vnd.kubernetes.protobuf;stream=watch",
        };
        let mut resp = Response::new(body);
        resp.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(ctype));
        Ok(resp)
    }

    /// A list response assembled from the cached objects' shared encodings: no object is
    /// parsed or serialized again.
    fn list_body(
        &self,
        page: crate::cache::ObjectPage,
        items: Vec<bytes::Bytes>,
    ) -> Response<Body> {
        let mut metadata = json!({"resourceVersion": page.revision.to_string()});
        if let Some(c) = &page.continue_token {
            metadata["continue"] = json!(c);
        }
        if let Some(n) = page.remaining {
            metadata["remainingItemCount"] = json!(n);
        }
        let kind = json!(format!("{}List", self.resource.kind)).to_string();
        let api_version = json!(self.resource.api_version()).to_string();
        let (head, tail) = if self.resource.definition.is_empty() {
            // A custom resource list is an unstructured map upstream: keys sorted.
            (
                format!("{{\"apiVersion\":{api_version},\"items\":["),
                format!("],\"kind\":{kind},\"metadata\":{metadata}}}\n"),
            )
        } else {
            // A typed list: its Go struct's order, ListMeta's too.
            let list_meta = kas_schema::type_def("io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta")
                .and_then(|def| {
                    kas_schema::go_json_vec(&kas_schema::InGoOrder::new(def, &metadata)).ok()
                })
                .and_then(|v| String::from_utf8(v).ok())
                .unwrap_or_else(|| metadata.to_string());
            (
                format!("{{\"kind\":{kind},\"apiVersion\":{api_version},\"metadata\":{list_meta},\"items\":["),
                "]}\n".to_owned(),
            )
        };
        // A typed list's items carry no kind and apiVersion upstream (their Go structs'
        // TypeMeta is empty); the shared encodings start with them, and are cut there.
        let items = if self.resource.definition.is_empty() {
            items.into_iter().map(Item::whole).collect()
        } else {
            let prefix = format!(
                "{{\"kind\":{},\"apiVersion\":{api_version},",
                json!(self.resource.kind)
            );
            items
                .into_iter()
                .map(|i| Item::without_prefix(i, prefix.as_bytes()))
                .collect()
        };
        let out = crate::body::joined_items(head.into(), items, tail.into());
        let mut resp = Response::new(out);
        resp.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        resp
    }

    /// GET of `scale`: an autoscaling/v1 Scale of the object.
    pub(super) async fn get_scale(&self, ns: &str, name: &str) -> Result<Response<Body>, Status> {
        let obj = self.read_object(ns, name).await?;
        Ok(json_response(StatusCode::OK, &self.scale_of(&obj)))
    }

    /// The autoscaling/v1 Scale of an object.
    pub(super) fn scale_of(&self, obj: &Value) -> Value {
        if let Some(paths) = self.strategy.as_ref().and_then(|s| s.scale()) {
            return self.custom_scale_of(obj, &paths);
        }
        let label_selector = self.resource.scale.is_some_and(|s| s.label_selector);
        let selector = if label_selector {
            obj.pointer("/spec/selector")
                .map(selectors::label_selector_string)
                .unwrap_or_default()
        } else {
            obj.pointer("/spec/selector")
                .and_then(Value::as_object)
                .map(|m| {
                    let mut pairs: Vec<String> = m
                        .iter()
                        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                        .collect();
                    pairs.sort();
                    pairs.join(",")
                })
                .unwrap_or_default()
        };
        let meta = obj.get("metadata").cloned().unwrap_or(json!({}));
        let mut scale_meta = json!({});
        for k in [
            "name",
            "namespace",
            "uid",
            "resourceVersion",
            "creationTimestamp",
        ] {
            if let Some(v) = meta.get(k) {
                scale_meta[k] = v.clone();
            }
        }
        let mut status = json!({
            "replicas": obj.pointer("/status/replicas").cloned().unwrap_or(json!(0)),
        });
        if !selector.is_empty() {
            status["selector"] = json!(selector);
        }
        json!({
            "kind": "Scale",
            "apiVersion": "autoscaling/v1",
            "metadata": scale_meta,
            "spec": {"replicas": obj.pointer("/spec/replicas").cloned().unwrap_or(json!(0))},
            "status": status,
        })
    }

    /// The Scale of a custom resource, from the paths its CRD gives.
    fn custom_scale_of(&self, obj: &Value, paths: &super::ScalePaths) -> Value {
        let first = |p: &str| super::json_path(obj, p).first().map(|v| (*v).clone());
        let mut scale_meta = json!({});
        for k in [
            "name",
            "namespace",
            "uid",
            "resourceVersion",
            "creationTimestamp",
        ] {
            if let Some(v) = obj.pointer(&format!("/metadata/{k}")) {
                scale_meta[k] = v.clone();
            }
        }
        let mut status = json!({"replicas": first(&paths.status_replicas).unwrap_or(json!(0))});
        if let Some(sel) = paths.label_selector.as_deref().and_then(first) {
            status["selector"] = sel;
        }
        json!({
            "kind": "Scale",
            "apiVersion": "autoscaling/v1",
            "metadata": scale_meta,
            "spec": {"replicas": first(&paths.spec_replicas).unwrap_or(json!(0))},
            "status": status,
        })
    }
}
