//! A CustomResourceDefinition as the extensions worker creates it (decoded JSON, then
//! upstream's defaults and kas-crd's validation: names, versions, structural schemas,
//! `x-kubernetes-*` extensions, defaults, CEL rules): it is accepted, or refused with a
//! 422 `Invalid` Status whose causes carry a field and a known reason, never a panic.
//! An accepted CRD's schemas are structural, and a custom resource written against each
//! is accepted or refused with a 422 in turn.
#![no_main]

#[path = "common/cel_panics.rs"]
mod cel_panics;

use kas_server::status::{Reason, Status};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

const CAUSES: &[&str] = &[
    "FieldValueRequired",
    "FieldValueInvalid",
    "FieldValueNotSupported",
    "FieldValueForbidden",
    "FieldValueDuplicate",
    "FieldValueTooLong",
    "FieldValueTooMany",
    "FieldValueTypeInvalid",
    "FieldValueNotFound",
    "InternalError",
];

fn assert_invalid(status: &Status) {
    assert_eq!(status.reason, Reason::Invalid, "{status:?}");
    assert_eq!(status.reason.code(), 422);
    let causes = status
        .details
        .as_ref()
        .map(|d| d.causes.as_slice())
        .unwrap_or(&[]);
    assert!(!causes.is_empty(), "a 422 without causes: {status:?}");
    for c in causes {
        assert!(
            CAUSES.contains(&c.reason.as_str()),
            "unknown cause reason: {c:?}"
        );
        assert!(!c.message.is_empty(), "a cause without a message: {c:?}");
    }
}

fuzz_target!(init: cel_panics::tolerate_caught_cel_panics(), |data: &[u8]| {
    let Ok(crd) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    if !crd.is_object() {
        return;
    }
    let crd = match kas_extensions::fuzzing::create_crd(crd) {
        Ok(crd) => crd,
        Err(status) => return assert_invalid(&status),
    };
    assert_eq!(kas_crd::non_structural_schema_message(&crd), None, "{crd}");
    let versions = crd.pointer("/spec/versions").and_then(Value::as_array);
    for v in versions.into_iter().flatten() {
        let Some(schema) = v.pointer("/schema/openAPIV3Schema") else {
            continue;
        };
        if let Err(errs) = kas_crd::Structural::from_json(schema) {
            panic!("an accepted CRD has a non-structural schema: {errs:?}\n{crd}");
        }
        let obj = json!({
            "apiVersion": "example.com/v1",
            "kind": "Widget",
            "metadata": {"name": "w"},
            "spec": {},
        });
        match kas_extensions::fuzzing::write_custom(schema, obj, None) {
            Some(Err(status)) => assert_invalid(&status),
            Some(Ok(_)) => {}
            None => panic!("a structural schema was refused"),
        }
    }
});
