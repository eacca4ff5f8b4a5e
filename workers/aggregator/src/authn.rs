//! Authentication at the front door: x509 client certificates (CN = user, O = groups),
//! bearer tokens (`--token-auth-file` tokens first, then service account tokens and, with
//! `--enable-bootstrap-token-auth`, bootstrap tokens, verified by a TokenReview in the
//! kube-api worker, which holds the keys and the Secrets, and cached for a few seconds,
//! JWTs of configured OIDC issuers by [`crate::jwt_authn`], then the token webhook when
//! one is configured), or anonymous when allowed (on the `--authentication-config`
//! file's paths only, when it names any). A bearer token nobody can verify is refused,
//! as upstream does. Every authenticated user is in `system:authenticated`. The token caches are keyed by an
//! HMAC of the token under a key made at start, so no token is kept in clear.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use kas_proto::WorkerRole;
use ring::hmac;
use serde_json::{json, Value};

use crate::front::Front;

/// How long a verified (or refused) service account token is remembered.
const TOKEN_TTL: Duration = Duration::from_secs(10);
/// The most tokens remembered.
const TOKEN_CACHE_MAX: usize = 4096;

/// What a token cache is keyed by: HMAC-SHA256 of the token.
pub(crate) type TokenDigest = [u8; 32];

/// Recently verified service account tokens: digest → (user or refusal, when).
pub(crate) struct TokenCache {
    key: hmac::Key,
    entries: Mutex<HashMap<TokenDigest, (Option<UserInfo>, Instant)>>,
}

impl Default for TokenCache {
    fn default() -> Self {
        let rng = ring::rand::SystemRandom::new();
        // Only fails when the system has no randomness at all; a fixed key then still
        // keeps tokens out of the cache in clear.
        let key = hmac::Key::generate(hmac::HMAC_SHA256, &rng)
            .unwrap_or_else(|_| hmac::Key::new(hmac::HMAC_SHA256, &[0; 32]));
        TokenCache {
            key,
            entries: Mutex::new(HashMap::new()),
        }
    }
}

impl TokenCache {
    /// The cache key of `token`.
    pub(crate) fn digest(&self, token: &str) -> TokenDigest {
        let tag = hmac::sign(&self.key, token.as_bytes());
        let mut out = [0; 32];
        out.copy_from_slice(tag.as_ref());
        out
    }
}

/// Whether `token` could be a service account token (a JWT: three dot-separated parts),
/// as upstream's JWT authenticator checks before trying.
fn looks_like_jwt(token: &str) -> bool {
    token.bytes().filter(|b| *b == b'.').count() == 2
}

