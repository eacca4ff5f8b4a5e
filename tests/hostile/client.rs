//! Clients and probes shared by the hostile tests: a raw HTTP/1.1 client over TLS (requests
//! written as bytes, so heads can be malformed and requests pipelined; a small response
//! parser that honours `Content-Length`, chunked coding and `Connection: close`), an
//! HTTP/2 client on one connection (hyper over rustls, ALPN h2) whose streams can be reset
//! mid-body, the server's resident memory summed over its processes, and worker-restart
//! detection. hyper's own HTTP/1 client is not used for the raw side: it refuses to send
//! what these tests must send and hides when a connection was closed under a request.

#![allow(dead_code, unreachable_pub)]

use std::collections::BTreeMap;
use std::io;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::io::{AsyncReadExt, AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;

use crate::harness::Server;

/// The error type of request bodies sent over HTTP/2.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
/// A request body for [`H2Conn`].
pub type H2Body = BoxBody<Bytes, BoxError>;

/// The longest a response may take before the request counts as unanswered.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

/// A response as read off the wire.
#[derive(Debug, Clone)]
pub struct RawResponse {
    pub status: u16,
    /// Header names lower-cased, in order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl RawResponse {
    /// The first value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the server said it closes the connection after this response.
    pub fn closes(&self) -> bool {
        self.headers.iter().any(|(n, v)| {
            n == "connection" && v.split(',').any(|t| t.trim().eq_ignore_ascii_case("close"))
        })
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Why no (complete) response was read.
#[derive(Debug)]
pub enum ReadError {
    /// The connection ended before the first byte of a response.
    Closed,
    /// The connection ended (or failed) part way through a response.
    Truncated(String),
    /// Nothing within [`ANSWER_TIMEOUT`].
    Timeout,
    /// The connection failed (reset, TLS error) before a response.
    Io(io::Error),
    /// Bytes that are not an HTTP/1.1 response.
    Malformed(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Closed => write!(f, "connection closed before a response"),
            ReadError::Truncated(m) => write!(f, "response cut short: {m}"),
            ReadError::Timeout => write!(f, "no response within {ANSWER_TIMEOUT:?}"),
            ReadError::Io(e) => write!(f, "connection failed before a response: {e}"),
            ReadError::Malformed(m) => write!(f, "not an HTTP/1.1 response: {m}"),
        }
    }
}

/// One HTTP/1.1 connection over TLS, written and read as bytes.
pub struct H1Conn {
    reader: ReadHalf<TlsStream<TcpStream>>,
    writer: WriteHalf<TlsStream<TcpStream>>,
    buf: Vec<u8>,
    eof: bool,
}

impl H1Conn {
    /// A connection as the admin, ALPN http/1.1.
    pub async fn open(server: &Server) -> io::Result<H1Conn> {
        let (tls, _) = server.connect(&[b"http/1.1"], false).await?;
        let (reader, writer) = tokio::io::split(tls);
        Ok(H1Conn {
            reader,
            writer,
            buf: Vec::new(),
            eof: false,
        })
    }

    /// Writes `requests` (each complete request bytes) while reading `heads.len()`
    /// responses, `heads[i]` telling whether the i-th answers a HEAD (no body). Writing
    /// and reading at once: a server that answers before reading a large body must not
    /// deadlock the client. Returns the responses read, in order, and why reading
    /// stopped early if it did; a failed write is not an error by itself (the server
    /// may answer and close without reading everything).
    pub async fn exchange(
        &mut self,
        requests: &[u8],
        heads: &[bool],
    ) -> (Vec<RawResponse>, Option<ReadError>) {
        let H1Conn {
            reader,
            writer,
            buf,
            eof,
        } = self;
        let write = async {
            let r = async {
                writer.write_all(requests).await?;
                writer.flush().await
            }
            .await;
            r.is_ok()
        };
        let read = async {
            let mut out = Vec::new();
            for head in heads {
                let r =
                    tokio::time::timeout(ANSWER_TIMEOUT, read_response(reader, buf, eof, *head))
                        .await
                        .unwrap_or(Err(ReadError::Timeout));
                match r {
                    Ok(resp) => {
                        let closes = resp.closes();
                        out.push(resp);
                        if closes {
                            break;
                        }
                    }
                    Err(e) => return (out, Some(e)),
                }
            }
            (out, None)
        };
        let (_, result) = tokio::join!(write, read);
        result
    }

    /// Whether the server has closed its side (nothing more can be read).
    pub fn at_eof(&self) -> bool {
        self.eof && self.buf.is_empty()
    }
}

/// Reads more bytes into `buf`; false at end of stream.
async fn fill(
    reader: &mut ReadHalf<TlsStream<TcpStream>>,
    buf: &mut Vec<u8>,
    eof: &mut bool,
) -> io::Result<bool> {
    if *eof {
        return Ok(false);
    }
    let mut chunk = [0u8; 16 * 1024];
    let n = match reader.read(&mut chunk).await {
        Ok(n) => n,
        // rustls reports a peer that closed without close_notify as UnexpectedEof.
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => 0,
        Err(e) => return Err(e),
    };
    if n == 0 {
        *eof = true;
        return Ok(false);
    }
    buf.extend_from_slice(&chunk[..n]);
    Ok(true)
}

/// Reads one line ending in CRLF (returned without it).
async fn read_line(
    reader: &mut ReadHalf<TlsStream<TcpStream>>,
    buf: &mut Vec<u8>,
    eof: &mut bool,
) -> Result<Vec<u8>, ReadError> {
    loop {
        if let Some(i) = buf.windows(2).position(|w| w == b"\r\n") {
            let line = buf[..i].to_vec();
            buf.drain(..i + 2);
            return Ok(line);
        }
        if buf.len() > 1 << 20 {
            return Err(ReadError::Malformed("a line over 1 MiB".into()));
        }
        match fill(reader, buf, eof).await {
            Ok(true) => {}
            Ok(false) => return Err(ReadError::Truncated("end of stream in a line".into())),
            Err(e) => return Err(ReadError::Truncated(e.to_string())),
        }
    }
}

/// Reads exactly `n` bytes.
async fn read_exact(
    reader: &mut ReadHalf<TlsStream<TcpStream>>,
    buf: &mut Vec<u8>,
    eof: &mut bool,
    n: usize,
) -> Result<Vec<u8>, ReadError> {
    while buf.len() < n {
        match fill(reader, buf, eof).await {
            Ok(true) => {}
            Ok(false) => {
                return Err(ReadError::Truncated(format!(
                    "end of stream after {} of {n} body bytes",
                    buf.len()
                )))
            }
            Err(e) => return Err(ReadError::Truncated(e.to_string())),
        }
    }
    Ok(buf.drain(..n).collect())
}

/// Reads one final response (1xx interim responses are skipped).
async fn read_response(
    reader: &mut ReadHalf<TlsStream<TcpStream>>,
    buf: &mut Vec<u8>,
    eof: &mut bool,
    head_request: bool,
) -> Result<RawResponse, ReadError> {
    loop {
        // Before the first byte: an end of stream is a closed connection, not a cut.
        while buf.is_empty() {
            match fill(reader, buf, eof).await {
                Ok(true) => {}
                Ok(false) => return Err(ReadError::Closed),
                Err(e) => return Err(ReadError::Io(e)),
            }
        }
        let status_line = read_line(reader, buf, eof).await?;
        let text = String::from_utf8_lossy(&status_line).into_owned();
        let mut parts = text.splitn(3, ' ');
        let (Some(version), Some(code)) = (parts.next(), parts.next()) else {
            return Err(ReadError::Malformed(format!("status line {text:?}")));
        };
        if !version.starts_with("HTTP/1.") {
            return Err(ReadError::Malformed(format!("status line {text:?}")));
        }
        let status: u16 = code
            .parse()
            .map_err(|_| ReadError::Malformed(format!("status line {text:?}")))?;
        let mut headers = Vec::new();
        loop {
            let line = read_line(reader, buf, eof).await?;
            if line.is_empty() {
                break;
            }
            let line = String::from_utf8_lossy(&line).into_owned();
            let Some((name, value)) = line.split_once(':') else {
                return Err(ReadError::Malformed(format!("header line {line:?}")));
            };
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
        if (100..200).contains(&status) {
            continue;
        }
        let mut resp = RawResponse {
            status,
            headers,
            body: Vec::new(),
        };
        if head_request || status == 204 || status == 304 {
            return Ok(resp);
        }
        let chunked = resp
            .header("transfer-encoding")
            .is_some_and(|te| te.to_ascii_lowercase().contains("chunked"));
        if chunked {
            loop {
                let line = read_line(reader, buf, eof).await?;
                let line = String::from_utf8_lossy(&line).into_owned();
                let size = line.split(';').next().unwrap_or("").trim();
                let size = usize::from_str_radix(size, 16)
                    .map_err(|_| ReadError::Malformed(format!("chunk size {line:?}")))?;
                if size == 0 {
                    // Trailers, then the empty line.
                    while !read_line(reader, buf, eof).await?.is_empty() {}
                    break;
                }
                let data = read_exact(reader, buf, eof, size).await?;
                resp.body.extend_from_slice(&data);
                if !read_line(reader, buf, eof).await?.is_empty() {
                    return Err(ReadError::Malformed("no CRLF after a chunk".into()));
                }
            }
        } else if let Some(len) = resp.header("content-length") {
            let len: usize = len
                .parse()
                .map_err(|_| ReadError::Malformed(format!("content-length {len:?}")))?;
            resp.body = read_exact(reader, buf, eof, len).await?;
        } else {
            // Delimited by the end of the connection.
            loop {
                match fill(reader, buf, eof).await {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(e) => return Err(ReadError::Truncated(e.to_string())),
                }
            }
            resp.body = std::mem::take(buf);
            // A close-delimited body is the last response on the connection.
            resp.headers.push(("connection".into(), "close".into()));
        }
        return Ok(resp);
    }
}

/// An HTTP/2 connection as the admin; cheap to clone, each clone sends on the same
/// connection (one stream per request).
#[derive(Clone)]
pub struct H2Conn {
    send: hyper::client::conn::http2::SendRequest<H2Body>,
    port: u16,
}

impl H2Conn {
    pub async fn open(server: &Server) -> io::Result<H2Conn> {
        let (tls, proto) = server.connect(&[b"h2"], false).await?;
        if proto.as_deref() != Some(b"h2") {
            return Err(io::Error::other("the server did not choose h2"));
        }
        let (send, conn) = hyper::client::conn::http2::Builder::new(TokioExecutor::new())
            .max_concurrent_reset_streams(1024)
            .handshake(TokioIo::new(tls))
            .await
            .map_err(io::Error::other)?;
        tokio::spawn(conn);
        Ok(H2Conn {
            send,
            port: server.port,
        })
    }

    /// `https://localhost:<port><target>`, for a request's URI.
    pub fn uri(&self, target: &str) -> String {
        format!("https://localhost:{}{target}", self.port)
    }

    /// Whether the connection can still take requests.
    pub fn is_open(&self) -> bool {
        !self.send.is_closed()
    }

    /// Sends `req` and reads the whole response.
    pub async fn send(&self, req: http::Request<H2Body>) -> Result<RawResponse, String> {
        let mut send = self.send.clone();
        let fut = async move {
            send.ready().await.map_err(|e| format!("not ready: {e}"))?;
            let resp = send
                .send_request(req)
                .await
                .map_err(|e| format!("{e} ({e:?})"))?;
            let status = resp.status().as_u16();
            let headers = resp
                .headers()
                .iter()
                .map(|(n, v)| {
                    (
                        n.as_str().to_owned(),
                        String::from_utf8_lossy(v.as_bytes()).into_owned(),
                    )
                })
                .collect();
            let body = resp
                .into_body()
                .collect()
                .await
                .map_err(|e| format!("body: {e}"))?
                .to_bytes()
                .to_vec();
            Ok(RawResponse {
                status,
                headers,
                body,
            })
        };
        tokio::time::timeout(ANSWER_TIMEOUT, fut)
            .await
            .unwrap_or_else(|_| Err(format!("no response within {ANSWER_TIMEOUT:?}")))
    }
}

impl H2Conn {
    /// Sends `req`, reads the response head, and drops the body unread: the client resets
    /// the stream while the server may still be sending. Returns the status.
    pub async fn send_and_drop_body(&self, req: http::Request<H2Body>) -> Result<u16, String> {
        let mut send = self.send.clone();
        let fut = async move {
            send.ready().await.map_err(|e| format!("not ready: {e}"))?;
            let resp = send
                .send_request(req)
                .await
                .map_err(|e| format!("{e} ({e:?})"))?;
            Ok(resp.status().as_u16())
        };
        tokio::time::timeout(ANSWER_TIMEOUT, fut)
            .await
            .unwrap_or_else(|_| Err(format!("no response within {ANSWER_TIMEOUT:?}")))
    }
}

/// A whole body for [`H2Conn`].
pub fn full_body(bytes: impl Into<Bytes>) -> H2Body {
    Full::new(bytes.into()).map_err(|e| match e {}).boxed()
}

/// A body fed by the returned sender; `sender.abort(..)` resets the stream.
pub fn channel_body() -> (http_body_util::channel::Sender<Bytes, BoxError>, H2Body) {
    let (tx, body) = http_body_util::channel::Channel::<Bytes, BoxError>::new(4);
    (tx, body.boxed())
}

/// The resident memory of the server, KiB, summed over the supervisor and its workers
/// (VmRSS of /proc/<pid>/status).
pub fn rss_kib(server: &Server) -> u64 {
    let mut pids = vec![server.pid()];
    pids.extend(server.workers().values().copied());
    pids.iter().map(|pid| vm_rss_kib(*pid)).sum()
}

fn vm_rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// The server's workers at one moment; [`Workers::restarted`] says which have changed
/// since (a new pid for a role, or a role gone) and how often the supervisor logged a
/// restart.
pub struct Workers {
    pids: BTreeMap<String, u32>,
    logged: usize,
}

impl Workers {
    pub fn snapshot(server: &Server) -> Workers {
        Workers {
            pids: server.workers(),
            logged: restarts_logged(server),
        }
    }

    /// What changed since the snapshot; empty when no worker restarted.
    pub fn restarted(&self, server: &Server) -> Vec<String> {
        let now = server.workers();
        let mut out = Vec::new();
        for (role, pid) in &self.pids {
            match now.get(role) {
                Some(p) if p == pid => {}
                Some(p) => out.push(format!("worker {role}: pid {pid} became {p}")),
                None => out.push(format!("worker {role} (pid {pid}) is gone")),
            }
        }
        let logged = restarts_logged(server);
        if logged > self.logged {
            out.push(format!(
                "the supervisor logged {} worker restart(s)",
                logged - self.logged
            ));
        }
        out
    }

    pub fn count(&self) -> usize {
        self.pids.len()
    }
}

/// How many times the supervisor's log says it restarted a worker.
fn restarts_logged(server: &Server) -> usize {
    server.log().matches("restarting worker").count()
}
