//! The aggregator worker: the front door. It owns the secure listener (inherited from the
//! supervisor), terminates TLS, runs the handler chain once, answers health, version and
//! merged discovery itself, and routes everything else to the worker that owns it.

#![forbid(unsafe_code)]

mod apf;
mod apiservices;
mod audit;
mod authn;
mod authn_webhook;
mod chain;
mod conn;
mod director;
mod front;
mod front_certs;
mod front_proxy;
mod head_errors;
mod impersonation;
mod jwt_authn;
pub mod jwt_cel;
pub mod jwt_config;
mod jwt_es512;
mod jwt_file;
mod jwt_reload;
mod merged;
mod metrics;
mod oidc;
mod peer_metrics;
mod remote;
mod seat;
mod serve;
pub mod tls;
mod token_review;
mod token_union;
mod unread;
mod x509;

#[cfg(fuzzing)]
#[doc(hidden)]
pub mod fuzzing;

use kas_server::control::Control;

/// What can stop the aggregator.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The TLS configuration is unusable.
    #[error(transparent)]
    Tls(#[from] tls::TlsError),
    /// The inherited listener is unusable.
    #[error("secure listener: {0}")]
    Listener(#[source] std::io::Error),
    /// An audit backend cannot be opened.
    #[error("audit: {0}")]
    Audit(String),
    /// Storage (for APIServices) cannot be set up.
    #[error(transparent)]
    Storage(#[from] kas_server::Error),
}

/// Runs the aggregator on the inherited `listener` until the supervisor stops it.
pub async fn run(control: Control, listener: std::net::TcpListener) -> Result<(), Error> {
    tls::install_default_provider();
    let front = front::Front::new(control)?;
    apiservices::start(&front).await?;
    let start = kas_server::certfiles::CertSnapshot::from_config(&front.config);
    let watched = front.clone();
    kas_server::certfiles::watch(front.config.cert_files.clone(), start, move |snap| {
        watched.certs.reload(&watched.config, snap)
    });
    jwt_reload::watch(front.clone());
    serve::serve(front, listener).await
}
