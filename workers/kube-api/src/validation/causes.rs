//! Field causes worded as apimachinery's field errors word them, the name and number
//! checks the rules share (DNS labels, port names, ranges), and small JSON accessors.

use kas_server::status::StatusCause;
use serde_json::{Map, Value};

pub(crate) use kas_server::rest::forbidden;

/// Upstream's message for a negative value where only non-negative ones are allowed.
pub(crate) const NEGATIVE_MSG: &str = "must be greater than or equal to 0";
/// Upstream's message for changing a field that may not change.
pub(crate) const IMMUTABLE_MSG: &str = "field is immutable";
/// Upstream's message for a value that is not a CIDR.
pub(crate) const CIDR_MSG: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

fn cause(reason: &str, field: &str, message: String) -> StatusCause {
    StatusCause {
        reason: reason.into(),
        message,
        field: field.into(),
    }
}

/// A string as Go's `%q` prints it.
pub(crate) use kas_server::status::go_quote as quote;

/// A JSON value as upstream prints a bad value: strings quoted, numbers and booleans
/// bare, `null`, anything else as compact JSON.
pub(crate) fn show(v: &Value) -> String {
    match v {
        Value::String(s) => quote(s),
        Value::Null => "null".into(),
        Value::Number(_) | Value::Bool(_) => v.to_string(),
        _ => v.to_string(),
    }
}

/// `FieldValueInvalid` with an already printed bad value.
pub(crate) fn invalid_shown(field: &str, shown: &str, why: &str) -> StatusCause {
    let mut message = format!("Invalid value: {shown}");
    if !why.is_empty() {
        message.push_str(": ");
        message.push_str(why);
    }
    cause("FieldValueInvalid", field, message)
}

/// `FieldValueInvalid` for a string value.
pub(crate) fn invalid(field: &str, value: &str, why: &str) -> StatusCause {
    invalid_shown(field, &quote(value), why)
}

/// `FieldValueInvalid` for an integer value.
pub(crate) fn invalid_int(field: &str, value: i64, why: &str) -> StatusCause {
    invalid_shown(field, &value.to_string(), why)
}

/// `FieldValueRequired`, with an optional detail.
pub(crate) fn required(field: &str, why: &str) -> StatusCause {
    let mut message = String::from("Required value");
    if !why.is_empty() {
        message.push_str(": ");
        message.push_str(why);
    }
    cause("FieldValueRequired", field, message)
}

/// `InternalError` at a field: a check that could not be made.
pub(crate) fn internal(field: &str, detail: &str) -> StatusCause {
    cause("InternalError", field, format!("Internal error: {detail}"))
}

/// `FieldValueNotSupported` listing the supported values.
pub(crate) fn not_supported(field: &str, value: &str, supported: &[&str]) -> StatusCause {
    let mut message = format!("Unsupported value: {}", quote(value));
    if !supported.is_empty() {
        let list: Vec<String> = supported.iter().map(|s| quote(s)).collect();
        message.push_str(": supported values: ");
        message.push_str(&list.join(", "));
    }
    cause("FieldValueNotSupported", field, message)
}

/// `FieldValueNotSupported` with an already printed bad value.
pub(crate) fn not_supported_shown(field: &str, shown: &str, supported: &[&str]) -> StatusCause {
    let list: Vec<String> = supported.iter().map(|s| quote(s)).collect();
    cause(
        "FieldValueNotSupported",
        field,
        format!(
            "Unsupported value: {shown}: supported values: {}",
            list.join(", ")
        ),
    )
}

/// A string list as Go's `%#v` prints a `[]<ty>`: `[]string{"a", "b"}`.
pub(crate) fn go_list(ty: &str, items: &[Value]) -> String {
    let shown: Vec<String> = items.iter().map(show).collect();
    format!("[]{ty}{{{}}}", shown.join(", "))
}

/// [`go_list`] of a `[]string`.
pub(crate) fn go_strings(items: &[Value]) -> String {
    go_list("string", items)
}

/// [`go_list`] of a list that may be absent: `[]<ty>(nil)` then.
pub(crate) fn go_list_or_nil(ty: &str, v: Option<&Value>) -> String {
    match v.and_then(Value::as_array) {
        None => format!("[]{ty}(nil)"),
        Some(items) => go_list(ty, items),
    }
}

/// `FieldValueTooLong`: "may not be more than N bytes".
pub(crate) fn too_long(field: &str, n: usize) -> StatusCause {
    cause(
        "FieldValueTooLong",
        field,
        format!("Too long: may not be more than {n} bytes"),
    )
}

