//! Watching a key prefix from a revision, as kube-apiserver's etcd3 watcher does: ADDED
//! for a key created, MODIFIED for a key changed, DELETED with the object as it last was,
//! progress notifications for bookmarks, and an error once the start revision is
//! compacted.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use etcd_client::{EventType, WatchClient, WatchOptions, WatchResponse, WatchStream};

use super::{codec::Codec, encryption::Transformers, prefix_end, StorageError, Stored};

/// How long opening a watch may take (the call and the store's registration answer)
/// before it counts as the store being unavailable: a connection that died under the
/// call must not hang its caller.
const START_TIMEOUT: Duration = Duration::from_secs(5);

/// One change under the watched prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchEvent {
    /// A new object.
    Added(Stored),
    /// A changed object.
    Modified(Stored),
    /// A deleted object, as it last was; `revision` is the deletion's revision.
    Deleted(Stored),
    /// Nothing changed up to this revision (becomes a BOOKMARK).
    Progress(i64),
}

/// A running watch.
pub struct Watch {
    stream: WatchStream,
    /// The first response, read before the watch is handed out (see [`Watch::start`]).
    first: Option<Option<WatchResponse>>,
    pending: VecDeque<WatchEvent>,
    after: i64,
    transformers: Arc<Transformers>,
    codec: Arc<Codec>,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch").field("after", &self.after).finish()
    }
}

impl Watch {
    pub(super) async fn start(
        mut client: WatchClient,
        prefix: &str,
        after: i64,
        transformers: Arc<Transformers>,
        codec: Arc<Codec>,
    ) -> Result<Watch, StorageError> {
        let mut opts = WatchOptions::new()
            .with_range(prefix_end(prefix))
            .with_prev_key()
            .with_progress_notify();
        if after > 0 {
            opts = opts.with_start_revision(after + 1);
        }
        let open = async {
            let mut stream = client
                .watch(prefix, Some(opts))
                .await
                .map_err(StorageError::from)?;
            // etcd-client returns once the stream is open, before the store has
            // registered the watcher: a write made meanwhile would be missed by a watch
            // "from now". The store answers the registration first (`created`), so
            // waiting for that first response makes every later write an event. It is
            // kept for `next` as it is.
            let first = stream.message().await.map_err(StorageError::from)?;
            Ok::<_, StorageError>((stream, first))
        };
        let (stream, first) = tokio::time::timeout(START_TIMEOUT, open)
            .await
            .map_err(|_| StorageError::Unavailable("the watch did not start in time".into()))??;
        Ok(Watch {
            stream,
            first: Some(first),
            pending: VecDeque::new(),
            after,
            transformers,
            codec,
        })
    }

    /// Asks etcd for a progress notification now (answered as a `Progress` event).
    pub async fn request_progress(&mut self) -> Result<(), StorageError> {
        self.stream
            .request_progress()
            .await
            .map_err(StorageError::from)
    }

    /// The next event; `None` when etcd ended the watch.
    pub async fn next(&mut self) -> Result<Option<WatchEvent>, StorageError> {
        loop {
            if let Some(ev) = self.pending.pop_front() {
                return Ok(Some(ev));
            }
            let resp = match self.first.take() {
                Some(first) => first,
                None => self.stream.message().await.map_err(StorageError::from)?,
            };
            let Some(resp) = resp else {
                return Ok(None);
            };
            if resp.compact_revision() > 0 {
                return Err(StorageError::Compacted {
                    requested: self.after,
                    compacted: resp.compact_revision(),
                });
            }
            if resp.canceled() {
                return Err(StorageError::Internal(format!(
                    "watch canceled by etcd: {}",
                    resp.cancel_reason()
                )));
            }
            if resp.created() && resp.events().is_empty() {
                continue;
            }
            if resp.events().is_empty() {
                let rev = resp.header().map(|h| h.revision()).unwrap_or(0);
                return Ok(Some(WatchEvent::Progress(rev)));
            }
            for ev in resp.events() {
                let Some(kv) = ev.kv() else { continue };
                // A value that does not decrypt or decode ends the watch with an internal
                // error, as upstream's watcher ends with an ERROR event.
                let (transformers, codec) = (self.transformers.clone(), self.codec.clone());
                let plain = |s: Stored| async move {
                    let key = s.key.clone();
                    s.opened(&transformers, &codec).await.map_err(|e| {
                        StorageError::Transform(format!("unable to transform key {key:?}: {e}"))
                    })
                };
                let event = match ev.event_type() {
                    EventType::Put if kv.create_revision() == kv.mod_revision() => {
                        WatchEvent::Added(plain(Stored::from_kv(kv)).await?)
                    }
                    EventType::Put => WatchEvent::Modified(plain(Stored::from_kv(kv)).await?),
                    EventType::Delete => {
                        let mut gone = match ev.prev_kv() {
                            Some(prev) => plain(Stored::from_kv(prev)).await?,
                            // No previous value (compacted away): nothing to decrypt.
                            None => Stored::from_kv(kv),
                        };
                        gone.revision = kv.mod_revision();
                        WatchEvent::Deleted(gone)
                    }
                };
                self.after = self.after.max(kv.mod_revision());
                self.pending.push_back(event);
            }
        }
    }
}
