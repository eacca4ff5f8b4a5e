//! Smaller core/v1 resources: Secrets (keys, per-type required data, 1 MiB, immutability),
//! Namespaces (names are DNS labels) and ServiceAccounts.

use kas_server::status::StatusCause;
use serde_json::{Map, Value};

use super::causes::{forbidden, invalid, invalid_shown, obj, required, s, IMMUTABLE_MSG};
use super::{config_key_causes, MAX_DATA_BYTES};

const SA_NAME_KEY: &str = "kubernetes.io/service-account.name";

/// Decoded length of a base64 value (what the Secret really holds).
fn decoded_len(v: &str) -> usize {
    let trimmed = v.trim_end_matches('=');
    trimmed.len() * 3 / 4
}

fn key_required(data: Option<&Map<String, Value>>, key: &str, out: &mut Vec<StatusCause>) {
    if !data.is_some_and(|d| d.contains_key(key)) {
        out.push(required(&format!("data[{key}]"), ""));
    }
}

/// A docker config key that must be present and hold JSON.
fn docker_key(data: Option<&Map<String, Value>>, key: &str, out: &mut Vec<StatusCause>) {
    let Some(v) = data.and_then(|d| d.get(key)) else {
        out.push(required(&format!("data[{key}]"), ""));
        return;
    };
    let bytes = v.as_str().and_then(crate::defaults::base64_decode);
    let parsed = bytes.and_then(|b| serde_json::from_slice::<Value>(&b).ok());
    if parsed.is_none() {
        out.push(invalid_shown(
            &format!("data[{key}]"),
            "\"<secret contents redacted>\"",
            "invalid character looking for beginning of value",
        ));
    }
}

/// core/v1 Secret. `stringData` has already been folded into `data` by the defaults.
pub(crate) fn secret(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = old.map(|old| secret_update(o, old)).unwrap_or_default();
    let data = obj(o, "data");
    let mut size = 0;
    for (k, v) in data.into_iter().flatten() {
        out.extend(config_key_causes("data", k));
        size += v.as_str().map_or(0, decoded_len);
    }
    if size > MAX_DATA_BYTES {
        out.push(kas_server::rest::too_long("data", MAX_DATA_BYTES));
    }
    let ty = s(o, "type").unwrap_or("Opaque");
    match ty {
        "kubernetes.io/service-account-token" => {
            let name = o
                .pointer("/metadata/annotations")
                .and_then(|a| s(a, SA_NAME_KEY))
                .unwrap_or("");
            if name.is_empty() {
                out.push(required(
                    &format!("metadata.annotations[{SA_NAME_KEY}]"),
                    "",
                ));
            }
        }
        "kubernetes.io/dockercfg" => docker_key(data, ".dockercfg", &mut out),
        "kubernetes.io/dockerconfigjson" => docker_key(data, ".dockerconfigjson", &mut out),
        "kubernetes.io/basic-auth" => {
            let has = |k: &str| data.is_some_and(|d| d.contains_key(k));
            if !has("username") && !has("password") {
                out.push(required("data[username]", ""));
                out.push(required("data[password]", ""));
            }
        }
        "kubernetes.io/ssh-auth" => {
            let len = data
                .and_then(|d| d.get("ssh-privatekey"))
                .and_then(Value::as_str)
                .map_or(0, str::len);
            if len == 0 {
                out.push(required("data[ssh-privatekey]", ""));
            }
        }
        "kubernetes.io/tls" => {
            key_required(data, "tls.crt", &mut out);
            key_required(data, "tls.key", &mut out);
        }
        _ => {}
    }
    out
}

/// What a Secret update may not change, checked before the secret itself (upstream's
/// ValidateSecretUpdate): its type, and an immutable secret's data.
fn secret_update(o: &Value, old: &Value) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let ty = s(o, "type").unwrap_or("Opaque");
    if s(old, "type").unwrap_or("Opaque") != ty {
        out.push(invalid("type", ty, IMMUTABLE_MSG));
    }
    if old.get("immutable").and_then(Value::as_bool) == Some(true) {
        const WHY: &str = "field is immutable when `immutable` is set";
        if o.get("immutable").and_then(Value::as_bool) != Some(true) {
            out.push(forbidden("immutable", WHY));
        }
        if o.get("data") != old.get("data") {
            out.push(forbidden("data", WHY));
        }
    }
    out
}