/// `FieldValueDuplicate`.
pub(crate) fn duplicate(field: &str, value: &str) -> StatusCause {
    cause(
        "FieldValueDuplicate",
        field,
        format!("Duplicate value: {}", quote(value)),
    )
}

/// `FieldValueNotFound`.
pub(crate) fn not_found(field: &str, value: &str) -> StatusCause {
    cause(
        "FieldValueNotFound",
        field,
        format!("Not found: {}", quote(value)),
    )
}

/// Upstream's "must be no more than N characters".
pub(crate) fn max_len_msg(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// Upstream's "must be between A and B, inclusive".
pub(crate) fn range_msg(lo: i64, hi: i64) -> String {
    format!("must be between {lo} and {hi}, inclusive")
}

fn regex_msg(what: &str, re: &str, examples: &[&str]) -> String {
    let ex: Vec<String> = examples.iter().map(|e| format!("'{e}'")).collect();
    format!(
        "{what} (e.g. {}, regex used for validation is '{re}')",
        ex.join(",  or ")
    )
}

fn is_label(s: &str, first_alpha: bool) -> bool {
    let b = s.as_bytes();
    let ok = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    !b.is_empty()
        && b.iter().all(|c| ok(c) || *c == b'-')
        && ok(&b[0])
        && ok(&b[b.len() - 1])
        && (!first_alpha || b[0].is_ascii_lowercase())
}

fn is_subdomain(s: &str) -> bool {
    s.split('.').all(|l| is_label(l, false))
}

const LABEL_RE: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";

/// Why `s` is not a DNS-1123 label (empty when it is one).
pub(crate) fn dns_label_msgs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push(max_len_msg(63));
    }
    if !is_label(s, false) {
        if is_subdomain(s) {
            out.push("must not contain dots".into());
        } else {
            out.push(regex_msg(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
                LABEL_RE,
                &["my-name", "123-abc"],
            ));
        }
    }
    out
}

/// Why `s` is not a DNS-1123 subdomain (empty when it is one).
pub(crate) fn dns_subdomain_msgs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 253 {
        out.push(max_len_msg(253));
    }
    if !is_subdomain(s) {
        out.push(regex_msg(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            &format!("{LABEL_RE}(\\.{LABEL_RE})*"),
            &["example.com"],
        ));
    }
    out
}

/// Why `s` is not a DNS-1035 label (empty when it is one).
pub(crate) fn dns1035_msgs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push(max_len_msg(63));
    }
    if !is_label(s, true) {
        out.push(regex_msg(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            "[a-z]([-a-z0-9]*[a-z0-9])?",
            &["my-name", "abc-123"],
        ));
    }
    out
}

/// Why `s` is not an IANA service (port) name.
pub(crate) fn port_name_msgs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 15 {
        out.push(max_len_msg(15));
    }
    if s.is_empty()
        || !s
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        out.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".into());
    }
    if !s.bytes().any(|b| b.is_ascii_lowercase()) {
        out.push("must contain at least one letter (a-z)".into());
    }
    if s.contains("--") {
        out.push("must not contain consecutive hyphens".into());
    }
    if s.starts_with('-') || s.ends_with('-') {
        out.push("must not begin or end with a hyphen".into());
    }
    out
}

const QNAME_RE: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QNAME_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

fn is_qname_part(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || b"-_.".contains(c))
}

/// Why `s` is not a qualified name (a label or annotation key): `[prefix/]name`.
pub(crate) fn qualified_name_msgs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let examples = ["MyName", "my.name", "123-abc"];
    let name = match s.split('/').collect::<Vec<_>>()[..] {
        [name] => name,
        [prefix, name] => {
            if prefix.is_empty() {
                out.push("prefix part must be non-empty".into());
            } else {
                let msgs = dns_subdomain_msgs(prefix);
                out.extend(msgs.into_iter().map(|m| format!("prefix part {m}")));
            }
            name
        }
        _ => {
            out.push(format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_msg(QNAME_MSG, QNAME_RE, &examples)
            ));
            return out;
        }
    };
    if name.is_empty() {
        out.push("name part must be non-empty".into());
    } else if name.len() > 63 {
        out.push(format!("name part {}", max_len_msg(63)));
    }
    if !is_qname_part(name) {
        out.push(format!(
            "name part {}",
            regex_msg(QNAME_MSG, QNAME_RE, &examples)
        ));
    }
    out
}

