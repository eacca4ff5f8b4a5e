//! Tests of the JWT authenticator: signatures by `kid` (and a rotation), algorithms,
//! audiences, times, claim mappings with prefixes and CEL, required claims and rules.

use super::*;
use crate::oidc::parse_key_set;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{EncodingKey, Header};
use kas_proto::{
    ClaimMappings, ClaimValidationRule, ExtraMapping, JwtIssuer, PrefixedClaimOrExpression,
    UserValidationRule,
};
use ring::signature::{EcdsaKeyPair, KeyPair, ECDSA_P256_SHA256_FIXED_SIGNING};

const ISS: &str = "https://issuer.example";
const NOW: f64 = 1_700_000_000.0;

/// A P-256 signing key and its JWK.
struct SigningKey {
    kid: String,
    encoding: EncodingKey,
    jwk: Value,
}

fn signing_key(kid: &str) -> SigningKey {
    let rng = ring::rand::SystemRandom::new();
    let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).expect("key");
    let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng)
        .expect("pair");
    let point = pair.public_key().as_ref();
    let jwk = json!({"kty": "EC", "crv": "P-256", "kid": kid, "use": "sig", "alg": "ES256",
        "x": URL_SAFE_NO_PAD.encode(&point[1..33]), "y": URL_SAFE_NO_PAD.encode(&point[33..65])});
    SigningKey {
        kid: kid.to_owned(),
        encoding: EncodingKey::from_ec_der(pkcs8.as_ref()),
        jwk,
    }
}

impl SigningKey {
    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.encoding).expect("sign")
    }
}

fn keys(of: &[&SigningKey]) -> Vec<Key> {
    parse_key_set(&json!({"keys": of.iter().map(|k| k.jwk.clone()).collect::<Vec<_>>()}))
}

fn flags_like(username_claim: &str, prefix: &str) -> JwtAuthenticator {
    JwtAuthenticator {
        issuer: JwtIssuer {
            url: ISS.into(),
            audiences: vec!["kubernetes".into()],
            ..Default::default()
        },
        claim_mappings: ClaimMappings {
            username: PrefixedClaimOrExpression {
                claim: username_claim.into(),
                prefix: Some(prefix.into()),
                expression: String::new(),
            },
            groups: PrefixedClaimOrExpression {
                claim: "groups".into(),
                prefix: Some("oidc:".into()),
                expression: String::new(),
            },
            ..Default::default()
        },
        ..Default::default()
    }
}

fn authn(config: JwtAuthenticator, held: &[&SigningKey]) -> Authn {
    let provider = Provider::with_keys(&config.issuer, keys(held));
    Authn::with_provider(config, &["ES256"], provider)
}

fn claims(extra: Value) -> Value {
    let mut c = json!({"iss": ISS, "aud": "kubernetes", "sub": "u1", "exp": NOW + 600.0,
        "iat": NOW, "groups": ["dev", "ops"]});
    if let (Some(c), Some(extra)) = (c.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            c.insert(k.clone(), v.clone());
        }
    }
    c
}

fn block<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(f)
}

#[test]
fn maps_claims_with_prefixes() {
    let k = signing_key("k1");
    let a = authn(flags_like("sub", &format!("{ISS}#")), &[&k]);
    let user = block(a.authenticate(&k.sign(&claims(json!({"jti": "t-1"}))), NOW)).expect("user");
    assert_eq!(user.name, "https://issuer.example#u1");
    assert_eq!(
        user.groups,
        ["oidc:dev", "oidc:ops", "system:authenticated"]
    );
    assert_eq!(
        user.extra,
        [(CREDENTIAL_ID_KEY.to_owned(), vec!["JTI=t-1".to_owned()])]
    );
    // A single group as a string; no prefix.
    let a = authn(flags_like("email", ""), &[&k]);
    let token = k.sign(&claims(
        json!({"email": "j@example.com", "email_verified": true,
        "groups": "admins"}),
    ));
    let user = block(a.authenticate(&token, NOW)).expect("user");
    assert_eq!(user.name, "j@example.com");
    assert_eq!(user.groups, ["oidc:admins", "system:authenticated"]);
    let unverified = k.sign(&claims(
        json!({"email": "j@example.com", "email_verified": false}),
    ));
    assert_eq!(
        block(a.authenticate(&unverified, NOW)),
        Err("oidc: email not verified".to_owned())
    );
    let no_email = k.sign(&claims(json!({})));
    assert_eq!(
        block(a.authenticate(&no_email, NOW)),
        Err("oidc: parse username claims \"email\": claim not present".to_owned())
    );
}