/// core/v1 Namespace: its name is a DNS-1123 label, which the store checks
/// ([`NameRule::Label`](kas_server::rest::NameRule::Label)); nothing else.
pub(crate) fn namespace(_o: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    Vec::new()
}

/// core/v1 ServiceAccount: upstream checks only its metadata, which the store does.
pub(crate) fn serviceaccount(_o: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pairs(c: &[StatusCause]) -> Vec<(&str, &str)> {
        c.iter()
            .map(|c| (c.field.as_str(), c.message.as_str()))
            .collect()
    }

    #[test]
    fn secrets() {
        assert!(secret(&json!({"type": "Opaque", "data": {"a": "eA=="}}), None).is_empty());
        assert_eq!(
            secret(&json!({"data": {"bad key": "eA=="}}), None)[0].field,
            "data[bad key]"
        );
        assert_eq!(
            pairs(&secret(
                &json!({"type": "kubernetes.io/tls", "data": {"tls.crt": ""}}),
                None
            )),
            vec![("data[tls.key]", "Required value")]
        );
        assert_eq!(
            pairs(&secret(
                &json!({"type": "kubernetes.io/service-account-token"}),
                None
            )),
            vec![(
                "metadata.annotations[kubernetes.io/service-account.name]",
                "Required value"
            )]
        );
        assert!(secret(&json!({"type": "kubernetes.io/service-account-token", "metadata": {"annotations": {SA_NAME_KEY: "default"}}}), None).is_empty());
        assert_eq!(
            pairs(&secret(&json!({"type": "kubernetes.io/basic-auth"}), None)),
            vec![
                ("data[username]", "Required value"),
                ("data[password]", "Required value")
            ]
        );
        assert!(secret(
            &json!({"type": "kubernetes.io/basic-auth", "data": {"password": ""}}),
            None
        )
        .is_empty());
        assert_eq!(
            pairs(&secret(
                &json!({"type": "kubernetes.io/ssh-auth", "data": {"ssh-privatekey": ""}}),
                None
            )),
            vec![("data[ssh-privatekey]", "Required value")]
        );
        assert_eq!(
            pairs(&secret(
                &json!({"type": "kubernetes.io/dockerconfigjson"}),
                None
            )),
            vec![("data[.dockerconfigjson]", "Required value")]
        );
        assert!(secret(&json!({"type": "kubernetes.io/dockerconfigjson", "data": {".dockerconfigjson": "e30="}}), None).is_empty());
        let c = secret(
            &json!({"type": "kubernetes.io/dockerconfigjson", "data": {".dockerconfigjson": "eA=="}}),
            None,
        );
        assert_eq!(c[0].message, "Invalid value: \"<secret contents redacted>\": invalid character looking for beginning of value");
        let big = "A".repeat((MAX_DATA_BYTES + 3) * 4 / 3);
        assert_eq!(
            secret(&json!({"data": {"k": big}}), None)[0].reason,
            "FieldValueTooLong"
        );
    }

    #[test]
    fn secret_updates() {
        let old = json!({"type": "Opaque", "immutable": true, "data": {"a": "eA=="}});
        assert!(secret(&old, Some(&old)).is_empty());
        let new = json!({"type": "kubernetes.io/basic-auth", "data": {"a": "eQ=="}});
        assert_eq!(
            pairs(&secret(&new, Some(&old))),
            vec![
                (
                    "type",
                    "Invalid value: \"kubernetes.io/basic-auth\": field is immutable"
                ),
                (
                    "immutable",
                    "Forbidden: field is immutable when `immutable` is set"
                ),
                (
                    "data",
                    "Forbidden: field is immutable when `immutable` is set"
                ),
                ("data[username]", "Required value"),
                ("data[password]", "Required value"),
            ]
        );
    }

    #[test]
    fn namespaces() {
        assert!(namespace(&json!({"metadata": {"name": "a.b"}}), None).is_empty());
        assert!(serviceaccount(&json!({}), None).is_empty());
    }
}
