//! Length-prefixed frames: a 4-byte big-endian length, then a bincode body.

use serde::de::DeserializeOwned;
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// The largest frame either side accepts (a config with big certificate bundles fits
/// comfortably).
pub const MAX_FRAME_LEN: usize = 16 << 20;

/// What can go wrong encoding, decoding or moving a frame.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The message could not be encoded.
    #[error("encoding a control message: {0}")]
    Encode(#[source] bincode::error::EncodeError),
    /// The bytes are not a valid message.
    #[error("decoding a control message: {0}")]
    Decode(#[source] bincode::error::DecodeError),
    /// The bytes are malformed in another way.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// A frame announced a length over [`MAX_FRAME_LEN`].
    #[error("frame of {0} bytes exceeds the limit of {MAX_FRAME_LEN}")]
    TooLarge(usize),
    /// The peer closed the stream cleanly between frames.
    #[error("control channel closed")]
    Closed,
    /// Reading or writing failed.
    #[error("control channel I/O: {0}")]
    Io(#[from] std::io::Error),
}

/// Encodes `msg` as one frame (length prefix included).
pub fn encode<T: Serialize>(msg: &T) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; 4];
    bincode::serde::encode_into_std_write(msg, &mut out, bincode::config::standard())
        .map_err(Error::Encode)?;
    let len = out.len() - 4;
    if len > MAX_FRAME_LEN {
        return Err(Error::TooLarge(len));
    }
    out[..4].copy_from_slice(&(len as u32).to_be_bytes());
    Ok(out)
}

/// Decodes one frame body (without its length prefix).
pub fn decode<T: DeserializeOwned>(body: &[u8]) -> Result<T, Error> {
    let (msg, used) = decode_limited::<T, MAX_FRAME_LEN>(body)?;
    if used != body.len() {
        return Err(Error::Malformed(format!(
            "{} trailing bytes in frame",
            body.len() - used
        )));
    }
    Ok(msg)
}

/// Decodes one bincode message from the start of `bytes`, with the bytes used. Its
/// strings may claim `LIMIT` bytes in all: bincode allocates a string's announced length
/// before it reads it, so without a limit a few bytes announcing a huge string made the
/// process abort on a failed allocation.
pub(crate) fn decode_limited<T: DeserializeOwned, const LIMIT: usize>(
    bytes: &[u8],
) -> Result<(T, usize), Error> {
    let config = bincode::config::standard().with_limit::<LIMIT>();
    bincode::serde::decode_from_slice(bytes, config).map_err(Error::Decode)
}

/// Writes one message as a frame and flushes.
pub async fn write_frame<W, T>(w: &mut W, msg: &T) -> Result<(), Error>
where
    W: AsyncWrite + Unpin,
    T: Serialize,
{
    let bytes = encode(msg)?;
    w.write_all(&bytes).await?;
    w.flush().await?;
    Ok(())
}

/// Reads one frame and decodes it. A clean end of stream before a frame starts is
/// [`Error::Closed`].
pub async fn read_frame<R, T>(r: &mut R) -> Result<T, Error>
where
    R: AsyncRead + Unpin,
    T: DeserializeOwned,
{
    let mut len = [0u8; 4];
    match r.read_exact(&mut len).await {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Err(Error::Closed),
        Err(e) => return Err(e.into()),
    }
    let len = u32::from_be_bytes(len) as usize;
    if len > MAX_FRAME_LEN {
        return Err(Error::TooLarge(len));
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body).await?;
    decode(&body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FromSupervisor, FromWorker, ShutdownPhase, WorkerRole};

    #[tokio::test]
    async fn frames_round_trip_over_a_stream() {
        let (mut a, mut b) = tokio::io::duplex(64);
        let sent = vec![
            FromWorker::Hello {
                version: crate::PROTOCOL_VERSION,
                role: WorkerRole::KubeApi,
                pid: 42,
            },
            FromWorker::HeartbeatAck { seq: 7 },
            FromWorker::ShutdownDone(ShutdownPhase::Drain),
        ];
        let writer = {
            let sent = sent.clone();
            tokio::spawn(async move {
                for m in &sent {
                    write_frame(&mut a, m).await.expect("write");
                }
            })
        };
        for want in &sent {
            let got: FromWorker = read_frame(&mut b).await.expect("read");
            assert_eq!(&got, want);
        }
        writer.await.expect("join");
        assert!(matches!(
            read_frame::<_, FromWorker>(&mut b).await,
            Err(Error::Closed)
        ));
    }

    #[tokio::test]
    async fn oversized_and_garbage_frames_are_refused() {
        let mut big: &[u8] = &[0xff, 0xff, 0xff, 0xff];
        assert!(matches!(
            read_frame::<_, FromSupervisor>(&mut big).await,
            Err(Error::TooLarge(_))
        ));
        let mut junk: &[u8] = &[0, 0, 0, 2, 0xfe, 0xfe];
        assert!(read_frame::<_, FromSupervisor>(&mut junk).await.is_err());
        let mut short: &[u8] = &[0, 0, 0, 9, 1];
        assert!(matches!(
            read_frame::<_, FromSupervisor>(&mut short).await,
            Err(Error::Io(_))
        ));
    }

    /// Found by the control_frames fuzz target: a string announcing 2^48 bytes inside a
    /// 13-byte body aborted the process (allocation failure) instead of failing to decode.
    #[test]
    fn a_huge_announced_string_is_a_decode_error() {
        let body = [1, 2, 0xfd, 0xff, 0xfc, 0, 0, 0, 0, 1, 0, 0, 0];
        assert!(matches!(
            decode::<FromSupervisor>(&body),
            Err(Error::Decode(_))
        ));
        // Health, ready, one check named by a string of u64::MAX bytes (varint marker
        // 253, then 8 bytes).
        let mut body = vec![1, 1, 1, 0xfd];
        body.extend_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(decode::<FromWorker>(&body), Err(Error::Decode(_))));
    }
}
