//! The `:authority` etcd 3.4's `etcdctl` sends on a unix socket, made acceptable.
//!
//! Its gRPC library (grpc-go before 1.3x) names the socket's path as the authority:
//! `/run/kube-apiserver/storage.sock` for `unix:///run/…`, and the whole endpoint
//! (`unix://storage.sock`) for the commands that dial each endpoint on its own
//! (`endpoint status`, `defrag`, `move-leader`). Go's HTTP/2 server takes any authority;
//! the `h2` crate refuses one that is not `host[:port]` and resets the stream, so those
//! commands failed with `PROTOCOL_ERROR`. Newer gRPC clients send `localhost` there.
//!
//! [`FixAuthority`] wraps an accepted connection and looks at the client's first header
//! block. When its `:authority` is acceptable (every client but those) it steps aside
//! for good: later reads go straight to the socket. Otherwise it rewrites every header
//! block of the connection, decoding it with the client's HPACK state and encoding it
//! again with the `:authority` `localhost`; every other frame passes unchanged, and the
//! server's answers are not touched.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use bytes::{Buf, BufMut, BytesMut};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The client connection preface (RFC 9113 §3.4).
const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const PREFACE_LEN: usize = PREFACE.len();
const FRAME_HEADER_LEN: usize = 9;
const HEADERS: u8 = 0x1;
const CONTINUATION: u8 = 0x9;
const END_STREAM: u8 = 0x1;
const END_HEADERS: u8 = 0x4;
const PADDED: u8 = 0x8;
const PRIORITY: u8 = 0x20;
/// Frames the rewrite produces stay within the smallest SETTINGS_MAX_FRAME_SIZE.
const MAX_FRAME: usize = 16_384;
/// A header block larger than this is left to the server to refuse.
const MAX_BLOCK: usize = 1 << 20;
/// What replaces an unacceptable authority (as newer gRPC clients send for unix sockets).
const LOCALHOST: &[u8] = b"localhost";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Before the client's preface is through.
    Preface,
    /// Until the first header block is complete.
    First,
    /// Every header block is rewritten.
    Rewrite,
    /// Reads go straight to the socket.
    Pass,
}

/// A header block being gathered from a HEADERS frame and its CONTINUATIONs.
#[derive(Default)]
struct Block {
    stream: u32,
    end_stream: bool,
    priority: Option<[u8; 5]>,
    fragment: Vec<u8>,
    /// The frames as received, for when the block goes through unchanged.
    raw: Vec<u8>,
}

/// An accepted connection whose client header blocks get an acceptable `:authority`.
pub struct FixAuthority<S> {
    inner: S,
    mode: Mode,
    /// Bytes read from the socket, not yet looked at.
    input: BytesMut,
    /// Bytes ready for the server.
    output: BytesMut,
    block: Option<Block>,
    decoder: loona_hpack::Decoder<'static>,
    encoder: loona_hpack::Encoder<'static>,
    eof: bool,
}

