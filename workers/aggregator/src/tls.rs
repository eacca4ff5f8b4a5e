//! The front door's TLS: rustls with the ring provider, TLS ≥ 1.2 (or 1.3 by flag), ALPN
//! `h2` and `http/1.1`, client certificates requested but not required; their chains are
//! judged by the authenticators ([`crate::x509`]), as kube-apiserver's are.

use std::sync::Arc;

use kas_proto::{SecureServing, TlsVersion};
use rustls::crypto::ring::cipher_suite as suites;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{DistinguishedName, ServerConfig, SupportedCipherSuite};

/// Why a TLS configuration cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A PEM block could not be read.
    #[error("{what}: {message}")]
    Pem {
        /// What was being read.
        what: &'static str,
        /// The parser's complaint.
        message: String,
    },
    /// rustls refused the configuration.
    #[error("TLS configuration: {0}")]
    Rustls(#[from] rustls::Error),
    /// The client CA bundle could not be used.
    #[error("client CA bundle: {0}")]
    ClientCa(String),
}

/// Parses a PEM certificate chain; at least one certificate is required.
pub fn parse_cert_chain(pem: &[u8]) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let certs: Vec<_> = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<_, _>>()
        .map_err(|e| TlsError::Pem {
            what: "certificate",
            message: e.to_string(),
        })?;
    if certs.is_empty() {
        return Err(TlsError::Pem {
            what: "certificate",
            message: "no PEM certificate found".into(),
        });
    }
    Ok(certs)
}

/// Parses a PEM private key (PKCS#8, PKCS#1 or SEC1).
pub fn parse_private_key(pem: &[u8]) -> Result<PrivateKeyDer<'static>, TlsError> {
    PrivateKeyDer::from_pem_slice(pem).map_err(|e| TlsError::Pem {
        what: "private key",
        message: e.to_string(),
    })
}

/// The rustls suite for an IANA / Go cipher-suite name, if rustls implements it.
pub fn cipher_suite(name: &str) -> Option<SupportedCipherSuite> {
    Some(match name {
        "TLS_AES_128_GCM_SHA256" => suites::TLS13_AES_128_GCM_SHA256,
        "TLS_AES_256_GCM_SHA384" => suites::TLS13_AES_256_GCM_SHA384,
        "TLS_CHACHA20_POLY1305_SHA256" => suites::TLS13_CHACHA20_POLY1305_SHA256,
        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256" => {
            suites::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256
        }
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384" => {
            suites::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384
        }
        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305"
        | "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256" => {
            suites::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256
        }
        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256" => suites::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384" => suites::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305" | "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256" => {
            suites::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256
        }
        _ => return None,
    })
}

/// Builds the server configuration for the secure port; `ca_hints` are the subjects of
/// the CAs client certificates may chain to.
pub fn server_config(
    s: &SecureServing,
    ca_hints: Vec<DistinguishedName>,
) -> Result<Arc<ServerConfig>, TlsError> {
    let mut provider = rustls::crypto::ring::default_provider();
    if !s.tls_cipher_suites.is_empty() {
        let mut chosen: Vec<SupportedCipherSuite> = s
            .tls_cipher_suites
            .iter()
            .filter_map(|n| cipher_suite(n))
            .collect();
        // Go does not let TLS 1.3 suites be configured; neither do we drop them.
        for tls13 in [
            suites::TLS13_AES_128_GCM_SHA256,
            suites::TLS13_AES_256_GCM_SHA384,
            suites::TLS13_CHACHA20_POLY1305_SHA256,
        ] {
            if !chosen.iter().any(|c| c.suite() == tls13.suite()) {
                chosen.push(tls13);
            }
        }
        provider.cipher_suites = chosen;
    }
    let provider = Arc::new(provider);
    let versions: &[&'static rustls::SupportedProtocolVersion] = match s.tls_min_version {
        TlsVersion::Tls13 => &[&rustls::version::TLS13],
        _ => &[&rustls::version::TLS12, &rustls::version::TLS13],
    };

    let verifier = Arc::new(crate::x509::RequestClientCert::new(
        ca_hints,
        provider.signature_verification_algorithms,
    ));

    let mut config = ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(versions)?
        .with_client_cert_verifier(verifier)
        .with_single_cert(
            parse_cert_chain(s.cert_pem.as_bytes())?,
            parse_private_key(s.key_pem.as_bytes())?,
        )?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Installs ring as the process-wide rustls provider (for any code that asks for the
/// default).
pub fn install_default_provider() {
    let _ = CryptoProvider::install_default(rustls::crypto::ring::default_provider());
}
