//! Keep-alive after an unread request body. A handler may answer before it reads the
//! body (415, 406, a bad query parameter, a refusal) or read only part of it. On HTTP/1
//! the rest of the body still sits in the connection ahead of the client's next request;
//! hyper, finding it not yet buffered, closes the connection after the response — while
//! the response said nothing of closing, so a client that reuses the connection loses its
//! next request. kube-apiserver (Go's net/http) reads up to 256 KiB of an unread body
//! before answering and keeps the connection; past that (or when the rest is known to be
//! larger) it answers with `Connection: close`. This does the same: the body is tracked,
//! handed back when it is dropped unfinished, and settled before the response goes out.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::header::{self, HeaderValue};
use http::Response;
use http_body_util::BodyExt;
use hyper::body::{Body as _, Frame, Incoming, SizeHint};
use kas_server::body::Body;
use tokio::sync::oneshot;

/// The most of an unread body read and dropped to keep the connection (Go's
/// `maxPostHandlerReadBytes`).
const DRAIN_BYTES: usize = 256 << 10;
/// How long the rest of the body may take to arrive before the connection is closed
/// instead (Go waits as long as the client takes; a slow client then costs only itself a
/// new connection, not its response a delay).
const DRAIN_TIME: Duration = Duration::from_secs(1);
/// How long a body still held elsewhere when the response is ready (a proxy's request
/// stream, being cancelled) has to come back before the connection is closed instead.
const RETURN_TIME: Duration = Duration::from_millis(200);

/// A request body whose fate the connection learns: read to its end, or dropped
/// unfinished (then it comes back to be drained).
pub(crate) struct Tracked {
    inner: Option<Incoming>,
    done: Option<oneshot::Sender<Option<Incoming>>>,
}

/// The connection's end of a [`Tracked`] body.
pub(crate) struct Settle(oneshot::Receiver<Option<Incoming>>);

/// Tracks `body`, or gives it back when there is nothing to track (no body).
pub(crate) fn track(body: Incoming) -> Result<(Tracked, Settle), Incoming> {
    if body.is_end_stream() {
        return Err(body);
    }
    let (tx, rx) = oneshot::channel();
    Ok((
        Tracked {
            inner: Some(body),
            done: Some(tx),
        },
        Settle(rx),
    ))
}

impl Tracked {
    fn finished(&mut self) {
        self.inner = None;
        if let Some(done) = self.done.take() {
            let _ = done.send(None);
        }
    }
}

impl hyper::body::Body for Tracked {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let Some(inner) = self.inner.as_mut() else {
            return Poll::Ready(None);
        };
        let polled = Pin::new(inner).poll_frame(cx);
        match &polled {
            // A failed body means a broken connection: nothing to keep alive.
            Poll::Ready(None) | Poll::Ready(Some(Err(_))) => self.finished(),
            _ => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.as_ref().is_none_or(|b| b.is_end_stream())
    }

    fn size_hint(&self) -> SizeHint {
        self.inner
            .as_ref()
            .map_or_else(|| SizeHint::with_exact(0), |b| b.size_hint())
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        if let Some(done) = self.done.take() {
            let rest = self.inner.take().filter(|b| !b.is_end_stream());
            let _ = done.send(rest);
        }
    }
}

impl Settle {
    /// Before `resp` goes out: drains what the handler left of the body, or marks the
    /// response `Connection: close` when that is too much, too slow, or still held.
    pub(crate) async fn settle(self, resp: &mut Response<Body>) {
        let keep = match tokio::time::timeout(RETURN_TIME, self.0).await {
            Ok(Ok(None)) | Ok(Err(_)) => true,
            Ok(Ok(Some(rest))) => drain(rest).await,
            Err(_) => false,
        };
        if !keep {
            resp.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
    }
}

/// Reads and drops the rest of a body; whether it ended within the byte and time limits.
/// A body known to have more left than the limit is not read at all, as Go does.
async fn drain(mut body: Incoming) -> bool {
    if body.size_hint().lower() > DRAIN_BYTES as u64 {
        return false;
    }
    let read_all = async {
        let mut read = 0;
        while let Some(frame) = body.frame().await {
            let Ok(frame) = frame else { return false };
            read += frame.data_ref().map_or(0, |d| d.len());
            if read > DRAIN_BYTES {
                return false;
            }
        }
        true
    };
    tokio::time::timeout(DRAIN_TIME, read_all)
        .await
        .unwrap_or(false)
}