/// Whether `token` has the bootstrap token form `[a-z0-9]{6}.[a-z0-9]{16}`.
fn looks_like_bootstrap_token(token: &str) -> bool {
    let ok = |s: &str, len: usize| {
        s.len() == len
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    token
        .split_once('.')
        .is_some_and(|(id, secret)| ok(id, 6) && ok(secret, 16))
}

/// Who a request is, as kube-apiserver's authenticator chain decides, first match wins:
/// a front proxy's headers, the client certificate, a bearer token, else anonymous (when
/// allowed). `None` means 401: credentials were presented and none holds (a certificate
/// no CA vouches for is not downgraded to anonymous), or anonymous requests are off.
pub(crate) async fn authenticate(
    front: &Front,
    conn: &crate::chain::ConnInfo,
    headers: &http::HeaderMap,
    path: &str,
) -> Option<UserInfo> {
    let mut failed = false;
    if let Some(cert) = &conn.cert {
        if let (Some(rh), Some(proxy)) = (&front.config.request_header, &cert.front_proxy) {
            match proxy {
                Ok(()) => {
                    if let Some(user) = crate::front_proxy::user(rh, headers) {
                        return Some(user);
                    }
                }
                // The certificate may still name a user of the client CA.
                Err(e) => tracing::debug!(error = %e, "request-header authentication failed"),
            }
        }
        match &cert.user {
            Ok(user) => return Some(user.clone()),
            Err(e) => {
                tracing::debug!(error = %e, "client certificate authentication failed");
                failed = true;
            }
        }
    }
    // `Authorization: Bearer <token>` (the scheme in any case); other schemes and an empty
    // token are not this authenticator's, as upstream's bearer token authenticator.
    let token = headers
        .get(http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .and_then(|auth| {
            let mut parts = auth.splitn(3, ' ');
            let scheme = parts.next()?;
            let token = parts.next()?;
            (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
        });
    if let Some(token) = token {
        match user_from_token(front, token).await {
            Some(user) => return Some(user),
            None => failed = true,
        }
    }
    (!failed && anonymous_allowed(&front.config, path)).then(anonymous)
}

/// Whether an anonymous request for `path` is allowed: `--anonymous-auth`, or the
/// `--authentication-config` file's `anonymous` (on its condition paths only, when it
/// names any).
fn anonymous_allowed(config: &kas_proto::WorkerConfig, path: &str) -> bool {
    config.anonymous_auth
        && (config.anonymous_paths.is_empty() || config.anonymous_paths.iter().any(|p| p == path))
}

/// The user a bearer token authenticates, or None when it does not.
pub(crate) async fn user_from_token(front: &Front, token: &str) -> Option<UserInfo> {
    if let Some(user) = front.static_tokens.get(token) {
        return Some(user.clone());
    }
    let digest = front.tokens.digest(token);
    // A JWT of a configured OIDC issuer is that authenticator's (service account issuers
    // may not be among them); one it refuses may still be the webhook's, as upstream's
    // union of token authenticators goes on after an error.
    let mut jwt_issuer = false;
    if looks_like_jwt(token) {
        match front.jwt.authenticate(token).await {
            Some(Ok(user)) => return Some(user),
            Some(Err(e)) => {
                tracing::info!(error = %e, "JWT authentication failed");
                jwt_issuer = true;
            }
            None => {}
        }
    }
    // Service account tokens, and bootstrap tokens when enabled, are verified by kube-api,
    // which holds the keys and reads the Secrets.
    let bootstrap = front.config.enable_bootstrap_token_auth && looks_like_bootstrap_token(token);
    if (looks_like_jwt(token) && !jwt_issuer) || bootstrap {
        if let Some(user) = service_account_user(front, &digest, token).await {
            return Some(user);
        }
    }
    match &front.token_webhook {
        Some(webhook) => webhook.authenticate(&digest, token).await,
        None => None,
    }
}

/// The service account a token authenticates, verified by the kube-api worker.
async fn service_account_user(
    front: &Front,
    digest: &TokenDigest,
    token: &str,
) -> Option<UserInfo> {
    if let Ok(cache) = front.tokens.entries.lock() {
        if let Some((user, at)) = cache.get(digest) {
            if at.elapsed() < TOKEN_TTL {
                return user.clone();
            }
        }
    }
    let review = json!({
        "apiVersion": "authentication.k8s.io/v1",
        "kind": "TokenReview",
        "spec": {"token": token},
    });
    let answer = front
        .call_json(
            WorkerRole::KubeApi,
            http::Method::POST,
            "/apis/authentication.k8s.io/v1/tokenreviews",
            "application/json",
            Some(&review),
        )
        .await?;
    let user = (answer.pointer("/status/authenticated") == Some(&Value::Bool(true))).then(|| {
        let u = answer
            .pointer("/status/user")
            .cloned()
            .unwrap_or(Value::Null);
        let strings = |v: Option<&Value>| -> Vec<String> {
            v.and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        };
        UserInfo {
            name: u
                .get("username")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            uid: u
                .get("uid")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            groups: strings(u.get("groups")),
            extra: u
                .get("extra")
                .and_then(Value::as_object)
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| (k.clone(), strings(Some(v))))
                        .collect()
                })
                .unwrap_or_default(),
        }
    });
    if let Ok(mut cache) = front.tokens.entries.lock() {
        if cache.len() >= TOKEN_CACHE_MAX {
            cache.retain(|_, (_, at)| at.elapsed() < TOKEN_TTL);
        }
        if cache.len() < TOKEN_CACHE_MAX {
            cache.insert(*digest, (user.clone(), Instant::now()));
        }
    }
    user
}

use kas_proto::UserInfo;
use rustls::pki_types::CertificateDer;
use x509_parser::prelude::{FromDer, X509Certificate};

/// The user a verified client certificate names.
pub(crate) fn user_from_cert(cert: &CertificateDer<'_>) -> Option<UserInfo> {
    let (_, cert) = X509Certificate::from_der(cert.as_ref()).ok()?;
    let subject = cert.subject();
    let name = subject
        .iter_common_name()
        .next()
        .and_then(|cn| cn.as_str().ok())?
        .to_owned();
    let mut groups: Vec<String> = subject
        .iter_organization()
        .filter_map(|o| o.as_str().ok().map(str::to_owned))
        .collect();
    groups.push("system:authenticated".to_owned());
    Some(UserInfo {
        name,
        groups,
        ..Default::default()
    })
}

/// The `--token-auth-file` tokens, each user in `system:authenticated` (added unless the
/// file lists it, as upstream's group adder does).
pub(crate) fn static_tokens(config: &kas_proto::WorkerConfig) -> HashMap<String, UserInfo> {
    config
        .static_tokens
        .iter()
        .map(|(token, user)| {
            let mut user = user.clone();
            if !user.groups.iter().any(|g| g == "system:authenticated") {
                user.groups.push("system:authenticated".to_owned());
            }
            (token.clone(), user)
        })
        .collect()
}

/// The anonymous user.
pub(crate) fn anonymous() -> UserInfo {
    UserInfo {
        name: "system:anonymous".to_owned(),
        groups: vec!["system:unauthenticated".to_owned()],
        ..Default::default()
    }
}
