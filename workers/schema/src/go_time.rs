//! Go's `time.Parse`, for the layouts apimachinery's times are read with (`Time`:
//! `2006-01-02T15:04:05Z07:00`, `MicroTime`: `2006-01-02T15:04:05.000000Z07:00`), so a
//! time that does not parse is refused with the words kube-apiserver uses:
//! `parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`,
//! `parsing time "2024-13-01T00:00:00Z": month out of range`, `…: extra text: "…"`.
//!
//! The layout is walked element by element as Go walks it; the elements known are the
//! numeric ones those layouts use (year `2006`, month `01`, day `02`, hour `15`, minute
//! `04`, second `05`, fractions `.000`/`.999`, zones `Z07:00` and `-07:00`); any other
//! layout text must appear as written.

/// Go's `time.RFC3339`, the layout `metav1.Time` is read with.
pub const RFC3339: &str = "2006-01-02T15:04:05Z07:00";
/// The layout `metav1.MicroTime` is read with.
pub(crate) const RFC3339_MICRO: &str = "2006-01-02T15:04:05.000000Z07:00";

/// One element of a layout.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Std {
    Year,
    Month,
    Day,
    Hour,
    Minute,
    Second,
    /// A fraction of `n` digits: exactly that many (`0`s) or any number (`9`s).
    Fraction {
        digits: usize,
        exact: bool,
    },
    /// `Z07:00` (a `Z` stands for UTC) or `-07:00`.
    ColonZone {
        z_allowed: bool,
    },
}

/// The literal text before the next element, the element with its own text, and the
/// layout after it.
fn next_element(layout: &str) -> (&str, Option<(Std, &str)>, &str) {
    let b = layout.as_bytes();
    for i in 0..b.len() {
        let rest = &layout[i..];
        let fixed = [
            ("2006", Std::Year),
            ("01", Std::Month),
            ("02", Std::Day),
            ("15", Std::Hour),
            ("04", Std::Minute),
            ("05", Std::Second),
            ("Z07:00", Std::ColonZone { z_allowed: true }),
            ("-07:00", Std::ColonZone { z_allowed: false }),
        ];
        if let Some((text, std)) = fixed.iter().find(|(t, _)| rest.starts_with(t)) {
            return (&layout[..i], Some((*std, text)), &rest[text.len()..]);
        }
        if matches!(b[i], b'.' | b',') && matches!(b.get(i + 1), Some(b'0' | b'9')) {
            let digit = b[i + 1];
            let n = b[i + 1..].iter().take_while(|c| **c == digit).count();
            // Go takes a run followed by another digit for literal text.
            if !b.get(i + 1 + n).is_some_and(u8::is_ascii_digit) {
                let std = Std::Fraction {
                    digits: n,
                    exact: digit == b'0',
                };
                return (&layout[..i], Some((std, &rest[..1 + n])), &rest[1 + n..]);
            }
        }
    }
    (layout, None, "")
}

/// Go's `time` quoting of a value in a parse error: control bytes and every byte of a
/// non-ASCII character as `\xNN`, `"` and `\` escaped.
fn quote(s: &[u8]) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for &c in s {
        if !(0x20..0x80).contains(&c) {
            out.push_str(&format!("\\x{c:02x}"));
        } else {
            if c == b'"' || c == b'\\' {
                out.push('\\');
            }
            out.push(char::from(c));
        }
    }
    out.push('"');
    out
}

/// `ParseError.Error()` naming the element that failed.
fn cannot_parse(layout: &str, value: &[u8], layout_elem: &str, value_elem: &[u8]) -> String {
    format!(
        "parsing time {} as {}: cannot parse {} as {}",
        quote(value),
        quote(layout.as_bytes()),
        quote(value_elem),
        quote(layout_elem.as_bytes())
    )
}

/// `ParseError.Error()` with a message of its own.
fn with_message(value: &[u8], message: &str) -> String {
    format!("parsing time {}{message}", quote(value))
}

