//! Authentication at the front door: x509 client certificates (CN = user, O = groups),
//! bearer tokens (the token union of [`crate::token_union`], for the API audiences:
//! `--token-auth-file` tokens, service account and bootstrap tokens verified by a
//! TokenReview in the kube-api worker, which holds the keys and the Secrets, JWTs of
//! configured OIDC issuers, then the token webhook), or anonymous when allowed (on the
//! `--authentication-config` file's paths only, when it names any). A bearer token nobody
//! can verify is refused, as upstream does. Every authenticated user is in
//! `system:authenticated`. The token caches are keyed by an HMAC of the token under a key
//! made at start, so no token is kept in clear.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ring::hmac;

use crate::front::Front;
use crate::token_union::{Authenticated, TokenVerdict};

/// How long a token the union authenticated is remembered (upstream's
/// `TokenSuccessCacheTTL`; refusals are not remembered, its `TokenFailureCacheTTL` 0).
const TOKEN_TTL: Duration = Duration::from_secs(10);
/// The most tokens remembered.
const TOKEN_CACHE_MAX: usize = 4096;

/// What a token cache is keyed by: HMAC-SHA256 of the token.
pub(crate) type TokenDigest = [u8; 32];

/// A token cache's key: the token's digest and the audiences it was judged for.
pub(crate) type TokenKey = (TokenDigest, Vec<String>);

/// The tokens the union authenticated lately: (digest, audiences) → (user and
/// audiences, when), as upstream's cache around its token union.
pub(crate) struct TokenCache {
    key: hmac::Key,
    entries: Mutex<HashMap<TokenKey, (Authenticated, Instant)>>,
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

    /// What `key` authenticated less than [`TOKEN_TTL`] ago.
    pub(crate) fn get(&self, key: &TokenKey) -> Option<Authenticated> {
        let cache = self.entries.lock().ok()?;
        let (found, at) = cache.get(key)?;
        (at.elapsed() < TOKEN_TTL).then(|| found.clone())
    }

    /// Remembers that `key` authenticated as `found` (unless the cache is full of live
    /// entries).
    pub(crate) fn put(&self, key: TokenKey, found: Authenticated) {
        self.put_at(key, found, Instant::now());
    }

    fn put_at(&self, key: TokenKey, found: Authenticated, at: Instant) {
        if let Ok(mut cache) = self.entries.lock() {
            if cache.len() >= TOKEN_CACHE_MAX {
                cache.retain(|_, (_, at)| at.elapsed() < TOKEN_TTL);
            }
            if cache.len() < TOKEN_CACHE_MAX {
                cache.insert(key, (found, at));
            }
        }
    }

    /// Forgets every token (the authenticators changed).
    pub(crate) fn clear(&self) {
        if let Ok(mut cache) = self.entries.lock() {
            cache.clear();
        }
    }
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

/// The user a bearer token authenticates (for the API audiences), or None when it does
/// not.
pub(crate) async fn user_from_token(front: &Front, token: &str) -> Option<UserInfo> {
    let audiences = front.config.api_audiences.clone();
    match crate::token_union::authenticate(front, token, &audiences, None).await {
        TokenVerdict::Authenticated(found) => Some(found.user),
        TokenVerdict::Refused(_) => None,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn found(name: &str) -> Authenticated {
        Authenticated {
            user: UserInfo {
                name: name.to_owned(),
                ..Default::default()
            },
            audiences: vec!["api".to_owned()],
        }
    }

    #[test]
    fn token_cache_remembers_successes_for_ten_seconds_per_audiences() {
        let cache = TokenCache::default();
        let api = vec!["api".to_owned()];
        let key = (cache.digest("tok"), api.clone());
        assert_ne!(cache.digest("tok"), cache.digest("tok2"));
        assert_eq!(cache.get(&key), None);
        cache.put(key.clone(), found("alice"));
        assert_eq!(cache.get(&key), Some(found("alice")));
        // Other audiences, another entry.
        assert_eq!(
            cache.get(&(cache.digest("tok"), vec!["other".to_owned()])),
            None
        );
        // Past the TTL: forgotten.
        if let Some(old) = Instant::now().checked_sub(TOKEN_TTL + Duration::from_millis(1)) {
            cache.put_at(key.clone(), found("alice"), old);
            assert_eq!(cache.get(&key), None);
        }
        cache.put(key.clone(), found("alice"));
        cache.clear();
        assert_eq!(cache.get(&key), None);
    }

    #[test]
    fn token_cache_is_bounded() {
        let cache = TokenCache::default();
        let api = vec!["api".to_owned()];
        let old = Instant::now().checked_sub(TOKEN_TTL + Duration::from_millis(1));
        for i in 0..TOKEN_CACHE_MAX {
            let key = (cache.digest(&format!("tok-{i}")), api.clone());
            match old {
                Some(old) if i % 2 == 0 => cache.put_at(key, found("x"), old),
                _ => cache.put(key, found("x")),
            }
        }
        // Full: the expired entries make room.
        let key = (cache.digest("new"), api.clone());
        cache.put(key.clone(), found("new"));
        assert_eq!(cache.get(&key), Some(found("new")));
        let len = cache.entries.lock().map(|c| c.len()).unwrap_or(0);
        assert!(len <= TOKEN_CACHE_MAX, "{len}");
        if old.is_some() {
            assert_eq!(len, TOKEN_CACHE_MAX / 2 + 1);
        }
    }
}
