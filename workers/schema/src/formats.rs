//! The string forms of the special apimachinery types: RFC 3339 times (`Time`,
//! `MicroTime`), Go durations (`Duration`) and base64 bytes.

use base64::Engine as _;

pub(crate) use crate::go_time::{RFC3339, RFC3339_MICRO};

/// The date of a day count since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

/// Formats Unix seconds and nanoseconds in UTC, with `micros` six fractional digits.
pub(crate) fn format_time(seconds: i64, nanos: i64, micros: bool) -> String {
    let days = seconds.div_euclid(86_400);
    let secs = seconds.rem_euclid(86_400);
    let (y, mo, d) = civil_from_days(days);
    let (h, mi, s) = (secs / 3600, secs % 3600 / 60, secs % 60);
    if micros {
        let us = nanos.clamp(0, 999_999_999) / 1000;
        format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{us:06}Z")
    } else {
        format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
    }
}

/// Parses a time by its layout (RFC 3339, with or without six fractional digits) to Unix
/// seconds and nanoseconds; the error is Go's `time.Parse` error, as upstream's.
pub(crate) fn parse_time(s: &str, layout: &str) -> Result<(i64, i64), String> {
    crate::go_time::parse(s, layout)
}

/// Formats nanoseconds as Go's `time.Duration.String` does (`1h2m3.5s`, `1.5ms`, `0s`).
pub(crate) fn format_duration(ns: i64) -> String {
    if ns == 0 {
        return "0s".into();
    }
    let neg = ns < 0;
    let u = ns.unsigned_abs();
    let mut out = String::new();
    if u < 1_000_000_000 {
        // Below one second: a single unit with a fraction.
        let (unit, div) = if u < 1_000 {
            ("ns", 1)
        } else if u < 1_000_000 {
            ("µs", 1_000)
        } else {
            ("ms", 1_000_000)
        };
        out.push_str(&frac(u, div));
        out.push_str(unit);
    } else {
        let h = u / 3_600_000_000_000;
        let m = u / 60_000_000_000 % 60;
        let s = u % 60_000_000_000;
        if h > 0 {
            out.push_str(&format!("{h}h"));
        }
        if h > 0 || m > 0 {
            out.push_str(&format!("{m}m"));
        }
        out.push_str(&frac(s, 1_000_000_000));
        out.push('s');
    }
    if neg {
        out.insert(0, '-');
    }
    out
}

/// `v / div` with the fraction's trailing zeros trimmed.
fn frac(v: u64, div: u64) -> String {
    let whole = v / div;
    let rest = v % div;
    if rest == 0 {
        return whole.to_string();
    }
    let width = div.ilog10() as usize;
    let f = format!("{rest:0width$}");
    format!("{whole}.{}", f.trim_end_matches('0'))
}

/// Parses a Go duration string (`1h30m`, `1.5s`, `-2ms`) to nanoseconds.
pub(crate) fn parse_duration(s: &str) -> Result<i64, String> {
    let bad = || format!("time: invalid duration {s:?}");
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(bad());
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if num_len == 0 {
            return Err(bad());
        }
        let n: f64 = rest[..num_len].parse().map_err(|_| bad())?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_len] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            "" => return Err(format!("time: missing unit in duration {s:?}")),
            u => return Err(format!("time: unknown unit {u:?} in duration {s:?}")),
        };
        rest = &rest[unit_len..];
        total += n * scale;
    }
    if total > i64::MAX as f64 {
        return Err(bad());
    }
    let ns = total.round() as i64;
    Ok(if neg { -ns } else { ns })
}

/// Decodes standard base64 as Go's `encoding/base64` does for `[]byte` fields (newlines
/// ignored). The error is upstream's `illegal base64 data at input byte N`.
pub(crate) fn decode_base64(s: &str) -> Result<Vec<u8>, String> {
    let cleaned: String = s.chars().filter(|c| *c != '\r' && *c != '\n').collect();
    base64::engine::general_purpose::STANDARD
        .decode(cleaned.as_bytes())
        .map_err(|e| {
            let at = match e {
                base64::DecodeError::InvalidByte(i, _)
                | base64::DecodeError::InvalidLastSymbol(i, _) => i,
                base64::DecodeError::InvalidLength(n) => n,
                base64::DecodeError::InvalidPadding => cleaned.len().saturating_sub(1),
            };
            format!("illegal base64 data at input byte {at}")
        })
}

pub(crate) fn encode_base64(b: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_round_trip() {
        assert_eq!(format_time(1_704_164_645, 0, false), "2024-01-02T03:04:05Z");
        assert_eq!(
            parse_time("2024-01-02T03:04:05Z", RFC3339),
            Ok((1_704_164_645, 0))
        );
        assert_eq!(
            parse_time("2024-01-02T05:04:05+02:00", RFC3339),
            Ok((1_704_164_645, 0))
        );
        assert_eq!(
            parse_time("2024-01-02T03:04:05.123456Z", RFC3339_MICRO),
            Ok((1_704_164_645, 123_456_000))
        );
        assert_eq!(
            format_time(1_704_164_645, 123_456_789, true),
            "2024-01-02T03:04:05.123456Z"
        );
        assert_eq!(format_time(0, 0, false), "1970-01-01T00:00:00Z");
        assert_eq!(format_time(-1, 0, false), "1969-12-31T23:59:59Z");
        assert_eq!(
            parse_time("2000-02-29T00:00:00Z", RFC3339).map(|t| format_time(t.0, 0, false)),
            Ok("2000-02-29T00:00:00Z".into())
        );
        for bad in [
            "",
            "2024",
            "2024-13-01T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "2024-01-02 03:04:05Z",
            "2024-01-02T03:04:05",
            "2024-01-02T03:04:05.Z",
            "2024-01-02T03:04:05Zx",
            "２０２４-01-02T03:04:05Z",
        ] {
            assert!(parse_time(bad, RFC3339).is_err(), "{bad}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(format_duration(0), "0s");
        assert_eq!(format_duration(3_600_000_000_000), "1h0m0s");
        assert_eq!(format_duration(90_500_000_000), "1m30.5s");
        assert_eq!(format_duration(1_500_000), "1.5ms");
        assert_eq!(format_duration(-2_000), "-2µs");
        assert_eq!(parse_duration("1h30m"), Ok(5_400_000_000_000));
        assert_eq!(parse_duration("1.5s"), Ok(1_500_000_000));
        assert_eq!(parse_duration("0"), Ok(0));
        assert!(parse_duration("x").is_err());
        assert!(parse_duration("1").is_err());
        assert!(parse_duration("").is_err());
    }

    #[test]
    fn base64_errors() {
        assert_eq!(decode_base64("aGk=").as_deref(), Ok(&b"hi"[..]));
        assert_eq!(decode_base64("aG\nk=").as_deref(), Ok(&b"hi"[..]));
        assert_eq!(
            decode_base64("a!Gk="),
            Err("illegal base64 data at input byte 1".into())
        );
    }
}
