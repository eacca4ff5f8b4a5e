//! The `Webhook` authorization mode (`--authorization-webhook-config-file`), as
//! kube-apiserver's: the request is sent as an `authorization.k8s.io` SubjectAccessReview
//! (v1, or v1beta1 where `groups` is spelt `group`) with the user, uid, groups and extra
//! and the resource or non-resource attributes; `status.denied` is a deny, `status.allowed`
//! an allow, neither no opinion, each with `status.reason`. Answers are cached by the
//! review's spec for `--authorization-webhook-cache-authorized-ttl` /
//! `-unauthorized-ttl` (zero: not cached), unless the requester-controlled attributes are
//! 10,000 bytes or more. A failed call is no opinion with an error, as the flags configure
//! upstream's authorizer (`failurePolicy: NoOpinion`): the next mode decides, and when
//! none allows, the error makes the request a 500.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use kas_proto::{AuthorizationWebhookConfig, ReviewVersion, UserInfo};
use kas_server::selectors::{FieldSelector, LabelSelector};
use kas_server::webhook::{WebhookClient, WebhookError};
use serde_json::{json, Map, Value};

use crate::match_conditions::MatchConditions;
use crate::{Attributes, Decision};

/// Upstream's response cache size.
const CACHE_MAX: usize = 8192;
/// Requests whose requester-controlled attributes weigh this much are not cached.
const MAX_CACHED_ATTRIBUTES: usize = 10000;

/// What the webhook said about one spec.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Answer {
    allowed: bool,
    denied: bool,
    reason: String,
}

/// The webhook authorizer and its answers.
pub(crate) struct WebhookAuthorizer {
    client: Result<WebhookClient, WebhookError>,
    version: ReviewVersion,
    authorized_ttl: Duration,
    unauthorized_ttl: Duration,
    /// How long one call may take.
    timeout: Duration,
    /// The decision when the call fails or a match condition cannot be evaluated.
    on_failure: Decision,
    conditions: MatchConditions,
    cache: Mutex<HashMap<String, (Answer, Instant)>>,
}

impl std::fmt::Debug for WebhookAuthorizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebhookAuthorizer")
            .field("client", &self.client)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

/// An authorizer's decision, reason and error (upstream's three results).
pub(crate) type Outcome = (Decision, String, Option<String>);

