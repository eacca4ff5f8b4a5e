//! `labelSelector` as a client sends it: any string parses or is refused with a 400
//! `Status`, never a panic.
#![no_main]

use kas_server::selectors::LabelSelector;
use kas_server::status::Reason;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(status) = LabelSelector::parse(text) {
        assert_eq!(status.reason, Reason::BadRequest, "{status:?}");
    }
});
