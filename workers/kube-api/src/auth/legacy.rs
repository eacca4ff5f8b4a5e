//! Legacy service account tokens: the long-lived tokens kept in Secrets of type
//! `kubernetes.io/service-account-token` (issuer `kubernetes/serviceaccount`, no expiry,
//! no audience: valid for the API audiences). Their claims, and their validation as
//! upstream's legacy validator does it: the claims must be complete and agree with the
//! subject; with `--service-account-lookup` (the default) the Secret must still exist and
//! hold this very token, the ServiceAccount must exist with the same UID, and a Secret
//! labelled `kubernetes.io/legacy-token-invalid-since` no longer authenticates. A token in
//! use gets the Secret labelled `kubernetes.io/legacy-token-last-used` with the day.

use std::future::Future;
use std::time::SystemTime;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use kas_server::status::Status;
use serde_json::{json, Value};

use super::reviews::{Lookup, LookupKind};
use super::str_at;

/// The issuer of legacy tokens.
pub(crate) const LEGACY_ISSUER: &str = "kubernetes/serviceaccount";
/// The label that marks a legacy token as no longer valid.
pub(crate) const INVALID_SINCE_LABEL: &str = "kubernetes.io/legacy-token-invalid-since";
/// The label that records the last day a legacy token was used.
pub(crate) const LAST_USED_LABEL: &str = "kubernetes.io/legacy-token-last-used";

const NS: &str = "kubernetes.io/serviceaccount/namespace";
const SECRET: &str = "kubernetes.io/serviceaccount/secret.name";
const SA_NAME: &str = "kubernetes.io/serviceaccount/service-account.name";
const SA_UID: &str = "kubernetes.io/serviceaccount/service-account.uid";

/// The claims of a legacy token for service account `name` (`uid`) in `namespace`, kept in
/// Secret `secret` (the issuer is added when signing).
pub(crate) fn claims(namespace: &str, name: &str, uid: &str, secret: &str) -> Value {
    json!({
        "iss": LEGACY_ISSUER,
        "sub": format!("system:serviceaccount:{namespace}:{name}"),
        NS: namespace,
        SECRET: secret,
        SA_NAME: name,
        SA_UID: uid,
    })
}

/// Whose a verified legacy token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LegacyInfo {
    pub(crate) namespace: String,
    pub(crate) name: String,
    pub(crate) uid: String,
    pub(crate) secret: String,
}

impl LegacyInfo {
    /// The user, as TokenReview writes it (no extra: nothing is bound).
    pub(crate) fn user_json(&self) -> Value {
        json!({
            "username": format!("system:serviceaccount:{}:{}", self.namespace, self.name),
            "uid": self.uid,
            "groups": [
                "system:serviceaccounts",
                format!("system:serviceaccounts:{}", self.namespace),
                "system:authenticated",
            ],
        })
    }
}

/// The claims' own checks: present, and the subject agrees with them.
pub(crate) fn check_claims(claims: &Value) -> Result<LegacyInfo, String> {
    let get = |k: &str| claims.get(k).and_then(Value::as_str).unwrap_or("");
    let sub = get("sub");
    if sub.is_empty() {
        return Err("sub claim is missing".into());
    }
    let info = LegacyInfo {
        namespace: get(NS).to_owned(),
        secret: get(SECRET).to_owned(),
        name: get(SA_NAME).to_owned(),
        uid: get(SA_UID).to_owned(),
    };
    for (value, claim) in [
        (&info.namespace, "namespace"),
        (&info.secret, "secretName"),
        (&info.name, "serviceAccountName"),
        (&info.uid, "serviceAccountUID"),
    ] {
        if value.is_empty() {
            return Err(format!("{claim} claim is missing"));
        }
    }
    let parts: Vec<&str> = sub.splitn(4, ':').collect();
    let matches = parts.len() == 4
        && parts[0] == "system"
        && parts[1] == "serviceaccount"
        && parts[2] == info.namespace
        && parts[3] == info.name;
    if !matches {
        return Err("sub claim is invalid".into());
    }
    Ok(info)
}