impl WebhookAuthorizer {
    /// The authorizer `config` describes.
    pub(crate) fn new(config: &AuthorizationWebhookConfig) -> WebhookAuthorizer {
        let client = WebhookClient::new(&config.client);
        if let Err(e) = &client {
            tracing::error!(error = %e, "the authorization webhook cannot be reached; it will have no opinion");
        }
        WebhookAuthorizer {
            client,
            version: config.version,
            authorized_ttl: config.authorized_ttl,
            unauthorized_ttl: config.unauthorized_ttl,
            timeout: config.timeout,
            on_failure: if config.deny_on_failure {
                Decision::Deny
            } else {
                Decision::NoOpinion
            },
            conditions: MatchConditions::new(&config.match_conditions),
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// The webhook's answer about `a` for `user`, cached as upstream caches it.
    pub(crate) async fn authorize(&self, user: &UserInfo, a: &Attributes) -> Outcome {
        let spec = spec(user, a, self.version);
        if !self.conditions.is_empty() {
            // The conditions see the v1 SubjectAccessReview, whatever version is sent.
            let matched = match self.version {
                ReviewVersion::V1 => self.conditions.matches(&spec),
                ReviewVersion::V1beta1 => {
                    self.conditions
                        .matches(&self::spec(user, a, ReviewVersion::V1))
                }
            };
            match matched {
                Ok(true) => {}
                Ok(false) => return (Decision::NoOpinion, String::new(), None),
                Err(e) => return (self.on_failure, String::new(), Some(e)),
            }
        }
        let key = serde_json::to_string(&spec).unwrap_or_default();
        if let Some(answer) = self.cached(&key) {
            return outcome(answer);
        }
        let client = match &self.client {
            Ok(c) => c,
            Err(e) => return (self.on_failure, String::new(), Some(e.to_string())),
        };
        let review = json!({
            "kind": "SubjectAccessReview",
            "apiVersion": format!("authorization.k8s.io/{}", self.version.as_str()),
            "metadata": {"creationTimestamp": null},
            "spec": spec,
            "status": {"allowed": false},
        });
        let answer = match tokio::time::timeout(self.timeout, client.post(&review)).await {
            Ok(Ok(v)) => answer_of(&v),
            Ok(Err(e)) => {
                tracing::error!(error = %e, "Failed to make webhook authorizer request");
                return (self.on_failure, String::new(), Some(e.to_string()));
            }
            Err(_) => {
                let e = "context deadline exceeded".to_owned();
                tracing::error!(error = %e, timeout = ?self.timeout, "Failed to make webhook authorizer request");
                return (self.on_failure, String::new(), Some(e));
            }
        };
        let ttl = if answer.allowed {
            self.authorized_ttl
        } else {
            self.unauthorized_ttl
        };
        if !ttl.is_zero() && controlled_size(a) < MAX_CACHED_ATTRIBUTES {
            if let Ok(mut cache) = self.cache.lock() {
                if cache.len() >= CACHE_MAX {
                    let now = Instant::now();
                    cache.retain(|_, (_, expires)| *expires > now);
                }
                if cache.len() < CACHE_MAX {
                    cache.insert(key, (answer.clone(), Instant::now() + ttl));
                }
            }
        }
        outcome(answer)
    }

    fn cached(&self, key: &str) -> Option<Answer> {
        let cache = self.cache.lock().ok()?;
        let (answer, expires) = cache.get(key)?;
        (*expires > Instant::now()).then(|| answer.clone())
    }
}

/// Upstream's mapping of an answer to a decision.
fn outcome(a: Answer) -> Outcome {
    match (a.allowed, a.denied) {
        (true, true) => (
            Decision::Deny,
            a.reason,
            Some("webhook subject access review returned both allow and deny response".into()),
        ),
        (_, true) => (Decision::Deny, a.reason, None),
        (true, false) => (Decision::Allow, a.reason, None),
        (false, false) => (Decision::NoOpinion, a.reason, None),
    }
}

fn answer_of(review: &Value) -> Answer {
    let status = review.get("status");
    let flag = |k: &str| status.and_then(|s| s.get(k)).and_then(Value::as_bool) == Some(true);
    Answer {
        allowed: flag("allowed"),
        denied: flag("denied"),
        reason: status
            .and_then(|s| s.get("reason"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
    }
}

/// The review's spec as Go writes it (empty fields left out).
fn spec(user: &UserInfo, a: &Attributes, version: ReviewVersion) -> Value {
    let mut spec = Map::new();
    let put = |m: &mut Map<String, Value>, k: &str, v: &str| {
        if !v.is_empty() {
            m.insert(k.to_owned(), json!(v));
        }
    };
    if a.resource_request {
        let mut r = Map::new();
        put(&mut r, "namespace", &a.namespace);
        put(&mut r, "verb", &a.verb);
        put(&mut r, "group", &a.group);
        put(&mut r, "version", &a.version);
        put(&mut r, "resource", &a.resource);
        put(&mut r, "subresource", &a.subresource);
        put(&mut r, "name", &a.name);
        // Upstream's AuthorizeWithSelectors (on by default): a list's selectors as
        // requirements; one that does not parse narrows nothing and is left out.
        let fields = FieldSelector::parse(&a.field_selector)
            .map(|f| f.authorization_requirements())
            .unwrap_or_default();
        if !fields.is_empty() {
            r.insert("fieldSelector".into(), json!({"requirements": fields}));
        }
        let labels = LabelSelector::parse(&a.label_selector)
            .map(|l| l.authorization_requirements())
            .unwrap_or_default();
        if !labels.is_empty() {
            r.insert("labelSelector".into(), json!({"requirements": labels}));
        }
        spec.insert("resourceAttributes".into(), Value::Object(r));
    } else {
        let mut n = Map::new();
        put(&mut n, "path", &a.path);
        put(&mut n, "verb", &a.verb);
        spec.insert("nonResourceAttributes".into(), Value::Object(n));
    }
    put(&mut spec, "user", &user.name);
    if !user.groups.is_empty() {
        let key = match version {
            ReviewVersion::V1 => "groups",
            ReviewVersion::V1beta1 => "group",
        };
        spec.insert(key.into(), json!(user.groups));
    }
    if !user.extra.is_empty() {
        let extra: Map<String, Value> = user
            .extra
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        spec.insert("extra".into(), Value::Object(extra));
    }
    put(&mut spec, "uid", &user.uid);
    Value::Object(spec)
}

/// Upstream's `shouldCache` measure.
fn controlled_size(a: &Attributes) -> usize {
    [
        &a.namespace,
        &a.verb,
        &a.group,
        &a.version,
        &a.resource,
        &a.subresource,
        &a.name,
        &a.path,
    ]
    .iter()
    .map(|s| s.len())
    .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jane() -> UserInfo {
        UserInfo {
            name: "jane".into(),
            uid: "7".into(),
            groups: vec!["devs".into(), "system:authenticated".into()],
            extra: vec![("scopes".into(), vec!["a".into()])],
        }
    }

    #[test]
    fn specs_as_upstream_writes_them() {
        let get = Attributes {
            verb: "get".into(),
            resource_request: true,
            namespace: "default".into(),
            version: "v1".into(),
            resource: "pods".into(),
            name: "web".into(),
            ..Default::default()
        };
        assert_eq!(
            spec(&jane(), &get, ReviewVersion::V1),
            json!({"resourceAttributes": {"namespace": "default", "verb": "get", "version": "v1",
                "resource": "pods", "name": "web"},
                "user": "jane", "uid": "7", "groups": ["devs", "system:authenticated"],
                "extra": {"scopes": ["a"]}})
        );
        // A list's selectors, as requirements (AuthorizeWithSelectors).
        let list = Attributes {
            verb: "list".into(),
            resource_request: true,
            version: "v1".into(),
            resource: "pods".into(),
            field_selector: "spec.nodeName=n1".into(),
            label_selector: "app in (web,api),!canary".into(),
            ..Default::default()
        };
        assert_eq!(
            spec(&jane(), &list, ReviewVersion::V1)["resourceAttributes"],
            json!({"verb": "list", "version": "v1", "resource": "pods",
                "fieldSelector": {"requirements": [
                    {"key": "spec.nodeName", "operator": "In", "values": ["n1"]}]},
                "labelSelector": {"requirements": [
                    {"key": "app", "operator": "In", "values": ["web", "api"]},
                    {"key": "canary", "operator": "DoesNotExist"}]}})
        );
        let unparsable = Attributes {
            label_selector: "a in (".into(),
            ..list
        };
        assert!(
            spec(&jane(), &unparsable, ReviewVersion::V1)["resourceAttributes"]
                .get("labelSelector")
                .is_none()
        );
        let healthz = Attributes {
            verb: "get".into(),
            path: "/healthz".into(),
            ..Default::default()
        };
        let anonymous = UserInfo {
            name: "system:anonymous".into(),
            groups: vec!["system:unauthenticated".into()],
            ..Default::default()
        };
        assert_eq!(
            spec(&anonymous, &healthz, ReviewVersion::V1beta1),
            json!({"nonResourceAttributes": {"path": "/healthz", "verb": "get"},
                "user": "system:anonymous", "group": ["system:unauthenticated"]})
        );
    }

    #[test]
    fn answers_map_to_decisions() {
        let a = |v: Value| outcome(answer_of(&json!({ "status": v })));
        assert_eq!(
            a(json!({"allowed": true})),
            (Decision::Allow, String::new(), None)
        );
        assert_eq!(
            a(json!({"allowed": false, "denied": true, "reason": "no"})),
            (Decision::Deny, "no".into(), None)
        );
        assert_eq!(
            a(json!({"allowed": false, "reason": "dunno"})),
            (Decision::NoOpinion, "dunno".into(), None)
        );
        let both = a(json!({"allowed": true, "denied": true}));
        assert_eq!(both.0, Decision::Deny);
        assert!(both.2.is_some());
    }
}
