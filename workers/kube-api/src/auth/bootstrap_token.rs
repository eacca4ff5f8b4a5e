//! Bootstrap tokens (`--enable-bootstrap-token-auth`): a token `<id>.<secret>` (6 and 16
//! characters of `[a-z0-9]`) authenticates as `system:bootstrap:<id>` when Secret
//! `bootstrap-token-<id>` in kube-system, of type `bootstrap.kubernetes.io/token`, holds
//! that id and secret, has not expired, is marked `usage-bootstrap-authentication=true`,
//! and is not being deleted. The user is in `system:bootstrappers` and in the Secret's
//! `auth-extra-groups` (each `system:bootstrappers:…`), as upstream's authenticator.

use std::time::SystemTime;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};

/// The namespace bootstrap token Secrets live in.
pub(crate) const NAMESPACE: &str = "kube-system";
const SECRET_PREFIX: &str = "bootstrap-token-";
const SECRET_TYPE: &str = "bootstrap.kubernetes.io/token";
const DEFAULT_GROUP: &str = "system:bootstrappers";

/// The id and secret of a token of the bootstrap form, else None.
pub(crate) fn parse(token: &str) -> Option<(&str, &str)> {
    let (id, secret) = token.split_once('.')?;
    let ok = |s: &str, len: usize| {
        s.len() == len
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    (ok(id, 6) && ok(secret, 16)).then_some((id, secret))
}

/// The name of the Secret that holds token `id`.
pub(crate) fn secret_name(id: &str) -> String {
    format!("{SECRET_PREFIX}{id}")
}

/// A data entry of the Secret, decoded.
fn data(secret: &Value, key: &str) -> String {
    secret
        .get("data")
        .and_then(|d| d.get(key))
        .and_then(Value::as_str)
        .and_then(|b| STANDARD.decode(b).ok())
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default()
}

/// Whether `g` is an extra group upstream accepts: `system:bootstrappers:` then
/// `[a-z0-9:-]{0,255}[a-z0-9]`.
fn valid_extra_group(g: &str) -> bool {
    let Some(rest) = g.strip_prefix("system:bootstrappers:") else {
        return false;
    };
    let ok = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    !rest.is_empty()
        && rest.len() <= 256
        && rest.bytes().all(|b| ok(b) || b == b':' || b == b'-')
        && rest.bytes().last().is_some_and(ok)
}

/// The user token `id`.`token_secret` authenticates given its Secret (None when the
/// Secret does not match, has expired or is not for authentication). Why a token was
/// refused is logged, never told to the client.
pub(crate) fn user(secret: &Value, id: &str, token_secret: &str, now: SystemTime) -> Option<Value> {
    let name = secret_name(id);
    let refuse = |why: &str| {
        tracing::debug!(secret = %name, why, "bootstrap token refused");
        None
    };
    if secret.pointer("/metadata/deletionTimestamp").is_some() {
        return refuse("is deleted and awaiting removal");
    }
    if secret.get("type").and_then(Value::as_str) != Some(SECRET_TYPE) {
        return refuse("has invalid type");
    }
    let stored = data(secret, "token-secret");
    let same = stored.len() == token_secret.len()
        && stored
            .bytes()
            .zip(token_secret.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if !same {
        return refuse("has invalid value for key token-secret");
    }
    if data(secret, "token-id") != id {
        return refuse("has invalid value for key token-id");
    }
    let expiration = data(secret, "expiration");
    if !expiration.is_empty() {
        match humantime::parse_rfc3339_weak(&expiration) {
            Ok(at) if at > now => {}
            Ok(_) => return refuse("has expired"),
            Err(_) => return refuse("has an unparsable expiration"),
        }
    }
    if data(secret, "usage-bootstrap-authentication") != "true" {
        return refuse("not marked usage-bootstrap-authentication=true");
    }
    let mut groups = vec![DEFAULT_GROUP.to_owned()];
    let extra = data(secret, "auth-extra-groups");
    for g in extra.split(',').map(str::trim).filter(|g| !g.is_empty()) {
        if !valid_extra_group(g) {
            return refuse("has invalid value for key auth-extra-groups");
        }
        groups.push(g.to_owned());
    }
    groups.sort();
    groups.dedup();
    groups.push("system:authenticated".to_owned());
    Some(json!({"username": format!("system:bootstrap:{id}"), "groups": groups}))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(fields: &[(&str, &str)]) -> Value {
        let data: serde_json::Map<String, Value> = fields
            .iter()
            .map(|(k, v)| ((*k).to_owned(), json!(STANDARD.encode(v))))
            .collect();
        json!({"metadata": {"name": "bootstrap-token-abcdef", "namespace": NAMESPACE},
               "type": SECRET_TYPE, "data": data})
    }

    const GOOD: &[(&str, &str)] = &[
        ("token-id", "abcdef"),
        ("token-secret", "0123456789abcdef"),
        ("usage-bootstrap-authentication", "true"),
        (
            "auth-extra-groups",
            "system:bootstrappers:kubeadm:default-node-token",
        ),
        ("expiration", "2999-01-01T00:00:00Z"),
    ];

    #[test]
    fn parses_only_the_bootstrap_form() {
        assert_eq!(
            parse("abcdef.0123456789abcdef"),
            Some(("abcdef", "0123456789abcdef"))
        );
        for bad in [
            "abcdef.0123456789abcde",
            "ABCDEF.0123456789abcdef",
            "abcdef0123456789abcdef",
            "a.b.c",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn users_and_refusals() {
        let now = SystemTime::now();
        let user = user(&secret(GOOD), "abcdef", "0123456789abcdef", now).expect("user");
        assert_eq!(
            user,
            json!({"username": "system:bootstrap:abcdef", "groups": [
                "system:bootstrappers", "system:bootstrappers:kubeadm:default-node-token", "system:authenticated"]})
        );
        assert_eq!(
            super::user(&secret(GOOD), "abcdef", "0123456789abcdeX", now),
            None
        );
        let with = |k: &str, v: &str| {
            let mut fields: Vec<(&str, &str)> =
                GOOD.iter().filter(|(f, _)| *f != k).copied().collect();
            fields.push((k, v));
            secret(&fields)
        };
        for s in [
            with("expiration", "2001-01-01T00:00:00Z"),
            with("expiration", "soon"),
            with("usage-bootstrap-authentication", "false"),
            with("auth-extra-groups", "system:masters"),
            with("token-id", "zzzzzz"),
        ] {
            assert_eq!(
                super::user(&s, "abcdef", "0123456789abcdef", now),
                None,
                "{s}"
            );
        }
        let mut wrong_type = secret(GOOD);
        wrong_type["type"] = json!("Opaque");
        assert_eq!(
            super::user(&wrong_type, "abcdef", "0123456789abcdef", now),
            None
        );
        let mut deleting = secret(GOOD);
        deleting["metadata"]["deletionTimestamp"] = json!("2020-01-01T00:00:00Z");
        assert_eq!(
            super::user(&deleting, "abcdef", "0123456789abcdef", now),
            None
        );
    }
}
