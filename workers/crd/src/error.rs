//! Field errors as kube-apiserver reports them in a 422 `Invalid` status: kind, field path,
//! bad value and detail, rendered to `metav1.StatusCause` reason and message text.

use serde_json::Value;
use std::fmt;

/// What is wrong with a field; mirrors apimachinery's `field.ErrorType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A required field is missing.
    Required,
    /// A value is malformed or out of range.
    Invalid,
    /// A value is not one of an enumeration.
    NotSupported,
    /// A field may not be set here.
    Forbidden,
    /// A value repeats one given before.
    Duplicate,
    /// A string is longer than allowed.
    TooLong,
    /// A list or map holds more entries than allowed.
    TooMany,
    /// A value has the wrong JSON type.
    TypeInvalid,
    /// A referenced thing does not exist.
    NotFound,
    /// The server failed to check the value.
    Internal,
}

impl ErrorKind {
    /// The `StatusCause.reason` (`metav1.CauseType`).
    pub fn reason(self) -> &'static str {
        match self {
            ErrorKind::Required => "FieldValueRequired",
            ErrorKind::Invalid => "FieldValueInvalid",
            ErrorKind::NotSupported => "FieldValueNotSupported",
            ErrorKind::Forbidden => "FieldValueForbidden",
            ErrorKind::Duplicate => "FieldValueDuplicate",
            ErrorKind::TooLong => "FieldValueTooLong",
            ErrorKind::TooMany => "FieldValueTooMany",
            ErrorKind::TypeInvalid => "FieldValueTypeInvalid",
            ErrorKind::NotFound => "FieldValueNotFound",
            ErrorKind::Internal => "InternalError",
        }
    }

    /// The words that start the message (`field.ErrorType.String()`).
    pub fn words(self) -> &'static str {
        match self {
            ErrorKind::Required => "Required value",
            ErrorKind::Invalid | ErrorKind::TypeInvalid => "Invalid value",
            ErrorKind::NotSupported => "Unsupported value",
            ErrorKind::Forbidden => "Forbidden",
            ErrorKind::Duplicate => "Duplicate value",
            ErrorKind::TooLong => "Too long",
            ErrorKind::TooMany => "Too many",
            ErrorKind::NotFound => "Not found",
            ErrorKind::Internal => "Internal error",
        }
    }

    /// Kinds whose message never shows the bad value.
    fn hides_value(self) -> bool {
        matches!(
            self,
            ErrorKind::Required | ErrorKind::Forbidden | ErrorKind::TooLong | ErrorKind::Internal
        )
    }
}

/// One failed check on one field.
///
/// `value` is the bad value already rendered as upstream prints it (`"x"` quoted for strings,
/// `5` for numbers, `null`), or `None` where upstream omits it.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Field path, e.g. `spec.versions[0].name` or `spec.properties[foo]`.
    pub field: String,
    /// The rendered bad value, when shown.
    pub value: Option<String>,
    /// Free text after the value.
    pub detail: String,
}

impl FieldError {
    fn new(kind: ErrorKind, field: &str, value: Option<String>, detail: &str) -> Self {
        FieldError {
            kind,
            field: field.to_string(),
            value,
            detail: detail.to_string(),
        }
    }

    /// `field.Required`.
    pub fn required(field: &str, detail: &str) -> Self {
        Self::new(ErrorKind::Required, field, None, detail)
    }

    /// `field.Forbidden`.
    pub fn forbidden(field: &str, detail: &str) -> Self {
        Self::new(ErrorKind::Forbidden, field, None, detail)
    }

    /// `field.Invalid` with a value already rendered (see [`render`], [`quote`]).
    pub fn invalid(field: &str, value: String, detail: &str) -> Self {
        Self::new(ErrorKind::Invalid, field, Some(value), detail)
    }

    /// `field.Invalid` for a string value.
    pub fn invalid_str(field: &str, value: &str, detail: &str) -> Self {
        Self::invalid(field, quote(value), detail)
    }

    /// `field.TypeInvalid`.
    pub fn type_invalid(field: &str, value: String, detail: &str) -> Self {
        Self::new(ErrorKind::TypeInvalid, field, Some(value), detail)
    }

    /// `field.Duplicate`.
    pub fn duplicate(field: &str, value: String) -> Self {
        Self::new(ErrorKind::Duplicate, field, Some(value), "")
    }

