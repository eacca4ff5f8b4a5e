//! TLS plumbing shared by the load generator and the baseline: PEM loading, client and
//! server configurations on the ring provider, and a throw-away CA + serving certificate
//! for runs without the real server.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, ServerConfig, SignatureScheme};

use crate::Error;

/// ALPN id of HTTP/2.
pub const ALPN_H2: &[u8] = b"h2";
/// ALPN id of HTTP/1.1.
pub const ALPN_HTTP1: &[u8] = b"http/1.1";

/// The one crypto provider of the workspace.
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Reads every certificate of a PEM file.
pub fn load_certs(path: &Path) -> Result<Vec<CertificateDer<'static>>, Error> {
    let pem = fs::read(path).map_err(|e| Error::file(path, e))?;
    let certs = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Error::Pem {
            path: path.into(),
            what: e.to_string(),
        })?;
    if certs.is_empty() {
        return Err(Error::Pem {
            path: path.into(),
            what: "no CERTIFICATE block".into(),
        });
    }
    Ok(certs)
}

/// Reads the first private key (PKCS#8, PKCS#1 or SEC1) of a PEM file.
pub fn load_key(path: &Path) -> Result<PrivateKeyDer<'static>, Error> {
    let pem = fs::read(path).map_err(|e| Error::file(path, e))?;
    PrivateKeyDer::from_pem_slice(&pem).map_err(|e| Error::Pem {
        path: path.into(),
        what: e.to_string(),
    })
}

/// How a client checks the server's certificate.
#[derive(Debug, Clone)]
pub enum ServerTrust {
    /// Against the CA certificates in this PEM file.
    CaFile(PathBuf),
    /// Not at all (signatures are still checked). Only for readiness polling, where the
    /// CA may not exist yet when polling starts.
    Any,
}

/// A client certificate and its key, both PEM files.
#[derive(Debug, Clone)]
pub struct ClientIdentity {
    /// Certificate chain.
    pub cert: PathBuf,
    /// Private key.
    pub key: PathBuf,
}

/// Builds a client configuration offering exactly `alpn`.
pub fn client_config(
    trust: &ServerTrust,
    identity: Option<&ClientIdentity>,
    alpn: &[&[u8]],
) -> Result<Arc<ClientConfig>, Error> {
    let provider = provider();
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()?;
    let builder = match trust {
        ServerTrust::CaFile(path) => {
            let mut roots = RootCertStore::empty();
            for cert in load_certs(path)? {
                roots.add(cert)?;
            }
            builder.with_root_certificates(roots)
        }
        ServerTrust::Any => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AnyServer {
                algorithms: provider.signature_verification_algorithms,
            })),
    };
    let mut config = match identity {
        Some(id) => builder.with_client_auth_cert(load_certs(&id.cert)?, load_key(&id.key)?)?,
        None => builder.with_no_client_auth(),
    };
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    Ok(Arc::new(config))
}

/// Builds a server configuration offering h2 and http/1.1, like the real server.
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, Error> {
    let mut config = ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(load_certs(cert)?, load_key(key)?)?;
    config.alpn_protocols = vec![ALPN_H2.to_vec(), ALPN_HTTP1.to_vec()];
    Ok(Arc::new(config))
}

/// Files of a self-signed set, named as the real server names its own under `pki/`.
#[derive(Debug, Clone)]
pub struct SelfSigned {
    /// The CA certificate clients trust.
    pub ca: PathBuf,
    /// The serving certificate (SANs 127.0.0.1, ::1 and localhost).
    pub cert: PathBuf,
    /// The serving key.
    pub key: PathBuf,
}

impl SelfSigned {
    /// The file names inside `dir`.
    pub fn in_dir(dir: &Path) -> Self {
        Self {
            ca: dir.join("ca.crt"),
            cert: dir.join("apiserver.crt"),
            key: dir.join("apiserver.key"),
        }
    }

    /// Reuses the set in `dir` when all three files exist, else generates a new CA and
    /// serving certificate there. Returns whether it generated.
    pub fn ensure(dir: &Path) -> Result<(Self, bool), Error> {
        let set = Self::in_dir(dir);
        if set.ca.exists() && set.cert.exists() && set.key.exists() {
            return Ok((set, false));
        }
        fs::create_dir_all(dir).map_err(|e| Error::file(dir, e))?;

        let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new())?;
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "kas-bench-ca");
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca_params.key_usages = vec![
            rcgen::KeyUsagePurpose::KeyCertSign,
            rcgen::KeyUsagePurpose::DigitalSignature,
        ];
        let ca = rcgen::CertifiedIssuer::self_signed(ca_params, rcgen::KeyPair::generate()?)?;

        let mut leaf_params = rcgen::CertificateParams::new(vec![
            "localhost".to_string(),
            "127.0.0.1".to_string(),
            "::1".to_string(),
        ])?;
        leaf_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "kas-bench-baseline");
        leaf_params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
        let leaf_key = rcgen::KeyPair::generate()?;
        let leaf = leaf_params.signed_by(&leaf_key, &ca)?;

        write(&set.ca, ca.pem().as_bytes())?;
        write(&set.key, leaf_key.serialize_pem().as_bytes())?;
        write(&set.cert, leaf.pem().as_bytes())?;
        Ok((set, true))
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    fs::write(path, bytes).map_err(|e| Error::file(path, e))
}

/// Accepts any server certificate but still checks handshake signatures, so a TLS 1.3
/// handshake costs what it costs with a real verifier minus the chain walk.
#[derive(Debug)]
struct AnyServer {
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for AnyServer {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}