#[test]
fn audience_time_and_signature_checks() {
    let k = signing_key("k1");
    let a = authn(flags_like("sub", ""), &[&k]);
    let err = |c: Value| block(a.authenticate(&k.sign(&c), NOW)).expect_err("refused");
    assert_eq!(
        err(claims(json!({"aud": ["other"]}))),
        "oidc: verify token: oidc: expected audience \"kubernetes\" got [\"other\"]"
    );
    assert!(err(claims(json!({"exp": NOW - 1.0}))).contains("oidc: token is expired"));
    assert!(err(claims(json!({"exp": null}))).contains("oidc: token is expired"));
    // nbf: a minute of leeway.
    assert!(block(a.authenticate(&k.sign(&claims(json!({"nbf": NOW + 59.0}))), NOW)).is_ok());
    assert!(err(claims(json!({"nbf": NOW + 61.0}))).contains("before the nbf (not before) time"));
    // iat in the future is not checked.
    assert!(block(a.authenticate(&k.sign(&claims(json!({"iat": NOW + 3600.0}))), NOW)).is_ok());
    // Another issuer's token naming this one: different provider.
    let other = signing_key("k1");
    let forged = other.sign(&claims(json!({})));
    let e = block(a.authenticate(&forged, NOW)).expect_err("forged");
    assert!(
        e.contains("fetching keys") || e.contains("failed to verify id token signature"),
        "{e}"
    );
    // A tampered payload.
    let good = k.sign(&claims(json!({})));
    let mut parts: Vec<String> = good.split('.').map(str::to_owned).collect();
    parts[1] =
        URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims(json!({"sub": "admin"}))).unwrap());
    assert!(block(a.authenticate(&parts.join("."), NOW)).is_err());
    // An algorithm not allowed.
    let rs = Authn::with_provider(
        flags_like("sub", ""),
        &["RS256"],
        Provider::with_keys(&flags_like("sub", "").issuer, keys(&[&k])),
    );
    assert_eq!(
        block(rs.authenticate(&good, NOW)),
        Err("oidc: verify token: oidc: id token signed with unsupported algorithm, expected [\"RS256\"] got \"ES256\"".to_owned())
    );
}

#[test]
fn key_rotation_by_kid() {
    let old = signing_key("old");
    let new = signing_key("new");
    let config = flags_like("sub", "");
    let provider = Provider::with_keys(&config.issuer, keys(&[&old]));
    let a = Authn::with_provider(config, &["ES256"], provider);
    assert!(block(a.authenticate(&old.sign(&claims(json!({}))), NOW)).is_ok());
    // The new kid is unknown; the refetch fails (no issuer here) and the token is refused.
    let token = new.sign(&claims(json!({})));
    assert!(block(a.authenticate(&token, NOW)).is_err());
    // Once the key set holds it, the token verifies and the old key's tokens no longer do.
    a.provider.set_keys(keys(&[&new]));
    assert!(block(a.authenticate(&token, NOW)).is_ok());
    assert!(verify_with(
        &old.sign(&claims(json!({}))),
        SigAlg::Jose(Algorithm::ES256),
        Some("old"),
        &a.provider.keys()
    )
    .is_none());
}

