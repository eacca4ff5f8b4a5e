//! Service account tokens: the issuer (signing key, verification keys, issuers, audiences,
//! expiration policy) and the signature, issuer, audience and time checks TokenReview
//! builds on. TokenRequest lives in [`request`].

mod request;

pub(crate) use request::{TokenRequestInput, TokenResponse};

use std::time::{Duration, SystemTime};

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use kas_proto::WorkerConfig;
use kas_server::status::Status;
use serde_json::Value;

use super::{str_at, strings_at, unix_seconds};

/// What can be wrong with the configured keys.
#[derive(Debug, thiserror::Error)]
pub(crate) enum KeyError {
    /// The signing key is not an ECDSA or RSA PKCS#8 key.
    #[error("service account signing key: {0}")]
    Signing(String),
    /// A verification key is not an ECDSA or RSA public key.
    #[error("service account public key {index}: {message}")]
    Public {
        /// Position in the configured list.
        index: usize,
        /// Why.
        message: String,
    },
}

/// One key that verifies tokens.
struct VerifyKey {
    key: DecodingKey,
    ec: bool,
    /// The key ID (SHA-256 of the PKIX DER), when the key came as PKIX.
    kid: Option<String>,
}

/// Signs and verifies service account tokens.
pub(crate) struct TokenIssuer {
    issuers: Vec<String>,
    api_audiences: Vec<String>,
    signer: EncodingKey,
    algorithm: Algorithm,
    kid: String,
    verifiers: Vec<VerifyKey>,
    max_expiration: Option<Duration>,
    extend_expiration: bool,
    /// `--service-account-lookup`: legacy tokens are checked against their Secret and
    /// ServiceAccount.
    legacy_lookup: bool,
}