/// Why `key` is not a ConfigMap/Secret key (apimachinery's IsConfigMapKey):
/// `[-._a-zA-Z0-9]+`, at most 253 bytes, not `.`, `..` or starting with `..`.
pub(crate) fn config_key_msgs(key: &str) -> Vec<String> {
    let mut out = Vec::new();
    if key.len() > 253 {
        out.push(max_len_msg(253));
    }
    let charset = |b: u8| b.is_ascii_alphanumeric() || b"-._".contains(&b);
    if key.is_empty() || !key.bytes().all(charset) {
        out.push(regex_msg(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    match key {
        "." => out.push("must not be '.'".into()),
        ".." => out.push("must not be '..'".into()),
        k if k.starts_with("..") => out.push("must not start with '..'".into()),
        _ => {}
    }
    out
}

/// Why `s` is not a label value.
pub(crate) fn label_value_msgs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if s.len() > 63 {
        out.push(max_len_msg(63));
    }
    if !s.is_empty() && !is_qname_part(s) {
        out.push(regex_msg(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            &format!("({QNAME_RE})?"),
            &["MyValue", "my_value", "12345"],
        ));
    }
    out
}

/// A label map at `field` (keys in order): every key a qualified name, every value a
/// label value; causes name the map itself, as upstream's do.
pub(crate) fn labels(map: Option<&Map<String, Value>>, field: &str) -> Vec<StatusCause> {
    let mut pairs: Vec<(&String, &Value)> = map.into_iter().flatten().collect();
    pairs.sort_by(|a, b| a.0.cmp(b.0));
    let mut out = Vec::new();
    for (k, v) in pairs {
        out.extend(each_invalid(field, k, qualified_name_msgs(k)));
        match v.as_str() {
            Some(v) => out.extend(each_invalid(field, v, label_value_msgs(v))),
            None => out.push(invalid_shown(field, &show(v), "must be a string")),
        }
    }
    out
}

/// One `FieldValueInvalid` per message.
pub(crate) fn each_invalid(field: &str, value: &str, msgs: Vec<String>) -> Vec<StatusCause> {
    msgs.iter().map(|m| invalid(field, value, m)).collect()
}

/// A port number check: 1..=65535.
pub(crate) fn port_num(field: &str, v: &Value) -> Option<StatusCause> {
    match v.as_i64() {
        Some(p) if (1..=65535).contains(&p) => None,
        Some(p) => Some(invalid_int(field, p, &range_msg(1, 65535))),
        None => Some(invalid_shown(field, &show(v), &range_msg(1, 65535))),
    }
}

/// A field that must not be negative, when present.
pub(crate) fn nonnegative(obj: &Value, key: &str, field: &str) -> Option<StatusCause> {
    let v = obj.get(key)?;
    match v.as_i64() {
        Some(n) if n >= 0 => None,
        Some(n) => Some(invalid_int(field, n, NEGATIVE_MSG)),
        None if v.is_null() => None,
        None => Some(invalid_shown(field, &show(v), "must be an integer")),
    }
}

/// `obj[key]` as a string, empty when absent (Go's zero string).
pub(crate) fn text<'a>(obj: &'a Value, key: &str) -> &'a str {
    s(obj, key).unwrap_or("")
}

/// `obj[key]` when set (present and not null, as a non-nil Go pointer).
pub(crate) fn present<'a>(obj: &'a Value, key: &str) -> Option<&'a Value> {
    obj.get(key).filter(|v| !v.is_null())
}

/// An IP address as Go's ParseIPSloppy reads it (IPv4 octets may have leading zeros).
pub(crate) fn sloppy_ip(s: &str) -> Option<std::net::IpAddr> {
    if let Ok(ip) = s.parse() {
        return Some(ip);
    }
    let octets: Vec<u8> = s
        .split('.')
        .map(|p| {
            let digits = !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
            p.parse().ok().filter(|_| digits)
        })
        .collect::<Option<_>>()?;
    let [a, b, c, d] = octets[..] else {
        return None;
    };
    Some(std::net::IpAddr::from([a, b, c, d]))
}

/// An object's (or template's) annotations at `field` (ValidateAnnotations): keys that
/// are qualified names once lower-cased, at most 256 KiB of keys and values.
pub(crate) fn annotations(map: Option<&Map<String, Value>>, field: &str) -> Vec<StatusCause> {
    const MAX: usize = 256 * 1024;
    let mut pairs: Vec<(&String, &Value)> = map.into_iter().flatten().collect();
    pairs.sort_by(|a, b| a.0.cmp(b.0));
    let mut out = Vec::new();
    let mut size = 0;
    for (k, v) in pairs {
        out.extend(each_invalid(
            field,
            k,
            qualified_name_msgs(&k.to_lowercase()),
        ));
        size += k.len() + v.as_str().map_or(0, str::len);
    }
    if size > MAX {
        out.push(too_long(field, MAX));
    }
    out
}

/// `obj[key]` as a string, when it is one.
pub(crate) fn s<'a>(obj: &'a Value, key: &str) -> Option<&'a str> {
    obj.get(key).and_then(Value::as_str)
}

