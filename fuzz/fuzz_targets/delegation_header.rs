//! The request context the front door attaches to a delegated request
//! (`x-kube-apiserver-rs-context`: base64url of bincode): any header value decodes to a
//! context or to a typed error (which the worker answers with a 400 `Status`), never a
//! panic; a decoded context encodes to a header-safe value that decodes to the same
//! context.
#![no_main]

use kas_proto::{Error, RequestContext};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match RequestContext::from_header_value(data) {
        Ok(ctx) => {
            let value = ctx.to_header_value().expect("a decoded context encodes");
            assert!(
                value
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
                "not a header-safe value: {value:?}"
            );
            let again = RequestContext::from_header_value(value.as_bytes())
                .expect("an encoded context decodes");
            assert_eq!(again, ctx, "decode → encode → decode changed the context");
        }
        Err(Error::Decode(_) | Error::Malformed(_)) => {}
        Err(e) => panic!("unexpected error kind: {e:?}"),
    }
});
