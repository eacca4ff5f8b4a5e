//! `--audit-log-format=legacy`: upstream's one-line text form of an event (its
//! `audit.EventString`), field by field: the received time, then `AUDIT:` and
//! `key="value"` pairs quoted as Go's `%q` quotes.

use std::fmt::Write as _;
use std::time::SystemTime;

use super::super::Event;

/// The line for `e`, newline included.
pub(super) fn line(e: &Event) -> String {
    // Upstream prints groups only for a named user; an anonymous one gets `<none>` for both.
    let (user, groups) = if e.user.name.is_empty() {
        ("<none>".to_owned(), "<none>".to_owned())
    } else if e.user.groups.is_empty() {
        (e.user.name.clone(), "<none>".to_owned())
    } else {
        (e.user.name.clone(), quoted_list(&e.user.groups))
    };
    // Upstream tells a nil group list (`<lookup>`) from an empty one; our UserInfo
    // cannot, and an impersonated user always has at least system:authenticated.
    let (as_user, as_groups) = match &e.impersonated_user {
        None => ("<self>".to_owned(), "<lookup>".to_owned()),
        Some(u) if u.groups.is_empty() => (u.name.clone(), "<lookup>".to_owned()),
        Some(u) => (u.name.clone(), quoted_list(&u.groups)),
    };
    let namespace = e
        .object_ref
        .as_ref()
        .map(|o| o.namespace.as_str())
        .filter(|n| !n.is_empty())
        .unwrap_or("<none>");
    let response = match &e.response_status {
        None => "<deferred>".to_owned(),
        Some(raw) => response_code(raw.get()).to_string(),
    };
    let ip = e.source_ips.first().map_or("<unknown>", String::as_str);
    let mut out = rfc3339_nano(e.request_received_timestamp);
    out.push_str(" AUDIT:");
    for (key, value) in [
        ("id", e.audit_id.as_str()),
        ("stage", e.stage.as_str()),
        ("ip", ip),
        ("method", e.verb.as_str()),
        ("user", &user),
        ("groups", &groups),
        ("as", &as_user),
        ("asgroups", &as_groups),
        ("user-agent", &e.user_agent),
        ("namespace", namespace),
        ("uri", &e.request_uri),
    ] {
        let _ = write!(out, " {key}={}", go_quote(value));
    }
    // The response code is printed between quotes, not quoted (it needs no escaping).
    let _ = writeln!(out, " response=\"{response}\"");
    out
}

/// `"a","b"`: each group quoted, joined by commas (the whole is then quoted again).
fn quoted_list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| go_quote(s))
        .collect::<Vec<_>>()
        .join(",")
}

/// The `code` of a `metav1.Status` (0 when it has none, as Go's zero value).
fn response_code(status: &str) -> i64 {
    #[derive(serde::Deserialize)]
    struct Code {
        #[serde(default)]
        code: i64,
    }
    serde_json::from_str::<Code>(status).map_or(0, |c| c.code)
}

/// Go's `time.RFC3339Nano` of `t` in UTC: nanoseconds with trailing zeros cut, no
/// fraction at all when it is zero.
fn rfc3339_nano(t: SystemTime) -> String {
    let s = humantime::format_rfc3339_nanos(t).to_string();
    // "2006-01-02T15:04:05.123456789Z"
    let Some((whole, frac)) = s.trim_end_matches('Z').split_once('.') else {
        return s;
    };
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        format!("{whole}Z")
    } else {
        format!("{whole}.{frac}Z")
    }
}

/// Go's `strconv.Quote`: double quotes, `\"` and `\\`, the C escapes, `\xHH` for other
/// ASCII control bytes, `\uHHHH` / `\UHHHHHHHH` for runes Go does not print.
pub(super) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if go_printable(c) => out.push(c),
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// Go's `unicode.IsPrint` for what an audit line can hold: everything but controls,
/// spaces other than U+0020, format characters and private use. (Go also escapes
/// unassigned code points; without Unicode's tables we print them.)
fn go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let u = c as u32;
    let format = matches!(
        u,
        0xad | 0x600..=0x605
            | 0x61c
            | 0x6dd
            | 0x70f
            | 0x180e
            | 0x200b..=0x200f
            | 0x202a..=0x202e
            | 0x2060..=0x2064
            | 0x2066..=0x206f
            | 0xfeff
            | 0xfff9..=0xfffb
            | 0x110bd
            | 0x1d173..=0x1d17a
            | 0xe0001
            | 0xe0020..=0xe007f
    );
    let private_or_non_char = matches!(
        u,
        0xe000..=0xf8ff | 0xfffe | 0xffff | 0xf0000..=0xffffd | 0x100000..=0x10fffd
    );
    !format && !private_or_non_char
}

