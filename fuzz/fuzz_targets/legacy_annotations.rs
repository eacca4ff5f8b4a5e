//! Any text as the legacy annotations kube-apiserver reads with Go's JSON decoder (pod
//! tolerations, node taints and avoid-pods; RFC 3339 times inside): validated as pods and
//! nodes are. Must hold: no panic; a text is read or refused with causes.
#![no_main]

use kas_kube_api::fuzzing::legacy_annotations;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        legacy_annotations(text);
    }
});
