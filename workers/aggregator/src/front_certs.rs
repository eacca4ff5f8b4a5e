//! What the front door presents and trusts, replaced as a whole when the certificate
//! files change ([`kas_server::certfiles`]): the TLS configuration (serving certificate,
//! client CA hints) and the client certificate authenticator. Connections read the
//! current set once, at accept; established connections keep theirs, as upstream's.

use std::sync::{Arc, RwLock};

use kas_proto::{RequestHeaderConfig, SecureServing, WorkerConfig};
use kas_server::certfiles::CertSnapshot;
use rustls::ServerConfig;

use crate::tls::TlsError;
use crate::x509::CertAuthenticator;

/// One consistent set.
#[derive(Debug)]
pub(crate) struct Active {
    pub(crate) tls: Arc<ServerConfig>,
    pub(crate) authenticator: CertAuthenticator,
}

/// The current set.
#[derive(Debug)]
pub(crate) struct FrontCerts {
    current: RwLock<Arc<Active>>,
}

fn build(
    serving: &SecureServing,
    request_header: Option<&RequestHeaderConfig>,
) -> Result<Active, TlsError> {
    let (authenticator, hints) = CertAuthenticator::new(&serving.client_ca_pem, request_header)?;
    let tls = crate::tls::server_config(serving, hints)?;
    Ok(Active { tls, authenticator })
}

impl FrontCerts {
    /// The set the configuration describes.
    pub(crate) fn new(config: &WorkerConfig) -> Result<FrontCerts, TlsError> {
        let active = build(&config.serving, config.request_header.as_ref())?;
        Ok(FrontCerts {
            current: RwLock::new(Arc::new(active)),
        })
    }

    /// The set new connections use.
    pub(crate) fn active(&self) -> Arc<Active> {
        match self.current.read() {
            Ok(a) => a.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Builds a set from changed files; swaps it in when it is usable.
    pub(crate) fn reload(&self, config: &WorkerConfig, snap: &CertSnapshot) -> Result<(), String> {
        let mut serving = config.serving.clone();
        if let Some((cert, key)) = &snap.serving {
            serving.cert_pem = cert.clone();
            serving.key_pem = key.clone();
        }
        serving.client_ca_pem = snap.client_ca_pem.clone();
        let request_header = config.request_header.clone().map(|mut rh| {
            if let Some(pem) = &snap.request_header_ca_pem {
                rh.client_ca_pem = pem.clone();
            }
            rh
        });
        let active = build(&serving, request_header.as_ref()).map_err(|e| e.to_string())?;
        match self.current.write() {
            Ok(mut c) => *c = Arc::new(active),
            Err(poisoned) => *poisoned.into_inner() = Arc::new(active),
        }
        Ok(())
    }
}