/// `obj[key]` as a slice, empty when absent or not an array.
pub(crate) fn arr<'a>(obj: &'a Value, key: &str) -> &'a [Value] {
    obj.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// `obj[key]` as an object, when it is one.
pub(crate) fn obj<'a>(v: &'a Value, key: &str) -> Option<&'a Map<String, Value>> {
    v.get(key).and_then(Value::as_object)
}

/// A Go `map[string]string` as `%#v` prints it: `map[string]string{"a":"b"}` (keys sorted).
pub(crate) fn go_string_map(m: Option<&Map<String, Value>>) -> String {
    let Some(m) = m else {
        return "map[string]string(nil)".into();
    };
    let mut pairs: Vec<(&String, &Value)> = m.iter().collect();
    pairs.sort_by(|a, b| a.0.cmp(b.0));
    let body: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{}:{}", quote(k), quote(v.as_str().unwrap_or_default())))
        .collect();
    format!("map[string]string{{{}}}", body.join(", "))
}

/// Causes as `field: message` lines (what the Status message joins), for tests.
#[cfg(test)]
pub(crate) fn messages(causes: &[StatusCause]) -> Vec<String> {
    causes
        .iter()
        .map(|c| format!("{}: {}", c.field, c.message))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wording() {
        assert_eq!(required("a", "").message, "Required value");
        assert_eq!(required("a", "why").message, "Required value: why");
        assert_eq!(
            not_supported("p", "X", &["A", "B"]).message,
            "Unsupported value: \"X\": supported values: \"A\", \"B\""
        );
        assert_eq!(duplicate("n", "a").message, "Duplicate value: \"a\"");
        assert_eq!(not_found("n", "v").reason, "FieldValueNotFound");
        assert_eq!(quote("a\"b\n"), "\"a\\\"b\\n\"");
        assert_eq!(
            invalid_int("p", 0, &range_msg(1, 65535)).message,
            "Invalid value: 0: must be between 1 and 65535, inclusive"
        );
        assert_eq!(
            go_string_map(json!({"b": "2", "a": "1"}).as_object()),
            "map[string]string{\"a\":\"1\", \"b\":\"2\"}"
        );
    }

    #[test]
    fn label_rules() {
        assert!(qualified_name_msgs("app").is_empty());
        assert!(qualified_name_msgs("example.com/My_name.1").is_empty());
        assert_eq!(
            qualified_name_msgs("/a"),
            vec!["prefix part must be non-empty"]
        );
        assert_eq!(
            qualified_name_msgs("-a"),
            vec!["name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]
        );
        assert!(qualified_name_msgs("a/b/c")[0].starts_with("a qualified name must consist"));
        assert!(qualified_name_msgs("Bad_/x")[0]
            .starts_with("prefix part a lowercase RFC 1123 subdomain"));
        assert!(label_value_msgs("").is_empty());
        assert!(label_value_msgs("v1.2_x").is_empty());
        assert!(label_value_msgs("v!")[0].starts_with("a valid label must be an empty string"));
        let m = json!({"b": "-x", "a": 1});
        let c = labels(m.as_object(), "spec.template.metadata.labels");
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].message, "Invalid value: 1: must be a string");
        assert!(c[1]
            .message
            .starts_with("Invalid value: \"-x\": a valid label"));
    }

    #[test]
    fn names() {
        assert!(dns_label_msgs("abc-1").is_empty());
        assert_eq!(dns_label_msgs("a.b"), vec!["must not contain dots"]);
        assert!(dns_label_msgs("A")[0].starts_with("a lowercase RFC 1123 label must consist"));
        assert!(dns_label_msgs("A")[0].ends_with("(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"));
        assert_eq!(dns_label_msgs(&"a".repeat(64))[0], max_len_msg(63));
        assert!(dns_subdomain_msgs("a.b").is_empty());
        assert!(!dns_subdomain_msgs("a..b").is_empty());
        assert!(dns1035_msgs("a1").is_empty());
        assert!(!dns1035_msgs("1a").is_empty());
        assert!(port_name_msgs("http").is_empty());
        assert_eq!(
            port_name_msgs("80"),
            vec!["must contain at least one letter (a-z)"]
        );
        assert_eq!(
            port_name_msgs("a--b"),
            vec!["must not contain consecutive hyphens"]
        );
        assert!(port_num("p", &json!(65536)).is_some());
        assert!(port_num("p", &json!("x")).is_some());
        assert!(nonnegative(&json!({"r": -1}), "r", "spec.r").is_some());
        assert!(nonnegative(&json!({}), "r", "spec.r").is_none());
    }
}