impl<S> FixAuthority<S> {
    /// Wraps a connection just accepted.
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            mode: Mode::Preface,
            input: BytesMut::new(),
            output: BytesMut::new(),
            block: None,
            decoder: loona_hpack::Decoder::new(),
            encoder: loona_hpack::Encoder::new(),
            eof: false,
        }
    }

    /// The wrapped connection.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }

    /// Hands everything not yet looked at to the server and steps aside.
    fn pass_rest(&mut self) {
        if let Some(block) = self.block.take() {
            self.output.extend_from_slice(&block.raw);
        }
        self.output.extend_from_slice(&self.input);
        self.input.clear();
        self.mode = Mode::Pass;
    }

    /// Moves what can be moved from `input` to `output`; false when more input is needed.
    fn process(&mut self) -> bool {
        let before = self.output.len();
        loop {
            match self.mode {
                Mode::Pass => {
                    self.pass_rest();
                    break;
                }
                Mode::Preface => {
                    if self.input.len() < PREFACE_LEN {
                        break;
                    }
                    if &self.input[..PREFACE_LEN] != PREFACE {
                        self.pass_rest();
                        break;
                    }
                    self.output.put(self.input.split_to(PREFACE_LEN));
                    self.mode = Mode::First;
                }
                Mode::First | Mode::Rewrite => {
                    if self.input.len() < FRAME_HEADER_LEN {
                        break;
                    }
                    let len = (usize::from(self.input[0]) << 16)
                        | (usize::from(self.input[1]) << 8)
                        | usize::from(self.input[2]);
                    if len > MAX_BLOCK {
                        // Not a frame this server takes: it answers that itself.
                        self.pass_rest();
                        break;
                    }
                    if self.input.len() < FRAME_HEADER_LEN + len {
                        break;
                    }
                    let frame = self.input.split_to(FRAME_HEADER_LEN + len);
                    self.frame(&frame);
                }
            }
        }
        self.output.len() > before || self.mode == Mode::Pass
    }

    /// Takes one whole frame.
    fn frame(&mut self, frame: &[u8]) {
        let (kind, flags) = (frame[3], frame[4]);
        let stream = u32::from_be_bytes([frame[5], frame[6], frame[7], frame[8]]) & 0x7fff_ffff;
        let payload = &frame[FRAME_HEADER_LEN..];
        match (kind, self.block.as_mut()) {
            (HEADERS, None) => {
                let Some((priority, fragment)) = headers_fragment(flags, payload) else {
                    self.output.extend_from_slice(frame);
                    self.pass_rest();
                    return;
                };
                self.block = Some(Block {
                    stream,
                    end_stream: flags & END_STREAM != 0,
                    priority,
                    fragment: fragment.to_vec(),
                    raw: frame.to_vec(),
                });
            }
            (CONTINUATION, Some(block)) if block.stream == stream => {
                block.fragment.extend_from_slice(payload);
                block.raw.extend_from_slice(frame);
                if block.fragment.len() > MAX_BLOCK {
                    self.pass_rest();
                    return;
                }
            }
            // Anything else in the middle of a block is the server's to refuse.
            (_, Some(_)) => {
                self.output.extend_from_slice(frame);
                self.pass_rest();
                return;
            }
            (_, None) => {
                self.output.extend_from_slice(frame);
                return;
            }
        }
        if flags & END_HEADERS != 0 {
            if let Some(block) = self.block.take() {
                self.finish_block(block);
            }
        }
    }

    /// A whole header block: through as it came, or rewritten.
    fn finish_block(&mut self, block: Block) {
        let Ok(fields) = self.decoder.decode(&block.fragment) else {
            // The server's decoder fails on it the same way.
            self.output.extend_from_slice(&block.raw);
            self.pass_rest();
            return;
        };
        let bad = fields
            .iter()
            .any(|(n, v)| n == b":authority" && http::uri::Authority::try_from(&v[..]).is_err());
        if self.mode == Mode::First && !bad {
            self.output.extend_from_slice(&block.raw);
            self.pass_rest();
            return;
        }
        self.mode = Mode::Rewrite;
        let fields = fields.iter().map(|(n, v)| {
            let bad = n == b":authority" && http::uri::Authority::try_from(&v[..]).is_err();
            (&n[..], if bad { LOCALHOST } else { &v[..] })
        });
        let encoded = self.encoder.encode(fields);
        write_headers(&mut self.output, &block, &encoded);
    }
}

/// The priority fields and the header block fragment of a HEADERS frame's payload.
fn headers_fragment(flags: u8, payload: &[u8]) -> Option<(Option<[u8; 5]>, &[u8])> {
    let (pad, mut rest) = if flags & PADDED != 0 {
        let (&pad, rest) = payload.split_first()?;
        (usize::from(pad), rest)
    } else {
        (0, payload)
    };
    rest = rest.get(..rest.len().checked_sub(pad)?)?;
    let priority = if flags & PRIORITY != 0 {
        let p: [u8; 5] = rest.get(..5)?.try_into().ok()?;
        rest = &rest[5..];
        Some(p)
    } else {
        None
    };
    Some((priority, rest))
}