/// One or two digits (`fixed`: two), and the rest.
fn getnum(s: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    let d = |i: usize| {
        s.get(i)
            .filter(|c| c.is_ascii_digit())
            .map(|c| i64::from(c - b'0'))
    };
    let first = d(0)?;
    match d(1) {
        Some(second) => Some((first * 10 + second, &s[2..])),
        None if fixed => None,
        None => Some((first, &s[1..])),
    }
}

/// Go's `atoi` of the time package: an optional sign, then digits (none reads as 0).
fn atoi(s: &[u8]) -> Option<i64> {
    let (neg, digits) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut n: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        n = n.checked_mul(10)?.checked_add(i64::from(c - b'0'))?;
    }
    Some(if neg { -n } else { n })
}

/// A fraction `.ddd` of `n` bytes (the separator included) as nanoseconds, digits past
/// the ninth dropped; `Err` names a range error.
fn nanoseconds(s: &[u8], n: usize) -> Option<Result<i64, &'static str>> {
    if !matches!(s.first(), Some(b'.' | b',')) {
        return None;
    }
    let n = n.min(10);
    let ns = atoi(s.get(1..n)?)?;
    if ns < 0 {
        return Some(Err("fractional second"));
    }
    Some(Ok(ns * 10i64.pow((10 - n) as u32)))
}

fn leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// What parsing has read so far.
#[derive(Default)]
struct Fields {
    year: i64,
    month: Option<i64>,
    day: Option<i64>,
    hour: i64,
    min: i64,
    sec: i64,
    nsec: i64,
    offset: i64,
}

/// How one element went: read, not readable, or out of range (Go's range message).
enum Step {
    Ok,
    Bad,
    Range(&'static str),
}

/// Parses `value` by `layout` as Go's `time.Parse` does, to Unix seconds and
/// nanoseconds, or Go's error text.
pub fn parse(value: &str, layout: &str) -> Result<(i64, i64), String> {
    let whole = value.as_bytes();
    let mut f = Fields::default();
    let (mut rest_layout, mut rest) = (layout, whole);
    loop {
        let (prefix, element, suffix) = next_element(rest_layout);
        // The literal text, byte by byte (Go treats runs of spaces alike).
        let mut p = prefix.as_bytes();
        while let Some(&c) = p.first() {
            if c == b' ' {
                if rest.first().is_some_and(|r| *r != b' ') {
                    return Err(cannot_parse(layout, whole, prefix, rest));
                }
                p = trim_spaces(p);
                rest = trim_spaces(rest);
                continue;
            }
            if rest.first() != Some(&c) {
                return Err(cannot_parse(layout, whole, prefix, rest));
            }
            p = &p[1..];
            rest = &rest[1..];
        }
        let Some((std, std_text)) = element else {
            if !rest.is_empty() {
                return Err(with_message(
                    whole,
                    &format!(": extra text: {}", quote(rest)),
                ));
            }
            break;
        };
        rest_layout = suffix;
        let hold = rest;
        match element_step(std, &mut rest, rest_layout, &mut f) {
            Step::Ok => {}
            Step::Range(what) => {
                return Err(with_message(whole, &format!(": {what} out of range")))
            }
            Step::Bad => return Err(cannot_parse(layout, whole, std_text, hold)),
        }
    }
    let (month, day) = (f.month.unwrap_or(1), f.day.unwrap_or(1));
    if day < 1 || day > days_in(month, f.year) {
        return Err(with_message(whole, ": day out of range"));
    }
    let secs = days_from_civil(f.year, month, day) * 86_400 + f.hour * 3600 + f.min * 60 + f.sec
        - f.offset;
    Ok((secs, f.nsec))
}

fn trim_spaces(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|c| **c == b' ').count();
    &s[n..]
}

