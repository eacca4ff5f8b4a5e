//! `resource.Quantity`: parse (`100m`, `1Gi`, `1e3`, `0.5`), compare, add, subtract, and
//! the canonical string upstream writes back and prints in messages (`0.5` → `500m`,
//! `2000` → `2k`, `1536Mi` stays, `1024Ki` → `1Mi`). Decoding canonicalizes quantities
//! with it; admission (limits, quotas) computes with it. Values are kept exactly in nano-units (upstream's finest precision, finer
//! values rounded up); anything beyond ±10^29 is refused rather than wrapped.

use std::cmp::Ordering;
use std::fmt;

/// How a quantity prints (upstream's `resource.Format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `1.5`, `500m`, `2k`.
    DecimalSI,
    /// `1e3`.
    DecimalExponent,
    /// `1Ki`, `2Gi`.
    BinarySI,
}

/// A resource quantity.
#[derive(Debug, Clone, Copy)]
pub struct Quantity {
    nanos: i128,
    format: Format,
}

const NANO: i128 = 1_000_000_000;
/// The largest magnitude kept (in nano-units), well inside i128.
const LIMIT: i128 = 10i128.pow(38);

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.nanos == other.nanos
    }
}

impl Eq for Quantity {}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Quantity {
    fn cmp(&self, other: &Self) -> Ordering {
        self.nanos.cmp(&other.nanos)
    }
}

/// `a / b` rounded up (away from zero for positive `b`).
fn div_ceil(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b > 0 {
        q + 1
    } else {
        q
    }
}

impl Quantity {
    /// Parses a quantity; `None` when `s` is not one (or is absurdly large).
    pub fn parse(s: &str) -> Option<Quantity> {
        let b = s.as_bytes();
        let (negative, mut i) = match b.first() {
            Some(b'-') => (true, 1),
            Some(b'+') => (false, 1),
            _ => (false, 0),
        };
        let mut mantissa: i128 = 0;
        let mut scale: i32 = 0;
        let (mut seen_dot, mut seen_digit) = (false, false);
        while let Some(&c) = b.get(i) {
            match c {
                b'0'..=b'9' => {
                    seen_digit = true;
                    if mantissa < LIMIT / 10 {
                        mantissa = mantissa * 10 + i128::from(c - b'0');
                        if seen_dot {
                            scale -= 1;
                        }
                    } else if !seen_dot {
                        // Digits past the precision kept: only the magnitude grows.
                        scale += 1;
                    }
                }
                b'.' if !seen_dot => seen_dot = true,
                _ => break,
            }
            i += 1;
        }
        if !seen_digit {
            return None;
        }
        let suffix = &s[i..];
        let (format, binary_power) = match suffix {
            "" => (Format::DecimalSI, 0),
            "n" | "u" | "m" | "k" | "M" | "G" | "T" | "P" | "E" => {
                scale += match suffix {
                    "n" => -9,
                    "u" => -6,
                    "m" => -3,
                    "k" => 3,
                    "M" => 6,
                    "G" => 9,
                    "T" => 12,
                    "P" => 15,
                    _ => 18,
                };
                (Format::DecimalSI, 0)
            }
            "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei" => {
                let power = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
                    .iter()
                    .position(|p| *p == suffix)?;
                (Format::BinarySI, 10 * (power as u32 + 1))
            }
            _ => {
                let exp = suffix.strip_prefix(['e', 'E'])?;
                let digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
                if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
                    return None;
                }
                scale = scale.checked_add(exp.parse::<i32>().ok()?)?;
                (Format::DecimalExponent, 0)
            }
        };
        // To nano-units: mantissa × 2^binary_power × 10^(scale + 9), rounded up.
        let mut value = mantissa.checked_mul(1i128.checked_shl(binary_power)?)?;
        let shift = scale.checked_add(9)?;
        if shift >= 0 {
            if value != 0 {
                value = value.checked_mul(10i128.checked_pow(shift as u32)?)?;
            }
        } else {
            value = match 10i128.checked_pow(shift.unsigned_abs()) {
                Some(div) => div_ceil(value, div),
                None => i128::from(value != 0),
            };
        }
        if value >= LIMIT {
            return None;
        }
        Some(Quantity {
            nanos: if negative { -value } else { value },
            format,
        })
    }

    /// Reads a JSON value that should hold a quantity (a string, or a bare number).
    pub fn of(v: &serde_json::Value) -> Option<Quantity> {
        match v {
            serde_json::Value::String(s) => Quantity::parse(s),
            serde_json::Value::Number(n) => Quantity::parse(&n.to_string()),
            _ => None,
        }
    }

    /// Zero, in `format`.
    pub fn zero(format: Format) -> Quantity {
        Quantity { nanos: 0, format }
    }

    /// The value in whole units, rounded up (upstream's `Value()`).
    pub fn value(self) -> i128 {
        div_ceil(self.nanos, NANO)
    }

    /// Rounded to thousandths, away from zero (upstream's `RoundUp(Milli)`, which its
    /// v1 defaulting applies to every resource list).
    pub fn round_up_milli(self) -> Quantity {
        const MILLI: i128 = 1_000_000;
        let rest = self.nanos % MILLI;
        if rest == 0 {
            return self;
        }
        Quantity {
            nanos: self.nanos - rest + MILLI * self.nanos.signum(),
            format: self.format,
        }
    }

    /// The value in thousandths, rounded up (upstream's `MilliValue()`).
    pub fn milli_value(self) -> i128 {
        div_ceil(self.nanos, 1_000_000)
    }
}

