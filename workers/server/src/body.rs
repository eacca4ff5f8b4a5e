//! The one HTTP body type used across the workers, so local answers and proxied streams
//! share a type.

use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

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

/// `body`, holding `guard` until the body is dropped: sent to its end, or given up when
/// the client went (an in-flight slot, a stream count).
pub fn hold<T: Send + 'static>(body: Body, guard: T) -> Body {
    body.map_frame(move |frame| {
        // The closure owns `guard`, so it lives exactly as long as the body.
        let _ = &guard;
        frame
    })
    .boxed_unsync()
}

/// `body`, cut off at `deadline` if it has not ended by then, whether or not anything is
/// polling it (a client that stopped reading leaves hyper no reason to): the body is
/// dropped with what it holds (a delegated stream and its window, an in-flight slot),
/// `expired` runs, and the next poll gets [`DeadlinePassed`] — hyper then closes an
/// HTTP/1 connection and resets an HTTP/2 stream, as kube-apiserver's timeout filter
/// aborts a handler still writing at `--request-timeout`.
pub fn with_deadline(
    body: Body,
    deadline: tokio::time::Instant,
    expired: impl FnOnce() + Send + 'static,
) -> Body {
    let inner = Arc::new(Mutex::new(Some(body)));
    let (ended, gone) = tokio::sync::oneshot::channel::<()>();
    let held = inner.clone();
    tokio::spawn(async move {
        tokio::select! {
            () = tokio::time::sleep_until(deadline) => {}
            _ = gone => return,
        }
        let cut = held.lock().ok().and_then(|mut b| b.take());
        if cut.is_some() {
            drop(cut);
            expired();
        }
    });
    Deadline {
        inner,
        _ended: Some(ended),
    }
    .boxed_unsync()
}

struct Deadline {
    inner: Arc<Mutex<Option<Body>>>,
    /// Dropped when the body ends or goes, which stops the timer.
    _ended: Option<tokio::sync::oneshot::Sender<()>>,
}

/// The error a body cut off by [`with_deadline`] ends with.
#[derive(Debug, thiserror::Error)]
#[error("the response was not sent within the request timeout")]
pub struct DeadlinePassed;

impl hyper::body::Body for Deadline {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, BoxError>>> {
        let Ok(mut inner) = self.inner.lock() else {
            return Poll::Ready(Some(Err(Box::new(DeadlinePassed))));
        };
        let Some(body) = inner.as_mut() else {
            return Poll::Ready(Some(Err(Box::new(DeadlinePassed))));
        };
        let frame = Pin::new(body).poll_frame(cx);
        drop(inner);
        if let Poll::Ready(None) = frame {
            self._ended = None;
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.inner
            .lock()
            .is_ok_and(|b| b.as_ref().is_some_and(|b| b.is_end_stream()))
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner
            .lock()
            .ok()
            .and_then(|b| b.as_ref().map(|b| b.size_hint()))
            .unwrap_or_default()
    }
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    use super::*;

    /// Sets its flag when dropped.
    struct Dropped(Arc<AtomicBool>);

    impl Drop for Dropped {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    /// A body nobody polls is still cut off at its deadline: what it holds is released and
    /// the next poll fails. One that ends in time is left alone.
    #[tokio::test(start_paused = true)]
    async fn a_body_is_cut_off_at_its_deadline_even_unpolled() {
        let (released, expired) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
        );
        let (_tx, endless) = http_body_util::channel::Channel::<Bytes, BoxError>::new(1);
        let inner = hold(boxed(endless), Dropped(released.clone()));
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        let flag = expired.clone();
        let mut body = with_deadline(inner, deadline, move || flag.store(true, Ordering::SeqCst));
        tokio::time::sleep(Duration::from_secs(59)).await;
        assert!(!released.load(Ordering::SeqCst));
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert!(
            released.load(Ordering::SeqCst),
            "the inner body was dropped"
        );
        assert!(expired.load(Ordering::SeqCst));
        let frame = body.frame().await.expect("a frame");
        assert!(frame.unwrap_err().is::<DeadlinePassed>());

        let expired = Arc::new(AtomicBool::new(false));
        let flag = expired.clone();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        let body = with_deadline(full("done"), deadline, move || {
            flag.store(true, Ordering::SeqCst)
        });
        assert_eq!(body.collect().await.expect("body").to_bytes(), "done");
        tokio::time::sleep(Duration::from_secs(120)).await;
        assert!(!expired.load(Ordering::SeqCst));
    }
}