/// Writes `block`'s HEADERS frame with the fragment `encoded` (and CONTINUATIONs when it
/// does not fit one frame).
fn write_headers(out: &mut BytesMut, block: &Block, encoded: &[u8]) {
    let prio_len = block.priority.map_or(0, |p| p.len());
    let first = encoded.len().min(MAX_FRAME - prio_len);
    let (head, mut rest) = encoded.split_at(first);
    let mut flags = if block.end_stream { END_STREAM } else { 0 };
    if rest.is_empty() {
        flags |= END_HEADERS;
    }
    if block.priority.is_some() {
        flags |= PRIORITY;
    }
    frame_header(out, prio_len + head.len(), HEADERS, flags, block.stream);
    if let Some(p) = block.priority {
        out.extend_from_slice(&p);
    }
    out.extend_from_slice(head);
    while !rest.is_empty() {
        let (chunk, after) = rest.split_at(rest.len().min(MAX_FRAME));
        let flags = if after.is_empty() { END_HEADERS } else { 0 };
        frame_header(out, chunk.len(), CONTINUATION, flags, block.stream);
        out.extend_from_slice(chunk);
        rest = after;
    }
}

fn frame_header(out: &mut BytesMut, len: usize, kind: u8, flags: u8, stream: u32) {
    // `len` is at most MAX_FRAME, which fits 24 bits.
    let len = u32::try_from(len).unwrap_or(0).to_be_bytes();
    out.extend_from_slice(&len[1..]);
    out.put_u8(kind);
    out.put_u8(flags);
    out.put_u32(stream);
}