impl std::ops::Add for Quantity {
    type Output = Quantity;

    /// The sum, printed as the left side prints (upstream's `Add`).
    fn add(self, other: Quantity) -> Quantity {
        Quantity {
            nanos: (self.nanos + other.nanos).clamp(-LIMIT, LIMIT),
            format: self.format,
        }
    }
}

impl std::ops::Sub for Quantity {
    type Output = Quantity;

    /// The difference, printed as the left side prints (upstream's `Sub`).
    fn sub(self, other: Quantity) -> Quantity {
        Quantity {
            nanos: (self.nanos - other.nanos).clamp(-LIMIT, LIMIT),
            format: self.format,
        }
    }
}

impl fmt::Display for Quantity {
    /// The canonical form (upstream's `String()`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.nanos == 0 {
            return f.write_str("0");
        }
        let sign = if self.nanos < 0 { "-" } else { "" };
        let abs = self.nanos.abs();
        let mut format = self.format;
        if format == Format::BinarySI {
            // Binary suffixes only for whole numbers of at least 1024.
            if abs % NANO == 0 && abs / NANO >= 1024 {
                let (mut m, mut power) = (abs / NANO, 0);
                while m % 1024 == 0 && power < 6 {
                    m /= 1024;
                    power += 1;
                }
                let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][power];
                return write!(f, "{sign}{m}{suffix}");
            }
            format = Format::DecimalSI;
        }
        // The largest exponent that is a multiple of 3 and keeps the mantissa whole.
        let (mut m, mut exp) = (abs, -9i32);
        while m % 10 == 0 {
            m /= 10;
            exp += 1;
        }
        let r = exp.rem_euclid(3);
        m *= 10i128.pow(r as u32);
        exp -= r;
        let suffix = match (format, exp) {
            (_, 0) => String::new(),
            (Format::DecimalSI, -9) => "n".into(),
            (Format::DecimalSI, -6) => "u".into(),
            (Format::DecimalSI, -3) => "m".into(),
            (Format::DecimalSI, 3) => "k".into(),
            (Format::DecimalSI, 6) => "M".into(),
            (Format::DecimalSI, 9) => "G".into(),
            (Format::DecimalSI, 12) => "T".into(),
            (Format::DecimalSI, 15) => "P".into(),
            (Format::DecimalSI, 18) => "E".into(),
            (_, e) => format!("e{e}"),
        };
        write!(f, "{sign}{m}{suffix}")
    }
}

