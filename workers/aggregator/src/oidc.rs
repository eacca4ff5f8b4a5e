//! An OIDC issuer's signing keys, as kube-apiserver's JWT authenticator (go-oidc) finds
//! them: the discovery document (`<issuer>/.well-known/openid-configuration`, or the
//! configured `discoveryURL`), whose `issuer` must be the configured URL, names the
//! `jwks_uri`; the key set is fetched over HTTPS with the issuer's CA (else the system's
//! roots) and kept in memory.
//!
//! Start-up never waits for the issuer: discovery runs in the background and is retried
//! (1 s doubling to upstream's 10 s) until it succeeds; until then the issuer's tokens are
//! refused at once ("authenticator not initialized"). Afterwards a token that no cached
//! key verifies (a new `kid`, as after a key rotation) makes one request fetch the key
//! set again, as go-oidc does; such fetches are shared, at most one per
//! [`MIN_REFETCH`], and a request waits at most [`FETCH_WAIT`] for one, so an issuer that
//! is down or slow costs its own users a quick 401 and nobody else anything. The keys are
//! also re-read every [`PERIODIC_REFRESH`]; a failed fetch keeps the keys held.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::DecodingKey;
use kas_proto::{JwtIssuer, WebhookClientConfig};
use kas_server::webhook::{Backoff, WebhookClient};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// Key set fetches caused by tokens are at most this frequent.
pub(crate) const MIN_REFETCH: Duration = Duration::from_secs(2);
/// The longest a request waits for a key set fetch.
pub(crate) const FETCH_WAIT: Duration = Duration::from_secs(2);
/// How often the key set is re-read in the background.
pub(crate) const PERIODIC_REFRESH: Duration = Duration::from_secs(300);
/// The longest one discovery or key set request may take.
const HTTP_TIMEOUT: Duration = Duration::from_secs(10);
/// Upstream retries discovery every 10 s; the first retries here come sooner.
const INIT_RETRY_MAX: Duration = Duration::from_secs(10);

/// One key of the set.
pub(crate) struct Key {
    pub(crate) kid: Option<String>,
    pub(crate) key: KeyMaterial,
}

/// What a key verifies with.
pub(crate) enum KeyMaterial {
    /// RSA, P-256 and P-384 keys, by `jsonwebtoken`.
    Jose(DecodingKey),
    /// P-521 keys (ES512), by [`crate::jwt_es512`].
    P521(p521::ecdsa::VerifyingKey),
}

/// What is known of the issuer.
#[derive(Default)]
struct State {
    jwks_uri: Option<String>,
    keys: Arc<Vec<Key>>,
    /// The last fetch's failure (for logs and the not-initialized message).
    error: Option<String>,
}

/// One issuer's keys.
pub(crate) struct Provider {
    url: String,
    discovery_url: String,
    client: Result<WebhookClient, String>,
    state: RwLock<State>,
    /// Serialises fetches; holds when the last one (caused by a token) started.
    fetching: tokio::sync::Mutex<Option<Instant>>,
    /// Ends the background task (the configuration was replaced, or the worker stops).
    pub(crate) stop: CancellationToken,
}

impl Provider {
    /// The provider of `issuer`, with its background discovery started.
    pub(crate) fn start(issuer: &JwtIssuer) -> Arc<Provider> {
        let provider = Arc::new(Provider::new(issuer));
        tokio::spawn(provider.clone().run());
        provider
    }

    fn new(issuer: &JwtIssuer) -> Provider {
        let discovery_url = issuer.discovery_url.clone().unwrap_or_else(|| {
            format!(
                "{}/.well-known/openid-configuration",
                issuer.url.trim_end_matches('/')
            )
        });
        let config = WebhookClientConfig {
            file: issuer.url.clone(),
            server: discovery_url.clone(),
            ca_pem: issuer.certificate_authority.clone(),
            insecure_skip_tls_verify: false,
            tls_server_name: None,
            client_cert_key_pem: None,
            bearer_token: None,
        };
        let client = WebhookClient::new(&config)
            .map(|c| c.with_limits(HTTP_TIMEOUT, Backoff::default()))
            .map_err(|e| e.to_string());
        Provider {
            url: issuer.url.clone(),
            discovery_url,
            client,
            state: RwLock::new(State::default()),
            fetching: tokio::sync::Mutex::new(None),
            stop: CancellationToken::new(),
        }
    }

    /// Discovery until it succeeds, then a periodic refresh, until stopped.
    async fn run(self: Arc<Provider>) {
        let mut wait = Duration::from_secs(1);
        loop {
            let result = {
                let _guard = self.fetching.lock().await;
                self.fetch().await
            };
            match result {
                Ok(()) => break,
                Err(e) => {
                    tracing::error!(issuer = %self.url, error = %e, "oidc authenticator: initializing plugin");
                    tokio::select! {
                        _ = self.stop.cancelled() => return,
                        _ = tokio::time::sleep(wait) => {}
                    }
                    wait = (wait * 2).min(INIT_RETRY_MAX);
                }
            }
        }
        tracing::info!(issuer = %self.url, "oidc authenticator: initialized");
        loop {
            tokio::select! {
                _ = self.stop.cancelled() => return,
                _ = tokio::time::sleep(PERIODIC_REFRESH) => {}
            }
            let _guard = self.fetching.lock().await;
            if let Err(e) = self.fetch().await {
                tracing::warn!(issuer = %self.url, error = %e, "oidc: refreshing the key set failed; keeping the keys held");
            }
        }
    }

    /// Whether discovery has succeeded.
    pub(crate) fn initialized(&self) -> bool {
        self.state
            .read()
            .map(|s| s.jwks_uri.is_some())
            .unwrap_or(false)
    }

