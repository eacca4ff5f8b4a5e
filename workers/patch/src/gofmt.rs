//! Go-style printing of JSON values (`%v`, `%s`, type names), so error texts read exactly
//! as upstream's, which prints decoded `map[string]interface{}` values with `fmt`.

use serde_json::Value;

/// The Go type a decoded JSON value has upstream (`json.Unmarshal` with integers kept
/// as `int64`).
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        // `reflect.TypeOf(nil)` printed with `%s`.
        Value::Null => "%!s(<nil>)",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// `fmt.Sprintf("%v", v)`: maps with sorted keys as `map[k:v k2:v2]`, lists as `[a b]`,
/// strings bare, null as `<nil>`.
pub(crate) fn v(value: &Value) -> String {
    let mut out = String::new();
    write_v(value, &mut out);
    out
}

fn write_v(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match n.as_i64() {
            Some(i) => out.push_str(&i.to_string()),
            None => out.push_str(&float(n.as_f64().unwrap_or(0.0))),
        },
        Value::String(s) => out.push_str(s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write_v(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            // serde_json's map (no `preserve_order`) iterates in byte order of the keys,
            // which is the order Go's fmt sorts string keys in.
            out.push_str("map[");
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k);
                out.push(':');
                write_v(item, out);
            }
            out.push(']');
        }
    }
}

/// `fmt.Sprintf("%s", v)`: strings bare, anything else as Go's bad-verb form
/// (`%!s(int64=1)`), which is what upstream prints for a non-string `$patch`.
pub(crate) fn s(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "%!s(<nil>)".to_owned(),
        Value::Array(_) | Value::Object(_) => v(value),
        other => format!("%!s({}={})", type_name(other), v(other)),
    }
}

/// A float64 as `%v` prints it (`%g`, shortest digits): exponent form (`1e+06`) when the
/// decimal exponent is below -4 or at least 6.
fn float(f: f64) -> String {
    if !f.is_finite() {
        return if f.is_nan() {
            "NaN".into()
        } else if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    } else {
        format!("{f}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prints_like_go() {
        assert_eq!(
            v(&json!({"name": "a", "image": "nginx", "n": 1})),
            "map[image:nginx n:1 name:a]"
        );
        assert_eq!(
            v(&json!([1, "b", null, true, {"x": [2]}])),
            "[1 b <nil> true map[x:[2]]]"
        );
        assert_eq!(v(&json!(1.5)), "1.5");
        assert_eq!(v(&json!(1e21)), "1e+21");
        assert_eq!(v(&json!(1234567.0)), "1.234567e+06");
        assert_eq!(v(&json!(123456.5)), "123456.5");
        assert_eq!(v(&json!(0.00001)), "1e-05");
        assert_eq!(s(&json!("foo")), "foo");
        assert_eq!(s(&json!(1)), "%!s(int64=1)");
        assert_eq!(s(&json!(true)), "%!s(bool=true)");
        assert_eq!(type_name(&json!([])), "[]interface {}");
        assert_eq!(type_name(&json!(2.5)), "float64");
    }
}