/// Upstream's error for a malformed quantity.
pub(crate) const QUANTITY_ERROR: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/// The canonical form of a quantity string, `None` when it is not one.
pub fn canonical(s: &str) -> Option<String> {
    Quantity::parse(s).map(|q| q.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap_or_else(|| panic!("{s} parses"))
    }

    #[test]
    fn canonical_forms() {
        for (input, want) in [
            ("0", "0"),
            ("-0", "0"),
            ("0.5", "500m"),
            ("1.5", "1500m"),
            ("1000m", "1"),
            ("2000", "2k"),
            ("1500", "1500"),
            ("100m", "100m"),
            ("1Gi", "1Gi"),
            ("1024Ki", "1Mi"),
            ("1.5Gi", "1536Mi"),
            ("0.5Ki", "512"),
            ("1e3", "1e3"),
            ("1.5e3", "1500"),
            ("12e-1", "1200e-3"),
            ("0.1n", "1n"),
            ("+2k", "2k"),
            ("-100m", "-100m"),
            ("1000000", "1M"),
            ("128974848", "128974848"),
        ] {
            assert_eq!(q(input).to_string(), want, "{input}");
        }
    }

    #[test]
    fn rejects_malformed_and_huge() {
        for bad in [
            "", "abc", "1Gb", "1..2", "m", "1e", ".", "1.2.3", "--1", "1 ", "1e+", "1e40",
        ] {
            assert!(Quantity::parse(bad).is_none(), "{bad}");
        }
        assert!(Quantity::parse(&"9".repeat(60)).is_none());
        assert!(Quantity::parse("1e-2147483648").is_some());
        assert!(Quantity::parse("99999999999999999999999999999999999Ei").is_none());
    }

    #[test]
    fn compare_round_and_add() {
        assert!(q("1") < q("1001m"));
        assert_eq!(q("1"), q("1000m"));
        assert_eq!(q("1Ki"), q("1024"));
        assert!(q("1Gi") > q("1G"));
        assert_eq!(q("1500m").value(), 2);
        assert_eq!(q("1.5u").milli_value(), 1);
        assert_eq!(q("250m").milli_value(), 250);
        assert_eq!((q("100m") + q("0.4")).to_string(), "500m");
        assert_eq!((q("1Gi") + q("1Gi")).to_string(), "2Gi");
        assert_eq!(Quantity::of(&serde_json::json!(2)), Some(q("2")));
        assert_eq!(Quantity::zero(Format::DecimalSI).to_string(), "0");
    }

    #[test]
    fn rounds_up_to_milli() {
        let r = |s: &str| q(s).round_up_milli().to_string();
        assert_eq!(r("100u"), "1m");
        assert_eq!(r("1500u"), "2m");
        assert_eq!(r("0.0001"), "1m");
        assert_eq!(r("-1500u"), "-2m");
        assert_eq!(r("999999999n"), "1");
        assert_eq!(r("250m"), "250m");
        assert_eq!(r("1Gi"), "1Gi");
    }

    #[test]
    fn canonical_strings() {
        let cases = [
            ("0", "0"),
            ("0.0", "0"),
            ("-0", "0"),
            ("1", "1"),
            ("0.5", "500m"),
            ("1.5", "1500m"),
            ("1000m", "1"),
            ("2000", "2k"),
            ("1500", "1500"),
            ("100m", "100m"),
            ("1Gi", "1Gi"),
            ("1024Ki", "1Mi"),
            ("1.5Gi", "1536Mi"),
            ("512Ki", "512Ki"),
            ("0.5Ki", "512"),
            ("0.1Gi", "107374182400m"),
            ("1e3", "1e3"),
            ("1E3", "1e3"),
            ("1.5e3", "1500"),
            ("12e-1", "1200e-3"),
            ("1n", "1n"),
            ("0.1n", "1n"),
            ("+2k", "2k"),
            ("-100m", "-100m"),
            ("5M", "5M"),
            ("1000000", "1M"),
            ("128974848", "128974848"),
        ];
        for (input, want) in cases {
            assert_eq!(canonical(input).as_deref(), Some(want), "{input}");
        }
    }

    #[test]
    fn rejects_malformed_strings() {
        for bad in [
            "", "abc", "1Gb", "1..2", "m", "1e", ".", "1.2.3", "--1", "1 ", "1Kii", "1e+", "٣",
        ] {
            assert!(canonical(bad).is_none(), "{bad}");
        }
        // Too large for the arithmetic: refused, never a panic.
        assert!(canonical(&"9".repeat(60)).is_none());
        let _ = canonical("1e999999999999");
        let _ = canonical("1e-2147483648");
        let _ = canonical("99999999999999999999999999999999999Ei");
    }
}
