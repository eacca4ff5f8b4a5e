//! Object metadata as kube-apiserver handles it on create and update: names and
//! generateName, namespace consistency, uid, creationTimestamp, and the validation errors
//! (422 `Invalid` with field causes) worded as upstream words them.

use serde_json::{json, Value};

use super::resource::NameRule;
use crate::status::{Reason, Status, StatusCause, StatusDetails};

/// Characters upstream's generateName suffix is drawn from (no vowels, no look-alikes).
const SUFFIX_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// A name generated from `generateName`, as upstream's SimpleNameGenerator makes it:
/// the prefix cut to 58 bytes (so the name fits in 63), then 5 random characters.
pub(crate) fn generated_name(prefix: &str) -> String {
    let mut end = prefix.len().min(58);
    while !prefix.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{}", &prefix[..end], random_suffix())
}

/// A 5-character random suffix for `generateName`.
pub fn random_suffix() -> String {
    let bytes = uuid::Uuid::new_v4().into_bytes();
    bytes[..5]
        .iter()
        .map(|b| SUFFIX_ALPHABET[*b as usize % SUFFIX_ALPHABET.len()] as char)
        .collect()
}

/// The message upstream gives for a name that is not a DNS-1123 subdomain.
const SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/// Whether `name` is a DNS-1123 subdomain (at most 253 characters).
pub(crate) fn is_dns_subdomain(name: &str) -> bool {
    name.len() <= 253 && subdomain_shape(name)
}

