//! Service account issuer discovery: `/.well-known/openid-configuration` and
//! `/openid/v1/jwks`, so that a relying party outside the cluster (a cloud's workload
//! identity, Vault, another cluster) can verify this cluster's service account tokens as
//! OIDC ID tokens. Both documents are built once at start from the issuer and the
//! verification keys, as upstream's provider does: the issuer must be an https URL
//! (otherwise the endpoints are not served, and the reason is logged), `jwks_uri` is
//! `--service-account-jwks-uri` or the JWKS path on the external address.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use http::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use http::{Method, Response, StatusCode};
use kas_proto::WorkerConfig;
use kas_server::body::{self, Body};
use serde_json::{json, Map, Value};
use x509_parser::prelude::FromDer;
use x509_parser::public_key::PublicKey;
use x509_parser::x509::SubjectPublicKeyInfo;

/// Where the discovery document is served.
pub(crate) const CONFIG_PATH: &str = "/.well-known/openid-configuration";
/// Where the key set is served.
pub(crate) const JWKS_PATH: &str = "/openid/v1/jwks";
/// `Cache-Control` of both (upstream's max age).
const CACHE: &str = "public, max-age=3600";

/// The two documents, serialized.
#[derive(Debug, Clone)]
pub(crate) struct IssuerDiscovery {
    config: Vec<u8>,
    keys: Vec<u8>,
}

/// The DER inside a PEM block, wrapped as PKIX when it is a PKCS#1 RSA public key (so
/// that the key ID is upstream's: SHA-256 of the PKIX form).
fn pkix_der(pem: &str) -> Option<Vec<u8>> {
    let der = super::token::pem_der(pem)?;
    if !pem.contains("-----BEGIN RSA PUBLIC KEY-----") {
        return Some(der);
    }
    // SEQUENCE { SEQUENCE { rsaEncryption, NULL }, BIT STRING { 0 unused bits, der } }
    let algorithm: &[u8] = &[
        0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00,
    ];
    let mut bits = vec![0u8];
    bits.extend_from_slice(&der);
    let mut body = algorithm.to_vec();
    body.extend(der_tlv(0x03, &bits));
    Some(der_tlv(0x30, &body))
}

/// One DER tag-length-value.
fn der_tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = content.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len
            .to_be_bytes()
            .into_iter()
            .skip_while(|b| *b == 0)
            .collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
    out.extend_from_slice(content);
    out
}

/// The JWK of one verification key, with go-jose's fields: `use`, `kty`, `kid`, `crv`,
/// `alg` and the key's numbers.
fn jwk(pem: &str) -> Result<Value, String> {
    let der = pkix_der(pem).ok_or("not a PEM block")?;
    let (_, spki) = SubjectPublicKeyInfo::from_der(&der).map_err(|e| e.to_string())?;
    let kid = super::token::key_id(&der);
    let b64 = |b: &[u8]| URL_SAFE_NO_PAD.encode(b);
    let mut k = Map::new();
    k.insert("use".into(), json!("sig"));
    match spki.parsed().map_err(|e| e.to_string())? {
        PublicKey::RSA(rsa) => {
            let strip =
                |b: &[u8]| -> Vec<u8> { b.iter().copied().skip_while(|x| *x == 0).collect() };
            k.insert("kty".into(), json!("RSA"));
            k.insert("kid".into(), json!(kid));
            k.insert("alg".into(), json!("RS256"));
            k.insert("n".into(), json!(b64(&strip(rsa.modulus))));
            k.insert("e".into(), json!(b64(&strip(rsa.exponent))));
        }
        PublicKey::EC(point) => {
            let curve = spki
                .algorithm
                .parameters
                .as_ref()
                .and_then(|p| p.as_oid().ok())
                .map(|o| o.to_id_string())
                .unwrap_or_default();
            let (crv, alg, size) = match curve.as_str() {
                "1.2.840.10045.3.1.7" => ("P-256", "ES256", 32),
                "1.3.132.0.34" => ("P-384", "ES384", 48),
                "1.3.132.0.35" => ("P-521", "ES512", 66),
                other => return Err(format!("unknown curve {other}")),
            };
            let data = point.data();
            if data.len() != 1 + 2 * size || data[0] != 4 {
                return Err("not an uncompressed EC point".into());
            }
            k.insert("kty".into(), json!("EC"));
            k.insert("kid".into(), json!(kid));
            k.insert("crv".into(), json!(crv));
            k.insert("alg".into(), json!(alg));
            k.insert("x".into(), json!(b64(&data[1..=size])));
            k.insert("y".into(), json!(b64(&data[1 + size..])));
        }
        _ => return Err("unknown public key type, must be RSA or ECDSA".into()),
    }
    Ok(Value::Object(k))
}

