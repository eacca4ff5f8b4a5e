//! A bearer token as the JWT (OIDC) authenticators see it: the unverified issuer picks
//! the authenticator; then header, algorithm, key, signature, `iss`/`aud`/`exp`/`nbf`,
//! claim mappings (claims with prefixes, CEL expressions) and validation rules. Input is
//! a token, or (starting with `{`) claims signed with the issuer's key. A token is not
//! the JWT authenticators' (`None`), a user, or refused with an error that becomes the
//! 401, never a panic of ours.
#![no_main]

#[path = "common/cel_panics.rs"]
mod cel_panics;

use std::sync::OnceLock;

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use kas_aggregator::fuzzing::Jwt;
use kas_proto::{
    ClaimMappings, ClaimOrExpression, ClaimValidationRule, ExtraMapping, JwtAuthenticator,
    JwtIssuer, PrefixedClaimOrExpression, UserValidationRule,
};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// Issuers nobody listens at: a token no held key verifies makes one quick, failing
/// fetch of the keys (then the fetch is rate-limited).
const CLAIMS_ISSUER: &str = "https://127.0.0.1:1/claims";
const CEL_ISSUER: &str = "https://127.0.0.1:1/cel";
const NOW: f64 = 1_700_000_000.0;

fn issuer(url: &str) -> JwtIssuer {
    JwtIssuer {
        url: url.into(),
        audiences: vec!["kubernetes".into(), "other".into()],
        audience_match_policy: "MatchAny".into(),
        ..Default::default()
    }
}

fn claim(claim: &str, prefix: Option<&str>) -> PrefixedClaimOrExpression {
    PrefixedClaimOrExpression {
        claim: claim.into(),
        prefix: prefix.map(str::to_owned),
        expression: String::new(),
    }
}

fn expression(expression: &str) -> PrefixedClaimOrExpression {
    PrefixedClaimOrExpression {
        expression: expression.into(),
        ..Default::default()
    }
}

fn jwt() -> &'static Jwt {
    static JWT: OnceLock<Jwt> = OnceLock::new();
    JWT.get_or_init(|| {
        let by_claims = JwtAuthenticator {
            issuer: issuer(CLAIMS_ISSUER),
            claim_validation_rules: vec![ClaimValidationRule {
                claim: "hd".into(),
                required_value: "example.com".into(),
                ..Default::default()
            }],
            claim_mappings: ClaimMappings {
                username: claim("email", Some("")),
                groups: claim("groups", Some("oidc:")),
                uid: ClaimOrExpression {
                    claim: "sub".into(),
                    expression: String::new(),
                },
                extra: Vec::new(),
            },
            user_validation_rules: Vec::new(),
        };
        let by_cel = JwtAuthenticator {
            issuer: issuer(CEL_ISSUER),
            claim_validation_rules: vec![ClaimValidationRule {
                expression: "claims.exp - claims.iat <= 3600".into(),
                message: "token lives too long".into(),
                ..Default::default()
            }],
            claim_mappings: ClaimMappings {
                username: expression("'cel:' + claims.sub"),
                groups: expression("claims.roles.map(r, 'role:' + r)"),
                uid: ClaimOrExpression {
                    claim: String::new(),
                    expression: "claims.sub + '-uid'".into(),
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
        let jwks: Value = serde_json::from_str(include_str!("../fixtures/oidc-jwks.json"))
            .expect("the fixture key set");
        Jwt::new(&[by_claims, by_cel], &jwks, &["ES256", "RS256"])
    })
}

fn signing_key() -> &'static EncodingKey {
    static KEY: OnceLock<EncodingKey> = OnceLock::new();
    KEY.get_or_init(|| {
        EncodingKey::from_ec_pem(include_bytes!("../fixtures/sa.key")).expect("the fixture key")
    })
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
    })
}

fuzz_target!(init: cel_panics::tolerate_caught_cel_panics(), |data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let token = if text.starts_with('{') {
        let Ok(claims) = serde_json::from_str::<Value>(text) else {
            return;
        };
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some("fuzz".into());
        match jsonwebtoken::encode(&header, &claims, signing_key()) {
            Ok(t) => t,
            Err(_) => return,
        }
    } else {
        text.to_owned()
    };
    let verdict = runtime().block_on(jwt().authenticate(&token, NOW));
    if std::env::var_os("FUZZ_VERBOSE").is_some() {
        eprintln!("{verdict:?}");
    }
    match verdict {
        None => {}
        Some(Ok(user)) => {
            assert!(!user.name.is_empty(), "an empty username: {user:?}");
            assert!(!user.name.starts_with("cel:system:"), "a user rule did not hold: {user:?}");
        }
        Some(Err(e)) => assert!(!e.is_empty(), "a refusal without a reason"),
    }
});
