//! The bearer token authenticators as one union, in kube-apiserver's order
//! (`pkg/kubeapiserver/authenticator/config.go`): `--token-auth-file` tokens, service
//! account tokens, bootstrap tokens, JWTs of OIDC issuers, then the token webhook; the
//! first that authenticates wins, and the errors of those that refused are aggregated.
//!
//! Audiences are upstream's: a token is judged for the audiences asked (a TokenReview's
//! `spec.audiences`), the API audiences (`--api-audiences`, by default the first
//! service account issuer) when none are. Service account tokens and the webhook are
//! audience-aware (the audiences are passed down); static tokens, bootstrap tokens and
//! OIDC JWTs are audience-agnostic: they authenticate only when the audiences asked meet
//! the API audiences, for that intersection.
//!
//! The union is wrapped in upstream's cache (`TokenSuccessCacheTTL` 10 s, failures not
//! cached), keyed by the HMAC digest of the token and the audiences; it is emptied when
//! the `--authentication-config` authenticators are replaced.

use kas_proto::{UserInfo, WorkerRole};
use serde_json::{json, Value};

use crate::front::Front;

/// A token's user and the audiences it is good for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Authenticated {
    pub(crate) user: UserInfo,
    pub(crate) audiences: Vec<String>,
}

/// What the union makes of a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TokenVerdict {
    /// The token is this user's.
    Authenticated(Authenticated),
    /// Nobody took the token; the aggregated errors of those that refused it (none when
    /// nobody knew it).
    Refused(Option<String>),
}

/// What the kube-api worker writes as a TokenReview's error when no authenticator of
/// its own had an opinion on the token.
const NO_OPINION: &str = "invalid bearer token";

/// Whether `token` could be a JWT (three dot-separated parts), as upstream's JWT
/// authenticators check before trying.
pub(crate) fn looks_like_jwt(token: &str) -> bool {
    token.bytes().filter(|b| *b == b'.').count() == 2
}