    /// Why the issuer is not usable, if it is not.
    pub(crate) fn health(&self) -> Result<(), String> {
        if self.initialized() {
            return Ok(());
        }
        let cause = self
            .state
            .read()
            .ok()
            .and_then(|s| s.error.clone())
            .unwrap_or_else(|| "not initialized".to_owned());
        Err(format!(
            "oidc: authenticator for issuer {:?} is not healthy: {cause}",
            self.url
        ))
    }

    /// The keys held.
    pub(crate) fn keys(&self) -> Arc<Vec<Key>> {
        self.state
            .read()
            .map(|s| s.keys.clone())
            .unwrap_or_default()
    }

    /// The key set fetched again for a token no held key verifies; the keys held when
    /// a fetch ran lately, or none can be waited for.
    pub(crate) async fn refetch(&self) -> Result<Arc<Vec<Key>>, String> {
        let before = Instant::now();
        let Ok(mut last) = tokio::time::timeout(FETCH_WAIT, self.fetching.lock()).await else {
            return Err("fetching keys: timed out waiting for the issuer".to_owned());
        };
        // Someone fetched while this request waited, or lately: use what they got.
        if last.is_some_and(|at| at >= before || at.elapsed() < MIN_REFETCH) {
            return Ok(self.keys());
        }
        *last = Some(Instant::now());
        match tokio::time::timeout(FETCH_WAIT, self.fetch_keys()).await {
            Ok(Ok(())) => Ok(self.keys()),
            Ok(Err(e)) => Err(format!("fetching keys {e}")),
            Err(_) => Err("fetching keys: timed out waiting for the issuer".to_owned()),
        }
    }

    /// Discovery (when not done yet), then the key set.
    async fn fetch(&self) -> Result<(), String> {
        if !self.initialized() {
            let result = self.discover().await;
            if let Err(e) = &result {
                if let Ok(mut s) = self.state.write() {
                    s.error = Some(e.clone());
                }
            }
            result?;
        }
        self.fetch_keys().await
    }

    async fn discover(&self) -> Result<(), String> {
        let doc = self.get_json(&self.discovery_url).await?;
        let issuer = doc.get("issuer").and_then(Value::as_str).unwrap_or("");
        if issuer != self.url {
            return Err(format!(
                "oidc: issuer did not match the issuer returned by provider, expected {:?} got {issuer:?}",
                self.url
            ));
        }
        let jwks_uri = doc
            .get("jwks_uri")
            .and_then(Value::as_str)
            .filter(|u| !u.is_empty())
            .ok_or_else(|| "oidc: the discovery document has no jwks_uri".to_owned())?;
        let keys = self.get_keys(jwks_uri).await?;
        let mut s = self.state.write().map_err(|e| e.to_string())?;
        s.jwks_uri = Some(jwks_uri.to_owned());
        s.keys = Arc::new(keys);
        s.error = None;
        Ok(())
    }

    async fn fetch_keys(&self) -> Result<(), String> {
        let uri = self
            .state
            .read()
            .ok()
            .and_then(|s| s.jwks_uri.clone())
            .ok_or_else(|| "oidc: authenticator not initialized".to_owned())?;
        let keys = self.get_keys(&uri).await?;
        let mut s = self.state.write().map_err(|e| e.to_string())?;
        s.keys = Arc::new(keys);
        s.error = None;
        Ok(())
    }

    async fn get_keys(&self, uri: &str) -> Result<Vec<Key>, String> {
        let set = self
            .get_json(uri)
            .await
            .map_err(|e| format!("oidc: get keys failed {e}"))?;
        Ok(parse_key_set(&set))
    }

    async fn get_json(&self, url: &str) -> Result<Value, String> {
        let client = self.client.as_ref().map_err(Clone::clone)?;
        let (status, body) = client.get(url).await.map_err(|e| e.to_string())?;
        if !status.is_success() {
            return Err(format!(
                "{status}: {}",
                String::from_utf8_lossy(&body).trim()
            ));
        }
        serde_json::from_slice(&body).map_err(|e| format!("oidc: failed to decode {url}: {e}"))
    }
}

/// The usable keys of a JWKS document; keys this server cannot use (other key types,
/// encryption keys) are skipped, as go-jose skips what it cannot verify with.
pub(crate) fn parse_key_set(set: &Value) -> Vec<Key> {
    set.get("keys")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|k| {
            k.get("use")
                .and_then(Value::as_str)
                .is_none_or(|u| u == "sig")
        })
        .filter_map(|k| {
            if crate::jwt_es512::is_p521(k) {
                return Some(Key {
                    kid: k.get("kid").and_then(Value::as_str).map(str::to_owned),
                    key: KeyMaterial::P521(crate::jwt_es512::key_from_jwk(k)?),
                });
            }
            let jwk: Jwk = serde_json::from_value(k.clone()).ok()?;
            let key = DecodingKey::from_jwk(&jwk).ok()?;
            Some(Key {
                kid: jwk.common.key_id.clone(),
                key: KeyMaterial::Jose(key),
            })
        })
        .collect()
}

#[cfg(any(test, fuzzing))]
impl Provider {
    /// A provider already holding `keys` (no network).
    pub(crate) fn with_keys(issuer: &JwtIssuer, keys: Vec<Key>) -> Provider {
        let p = Provider::new(issuer);
        if let Ok(mut s) = p.state.write() {
            s.jwks_uri = Some(format!("{}/keys", issuer.url));
            s.keys = Arc::new(keys);
        }
        p
    }

    /// Replaces the keys held (a rotation seen by a fetch).
    #[cfg(test)]
    pub(crate) fn set_keys(&self, keys: Vec<Key>) {
        if let Ok(mut s) = self.state.write() {
            s.keys = Arc::new(keys);
        }
    }
}