/// The Secret and ServiceAccount checks of `--service-account-lookup`. On success returns
/// the Secret, for the last-used label.
pub(crate) async fn lookup<F, Fut>(info: &LegacyInfo, token: &str, get: &F) -> Result<Value, String>
where
    F: Fn(Lookup) -> Fut,
    Fut: Future<Output = Result<Option<Value>, Status>>,
{
    let find = |kind, name: &str| Lookup {
        kind,
        namespace: info.namespace.clone(),
        name: name.to_owned(),
    };
    let secret = get(find(LookupKind::Secret, &info.secret))
        .await
        .ok()
        .flatten()
        .filter(|s| s.pointer("/metadata/deletionTimestamp").is_none())
        .ok_or("Token has been invalidated")?;
    let stored = secret
        .pointer("/data/token")
        .and_then(Value::as_str)
        .and_then(|b| STANDARD.decode(b).ok())
        .unwrap_or_default();
    if !constant_time_eq(&stored, token.as_bytes()) {
        return Err("Token does not match server's copy".into());
    }
    let sa = get(find(LookupKind::ServiceAccount, &info.name))
        .await
        .map_err(|s| s.message)?
        .ok_or_else(|| format!("serviceaccounts {:?} not found", info.name))?;
    if sa.pointer("/metadata/deletionTimestamp").is_some() {
        return Err(format!(
            "ServiceAccount {}/{} has been deleted",
            info.namespace, info.name
        ));
    }
    let actual = str_at(&sa, "/metadata/uid");
    if actual != info.uid {
        return Err(format!(
            "ServiceAccount UID ({actual}) does not match claim ({})",
            info.uid
        ));
    }
    let invalid = secret
        .pointer("/metadata/labels")
        .and_then(|l| l.get(INVALID_SINCE_LABEL))
        .and_then(Value::as_str)
        .is_some_and(|v| !v.is_empty());
    if invalid {
        return Err(format!(
            "the token in secret {ns}/{secret} for service account {ns}/{name} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '{INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token",
            ns = info.namespace,
            secret = info.secret,
            name = info.name,
        ));
    }
    Ok(secret)
}

/// Whether `a` and `b` are equal, in time that depends on their lengths only.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The day (`2006-01-02`, UTC) `t` falls on.
fn day(t: SystemTime) -> String {
    let mut stamp = humantime::format_rfc3339_seconds(t).to_string();
    stamp.truncate(10);
    stamp
}

/// The label value to write on `secret` now, or None when it already says today (or
/// tomorrow, for a clock a little behind another server's).
pub(crate) fn last_used_update(secret: &Value, now: SystemTime) -> Option<String> {
    let today = day(now);
    let tomorrow = day(now + std::time::Duration::from_secs(86_400));
    let have = secret
        .pointer("/metadata/labels")
        .and_then(|l| l.get(LAST_USED_LABEL))
        .and_then(Value::as_str)
        .unwrap_or("");
    (have != today && have != tomorrow).then_some(today)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn claims_are_checked_against_the_subject() {
        let good = claims("ci", "builder", "u1", "builder-token");
        assert_eq!(
            check_claims(&good),
            Ok(LegacyInfo {
                namespace: "ci".into(),
                name: "builder".into(),
                uid: "u1".into(),
                secret: "builder-token".into()
            })
        );
        let mut other = good.clone();
        other["sub"] = json!("system:serviceaccount:ci:admin");
        assert_eq!(check_claims(&other), Err("sub claim is invalid".into()));
        let mut missing = good.clone();
        missing[SECRET] = json!("");
        assert_eq!(
            check_claims(&missing),
            Err("secretName claim is missing".into())
        );
        assert_eq!(check_claims(&json!({})), Err("sub claim is missing".into()));
    }

    #[test]
    fn days_and_the_last_used_label() {
        let t = UNIX_EPOCH + Duration::from_secs(1_764_083_400); // 2025-11-25T15:10:00Z
        assert_eq!(day(t), "2025-11-25");
        assert_eq!(day(UNIX_EPOCH), "1970-01-01");
        assert_eq!(
            day(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000-02-29"
        );
        let labelled = |v: &str| json!({"metadata": {"labels": {LAST_USED_LABEL: v}}});
        assert_eq!(last_used_update(&labelled("2025-11-25"), t), None);
        assert_eq!(last_used_update(&labelled("2025-11-26"), t), None);
        assert_eq!(
            last_used_update(&labelled("2025-11-01"), t),
            Some("2025-11-25".into())
        );
        assert_eq!(last_used_update(&json!({}), t), Some("2025-11-25".into()));
    }
}
