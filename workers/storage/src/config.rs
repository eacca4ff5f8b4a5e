//! Configuration of the embedded store: paths and tunables, with etcd's defaults.

use std::path::PathBuf;
use std::time::Duration;

/// etcd's default space quota, 2 GiB.
pub const DEFAULT_QUOTA_BYTES: u64 = 2 * 1024 * 1024 * 1024;

/// When the store compacts its history by itself. The API server issues `Compact` on its
/// own schedule, so the default is [`AutoCompaction::Off`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AutoCompaction {
    /// Only explicit `Compact` requests drop history.
    #[default]
    Off,
    /// Every `check_every`, keep only the last `keep` revisions (etcd's "revision" mode).
    Revisions {
        /// How many revisions of history to keep.
        keep: i64,
        /// How often to check.
        check_every: Duration,
    },
    /// Every `every`, compact to the revision that was current one period ago (etcd's
    /// "periodic" mode, simplified).
    Periodic {
        /// The period.
        every: Duration,
    },
}

/// Where the store lives and how it behaves. Build it with [`StoreConfig::new`] and
/// change the public fields as needed.
#[derive(Debug, Clone)]
pub struct StoreConfig {
    /// Directory of the database file (`store.redb`); created if missing.
    pub data_dir: PathBuf,
    /// The unix socket the gRPC API is served on.
    pub socket_path: PathBuf,
    /// Automatic compaction; off by default.
    pub auto_compaction: AutoCompaction,
    /// How many committed write batches a watch stream may fall behind before it has to
    /// catch up from the in-memory history instead (bounds memory per slow watcher).
    pub watch_buffer: usize,
    /// Interval of progress notifications for watchers that asked for them (etcd: 10 min).
    pub progress_notify_interval: Duration,
    /// Most operations (compares, success ops, failure ops) in one Txn (etcd: 128).
    pub max_txn_ops: usize,
    /// Largest request accepted, in bytes (etcd: 1.5 MiB).
    pub max_request_bytes: usize,
    /// Shortest lease TTL in seconds; shorter grants are raised to it (etcd: 2 s with
    /// default election timeouts).
    pub min_lease_ttl: i64,
    /// How long `serve` waits for open streams to finish after shutdown is requested.
    pub shutdown_grace: Duration,
    /// Where etcd's `/metrics` is served (HTTP/1.1 on a unix socket); `None`: nowhere.
    pub metrics_socket: Option<PathBuf>,
    /// Most bytes of the database file's pages the engine keeps in memory. Reads are
    /// answered from the in-memory index, so this cache only serves the writer's walks
    /// down the file's B-trees and the scan at open (redb's own default, 1 GiB, let a
    /// write-heavy store keep a page copy of most of its file).
    pub engine_cache_bytes: usize,
    /// The space quota (etcd's `--quota-backend-bytes`): a write that adds data and would
    /// take the database file past it raises the NOSPACE alarm and is refused.
    pub quota_bytes: u64,
}

impl StoreConfig {
    /// A configuration with etcd's defaults for the given data dir and socket.
    pub fn new(data_dir: impl Into<PathBuf>, socket_path: impl Into<PathBuf>) -> Self {
        Self {
            data_dir: data_dir.into(),
            socket_path: socket_path.into(),
            auto_compaction: AutoCompaction::Off,
            watch_buffer: 1024,
            progress_notify_interval: Duration::from_secs(600),
            max_txn_ops: 128,
            max_request_bytes: 1536 * 1024,
            min_lease_ttl: 2,
            shutdown_grace: Duration::from_secs(5),
            metrics_socket: None,
            engine_cache_bytes: 32 * 1024 * 1024,
            quota_bytes: DEFAULT_QUOTA_BYTES,
        }
    }
}
