//! Response compression as kube-apiserver 1.33 does it (APIResponseCompression, on by
//! default; `responsewriters.deferredResponseWriter`): an API object response larger
//! than 128 KiB goes out gzip-compressed at level 1 when the request's
//! `Accept-Encoding` lists the token `gzip`, with `Content-Encoding: gzip` and
//! `Vary: Accept-Encoding`. Smaller responses, watches, logs, upgrades and proxied
//! bodies are never compressed.
//!
//! Like upstream, the decision waits for the first 128 KiB (a streamed LIST arrives in
//! pieces): the bytes seen so far are held, then sent compressed ahead of the rest, so
//! a large list is still streamed, never buffered whole.

use std::io::Write;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use flate2::write::GzEncoder;
use futures_util::StreamExt;
use http::header::{CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, VARY};
use http::{HeaderMap, HeaderValue, Response};
use http_body_util::BodyExt;
use hyper::body::{Body as HttpBody, Frame, SizeHint};

use crate::body::{self, Body, BoxError};

/// Responses up to this size are sent as they are.
pub const THRESHOLD: usize = 128 * 1024;

/// `data` gzip-compressed at level 1, whole (for small internal payloads).
pub fn gzip(data: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::new(1));
    encoder.write_all(data).ok()?;
    encoder.finish().ok()
}

/// Whether the request's `Accept-Encoding` lists `gzip` (as a bare token, as upstream
/// reads it: `gzip;q=0.5` does not count).
pub fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(http::header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "gzip")
}

/// Whether a response is an API object upstream would serialize (and so may compress):
/// JSON, YAML or protobuf, not a watch stream, not already encoded.
fn compressible(resp: &Response<Body>) -> bool {
    let ctype = resp
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let api_media = [
        "application/json",
        "application/yaml",
        "application/vnd.kubernetes.protobuf",
    ]
    .iter()
    .any(|m| ctype.starts_with(m));
    api_media
        && !ctype.contains("stream=watch")
        && !resp.headers().contains_key(CONTENT_ENCODING)
        && resp.status() != http::StatusCode::SWITCHING_PROTOCOLS
}

/// `resp`, gzip-compressed when `gzip` is accepted and it is an API object response
/// over [`THRESHOLD`] bytes.
pub async fn compress(resp: Response<Body>, gzip: bool) -> Response<Body> {
    if !gzip || !compressible(&resp) {
        return resp;
    }
    if resp
        .body()
        .size_hint()
        .upper()
        .is_some_and(|n| n <= THRESHOLD as u64)
    {
        return resp;
    }
    let (mut parts, mut incoming) = resp.into_parts();
    let mut held = BytesMut::new();
    while held.len() <= THRESHOLD {
        match incoming.frame().await {
            None => return Response::from_parts(parts, body::full(held.freeze())),
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    held.extend_from_slice(&data);
                }
            }
            // The body failed before anything was sent: what was read so far, then
            // the same failure (the connection is cut, as it would have been).
            Some(Err(e)) => {
                let rest = futures_util::stream::iter([Err::<Frame<Bytes>, BoxError>(e)]);
                let failed = http_body_util::StreamBody::new(rest).boxed_unsync();
                return Response::from_parts(parts, chain(held.freeze(), failed));
            }
        }
    }
    parts.headers.remove(CONTENT_LENGTH);
    parts
        .headers
        .insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    parts
        .headers
        .append(VARY, HeaderValue::from_static("Accept-Encoding"));
    let body = Gzip {
        inner: chain(held.freeze(), incoming),
        encoder: Some(GzEncoder::new(Vec::new(), flate2::Compression::new(1))),
    };
    Response::from_parts(parts, body.boxed_unsync())
}

/// `first`, then `rest`.
fn chain(first: Bytes, rest: Body) -> Body {
    let head = futures_util::stream::iter([Ok::<_, BoxError>(Frame::data(first))]);
    let frames = head.chain(http_body_util::BodyStream::new(rest));
    http_body_util::StreamBody::new(frames).boxed_unsync()
}