    /// `field.NotSupported`: `supported values: "a", "b"`.
    pub fn not_supported(field: &str, value: String, supported: &[&str]) -> Self {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|s| quote(s)).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        Self::new(ErrorKind::NotSupported, field, Some(value), &detail)
    }

    /// `field.TooLong`: `may not be more than N bytes`.
    pub fn too_long(field: &str, max: i64) -> Self {
        let detail = if max >= 0 {
            let unit = if max == 1 { "byte" } else { "bytes" };
            format!("may not be more than {max} {unit}")
        } else {
            "value is too long".to_string()
        };
        Self::new(ErrorKind::TooLong, field, None, &detail)
    }

    /// `field.TooMany`: `must have at most N items`.
    pub fn too_many(field: &str, actual: i64, max: i64) -> Self {
        let detail = if max >= 0 {
            let unit = if max == 1 { "item" } else { "items" };
            format!("must have at most {max} {unit}")
        } else {
            "has too many items".to_string()
        };
        let value = (actual >= 0).then(|| actual.to_string());
        Self::new(ErrorKind::TooMany, field, value, &detail)
    }

    /// `StatusCause.reason`.
    pub fn reason(&self) -> &'static str {
        self.kind.reason()
    }

    /// `StatusCause.message` (`field.Error.ErrorBody()`), e.g. `Invalid value: "x": detail`.
    pub fn message(&self) -> String {
        let mut s = self.kind.words().to_string();
        if !self.kind.hides_value() {
            if let Some(v) = &self.value {
                s.push_str(": ");
                s.push_str(v);
            }
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }

    /// Prefixes the field path (used when a sub-check ran on a nested value).
    pub(crate) fn under(mut self, prefix: &str) -> Self {
        self.field = join_path(prefix, &self.field);
        self
    }
}

impl fmt::Display for FieldError {
    /// `field: message`, as `field.Error.Error()`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message())
    }
}

/// Joins errors as `utilerrors.NewAggregate(...).Error()` does: one alone, or `[a, b]`.
pub fn aggregate(errs: &[FieldError]) -> String {
    match errs {
        [] => String::new(),
        [one] => one.to_string(),
        many => {
            let parts: Vec<String> = many.iter().map(|e| e.to_string()).collect();
            format!("[{}]", parts.join(", "))
        }
    }
}

/// Go's `%q` of a string (close enough: Rust's debug escaping of quotes, backslashes and
/// control characters).
pub fn quote(s: &str) -> String {
    format!("{s:?}")
}

/// A JSON value as upstream prints a bad value: strings quoted, numbers and booleans bare,
/// `null`; objects and arrays as compact JSON (upstream prints Go syntax there).
pub fn render(v: &Value) -> String {
    match v {
        Value::String(s) => quote(s),
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => render_number(n),
        other => other.to_string(),
    }
}

/// Go's `%v` of a JSON number: integers bare, floats in shortest form with Go's exponent rule.
pub(crate) fn render_number(n: &serde_json::Number) -> String {
    if n.is_i64() || n.is_u64() {
        return n.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    go_float(f)
}

/// Go's `%v` of a float64.
pub(crate) fn go_float(f: f64) -> String {
    if f == 0.0 || !f.is_finite() {
        return if f.is_nan() {
            "NaN".into()
        } else {
            format!("{f}")
        };
    }
    let exp = f.abs().log10().floor() as i32;
    if !(-4..21).contains(&exp) {
        let s = format!("{f:e}");
        // Rust prints `1e21`, Go prints `1e+21`; Go pads the exponent to two digits.
        match s.split_once('e') {
            Some((m, e)) => {
                let (sign, digits) = match e.strip_prefix('-') {
                    Some(d) => ('-', d),
                    None => ('+', e),
                };
                format!("{m}e{sign}{digits:0>2}")
            }
            None => s,
        }
    } else {
        format!("{f}")
    }
}

/// `a.b` path join that tolerates an empty side.
pub(crate) fn join_path(prefix: &str, rest: &str) -> String {
    match (prefix.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (_, true) => prefix.to_string(),
        _ if rest.starts_with('[') => format!("{prefix}{rest}"),
        _ => format!("{prefix}.{rest}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_match_upstream() {
        assert_eq!(FieldError::required("a", "").message(), "Required value");
        assert_eq!(
            FieldError::invalid_str("a", "x", "bad").message(),
            "Invalid value: \"x\": bad"
        );
        let e = FieldError::not_supported("spec.scope", quote("Foo"), &["Cluster", "Namespaced"]);
        assert_eq!(
            e.message(),
            "Unsupported value: \"Foo\": supported values: \"Cluster\", \"Namespaced\""
        );
        assert_eq!(e.reason(), "FieldValueNotSupported");
        assert_eq!(
            FieldError::too_long("a", 5).message(),
            "Too long: may not be more than 5 bytes"
        );
        assert_eq!(
            FieldError::too_many("a", 4, 3).message(),
            "Too many: 4: must have at most 3 items"
        );
        assert_eq!(FieldError::forbidden("a", "no").message(), "Forbidden: no");
        assert_eq!(
            FieldError::duplicate("a", quote("x")).message(),
            "Duplicate value: \"x\""
        );
        assert_eq!(
            FieldError::type_invalid("a", quote("string"), "d").reason(),
            "FieldValueTypeInvalid"
        );
    }

    #[test]
    fn render_values() {
        assert_eq!(render(&json!("a")), "\"a\"");
        assert_eq!(render(&json!(5)), "5");
        assert_eq!(render(&json!(1.5)), "1.5");
        assert_eq!(render(&json!(1e21)), "1e+21");
        assert_eq!(render(&json!(null)), "null");
    }

    #[test]
    fn aggregate_like_go() {
        let a = FieldError::required("a", "");
        assert_eq!(aggregate(std::slice::from_ref(&a)), "a: Required value");
        assert_eq!(
            aggregate(&[a.clone(), a]),
            "[a: Required value, a: Required value]"
        );
    }
}
