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

/// The most bytes [`joined`] copies into one frame.
const JOINED_FRAME: usize = 64 << 10;

/// `head`, the non-empty `items` separated by commas, then `tail`: a JSON list built from
/// objects already encoded (the watch cache's shared bytes). It is produced a frame of up
/// to 64 KiB at a time as the connection takes it, so a LIST of 32,000 objects holds
/// references to them and one frame, not a copy of the whole response, and other
/// requests on the worker run between its frames. Its exact length is known up front.
pub fn joined(head: Bytes, items: Vec<Bytes>, tail: Bytes) -> Body {
    joined_items(head, items.into_iter().map(Item::whole).collect(), tail)
}

/// One element of a [`joined_items`] list.
pub struct Item {
    /// Written before `bytes` (`{` for an object whose first fields were cut off).
    open: &'static [u8],
    bytes: Bytes,
}

impl Item {
    /// An element written as it is.
    pub fn whole(bytes: Bytes) -> Item {
        Item { open: b"", bytes }
    }

    /// An object whose encoding starts with `prefix` (`{"kind":"Pod","apiVersion":"v1",`),
    /// written without those fields; one that does not is written whole.
    pub fn without_prefix(bytes: Bytes, prefix: &[u8]) -> Item {
        if bytes.len() > prefix.len() && bytes.starts_with(prefix) {
            return Item {
                open: b"{",
                bytes: bytes.slice(prefix.len()..),
            };
        }
        Item::whole(bytes)
    }

    fn len(&self) -> usize {
        self.open.len() + self.bytes.len()
    }
}

/// [`joined`] of elements that may have their first fields cut off ([`Item`]).
pub fn joined_items(head: Bytes, items: Vec<Item>, tail: Bytes) -> Body {
    let items: std::collections::VecDeque<Item> =
        items.into_iter().filter(|i| !i.bytes.is_empty()).collect();
    let commas = items.len().saturating_sub(1);
    let len = head.len() + tail.len() + commas + items.iter().map(Item::len).sum::<usize>();
    Joined {
        head: Some(head),
        items,
        first: true,
        tail: Some(tail),
        remaining: len as u64,
    }
    .boxed_unsync()
}

struct Joined {
    head: Option<Bytes>,
    items: std::collections::VecDeque<Item>,
    /// No item sent yet (the next needs no comma).
    first: bool,
    tail: Option<Bytes>,
    remaining: u64,
}

impl hyper::body::Body for Joined {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        let mut frame = bytes::BytesMut::new();
        if let Some(head) = this.head.take() {
            frame.extend_from_slice(&head);
        }
        while frame.len() < JOINED_FRAME {
            let Some(item) = this.items.pop_front() else {
                if let Some(tail) = this.tail.take() {
                    frame.extend_from_slice(&tail);
                }
                break;
            };
            if !std::mem::take(&mut this.first) {
                frame.extend_from_slice(b",");
            }
            frame.extend_from_slice(item.open);
            frame.extend_from_slice(&item.bytes);
        }
        if frame.is_empty() {
            return Poll::Ready(None);
        }
        this.remaining = this.remaining.saturating_sub(frame.len() as u64);
        Poll::Ready(Some(Ok(hyper::body::Frame::data(frame.freeze()))))
    }

    fn is_end_stream(&self) -> bool {
        self.head.is_none() && self.items.is_empty() && self.tail.is_none()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        hyper::body::SizeHint::with_exact(self.remaining)
    }
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

    #[tokio::test]
    async fn joined_lists_come_in_frames_of_at_most_64_kib() {
        let item = Bytes::from(format!("\"{}\"", "a".repeat(998)));
        let items: Vec<Bytes> = (0..200)
            .map(|i| if i == 3 { Bytes::new() } else { item.clone() })
            .collect();
        let mut body = joined(Bytes::from_static(b"["), items, Bytes::from_static(b"]"));
        let expected = 2 + 199 * 1000 + 198;
        assert_eq!(
            hyper::body::Body::size_hint(&body).exact(),
            Some(expected as u64)
        );
        let mut whole = Vec::new();
        let mut frames = 0;
        while let Some(frame) = body.frame().await {
            let data = frame.expect("frame").into_data().expect("data");
            assert!(data.len() <= JOINED_FRAME + 1001);
            whole.extend_from_slice(&data);
            frames += 1;
        }
        assert_eq!(whole.len(), expected);
        assert!(frames >= 3, "{frames}");
        let parsed: Vec<String> = serde_json::from_slice(&whole).expect("JSON");
        assert_eq!(parsed.len(), 199);
        // Nothing at all: the head and tail only.
        let body = joined(Bytes::from_static(b"["), vec![], Bytes::from_static(b"]"));
        let all = body.collect().await.expect("body").to_bytes();
        assert_eq!(&all[..], b"[]");
    }

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
