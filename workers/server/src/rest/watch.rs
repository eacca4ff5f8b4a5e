//! The WATCH stream: newline-delimited `{"type": ..., "object": ...}` events. Without a
//! resourceVersion the current objects come first as ADDED; then every change, BOOKMARK
//! events when the client allows them, and an ERROR event with a 410 `Status` if the
//! requested resourceVersion was compacted. The stream ends at its timeout, when the
//! client goes away, or when the server drains.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Channel;
use serde_json::{json, Value};

use super::{with_revision, RestStore};
use crate::body::{self, Body, BoxError};
use crate::status::Status;
use crate::storage::{Filter, ListOptions, ReadVersion, StorageError, Stored, WatchEvent};

/// How often a watch that allows bookmarks asks etcd for progress.
const BOOKMARK_EVERY: Duration = Duration::from_secs(1);

/// One WATCH request, parsed.
pub(super) struct WatchRequest {
    pub(super) store: Arc<RestStore>,
    pub(super) prefix: String,
    pub(super) start: Option<i64>,
    pub(super) filter: Option<Box<Filter>>,
    pub(super) bookmarks: bool,
    pub(super) timeout: Duration,
}

fn line(kind: &str, object: &Value) -> Bytes {
    let mut s = json!({"type": kind, "object": object}).to_string();
    s.push('\n');
    Bytes::from(s)
}

fn decode(o: &Stored) -> Option<Value> {
    serde_json::from_slice::<Value>(&o.value)
        .ok()
        .map(|v| with_revision(v, o.revision))
}

/// Starts the watch; errors before the first byte are plain `Status` responses.
pub(super) async fn stream(req: WatchRequest) -> Result<Body, Status> {
    let storage = req.store.storage.clone();
    let store = req.store.clone();
    let (initial, after) = match req.start {
        Some(rv) => (Vec::new(), rv),
        None => {
            let page = storage
                .list(
                    &req.prefix,
                    ReadVersion::Latest,
                    &ListOptions::default(),
                    req.filter.as_deref(),
                )
                .await
                .map_err(|e| super::storage_status(*store.resource(), &e, ""))?;
            (page.items, page.revision)
        }
    };
    let mut watch = storage
        .watch(&req.prefix, after)
        .await
        .map_err(|e| super::storage_status(*store.resource(), &e, ""))?;
    let (mut tx, rx) = Channel::<Bytes, BoxError>::new(64);
    let resource = *req.store.resource();
    tokio::spawn(async move {
        let keep = |o: &Stored| req.filter.as_ref().is_none_or(|f| f(&o.value));
        for o in &initial {
            if let Some(v) = decode(o) {
                if tx.send_data(line("ADDED", &v)).await.is_err() {
                    return;
                }
            }
        }
        let mut progress = tokio::time::interval(BOOKMARK_EVERY);
        progress.tick().await;
        let deadline = tokio::time::sleep(req.timeout);
        tokio::pin!(deadline);
        loop {
            let out = tokio::select! {
                ev = watch.next() => match ev {
                    Ok(Some(WatchEvent::Added(o))) if keep(&o) => decode(&o).map(|v| line("ADDED", &v)),
                    Ok(Some(WatchEvent::Modified(o))) if keep(&o) => decode(&o).map(|v| line("MODIFIED", &v)),
                    Ok(Some(WatchEvent::Deleted(o))) if keep(&o) => decode(&o).map(|v| line("DELETED", &v)),
                    Ok(Some(WatchEvent::Progress(rev))) if req.bookmarks && rev > 0 => Some(line(
                        "BOOKMARK",
                        &json!({
                            "kind": resource.kind,
                            "apiVersion": resource.api_version(),
                            "metadata": {"resourceVersion": rev.to_string()},
                        }),
                    )),
                    Ok(Some(_)) => None,
                    Ok(None) => break,
                    Err(StorageError::Compacted { compacted, .. }) => {
                        let status = StorageError::watch_expired(after, compacted);
                        let obj: Value = serde_json::from_slice(&status.to_json()).unwrap_or(Value::Null);
                        let _ = tx.send_data(line("ERROR", &obj)).await;
                        break;
                    }
                    Err(e) => {
                        let status = e.to_status(resource.group, resource.plural, "");
                        let obj: Value = serde_json::from_slice(&status.to_json()).unwrap_or(Value::Null);
                        let _ = tx.send_data(line("ERROR", &obj)).await;
                        break;
                    }
                },
                _ = progress.tick(), if req.bookmarks => {
                    if watch.request_progress().await.is_err() {
                        break;
                    }
                    None
                }
                () = &mut deadline => break,
            };
            if let Some(bytes) = out {
                if tx.send_data(bytes).await.is_err() {
                    break;
                }
            }
        }
    });
    Ok(body::boxed(rx))
}
