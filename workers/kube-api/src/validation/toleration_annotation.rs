//! The legacy `scheduler.alpha.kubernetes.io/tolerations` pod annotation: upstream reads
//! it with Go's `encoding/json` into `[]core.Toleration` (GetTolerationsFromPodAnnotations)
//! and refuses the pod with that decoder's error, else validates the tolerations it holds.

use serde_json::{json, Map, Value};

use kas_server::go_json;

/// The annotation's key.
pub(super) const KEY: &str = "scheduler.alpha.kubernetes.io/tolerations";

/// The fields of `core.Toleration`: JSON name and the Go type an error names.
const FIELDS: [(&str, &str); 5] = [
    ("key", "string"),
    ("operator", "core.TolerationOperator"),
    ("value", "string"),
    ("effect", "core.TaintEffect"),
    ("tolerationSeconds", "int64"),
];

/// The tolerations in `text`, as Go's `json.Unmarshal` into `[]core.Toleration` reads them
/// (fields matched without regard to case, unknown ones ignored, `null` as absent), or
/// its error: a syntax error first, then the first value of the wrong type.
pub(super) fn decode(text: &str) -> Result<Vec<Value>, String> {
    if let Some(e) = go_json::syntax_error(text.as_bytes()) {
        return Err(e);
    }
    // Go's scanner took it; serde_json refuses only what Go reads past (lone surrogate
    // escapes, nesting past 128 levels), said in its own words.
    let doc: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let items = match doc {
        Value::Null => return Ok(Vec::new()),
        Value::Array(items) => items,
        other => return Err(mismatch(&other, None, "[]core.Toleration")),
    };
    items.iter().map(toleration).collect()
}

/// One element: an object (or `null`, the zero toleration).
fn toleration(item: &Value) -> Result<Value, String> {
    let members = match item {
        Value::Null => return Ok(json!({})),
        Value::Object(m) => m,
        other => return Err(mismatch(other, None, "core.Toleration")),
    };
    let mut out = Map::new();
    for (name, value) in members {
        // An exact match first, then one ignoring ASCII case, as Go's decoder does.
        let field = FIELDS
            .iter()
            .find(|(f, _)| f == name)
            .or_else(|| FIELDS.iter().find(|(f, _)| f.eq_ignore_ascii_case(name)));
        let Some(&(field, go_type)) = field else {
            continue;
        };
        match (value, go_type) {
            (Value::Null, _) => {
                out.remove(field);
            }
            (Value::String(_), t) if t != "int64" => {
                out.insert(field.to_owned(), value.clone());
            }
            (Value::Number(n), "int64") => match n.as_i64() {
                // Go parses the literal as written: `1.0` and `1e3` are not integers.
                Some(i) if !n.to_string().contains(['.', 'e', 'E']) => {
                    out.insert(field.to_owned(), json!(i));
                }
                _ => return Err(mismatch(value, Some(field), go_type)),
            },
            _ => return Err(mismatch(value, Some(field), go_type)),
        }
    }
    Ok(Value::Object(out))
}

/// Go's UnmarshalTypeError: the JSON kind found (a number with its text when it is one
/// that did not fit an integer field), where, and the Go type wanted.
fn mismatch(found: &Value, field: Option<&str>, go_type: &str) -> String {
    let kind = match (found, go_type) {
        (Value::Number(n), "int64") => format!("number {n}"),
        _ => go_json::go_kind(found).to_owned(),
    };
    match field {
        Some(f) => format!(
            "json: cannot unmarshal {kind} into Go struct field Toleration.{f} of type {go_type}"
        ),
        None => format!("json: cannot unmarshal {kind} into Go value of type {go_type}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_gos_decoder_and_words_its_errors() {
        let ok = decode(
            r#"[{"KEY":"a","operator":"Equal","value":"b","effect":"NoExecute","tolerationSeconds":30,"other":1},null]"#,
        )
        .expect("decoded");
        assert_eq!(
            ok,
            vec![
                json!({"key":"a","operator":"Equal","value":"b","effect":"NoExecute","tolerationSeconds":30}),
                json!({}),
            ]
        );
        assert_eq!(decode("null"), Ok(vec![]));
        for (text, want) in [
            ("[", "unexpected end of JSON input"),
            ("[x]", "invalid character 'x' looking for beginning of value"),
            (
                r#"{"key":"a"}"#,
                "json: cannot unmarshal object into Go value of type []core.Toleration",
            ),
            (
                r#"["a"]"#,
                "json: cannot unmarshal string into Go value of type core.Toleration",
            ),
            (
                r#"[{"key":1}]"#,
                "json: cannot unmarshal number into Go struct field Toleration.key of type string",
            ),
            (
                r#"[{"operator":true}]"#,
                "json: cannot unmarshal bool into Go struct field Toleration.operator of type core.TolerationOperator",
            ),
            (
                r#"[{"tolerationSeconds":1.5}]"#,
                "json: cannot unmarshal number 1.5 into Go struct field Toleration.tolerationSeconds of type int64",
            ),
            (
                r#"[{"tolerationSeconds":"5"}]"#,
                "json: cannot unmarshal string into Go struct field Toleration.tolerationSeconds of type int64",
            ),
            (
                r#"[{"tolerationSeconds":9223372036854775808}]"#,
                "json: cannot unmarshal number 9223372036854775808 into Go struct field Toleration.tolerationSeconds of type int64",
            ),
        ] {
            assert_eq!(decode(text), Err(want.to_owned()), "{text}");
        }
    }
}