/// The DER inside the first PEM block of `pem`.
pub(super) fn pem_der(pem: &str) -> Option<Vec<u8>> {
    let body: String = pem
        .lines()
        .skip_while(|l| !l.starts_with("-----BEGIN "))
        .skip(1)
        .take_while(|l| !l.starts_with("-----END "))
        .map(str::trim)
        .collect();
    STANDARD.decode(body).ok()
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// OIDs as they appear in a PKIX public key's DER.
const OID_P256: &[u8] = &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
const OID_P384: &[u8] = &[0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22];
const OID_RSA: &[u8] = &[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01,
];

/// The key ID upstream derives from a public key: SHA-256 over its PKIX DER, base64url.
pub(super) fn key_id(pkix_der: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(ring::digest::digest(&ring::digest::SHA256, pkix_der))
}

fn is_ec(alg: Algorithm) -> bool {
    matches!(alg, Algorithm::ES256 | Algorithm::ES384)
}

impl TokenIssuer {
    /// The issuer the worker's configuration describes.
    pub(crate) fn from_config(c: &WorkerConfig) -> Result<TokenIssuer, KeyError> {
        TokenIssuer::new(
            c.service_account_issuers.clone(),
            c.api_audiences.clone(),
            &c.service_account_signing_key_pem,
            &c.service_account_signing_public_key_pem,
            &c.service_account_public_keys_pem,
            c.service_account_max_token_expiration,
            c.service_account_extend_token_expiration,
        )
        .map(|i| i.with_legacy_lookup(c.service_account_lookup))
    }

    /// With (or without) `--service-account-lookup` for legacy tokens.
    pub(crate) fn with_legacy_lookup(mut self, lookup: bool) -> TokenIssuer {
        self.legacy_lookup = lookup;
        self
    }

    /// Whether legacy tokens are checked against storage.
    pub(crate) fn legacy_lookup(&self) -> bool {
        self.legacy_lookup
    }

    /// A legacy token for service account `name` (`uid`) kept in Secret `secret`.
    pub(crate) fn sign_legacy(
        &self,
        namespace: &str,
        name: &str,
        uid: &str,
        secret: &str,
    ) -> Result<String, Status> {
        self.sign(&super::legacy::claims(namespace, name, uid, secret))
    }

    /// Whether tokens with issuer `iss` are ours: a configured issuer, or legacy.
    fn ours(&self, iss: &str) -> bool {
        iss == super::legacy::LEGACY_ISSUER || self.issuers.iter().any(|i| i == iss)
    }

    /// An issuer from its parts (PEM keys: PKCS#8 private, PKIX or PKCS#1 public).
    pub(crate) fn new(
        issuers: Vec<String>,
        api_audiences: Vec<String>,
        signing_key_pem: &str,
        signing_public_key_pem: &str,
        public_keys_pem: &[String],
        max_expiration: Option<Duration>,
        extend_expiration: bool,
    ) -> Result<TokenIssuer, KeyError> {
        let public_der = pem_der(signing_public_key_pem)
            .ok_or_else(|| KeyError::Signing("the public key is not PEM".into()))?;
        let (algorithm, signer) = if contains(&public_der, OID_P256) {
            (
                Algorithm::ES256,
                EncodingKey::from_ec_pem(signing_key_pem.as_bytes()),
            )
        } else if contains(&public_der, OID_P384) {
            (
                Algorithm::ES384,
                EncodingKey::from_ec_pem(signing_key_pem.as_bytes()),
            )
        } else if contains(&public_der, OID_RSA) {
            (
                Algorithm::RS256,
                EncodingKey::from_rsa_pem(signing_key_pem.as_bytes()),
            )
        } else {
            return Err(KeyError::Signing(
                "only ECDSA P-256, P-384 and RSA keys are supported".into(),
            ));
        };
        let signer = signer.map_err(|e| KeyError::Signing(e.to_string()))?;
        let mut verifiers = Vec::new();
        for (index, pem) in public_keys_pem.iter().enumerate() {
            let pkix = pem.contains("-----BEGIN PUBLIC KEY-----");
            let kid = if pkix {
                pem_der(pem).map(|d| key_id(&d))
            } else {
                None
            };
            let (key, ec) = match DecodingKey::from_ec_pem(pem.as_bytes()) {
                Ok(k) => (k, true),
                Err(_) => match DecodingKey::from_rsa_pem(pem.as_bytes()) {
                    Ok(k) => (k, false),
                    Err(e) => {
                        return Err(KeyError::Public {
                            index,
                            message: e.to_string(),
                        })
                    }
                },
            };
            verifiers.push(VerifyKey { key, ec, kid });
        }
        Ok(TokenIssuer {
            issuers,
            api_audiences,
            signer,
            algorithm,
            kid: key_id(&public_der),
            verifiers,
            max_expiration,
            extend_expiration,
            legacy_lookup: true,
        })
    }

    /// `--api-audiences`.
    pub(crate) fn api_audiences(&self) -> &[String] {
        &self.api_audiences
    }

    /// Signs `claims` with the current key.
    pub(crate) fn sign(&self, claims: &Value) -> Result<String, Status> {
        let mut header = Header::new(self.algorithm);
        header.kid = Some(self.kid.clone());
        header.typ = None;
        jsonwebtoken::encode(&header, claims, &self.signer).map_err(Status::internal)
    }

    /// Checks a token's signature, issuer, audiences and times. `Ok(None)` means the token
    /// is not one of ours (not a JWT, or another issuer): other authenticators may know it.
    /// On success returns the claims and the audiences both sides share.
    pub(crate) fn verify(
        &self,
        token: &str,
        requested_audiences: &[String],
        now: SystemTime,
    ) -> Result<Option<(Value, Vec<String>)>, String> {
        let token = token.trim();
        if token.starts_with('{') {
            return Ok(None);
        }
        let parts: Vec<&str> = token.split('.').collect();
        if parts.len() != 3 {
            return Ok(None);
        }
        // The issuer is read before the signature is checked, only to decide whether the
        // token is ours; it is checked again from the verified claims.
        let unverified: Option<Value> = URL_SAFE_NO_PAD
            .decode(parts[1])
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok());
        let Some(unverified) = unverified else {
            return Ok(None);
        };
        if !self.ours(str_at(&unverified, "/iss")) {
            return Ok(None);
        }
        let Ok(header) = jsonwebtoken::decode_header(token) else {
            return Ok(None);
        };
        // Only public-key algorithms: a token "signed" with HMAC over a public key must
        // never verify.
        if !matches!(
            header.alg,
            Algorithm::ES256
                | Algorithm::ES384
                | Algorithm::RS256
                | Algorithm::RS384
                | Algorithm::RS512
                | Algorithm::PS256
                | Algorithm::PS384
                | Algorithm::PS512
        ) {
            return Err(format!("unexpected signature algorithm {:?}", header.alg));
        }
        let mut validation = Validation::new(header.alg);
        validation.validate_exp = false;
        validation.validate_nbf = false;
        validation.validate_aud = false;
        validation.required_spec_claims.clear();
        let candidates: Vec<&VerifyKey> = self
            .verifiers
            .iter()
            .filter(|k| k.ec == is_ec(header.alg))
            .filter(|k| match (&header.kid, &k.kid) {
                (Some(want), Some(have)) => want == have,
                _ => true,
            })
            .collect();
        if candidates.is_empty() {
            return Err("invalid signature, no keys found".into());
        }
        let mut errors = Vec::new();
        let mut claims = None;
        for key in candidates {
            match jsonwebtoken::decode::<Value>(token, &key.key, &validation) {
                Ok(data) => {
                    claims = Some(data.claims);
                    break;
                }
                Err(e) => errors.push(e.to_string()),
            }
        }
        let Some(claims) = claims else {
            return Err(aggregate(&errors));
        };
        let iss = str_at(&claims, "/iss");
        if !self.ours(iss) {
            return Err(format!("token issuer {iss:?} is invalid"));
        }
        let mut token_auds = match claims.get("aud") {
            Some(Value::String(s)) => vec![s.clone()],
            _ => strings_at(&claims, "/aud"),
        };
        if token_auds.is_empty() {
            token_auds = self.api_audiences.clone();
        }
        let requested = if requested_audiences.is_empty() {
            &self.api_audiences
        } else {
            requested_audiences
        };
        let shared: Vec<String> = token_auds
            .iter()
            .filter(|a| requested.contains(a))
            .cloned()
            .collect();
        if shared.is_empty() && !self.api_audiences.is_empty() {
            return Err(format!(
                "token audiences {} is invalid for the target audiences {}",
                go_quoted_list(&token_auds),
                go_quoted_list(requested)
            ));
        }
        // jose's default leeway is one minute either side.
        let now = unix_seconds(now);
        let leeway = 60;
        if let Some(exp) = claims.get("exp").and_then(Value::as_i64) {
            if now > exp + leeway {
                return Err("service account token has expired".into());
            }
        }
        let not_yet = |c: &str| {
            claims
                .get(c)
                .and_then(Value::as_i64)
                .is_some_and(|t| now + leeway < t)
        };
        if not_yet("nbf") || not_yet("iat") {
            return Err("service account token could not be validated".into());
        }
        Ok(Some((claims, shared)))
    }
}

