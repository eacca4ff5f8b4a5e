//! An object (JSON) through every built-in resource's defaulting and validation, as a
//! create and as an update: `[new, old]` when the input is a pair, else the object over
//! itself. Must hold: no panic; validation only ever answers with causes.
#![no_main]

use kas_kube_api::fuzzing::validate_builtin;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(v) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    match v.as_array().map(Vec::as_slice) {
        Some([new, old]) => validate_builtin(new, old),
        _ => validate_builtin(&v, &v),
    };
});
