//! A conversion webhook's answer (ConversionReview apiextensions.k8s.io/v1 and v1beta1)
//! as the extensions worker checks it: the converted objects (as many as sent, each in
//! the desired version, of the same kind, name, namespace and uid, with the original's
//! metadata but the converted labels and annotations), or the message of the 500 the
//! client gets, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

const UID: &str = "0000-1111-2222";
const WANT: &str = "example.com/v2";

fuzz_target!(|data: &[u8]| {
    let Ok(answer) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    if !answer.is_object() {
        return;
    }
    let widget = |name: &str| {
        json!({"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": name, "namespace": "default", "uid": format!("uid-{name}"),
                "labels": {"a": "b"}, "resourceVersion": "7"},
            "spec": {"size": 1}})
    };
    let one = [widget("w")];
    let two = [widget("w"), widget("x")];
    for version in ["v1", "v1beta1"] {
        for objects in [&one[..], &two[..]] {
            match kas_extensions::fuzzing::conversion_answer(
                version,
                UID,
                objects,
                WANT,
                answer.clone(),
            ) {
                Ok(converted) => {
                    assert_eq!(converted.len(), objects.len());
                    for (o, c) in objects.iter().zip(&converted) {
                        assert_eq!(c["apiVersion"], WANT);
                        assert_eq!(c["kind"], o["kind"]);
                        for f in ["name", "namespace", "uid", "resourceVersion"] {
                            assert_eq!(c["metadata"][f], o["metadata"][f], "{f}");
                        }
                    }
                }
                Err(message) => assert!(!message.is_empty()),
            }
        }
    }
});
