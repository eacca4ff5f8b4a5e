//! Errors: [`Error`] for opening and serving the store, [`EtcdError`] for the etcd
//! errors a client sees, each turned into the gRPC status etcd would send.

use std::path::PathBuf;

/// What failed while opening or serving the store.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The data dir could not be created.
    #[error("cannot create data dir {path}")]
    CreateDataDir {
        /// The data dir.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The database file could not be opened (or is locked by another process).
    #[error("cannot open database {path}")]
    OpenEngine {
        /// The database file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: redb::Error,
    },
    /// Reading or writing the database failed.
    #[error("database error")]
    Engine(#[from] redb::Error),
    /// A snapshot's file could not be written or read.
    #[error("snapshot file {path}")]
    Snapshot {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A record in the database could not be decoded.
    #[error("corrupt record in database: {0}")]
    Corrupt(String),
    /// The database file cannot be read back whole: the store does not start.
    #[error("database {path} is damaged, refusing to serve from it: {why}")]
    Damaged {
        /// The database file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// The writer thread could not be started.
    #[error("cannot start the writer thread")]
    SpawnWriter(#[source] std::io::Error),
    /// The unix socket could not be prepared or bound.
    #[error("cannot bind unix socket {path}")]
    Bind {
        /// The socket path.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The gRPC server failed.
    #[error("gRPC server failed")]
    Serve(#[source] tonic::transport::Error),
    /// A blocking task (opening the database) panicked.
    #[error("opening the store failed")]
    Task(#[source] tokio::task::JoinError),
}

impl Error {
    /// Whether the database is open in another process (a store worker that is still
    /// closing it).
    pub fn is_locked(&self) -> bool {
        matches!(
            self,
            Error::OpenEngine {
                source: redb::Error::DatabaseAlreadyOpen,
                ..
            }
        )
    }
}

/// An etcd error as a client sees it; the messages and codes are etcd's (`rpctypes`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum EtcdError {
    #[error("etcdserver: mvcc: required revision has been compacted")]
    Compacted,
    #[error("etcdserver: mvcc: required revision is a future revision")]
    FutureRev,
    #[error("etcdserver: key is not provided")]
    EmptyKey,
    #[error("etcdserver: key not found")]
    KeyNotFound,
    #[error("etcdserver: value is provided")]
    ValueProvided,
    #[error("etcdserver: lease is provided")]
    LeaseProvided,
    #[error("etcdserver: requested lease not found")]
    LeaseNotFound,
    #[error("etcdserver: lease already exists")]
    LeaseExist,
    #[error("etcdserver: too large lease TTL")]
    LeaseTtlTooLarge,
    #[error("etcdserver: too many operations in txn request")]
    TooManyOps,
    #[error("etcdserver: duplicate key given in txn request")]
    DuplicateKey,
    #[error("etcdserver: request is too large")]
    RequestTooLarge,
    #[error("etcdserver: nested txn is not supported by the embedded store")]
    NestedTxn,
    #[error("etcdserver: the embedded store is closed")]
    Stopped,
    /// The NOSPACE alarm is raised: writes that add data are refused.
    #[error("etcdserver: mvcc: database space exceeded")]
    NoSpace,
    /// A write could not be made durable; nothing of it was applied.
    #[error("etcdserver: the embedded store could not persist the write, nothing of it was applied: {0}")]
    NotPersisted(String),
    /// A snapshot could not be taken.
    #[error("etcdserver: snapshot failed: {0}")]
    Snapshot(String),
    /// The CORRUPT alarm is raised: every request is refused.
    #[error("etcdserver: corrupt cluster")]
    Corrupt,
    /// Refused unprocessed by a store that handed its data to a successor: sending the
    /// request again (it reaches the successor) cannot apply it twice.
    #[error("{}", NOT_APPLIED)]
    NotApplied,
}

/// The message of [`EtcdError::NotApplied`] (code `Unavailable`); the API servers' etcd
/// client sends a request refused with it again.
pub const NOT_APPLIED: &str =
    "etcdserver: request not applied: the embedded store is handing over to its successor";

impl From<EtcdError> for tonic::Status {
    fn from(e: EtcdError) -> Self {
        use tonic::Code;
        let code = match e {
            EtcdError::Compacted | EtcdError::FutureRev | EtcdError::LeaseTtlTooLarge => {
                Code::OutOfRange
            }
            EtcdError::LeaseNotFound => Code::NotFound,
            EtcdError::LeaseExist => Code::FailedPrecondition,
            EtcdError::EmptyKey
            | EtcdError::KeyNotFound
            | EtcdError::ValueProvided
            | EtcdError::LeaseProvided
            | EtcdError::TooManyOps
            | EtcdError::DuplicateKey
            | EtcdError::RequestTooLarge
            | EtcdError::NestedTxn => Code::InvalidArgument,
            EtcdError::Stopped | EtcdError::NotApplied | EtcdError::NotPersisted(_) => {
                Code::Unavailable
            }
            EtcdError::NoSpace => Code::ResourceExhausted,
            EtcdError::Snapshot(_) => Code::Internal,
            EtcdError::Corrupt => Code::DataLoss,
        };
        tonic::Status::new(code, e.to_string())
    }
}