impl<S: AsyncRead + Unpin> AsyncRead for FixAuthority<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if !this.output.is_empty() {
                let n = this.output.len().min(buf.remaining());
                buf.put_slice(&this.output[..n]);
                this.output.advance(n);
                return Poll::Ready(Ok(()));
            }
            if this.mode == Mode::Pass || this.eof {
                return Pin::new(&mut this.inner).poll_read(cx, buf);
            }
            if this.process() {
                continue;
            }
            let mut chunk = [0u8; 8192];
            let mut read = ReadBuf::new(&mut chunk);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
            if read.filled().is_empty() {
                // The client is gone: whatever it left goes through as it came.
                this.eof = true;
                this.pass_rest();
                continue;
            }
            this.input.extend_from_slice(read.filled());
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for FixAuthority<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// Feeds its bytes `step` at a time.
    struct Trickle {
        data: Vec<u8>,
        at: usize,
        step: usize,
    }

    impl AsyncRead for Trickle {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            let n = self
                .step
                .min(self.data.len() - self.at)
                .min(buf.remaining());
            let at = self.at;
            buf.put_slice(&self.data[at..at + n]);
            self.at += n;
            Poll::Ready(Ok(()))
        }
    }

    fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
        let mut out = BytesMut::new();
        frame_header(&mut out, payload.len(), kind, flags, stream);
        out.extend_from_slice(payload);
        out.to_vec()
    }

    fn request(enc: &mut loona_hpack::Encoder<'_>, authority: &str, path: &str) -> Vec<u8> {
        let fields: [(&[u8], &[u8]); 5] = [
            (b":method", b"POST"),
            (b":scheme", b"http"),
            (b":path", path.as_bytes()),
            (b":authority", authority.as_bytes()),
            (b"content-type", b"application/grpc"),
        ];
        enc.encode(fields)
    }

    /// A client's bytes: preface, SETTINGS, then for each path a request on its own
    /// stream (the second one's block split into HEADERS + CONTINUATION, and padded).
    fn client(authority: &str, paths: &[&str]) -> Vec<u8> {
        let mut enc = loona_hpack::Encoder::new();
        let mut out = PREFACE.to_vec();
        out.extend(frame(0x4, 0, 0, &[]));
        for (i, path) in paths.iter().enumerate() {
            let stream = 1 + 2 * u32::try_from(i).unwrap();
            let block = request(&mut enc, authority, path);
            if i % 2 == 0 {
                out.extend(frame(HEADERS, END_HEADERS, stream, &block));
            } else {
                let (a, b) = block.split_at(block.len() / 2);
                let mut padded = vec![3];
                padded.extend_from_slice(a);
                padded.extend_from_slice(&[0, 0, 0]);
                out.extend(frame(HEADERS, PADDED, stream, &padded));
                out.extend(frame(CONTINUATION, END_HEADERS, stream, b));
            }
            out.extend(frame(0x0, END_STREAM, stream, b"\0\0\0\0\x02hi"));
        }
        out
    }

    async fn through(data: Vec<u8>, step: usize) -> Vec<u8> {
        let mut fixed = FixAuthority::new(Trickle { data, at: 0, step });
        let mut out = Vec::new();
        fixed.read_to_end(&mut out).await.unwrap();
        out
    }

    /// The frames after the preface: (type, flags, stream, payload).
    fn frames(mut bytes: &[u8]) -> Vec<(u8, u8, u32, Vec<u8>)> {
        bytes = &bytes[PREFACE_LEN..];
        let mut out = Vec::new();
        while !bytes.is_empty() {
            let len = (usize::from(bytes[0]) << 16)
                | (usize::from(bytes[1]) << 8)
                | usize::from(bytes[2]);
            let stream = u32::from_be_bytes(bytes[5..9].try_into().unwrap());
            out.push((bytes[3], bytes[4], stream, bytes[9..9 + len].to_vec()));
            bytes = &bytes[9 + len..];
        }
        out
    }

    #[tokio::test]
    async fn an_acceptable_authority_goes_through_untouched() {
        let data = client(
            "localhost",
            &["/etcdserverpb.KV/Range", "/etcdserverpb.KV/Put"],
        );
        for step in [1, 7, 100_000] {
            assert_eq!(through(data.clone(), step).await, data);
        }
    }

    #[tokio::test]
    async fn a_socket_path_authority_becomes_localhost_in_every_block() {
        let paths = [
            "/etcdserverpb.KV/Range",
            "/etcdserverpb.Maintenance/Status",
            "/a",
        ];
        let data = client("/run/kube-apiserver/storage.sock", &paths);
        for step in [1, 5, 100_000] {
            let out = through(data.clone(), step).await;
            assert_eq!(&out[..PREFACE_LEN], &data[..PREFACE_LEN]);
            let frames = frames(&out);
            let mut dec = loona_hpack::Decoder::new();
            let mut seen = Vec::new();
            for (kind, flags, stream, payload) in &frames {
                match *kind {
                    HEADERS => {
                        assert_eq!(flags & (END_HEADERS | PADDED), END_HEADERS);
                        let fields = dec.decode(payload).unwrap();
                        let get = |name: &[u8]| {
                            fields
                                .iter()
                                .find(|(n, _)| n == name)
                                .map(|(_, v)| v.clone())
                        };
                        assert_eq!(get(b":authority").unwrap(), b"localhost");
                        seen.push((*stream, String::from_utf8(get(b":path").unwrap()).unwrap()));
                    }
                    0x0 => assert_eq!(payload, b"\0\0\0\0\x02hi"),
                    0x4 => assert!(payload.is_empty()),
                    k => panic!("unexpected frame type {k}"),
                }
            }
            let want: Vec<(u32, String)> = paths
                .iter()
                .enumerate()
                .map(|(i, p)| (1 + 2 * u32::try_from(i).unwrap(), (*p).to_owned()))
                .collect();
            assert_eq!(seen, want);
        }
    }

    #[tokio::test]
    async fn what_is_not_http2_goes_through_as_it_came() {
        for data in [
            b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x05\x01\x04\x00\x00\x00\x01\xff\xff\xff\xff\xff".to_vec(),
            b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\xff\xff\xff\x01\x04".to_vec(),
            b"PRI".to_vec(),
        ] {
            assert_eq!(through(data.clone(), 3).await, data);
        }
    }
}
