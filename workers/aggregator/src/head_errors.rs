//! A `Status` body for the answers hyper writes on its own. When an HTTP/1 request head
//! cannot be parsed (a malformed request line or header, a URI longer than the `http`
//! crate represents, a head over the 1 MiB buffer) hyper answers 400, 414 or 431 with no
//! body and closes the connection, before any handler sees the request. Every error a
//! client sees must be a `metav1.Status`, so the connection's writer recognises those
//! heads — exactly as hyper formats them, at the start of a write — and sends the same
//! code with a Status body instead. Nothing else is touched: the check is a prefix
//! comparison on the first bytes of a response.

use std::io::{self, IoSlice};
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use kas_server::status::{Reason, Status};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// hyper's automatic answers: the status line it writes and what the client gets instead.
const ANSWERS: [(&[u8], Reason, &str); 3] = [
    (
        b"HTTP/1.1 400 Bad Request\r\n",
        Reason::BadRequest,
        "malformed HTTP request",
    ),
    (
        b"HTTP/1.1 414 URI Too Long\r\n",
        Reason::UriTooLong,
        "the request URI is longer than 65534 bytes",
    ),
    (
        b"HTTP/1.1 431 Request Header Fields Too Large\r\n",
        Reason::RequestHeaderFieldsTooLarge,
        "the request line and headers are larger than 1048576 bytes",
    ),
];

/// The headers hyper puts right after the status line of those answers (a closing
/// connection, no body): a handler's response never starts so.
const BODYLESS_CLOSE: &[u8] = b"connection: close\r\ncontent-length: 0\r\n";

/// A connection whose hyper-written parse-error answers carry a `Status`.
pub(crate) struct StatusOnParseError<T> {
    inner: T,
    /// The replacement answer still to be written, and how much of it is written.
    pending: Option<(Vec<u8>, usize)>,
}

impl<T> StatusOnParseError<T> {
    pub(crate) fn new(inner: T) -> Self {
        StatusOnParseError {
            inner,
            pending: None,
        }
    }
}

/// If `buf` starts with one of hyper's parse-error answers, its length and the answer to
/// send instead.
fn replacement(buf: &[u8]) -> Option<(usize, Vec<u8>)> {
    let (line, reason, message) = ANSWERS.iter().find(|(line, ..)| buf.starts_with(line))?;
    if !buf[line.len()..].starts_with(BODYLESS_CLOSE) {
        return None;
    }
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let body = Status::new(*reason, *message).to_json();
    let status_line = std::str::from_utf8(&line[..line.len() - 2]).unwrap_or("HTTP/1.1 400");
    let mut answer = format!(
        "{status_line}\r\nContent-Type: application/json\r\nCache-Control: no-cache, private\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(&body);
    Some((end, answer))
}

impl<T: AsyncWrite + Unpin> StatusOnParseError<T> {
    /// Writes out a pending replacement; ready once none is left.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((answer, written)) = &mut self.pending {
            if *written == answer.len() {
                self.pending = None;
                break;
            }
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &answer[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for StatusOnParseError<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for StatusOnParseError<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        if let Some((taken, answer)) = replacement(buf) {
            self.pending = Some((answer, 0));
            return Poll::Ready(Ok(taken));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        if let Some(first) = bufs.iter().find(|b| !b.is_empty()) {
            if let Some((taken, answer)) = replacement(first) {
                self.pending = Some((answer, 0));
                return Poll::Ready(Ok(taken));
            }
        }
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    const HYPER_414: &[u8] = b"HTTP/1.1 414 URI Too Long\r\nconnection: close\r\ncontent-length: 0\r\ndate: Thu, 26 Nov 2026 02:38:00 GMT\r\n\r\n";

    async fn through(writes: &[&[u8]]) -> Vec<u8> {
        let mut conn = StatusOnParseError::new(Vec::new());
        for w in writes {
            conn.write_all(w).await.unwrap();
        }
        conn.flush().await.unwrap();
        conn.inner
    }

    #[tokio::test]
    async fn hyper_parse_errors_become_statuses() {
        let out = String::from_utf8(through(&[HYPER_414]).await).unwrap();
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{head}");
        assert!(head.contains("Connection: close"), "{head}");
        assert!(head.contains(&format!("Content-Length: {}", body.len())));
        let status: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(status["kind"], "Status");
        assert_eq!(status["code"], 414);
        assert!(status.get("reason").is_none());

        let hyper_431 = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(through(&[hyper_431]).await).unwrap();
        assert!(out.contains("\"code\":431"), "{out}");
        let hyper_400 =
            b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(through(&[hyper_400]).await).unwrap();
        assert!(out.contains("\"reason\":\"BadRequest\""), "{out}");
    }

    #[tokio::test]
    async fn handler_responses_pass_unchanged() {
        let ours: &[u8] = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
        assert_eq!(through(&[ours]).await, ours);
        // A body that happens to look like hyper's answer is not at a write's start
        // after its own head.
        let body_like: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-length: 96\r\n\r\nHTTP/1.1 414 URI Too Long\r\nconnection: close\r\n";
        assert_eq!(through(&[body_like]).await, body_like);
        // An unfinished head (no blank line) is not replaced.
        let partial: &[u8] =
            b"HTTP/1.1 414 URI Too Long\r\nconnection: close\r\ncontent-length: 0\r\n";
        assert_eq!(through(&[partial]).await, partial);
    }
}
