//! The `Content-Type` of a request body (create/update and PATCH): parameters, case,
//! unknown and malformed types. Must hold: an unsupported type is a 415 `Status`; a body
//! type the server takes decodes the same kubectl body as its canonical name does.
#![no_main]

mod requests;

use kas_server::fuzzing::{decode_body, patch};
use kas_server::rest::FieldValidation;
use kas_server::status::Reason;
use libfuzzer_sys::fuzz_target;

const POD: &[u8] = br#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0"},"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}"#;

fuzz_target!(|data: &[u8]| {
    let Ok(ctype) = std::str::from_utf8(data) else {
        return;
    };
    let resource = requests::resource_for(POD);
    match decode_body(&resource, ctype, POD, FieldValidation::Strict) {
        Ok(got) => {
            let json = decode_body(&resource, "application/json", POD, FieldValidation::Strict);
            assert_eq!(json.ok(), Some(got), "{ctype:?} decodes JSON as JSON does");
        }
        Err(s) => requests::assert_client_error(&s, "body content type"),
    }
    let (resource, stored) = requests::stored_objects().swap_remove(3);
    if let Err(s) = patch(&resource, ctype, &stored, br#"{"data":{"c":"3"}}"#) {
        requests::assert_client_error(&s, "patch content type");
        if s.reason != Reason::UnsupportedMediaType {
            assert_eq!(s.reason, Reason::BadRequest, "{s:?}");
        }
    }
});
