//! The query of a LIST, WATCH or write as a client sends it (`labelSelector`,
//! `fieldSelector`, `limit`, `continue`, `resourceVersion`, `resourceVersionMatch`,
//! `timeoutSeconds`, `dryRun`, `fieldValidation`, `fieldManager`; percent-encoding,
//! repeated keys). Must hold: no panic, and a refusal is a 4xx `Status`.
#![no_main]

mod requests;

use kas_server::fuzzing::{list_query, write_query};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(query) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(s) = list_query(query) {
        requests::assert_client_error(&s, "list query");
    }
    if let Err(s) = write_query(query) {
        requests::assert_client_error(&s, "write query");
    }
});