/// Whether `token` has the bootstrap token form `[a-z0-9]{6}.[a-z0-9]{16}`.
pub(crate) fn looks_like_bootstrap_token(token: &str) -> bool {
    let ok = |s: &str, len: usize| {
        s.len() == len
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    token
        .split_once('.')
        .is_some_and(|(id, secret)| ok(id, 6) && ok(secret, 16))
}

/// The audiences a token is judged for: those asked, else the API audiences.
pub(crate) fn wanted_audiences(asked: &[String], api: &[String]) -> Vec<String> {
    if asked.is_empty() {
        api.to_vec()
    } else {
        asked.to_vec()
    }
}

/// What an audience-agnostic authenticator may grant for `wanted`: None when the
/// audiences miss the API audiences (it is not asked), else the intersection (empty when
/// nothing limits the audiences at all), as upstream's `WrapAudienceAgnosticToken`.
pub(crate) fn implicit_audiences(wanted: &[String], api: &[String]) -> Option<Vec<String>> {
    if wanted.is_empty() {
        return Some(Vec::new());
    }
    let shared = intersect(api, wanted);
    (!shared.is_empty()).then_some(shared)
}

/// The audiences of `a` that `b` holds too, in `a`'s order.
pub(crate) fn intersect(a: &[String], b: &[String]) -> Vec<String> {
    a.iter().filter(|x| b.contains(x)).cloned().collect()
}

/// apimachinery's error aggregate: one error as itself, several as `[e1, e2]`.
fn aggregate(errors: Vec<String>) -> Option<String> {
    match errors.len() {
        0 => None,
        1 => errors.into_iter().next(),
        _ => Some(format!("[{}]", errors.join(", "))),
    }
}

/// The union's verdict on `token` for the audiences `wanted` (already defaulted to the
/// API audiences), from the cache of successes when the same token was authenticated for
/// the same audiences less than 10 s ago; refusals are not cached, as upstream's
/// `TokenFailureCacheTTL` is 0. `known` is as for [`union`].
pub(crate) async fn authenticate(
    front: &Front,
    token: &str,
    wanted: &[String],
    known: Option<&Value>,
) -> TokenVerdict {
    let key = (front.tokens.digest(token), wanted.to_vec());
    if let Some(found) = front.tokens.get(&key) {
        return TokenVerdict::Authenticated(found);
    }
    let verdict = union(front, token, wanted, known).await;
    if let TokenVerdict::Authenticated(found) = &verdict {
        front.tokens.put(key, found.clone());
    }
    verdict
}

/// Runs the union for `token` and the audiences `wanted` (already defaulted to the API
/// audiences). `known` is the kube-api worker's answer to a TokenReview of this token
/// and these audiences, when the caller already has it; else the worker is asked when a
/// service account or bootstrap token is possible.
async fn union(
    front: &Front,
    token: &str,
    wanted: &[String],
    known: Option<&Value>,
) -> TokenVerdict {
    let implicit = implicit_audiences(wanted, &front.config.api_audiences);
    let mut errors = Vec::new();
    if let (Some(user), Some(auds)) = (front.static_tokens.get(token), &implicit) {
        return authenticated(user.clone(), auds.clone());
    }
    let jwt = looks_like_jwt(token);
    // A JWT of a configured OIDC issuer is that authenticator's (service account issuers
    // may not be among them); one it refuses may still be the webhook's, as upstream's
    // union goes on after an error.
    let mut jwt_issuer = false;
    if let (true, Some(auds)) = (jwt, &implicit) {
        match front.jwt.authenticate(token).await {
            Some(Ok(user)) => return authenticated(user, auds.clone()),
            Some(Err(e)) => {
                tracing::info!(error = %e, "JWT authentication failed");
                errors.push(e);
                jwt_issuer = true;
            }
            None => {}
        }
    }
    // Service account tokens, and bootstrap tokens when enabled, are verified by kube-api,
    // which holds the keys and reads the Secrets.
    let bootstrap = !jwt
        && front.config.enable_bootstrap_token_auth
        && looks_like_bootstrap_token(token)
        && implicit.is_some();
    if (jwt && !jwt_issuer) || bootstrap {
        let asked;
        let answer = match known {
            Some(v) => Some(v),
            None => {
                asked = ask_kube_api(front, token, wanted).await;
                asked.as_ref()
            }
        };
        match answer.and_then(review_verdict) {
            Some(Ok(mut found)) => {
                if bootstrap {
                    found.audiences = implicit.clone().unwrap_or_default();
                }
                return TokenVerdict::Authenticated(found);
            }
            Some(Err(e)) => errors.push(e),
            None => {}
        }
    }
    if let Some(webhook) = &front.token_webhook {
        let digest = front.tokens.digest(token);
        match webhook.authenticate(&digest, token, wanted).await {
            Ok(Some(found)) => return TokenVerdict::Authenticated(found),
            Ok(None) => {}
            Err(e) => errors.push(e),
        }
    }
    TokenVerdict::Refused(aggregate(errors))
}

fn authenticated(user: UserInfo, audiences: Vec<String>) -> TokenVerdict {
    TokenVerdict::Authenticated(Authenticated { user, audiences })
}

/// The kube-api worker's TokenReview of `token` for `audiences`; None when it cannot be
/// asked.
async fn ask_kube_api(front: &Front, token: &str, audiences: &[String]) -> Option<Value> {
    let mut spec = json!({"token": token});
    if !audiences.is_empty() {
        spec["audiences"] = json!(audiences);
    }
    let review = json!({
        "apiVersion": "authentication.k8s.io/v1",
        "kind": "TokenReview",
        "spec": spec,
    });
    front
        .call_json(
            WorkerRole::KubeApi,
            http::Method::POST,
            "/apis/authentication.k8s.io/v1/tokenreviews",
            "application/json",
            Some(("application/json", &review)),
        )
        .await
}

/// What a TokenReview answer says: the user and audiences, the error of an authenticator
/// that refused the token, or None when nobody had an opinion.
pub(crate) fn review_verdict(answer: &Value) -> Option<Result<Authenticated, String>> {
    let status = answer.get("status").unwrap_or(&Value::Null);
    if status.get("authenticated") != Some(&Value::Bool(true)) {
        let error = status.get("error").and_then(Value::as_str).unwrap_or("");
        return (!error.is_empty() && error != NO_OPINION).then(|| Err(error.to_owned()));
    }
    let u = status.get("user").unwrap_or(&Value::Null);
    let text = |k: &str| u.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let user = UserInfo {
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
    Some(Ok(Authenticated {
        user,
        audiences: strings(status.get("audiences")),
    }))
}

/// The strings of a JSON array (others skipped).
pub(crate) fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|x| x.as_str().map(str::to_owned))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn token_shapes() {
        assert!(looks_like_jwt("a.b.c"));
        assert!(!looks_like_jwt("a.b"));
        assert!(looks_like_bootstrap_token("abcdef.0123456789abcdef"));
        assert!(!looks_like_bootstrap_token("abcdef.0123456789ABCDEF"));
        assert!(!looks_like_bootstrap_token("abcde.0123456789abcdef"));
    }

    #[test]
    fn audiences_as_upstream() {
        let api = v(&["https://kubernetes.default.svc"]);
        assert_eq!(wanted_audiences(&[], &api), api);
        assert_eq!(wanted_audiences(&v(&["x"]), &api), v(&["x"]));
        // Audience-agnostic authenticators: only for the API audiences.
        assert_eq!(implicit_audiences(&api, &api), Some(api.clone()));
        assert_eq!(implicit_audiences(&v(&["x"]), &api), None);
        assert_eq!(
            implicit_audiences(&v(&["x", "https://kubernetes.default.svc"]), &api),
            Some(api.clone())
        );
        // Nothing limits the audiences: no check.
        assert_eq!(implicit_audiences(&[], &[]), Some(Vec::new()));
        assert_eq!(implicit_audiences(&v(&["x"]), &[]), None);
    }

    #[test]
    fn errors_aggregate_as_apimachinery() {
        assert_eq!(aggregate(vec![]), None);
        assert_eq!(aggregate(v(&["a"])), Some("a".to_owned()));
        assert_eq!(aggregate(v(&["a", "b"])), Some("[a, b]".to_owned()));
    }

    #[test]
    fn kube_api_answers() {
        let ok = json!({"status": {"authenticated": true, "audiences": ["api"],
            "user": {"username": "system:serviceaccount:ci:builder", "uid": "u",
                "groups": ["system:serviceaccounts", "system:authenticated"],
                "extra": {"authentication.kubernetes.io/credential-id": ["JTI=1"]}}}});
        let found = review_verdict(&ok).expect("opinion").expect("user");
        assert_eq!(found.user.name, "system:serviceaccount:ci:builder");
        assert_eq!(found.user.uid, "u");
        assert_eq!(
            found.user.extra,
            [(
                "authentication.kubernetes.io/credential-id".to_owned(),
                v(&["JTI=1"])
            )]
        );
        assert_eq!(found.audiences, v(&["api"]));
        let none = json!({"status": {"user": {}, "error": "invalid bearer token"}});
        assert_eq!(review_verdict(&none), None);
        let bad = json!({"status": {"user": {}, "error": "[invalid bearer token, gone]"}});
        assert_eq!(
            review_verdict(&bad),
            Some(Err("[invalid bearer token, gone]".to_owned()))
        );
    }
}
