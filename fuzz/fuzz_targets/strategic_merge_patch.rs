//! A strategic merge patch (`application/strategic-merge-patch+json`) applied to stored
//! Pods, Deployments, Services and ConfigMaps with their merge keys and strategies
//! (directives `$patch`, `$retainKeys`, `$setElementOrder/…`, `$deleteFromPrimitiveList/…`
//! included). Must hold: no panic, and every refusal is a 4xx `Status` (400, or 422 for
//! lists of lists) — never a 500 (issue 21).
#![no_main]

mod requests;

use kas_server::fuzzing::patch;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for (resource, stored) in requests::stored_objects() {
        if let Err(s) = patch(
            &resource,
            "application/strategic-merge-patch+json",
            &stored,
            data,
        ) {
            requests::assert_client_error(&s, "strategic merge patch");
        }
    }
});