#[test]
fn cel_mappings_and_rules() {
    let k = signing_key("k1");
    let config = JwtAuthenticator {
        issuer: JwtIssuer {
            url: ISS.into(),
            audiences: vec!["a".into(), "kubernetes".into()],
            audience_match_policy: "MatchAny".into(),
            ..Default::default()
        },
        claim_validation_rules: vec![
            ClaimValidationRule {
                claim: "hd".into(),
                required_value: "example.com".into(),
                ..Default::default()
            },
            ClaimValidationRule {
                expression: "claims.exp - claims.iat <= 3600".into(),
                message: "token lives too long".into(),
                ..Default::default()
            },
        ],
        claim_mappings: ClaimMappings {
            username: PrefixedClaimOrExpression {
                expression: "'cel:' + claims.sub".into(),
                ..Default::default()
            },
            groups: PrefixedClaimOrExpression {
                expression: "claims.roles.map(r, 'role:' + r)".into(),
                ..Default::default()
            },
            uid: kas_proto::ClaimOrExpression {
                expression: "claims.sub + '-uid'".into(),
                ..Default::default()
            },
            extra: vec![ExtraMapping {
                key: "example.com/tenant".into(),
                value_expression: "claims.?tenant.orValue('')".into(),
            }],
        },
        user_validation_rules: vec![UserValidationRule {
            expression: "!user.username.startsWith('cel:system:')".into(),
            message: "no system users".into(),
        }],
    };
    let a = authn(config, &[&k]);
    let token = k.sign(&claims(
        json!({"hd": "example.com", "roles": ["r1"], "tenant": "t7"}),
    ));
    let user = block(a.authenticate(&token, NOW)).expect("user");
    assert_eq!(user.name, "cel:u1");
    assert_eq!(user.uid, "u1-uid");
    assert_eq!(user.groups, ["role:r1", "system:authenticated"]);
    assert_eq!(
        user.extra,
        [("example.com/tenant".to_owned(), vec!["t7".to_owned()])]
    );
    let refuse = |c: Value| block(a.authenticate(&k.sign(&c), NOW)).expect_err("refused");
    assert_eq!(
        refuse(claims(json!({"hd": "other.com", "roles": []}))),
        "oidc: required claim hd value does not match. Got = other.com, want = example.com"
    );
    assert_eq!(
        refuse(claims(json!({"roles": []}))),
        "oidc: required claim hd not present in ID token"
    );
    assert_eq!(
        refuse(claims(json!({"hd": "example.com", "roles": [], "exp": NOW + 7200.0}))),
        "oidc: error evaluating claim validation expression: validation expression 'claims.exp - claims.iat <= 3600' failed: token lives too long"
    );
    assert_eq!(
        refuse(claims(json!({"hd": "example.com", "roles": [], "sub": "system:x"}))),
        "oidc: error evaluating user info validation rule: validation expression '!user.username.startsWith('cel:system:')' failed: no system users"
    );
    // A claim the groups expression reads is missing: an evaluation error.
    assert!(refuse(claims(json!({"hd": "example.com"})))
        .starts_with("oidc: error evaluating group claim expression: expression 'claims.roles.map(r, 'role:' + r)' resulted in error"));
    // Audiences: any of the configured ones.
    let other_aud = claims(json!({"hd": "example.com", "roles": [], "aud": ["x", "y"]}));
    assert_eq!(
        refuse(other_aud),
        "oidc: verify token: oidc: expected audience in [\"a\" \"kubernetes\"] got [\"x\" \"y\"]"
    );
}

#[test]
fn untrusted_issuer_only_of_compact_jwts() {
    let k = signing_key("k1");
    assert_eq!(
        untrusted_issuer(&k.sign(&claims(json!({})))).as_deref(),
        Some(ISS)
    );
    let google = k.sign(&json!({"iss": "accounts.google.com"}));
    assert_eq!(
        untrusted_issuer(&google).as_deref(),
        Some("https://accounts.google.com")
    );
    assert_eq!(untrusted_issuer("a.b"), None);
    assert_eq!(untrusted_issuer("{\"iss\":1}.b.c"), None);
    assert_eq!(untrusted_issuer("a.!!!.c"), None);
}

#[test]
fn es512_tokens_when_allowed() {
    use crate::jwt_es512::tests::{jwk, sign, signing_key as p521_key};
    let k = p521_key();
    let p256 = signing_key("p256");
    let config = flags_like("sub", "");
    let set = parse_key_set(&json!({"keys": [jwk(&k, "big"), p256.jwk.clone()]}));
    assert_eq!(set.len(), 2);
    let provider = Provider::with_keys(&config.issuer, set);
    let a = Authn::with_provider(config.clone(), &["ES256", "ES512"], provider);
    let token = sign(&k, "big", &claims(json!({"sub": "jane"})));
    let user = block(a.authenticate(&token, NOW)).expect("user");
    assert_eq!(user.name, "jane");
    // The P-256 key does not verify it.
    assert!(verify_with(&token, SigAlg::Es512, Some("p256"), &a.provider.keys()).is_none());
    // ES256 tokens still verify beside it.
    assert!(block(a.authenticate(&p256.sign(&claims(json!({}))), NOW)).is_ok());
    // Expired ES512 tokens are refused by the claims checks.
    let expired = sign(&k, "big", &claims(json!({"exp": NOW - 1.0})));
    assert!(block(a.authenticate(&expired, NOW)).is_err());

    // Not among the signing algorithms: refused, named as upstream names it.
    let provider = Provider::with_keys(&config.issuer, keys(&[&p256]));
    let only_es256 = Authn::with_provider(config, &["ES256"], provider);
    let e = block(only_es256.authenticate(&token, NOW)).expect_err("refused");
    assert!(e.contains(r#"expected ["ES256"] got "ES512""#), "{e}");
}
