//! The open store: recovered state, the writer thread, the watch hub, and the handle the
//! gRPC services use to read and write.

use std::path::PathBuf;
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use tokio::sync::{broadcast, mpsc, oneshot};

use crate::apply::Limits;
use crate::config::StoreConfig;
use crate::engine::Engine;
use crate::error::{Error, EtcdError};
use crate::mvcc::State;
use crate::pb::etcdserverpb::ResponseHeader;
use crate::pb::mvccpb::Event;
use crate::writer::{self, WriteCmd, WriteOp, WriteResult};

/// How many write requests may wait for the writer before senders wait too.
const WRITE_QUEUE: usize = 4096;

/// The raft term every header reports: one member that won one election.
pub(crate) const RAFT_TERM: u64 = 2;

/// One group commit's events, published to every watch stream once durable.
#[derive(Debug)]
pub(crate) struct CommitBatch {
    /// The last revision of the commit (all events are at or below it).
    pub(crate) last_rev: i64,
    /// The events in revision order, each with its previous value.
    pub(crate) events: Vec<Event>,
}

/// What the services, the writer and the watch streams share.
#[derive(Debug)]
pub(crate) struct Shared {
    state: RwLock<State>,
    /// Committed events for watch streams; a stream that falls `watch_buffer` batches
    /// behind catches up from the index instead.
    pub(crate) events: broadcast::Sender<Arc<CommitBatch>>,
    pub(crate) cluster_id: u64,
    pub(crate) member_id: u64,
    pub(crate) db_path: PathBuf,
    pub(crate) config: StoreConfig,
}

impl Shared {
    /// Reads the state; a panic elsewhere while holding the lock does not lose the data.
    pub(crate) fn read(&self) -> RwLockReadGuard<'_, State> {
        self.state
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(crate) fn write(&self) -> RwLockWriteGuard<'_, State> {
        self.state
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The header etcd puts on every response.
    pub(crate) fn header(&self, revision: i64) -> ResponseHeader {
        ResponseHeader {
            cluster_id: self.cluster_id,
            member_id: self.member_id,
            revision,
            raft_term: RAFT_TERM,
        }
    }

    /// The last durable revision.
    pub(crate) fn committed_rev(&self) -> i64 {
        self.read().committed_rev
    }
}

/// A cheap clone for services: shared state plus a way to reach the writer while the
/// [`Store`] is alive.
#[derive(Debug, Clone)]
pub(crate) struct Handle {
    pub(crate) shared: Arc<Shared>,
    writer: mpsc::WeakSender<WriteCmd>,
}

impl Handle {
    /// Sends a write to the writer thread and waits until it is durable (or rejected).
    pub(crate) async fn write(&self, op: WriteOp) -> WriteResult {
        let tx = self.writer.upgrade().ok_or(EtcdError::Stopped)?;
        let (reply, rx) = oneshot::channel();
        tx.send(WriteCmd { op, reply })
            .await
            .map_err(|_| EtcdError::Stopped)?;
        drop(tx);
        rx.await.map_err(|_| EtcdError::Stopped)?
    }
}

/// An open store: the recovered state and its writer thread. Dropping it stops the
/// writer after the writes already queued are committed.
#[derive(Debug)]
pub struct Store {
    handle: Handle,
    writer_tx: Option<mpsc::Sender<WriteCmd>>,
    writer: Option<std::thread::JoinHandle<()>>,
}

impl Store {
    /// Opens the store in `cfg.data_dir` (creating it if needed) and recovers every
    /// revision, the compaction point and the leases.
    pub fn open(cfg: &StoreConfig) -> Result<Store, Error> {
        let (engine, meta) = Engine::open(&cfg.data_dir)?;
        let state = State::recover(&engine, meta.compact_rev, &meta.leases)?;
        tracing::info!(
            revision = state.current_rev,
            compact_revision = state.compact_rev,
            keys = state.index.len(),
            leases = state.leases.len(),
            "embedded store recovered"
        );
        let (events, _) = broadcast::channel(cfg.watch_buffer.max(16));
        let shared = Arc::new(Shared {
            state: RwLock::new(state),
            events,
            cluster_id: meta.cluster_id,
            member_id: meta.member_id,
            db_path: engine.path().to_path_buf(),
            config: cfg.clone(),
        });
        let limits = Limits {
            max_txn_ops: cfg.max_txn_ops,
            min_lease_ttl: cfg.min_lease_ttl,
        };
        let (tx, rx) = mpsc::channel(WRITE_QUEUE);
        let writer_shared = shared.clone();
        let writer = std::thread::Builder::new()
            .name("kas-storage-writer".into())
            .spawn(move || writer::run(&writer_shared, &engine, rx, limits))
            .map_err(Error::SpawnWriter)?;
        Ok(Store {
            handle: Handle {
                shared,
                writer: tx.downgrade(),
            },
            writer_tx: Some(tx),
            writer: Some(writer),
        })
    }

    /// The current (last durable) revision.
    pub fn revision(&self) -> i64 {
        self.handle.shared.committed_rev()
    }

    pub(crate) fn handle(&self) -> Handle {
        self.handle.clone()
    }

    /// Stops the writer once the queued writes are committed, and waits for it.
    fn close(&mut self) {
        self.writer_tx.take();
        if let Some(writer) = self.writer.take() {
            if writer.join().is_err() {
                tracing::error!("the storage writer thread panicked");
            }
        }
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        self.close();
    }
}
