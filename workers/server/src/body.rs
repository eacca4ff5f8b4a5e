//! The one HTTP body type used across the workers, so local answers and proxied streams
//! share a type.

use bytes::Bytes;
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Empty, Full};

/// A boxed error, as bodies from different sources fail differently.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The body of every request and response the workers handle.
pub type Body = UnsyncBoxBody<Bytes, BoxError>;

/// A body holding `bytes`.
pub fn full(bytes: impl Into<Bytes>) -> Body {
    Full::new(bytes.into())
        .map_err(|never| match never {})
        .boxed_unsync()
}

/// An empty body.
pub fn empty() -> Body {
    Empty::new().map_err(|never| match never {}).boxed_unsync()
}

/// Boxes any body whose error converts into [`BoxError`].
pub fn boxed<B>(body: B) -> Body
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    body.map_err(Into::into).boxed_unsync()
}

/// Why [`read_limited`] gave up.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The body is larger than the limit.
    #[error("the body is larger than {0} bytes")]
    TooLarge(usize),
    /// The body failed before its end.
    #[error("{0}")]
    Failed(String),
}

/// Reads a whole body of at most `limit` bytes. A plain frame loop rather than
/// `http_body_util::Limited`, whose error conversion bound trips rustc's higher-ranked
/// `Send` inference for the futures that await it on a [`Body`].
pub async fn read_limited(mut body: Body, limit: usize) -> Result<Bytes, ReadError> {
    let mut buf = bytes::BytesMut::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| ReadError::Failed(e.to_string()))?;
        if let Ok(data) = frame.into_data() {
            if buf.len() + data.len() > limit {
                return Err(ReadError::TooLarge(limit));
            }
            buf.extend_from_slice(&data);
        }
    }
    Ok(buf.freeze())
}
