//! One Watch stream: its watchers, replay of history, live events from the commit
//! broadcast, cancel, and progress notifications, following etcd's `v3rpc/watch.go`.
//!
//! Exactly-once delivery rests on one number per stream, `synced_rev`: every committed
//! event at or below it has been handed to the stream's watchers. Live batches above it are
//! delivered and advance it; a stream that lags behind the broadcast catches up from the
//! in-memory history, so a slow client costs no memory beyond the bounded broadcast.

use std::collections::BTreeMap;
use std::sync::Arc;

use tokio::sync::{broadcast, mpsc, watch};
use tonic::{Status, Streaming};

use crate::mvcc::KeyRange;
use crate::pb::etcdserverpb::{
    watch_create_request, watch_request, WatchCreateRequest, WatchRequest, WatchResponse,
};
use crate::pb::mvccpb::{event::EventType, Event};
use crate::store::{CommitBatch, Shared};

/// Events per response when replaying history (etcd's `watchBatchMaxRevs` spirit: whole
/// revisions are never split).
const REPLAY_CHUNK: usize = 1000;

/// etcd's `clientv3.InvalidWatchID`: the id of a stream-wide progress notification.
const PROGRESS_WATCH_ID: i64 = -1;

/// The sending half of a stream's responses.
pub(crate) type ResponseTx = mpsc::Sender<Result<WatchResponse, Status>>;

/// The client went away; the stream ends.
struct Gone;

#[derive(Debug)]
struct Watcher {
    range: KeyRange,
    /// The next revision this watcher has not seen.
    next_rev: i64,
    prev_kv: bool,
    no_put: bool,
    no_delete: bool,
    progress_notify: bool,
}

impl Watcher {
    fn wants(&self, ev: &Event) -> Option<Event> {
        let kv = ev.kv.as_ref()?;
        if kv.mod_revision < self.next_rev || !self.range.contains(&kv.key) {
            return None;
        }
        let is_put = ev.r#type == EventType::Put as i32;
        if (is_put && self.no_put) || (!is_put && self.no_delete) {
            return None;
        }
        let mut ev = ev.clone();
        if !self.prev_kv {
            ev.prev_kv = None;
        }
        Some(ev)
    }
}

struct WatchStream {
    shared: Arc<Shared>,
    tx: ResponseTx,
    watchers: BTreeMap<i64, Watcher>,
    next_id: i64,
    synced_rev: i64,
}

/// Serves one Watch stream until the client closes it, goes away, or shutdown is flagged.
pub(crate) async fn run(
    shared: Arc<Shared>,
    mut requests: Streaming<WatchRequest>,
    tx: ResponseTx,
    mut shutdown: watch::Receiver<bool>,
) {
    // Subscribe before reading the revision: every batch above it is then received.
    let mut live = shared.events.subscribe();
    let synced_rev = shared.committed_rev();
    let mut ticker = tokio::time::interval(shared.config.progress_notify_interval);
    ticker.tick().await;
    let mut s = WatchStream {
        shared,
        tx,
        watchers: BTreeMap::new(),
        next_id: 0,
        synced_rev,
    };
    loop {
        let step = tokio::select! {
            () = crate::serve::stopped(&mut shutdown) => break,
            req = requests.message() => match req {
                Ok(Some(req)) => s.handle(req, &mut live).await,
                Ok(None) | Err(_) => break,
            },
            batch = live.recv() => match batch {
                Ok(batch) => s.deliver(&batch).await,
                Err(broadcast::error::RecvError::Lagged(_)) => s.catch_up().await,
                Err(broadcast::error::RecvError::Closed) => break,
            },
            _ = ticker.tick() => s.progress_notify().await,
        };
        if step.is_err() {
            break;
        }
    }
}

impl WatchStream {
    async fn send(&self, resp: WatchResponse) -> Result<(), Gone> {
        self.tx.send(Ok(resp)).await.map_err(|_| Gone)
    }

    fn response(&self, watch_id: i64, revision: i64) -> WatchResponse {
        WatchResponse {
            header: Some(self.shared.header(revision)),
            watch_id,
            ..WatchResponse::default()
        }
    }

    async fn handle(
        &mut self,
        req: WatchRequest,
        live: &mut broadcast::Receiver<Arc<CommitBatch>>,
    ) -> Result<(), Gone> {
        match req.request_union {
            Some(watch_request::RequestUnion::CreateRequest(c)) => self.create(c).await,
            Some(watch_request::RequestUnion::CancelRequest(c)) => {
                if self.watchers.remove(&c.watch_id).is_some() {
                    let mut resp = self.response(c.watch_id, self.shared.committed_rev());
                    resp.canceled = true;
                    self.send(resp).await?;
                }
                Ok(())
            }
            Some(watch_request::RequestUnion::ProgressRequest(_)) => {
                // Deliver everything committed so far, then report it (etcd 3.5 semantics:
                // one notification for the whole stream, watch id -1).
                let target = self.shared.committed_rev();
                while self.synced_rev < target {
                    match live.recv().await {
                        Ok(batch) => self.deliver(&batch).await?,
                        Err(broadcast::error::RecvError::Lagged(_)) => self.catch_up().await?,
                        Err(broadcast::error::RecvError::Closed) => break,
                    }
                }
                self.send(self.response(PROGRESS_WATCH_ID, self.synced_rev))
                    .await
            }
            None => Ok(()),
        }
    }

