//! The open store: recovered state, the writer thread, the watch hub, and the handle the
//! gRPC services use to read and write.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};

use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::apply::Limits;
use crate::config::StoreConfig;
use crate::engine::{Engine, Meta};
use crate::error::{Error, EtcdError};
use crate::handover::{Handover, StoreControl};
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
    /// Where the store is in a reload's hand-over; it gates writes (and, once stopped,
    /// reads).
    pub(crate) handover: watch::Sender<Handover>,
    /// The open data: the writer thread and its queue; `None` once closed (or released
    /// to a successor).
    data: Mutex<Option<Data>>,
    limits: Limits,
    /// etcd's series for this store.
    pub(crate) metrics: crate::metrics::Metrics,
}

/// The database while this process holds it: the writer thread owns the engine.
#[derive(Debug)]
struct Data {
    tx: mpsc::Sender<WriteCmd>,
    thread: std::thread::JoinHandle<()>,
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

    /// Whether requests are refused because the store stopped answering (its successor
    /// takes over).
    pub(crate) fn refusing(&self) -> bool {
        *self.handover.borrow() == Handover::Stopped
    }

    fn data(&self) -> std::sync::MutexGuard<'_, Option<Data>> {
        self.data
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A sender to the writer, while the data is open.
    fn writer(&self) -> Option<mpsc::Sender<WriteCmd>> {
        self.data().as_ref().map(|d| d.tx.clone())
    }

    /// Starts the writer thread on `engine` (the data must be closed).
    pub(crate) fn open_data(self: &Arc<Self>, engine: Engine) -> Result<(), Error> {
        let (tx, rx) = mpsc::channel(WRITE_QUEUE);
        let shared = self.clone();
        let limits = self.limits;
        let thread = std::thread::Builder::new()
            .name("kas-storage-writer".into())
            .spawn(move || writer::run(&shared, engine, rx, limits))
            .map_err(Error::SpawnWriter)?;
        *self.data() = Some(Data { tx, thread });
        Ok(())
    }

    /// Stops the writer once the queued writes are committed and waits for it; the
    /// database is closed when this returns. Blocks.
    pub(crate) fn close_data(&self) {
        let data = self.data().take();
        if let Some(Data { tx, thread }) = data {
            // Writes already handed a sender finish first: the writer ends when the
            // last sender is gone.
            drop(tx);
            if thread.join().is_err() {
                tracing::error!("the storage writer thread panicked");
            }
        }
    }
}

/// A cheap clone for services: the shared state, through which writes reach the writer
/// while the data is open.
#[derive(Debug, Clone)]
pub(crate) struct Handle {
    pub(crate) shared: Arc<Shared>,
}

impl Handle {
    /// Sends a write to the writer thread and waits until it is durable (or rejected).
    /// While the data is being handed over (to or from another process) the write waits;
    /// once this store stopped answering it is refused as not applied.
    pub(crate) async fn write(&self, op: WriteOp) -> WriteResult {
        let mut gate = self.shared.handover.subscribe();
        let tx = loop {
            let now = *gate
                .wait_for(|h| {
                    matches!(
                        h,
                        Handover::Serving | Handover::Draining | Handover::Stopped
                    )
                })
                .await
                .map_err(|_| EtcdError::Stopped)?;
            if now != Handover::Serving {
                return Err(EtcdError::NotApplied);
            }
            match self.shared.writer() {
                Some(tx) => break tx,
                // Released since the look at the gate (which is set first): wait again.
                None if *gate.borrow_and_update() != Handover::Serving => {}
                // Closed for good.
                None => return Err(EtcdError::Stopped),
            }
        };
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
}

impl Store {
    /// Opens the store in `cfg.data_dir` (creating it if needed) and recovers every
    /// revision, the compaction point and the leases.
    pub fn open(cfg: &StoreConfig) -> Result<Store, Error> {
        let (engine, meta, state) = recover(cfg)?;
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
            handover: watch::Sender::new(Handover::Serving),
            data: Mutex::new(None),
            limits: Limits {
                max_txn_ops: cfg.max_txn_ops,
                min_lease_ttl: cfg.min_lease_ttl,
                quota_bytes: cfg.quota_bytes,
            },
            metrics: crate::metrics::Metrics::new(),
        });
        shared.open_data(engine)?;
        Ok(Store {
            handle: Handle { shared },
        })
    }

    /// Drives this store's part in a reload's hand-over of the data (see
    /// [`StoreControl`]).
    pub fn control(&self) -> StoreControl {
        StoreControl::new(self.handle.shared.clone())
    }

    /// The current (last durable) revision.
    pub fn revision(&self) -> i64 {
        self.handle.shared.committed_rev()
    }

    pub(crate) fn handle(&self) -> Handle {
        self.handle.clone()
    }
}

impl Drop for Store {
    /// Stops the writer once the queued writes are committed, and waits for it.
    fn drop(&mut self) {
        self.handle.shared.close_data();
    }
}

/// Opens the database in `cfg.data_dir` and rebuilds the in-memory state from it. A
/// damaged file is reported by name (redb panics on some damage, such as a page of the
/// wrong type: that is a damaged file, not a crash).
pub(crate) fn recover(cfg: &StoreConfig) -> Result<(Engine, Meta, State), Error> {
    let recovered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let (engine, meta) = Engine::open(&cfg.data_dir, cfg.engine_cache_bytes)?;
        let state = State::recover(&engine, meta.compact_rev, &meta.leases)?;
        Ok::<_, Error>((engine, meta, state))
    }));
    let damaged = |why: String| Error::Damaged {
        path: cfg.data_dir.join("store.redb"),
        why,
    };
    let (engine, meta, state) = match recovered {
        Ok(Ok(opened)) => opened,
        Ok(Err(Error::Corrupt(why))) => return Err(damaged(why)),
        Ok(Err(Error::Engine(e))) => return Err(damaged(e.to_string())),
        Ok(Err(e)) => return Err(e),
        Err(panic) => {
            let why = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unreadable");
            return Err(damaged(why.to_owned()));
        }
    };
    Ok((engine, meta, state))
}
