//! An admission webhook's answer as the webhook client decodes it and the dispatcher
//! checks it (AdmissionReview admission.k8s.io/v1 and v1beta1, validating and mutating,
//! with a base64 JSONPatch applied to the object): the request goes on, or the webhook's
//! failure is the Status upstream answers — a 500 `failed calling webhook` for an
//! answer that is not a valid review, the denial's own 4xx/5xx code, a 500 for a patch
//! that does not apply — never a panic.
#![no_main]

use kas_server::status::Reason;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

const UID: &str = "705ab4f5-6393-11e8-b7cc-42010a800002";

fuzz_target!(|data: &[u8]| {
    // The client's decoding: a JSON object, else a failed call.
    let Ok(answer) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    if !answer.is_object() {
        return;
    }
    for (version, mutating) in [
        ("v1", true),
        ("v1", false),
        ("v1beta1", true),
        ("v1beta1", false),
    ] {
        let original = json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "p", "namespace": "default", "labels": {"app": "web"}},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]},
        });
        let mut obj = original.clone();
        match kas_admission::fuzzing::admission_answer(UID, version, mutating, &answer, &mut obj) {
            Ok(changed) => {
                assert!(
                    mutating || !changed,
                    "a validating webhook changed the object"
                );
                assert_eq!(
                    changed,
                    obj != original,
                    "`changed` does not say whether it changed"
                );
            }
            Err(status) => {
                assert_eq!(obj, original, "a refused answer still changed the object");
                let code = status.reason.code();
                assert!((400..600).contains(&code), "{status:?}");
                assert!(!status.message.is_empty(), "{status:?}");
                if status.reason == Reason::InternalError {
                    assert_eq!(code, 500);
                }
            }
        }
    }
});