/// Whether `name` matches the DNS-1123 subdomain pattern, whatever its length.
fn subdomain_shape(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// A 422 `Invalid` for `kind` (of `group`) `name` with these causes, worded as
/// upstream's `apierrors.NewInvalid`.
pub fn invalid(group: &str, kind: &str, name: &str, causes: Vec<StatusCause>) -> Status {
    let summary: Vec<String> = causes
        .iter()
        .map(|c| format!("{}: {}", c.field, c.message))
        .collect();
    // Upstream names the kind qualified by its group (`Deployment.apps`).
    let qualified = if group.is_empty() {
        kind.to_owned()
    } else {
        format!("{kind}.{group}")
    };
    let message = if summary.len() == 1 {
        format!("{qualified} \"{name}\" is invalid: {}", summary[0])
    } else {
        format!(
            "{qualified} \"{name}\" is invalid: [{}]",
            summary.join(", ")
        )
    };
    Status {
        details: Some(StatusDetails {
            name: name.to_owned(),
            group: group.to_owned(),
            kind: kind.to_owned(),
            causes,
            ..Default::default()
        }),
        ..Status::new(Reason::Invalid, message)
    }
}

/// A `FieldValueInvalid` cause.
pub fn invalid_value(field: &str, value: &str, why: &str) -> StatusCause {
    StatusCause {
        reason: "FieldValueInvalid".into(),
        message: format!("Invalid value: \"{value}\": {why}"),
        field: field.into(),
    }
}

/// A `FieldValueRequired` cause.
pub fn required(field: &str, why: &str) -> StatusCause {
    StatusCause {
        reason: "FieldValueRequired".into(),
        message: format!("Required value: {why}"),
        field: field.into(),
    }
}

/// Why `name` may not be a path segment (upstream's ValidatePathSegmentName): `.`
/// and `..` are refused, `/` and `%` anywhere.
pub fn path_segment_msgs(name: &str) -> Vec<String> {
    if name == "." || name == ".." {
        return vec![format!("may not be '{name}'")];
    }
    ["/", "%"]
        .iter()
        .filter(|c| name.contains(*c))
        .map(|c| format!("may not contain '{c}'"))
        .collect()
}

/// A `FieldValueForbidden` cause.
pub fn forbidden(field: &str, why: &str) -> StatusCause {
    StatusCause {
        reason: "FieldValueForbidden".into(),
        message: format!("Forbidden: {why}"),
        field: field.into(),
    }
}

/// A `FieldValueNotSupported` cause, listing the supported values as upstream does.
pub fn not_supported(field: &str, value: &str, supported: &[&str]) -> StatusCause {
    let list: Vec<String> = supported.iter().map(|s| format!("\"{s}\"")).collect();
    StatusCause {
        reason: "FieldValueNotSupported".into(),
        message: format!(
            "Unsupported value: \"{value}\": supported values: {}",
            list.join(", ")
        ),
        field: field.into(),
    }
}

/// A `FieldValueTooLong` cause.
pub fn too_long(field: &str, max: usize) -> StatusCause {
    StatusCause {
        reason: "FieldValueTooLong".into(),
        message: format!("Too long: must have at most {max} bytes"),
        field: field.into(),
    }
}

const LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

fn is_label(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// The validation every object gets: its `generateName` (as a prefix) and its name, by
/// the resource's rule, in upstream's order (ValidateObjectMetaAccessor).
pub(crate) fn validate_name(object: &Value, rule: NameRule) -> Vec<StatusCause> {
    let text = |f: &str| {
        object
            .pointer(f)
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    let mut out = Vec::new();
    let generate = text("/metadata/generateName");
    if !generate.is_empty() {
        for m in name_msgs(rule, generate, true) {
            out.push(invalid_value("metadata.generateName", generate, &m));
        }
    }
    let name = text("/metadata/name");
    if name.is_empty() {
        out.push(required(
            "metadata.name",
            "name or generateName is required",
        ));
        return out;
    }
    for m in name_msgs(rule, name, false) {
        out.push(invalid_value("metadata.name", name, &m));
    }
    out
}

/// A name prefix as apimachinery checks one (maskTrailingDash): a trailing `-` and the
/// character before it replaced by `a`.
pub fn mask_trailing_dash(name: &str) -> std::borrow::Cow<'_, str> {
    if name.len() > 1 && name.ends_with('-') {
        format!("{}a", name.get(..name.len() - 2).unwrap_or_default()).into()
    } else {
        name.into()
    }
}

/// Why `name` breaks `rule`; a `prefix` (a generateName) is checked as upstream's name
/// functions check one: a trailing `-` masked (apimachinery's maskTrailingDash, which
/// also drops the character before it), path segments only for `/` and `%`, IP
/// addresses whole.
fn name_msgs(rule: NameRule, name: &str, prefix: bool) -> Vec<String> {
    let masked;
    let name = if prefix {
        masked = mask_trailing_dash(name);
        masked.as_ref()
    } else {
        name
    };
    let mut out = Vec::new();
    match rule {
        NameRule::Subdomain => {
            if !is_dns_subdomain(name) {
                out.push(SUBDOMAIN_MSG.to_owned());
            }
        }
        NameRule::Label | NameRule::Dns1035 => {
            if name.len() > 63 {
                out.push("must be no more than 63 characters".to_owned());
            }
            let ok = is_label(name)
                && (rule == NameRule::Label || name.as_bytes()[0].is_ascii_lowercase());
            if !ok {
                // apimachinery's IsDNS1123Label: what would be a subdomain has dots.
                let msg = match rule {
                    NameRule::Label if subdomain_shape(name) => "must not contain dots",
                    NameRule::Label => LABEL_MSG,
                    _ => DNS1035_MSG,
                };
                out.push(msg.to_owned());
            }
        }
        NameRule::PathSegment if prefix => {
            out.extend(
                path_segment_msgs(name)
                    .into_iter()
                    .filter(|m| m.contains("contain")),
            );
        }
        NameRule::PathSegment => out.extend(path_segment_msgs(name)),
        NameRule::Ip => out.extend(ip_msgs(name)),
    }
    out
}

/// Why `s` is not an IP address in strict, canonical form (apimachinery's
/// `IsValidIP`): unparseable even leniently, leading zeros, IPv4-mapped IPv6, or not
/// as the address prints.
pub(crate) fn ip_msgs(s: &str) -> Vec<String> {
    use std::net::{IpAddr, Ipv4Addr};
    let lenient_v4 = || {
        let parts: Vec<&str> = s.split('.').collect();
        let octets: Vec<u8> = parts
            .iter()
            .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .filter_map(|p| p.parse::<u8>().ok())
            .collect();
        match octets[..] {
            [a, b, c, d] if parts.len() == 4 => Some(IpAddr::V4(Ipv4Addr::new(a, b, c, d))),
            _ => None,
        }
    };
    let strict = s.parse::<IpAddr>().ok();
    let Some(ip) = strict.or_else(lenient_v4) else {
        return vec!["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)".into()];
    };
    let mut out = Vec::new();
    if strict.is_none() {
        out.push("must not have leading 0s".into());
    }
    if let IpAddr::V6(v6) = ip {
        if v6.to_ipv4_mapped().is_some() {
            out.push("must not be an IPv4-mapped IPv6 address".into());
        }
    }
    if out.is_empty() && ip.to_string() != s {
        out.push(format!("must be in canonical form (\"{ip}\")"));
    }
    out
}

/// `metadata`, created as an empty object when missing.
pub(crate) fn metadata_mut(object: &mut Value) -> Option<&mut serde_json::Map<String, Value>> {
    let obj = object.as_object_mut()?;
    let meta = obj.entry("metadata").or_insert_with(|| json!({}));
    if !meta.is_object() {
        *meta = json!({});
    }
    meta.as_object_mut()
}

/// `item` appended to the string list `map[field]` unless there (the list made when
/// missing or not a list): a finalizer added once.
pub fn add_to_set(map: &mut serde_json::Map<String, Value>, field: &str, item: &str) {
    let list = map.entry(field).or_insert_with(|| json!([]));
    if !list.is_array() {
        *list = json!([]);
    }
    if let Some(list) = list.as_array_mut() {
        if !list.iter().any(|f| f == item) {
            list.push(json!(item));
        }
    }
}

/// The current time as kube-apiserver writes timestamps (RFC 3339, seconds, UTC).
pub fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ip_names() {
        assert!(ip_msgs("10.0.0.1").is_empty());
        assert!(ip_msgs("2001:db8::1").is_empty());
        assert_eq!(ip_msgs("010.0.0.1"), ["must not have leading 0s"]);
        assert_eq!(
            ip_msgs("::ffff:1.2.3.4"),
            ["must not be an IPv4-mapped IPv6 address"]
        );
        assert_eq!(
            ip_msgs("2001:DB8::1"),
            ["must be in canonical form (\"2001:db8::1\")"]
        );
        assert_eq!(
            ip_msgs("foo"),
            ["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]
        );
    }

    #[test]
    fn names() {
        assert!(is_dns_subdomain("a.b-c"));
        assert!(!is_dns_subdomain("Upper"));
        assert!(!is_dns_subdomain("-a"));
        assert!(!is_dns_subdomain("a..b"));
        let causes = validate_name(
            &json!({"metadata": {"name": "Bad_Name"}}),
            NameRule::Subdomain,
        );
        let s = invalid("", "ConfigMap", "Bad_Name", causes);
        assert_eq!(s.code(), 422);
        assert!(s.message.starts_with("ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain"));
        // A namespace name: apimachinery's IsDNS1123Label, one message per failure.
        let label = |n: &str| -> Vec<String> {
            validate_name(&json!({"metadata": {"name": n}}), NameRule::Label)
                .into_iter()
                .map(|c| c.message)
                .collect()
        };
        assert_eq!(
            label("x.y"),
            ["Invalid value: \"x.y\": must not contain dots"]
        );
        assert!(label("X_y")[0].contains("a lowercase RFC 1123 label must consist"));
        let long = format!("{}.b", "a".repeat(62));
        assert_eq!(
            label(&long),
            [
                format!("Invalid value: \"{long}\": must be no more than 63 characters"),
                format!("Invalid value: \"{long}\": must not contain dots"),
            ]
        );
        // generateName: checked as a prefix, before the generated name.
        let causes = validate_name(
            &json!({"metadata": {"generateName": "Web_-", "name": "Web_-x1z2q"}}),
            NameRule::Subdomain,
        );
        let fields: Vec<(&str, &str)> = causes
            .iter()
            .map(|c| (c.field.as_str(), c.message.as_str()))
            .collect();
        assert_eq!(fields.len(), 2, "{fields:?}");
        assert_eq!(fields[0].0, "metadata.generateName");
        assert!(fields[0]
            .1
            .starts_with("Invalid value: \"Web_-\": a lowercase RFC 1123 subdomain"));
        assert_eq!(fields[1].0, "metadata.name");
        // A trailing dash is masked (with the character before it, as upstream does).
        assert!(validate_name(
            &json!({"metadata": {"generateName": "web-", "name": "web-x1z2q"}}),
            NameRule::Label
        )
        .is_empty());
        let segment = |g: &str| {
            validate_name(
                &json!({"metadata": {"generateName": g, "name": "ok"}}),
                NameRule::PathSegment,
            )
        };
        assert!(segment("..").is_empty());
        assert_eq!(segment("a/").len(), 1);
        let long = "a".repeat(70);
        assert_eq!(generated_name(&long).len(), 63);
        assert!(generated_name("web-").starts_with("web-"));
        let suffix = random_suffix();
        assert_eq!(suffix.len(), 5);
        assert!(now().ends_with('Z'));
    }
}
