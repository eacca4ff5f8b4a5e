//! String formats the apiextensions server checks (`format:` in a schema), after
//! kube-openapi's format registry; unknown formats are not checked.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// `Some(valid)` for a known format, `None` for a format that is not checked.
pub(crate) fn check(format: &str, s: &str) -> Option<bool> {
    // the registry matches names without dashes, underscores or case
    let norm: String = format
        .chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    Some(match norm.as_str() {
        "byte" => is_base64(s),
        "date" => is_date(s),
        "datetime" => is_date_time(s),
        "duration" => is_duration(s),
        "email" => is_email(s),
        "hostname" => is_hostname(s),
        "ipv4" => s.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => s.parse::<Ipv6Addr>().is_ok(),
        "cidr" => is_cidr(s),
        "mac" => is_mac(s),
        "uuid" => is_uuid(s, None),
        "uuid3" => is_uuid(s, Some('3')),
        "uuid4" => is_uuid(s, Some('4')),
        "uuid5" => is_uuid(s, Some('5')),
        "uri" => is_uri(s),
        "bsonobjectid" => s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit()),
        "hexcolor" => is_hex_color(s),
        "password" => true,
        _ => return None,
    })
}

fn is_base64(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() & 3 != 0 {
        return false;
    }
    let pad = b.iter().rev().take_while(|c| **c == b'=').count();
    pad <= 2
        && b[..b.len() - pad]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
}

fn is_date(s: &str) -> bool {
    let mut it = s.split('-');
    let (Some(y), Some(m), Some(d), None) = (it.next(), it.next(), it.next(), it.next()) else {
        return false;
    };
    let (Some(y), Some(m), Some(d)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let max = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=max).contains(&d)
}

fn is_date_time(s: &str) -> bool {
    let Some(pos) = s.find(['T', 't', ' ']) else {
        return false;
    };
    if !is_date(&s[..pos]) {
        return false;
    }
    let t = &s[pos + 1..];
    // time part: HH:MM:SS[.frac](Z|±HH:MM)
    let (clock, zone) = match t.find(['Z', 'z', '+', '-']) {
        Some(i) => (&t[..i], &t[i..]),
        None => return false,
    };
    let zone_ok = zone.eq_ignore_ascii_case("z")
        || (zone.len() == 6 && zone.is_ascii() && {
            let (h, m) = (&zone[1..3], &zone[4..6]);
            &zone[3..4] == ":"
                && digits(h, 2).is_some_and(|h| h < 24)
                && digits(m, 2).is_some_and(|m| m < 60)
        });
    let (hms, frac) = match clock.split_once('.') {
        Some((a, f)) => (a, Some(f)),
        None => (clock, None),
    };
    let mut p = hms.split(':');
    let ok = matches!(
        (p.next().and_then(|h| digits(h, 2)), p.next().and_then(|m| digits(m, 2)), p.next().and_then(|x| digits(x, 2)), p.next()),
        (Some(h), Some(m), Some(x), None) if h < 24 && m < 60 && x < 61
    );
    ok && zone_ok && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
}

fn is_duration(s: &str) -> bool {
    // Go durations (`1h30m`, `1.5s`) and the registry's spelled units (`3 days`)
    let s = s.trim();
    if s.is_empty() {
        return false;
    }
    let units = [
        "ns",
        "us",
        "µs",
        "ms",
        "s",
        "m",
        "h",
        "d",
        "w",
        "nanoseconds",
        "nanosecond",
        "microseconds",
        "microsecond",
        "milliseconds",
        "millisecond",
        "seconds",
        "second",
        "sec",
        "minutes",
        "minute",
        "min",
        "hours",
        "hour",
        "hr",
        "days",
        "day",
        "weeks",
        "week",
        "wk",
    ];
    let mut rest = s.strip_prefix(['-', '+']).unwrap_or(s);
    let mut any = false;
    while !rest.is_empty() {
        let n = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if n == 0 {
            return false;
        }
        rest = rest[n..].trim_start();
        let u = rest
            .find(|c: char| c.is_ascii_digit() || c == ' ')
            .unwrap_or(rest.len());
        if !units.contains(&&rest[..u]) {
            return false;
        }
        rest = rest[u..].trim_start();
        any = true;
    }
    any
}

fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    !local.is_empty() && !local.contains(char::is_whitespace) && is_hostname(domain)
}

fn is_hostname(s: &str) -> bool {
    if s.is_empty() || s.len() > 255 {
        return false;
    }
    s.trim_end_matches('.').split('.').all(|l| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    })
}

fn is_cidr(s: &str) -> bool {
    let Some((ip, bits)) = s.split_once('/') else {
        return false;
    };
    let Ok(bits) = bits.parse::<u8>() else {
        return false;
    };
    match ip.parse::<IpAddr>() {
        Ok(IpAddr::V4(_)) => bits <= 32,
        Ok(IpAddr::V6(_)) => bits <= 128,
        Err(_) => false,
    }
}

fn is_mac(s: &str) -> bool {
    let groups = |sep: char, width: usize| {
        let parts: Vec<&str> = s.split(sep).collect();
        matches!(parts.len(), 6 | 8 | 20)
            && parts
                .iter()
                .all(|p| p.len() == width && p.bytes().all(|b| b.is_ascii_hexdigit()))
    };
    let dotted = {
        let parts: Vec<&str> = s.split('.').collect();
        matches!(parts.len(), 3 | 4 | 10)
            && parts
                .iter()
                .all(|p| p.len() == 4 && p.bytes().all(|b| b.is_ascii_hexdigit()))
    };
    groups(':', 2) || groups('-', 2) || dotted
}

fn is_uuid(s: &str, version: Option<char>) -> bool {
    let b = s.as_bytes();
    if b.len() != 36 {
        return false;
    }
    let shape = b.iter().enumerate().all(|(i, c)| match i {
        8 | 13 | 18 | 23 => *c == b'-',
        _ => c.is_ascii_hexdigit(),
    });
    shape
        && match version {
            None => true,
            Some(v) => {
                b[14] as char == v && matches!(b[19], b'8' | b'9' | b'a' | b'b' | b'A' | b'B')
            }
        }
}

fn is_uri(s: &str) -> bool {
    // Go's url.ParseRequestURI: absolute URI or absolute path
    if s.starts_with('/') {
        return !s.contains(char::is_whitespace);
    }
    match s.split_once(':') {
        Some((scheme, rest)) => {
            let mut c = scheme.chars();
            c.next().is_some_and(|f| f.is_ascii_alphabetic())
                && c.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                && !rest.is_empty()
                && !s.contains(char::is_whitespace)
        }
        None => false,
    }
}

fn is_hex_color(s: &str) -> bool {
    let h = s.strip_prefix('#').unwrap_or(s);
    matches!(h.len(), 3 | 6) && h.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn formats() {
        let cases = [
            ("date", "2024-02-29", true),
            ("date", "2023-02-29", false),
            ("date-time", "2024-01-02T03:04:05Z", true),
            ("date-time", "2024-01-02T03:04:05.123+02:00", true),
            ("date-time", "2024-01-02", false),
            ("byte", "aGVsbG8=", true),
            ("byte", "aGVsbG8", false),
            ("ipv4", "10.0.0.1", true),
            ("ipv4", "10.0.0", false),
            ("ipv6", "::1", true),
            ("cidr", "10.0.0.0/8", true),
            ("cidr", "10.0.0.0/33", false),
            ("mac", "00:1a:2b:3c:4d:5e", true),
            ("mac", "00:1a", false),
            ("uuid", "123e4567-e89b-12d3-a456-426614174000", true),
            ("uuid4", "123e4567-e89b-12d3-a456-426614174000", false),
            ("hostname", "example.com", true),
            ("hostname", "-bad", false),
            ("email", "a@example.com", true),
            ("email", "nope", false),
            ("duration", "1h30m", true),
            ("duration", "3 days", true),
            ("duration", "soon", false),
            ("uri", "https://example.com/x", true),
            ("uri", "example", false),
        ];
        for (f, s, ok) in cases {
            assert_eq!(check(f, s), Some(ok), "{f} {s}");
        }
        assert_eq!(check("int32", "x"), None);
        assert_eq!(check("weird", "x"), None);
    }
}
