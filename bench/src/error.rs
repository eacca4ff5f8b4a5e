//! The one error type of the benchmark library.

use std::path::PathBuf;

/// What failed while setting up or running a benchmark.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// A PEM file held nothing usable.
    #[error("{path}: {what}")]
    Pem {
        /// The file.
        path: PathBuf,
        /// What was wrong with it.
        what: String,
    },
    /// A TLS configuration was rejected by rustls.
    #[error("TLS configuration: {0}")]
    TlsConfig(#[from] rustls::Error),
    /// Certificate generation failed.
    #[error("certificate generation: {0}")]
    CertGen(#[from] rcgen::Error),
    /// The target URL is not one we can load.
    #[error("bad URL {url:?}: {why}")]
    Url {
        /// The URL as given.
        url: String,
        /// Why it was refused.
        why: &'static str,
    },
    /// A request could not be built from the given method, headers or URL.
    #[error("bad request: {0}")]
    Request(#[from] http::Error),
    /// TCP connect failed.
    #[error("connect to {addr}: {source}")]
    Connect {
        /// host:port.
        addr: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The TLS handshake failed.
    #[error("TLS handshake: {0}")]
    Handshake(#[source] std::io::Error),
    /// The server negotiated another protocol than the one asked for.
    #[error("server negotiated ALPN {got:?}, wanted {wanted:?}")]
    Alpn {
        /// What we offered.
        wanted: &'static str,
        /// What came back (None: no ALPN at all).
        got: Option<String>,
    },
    /// HTTP framing failed.
    #[error("HTTP: {0}")]
    Http(#[from] hyper::Error),
    /// A response had an unexpected status.
    #[error("{url} answered {status}")]
    Status {
        /// The URL fetched.
        url: String,
        /// The status it answered.
        status: http::StatusCode,
    },
    /// The latency histogram refused its bounds or a merge (a bug here, not input).
    #[error("histogram: {0}")]
    Histogram(String),
    /// Something did not happen in time.
    #[error("timed out after {0:?} waiting for {1}")]
    Timeout(std::time::Duration, String),
    /// Spawning, signalling or waiting for a child process failed.
    #[error("process {command:?}: {source}")]
    Process {
        /// The program.
        command: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The benchmark cannot run as set up (a missing worker, a bad argument, …).
    #[error("{0}")]
    Setup(String),
    /// An etcd v3 call failed.
    #[error("etcd: {0}")]
    Etcd(#[from] etcd_client::Error),
    /// A gRPC channel could not be made.
    #[error("gRPC channel: {0}")]
    Channel(#[from] tonic::transport::Error),
    /// A child process exited before it became ready.
    #[error("process {command:?} exited before ready ({status}); log in {log}")]
    EarlyExit {
        /// The program.
        command: String,
        /// How it exited.
        status: std::process::ExitStatus,
        /// Where its output went.
        log: PathBuf,
    },
}

impl Error {
    /// Wraps an I/O error on `path`.
    pub fn file(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::File {
            path: path.into(),
            source,
        }
    }
}
