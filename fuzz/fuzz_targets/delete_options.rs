//! The body of a DELETE (DeleteOptions, optional) as JSON and as YAML. Must hold: no
//! panic; a refusal is a 4xx `Status`; a body of only whitespace is no options.
#![no_main]

mod requests;

use kas_server::fuzzing::delete_options;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for ctype in ["application/json", "application/yaml"] {
        match delete_options(ctype, data) {
            Ok(None) => assert!(data.iter().all(u8::is_ascii_whitespace)),
            Ok(Some(_)) => {}
            Err(s) => requests::assert_client_error(&s, "delete options"),
        }
    }
});
