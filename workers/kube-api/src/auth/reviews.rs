//! The authentication reviews: TokenReview (is this service account token valid, and
//! whose is it) and SelfSubjectReview (who am I).

use std::future::Future;
use std::time::{Duration, SystemTime};

use kas_proto::UserInfo;
use kas_server::status::Status;
use serde_json::{json, Value};

use super::token::TokenIssuer;
use super::{bad_request, extra_json, rfc3339, str_at, strings_at, unix_seconds, AUTHN_V1};
use super::{bootstrap_token, legacy};

/// The kinds of object a TokenReview looks up to see that a token is still bound to
/// something that exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LookupKind {
    /// core/v1 ServiceAccount (namespaced).
    ServiceAccount,
    /// core/v1 Pod (namespaced).
    Pod,
    /// core/v1 Secret (namespaced).
    Secret,
    /// core/v1 Node (cluster-scoped: `namespace` is empty).
    Node,
}

/// One object a TokenReview needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Lookup {
    /// What it is.
    pub(crate) kind: LookupKind,
    /// Its namespace (empty for nodes).
    pub(crate) namespace: String,
    /// Its name.
    pub(crate) name: String,
}

/// How long after deletion a bound object still validates tokens (jose's leeway).
const DELETION_LEEWAY: Duration = Duration::from_secs(60);

/// The user a service account token stands for, as TokenReview writes it.
fn user_json(claims: &Value) -> Value {
    let k = &claims["kubernetes.io"];
    let ns = str_at(k, "/namespace");
    let name = str_at(k, "/serviceaccount/name");
    let mut extra = Vec::new();
    let mut add = |key: &str, pointer: &str| {
        let v = str_at(k, pointer);
        if !v.is_empty() {
            extra.push((
                format!("authentication.kubernetes.io/{key}"),
                vec![v.to_owned()],
            ));
        }
    };
    add("pod-name", "/pod/name");
    add("pod-uid", "/pod/uid");
    add("node-name", "/node/name");
    add("node-uid", "/node/uid");
    let jti = str_at(claims, "/jti");
    if !jti.is_empty() {
        extra.push((
            "authentication.kubernetes.io/credential-id".into(),
            vec![format!("JTI={jti}")],
        ));
    }
    let mut user = json!({
        "username": format!("system:serviceaccount:{ns}:{name}"),
        "uid": str_at(k, "/serviceaccount/uid"),
        "groups": [
            "system:serviceaccounts",
            format!("system:serviceaccounts:{ns}"),
            "system:authenticated",
        ],
    });
    if !extra.is_empty() {
        user["extra"] = extra_json(&extra);
    }
    user
}

/// Whether `object` was deleted longer ago than the leeway.
fn deleted_before_leeway(object: &Value, now: SystemTime) -> bool {
    let ts = str_at(object, "/metadata/deletionTimestamp");
    if ts.is_empty() {
        return false;
    }
    humantime::parse_rfc3339(ts)
        .map(|t| t + DELETION_LEEWAY < now)
        .unwrap_or(false)
}

