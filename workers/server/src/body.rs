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
