//! A custom resource against a fuzzed schema, as the extensions worker writes it:
//! `{"schema": <openAPIV3Schema>, "object": …, "oldObject": …}`. The schema must be one
//! a CRD is accepted with (wrapped in a minimal CRD and validated); then the object is
//! pruned, defaulted and validated (value checks, list types, embedded resources, CEL
//! rules with ratcheting against `oldObject`): accepted, or refused with a 422 `Invalid`
//! Status with causes, never a panic. Pruning is idempotent.
#![no_main]

#[path = "common/cel_panics.rs"]
mod cel_panics;

use kas_server::status::Reason;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

fuzz_target!(init: cel_panics::tolerate_caught_cel_panics(), |data: &[u8]| {
    let Ok(input) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let (Some(schema), Some(obj)) = (input.get("schema"), input.get("object")) else {
        return;
    };
    let old = input.get("oldObject");
    let crd = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}],
        },
    });
    if kas_extensions::fuzzing::create_crd(crd).is_err() {
        return;
    }
    match kas_extensions::fuzzing::write_custom(schema, obj.clone(), old) {
        Some(Ok(written)) => {
            let structural = kas_crd::Structural::from_json(schema).expect("structural");
            let mut again = written.clone();
            let unknown = kas_crd::prune(&structural, &mut again);
            assert!(unknown.is_empty(), "pruning again dropped {unknown:?}");
            assert_eq!(again, written, "pruning is not idempotent");
        }
        Some(Err(status)) => {
            assert_eq!(status.reason, Reason::Invalid, "{status:?}");
            let causes = status.details.as_ref().map(|d| d.causes.len()).unwrap_or(0);
            assert!(causes > 0, "a 422 without causes: {status:?}");
        }
        None => panic!("an accepted CRD's schema is not structural"),
    }
});
