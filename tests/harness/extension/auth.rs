//! Request-header authentication as k8s.io/apiserver does it for an extension server: a
//! client certificate from the front-proxy CA with an allowed CN vouches for the
//! `X-Remote-*` headers that name the user; anything else is not authenticated.

use std::collections::BTreeMap;
use std::sync::Arc;

use http::HeaderMap;
use rustls::pki_types::{CertificateDer, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::server::WebPkiClientVerifier;
use rustls::{DigitallySignedStruct, DistinguishedName, SignatureScheme};

use super::{provider, Shared};

/// The user a request is made for.
#[derive(Clone, Debug, Default)]
pub(crate) struct Identity {
    pub(crate) user: String,
    pub(crate) uid: Option<String>,
    pub(crate) groups: Vec<String>,
    pub(crate) extra: BTreeMap<String, Vec<String>>,
}

/// What a connection's client certificate says.
#[derive(Clone, Debug)]
pub(crate) enum Peer {
    None,
    /// Signed by the front-proxy CA, with an allowed CN.
    Proxy(String),
    /// Presented but not trusted (another CA, or a CN not allowed): why, and the CN.
    Refused(Option<String>),
}

/// A verifier for client certificates signed by `ca_pem`.
pub(crate) fn verifier_for(ca_pem: &str) -> Arc<dyn ClientCertVerifier> {
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem.as_bytes()) {
        roots.add(cert.expect("front-proxy CA")).expect("add root");
    }
    WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider())
        .build()
        .expect("verifier")
}

/// Asks for a client certificate and takes any, as Go's `tls.RequestClientCert` does:
/// the handshake succeeds and the request is refused with a 401 Status, which is what
/// an extension server answers for a certificate from another CA. The handshake
/// signature is still checked, so the client holds the certificate's key.
#[derive(Debug)]
pub(crate) struct AnyClientCert(pub(crate) Arc<dyn ClientCertVerifier>);

impl ClientCertVerifier for AnyClientCert {
    fn client_auth_mandatory(&self) -> bool {
        false
    }

    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        &[]
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
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

fn common_name(der: &CertificateDer<'_>) -> Option<String> {
    let (_, cert) = x509_parser::parse_x509_certificate(der).ok()?;
    let cn = cert.subject().iter_common_name().next()?.as_str().ok()?;
    Some(cn.to_owned())
}

/// As k8s.io/apiserver's x509 request-header verifier: the chain must verify against the
/// front-proxy CA (for client auth), and the CN must be allowed when names are given.
pub(crate) fn judge_peer(shared: &Shared, certs: Option<&[CertificateDer<'static>]>) -> Peer {
    let Some((leaf, rest)) = certs.and_then(|c| c.split_first()) else {
        return Peer::None;
    };
    let cn = common_name(leaf);
    let verified = shared
        .verifier
        .verify_client_cert(leaf, rest, UnixTime::now())
        .is_ok();
    match cn {
        Some(cn)
            if verified
                && (shared.allowed_names.is_empty() || shared.allowed_names.contains(&cn)) =>
        {
            Peer::Proxy(cn)
        }
        cn => Peer::Refused(cn),
    }
}

/// The user the request headers name, as the request-header authenticator reads them;
/// `None` without a user.
pub(crate) fn identity_from(headers: &HeaderMap) -> Option<Identity> {
    let values = |name: &str| -> Vec<String> {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(str::to_owned)
            .collect()
    };
    let user = values("x-remote-user")
        .into_iter()
        .find(|u| !u.is_empty())?;
    let mut extra: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (name, value) in headers {
        let Some(key) = name.as_str().strip_prefix("x-remote-extra-") else {
            continue;
        };
        if let Ok(v) = value.to_str() {
            extra
                .entry(percent_decode(key).to_lowercase())
                .or_default()
                .push(v.to_owned());
        }
    }
    Some(Identity {
        user,
        uid: values("x-remote-uid").into_iter().next(),
        groups: values("x-remote-group"),
        extra,
    })
}

/// `%XX` decoded (invalid escapes kept as they are); `+` stays `+`.
pub(crate) fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
