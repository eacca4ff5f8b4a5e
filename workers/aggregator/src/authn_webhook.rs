//! Webhook token authentication (`--authentication-token-webhook-config-file`), as
//! kube-apiserver's: a bearer token no other authenticator accepts is sent as an
//! `authentication.k8s.io` TokenReview (`spec.token`, `spec.audiences` = the audiences
//! wanted: a TokenReview's, else the API audiences) to the webhook; `status.authenticated`
//! and `status.user` give the user, `status.audiences` (or, when empty, the API
//! audiences) must meet the audiences wanted, and the token is good for the
//! intersection. Answers are cached for `--authentication-token-webhook-cache-ttl`,
//! refusals too; a failed call (webhook down, slow, erroring, or a refusal with
//! `status.error`) is not cached and is the error of the refusal. The cache is keyed by
//! an HMAC of the token and the audiences.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use kas_proto::{ReviewVersion, TokenWebhookConfig, UserInfo};
use kas_server::webhook::{WebhookClient, WebhookError};
use serde_json::{json, Value};

use crate::authn::{TokenDigest, TokenKey};
use crate::token_union::{intersect, strings, Authenticated};

/// The most answers remembered.
const CACHE_MAX: usize = 16384;

/// The webhook token authenticator and its cache.
pub(crate) struct TokenWebhook {
    client: Result<WebhookClient, WebhookError>,
    version: ReviewVersion,
    ttl: Duration,
    audiences: Vec<String>,
    cache: Mutex<HashMap<TokenKey, (Option<Authenticated>, Instant)>>,
}

