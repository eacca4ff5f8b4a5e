//! The `continue` token of a paged LIST. Must hold: a refusal is a 400 `Status`
//! (`continue key is not valid: …`); an accepted token resumes at a key inside the listed
//! prefix (not absolute, no `..`) at a positive revision, and encoding those again gives a
//! token that decodes to the same.
#![no_main]

use kas_server::fuzzing::{decode_continue, encode_continue};
use kas_server::status::Reason;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(token) = std::str::from_utf8(data) else {
        return;
    };
    match decode_continue(token) {
        Ok((start, rev)) => {
            assert!(rev > 0, "{rev}");
            assert!(
                !start.starts_with('/') && !start.split('/').any(|p| p == ".."),
                "{start:?}"
            );
            let again = encode_continue(&start, rev);
            assert_eq!(decode_continue(&again).ok(), Some((start, rev)));
        }
        Err(status) => {
            assert_eq!(status.reason, Reason::BadRequest, "{status:?}");
            assert!(status.message.starts_with("continue key is not valid: "));
        }
    }
});
