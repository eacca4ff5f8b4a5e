//! Content negotiation of a response from the `Accept` header (quality values, wildcards,
//! `as=Table;g=meta.k8s.io;v=v1`, `as=PartialObjectMetadata…`, several headers). Must
//! hold: the answer is a media type the endpoint serves with a conversion it allowed, or
//! a 406 `Status` naming what it serves; an absent or empty header picks the first.
#![no_main]

use http::header::{HeaderMap, HeaderValue, ACCEPT};
use kas_server::negotiate::{negotiate, Conversion, Media, Negotiated, ALL_MEDIA};
use kas_server::status::Reason;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut headers = HeaderMap::new();
    for part in data.split(|&b| b == b'\n') {
        if let Ok(v) = HeaderValue::from_bytes(part) {
            headers.append(ACCEPT, v);
        }
    }
    for media in [
        ALL_MEDIA,
        &[Media::Json][..],
        &[Media::Protobuf, Media::Json][..],
    ] {
        let allowed = |m: Media, c: Conversion| c == Conversion::None || m != Media::Protobuf;
        match negotiate(&headers, media, allowed) {
            Ok(n) => {
                assert!(media.contains(&n.media), "{n:?} not served");
                assert!(allowed(n.media, n.conversion), "{n:?} not allowed");
            }
            Err(s) => {
                assert_eq!(s.reason, Reason::NotAcceptable, "{s:?}");
                assert!(!blank(&headers), "a blank Accept is refused: {s:?}");
            }
        }
        if blank(&headers) {
            let first = Negotiated {
                media: media[0],
                conversion: Conversion::None,
            };
            assert_eq!(negotiate(&headers, media, allowed).ok(), Some(first));
        }
    }
});

/// No `Accept` header, or only blank ones (values that are not text are not read).
fn blank(headers: &HeaderMap) -> bool {
    let values: Vec<&str> = headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    values.join(",").trim().is_empty()
}
