//! The legacy node annotations kube-apiserver 1.33 still validates
//! (ValidateNodeSpecificAnnotations), each only when its value is not empty:
//! `scheduler.alpha.kubernetes.io/taints`, read with Go's `encoding/json` into
//! `[]core.Taint` and then checked as `spec.taints` are (under
//! `metadata.annotations.<key>[i]`), and `scheduler.alpha.kubernetes.io/preferAvoidPods`,
//! read into `v1.AvoidPods`, whose entries must name a controller. A value the decoder
//! refuses is reported with the decoder's error (the field `metadata.annotations` for
//! taints, `metadata.annotations.AvoidPods` for avoid-pods, as upstream names them).
//!
//! Departure: an entry whose `podController` has no `controller` makes upstream's
//! validation dereference a nil pointer (a 500 "This request caused apiserver to
//! panic"); here it is refused as `controller: false` is, "must point to a controller".

use kas_server::status::StatusCause;
use serde_json::{Map, Value};

use super::causes::{invalid, invalid_shown, required};
use super::go_decode::{self, Struct, Ty};

/// The legacy taints annotation.
pub(super) const TAINTS: &str = "scheduler.alpha.kubernetes.io/taints";
/// The legacy avoid-pods annotation.
pub(super) const AVOID_PODS: &str = "scheduler.alpha.kubernetes.io/preferAvoidPods";

static TAINT: Struct = Struct {
    go_type: "core.Taint",
    fields: &[
        ("key", Ty::Str("string")),
        ("value", Ty::Str("string")),
        ("effect", Ty::Str("core.TaintEffect")),
        ("timeAdded", Ty::Time),
    ],
};
static TAINT_LIST: Ty = Ty::Slice("[]core.Taint", &Ty::Struct(&TAINT));

static OWNER: Struct = Struct {
    go_type: "v1.OwnerReference",
    fields: &[
        ("apiVersion", Ty::Str("string")),
        ("kind", Ty::Str("string")),
        ("name", Ty::Str("string")),
        ("uid", Ty::Str("types.UID")),
        ("controller", Ty::Bool),
        ("blockOwnerDeletion", Ty::Bool),
    ],
};
static SIGNATURE: Struct = Struct {
    go_type: "v1.PodSignature",
    fields: &[("podController", Ty::Struct(&OWNER))],
};
static ENTRY: Struct = Struct {
    go_type: "v1.PreferAvoidPodsEntry",
    fields: &[
        ("podSignature", Ty::Struct(&SIGNATURE)),
        ("evictionTime", Ty::Time),
        ("reason", Ty::Str("string")),
        ("message", Ty::Str("string")),
    ],
};
static AVOID: Struct = Struct {
    go_type: "v1.AvoidPods",
    fields: &[(
        "preferAvoidPods",
        Ty::Slice("[]v1.PreferAvoidPodsEntry", &Ty::Struct(&ENTRY)),
    )],
};
static AVOID_DOC: Ty = Ty::Struct(&AVOID);