/// Reads one element from `rest` into `f`.
fn element_step(std: Std, rest: &mut &[u8], layout: &str, f: &mut Fields) -> Step {
    let mut number = |fixed: bool, max: i64, what: &'static str, slot: &mut i64| {
        let Some((n, r)) = getnum(rest, fixed) else {
            return Step::Bad;
        };
        (*slot, *rest) = (n, r);
        if n > max {
            Step::Range(what)
        } else {
            Step::Ok
        }
    };
    match std {
        Std::Year => {
            if rest.len() < 4 || !rest[0].is_ascii_digit() {
                return Step::Bad;
            }
            let Some(year) = atoi(&rest[..4]) else {
                return Step::Bad;
            };
            f.year = year;
            *rest = &rest[4..];
            Step::Ok
        }
        Std::Month => {
            let mut month = 0;
            let step = number(true, i64::MAX, "", &mut month);
            f.month = Some(month);
            match step {
                Step::Ok if !(1..=12).contains(&month) => Step::Range("month"),
                other => other,
            }
        }
        Std::Day => {
            let mut day = 0;
            let step = number(true, i64::MAX, "", &mut day);
            f.day = Some(day);
            step
        }
        Std::Hour => number(false, 23, "hour", &mut f.hour),
        Std::Minute => number(true, 59, "minute", &mut f.min),
        Std::Second => match number(true, 59, "second", &mut f.sec) {
            Step::Ok => second_fraction(rest, layout, &mut f.nsec),
            other => other,
        },
        Std::Fraction { digits, exact } => fraction(rest, digits, exact, &mut f.nsec),
        Std::ColonZone { z_allowed } => {
            if z_allowed && rest.first() == Some(&b'Z') {
                *rest = &rest[1..];
                f.offset = 0;
                Step::Ok
            } else {
                zone(rest, &mut f.offset)
            }
        }
    }
}

/// After the seconds: a fraction the layout does not ask for is taken anyway (any
/// number of digits), unless the layout's next element is a fraction.
fn second_fraction(rest: &mut &[u8], layout: &str, nsec: &mut i64) -> Step {
    let b = *rest;
    if b.len() < 2 || !matches!(b[0], b'.' | b',') || !b[1].is_ascii_digit() {
        return Step::Ok;
    }
    if let (_, Some((Std::Fraction { .. }, _)), _) = next_element(layout) {
        return Step::Ok;
    }
    let n = 1 + b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    let step = fraction_of(b, n, nsec);
    *rest = &b[n..];
    step
}

/// A fraction element of the layout: `exact` wants its number of digits, else the
/// fraction may be absent or of any length.
fn fraction(rest: &mut &[u8], digits: usize, exact: bool, nsec: &mut i64) -> Step {
    let b = *rest;
    let n = if exact {
        if b.len() < 1 + digits {
            return Step::Bad;
        }
        1 + digits
    } else {
        if b.len() < 2 || !matches!(b[0], b'.' | b',') || !b[1].is_ascii_digit() {
            return Step::Ok;
        }
        1 + b[1..].iter().take_while(|c| c.is_ascii_digit()).count()
    };
    let step = fraction_of(b, n, nsec);
    *rest = &b[n..];
    step
}

fn fraction_of(b: &[u8], n: usize, nsec: &mut i64) -> Step {
    match nanoseconds(b, n) {
        None => Step::Bad,
        Some(Err(what)) => Step::Range(what),
        Some(Ok(ns)) => {
            *nsec = ns;
            Step::Ok
        }
    }
}

