//! kube-aggregator's APIService validation (`pkg/apis/apiregistration/validation`), with
//! upstream's field paths and messages: the name is `<version>.<group>`, the group a DNS
//! subdomain (empty only for the legacy `v1`), the version a DNS-1035 label, priorities in
//! range, and a local APIService (no `spec.service`) carries no TLS settings. The
//! conditions' statuses are checked too: on create and update the status is the stored
//! one (or reset), so only a status write can make them wrong.

use kas_server::rest::{invalid_value, not_supported, required};
use kas_server::status::StatusCause;
use serde_json::Value;

const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/// The causes of a 422 for `obj` (empty when valid).
pub(crate) fn validate(obj: &Value, _old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    let text = |p: &str| obj.pointer(p).and_then(Value::as_str).unwrap_or("");
    let int = |p: &str| obj.pointer(p).and_then(Value::as_i64).unwrap_or(0);
    let (group, version) = (text("/spec/group"), text("/spec/version"));

    // The store checks the name as a path segment first; only a usable name is compared
    // with the one the spec implies, as upstream's name function does.
    let name = text("/metadata/name");
    let wanted = format!("{version}.{group}");
    if !name.is_empty() && path_segment_ok(name) && name != wanted {
        out.push(invalid_value(
            "metadata.name",
            name,
            &format!("must be `spec.version+\".\"+spec.group`: {wanted:?}"),
        ));
    }
    if group.is_empty() && version != "v1" {
        out.push(required(
            "spec.group",
            "only v1 may have an empty group and it better be legacy kube",
        ));
    }
    if !group.is_empty() {
        if group.len() > 253 {
            out.push(invalid_value(
                "spec.group",
                group,
                "must be no more than 253 characters",
            ));
        }
        if !is_subdomain(group) {
            out.push(invalid_value("spec.group", group, SUBDOMAIN_MSG));
        }
    }
    if version.len() > 63 {
        out.push(invalid_value(
            "spec.version",
            version,
            "must be no more than 63 characters",
        ));
    }
    if !is_dns1035(version) {
        out.push(invalid_value("spec.version", version, DNS1035_MSG));
    }
    let group_priority = int("/spec/groupPriorityMinimum");
    if !(1..=20000).contains(&group_priority) {
        out.push(invalid_number(
            "spec.groupPriorityMinimum",
            group_priority,
            "must be positive and less than 20000",
        ));
    }
    let version_priority = int("/spec/versionPriority");
    if !(1..=1000).contains(&version_priority) {
        out.push(invalid_number(
            "spec.versionPriority",
            version_priority,
            "must be positive and less than 1000",
        ));
    }

    let ca_bundle = ca_bundle_len(obj);
    let insecure = obj
        .pointer("/spec/insecureSkipTLSVerify")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    match obj.pointer("/spec/service").filter(|s| s.is_object()) {
        None => {
            if ca_bundle > 0 {
                out.push(invalid_value(
                    "spec.caBundle",
                    &format!("{ca_bundle} bytes"),
                    "local APIServices may not have a caBundle",
                ));
            }
            if insecure {
                out.push(invalid_number(
                    "spec.insecureSkipTLSVerify",
                    true,
                    "local APIServices may not have insecureSkipTLSVerify",
                ));
            }
        }
        Some(service) => {
            let field = |k: &str| service.get(k).and_then(Value::as_str).unwrap_or("");
            if field("namespace").is_empty() {
                out.push(required_bare("spec.service.namespace"));
            }
            if field("name").is_empty() {
                out.push(required_bare("spec.service.name"));
            }
            // Defaulted to 443 before validation; an explicit 0 stays.
            let port = service.get("port").and_then(Value::as_i64).unwrap_or(0);
            if !(1..=65535).contains(&port) {
                out.push(invalid_number(
                    "spec.service.port",
                    port,
                    "port is not valid: must be between 1 and 65535, inclusive",
                ));
            }
            if insecure && ca_bundle > 0 {
                out.push(invalid_number(
                    "spec.insecureSkipTLSVerify",
                    true,
                    "may not be true if caBundle is present",
                ));
            }
        }
    }
    out.extend(validate_conditions(obj));
    out
}

