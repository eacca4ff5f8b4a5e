//! The WATCH stream: newline-delimited `{"type": ..., "object": ...}` events. Without a
//! resourceVersion (or with "0") the current objects come first as ADDED; then every
//! change, BOOKMARK events when the client allows them (and the initial-events-end
//! bookmark with `sendInitialEvents`), and an ERROR event with a 410 `Status` if the
//! requested resourceVersion was compacted. The stream ends at its timeout, when the
//! client goes away, or when the server drains.
//!
//! Watches are served from the resource's watch cache: one etcd watch per resource, each
//! change serialized once for every watcher. Stores without a cache watch etcd directly.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use serde_json::{json, Value};

use super::outlet::Outlet;
use super::{table, with_revision, Render, Resource, RestStore};
use crate::body::Body;
use crate::cache::{CacheEvent, CachedObject, WatchOptions, WatchStart};
use crate::negotiate::Media;
use crate::status::Status;
use crate::storage::{Filter, ListOptions, ReadVersion, StorageError, Stored, WatchEvent};

/// How often a watch that allows bookmarks asks for progress.
const BOOKMARK_EVERY: Duration = Duration::from_secs(1);
/// How long a watch of a draining worker waits for the bookmark it ends at.
const END_AT_BOOKMARK_WITHIN: Duration = Duration::from_secs(1);

/// Where a watch starts, as the query asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Start {
    /// `resourceVersion=N`: the changes after N.
    After(i64),
    /// No resourceVersion (consistent) or "0" (any): the current objects, then changes.
    WithState { any: bool, end_marker: bool },
}

/// One WATCH request, parsed.
pub(super) struct WatchRequest {
    pub(super) store: Arc<RestStore>,
    pub(super) prefix: String,
    pub(super) start: Start,
    pub(super) filter: Option<Box<Filter>>,
    pub(super) bookmarks: bool,
    pub(super) timeout: Duration,
    pub(super) render: Render,
    /// JSON (newline-delimited events) or protobuf (length-prefixed `WatchEvent`s).
    pub(super) media: Media,
}

/// One event in the stream's media type; `None` when the object cannot be written in it.
fn frame(media: Media, kind: &str, object: &Value) -> Option<Bytes> {
    match media {
        Media::Protobuf => {
            let event = kas_schema::encode_protobuf_watch_event(kind, object).ok()?;
            let len = u32::try_from(event.len()).ok()?;
            let mut out = Vec::with_capacity(event.len() + 4);
            out.extend_from_slice(&len.to_be_bytes());
            out.extend_from_slice(&event);
            Some(Bytes::from(out))
        }
        Media::Json | Media::Yaml => Some(line_raw(kind, &kas_schema::to_json_vec(object))),
    }
}

/// The event line around an already-serialized object.
pub(super) fn line_raw(kind: &str, object: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(object.len() + 32);
    out.extend_from_slice(b"{\"type\":\"");
    out.extend_from_slice(kind.as_bytes());
    out.extend_from_slice(b"\",\"object\":");
    out.extend_from_slice(object);
    out.extend_from_slice(b"}\n");
    Bytes::from(out)
}

fn decode(o: &Stored, store: &RestStore, render: Render) -> Option<Value> {
    let v = serde_json::from_slice::<Value>(&o.value)
        .ok()
        .map(|v| store.present(with_revision(v, o.revision)))?;
    Some(match render {
        Render::Object => v,
        Render::Table { include } => table::table(
            store.resource(),
            store.dyn_columns().as_deref(),
            std::slice::from_ref(&v),
            include,
            None,
        ),
        Render::Metadata => table::partial_metadata(&v),
    })
}

fn shared_object(o: &CachedObject, store: &RestStore) -> Bytes {
    store.encoded(o)
}

/// One event of a store with a converter (a CRD's conversion webhook): the object
/// converted to the watched version first. A failed conversion is the stream's end.
async fn converted_event(
    store: &RestStore,
    kind: &str,
    stored: &Stored,
    cached: Option<&CachedObject>,
    render: Render,
    media: Media,
) -> Result<Option<Bytes>, Status> {
    if let (Some(o), Render::Object, Media::Json) = (cached, render, media) {
        let obj = store.encoded_all(&[o], false).await?;
        return Ok(obj
            .first()
            .filter(|b| !b.is_empty())
            .map(|b| line_raw(kind, b)));
    }
    let Ok(v) = serde_json::from_slice::<Value>(&stored.value) else {
        return Ok(None);
    };
    let v = store.present_one(with_revision(v, stored.revision)).await?;
    let out = match render {
        Render::Object => v,
        Render::Table { include } => table::table(
            store.resource(),
            store.dyn_columns().as_deref(),
            std::slice::from_ref(&v),
            include,
            None,
        ),
        Render::Metadata => table::partial_metadata(&v),
    };
    Ok(frame(media, kind, &out))
}

