//! Resource quantities (`500m`, `1Gi`, `2e3`) read well enough to compare them.

use serde_json::Value;

/// The value of a quantity, or `None` when it is not one. Precision is that of `f64`,
/// plenty for telling which of two quantities is larger.
pub(crate) fn parse(q: &str) -> Option<f64> {
    let split = q
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(q.len());
    let (num, suffix) = q.split_at(split);
    let digits = num.strip_prefix(['+', '-']).unwrap_or(num);
    if digits.is_empty()
        || digits == "."
        || digits.matches('.').count() > 1
        || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
    {
        return None;
    }
    let base: f64 = num.parse().ok()?;
    let scale = match suffix {
        "" => 1.0,
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024.0,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        _ => {
            let exp = suffix.strip_prefix(['e', 'E'])?;
            let body = exp.strip_prefix(['+', '-']).unwrap_or(exp);
            if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            10f64.powi(exp.parse::<i32>().ok()?.clamp(-400, 400))
        }
    };
    Some(base * scale)
}

/// A JSON quantity (a string, or a bare number as some clients send) and its value.
pub(crate) fn of(v: &Value) -> Option<(String, f64)> {
    match v {
        Value::String(s) => parse(s).map(|n| (s.clone(), n)),
        Value::Number(n) => n.as_f64().map(|f| (n.to_string(), f)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn quantities() {
        assert_eq!(parse("500m"), Some(0.5));
        assert_eq!(parse("1Gi"), Some(1073741824.0));
        assert_eq!(parse("2e3"), Some(2000.0));
        assert_eq!(parse("1.5"), Some(1.5));
        assert_eq!(parse("-1"), Some(-1.0));
        assert!(parse("1x").is_none());
        assert!(parse("").is_none());
        assert!(parse("Gi").is_none());
        assert!(parse("1..2").is_none());
        assert!(parse("1e").is_none());
        assert!(parse("1e99999").is_some());
        assert!(parse("128Mi").unwrap() > parse("100M").unwrap());
        assert_eq!(of(&json!(2)), Some(("2".into(), 2.0)));
        assert!(of(&json!([])).is_none());
    }
}