/// Checks the node's legacy annotations; `taints` validates a taint list under a path.
pub(super) fn check(
    annotations: Option<&Map<String, Value>>,
    taints: impl Fn(&[Value], &str, &mut Vec<StatusCause>),
    out: &mut Vec<StatusCause>,
) {
    const AT: &str = "metadata.annotations";
    let get = |k: &str| {
        annotations
            .and_then(|m| m.get(k))
            .and_then(Value::as_str)
            .filter(|v| !v.is_empty())
    };
    if let Some(text) = get(TAINTS) {
        match go_decode::decode(text, &TAINT_LIST) {
            Err(e) => out.push(invalid(AT, TAINTS, &e)),
            Ok(Value::Array(list)) => taints(&list, &format!("{AT}.{TAINTS}"), out),
            Ok(_) => {}
        }
    }
    if let Some(text) = get(AVOID_PODS) {
        match go_decode::decode(text, &AVOID_DOC) {
            Err(e) => out.push(invalid(&format!("{AT}.AvoidPods"), AVOID_PODS, &e)),
            Ok(doc) => {
                let entries = doc.get("preferAvoidPods").and_then(Value::as_array);
                for (i, entry) in entries.into_iter().flatten().enumerate() {
                    let at = format!("{AT}.{AVOID_PODS}[{i}].PodSignature");
                    match entry.pointer("/podSignature/podController") {
                        None => out.push(required(&at, "")),
                        Some(owner) if owner.get("controller") != Some(&Value::Bool(true)) => out
                            .push(invalid_shown(
                                &format!("{at}.PodController.Controller"),
                                "false",
                                "must point to a controller",
                            )),
                        Some(_) => {}
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::causes::messages;
    use super::*;

    fn run(annotations: Value) -> Vec<String> {
        let mut out = Vec::new();
        let taints = |list: &[Value], at: &str, out: &mut Vec<StatusCause>| {
            for (i, t) in list.iter().enumerate() {
                out.push(invalid(&format!("{at}[{i}]"), &t.to_string(), "seen"));
            }
        };
        check(annotations.as_object(), taints, &mut out);
        messages(&out)
    }

    #[test]
    fn taints_are_decoded_then_validated_under_the_annotation() {
        assert_eq!(
            run(json!({TAINTS: r#"[{"key":"k","effect":"NoSchedule","timeAdded":"2024-01-01T00:00:00Z"}]"#})),
            vec![format!(
                "metadata.annotations.{TAINTS}[0]: Invalid value: \"{{\\\"effect\\\":\\\"NoSchedule\\\",\\\"key\\\":\\\"k\\\",\\\"timeAdded\\\":\\\"2024-01-01T00:00:00Z\\\"}}\": seen"
            )]
        );
        assert_eq!(run(json!({TAINTS: ""})), Vec::<String>::new());
        assert_eq!(
            run(json!({TAINTS: r#"[{"key":"k","timeAdded":"today"}]"#})),
            vec![format!(
                "metadata.annotations: Invalid value: \"{TAINTS}\": parsing time \"today\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"today\" as \"2006\""
            )]
        );
        assert_eq!(
            run(json!({TAINTS: r#"[{"key":1}]"#})),
            vec![format!(
                "metadata.annotations: Invalid value: \"{TAINTS}\": json: cannot unmarshal number into Go struct field Taint.key of type string"
            )]
        );
    }

    #[test]
    fn avoid_pods_entries_must_name_a_controller() {
        let doc = r#"{"preferAvoidPods":[
            {"podSignature":{"podController":{"kind":"ReplicaSet","name":"r","uid":"u","controller":true}},"evictionTime":"2024-01-01T00:00:00Z"},
            {"podSignature":{}},
            {"podSignature":{"podController":{"controller":false}}},
            {"podSignature":{"podController":{}}}
        ]}"#;
        let at = format!("metadata.annotations.{AVOID_PODS}");
        assert_eq!(
            run(json!({AVOID_PODS: doc})),
            vec![
                format!("{at}[1].PodSignature: Required value"),
                format!("{at}[2].PodSignature.PodController.Controller: Invalid value: false: must point to a controller"),
                format!("{at}[3].PodSignature.PodController.Controller: Invalid value: false: must point to a controller"),
            ]
        );
        assert_eq!(
            run(json!({AVOID_PODS: r#"{"preferAvoidPods":[{"podSignature":{"podController":{"uid":7}}}]}"#})),
            vec![format!(
                "metadata.annotations.AvoidPods: Invalid value: \"{AVOID_PODS}\": json: cannot unmarshal number into Go struct field OwnerReference.preferAvoidPods.podSignature.podController.uid of type types.UID"
            )]
        );
        assert_eq!(
            run(json!({AVOID_PODS: "[]"})),
            vec![format!(
                "metadata.annotations.AvoidPods: Invalid value: \"{AVOID_PODS}\": json: cannot unmarshal array into Go value of type v1.AvoidPods"
            )]
        );
    }
}