/// `host:port`, with an IPv6 host bracketed.
fn join_host_port(host: &str, port: u16) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

impl IssuerDiscovery {
    /// The documents for this configuration, or why they are not served.
    pub(crate) fn new(c: &WorkerConfig) -> Result<IssuerDiscovery, String> {
        let issuer = c
            .service_account_issuers
            .first()
            .ok_or("empty issuer URL")?;
        let uri: http::Uri = issuer.parse().map_err(|e| format!("{e}"))?;
        if uri.scheme_str() != Some("https") {
            return Err(format!("issuer URL must use https scheme, got: {issuer}"));
        }
        if uri.query().is_some() {
            return Err(format!("issuer URL may not include a query, got: {issuer}"));
        }
        let jwks_uri = match &c.service_account_jwks_uri {
            Some(u) => u.clone(),
            None => format!(
                "https://{}{JWKS_PATH}",
                join_host_port(&c.external_hostname, c.serving.port)
            ),
        };
        let mut keys = Vec::new();
        for (i, pem) in c.service_account_public_keys_pem.iter().enumerate() {
            keys.push(jwk(pem).map_err(|e| format!("error constructing JWK for key #{i}: {e}"))?);
        }
        if keys.is_empty() {
            return Err("no keys provided for validating keyset".into());
        }
        let mut algs: Vec<&str> = keys.iter().filter_map(|k| k["alg"].as_str()).collect();
        algs.sort_unstable();
        algs.dedup();
        let config = json!({
            "issuer": issuer,
            "jwks_uri": jwks_uri,
            "response_types_supported": ["id_token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": algs,
        });
        Ok(IssuerDiscovery {
            config: config.to_string().into_bytes(),
            keys: json!({"keys": keys}).to_string().into_bytes(),
        })
    }

    /// The answer for `path`, if it is one of the two.
    pub(crate) fn respond(&self, method: &Method, path: &str) -> Option<Response<Body>> {
        let (doc, media) = match path {
            CONFIG_PATH => (&self.config, "application/json"),
            JWKS_PATH => (&self.keys, "application/jwk-set+json"),
            _ => return None,
        };
        if method != Method::GET && method != Method::HEAD {
            return Some(kas_server::status::go_http_error(
                StatusCode::METHOD_NOT_ALLOWED,
                "405: Method Not Allowed",
            ));
        }
        let mut resp = Response::new(body::full(doc.clone()));
        resp.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(media));
        resp.headers_mut()
            .insert(CACHE_CONTROL, HeaderValue::from_static(CACHE));
        Some(resp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::STANDARD;

    const RSA_PUB: &str = include_str!("testdata/rsa-2048.pub");

    #[test]
    fn keys_as_go_jose_writes_them() {
        let rsa = jwk(RSA_PUB).expect("rsa");
        let mut fields: Vec<&str> = rsa
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        fields.sort_unstable();
        assert_eq!(fields, ["alg", "e", "kid", "kty", "n", "use"]);
        assert_eq!(rsa["e"], "AQAB");
        assert_eq!(rsa["alg"], "RS256");
        assert_eq!(rsa["n"].as_str().map(str::len), Some(342));
        let key = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).expect("key");
        let ec = jwk(&key.public_key_pem()).expect("ec");
        assert_eq!(
            (ec["crv"].as_str(), ec["alg"].as_str()),
            (Some("P-256"), Some("ES256"))
        );
        assert_eq!(ec["x"].as_str().map(str::len), Some(43));
        assert!(jwk("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n").is_err());
    }

    #[test]
    fn pkcs1_keys_get_the_pkix_key_id() {
        let spki = pkix_der(RSA_PUB).expect("pkix");
        let (_, parsed) = SubjectPublicKeyInfo::from_der(&spki).expect("spki");
        let PublicKey::RSA(rsa) = parsed.parsed().expect("parsed") else {
            panic!("rsa");
        };
        // The same key as PKCS#1: wrapping it back gives the same PKIX bytes.
        let mut pkcs1 = der_tlv(0x02, rsa.modulus);
        pkcs1.extend(der_tlv(0x02, rsa.exponent));
        let pkcs1 = der_tlv(0x30, &pkcs1);
        let pem = format!(
            "-----BEGIN RSA PUBLIC KEY-----\n{}\n-----END RSA PUBLIC KEY-----\n",
            STANDARD.encode(&pkcs1)
        );
        assert_eq!(pkix_der(&pem), Some(spki));
    }
}
