//! The service-account flags: issuers, verification and signing keys, token expiration,
//! JWKS URI and API audiences, checked as kube-apiserver checks them.

use std::time::Duration;

use super::Errors;
use crate::options::Options;

/// The issuer used when no `--service-account-issuer` is given. kube-apiserver refuses to
/// start without the flag; we default it so that a start with no flags works.
pub(crate) const DEFAULT_SERVICE_ACCOUNT_ISSUER: &str =
    "https://kubernetes.default.svc.cluster.local";

/// The service-account flags, checked.
pub(super) struct ServiceAccountFlags {
    pub(super) issuers: Vec<String>,
    pub(super) public_keys_pem: Vec<String>,
    pub(super) signing_key_pem: Option<String>,
    pub(super) max_token_expiration: Option<Duration>,
    pub(super) jwks_uri: Option<String>,
    pub(super) api_audiences: Vec<String>,
}

pub(super) fn service_account(errs: &mut Errors, o: &Options) -> ServiceAccountFlags {
    const ISS: &str = "--service-account-issuer";
    let mut issuers: Vec<String> = Vec::new();
    for issuer in &o.service_account_issuer {
        if issuer.is_empty() {
            errs.push(ISS, "service-account-issuer should not be an empty string");
        } else if issuer.contains(':') && !looks_like_url(issuer) {
            errs.push(
                ISS,
                format!(
                    "service-account-issuer {issuer:?} contained a ':' but was not a valid URL"
                ),
            );
        } else if issuers.contains(issuer) {
            errs.push(
                ISS,
                format!("service-account-issuer {issuer:?} is already specified"),
            );
        } else {
            issuers.push(issuer.clone());
        }
    }
    if o.service_account_issuer.is_empty() {
        issuers.push(DEFAULT_SERVICE_ACCOUNT_ISSUER.to_owned());
    }

    const MAX: &str = "--service-account-max-token-expiration";
    let max = errs.duration(MAX, &o.service_account_max_token_expiration);
    let max_token_expiration = (!max.is_zero()).then_some(max);
    if let Some(max) = max_token_expiration {
        if max < Duration::from_secs(3600) || max > Duration::from_secs(1 << 32) {
            errs.push(
                MAX,
                "the service-account-max-token-expiration must be between 1 hour and 2^32 seconds",
            );
        }
    }

    const SIGN: &str = "--service-account-signing-key-file";
    let signing_key_pem = o.service_account_signing_key_file.as_ref().and_then(|p| {
        let pem = errs.read(SIGN, p)?;
        match signing_public_key(&pem) {
            Ok(_) => Some(pem),
            Err(e) => {
                errs.push(SIGN, format!("{}: {e}", p.display()));
                None
            }
        }
    });

    const KEYS: &str = "--service-account-key-file";
    let mut public_keys_pem = Vec::new();
    for path in &o.service_account_key_file {
        let Some(text) = errs.read(KEYS, path) else {
            continue;
        };
        match public_keys(&text) {
            Ok(keys) => public_keys_pem.extend(keys),
            Err(e) => errs.push(KEYS, format!("{}: {e}", path.display())),
        }
    }

    const JWKS: &str = "--service-account-jwks-uri";
    let jwks_uri = o.service_account_jwks_uri.clone().filter(|u| !u.is_empty());
    if let Some(uri) = &jwks_uri {
        match uri.parse::<http::Uri>() {
            Err(e) => errs.push(
                JWKS,
                format!("service-account-jwks-uri must be a valid URL: {e}"),
            ),
            Ok(u) if u.scheme_str() != Some("https") => errs.push(
                JWKS,
                format!("service-account-jwks-uri requires https scheme, parsed as: {u}"),
            ),
            Ok(_) => {}
        }
    }

    let api_audiences = if o.api_audiences.is_empty() {
        issuers.first().cloned().into_iter().collect()
    } else {
        o.api_audiences.clone()
    };
    ServiceAccountFlags {
        issuers,
        public_keys_pem,
        signing_key_pem,
        max_token_expiration,
        jwks_uri,
        api_audiences,
    }
}

/// `scheme://rest` with a non-empty scheme of URL characters and a non-empty rest.
fn looks_like_url(s: &str) -> bool {
    match s.split_once("://") {
        Some((scheme, rest)) => {
            !scheme.is_empty()
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                && !rest.is_empty()
                && !rest.contains(char::is_whitespace)
        }
        None => false,
    }
}

/// The PKIX public key (PEM) of a PKCS#8 private key in PEM, which must be one kube-apiserver
/// can sign with: ECDSA P-256 or P-384, or RSA.
pub(crate) fn signing_public_key(pem: &str) -> Result<String, String> {
    if pem.contains("-----BEGIN EC PRIVATE KEY-----")
        || pem.contains("-----BEGIN RSA PRIVATE KEY-----")
    {
        return Err("the key must be PKCS#8 (\"PRIVATE KEY\"); convert it with `openssl pkcs8 -topk8 -nocrypt`".into());
    }
    let key =
        rcgen::KeyPair::from_pem(pem).map_err(|e| format!("not a PKCS#8 private key: {e}"))?;
    let alg = key.algorithm();
    if alg != &rcgen::PKCS_ECDSA_P256_SHA256
        && alg != &rcgen::PKCS_ECDSA_P384_SHA384
        && alg != &rcgen::PKCS_RSA_SHA256
    {
        return Err("the key must be ECDSA P-256, ECDSA P-384 or RSA".into());
    }
    Ok(key.public_key_pem())
}

/// Every public key in a PEM file, one PEM block each; private keys contribute their public
/// half, certificates the key they carry. Other blocks are skipped, as upstream's
/// `keyutil.ParsePublicKeysPEM` skips them.
fn public_keys(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("-----BEGIN ") {
        let after = &rest[start + 11..];
        let Some(label_end) = after.find("-----") else {
            return Err("malformed PEM block".into());
        };
        let label = &after[..label_end];
        let end_marker = format!("-----END {label}-----");
        let Some(end) = rest[start..].find(&end_marker) else {
            return Err(format!("PEM block {label:?} has no end"));
        };
        let block = &rest[start..start + end + end_marker.len()];
        match label {
            "PUBLIC KEY" | "RSA PUBLIC KEY" => out.push(format!("{block}\n")),
            "PRIVATE KEY" | "EC PRIVATE KEY" | "RSA PRIVATE KEY" => {
                out.push(signing_public_key(block)?)
            }
            "CERTIFICATE" => out.push(crate::pem_keys::certificate_public_key(block)?),
            _ => {}
        }
        rest = &rest[start + end + end_marker.len()..];
    }
    if out.is_empty() {
        return Err("data does not contain any valid RSA or ECDSA public keys".into());
    }
    Ok(out)
}
