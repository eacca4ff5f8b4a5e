//! `resource.Quantity`: parsing and the canonical string upstream writes back (`0.5` →
//! `500m`, `2000` → `2k`, `1536Mi` stays, `1024Ki` → `1Mi`).

/// Upstream's error for a malformed quantity.
pub(crate) const QUANTITY_ERROR: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum QuantityFormat {
    /// `1.5`, `500m`, `2k`.
    DecimalSI,
    /// `1e3`.
    DecimalExponent,
    /// `1Ki`, `2Gi`.
    BinarySI,
}

/// A parsed quantity: `mantissa × 10^scale`, sign apart.
#[derive(Debug, PartialEq, Eq)]
struct Parsed {
    negative: bool,
    mantissa: u128,
    scale: i32,
    format: QuantityFormat,
}

/// The finest precision upstream keeps; finer values are rounded up to it.
const MIN_SCALE: i32 = -9;

fn pow10(n: u32) -> Option<u128> {
    10u128.checked_pow(n)
}

fn parse(s: &str) -> Option<Parsed> {
    let b = s.as_bytes();
    let (negative, mut i) = match b.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    let start = i;
    let mut mantissa: u128 = 0;
    let mut frac_digits: i32 = 0;
    let mut seen_dot = false;
    let mut seen_digit = false;
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => {
                seen_digit = true;
                // Digits beyond u128 would only matter past 10^38; refuse them.
                mantissa = mantissa
                    .checked_mul(10)?
                    .checked_add(u128::from(c - b'0'))?;
                if seen_dot {
                    frac_digits += 1;
                }
            }
            b'.' if !seen_dot => seen_dot = true,
            _ => break,
        }
        i += 1;
    }
    if i == start || !seen_digit {
        return None;
    }
    let suffix = &s[i..];
    let mut scale = -frac_digits;
    let format = match suffix {
        "" => QuantityFormat::DecimalSI,
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
            QuantityFormat::DecimalSI
        }
        "Ki" | "Mi" | "Gi" | "Ti" | "Pi" | "Ei" => {
            let power = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
                .iter()
                .position(|p| *p == suffix)? as u32
                + 1;
            mantissa = mantissa.checked_mul(1u128.checked_shl(10 * power)?)?;
            QuantityFormat::BinarySI
        }
        _ => {
            let exp = suffix.strip_prefix(['e', 'E'])?;
            let digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
            if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            scale = scale.checked_add(exp.parse::<i32>().ok()?)?;
            QuantityFormat::DecimalExponent
        }
    };
    // Round finer-than-nano values up (away from zero) to nano.
    if scale < MIN_SCALE {
        let drop = u32::try_from(MIN_SCALE - scale).ok()?;
        match pow10(drop) {
            Some(div) => mantissa = mantissa / div + u128::from(mantissa % div != 0),
            None => mantissa = u128::from(mantissa != 0),
        }
        scale = MIN_SCALE;
    }
    Some(Parsed {
        negative,
        mantissa,
        scale,
        format,
    })
}

/// The canonical string of a quantity, or `None` if `s` is not one.
pub(crate) fn canonical(s: &str) -> Option<String> {
    let q = parse(s)?;
    if q.mantissa == 0 {
        return Some("0".into());
    }
    let sign = if q.negative { "-" } else { "" };
    let mut format = q.format;
    if format == QuantityFormat::BinarySI {
        // Binary suffixes only for whole numbers of at least 1024.
        let whole = q.scale >= 0 || q.mantissa % pow10(q.scale.unsigned_abs())? == 0;
        let value = if q.scale >= 0 {
            q.mantissa.checked_mul(pow10(q.scale as u32)?)
        } else {
            Some(q.mantissa / pow10(q.scale.unsigned_abs())?)
        };
        match value {
            Some(v) if whole && v >= 1024 => {
                let (mut m, mut power) = (v, 0);
                while m % 1024 == 0 && power < 6 {
                    m /= 1024;
                    power += 1;
                }
                let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][power];
                return Some(format!("{sign}{m}{suffix}"));
            }
            _ => format = QuantityFormat::DecimalSI,
        }
    }
    // Largest exponent that is a multiple of 3 and keeps the mantissa whole.
    let (mut m, mut scale) = (q.mantissa, q.scale);
    while m % 10 == 0 {
        m /= 10;
        scale += 1;
    }
    let r = scale.rem_euclid(3);
    m = m.checked_mul(pow10(r as u32)?)?;
    scale -= r;
    let suffix = match (format, scale) {
        (_, 0) => String::new(),
        (QuantityFormat::DecimalSI, -9) => "n".into(),
        (QuantityFormat::DecimalSI, -6) => "u".into(),
        (QuantityFormat::DecimalSI, -3) => "m".into(),
        (QuantityFormat::DecimalSI, 3) => "k".into(),
        (QuantityFormat::DecimalSI, 6) => "M".into(),
        (QuantityFormat::DecimalSI, 9) => "G".into(),
        (QuantityFormat::DecimalSI, 12) => "T".into(),
        (QuantityFormat::DecimalSI, 15) => "P".into(),
        (QuantityFormat::DecimalSI, 18) => "E".into(),
        (_, e) => format!("e{e}"),
    };
    Some(format!("{sign}{m}{suffix}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms() {
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
    fn rejects_malformed() {
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