/// Checks that what the token is bound to still exists with the same UID.
async fn check_bindings<F, Fut>(claims: &Value, now: SystemTime, get: &F) -> Result<(), String>
where
    F: Fn(Lookup) -> Fut,
    Fut: Future<Output = Result<Option<Value>, Status>>,
{
    let k = &claims["kubernetes.io"];
    let ns = str_at(k, "/namespace").to_owned();
    let lookup = |kind, namespace: &str, name: &str| Lookup {
        kind,
        namespace: namespace.to_owned(),
        name: name.to_owned(),
    };
    let sa_name = str_at(k, "/serviceaccount/name");
    let sa_uid = str_at(k, "/serviceaccount/uid");
    let sa = get(lookup(LookupKind::ServiceAccount, &ns, sa_name))
        .await
        .map_err(|s| s.message)?
        .ok_or_else(|| format!("serviceaccounts {sa_name:?} not found"))?;
    if deleted_before_leeway(&sa, now) {
        return Err(format!("ServiceAccount {ns}/{sa_name} has been deleted"));
    }
    let actual = str_at(&sa, "/metadata/uid");
    if actual != sa_uid {
        return Err(format!(
            "ServiceAccount UID ({actual}) does not match claim ({sa_uid})"
        ));
    }
    let bound = [
        ("secret", "Secret", LookupKind::Secret, ns.as_str()),
        ("pod", "Pod", LookupKind::Pod, ns.as_str()),
        ("node", "Node", LookupKind::Node, ""),
    ];
    for (claim, label, kind, namespace) in bound {
        let Some(r) = k.get(claim).filter(|r| r.is_object()) else {
            continue;
        };
        // The node of a pod-bound token is informational; only a node-bound token is
        // checked against its node.
        if kind == LookupKind::Node && k.get("pod").is_some_and(Value::is_object) {
            continue;
        }
        let name = str_at(r, "/name");
        let uid = str_at(r, "/uid");
        let object = get(lookup(kind, namespace, name))
            .await
            .ok()
            .flatten()
            .filter(|o| !deleted_before_leeway(o, now))
            .ok_or_else(|| "Token has been invalidated".to_owned())?;
        let actual = str_at(&object, "/metadata/uid");
        if actual != uid {
            return Err(format!(
                "{label} UID ({actual}) does not match claim ({uid})"
            ));
        }
    }
    Ok(())
}

/// A TokenReview's answer, and the Secret of a legacy token that was checked (for its
/// last-used label).
#[derive(Debug)]
pub(crate) struct Reviewed {
    pub(crate) review: Value,
    pub(crate) legacy_secret: Option<Value>,
}

/// Verifies a token's claims: a bound token's objects, or a legacy token's claims and
/// (with lookup) its Secret and ServiceAccount. The user, and a legacy token's Secret.
async fn check<F, Fut>(
    issuer: &TokenIssuer,
    token: &str,
    claims: &Value,
    now: SystemTime,
    get: &F,
) -> Result<(Value, Option<Value>), String>
where
    F: Fn(Lookup) -> Fut,
    Fut: Future<Output = Result<Option<Value>, Status>>,
{
    if str_at(claims, "/iss") != legacy::LEGACY_ISSUER {
        check_bindings(claims, now, get).await?;
        return Ok((user_json(claims), None));
    }
    let info = legacy::check_claims(claims)?;
    let secret = if issuer.legacy_lookup() {
        Some(legacy::lookup(&info, token, get).await?)
    } else {
        None
    };
    Ok((info.user_json(), secret))
}

/// Handles a TokenReview: verifies `spec.token` against `spec.audiences` (the API
/// audiences when empty) and, through `get`, that the ServiceAccount and any bound object
/// still exist with the UIDs in the token (for a legacy token: its Secret, when
/// `--service-account-lookup`). `get` answers `Ok(None)` for an object that does not
/// exist.
pub(crate) async fn token_review<F, Fut>(
    issuer: &TokenIssuer,
    bootstrap_tokens: bool,
    body: &Value,
    now: SystemTime,
    get: F,
) -> Result<Reviewed, Status>
where
    F: Fn(Lookup) -> Fut,
    Fut: Future<Output = Result<Option<Value>, Status>>,
{
    if !body.is_object() {
        return Err(bad_request(
            "the body of a TokenReview must be a JSON object",
        ));
    }
    let token = str_at(body, "/spec/token");
    if token.is_empty() {
        return Err(bad_request(
            "token is required for TokenReview in authentication",
        ));
    }
    let requested = strings_at(body, "/spec/audiences");
    let mut legacy_secret = None;
    let outcome = match issuer.verify(token, &requested, now) {
        Ok(None) => match bootstrap_token::parse(token).filter(|_| bootstrap_tokens) {
            Some((id, secret)) => {
                let lookup = Lookup {
                    kind: LookupKind::Secret,
                    namespace: bootstrap_token::NAMESPACE.to_owned(),
                    name: bootstrap_token::secret_name(id),
                };
                let stored = get(lookup).await.ok().flatten();
                stored
                    .and_then(|s| bootstrap_token::user(&s, id, secret, now))
                    .map(|user| (user, issuer.api_audiences().to_vec()))
                    .ok_or_else(|| "invalid bearer token".to_owned())
            }
            None => Err("invalid bearer token".to_owned()),
        },
        Ok(Some((claims, shared))) => match check(issuer, token, &claims, now, &get).await {
            Ok((user, secret)) => {
                legacy_secret = secret;
                Ok((user, shared))
            }
            Err(e) => Err(format!("[invalid bearer token, {e}]")),
        },
        Err(e) => Err(format!("[invalid bearer token, {e}]")),
    };
    let status = match outcome {
        Ok((user, shared)) => json!({
            "authenticated": true,
            "user": user,
            "audiences": shared,
        }),
        Err(error) => json!({"user": {}, "error": error}),
    };
    let mut out = body.clone();
    out["apiVersion"] = json!(AUTHN_V1);
    out["kind"] = json!("TokenReview");
    if !out.get("metadata").is_some_and(Value::is_object) {
        out["metadata"] = json!({});
    }
    if let Some(meta) = out["metadata"].as_object_mut() {
        meta.entry("creationTimestamp").or_insert(Value::Null);
    }
    out["status"] = status;
    Ok(Reviewed {
        review: out,
        legacy_secret,
    })
}

