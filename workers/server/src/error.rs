//! Errors of the generic server.

/// What can fail in the generic server machinery.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The control channel to the supervisor failed.
    #[error("control channel: {0}")]
    Control(#[from] kas_proto::Error),
    /// The supervisor speaks another protocol version.
    #[error("supervisor speaks control protocol v{theirs}, this worker v{ours}")]
    VersionMismatch {
        /// Ours.
        ours: u32,
        /// Theirs.
        theirs: u32,
    },
    /// The supervisor sent something out of order.
    #[error("unexpected control message: {0}")]
    Unexpected(String),
    /// Binding a unix socket failed.
    #[error("binding {path}: {source}")]
    Bind {
        /// The socket path.
        path: std::path::PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Connecting to another worker failed.
    #[error("connecting to the {role} worker: {source}")]
    Connect {
        /// Which worker.
        role: kas_proto::WorkerRole,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// An HTTP exchange with another worker failed.
    #[error("delegating to the {role} worker: {source}")]
    Delegate {
        /// Which worker.
        role: kas_proto::WorkerRole,
        /// Why.
        #[source]
        source: hyper::Error,
    },
    /// The storage client could not be set up.
    #[error("storage: {0}")]
    Storage(String),
    /// Setting up logging failed.
    #[error("logging: {0}")]
    Logging(String),
}