/// A body gzip-compressed as it streams.
struct Gzip {
    inner: Body,
    /// None once the gzip trailer is out.
    encoder: Option<GzEncoder<Vec<u8>>>,
}

impl HttpBody for Gzip {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        loop {
            if self.encoder.is_none() {
                return Poll::Ready(None);
            }
            match Pin::new(&mut self.inner).poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e))),
                Poll::Ready(Some(Ok(frame))) => {
                    let Ok(data) = frame.into_data() else {
                        continue;
                    };
                    let Some(encoder) = self.encoder.as_mut() else {
                        return Poll::Ready(None);
                    };
                    if let Err(e) = encoder.write_all(&data) {
                        return Poll::Ready(Some(Err(e.into())));
                    }
                    let out = std::mem::take(encoder.get_mut());
                    if !out.is_empty() {
                        return Poll::Ready(Some(Ok(Frame::data(out.into()))));
                    }
                }
                Poll::Ready(None) => {
                    let Some(encoder) = self.encoder.take() else {
                        return Poll::Ready(None);
                    };
                    return match encoder.finish() {
                        Ok(out) => Poll::Ready(Some(Ok(Frame::data(out.into())))),
                        Err(e) => Poll::Ready(Some(Err(e.into()))),
                    };
                }
            }
        }
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn json(n: usize) -> Response<Body> {
        let mut resp = Response::new(body::full(vec![b'x'; n]));
        resp.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        resp
    }

    async fn bytes(resp: Response<Body>) -> Vec<u8> {
        resp.into_body()
            .collect()
            .await
            .map(|c| c.to_bytes().to_vec())
            .unwrap_or_default()
    }

    #[test]
    fn gzip_is_a_bare_token() {
        let mut h = HeaderMap::new();
        h.insert(
            http::header::ACCEPT_ENCODING,
            HeaderValue::from_static("deflate, gzip"),
        );
        assert!(accepts_gzip(&h));
        h.insert(
            http::header::ACCEPT_ENCODING,
            HeaderValue::from_static("gzip;q=1"),
        );
        assert!(!accepts_gzip(&h));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[tokio::test]
    async fn only_large_api_responses_are_compressed() {
        let small = compress(json(THRESHOLD), true).await;
        assert!(!small.headers().contains_key(CONTENT_ENCODING));
        assert_eq!(bytes(small).await.len(), THRESHOLD);

        let unasked = compress(json(THRESHOLD + 1), false).await;
        assert!(!unasked.headers().contains_key(CONTENT_ENCODING));

        let mut log = json(THRESHOLD + 1);
        log.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        assert!(!compress(log, true)
            .await
            .headers()
            .contains_key(CONTENT_ENCODING));

        let big = compress(json(THRESHOLD + 1), true).await;
        assert_eq!(big.headers()[CONTENT_ENCODING], "gzip");
        assert_eq!(big.headers()[VARY], "Accept-Encoding");
        let zipped = bytes(big).await;
        assert!(zipped.len() < 2000, "{}", zipped.len());
        let mut plain = Vec::new();
        flate2::read::GzDecoder::new(&zipped[..])
            .read_to_end(&mut plain)
            .expect("valid gzip");
        assert_eq!(plain, vec![b'x'; THRESHOLD + 1]);
    }

    #[tokio::test]
    async fn a_streamed_body_is_held_only_until_it_is_large() {
        let pieces: Vec<Result<Frame<Bytes>, BoxError>> = (0..300)
            .map(|i| Ok(Frame::data(Bytes::from(format!("{i:01000}")))))
            .collect();
        let streamed = http_body_util::StreamBody::new(futures_util::stream::iter(pieces));
        let mut resp = Response::new(streamed.boxed_unsync());
        resp.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let zipped = compress(resp, true).await;
        assert_eq!(zipped.headers()[CONTENT_ENCODING], "gzip");
        let mut plain = String::new();
        flate2::read::GzDecoder::new(&bytes(zipped).await[..])
            .read_to_string(&mut plain)
            .expect("valid gzip");
        let want: String = (0..300).map(|i| format!("{i:01000}")).collect();
        assert_eq!(plain, want);
    }
}