/// Go's `%q` of a string slice: `["a" "b"]`.
fn go_quoted_list(items: &[String]) -> String {
    kas_server::status::go_quote_list(items)
}

/// utilerrors.NewAggregate's text: the one message, or `[a, b]`.
fn aggregate(errors: &[String]) -> String {
    match errors {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    pub(crate) const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";

    pub(crate) fn issuer_with(max: Option<Duration>) -> TokenIssuer {
        let key = rcgen::KeyPair::generate().expect("key");
        let public = key.public_key_pem();
        TokenIssuer::new(
            vec![ISSUER.into(), "legacy".into()],
            vec![ISSUER.into()],
            &key.serialize_pem(),
            &public,
            std::slice::from_ref(&public),
            max,
            true,
        )
        .expect("issuer")
    }

    pub(crate) fn sa() -> Value {
        json!({"metadata": {"name": "builder", "namespace": "ci", "uid": "sa-uid"}})
    }

    pub(crate) fn request(
        issuer: &TokenIssuer,
        body: Value,
        now: SystemTime,
    ) -> Result<TokenResponse, Status> {
        let sa = sa();
        issuer.token_request(&TokenRequestInput {
            namespace: "ci",
            service_account: &sa,
            body: &body,
            bound_object: None,
            pod_node: None,
            now,
        })
    }

    pub(crate) fn token_of(r: &TokenResponse) -> String {
        str_at(&r.object, "/status/token").to_owned()
    }

    #[test]
    fn issues_and_verifies_a_token() {
        let issuer = issuer_with(None);
        let now = SystemTime::now();
        let r = request(&issuer, json!({"spec": {}}), now).expect("token");
        assert_eq!(r.object["spec"]["expirationSeconds"], 3600);
        assert_eq!(r.object["spec"]["audiences"], json!([ISSUER]));
        assert_eq!(r.object["kind"], "TokenRequest");
        let (claims, auds) = issuer
            .verify(&token_of(&r), &[], now)
            .expect("valid")
            .expect("ours");
        assert_eq!(claims["sub"], "system:serviceaccount:ci:builder");
        assert_eq!(claims["kubernetes.io"]["serviceaccount"]["uid"], "sa-uid");
        assert_eq!(claims["exp"].as_i64(), Some(unix_seconds(now) + 3600));
        assert!(claims["jti"].is_string());
        assert_eq!(auds, [ISSUER]);
        let header = jsonwebtoken::decode_header(&token_of(&r)).expect("header");
        assert_eq!(header.alg, Algorithm::ES256);
        assert!(header.kid.is_some());
    }

    #[test]
    fn rejections() {
        let issuer = issuer_with(None);
        let now = SystemTime::now();
        let r = request(&issuer, json!({"spec": {"audiences": ["other"]}}), now).expect("token");
        let err = issuer
            .verify(&token_of(&r), &[], now)
            .expect_err("audience");
        assert_eq!(
            err,
            format!(
                "token audiences [\"other\"] is invalid for the target audiences [\"{ISSUER}\"]"
            )
        );
        assert!(issuer
            .verify(&token_of(&r), &["other".into()], now)
            .expect("valid")
            .is_some());
        let r = request(&issuer, json!({}), now).expect("token");
        let later = now + Duration::from_secs(3600 + 61);
        assert_eq!(
            issuer
                .verify(&token_of(&r), &[], later)
                .expect_err("expired"),
            "service account token has expired"
        );
        // Another key with the same issuer fails the signature.
        let other = issuer_with(None);
        let r = request(&other, json!({}), now).expect("token");
        assert!(issuer.verify(&token_of(&r), &[], now).is_err());
        // Not ours at all.
        for junk in ["", "a.b", "a.b.c", "{\"iss\":1}", "x.eyJpc3MiOiJub3BlIn0.y"] {
            assert_eq!(issuer.verify(junk, &[], now), Ok(None), "{junk}");
        }
        // Ours by issuer, but garbage after it.
        let forged = format!(
            "eyJhbGciOiJFUzI1NiJ9.{}.AAAA",
            URL_SAFE_NO_PAD.encode(format!("{{\"iss\":\"{ISSUER}\"}}"))
        );
        assert!(issuer.verify(&forged, &[], now).is_err());
    }

    fn round_trip(key_pem: &str, public_pem: &str, alg: Algorithm) {
        let issuer = TokenIssuer::new(
            vec![ISSUER.into()],
            vec![ISSUER.into()],
            key_pem,
            public_pem,
            &[public_pem.to_owned()],
            None,
            true,
        )
        .expect("issuer");
        let now = SystemTime::now();
        let r = request(&issuer, json!({}), now).expect("token");
        let token = token_of(&r);
        assert_eq!(
            jsonwebtoken::decode_header(&token).expect("header").alg,
            alg
        );
        assert!(issuer.verify(&token, &[], now).expect("valid").is_some());
    }

    #[test]
    fn p384_and_rsa_keys() {
        let key = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P384_SHA384).expect("key");
        round_trip(
            &key.serialize_pem(),
            &key.public_key_pem(),
            Algorithm::ES384,
        );
        round_trip(
            include_str!("testdata/rsa-2048.key"),
            include_str!("testdata/rsa-2048.pub"),
            Algorithm::RS256,
        );
    }

    #[test]
    fn hmac_over_the_public_key_is_refused() {
        let key = rcgen::KeyPair::generate().expect("key");
        let public = key.public_key_pem();
        let issuer = TokenIssuer::new(
            vec![ISSUER.into()],
            vec![ISSUER.into()],
            &key.serialize_pem(),
            &public,
            std::slice::from_ref(&public),
            None,
            true,
        )
        .expect("issuer");
        let now = unix_seconds(SystemTime::now());
        let claims = json!({"iss": ISSUER, "aud": [ISSUER], "exp": now + 600, "sub": "x"});
        let forged = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims,
            &EncodingKey::from_secret(public.as_bytes()),
        )
        .expect("encode");
        assert!(issuer.verify(&forged, &[], SystemTime::now()).is_err());
    }

    #[test]
    fn bad_keys_are_errors() {
        assert!(TokenIssuer::new(vec![], vec![], "junk", "junk", &[], None, true).is_err());
        let key = rcgen::KeyPair::generate().expect("key");
        let public = key.public_key_pem();
        assert!(TokenIssuer::new(
            vec![],
            vec![],
            &key.serialize_pem(),
            &public,
            &["-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".into()],
            None,
            true
        )
        .is_err());
    }
}
