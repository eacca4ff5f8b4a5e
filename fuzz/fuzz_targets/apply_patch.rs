//! A server-side apply body (`application/apply-patch+yaml`, YAML or JSON) applied to
//! stored objects of several kinds through the field manager (forced, one manager).
//! Must hold: a refusal is a 4xx `Status`, or upstream's 500 without a reason for a
//! configuration that does not fit the type ("failed to create typed patch object");
//! an accepted configuration applied again to its own result changes nothing.
#![no_main]

mod requests;

use kas_server::fuzzing::patch;
use libfuzzer_sys::fuzz_target;

const APPLY: &str = "application/apply-patch+yaml";

fuzz_target!(|data: &[u8]| {
    for (resource, stored) in requests::stored_objects() {
        match patch(&resource, APPLY, &stored, data) {
            Ok(once) => {
                let twice = patch(&resource, APPLY, &once, data);
                assert_eq!(twice.as_ref().ok(), Some(&once), "apply is idempotent");
            }
            Err(s) => requests::assert_client_error(&s, "apply patch"),
        }
    }
});
