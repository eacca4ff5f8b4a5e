//! A raw HTTP/2 client: frames written by hand (RFC 9113 §4, §6) with header blocks of
//! HPACK literals without indexing (RFC 7541 §6.2.2), so that a scenario can send what no
//! well-behaved client library would: streams reset as soon as opened, endless
//! CONTINUATION frames, header lists past every limit, windows that never open. A reader
//! task acknowledges SETTINGS and PING and counts what the server answers.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt, ReadHalf, WriteHalf};
use tokio::task::JoinHandle;

use super::{Conn, Target};

/// The client connection preface.
pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Frame types.
pub const DATA: u8 = 0;
/// See [`DATA`].
pub const HEADERS: u8 = 1;
/// See [`DATA`].
pub const RST_STREAM: u8 = 3;
/// See [`DATA`].
pub const SETTINGS: u8 = 4;
/// See [`DATA`].
pub const PING: u8 = 6;
/// See [`DATA`].
pub const GOAWAY: u8 = 7;
/// See [`DATA`].
pub const WINDOW_UPDATE: u8 = 8;
/// See [`DATA`].
pub const CONTINUATION: u8 = 9;

/// Flags.
pub const END_STREAM: u8 = 0x1;
/// See [`END_STREAM`].
pub const ACK: u8 = 0x1;
/// See [`END_STREAM`].
pub const END_HEADERS: u8 = 0x4;

/// SETTINGS_INITIAL_WINDOW_SIZE.
pub const INITIAL_WINDOW_SIZE: u16 = 0x4;
/// Error code CANCEL.
pub const CANCEL: u32 = 0x8;
/// Error code REFUSED_STREAM.
pub const REFUSED_STREAM: u32 = 0x7;

/// Appends one frame.
pub fn frame(out: &mut Vec<u8>, kind: u8, flags: u8, stream: u32, payload: &[u8]) {
    let len = payload.len() as u32;
    out.extend_from_slice(&len.to_be_bytes()[1..]);
    out.push(kind);
    out.push(flags);
    out.extend_from_slice(&(stream & 0x7fff_ffff).to_be_bytes());
    out.extend_from_slice(payload);
}

/// A SETTINGS frame with these parameters.
pub fn settings(params: &[(u16, u32)]) -> Vec<u8> {
    let mut payload = Vec::new();
    for (id, value) in params {
        payload.extend_from_slice(&id.to_be_bytes());
        payload.extend_from_slice(&value.to_be_bytes());
    }
    let mut out = Vec::new();
    frame(&mut out, SETTINGS, 0, 0, &payload);
    out
}

/// Appends an RST_STREAM frame.
pub fn rst_stream(out: &mut Vec<u8>, stream: u32, code: u32) {
    frame(out, RST_STREAM, 0, stream, &code.to_be_bytes());
}

/// Appends a WINDOW_UPDATE frame.
pub fn window_update(out: &mut Vec<u8>, stream: u32, increment: u32) {
    frame(out, WINDOW_UPDATE, 0, stream, &increment.to_be_bytes());
}

/// An HPACK integer with an `n`-bit prefix, the prefix byte's other bits `high`.
fn hpack_int(out: &mut Vec<u8>, n: u32, high: u8, mut value: usize) {
    let max = (1usize << n) - 1;
    if value < max {
        out.push(high | value as u8);
        return;
    }
    out.push(high | max as u8);
    value -= max;
    while value >= 128 {
        out.push((value % 128) as u8 | 0x80);
        value /= 128;
    }
    out.push(value as u8);
}

/// Appends a header field as a literal without indexing, new name, no Huffman.
pub fn literal(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.push(0x00);
    hpack_int(out, 7, 0, name.len());
    out.extend_from_slice(name);
    hpack_int(out, 7, 0, value.len());
    out.extend_from_slice(value);
}

/// The header block of a request (pseudo-headers first, then `extra`).
pub fn request_block(method: &str, path: &str, extra: &[(&[u8], &[u8])]) -> Vec<u8> {
    let mut block = Vec::new();
    literal(&mut block, b":method", method.as_bytes());
    literal(&mut block, b":scheme", b"https");
    literal(&mut block, b":path", path.as_bytes());
    literal(&mut block, b":authority", b"localhost");
    for (name, value) in extra {
        literal(&mut block, name, value);
    }
    block
}

/// Appends a HEADERS frame holding all of `block` (END_HEADERS), with END_STREAM when
/// the request has no body.
pub fn headers(out: &mut Vec<u8>, stream: u32, block: &[u8], end_stream: bool) {
    let flags = END_HEADERS | if end_stream { END_STREAM } else { 0 };
    frame(out, HEADERS, flags, stream, block);
}

