//! Go's `time.Duration` syntax (`1m0s`, `500ms`, `1.5h`), which kube-apiserver's duration
//! flags take, parsed and printed the same way.

use std::time::Duration;

/// Parses a Go duration. Negative durations are returned as `Err` with the sign noted so
/// the validator can name the flag.
pub(crate) fn parse(s: &str) -> Result<Duration, String> {
    let orig = s;
    let s = s.trim();
    let (neg, mut rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    if rest == "0" {
        return Ok(Duration::ZERO);
    }
    if rest.is_empty() {
        return Err(format!("invalid duration {orig:?}"));
    }
    let mut total = 0f64;
    while !rest.is_empty() {
        let num_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(|| format!("missing unit in duration {orig:?}"))?;
        let (num, tail) = rest.split_at(num_end);
        let value: f64 = num
            .parse()
            .map_err(|_| format!("invalid duration {orig:?}"))?;
        let unit_end = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_end);
        let scale = match unit {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return Err(format!("unknown unit {unit:?} in duration {orig:?}")),
        };
        total += value * scale;
        rest = tail;
    }
    if neg && total > 0.0 {
        return Err(format!("duration {orig:?} is negative"));
    }
    Ok(Duration::from_secs_f64(total))
}

/// Prints a duration as Go does (`1m0s`, `500ms`, `0s`).
pub(crate) fn format(d: Duration) -> String {
    if d.is_zero() {
        return "0s".into();
    }
    if d < Duration::from_secs(1) {
        let nanos = d.as_nanos();
        return if nanos.is_multiple_of(1_000_000) {
            format!("{}ms", nanos / 1_000_000)
        } else if nanos.is_multiple_of(1000) {
            format!("{}µs", nanos / 1000)
        } else {
            format!("{nanos}ns")
        };
    }
    let secs = d.as_secs();
    let frac = d.subsec_nanos();
    let (h, m, s) = (secs / 3600, (secs % 3600) / 60, secs % 60);
    let s = if frac == 0 {
        format!("{s}s")
    } else {
        let f = format!("{:09}", frac);
        format!("{s}.{}s", f.trim_end_matches('0'))
    };
    match (h, m) {
        (0, 0) => s,
        (0, m) => format!("{m}m{s}"),
        (h, m) => format!("{h}h{m}m{s}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_go_syntax() {
        assert_eq!(parse("1m0s"), Ok(Duration::from_secs(60)));
        assert_eq!(parse("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse("0"), Ok(Duration::ZERO));
        assert!(parse("10").is_err());
        assert!(parse("abc").is_err());
        assert!(parse("-1s").is_err());
        assert!(parse("").is_err());
    }

    #[test]
    fn prints_go_syntax() {
        assert_eq!(format(Duration::from_secs(60)), "1m0s");
        assert_eq!(format(Duration::from_secs(3600)), "1h0m0s");
        assert_eq!(format(Duration::from_secs(300)), "5m0s");
        assert_eq!(format(Duration::ZERO), "0s");
        assert_eq!(format(Duration::from_millis(1500)), "1.5s");
    }
}
