//! A JSON patch (`application/json-patch+json`, RFC 6902) applied to stored objects of
//! several kinds. Must hold: no panic, and a refusal (not a list of operations, a bad
//! path, a failed `test`) is a 4xx `Status`.
#![no_main]

mod requests;

use kas_server::fuzzing::patch;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for (resource, stored) in requests::stored_objects() {
        if let Err(s) = patch(&resource, "application/json-patch+json", &stored, data) {
            requests::assert_client_error(&s, "json patch");
        }
    }
});