impl TokenWebhook {
    /// The authenticator `config` describes, for a server of `audiences`.
    pub(crate) fn new(config: &TokenWebhookConfig, audiences: &[String]) -> TokenWebhook {
        let client = WebhookClient::new(&config.client);
        if let Err(e) = &client {
            tracing::error!(error = %e, "the authentication webhook cannot be reached; its tokens are refused");
        }
        TokenWebhook {
            client,
            version: config.version,
            ttl: config.cache_ttl,
            audiences: audiences.to_vec(),
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The user `token` authenticates for the audiences `wanted`, as the webhook says
    /// (from the cache when it answered lately): None when it does not, the error when
    /// the webhook failed or refused with one.
    pub(crate) async fn authenticate(
        &self,
        digest: &TokenDigest,
        token: &str,
        wanted: &[String],
    ) -> Result<Option<Authenticated>, String> {
        let key = (*digest, wanted.to_vec());
        if let Ok(cache) = self.cache.lock() {
            if let Some((found, at)) = cache.get(&key) {
                if at.elapsed() < self.ttl {
                    return Ok(found.clone());
                }
            }
        }
        let client = self.client.as_ref().map_err(|e| e.to_string())?;
        let answer = client
            .post(&review(self.version, token, wanted))
            .await
            .map_err(|e| {
                tracing::error!(error = %e, "Failed to make webhook authenticator request");
                e.to_string()
            })?;
        let found = self.user_from(&answer, wanted).map_err(|e| {
            tracing::info!(error = %e, "the authentication webhook refused a token");
            e
        })?;
        if !self.ttl.is_zero() {
            if let Ok(mut cache) = self.cache.lock() {
                if cache.len() >= CACHE_MAX {
                    let ttl = self.ttl;
                    cache.retain(|_, (_, at)| at.elapsed() < ttl);
                }
                if cache.len() < CACHE_MAX {
                    cache.insert(key, (found.clone(), Instant::now()));
                }
            }
        }
        Ok(found)
    }

    /// The user of an answer and the audiences it holds for (None: not authenticated,
    /// cached), or the webhook's error (not cached).
    fn user_from(
        &self,
        answer: &Value,
        wanted: &[String],
    ) -> Result<Option<Authenticated>, String> {
        let status = answer.get("status").cloned().unwrap_or(Value::Null);
        if status.get("authenticated") != Some(&Value::Bool(true)) {
            return match status.get("error").and_then(Value::as_str) {
                Some(e) if !e.is_empty() => Err(e.to_owned()),
                _ => Ok(None),
            };
        }
        let got = strings(status.get("audiences"));
        let got = if got.is_empty() {
            &self.audiences
        } else {
            &got
        };
        let audiences = intersect(wanted, got);
        if !wanted.is_empty() && audiences.is_empty() {
            return Ok(None);
        }
        let u = status.get("user").cloned().unwrap_or(Value::Null);
        let text = |k: &str| u.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        let mut user = UserInfo {
            name: text("username"),
            uid: text("uid"),
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
        };
        add_authenticated_group(&mut user);
        Ok(Some(Authenticated { user, audiences }))
    }
}

/// The TokenReview sent, as Go encodes it.
fn review(version: ReviewVersion, token: &str, audiences: &[String]) -> Value {
    let mut spec = json!({"token": token});
    if !audiences.is_empty() {
        spec["audiences"] = json!(audiences);
    }
    json!({
        "kind": "TokenReview",
        "apiVersion": format!("authentication.k8s.io/{}", version.as_str()),
        "metadata": {"creationTimestamp": null},
        "spec": spec,
        "status": {"user": {}},
    })
}

/// `system:authenticated`, added as upstream's AuthenticatedGroupAdder adds it: not to
/// `system:anonymous`, nor when either catch-all group is already there.
pub(crate) fn add_authenticated_group(user: &mut UserInfo) {
    let has = |g: &str| user.groups.iter().any(|x| x == g);
    if user.name != "system:anonymous"
        && !has("system:authenticated")
        && !has("system:unauthenticated")
    {
        user.groups.push("system:authenticated".to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn webhook(audiences: &[&str]) -> TokenWebhook {
        let config = TokenWebhookConfig {
            client: kas_proto::WebhookClientConfig {
                file: "k".into(),
                server: "https://127.0.0.1:1/authn".into(),
                ca_pem: None,
                insecure_skip_tls_verify: true,
                tls_server_name: None,
                client_cert_key_pem: None,
                bearer_token: None,
            },
            version: ReviewVersion::V1,
            cache_ttl: Duration::from_secs(120),
        };
        let auds: Vec<String> = audiences.iter().map(|a| (*a).to_owned()).collect();
        TokenWebhook::new(&config, &auds)
    }

    #[test]
    fn reviews_and_answers_as_upstream() {
        let api = "https://kubernetes.default.svc.cluster.local".to_owned();
        let w = webhook(&[&api]);
        let wanted = [api.clone()];
        assert_eq!(
            review(ReviewVersion::V1, "abc", &wanted),
            json!({"kind": "TokenReview", "apiVersion": "authentication.k8s.io/v1",
                "metadata": {"creationTimestamp": null},
                "spec": {"token": "abc", "audiences": ["https://kubernetes.default.svc.cluster.local"]},
                "status": {"user": {}}})
        );
        let ok = json!({"status": {"authenticated": true, "user": {"username": "jane", "uid": "42",
            "groups": ["devs"], "extra": {"scopes": ["a", "b"]}}}});
        let found = w.user_from(&ok, &wanted).expect("answer").expect("user");
        assert_eq!(found.audiences, wanted);
        let user = found.user;
        assert_eq!(user.name, "jane");
        assert_eq!(user.uid, "42");
        assert_eq!(user.groups, ["devs", "system:authenticated"]);
        assert_eq!(
            user.extra,
            [("scopes".to_owned(), vec!["a".to_owned(), "b".to_owned()])]
        );
        assert_eq!(
            w.user_from(&json!({"status": {"authenticated": false}}), &wanted),
            Ok(None)
        );
        assert_eq!(
            w.user_from(
                &json!({"status": {"authenticated": false, "error": "expired"}}),
                &wanted
            ),
            Err("expired".to_owned())
        );
        let other_audience = json!({"status": {"authenticated": true, "audiences": ["other"],
            "user": {"username": "jane"}}});
        assert_eq!(w.user_from(&other_audience, &wanted), Ok(None));
        // A TokenReview for other audiences: the webhook's own audiences decide, and
        // without any the API audiences do.
        let other = ["other".to_owned()];
        let found = w
            .user_from(&other_audience, &other)
            .expect("answer")
            .expect("user");
        assert_eq!(found.audiences, other);
        assert_eq!(w.user_from(&ok, &other), Ok(None));
    }
}
