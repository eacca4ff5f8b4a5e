//! ES512 JWT signatures (ECDSA over P-521 with SHA-512, RFC 7518 §3.4), which ring, and
//! so `jsonwebtoken`, cannot verify; go-oidc can, so OIDC issuers may sign with them.
//! Verified with RustCrypto's `p521`: the JWS signature is r‖s, 66 big-endian bytes
//! each; the JWK is `kty` EC, `crv` P-521, `x` and `y` base64url of 66 bytes each.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use p521::ecdsa::signature::Verifier;
use p521::ecdsa::{Signature, VerifyingKey};
use serde_json::Value;

/// The JWS `alg` of these signatures.
pub(crate) const ALG: &str = "ES512";
/// Bytes of a P-521 coordinate, and of r and s.
const SIZE: usize = 66;

/// Whether `jwk` is a P-521 key (usable or not: jsonwebtoken must not try it).
pub(crate) fn is_p521(jwk: &Value) -> bool {
    jwk.get("kty").and_then(Value::as_str) == Some("EC")
        && jwk.get("crv").and_then(Value::as_str) == Some("P-521")
}

/// The public key of a P-521 JWK, or None when its coordinates are not a point of the
/// curve.
pub(crate) fn key_from_jwk(jwk: &Value) -> Option<VerifyingKey> {
    let coordinate = |name: &str| {
        let text = jwk.get(name)?.as_str()?;
        let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
        (bytes.len() == SIZE).then_some(bytes)
    };
    let (x, y) = (coordinate("x")?, coordinate("y")?);
    // SEC1 uncompressed point: 0x04 ‖ x ‖ y.
    let mut sec1 = Vec::with_capacity(1 + 2 * SIZE);
    sec1.push(4);
    sec1.extend_from_slice(&x);
    sec1.extend_from_slice(&y);
    VerifyingKey::from_sec1_bytes(&sec1).ok()
}

/// The `alg` and `kid` of a compact JWS's header, unverified; None when the header is
/// not base64url JSON.
pub(crate) fn header(token: &str) -> Option<(String, Option<String>)> {
    let encoded = token.split('.').next()?;
    let bytes = URL_SAFE_NO_PAD.decode(encoded).ok()?;
    let header: Value = serde_json::from_slice(&bytes).ok()?;
    let alg = header.get("alg")?.as_str()?.to_owned();
    let kid = header.get("kid").and_then(Value::as_str).map(str::to_owned);
    Some((alg, kid))
}

/// Whether `key` signed the compact JWS `token` with ES512.
pub(crate) fn verify(token: &str, key: &VerifyingKey) -> bool {
    let Some((signing_input, signature)) = token.rsplit_once('.') else {
        return false;
    };
    if signing_input.matches('.').count() != 1 {
        return false;
    }
    let Ok(raw) = URL_SAFE_NO_PAD.decode(signature) else {
        return false;
    };
    if raw.len() != 2 * SIZE {
        return false;
    }
    let Ok(signature) = Signature::from_slice(&raw) else {
        return false;
    };
    key.verify(signing_input.as_bytes(), &signature).is_ok()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use p521::ecdsa::signature::hazmat::RandomizedPrehashSigner;
    use p521::ecdsa::SigningKey;
    use p521::elliptic_curve::rand_core::{CryptoRng, RngCore};
    use ring::rand::SecureRandom;

    /// The system's randomness (ring's) as the RNG ECDSA signing wants for its nonce.
    struct SystemRng(ring::rand::SystemRandom);

    impl RngCore for SystemRng {
        fn next_u32(&mut self) -> u32 {
            let mut b = [0; 4];
            self.fill_bytes(&mut b);
            u32::from_le_bytes(b)
        }
        fn next_u64(&mut self) -> u64 {
            let mut b = [0; 8];
            self.fill_bytes(&mut b);
            u64::from_le_bytes(b)
        }
        fn fill_bytes(&mut self, dest: &mut [u8]) {
            self.0.fill(dest).expect("random");
        }
        fn try_fill_bytes(
            &mut self,
            dest: &mut [u8],
        ) -> Result<(), p521::elliptic_curve::rand_core::Error> {
            self.fill_bytes(dest);
            Ok(())
        }
    }

    impl CryptoRng for SystemRng {}
    use serde_json::json;

    /// A P-521 key made from the system's randomness.
    pub(crate) fn signing_key() -> SigningKey {
        let rng = ring::rand::SystemRandom::new();
        loop {
            let mut bytes = [0u8; SIZE];
            rng.fill(&mut bytes).expect("random");
            // A scalar below the group order (just under 2^521).
            bytes[0] &= 0x01;
            if let Ok(key) = SigningKey::from_slice(&bytes) {
                return key;
            }
        }
    }

    /// The JWK of `key`'s public half.
    pub(crate) fn jwk(key: &SigningKey, kid: &str) -> Value {
        let point = VerifyingKey::from(key).to_encoded_point(false);
        let (x, y) = (
            point.x().map(|x| x.to_vec()).unwrap_or_default(),
            point.y().map(|y| y.to_vec()).unwrap_or_default(),
        );
        json!({"kty": "EC", "crv": "P-521", "use": "sig", "alg": ALG, "kid": kid,
            "x": URL_SAFE_NO_PAD.encode(x), "y": URL_SAFE_NO_PAD.encode(y)})
    }

    /// `claims` signed by `key` as an ES512 compact JWS.
    pub(crate) fn sign(key: &SigningKey, kid: &str, claims: &Value) -> String {
        let header = json!({"alg": ALG, "typ": "JWT", "kid": kid});
        let input = format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(claims.to_string())
        );
        let digest = ring::digest::digest(&ring::digest::SHA512, input.as_bytes());
        let mut rng = SystemRng(ring::rand::SystemRandom::new());
        let signature: Signature = key
            .sign_prehash_with_rng(&mut rng, digest.as_ref())
            .expect("sign");
        format!("{input}.{}", URL_SAFE_NO_PAD.encode(signature.to_bytes()))
    }

    #[test]
    fn verifies_es512_signatures() {
        let key = signing_key();
        let jwk = jwk(&key, "k1");
        assert!(is_p521(&jwk));
        assert!(!is_p521(&json!({"kty": "EC", "crv": "P-256"})));
        let public = key_from_jwk(&jwk).expect("key");
        let token = sign(&key, "k1", &json!({"sub": "jane"}));
        assert_eq!(
            header(&token),
            Some((ALG.to_owned(), Some("k1".to_owned())))
        );
        assert!(verify(&token, &public));
        assert_eq!(
            URL_SAFE_NO_PAD
                .decode(token.rsplit('.').next().unwrap_or(""))
                .map(|s| s.len())
                .ok(),
            Some(132)
        );

        // Another key, a changed payload, a truncated signature: refused.
        let other = key_from_jwk(&super::tests::jwk(&signing_key(), "k2")).expect("key");
        assert!(!verify(&token, &other));
        let mut parts: Vec<&str> = token.split('.').collect();
        let forged = URL_SAFE_NO_PAD.encode(json!({"sub": "admin"}).to_string());
        parts[1] = &forged;
        assert!(!verify(&parts.join("."), &public));
        assert!(!verify(&token[..token.len() - 4], &public));
        assert!(!verify("a.b", &public));

        // Coordinates off the curve, or of the wrong size.
        let mut bad = jwk.clone();
        bad["y"] = bad["x"].clone();
        assert!(key_from_jwk(&bad).is_none());
        bad["y"] = json!(URL_SAFE_NO_PAD.encode([1u8; 65]));
        assert!(key_from_jwk(&bad).is_none());
    }
}