/// What one turn of a watch loop has to send.
enum Turn<T> {
    /// These bytes, if any.
    Send(Option<Bytes>),
    /// An object event, encoded after the turn (converted first, for a store with a
    /// converter).
    Object(&'static str, T),
}

fn bookmark(media: Media, resource: &Resource, rev: i64, end: bool) -> Option<Bytes> {
    let mut meta = json!({"resourceVersion": rev.to_string()});
    if end {
        meta["annotations"] = json!({"k8s.io/initial-events-end": "true"});
    }
    frame(
        media,
        "BOOKMARK",
        &json!({"kind": resource.kind, "apiVersion": resource.api_version(), "metadata": meta}),
    )
}

fn error_line(media: Media, status: &Status) -> Bytes {
    let obj: Value = serde_json::from_slice(&status.to_json()).unwrap_or(Value::Null);
    frame(media, "ERROR", &obj).unwrap_or_default()
}

/// Starts the watch; errors before the first byte are plain `Status` responses.
pub(super) async fn stream(req: WatchRequest) -> Result<Body, Status> {
    if req.store.cache.is_some() {
        return stream_cached(req).await;
    }
    stream_storage(req).await
}

async fn stream_cached(req: WatchRequest) -> Result<Body, Status> {
    let store = req.store.clone();
    let resource = *store.resource();
    let Some(cache) = store.cache.clone() else {
        return Err(Status::internal("no watch cache"));
    };
    let start = match req.start {
        Start::After(rv) => WatchStart::After(rv),
        Start::WithState { any, end_marker } => WatchStart::WithState {
            version: if any {
                ReadVersion::Any
            } else {
                ReadVersion::Latest
            },
            end_marker,
        },
    };
    let after = match req.start {
        Start::After(rv) => rv,
        Start::WithState { .. } => 0,
    };
    let mut watch = cache
        .watch_with(WatchOptions {
            prefix: req.prefix.clone(),
            start,
            filter: req.filter,
        })
        .await
        .map_err(|e| super::storage_status(&resource, &e, ""))?;
    let (mut out, rx) = Outlet::new(&resource);
    let render = req.render;
    let media = req.media;
    let bookmarks = req.bookmarks;
    let timeout = req.timeout;
    tokio::spawn(async move {
        let shared = matches!((render, media), (Render::Object, Media::Json));
        let event = |kind: &str, o: &CachedObject| -> Option<Bytes> {
            decode(o.stored(), &store, render).and_then(|v| frame(media, kind, &v))
        };
        let mut progress = tokio::time::interval(BOOKMARK_EVERY);
        progress.tick().await;
        let deadline = tokio::time::sleep(timeout);
        tokio::pin!(deadline);
        let ending = crate::lifecycle::watches_ending();
        tokio::pin!(ending);
        let mut closing = false;
        loop {
            let turn = tokio::select! {
                ev = watch.next_event() => match ev {
                    Ok(Some(CacheEvent::Added(o))) => Turn::Object("ADDED", o),
                    Ok(Some(CacheEvent::Modified(o))) => Turn::Object("MODIFIED", o),
                    Ok(Some(CacheEvent::Deleted(o))) => Turn::Object("DELETED", o),
                    Ok(Some(CacheEvent::Bookmark(rev))) if bookmarks && rev > 0 && closing => {
                        if let Some(wire) = bookmark(media, &resource, rev, false) {
                            out.send_event(wire).await;
                        }
                        break;
                    }
                    Ok(Some(CacheEvent::Bookmark(rev))) if bookmarks && rev > 0 => {
                        Turn::Send(bookmark(media, &resource, rev, false))
                    }
                    Ok(Some(CacheEvent::InitialEventsEnd(rev))) => Turn::Send(bookmark(media, &resource, rev, true)),
                    Ok(Some(_)) => Turn::Send(None),
                    Ok(None) => break,
                    Err(StorageError::Compacted { compacted, requested }) => {
                        let requested = if requested > 0 { requested } else { after };
                        out.send_event(error_line(media, &StorageError::watch_expired(requested, compacted))).await;
                        break;
                    }
                    Err(e) => {
                        out.send_event(error_line(media, &e.to_status(resource.group, resource.plural, ""))).await;
                        break;
                    }
                },
                _ = progress.tick(), if bookmarks => {
                    if watch.request_progress().await.is_err() {
                        break;
                    }
                    Turn::Send(None)
                }
                () = &mut ending, if !closing => {
                    // The worker drains: end at a fresh bookmark, from which the client
                    // resumes on the worker now serving (or at once, without bookmarks:
                    // it resumes from the last event it saw).
                    closing = true;
                    if !bookmarks || watch.request_progress().await.is_err() {
                        break;
                    }
                    deadline.as_mut().reset(tokio::time::Instant::now() + END_AT_BOOKMARK_WITHIN);
                    Turn::Send(None)
                }
                () = &mut deadline => break,
            };
            let wire = match turn {
                Turn::Send(wire) => wire,
                Turn::Object(kind, o) if store.converter().is_none() && shared => {
                    let object = shared_object(&o, &store);
                    if !object.is_empty() && !out.send_line(kind, object).await {
                        break;
                    }
                    None
                }
                Turn::Object(kind, o) if store.converter().is_none() => event(kind, &o),
                Turn::Object(kind, o) => {
                    match converted_event(&store, kind, o.stored(), Some(&o), render, media).await {
                        Ok(wire) => wire,
                        Err(status) => {
                            out.send_event(error_line(media, &status)).await;
                            break;
                        }
                    }
                }
            };
            if let Some(bytes) = wire {
                if !out.send_event(bytes).await {
                    break;
                }
            }
        }
    });
    Ok(rx)
}

async fn stream_storage(req: WatchRequest) -> Result<Body, Status> {
    let storage = req.store.storage.clone();
    let store = req.store.clone();
    let (initial, after) = match req.start {
        Start::After(rv) => (Vec::new(), rv),
        Start::WithState { .. } => {
            let page = storage
                .list(
                    &req.prefix,
                    ReadVersion::Latest,
                    &ListOptions::default(),
                    req.filter.as_deref(),
                )
                .await
                .map_err(|e| super::storage_status(store.resource(), &e, ""))?;
            (page.items, page.revision)
        }
    };
    let mut watch = storage
        .watch(&req.prefix, after)
        .await
        .map_err(|e| super::storage_status(store.resource(), &e, ""))?;
    let resource = *req.store.resource();
    let (mut outlet, rx) = Outlet::new(&resource);
    let media = req.media;
    tokio::spawn(async move {
        let keep = |o: &Stored| req.filter.as_ref().is_none_or(|f| f(&o.value));
        let event = |kind: &str, o: &Stored| {
            decode(o, &store, req.render).and_then(|v| frame(media, kind, &v))
        };
        for o in &initial {
            let out = match store.converter() {
                None => event("ADDED", o),
                Some(_) => match converted_event(&store, "ADDED", o, None, req.render, media).await
                {
                    Ok(out) => out,
                    Err(status) => {
                        outlet.send_event(error_line(media, &status)).await;
                        return;
                    }
                },
            };
            if let Some(bytes) = out {
                if !outlet.send_event(bytes).await {
                    return;
                }
            }
        }
        let mut progress = tokio::time::interval(BOOKMARK_EVERY);
        progress.tick().await;
        let deadline = tokio::time::sleep(req.timeout);
        tokio::pin!(deadline);
        // Uncached watches (rare: stores without a watch cache) end at once on a drain.
        let ending = crate::lifecycle::watches_ending();
        tokio::pin!(ending);
        loop {
            let turn = tokio::select! {
                ev = watch.next() => match ev {
                    Ok(Some(WatchEvent::Added(o))) if keep(&o) => Turn::Object("ADDED", o),
                    Ok(Some(WatchEvent::Modified(o))) if keep(&o) => Turn::Object("MODIFIED", o),
                    Ok(Some(WatchEvent::Deleted(o))) if keep(&o) => Turn::Object("DELETED", o),
                    Ok(Some(WatchEvent::Progress(rev))) if req.bookmarks && rev > 0 => Turn::Send(bookmark(media, &resource, rev, false)),
                    Ok(Some(_)) => Turn::Send(None),
                    Ok(None) => break,
                    Err(StorageError::Compacted { compacted, .. }) => {
                        outlet.send_event(error_line(media, &StorageError::watch_expired(after, compacted))).await;
                        break;
                    }
                    Err(e) => {
                        outlet.send_event(error_line(media, &e.to_status(resource.group, resource.plural, ""))).await;
                        break;
                    }
                },
                _ = progress.tick(), if req.bookmarks => {
                    if watch.request_progress().await.is_err() {
                        break;
                    }
                    Turn::Send(None)
                }
                () = &mut deadline => break,
                () = &mut ending => break,
            };
            let out = match turn {
                Turn::Send(out) => out,
                Turn::Object(kind, o) if store.converter().is_none() => event(kind, &o),
                Turn::Object(kind, o) => {
                    match converted_event(&store, kind, &o, None, req.render, media).await {
                        Ok(out) => out,
                        Err(status) => {
                            outlet.send_event(error_line(media, &status)).await;
                            break;
                        }
                    }
                }
            };
            if let Some(bytes) = out {
                if !outlet.send_event(bytes).await {
                    break;
                }
            }
        }
    });
    Ok(rx)
}
