//! A JSON merge patch (`application/merge-patch+json`, RFC 7386) applied to stored
//! objects of several kinds. Must hold: a refusal is a 4xx `Status`; an accepted patch
//! is idempotent (applied again to its own result it changes nothing).
#![no_main]

mod requests;

use kas_server::fuzzing::patch;
use libfuzzer_sys::fuzz_target;

const MERGE: &str = "application/merge-patch+json";

fuzz_target!(|data: &[u8]| {
    for (resource, stored) in requests::stored_objects() {
        match patch(&resource, MERGE, &stored, data) {
            Ok(once) => {
                let twice = patch(&resource, MERGE, &once, data);
                assert_eq!(
                    twice.as_ref().ok(),
                    Some(&once),
                    "merge patch is idempotent"
                );
            }
            Err(s) => requests::assert_client_error(&s, "merge patch"),
        }
    }
});