/// Each condition's status is True, False or Unknown.
fn validate_conditions(obj: &Value) -> Vec<StatusCause> {
    let conditions = obj
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    conditions
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let status = c.get("status").and_then(Value::as_str).unwrap_or("");
            (!matches!(status, "True" | "False" | "Unknown")).then(|| {
                not_supported(
                    &format!("status.conditions[{i}].status"),
                    status,
                    &["True", "False", "Unknown"],
                )
            })
        })
        .collect()
}

/// A `FieldValueInvalid` cause for a value Go prints bare (a number or a boolean).
fn invalid_number(field: &str, value: impl std::fmt::Display, why: &str) -> StatusCause {
    StatusCause {
        reason: "FieldValueInvalid".into(),
        message: format!("Invalid value: {value}: {why}"),
        field: field.into(),
    }
}

/// A `FieldValueRequired` cause with no detail (upstream's `field.Required(path, "")`).
fn required_bare(field: &str) -> StatusCause {
    StatusCause {
        reason: "FieldValueRequired".into(),
        message: "Required value".into(),
        field: field.into(),
    }
}

/// The decoded length of `spec.caBundle` (base64 in JSON, as Go writes `[]byte`).
fn ca_bundle_len(obj: &Value) -> usize {
    use base64::Engine;
    let Some(b64) = obj.pointer("/spec/caBundle").and_then(Value::as_str) else {
        return 0;
    };
    base64::engine::general_purpose::STANDARD
        .decode(b64)
        .map(|b| b.len())
        // Typed decoding has already refused bad base64; count characters otherwise.
        .unwrap_or(b64.len())
}

fn path_segment_ok(name: &str) -> bool {
    name != "." && name != ".." && !name.contains('/') && !name.contains('%')
}

