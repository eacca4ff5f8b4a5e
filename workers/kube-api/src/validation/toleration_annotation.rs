//! The legacy `scheduler.alpha.kubernetes.io/tolerations` pod annotation: upstream reads
//! it with Go's `encoding/json` into `[]core.Toleration` (GetTolerationsFromPodAnnotations)
//! and refuses the pod with that decoder's error, else validates the tolerations it holds.

use serde_json::Value;

use super::go_decode::{self, Struct, Ty};

/// The annotation's key.
pub(super) const KEY: &str = "scheduler.alpha.kubernetes.io/tolerations";

static TOLERATION: Struct = Struct {
    go_type: "core.Toleration",
    fields: &[
        ("key", Ty::Str("string")),
        ("operator", Ty::Str("core.TolerationOperator")),
        ("value", Ty::Str("string")),
        ("effect", Ty::Str("core.TaintEffect")),
        ("tolerationSeconds", Ty::Int64),
    ],
};
static TOLERATIONS: Ty = Ty::Slice("[]core.Toleration", &Ty::Struct(&TOLERATION));

/// The tolerations in `text`, as Go's `json.Unmarshal` into `[]core.Toleration` reads
/// them, or its error.
pub(super) fn decode(text: &str) -> Result<Vec<Value>, String> {
    match go_decode::decode(text, &TOLERATIONS)? {
        Value::Array(items) => Ok(items),
        _ => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
                r#"[{"tolerationSeconds":1e3}]"#,
                "json: cannot unmarshal number 1e3 into Go struct field Toleration.tolerationSeconds of type int64",
            ),
            (
                // In the order written, not the order of the names.
                r#"[{"value":1,"key":true}]"#,
                "json: cannot unmarshal number into Go struct field Toleration.value of type string",
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