    async fn create(&mut self, c: WatchCreateRequest) -> Result<(), Gone> {
        let id = if c.watch_id != 0 {
            if self.watchers.contains_key(&c.watch_id) {
                let mut resp = self.response(c.watch_id, self.shared.committed_rev());
                resp.created = true;
                resp.canceled = true;
                resp.cancel_reason = "mvcc: duplicate watch ID provided on the WatchStream".into();
                return self.send(resp).await;
            }
            c.watch_id
        } else {
            while self.watchers.contains_key(&self.next_id) {
                self.next_id += 1;
            }
            self.next_id += 1;
            self.next_id - 1
        };
        let filters = |f: watch_create_request::FilterType| c.filters.contains(&(f as i32));
        let mut w = Watcher {
            range: KeyRange::new(&c.key, &c.range_end),
            next_rev: if c.start_revision > 0 {
                c.start_revision
            } else {
                self.synced_rev + 1
            },
            prev_kv: c.prev_kv,
            no_put: filters(watch_create_request::FilterType::Noput),
            no_delete: filters(watch_create_request::FilterType::Nodelete),
            progress_notify: c.progress_notify,
        };
        let mut created = self.response(id, self.shared.committed_rev());
        created.created = true;
        self.send(created).await?;
        let replay = self.replay(&mut w);
        match replay {
            Err(compact_rev) => self.send_compacted(id, compact_rev).await,
            Ok(events) => {
                self.watchers.insert(id, w);
                self.send_events(id, events, self.synced_rev).await
            }
        }
    }

    /// Collects the watcher's events from `next_rev` up to `synced_rev` from history and
    /// moves it past them; `Err(compact_rev)` if that history is gone.
    fn replay(&self, w: &mut Watcher) -> Result<Vec<Event>, i64> {
        if w.next_rev > self.synced_rev {
            return Ok(Vec::new());
        }
        let st = self.shared.read();
        if w.next_rev < st.compact_rev {
            return Err(st.compact_rev);
        }
        let events = st
            .events_between(&w.range, w.next_rev, self.synced_rev)
            .iter()
            .filter_map(|ev| w.wants(ev))
            .collect();
        w.next_rev = self.synced_rev + 1;
        Ok(events)
    }

    async fn send_compacted(&self, id: i64, compact_rev: i64) -> Result<(), Gone> {
        let mut resp = self.response(id, self.shared.committed_rev());
        resp.compact_revision = compact_rev;
        resp.canceled = true;
        self.send(resp).await
    }

    /// Sends events in chunks of about `REPLAY_CHUNK`, never splitting a revision.
    async fn send_events(&self, id: i64, events: Vec<Event>, revision: i64) -> Result<(), Gone> {
        let mut chunk: Vec<Event> = Vec::new();
        for ev in events {
            let rev = ev.kv.as_ref().map_or(0, |kv| kv.mod_revision);
            let last = chunk
                .last()
                .and_then(|e| e.kv.as_ref())
                .map_or(0, |kv| kv.mod_revision);
            if chunk.len() >= REPLAY_CHUNK && rev != last {
                let mut resp = self.response(id, revision);
                resp.events = std::mem::take(&mut chunk);
                self.send(resp).await?;
            }
            chunk.push(ev);
        }
        if !chunk.is_empty() {
            let mut resp = self.response(id, revision);
            resp.events = chunk;
            self.send(resp).await?;
        }
        Ok(())
    }

    /// Hands one committed batch to every watcher.
    async fn deliver(&mut self, batch: &CommitBatch) -> Result<(), Gone> {
        if batch.last_rev <= self.synced_rev {
            return Ok(());
        }
        let mut out: Vec<(i64, Vec<Event>)> = Vec::new();
        for (id, w) in &mut self.watchers {
            let events: Vec<Event> = batch.events.iter().filter_map(|ev| w.wants(ev)).collect();
            w.next_rev = w.next_rev.max(batch.last_rev + 1);
            if !events.is_empty() {
                out.push((*id, events));
            }
        }
        self.synced_rev = batch.last_rev;
        for (id, events) in out {
            self.send_events(id, events, batch.last_rev).await?;
        }
        Ok(())
    }

    /// The broadcast dropped batches for this stream: replay them from history (watchers
    /// whose history was compacted meanwhile are canceled, as etcd does).
    async fn catch_up(&mut self) -> Result<(), Gone> {
        let target = self.shared.committed_rev();
        tracing::debug!(
            from = self.synced_rev,
            to = target,
            "watch stream catching up"
        );
        let mut out: Vec<(i64, Result<Vec<Event>, i64>)> = Vec::new();
        {
            let st = self.shared.read();
            for (id, w) in &mut self.watchers {
                if w.next_rev > target {
                    continue;
                }
                if w.next_rev < st.compact_rev {
                    out.push((*id, Err(st.compact_rev)));
                    continue;
                }
                let events = st
                    .events_between(&w.range, w.next_rev, target)
                    .iter()
                    .filter_map(|ev| w.wants(ev))
                    .collect();
                w.next_rev = target + 1;
                out.push((*id, Ok(events)));
            }
        }
        self.synced_rev = self.synced_rev.max(target);
        for (id, result) in out {
            match result {
                Ok(events) => self.send_events(id, events, target).await?,
                Err(compact_rev) => {
                    self.watchers.remove(&id);
                    self.send_compacted(id, compact_rev).await?;
                }
            }
        }
        Ok(())
    }

    /// The periodic notification for watchers created with `progress_notify`.
    async fn progress_notify(&self) -> Result<(), Gone> {
        for (id, w) in &self.watchers {
            if w.progress_notify {
                self.send(self.response(*id, self.synced_rev)).await?;
            }
        }
        Ok(())
    }
}