fn is_subdomain(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

fn is_dns1035(s: &str) -> bool {
    s.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.ends_with('-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn local(name: &str, group: &str, version: &str) -> Value {
        json!({
            "metadata": {"name": name},
            "spec": {"group": group, "version": version, "groupPriorityMinimum": 100, "versionPriority": 10},
        })
    }

    fn remote() -> Value {
        let mut o = local(
            "v1alpha1.wardle.example.com",
            "wardle.example.com",
            "v1alpha1",
        );
        o["spec"]["service"] = json!({"namespace": "wardle", "name": "api", "port": 443});
        o["spec"]["caBundle"] = json!("AAECAw==");
        o
    }

    fn messages(causes: &[StatusCause]) -> Vec<(String, String)> {
        causes
            .iter()
            .map(|c| (c.field.clone(), c.message.clone()))
            .collect()
    }

    #[test]
    fn valid_ones() {
        assert!(validate(&local("v1.apps", "apps", "v1"), None).is_empty());
        assert!(validate(&local("v1.", "", "v1"), None).is_empty());
        assert!(validate(&remote(), None).is_empty());
    }

    #[test]
    fn name_must_be_version_dot_group() {
        let causes = validate(&local("v1.other", "apps", "v1"), None);
        assert_eq!(
            messages(&causes),
            [(
                "metadata.name".to_owned(),
                "Invalid value: \"v1.other\": must be `spec.version+\".\"+spec.group`: \"v1.apps\""
                    .to_owned()
            )]
        );
        assert_eq!(causes[0].reason, "FieldValueInvalid");
        // A name that is no path segment is the store's to refuse, once.
        assert!(validate(&local("a/b", "apps", "v1"), None).is_empty());
    }

    #[test]
    fn group_and_version() {
        let causes = validate(&local("v2.", "", "v2"), None);
        assert_eq!(
            messages(&causes),
            [(
                "spec.group".to_owned(),
                "Required value: only v1 may have an empty group and it better be legacy kube"
                    .to_owned()
            )]
        );
        let causes = validate(&local("v1.Bad_Group", "Bad_Group", "v1"), None);
        assert_eq!(causes.len(), 1);
        assert_eq!(causes[0].field, "spec.group");
        assert!(causes[0]
            .message
            .starts_with("Invalid value: \"Bad_Group\": a lowercase RFC 1123 subdomain"));
        let causes = validate(&local("1v.apps", "apps", "1v"), None);
        assert_eq!(causes.len(), 1);
        assert_eq!(causes[0].field, "spec.version");
        assert!(causes[0]
            .message
            .starts_with("Invalid value: \"1v\": a DNS-1035 label"));
        let causes = validate(&local(".apps", "apps", ""), None);
        assert_eq!(causes[0].field, "spec.version");
    }

    #[test]
    fn priorities_in_range() {
        let mut o = local("v1.apps", "apps", "v1");
        o["spec"]["groupPriorityMinimum"] = json!(0);
        o["spec"]["versionPriority"] = json!(1001);
        assert_eq!(
            messages(&validate(&o, None)),
            [
                (
                    "spec.groupPriorityMinimum".to_owned(),
                    "Invalid value: 0: must be positive and less than 20000".to_owned()
                ),
                (
                    "spec.versionPriority".to_owned(),
                    "Invalid value: 1001: must be positive and less than 1000".to_owned()
                ),
            ]
        );
        o["spec"]["groupPriorityMinimum"] = json!(20000);
        o["spec"]["versionPriority"] = json!(1000);
        assert!(validate(&o, None).is_empty());
        o["spec"]["groupPriorityMinimum"] = json!(20001);
        assert_eq!(validate(&o, None).len(), 1);
    }

    #[test]
    fn local_has_no_tls_settings() {
        let mut o = local("v1.apps", "apps", "v1");
        o["spec"]["caBundle"] = json!("AAECAw==");
        o["spec"]["insecureSkipTLSVerify"] = json!(true);
        assert_eq!(
            messages(&validate(&o, None)),
            [
                (
                    "spec.caBundle".to_owned(),
                    "Invalid value: \"4 bytes\": local APIServices may not have a caBundle"
                        .to_owned()
                ),
                (
                    "spec.insecureSkipTLSVerify".to_owned(),
                    "Invalid value: true: local APIServices may not have insecureSkipTLSVerify"
                        .to_owned()
                ),
            ]
        );
    }

    #[test]
    fn remote_service_rules() {
        let mut o = remote();
        o["spec"]["insecureSkipTLSVerify"] = json!(true);
        assert_eq!(
            messages(&validate(&o, None)),
            [(
                "spec.insecureSkipTLSVerify".to_owned(),
                "Invalid value: true: may not be true if caBundle is present".to_owned()
            )]
        );
        let mut o = remote();
        o["spec"]["service"] = json!({"port": 0});
        assert_eq!(
            messages(&validate(&o, None)),
            [
                (
                    "spec.service.namespace".to_owned(),
                    "Required value".to_owned()
                ),
                ("spec.service.name".to_owned(), "Required value".to_owned()),
                (
                    "spec.service.port".to_owned(),
                    "Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive"
                        .to_owned()
                ),
            ]
        );
        o["spec"]["service"] = json!({"namespace": "a", "name": "b", "port": 65536});
        assert_eq!(validate(&o, None)[0].field, "spec.service.port");
    }

    #[test]
    fn condition_statuses() {
        let mut o = remote();
        o["status"] = json!({"conditions": [
            {"type": "Available", "status": "True"},
            {"type": "Available", "status": "Maybe"},
        ]});
        assert_eq!(
            messages(&validate(&o, None)),
            [(
                "status.conditions[1].status".to_owned(),
                "Unsupported value: \"Maybe\": supported values: \"True\", \"False\", \"Unknown\""
                    .to_owned()
            )]
        );
    }
}
