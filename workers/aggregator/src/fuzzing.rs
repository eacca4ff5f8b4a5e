//! Entry points for the fuzz targets (`fuzz/`), compiled only with `--cfg fuzzing`: the
//! JWT authenticator over keys it holds, and the client certificate authenticator.

use kas_proto::{JwtAuthenticator, RequestHeaderConfig, UserInfo};
use rustls::pki_types::CertificateDer;
use serde_json::Value;

use crate::jwt_authn::JwtAuthenticators;
use crate::x509::CertAuthenticator;

/// JWT authenticators (`--authentication-config`'s `jwt` entries) holding a key set.
pub struct Jwt(JwtAuthenticators);

impl Jwt {
    /// The authenticators of `configs`, each holding the keys of the JWKS `jwks`.
    pub fn new(configs: &[JwtAuthenticator], jwks: &Value, signing_algs: &[&str]) -> Jwt {
        Jwt(JwtAuthenticators::holding(configs, jwks, signing_algs))
    }

    /// The union's view of a bearer token at `now`: `None` when it is not this issuer's,
    /// else the user or why the token is refused (a 401).
    pub async fn authenticate(&self, token: &str, now: f64) -> Option<Result<UserInfo, String>> {
        self.0.authenticate_at(token, now).await
    }
}

/// The client certificate authenticator (`--client-ca-file`, and the request-header CA).
pub struct Certs(CertAuthenticator);

/// What the authenticators made of a certificate chain: the user (or why none, a 401),
/// and whether a front proxy presented it (when a request-header CA is configured).
pub type Verdict = (Result<UserInfo, String>, Option<Result<(), String>>);

impl Certs {
    /// The authenticator of the client CA bundle and a request-header CA bundle with its
    /// allowed names.
    pub fn new(
        client_ca_pem: &str,
        front_proxy: Option<(&str, Vec<String>)>,
    ) -> Result<Certs, String> {
        let rh = front_proxy.map(|(pem, allowed_names)| RequestHeaderConfig {
            client_ca_pem: pem.to_owned(),
            allowed_names,
            ..Default::default()
        });
        CertAuthenticator::new(client_ca_pem, rh.as_ref())
            .map(|(a, _)| Certs(a))
            .map_err(|e| e.to_string())
    }

    /// The verdict on a peer's chain (DER, leaf first); `None` for an empty chain.
    pub fn peer(&self, chain: &[&[u8]]) -> Option<Verdict> {
        let chain: Vec<CertificateDer<'_>> =
            chain.iter().map(|c| CertificateDer::from(*c)).collect();
        self.0.peer(&chain).map(|p| (p.user, p.front_proxy))
    }
}

/// The user a (verified) client certificate names.
pub fn user_from_cert(der: &[u8]) -> Option<UserInfo> {
    crate::authn::user_from_cert(&CertificateDer::from(der))
}

/// What the front door makes of the kube-api worker's TokenReview answer about a
/// service account or bootstrap token: the user, why the token is refused (a 401), or
/// `None` when no authenticator had an opinion (also a 401 unless another knows it).
pub fn token_review_verdict(answer: &Value) -> Option<Result<UserInfo, String>> {
    crate::token_union::review_verdict(answer).map(|r| r.map(|a| a.user))
}