/// `authentication.k8s.io/v1` UserInfo of the requesting user.
pub(crate) fn user_info_json(user: &UserInfo) -> Value {
    let mut out = json!({"username": user.name});
    if !user.uid.is_empty() {
        out["uid"] = json!(user.uid);
    }
    if !user.groups.is_empty() {
        out["groups"] = json!(user.groups);
    }
    if !user.extra.is_empty() {
        out["extra"] = extra_json(&user.extra);
    }
    out
}

/// Handles a SelfSubjectReview: the requesting user, echoed.
pub(crate) fn self_subject_review(
    user: &UserInfo,
    body: &Value,
    now: SystemTime,
) -> Result<Value, Status> {
    if !body.is_object() {
        return Err(bad_request(
            "the body of a SelfSubjectReview must be a JSON object",
        ));
    }
    Ok(json!({
        "kind": "SelfSubjectReview",
        "apiVersion": AUTHN_V1,
        "metadata": {"creationTimestamp": rfc3339(unix_seconds(now))},
        "status": {"userInfo": user_info_json(user)},
    }))
}

#[cfg(test)]
mod tests {
    use super::super::token::tests::{issuer_with, request, sa};
    use super::*;

    fn block_on<T>(f: impl Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime")
            .block_on(f)
    }

    fn review(issuer: &TokenIssuer, token: &str, sa: Option<Value>) -> Value {
        let body = json!({"apiVersion": AUTHN_V1, "kind": "TokenReview", "spec": {"token": token}});
        block_on(token_review(
            issuer,
            false,
            &body,
            SystemTime::now(),
            |l: Lookup| {
                let sa = sa.clone();
                async move {
                    assert_eq!(l.kind, LookupKind::ServiceAccount);
                    assert_eq!((l.namespace.as_str(), l.name.as_str()), ("ci", "builder"));
                    Ok(sa)
                }
            },
        ))
        .expect("review")
        .review
    }