/// What the server sent on one raw connection.
#[derive(Debug, Default)]
pub struct Seen {
    /// HEADERS frames (responses).
    pub responses: AtomicU64,
    /// … whose status was 200 (the indexed `:status: 200` first in the block).
    pub ok: AtomicU64,
    /// DATA payload bytes.
    pub data_bytes: AtomicU64,
    /// RST_STREAM frames by error code.
    pub resets: Mutex<BTreeMap<u32, u64>>,
    /// The GOAWAY's error code + 1 (0: none).
    pub goaway: AtomicU64,
    /// The server closed the connection (EOF or error).
    pub closed: AtomicBool,
}

impl Seen {
    /// RST_STREAM frames received, all codes.
    pub fn reset_count(&self) -> u64 {
        self.resets.lock().map(|r| r.values().sum()).unwrap_or(0)
    }

    /// RST_STREAM frames received with `code`.
    pub fn resets_with(&self, code: u32) -> u64 {
        self.resets
            .lock()
            .map(|r| r.get(&code).copied().unwrap_or(0))
            .unwrap_or(0)
    }

    /// Whether the server sent GOAWAY or closed.
    pub fn gone(&self) -> bool {
        self.goaway.load(Ordering::Relaxed) > 0 || self.closed.load(Ordering::Relaxed)
    }
}

/// A raw HTTP/2 connection: the preface and SETTINGS sent, a reader running.
pub struct Raw {
    writer: Arc<tokio::sync::Mutex<WriteHalf<Conn>>>,
    /// What the server sent.
    pub seen: Arc<Seen>,
    reader: JoinHandle<()>,
}

impl Raw {
    /// Connects with ALPN h2 and sends the preface and a SETTINGS frame of `params`.
    pub async fn open(target: &Target, params: &[(u16, u32)]) -> std::io::Result<Raw> {
        let conn = target.connect(true).await?;
        let (r, w) = tokio::io::split(conn);
        let writer = Arc::new(tokio::sync::Mutex::new(w));
        let seen = Arc::new(Seen::default());
        let mut hello = PREFACE.to_vec();
        hello.extend_from_slice(&settings(params));
        {
            let mut w = writer.lock().await;
            w.write_all(&hello).await?;
            w.flush().await?;
        }
        let reader = tokio::spawn(read_frames(r, writer.clone(), seen.clone()));
        Ok(Raw {
            writer,
            seen,
            reader,
        })
    }

    /// Writes `bytes` (whole frames) and flushes.
    pub async fn send(&self, bytes: &[u8]) -> std::io::Result<()> {
        let mut w = self.writer.lock().await;
        w.write_all(bytes).await?;
        w.flush().await
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

async fn read_frames(
    mut r: ReadHalf<Conn>,
    writer: Arc<tokio::sync::Mutex<WriteHalf<Conn>>>,
    seen: Arc<Seen>,
) {
    let mut head = [0u8; 9];
    let mut payload = Vec::new();
    loop {
        if r.read_exact(&mut head).await.is_err() {
            break;
        }
        let len = u32::from_be_bytes([0, head[0], head[1], head[2]]) as usize;
        let (kind, flags) = (head[3], head[4]);
        payload.resize(len, 0);
        if r.read_exact(&mut payload).await.is_err() {
            break;
        }
        let mut answer = Vec::new();
        match kind {
            HEADERS => {
                seen.responses.fetch_add(1, Ordering::Relaxed);
                if payload.first() == Some(&0x88) {
                    seen.ok.fetch_add(1, Ordering::Relaxed);
                }
            }
            DATA => {
                seen.data_bytes.fetch_add(len as u64, Ordering::Relaxed);
            }
            RST_STREAM if len == 4 => {
                let code = u32::from_be_bytes([payload[0], payload[1], payload[2], payload[3]]);
                if let Ok(mut resets) = seen.resets.lock() {
                    *resets.entry(code).or_default() += 1;
                }
            }
            GOAWAY if len >= 8 => {
                let code = u32::from_be_bytes([payload[4], payload[5], payload[6], payload[7]]);
                seen.goaway.store(u64::from(code) + 1, Ordering::Relaxed);
            }
            SETTINGS if flags & ACK == 0 => frame(&mut answer, SETTINGS, ACK, 0, &[]),
            PING if flags & ACK == 0 => frame(&mut answer, PING, ACK, 0, &payload),
            _ => {}
        }
        // Only when no scenario write is under way: a writer blocked by a server that has
        // stopped reading must not stop this reader too (both sides would then wait).
        if !answer.is_empty() {
            if let Ok(mut w) = writer.try_lock() {
                if w.write_all(&answer).await.is_err() || w.flush().await.is_err() {
                    break;
                }
            }
        }
    }
    seen.closed.store(true, Ordering::Relaxed);
}
