//! Client certificates, as kube-apiserver's authenticators see them: TLS asks for a
//! certificate and checks that the client holds its key, but accepts any chain; the
//! authenticators then verify it. Against the client CA a certificate names a user
//! (CN = user, O = groups); against the request-header CA (with an allowed common name)
//! it marks a front proxy, which may assert the user in headers. A certificate that
//! neither CA vouches for is an authentication failure (401), not an anonymous request.

use std::sync::Arc;

use kas_proto::{RequestHeaderConfig, UserInfo};
use rustls::client::danger::HandshakeSignatureValid;
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::server::WebPkiClientVerifier;
use rustls::{DigitallySignedStruct, DistinguishedName, RootCertStore, SignatureScheme};
use x509_parser::prelude::{FromDer, X509Certificate};

use crate::tls::TlsError;

/// What the authenticators made of a connection's client certificate.
#[derive(Debug, Clone)]
pub(crate) struct PeerCert {
    /// The user the client CA vouches for, or why it does not.
    pub(crate) user: Result<UserInfo, String>,
    /// Whether the request-header CA vouches for it with an allowed name (or why not,
    /// when a request-header CA is configured).
    pub(crate) front_proxy: Option<Result<(), String>>,
}

/// The two verifiers.
pub(crate) struct CertAuthenticator {
    client: Arc<dyn ClientCertVerifier>,
    front_proxy: Option<(Arc<dyn ClientCertVerifier>, Vec<String>)>,
}

impl std::fmt::Debug for CertAuthenticator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CertAuthenticator").finish_non_exhaustive()
    }
}

/// A verifier of chains to the CAs in `pem`.
fn verifier(
    pem: &str,
    what: &str,
) -> Result<(Arc<dyn ClientCertVerifier>, Vec<DistinguishedName>), TlsError> {
    let certs = CertificateDer::pem_slice_iter(pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TlsError::ClientCa(format!("{what}: {e}")))?;
    let mut roots = RootCertStore::empty();
    let (added, _) = roots.add_parsable_certificates(certs);
    if added == 0 {
        return Err(TlsError::ClientCa(format!(
            "{what}: no usable CA certificate"
        )));
    }
    let subjects = roots.subjects();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let v = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
        .allow_unauthenticated()
        .build()
        .map_err(|e| TlsError::ClientCa(format!("{what}: {e}")))?;
    Ok((v, subjects))
}

/// The common name of a certificate.
fn common_name(cert: &CertificateDer<'_>) -> Option<String> {
    let (_, cert) = X509Certificate::from_der(cert.as_ref()).ok()?;
    let cn = cert
        .subject()
        .iter_common_name()
        .next()?
        .as_str()
        .ok()?
        .to_owned();
    Some(cn)
}

impl CertAuthenticator {
    /// The authenticator for the client CA bundle and, when configured, the front proxy's
    /// CA; with the subjects of both, for the TLS handshake's hints.
    pub(crate) fn new(
        client_ca_pem: &str,
        request_header: Option<&RequestHeaderConfig>,
    ) -> Result<(CertAuthenticator, Vec<DistinguishedName>), TlsError> {
        let (client, mut hints) = verifier(client_ca_pem, "client CA bundle")?;
        let front_proxy = match request_header {
            Some(rh) => {
                let (v, subjects) = verifier(&rh.client_ca_pem, "request-header CA bundle")?;
                hints.extend(subjects);
                Some((v, rh.allowed_names.clone()))
            }
            None => None,
        };
        Ok((
            CertAuthenticator {
                client,
                front_proxy,
            },
            hints,
        ))
    }

    /// Verifies a connection's certificate chain (leaf first) with both CAs.
    pub(crate) fn peer(&self, chain: &[CertificateDer<'_>]) -> Option<PeerCert> {
        let (leaf, intermediates) = chain.split_first()?;
        let now = UnixTime::now();
        let user = self
            .client
            .verify_client_cert(leaf, intermediates, now)
            .map_err(|e| e.to_string())
            .and_then(|_| {
                crate::authn::user_from_cert(leaf)
                    .ok_or_else(|| "certificate has no common name".to_owned())
            });
        let front_proxy = self.front_proxy.as_ref().map(|(v, allowed)| {
            v.verify_client_cert(leaf, intermediates, now)
                .map_err(|e| e.to_string())?;
            let cn = common_name(leaf).unwrap_or_default();
            if allowed.is_empty() || allowed.contains(&cn) {
                Ok(())
            } else {
                Err(format!(
                    "x509: subject with cn={cn} is not in the allowed list"
                ))
            }
        });
        Some(PeerCert { user, front_proxy })
    }
}

/// The TLS side: a client certificate is asked for (with both CAs as hints) and the
/// client must prove it holds the key; the chain is judged by [`CertAuthenticator`].
#[derive(Debug)]
pub(crate) struct RequestClientCert {
    hints: Vec<DistinguishedName>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl RequestClientCert {
    pub(crate) fn new(
        hints: Vec<DistinguishedName>,
        algorithms: WebPkiSupportedAlgorithms,
    ) -> RequestClientCert {
        RequestClientCert { hints, algorithms }
    }
}

impl ClientCertVerifier for RequestClientCert {
    fn offer_client_auth(&self) -> bool {
        true
    }

    fn client_auth_mandatory(&self) -> bool {
        false
    }

    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        &self.hints
    }

    fn verify_client_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _now: UnixTime,
    ) -> Result<ClientCertVerified, rustls::Error> {
        Ok(ClientCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}