/// `±hh:mm`. Go's range check allows 24 hours and 60 minutes.
fn zone(rest: &mut &[u8], offset: &mut i64) -> Step {
    let b = *rest;
    if b.len() < 6 || b[3] != b':' {
        return Step::Bad;
    }
    let (sign, hh, mm) = (b[0], &b[1..3], &b[4..6]);
    *rest = &b[6..];
    // Go reads the minutes only after good hours and checks the ranges of what it read
    // (0 when unread) before the error.
    let h = getnum(hh, true).map(|(n, _)| n);
    let m = h.and_then(|_| getnum(mm, true).map(|(n, _)| n));
    if m.unwrap_or(0) > 60 {
        return Step::Range("time zone offset minute");
    }
    if h.unwrap_or(0) > 24 {
        return Step::Range("time zone offset hour");
    }
    let (Some(h), Some(m)) = (h, m) else {
        return Step::Bad;
    };
    let secs = (h * 60 + m) * 60;
    *offset = match sign {
        b'+' => secs,
        b'-' => -secs,
        _ => return Step::Bad,
    };
    Step::Ok
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = RFC3339;
    const MICRO: &str = RFC3339_MICRO;

    #[test]
    fn reads_what_go_reads() {
        assert_eq!(parse("1970-01-01T00:00:00Z", T), Ok((0, 0)));
        assert_eq!(parse("1970-01-01T01:00:00+01:00", T), Ok((0, 0)));
        assert_eq!(parse("1970-01-01T00:00:01.5Z", T), Ok((1, 500_000_000)));
        assert_eq!(parse("1970-01-01T0:00:01Z", T), Ok((1, 0)));
        assert_eq!(
            parse("2024-02-29T00:00:00Z", T).map(|t| t.0),
            Ok(1_709_164_800)
        );
        assert_eq!(parse("1970-01-01T00:00:00.000001Z", MICRO), Ok((0, 1000)));
    }

    #[test]
    fn words_errors_as_go_does() {
        let cases = [
            (
                "x",
                T,
                r#"parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006""#,
            ),
            (
                "",
                T,
                r#"parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006""#,
            ),
            (
                "2024/01/01",
                T,
                r#"parsing time "2024/01/01" as "2006-01-02T15:04:05Z07:00": cannot parse "/01/01" as "-""#,
            ),
            (
                "2024-1-01T00:00:00Z",
                T,
                r#"parsing time "2024-1-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-01T00:00:00Z" as "01""#,
            ),
            (
                "2024-13-01T00:00:00Z",
                T,
                r#"parsing time "2024-13-01T00:00:00Z": month out of range"#,
            ),
            (
                "2024-02-30T00:00:00Z",
                T,
                r#"parsing time "2024-02-30T00:00:00Z": day out of range"#,
            ),
            (
                "2024-01-01T24:00:00Z",
                T,
                r#"parsing time "2024-01-01T24:00:00Z": hour out of range"#,
            ),
            (
                "2024-01-01T00:60:00Z",
                T,
                r#"parsing time "2024-01-01T00:60:00Z": minute out of range"#,
            ),
            (
                "2024-01-01T00:00:60Z",
                T,
                r#"parsing time "2024-01-01T00:00:60Z": second out of range"#,
            ),
            (
                "2024-01-01",
                T,
                r#"parsing time "2024-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T""#,
            ),
            (
                "2024-01-01t00:00:00Z",
                T,
                r#"parsing time "2024-01-01t00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "t00:00:00Z" as "T""#,
            ),
            (
                "2024-01-01T00:00:00",
                T,
                r#"parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00""#,
            ),
            (
                "2024-01-01T00:00:00+0100",
                T,
                r#"parsing time "2024-01-01T00:00:00+0100" as "2006-01-02T15:04:05Z07:00": cannot parse "+0100" as "Z07:00""#,
            ),
            (
                "2024-01-01T00:00:00+25:00",
                T,
                r#"parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range"#,
            ),
            (
                "2024-01-01T00:00:00Zjunk",
                T,
                r#"parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk""#,
            ),
            (
                "2024-01-01T00:00:00Z",
                MICRO,
                r#"parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000""#,
            ),
            (
                "2024-01-01T00:00:00.1234567Z",
                MICRO,
                r#"parsing time "2024-01-01T00:00:00.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00""#,
            ),
            (
                "é",
                T,
                r#"parsing time "\xc3\xa9" as "2006-01-02T15:04:05Z07:00": cannot parse "\xc3\xa9" as "2006""#,
            ),
        ];
        for (value, layout, want) in cases {
            assert_eq!(parse(value, layout), Err(want.to_owned()), "{value}");
        }
    }
}