    #[test]
    fn token_review_answers() {
        let issuer = issuer_with(None);
        let r = request(&issuer, json!({}), SystemTime::now()).expect("token");
        let token = str_at(&r.object, "/status/token").to_owned();

        let ok = review(&issuer, &token, Some(sa()));
        let status = &ok["status"];
        assert_eq!(status["authenticated"], true);
        assert_eq!(
            status["user"]["username"],
            "system:serviceaccount:ci:builder"
        );
        assert_eq!(status["user"]["uid"], "sa-uid");
        assert_eq!(
            status["user"]["groups"],
            json!([
                "system:serviceaccounts",
                "system:serviceaccounts:ci",
                "system:authenticated"
            ])
        );
        assert!(
            status["user"]["extra"]["authentication.kubernetes.io/credential-id"][0]
                .as_str()
                .is_some_and(|s| s.starts_with("JTI="))
        );
        assert_eq!(
            status["audiences"],
            json!([super::super::token::tests::ISSUER])
        );

        let gone = review(&issuer, &token, None);
        assert_eq!(
            gone["status"],
            json!({"user": {}, "error": "[invalid bearer token, serviceaccounts \"builder\" not found]"})
        );
        let mut recreated = sa();
        recreated["metadata"]["uid"] = json!("new");
        let e = review(&issuer, &token, Some(recreated));
        assert_eq!(
            e["status"]["error"],
            "[invalid bearer token, ServiceAccount UID (new) does not match claim (sa-uid)]"
        );
        let junk = review(&issuer, "junk", Some(sa()));
        assert_eq!(
            junk["status"],
            json!({"user": {}, "error": "invalid bearer token"})
        );
    }

    #[test]
    fn legacy_tokens_with_and_without_lookup() {
        use base64::Engine;
        let issuer = issuer_with(None);
        let token = issuer
            .sign_legacy("ci", "builder", "sa-uid", "builder-token")
            .expect("sign");
        let secret = json!({"metadata": {"name": "builder-token", "namespace": "ci"},
            "data": {"token": base64::engine::general_purpose::STANDARD.encode(&token)}});
        let body = json!({"spec": {"token": token}});
        let run = |issuer: &TokenIssuer, secret: Option<Value>| {
            block_on(token_review(
                issuer,
                false,
                &body,
                SystemTime::now(),
                |l: Lookup| {
                    let answer = match l.kind {
                        LookupKind::Secret => secret.clone(),
                        LookupKind::ServiceAccount => Some(sa()),
                        _ => None,
                    };
                    async move { Ok(answer) }
                },
            ))
            .expect("review")
        };
        let ok = run(&issuer, Some(secret.clone()));
        assert_eq!(ok.review["status"]["authenticated"], true);
        assert_eq!(ok.review["status"]["user"]["uid"], "sa-uid");
        assert!(ok.review["status"]["user"].get("extra").is_none());
        assert_eq!(ok.legacy_secret, Some(secret.clone()));
        let gone = run(&issuer, None);
        assert_eq!(
            gone.review["status"]["error"],
            "[invalid bearer token, Token has been invalidated]"
        );
        let mut other = secret;
        other["data"]["token"] = json!("eA==");
        let copy = run(&issuer, Some(other));
        assert_eq!(
            copy.review["status"]["error"],
            "[invalid bearer token, Token does not match server's copy]"
        );
        // Without --service-account-lookup nothing is read.
        let unchecked = run(&issuer.with_legacy_lookup(false), None);
        assert_eq!(unchecked.review["status"]["authenticated"], true);
        assert_eq!(unchecked.legacy_secret, None);
    }

    #[test]
    fn token_review_needs_a_token() {
        let issuer = issuer_with(None);
        for body in [json!({}), json!({"spec": {"token": ""}}), json!("x")] {
            let e = block_on(token_review(
                &issuer,
                false,
                &body,
                SystemTime::now(),
                |_| async { Ok(None) },
            ))
            .expect_err("bad");
            assert_eq!(e.code(), 400);
        }
    }

    #[test]
    fn self_subject_review_echoes() {
        let user = UserInfo {
            name: "alice".into(),
            uid: "u1".into(),
            groups: vec!["devs".into(), "system:authenticated".into()],
            extra: vec![("scopes".into(), vec!["a".into()])],
        };
        let r = self_subject_review(&user, &json!({}), SystemTime::now()).expect("review");
        assert_eq!(r["kind"], "SelfSubjectReview");
        assert_eq!(
            r["status"]["userInfo"],
            json!({"username": "alice", "uid": "u1", "groups": ["devs", "system:authenticated"], "extra": {"scopes": ["a"]}})
        );
        assert!(self_subject_review(&user, &json!(null), SystemTime::now()).is_err());
    }
}
