//! ControllerRevisions (apps/v1) as kube-apiserver 1.33 validates them.

use kas_server::status::StatusCause;
use serde_json::Value;

use super::causes::{invalid_int, invalid_shown, required, IMMUTABLE_MSG, NEGATIVE_MSG};

/// A ControllerRevision (apps/v1): a non-negative revision and object data, which
/// never changes.
pub(crate) fn controller_revision(o: &Value, old: Option<&Value>) -> Vec<StatusCause> {
    let mut out = Vec::new();
    if let Some(n) = o.get("revision").and_then(Value::as_i64).filter(|n| *n < 0) {
        out.push(invalid_int("revision", n, NEGATIVE_MSG));
    }
    match old {
        None => match o.get("data") {
            None | Some(Value::Null) => out.push(required("data", "data is mandatory")),
            Some(Value::Object(_)) => {}
            Some(_) => out.push(required("data", "data must be a valid JSON object")),
        },
        Some(old) => {
            if old.get("data") != o.get("data") {
                let raw = o.get("data").map(Value::to_string).unwrap_or_default();
                let bytes: Vec<String> = raw.bytes().map(|b| format!("{b:#x}")).collect();
                let shown = format!(
                    "runtime.RawExtension{{Raw:[]uint8{{{}}}, Object:runtime.Object(nil)}}",
                    bytes.join(", ")
                );
                out.push(invalid_shown("data", &shown, IMMUTABLE_MSG));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::validation::causes::messages;

    #[test]
    fn revision_and_data() {
        assert!(controller_revision(&json!({"revision": 1, "data": {"a": 1}}), None).is_empty());
        assert_eq!(
            messages(&controller_revision(
                &json!({"revision": -1, "data": 3}),
                None
            )),
            [
                "revision: Invalid value: -1: must be greater than or equal to 0",
                "data: Required value: data must be a valid JSON object",
            ]
        );
        assert_eq!(
            messages(&controller_revision(&json!({"revision": 1}), None)),
            ["data: Required value: data is mandatory"]
        );
        let old = json!({"revision": 1, "data": {"a": 1}});
        let new = json!({"revision": 2, "data": {"a": 2}});
        assert_eq!(
            messages(&controller_revision(&new, Some(&old))),
            ["data: Invalid value: runtime.RawExtension{Raw:[]uint8{0x7b, 0x22, 0x61, 0x22, 0x3a, 0x32, 0x7d}, Object:runtime.Object(nil)}: field is immutable"]
        );
    }
}