#[cfg(test)]
mod tests {
    use super::super::test_event;
    use super::*;
    use kas_proto::{AuditStage, UserInfo};
    use serde_json::value::RawValue;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn a_complete_event() {
        let mut e = test_event("a1");
        e.request_received_timestamp = UNIX_EPOCH + Duration::from_nanos(1_764_114_385_123_456_000);
        e.user = UserInfo {
            name: "admin".into(),
            groups: vec!["system:masters".into(), "system:authenticated".into()],
            ..Default::default()
        };
        e.impersonated_user = Some(UserInfo {
            name: "bob".into(),
            groups: vec!["dev".into()],
            ..Default::default()
        });
        e.source_ips = vec!["10.0.0.1".into(), "127.0.0.1".into()];
        e.user_agent = "kubectl/v1.33.0 (linux/amd64)".into();
        e.response_status =
            Some(RawValue::from_string(r#"{"metadata":{},"code":201}"#.into()).unwrap());
        assert_eq!(
            line(&e),
            "2025-11-25T23:46:25.123456Z AUDIT: id=\"a1\" stage=\"ResponseComplete\" \
             ip=\"10.0.0.1\" method=\"create\" user=\"admin\" \
             groups=\"\\\"system:masters\\\",\\\"system:authenticated\\\"\" as=\"bob\" \
             asgroups=\"\\\"dev\\\"\" user-agent=\"kubectl/v1.33.0 (linux/amd64)\" \
             namespace=\"default\" uri=\"/api/v1/namespaces/default/configmaps\" \
             response=\"201\"\n"
        );
    }

    #[test]
    fn defaults_of_missing_fields() {
        let mut e = test_event("a2");
        e.stage = AuditStage::RequestReceived;
        e.request_received_timestamp = UNIX_EPOCH + Duration::from_secs(1_764_114_385);
        e.user = UserInfo::default();
        e.object_ref = None;
        e.source_ips.clear();
        e.user_agent.clear();
        e.response_status = None;
        assert_eq!(
            line(&e),
            "2025-11-25T23:46:25Z AUDIT: id=\"a2\" stage=\"RequestReceived\" ip=\"<unknown>\" \
             method=\"create\" user=\"<none>\" groups=\"<none>\" as=\"<self>\" \
             asgroups=\"<lookup>\" user-agent=\"\" namespace=\"<none>\" \
             uri=\"/api/v1/namespaces/default/configmaps\" response=\"<deferred>\"\n"
        );
        // A status without a code is Go's zero.
        e.response_status = Some(RawValue::from_string(r#"{"metadata":{}}"#.into()).unwrap());
        assert!(line(&e).ends_with(" response=\"0\"\n"));
    }

    #[test]
    fn quotes_as_go() {
        assert_eq!(go_quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(
            go_quote("\n\t\r\u{7}\u{8}\u{c}\u{b}"),
            r#""\n\t\r\a\b\f\v""#
        );
        assert_eq!(go_quote("\u{1}\u{7f}"), r#""\x01\x7f""#);
        assert_eq!(go_quote("é日本"), "\"é日本\"");
        assert_eq!(
            go_quote("\u{a0}\u{200b}\u{feff}"),
            r#""\u00a0\u200b\ufeff""#
        );
        assert_eq!(go_quote("\u{85}"), r#""\u0085""#);
        assert_eq!(go_quote("\u{100000}"), r#""\U00100000""#);
        assert_eq!(go_quote("😀"), "\"😀\"");
    }

    #[test]
    fn nanosecond_times_as_go() {
        let t = UNIX_EPOCH + Duration::from_nanos(1_764_114_385_100_000_000);
        assert_eq!(rfc3339_nano(t), "2025-11-25T23:46:25.1Z");
        let t = UNIX_EPOCH + Duration::from_nanos(1_764_114_385_000_000_001);
        assert_eq!(rfc3339_nano(t), "2025-11-25T23:46:25.000000001Z");
    }
}
