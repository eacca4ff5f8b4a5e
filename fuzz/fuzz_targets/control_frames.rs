//! The control protocol between the supervisor and a worker (length-prefixed bincode
//! frames of `FromSupervisor` / `FromWorker`): any bytes decode to a message or to a
//! typed `kas_proto::Error`, never a panic or an allocation beyond the frame; a decoded
//! message encodes, and decodes again to a message of the same encoding; the stream
//! reader agrees with the slice decoder.
#![no_main]

use std::fmt::Debug;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use kas_proto::{decode, encode, read_frame, Error, FromSupervisor, FromWorker};
use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;
use serde::Serialize;

fn check<T: Serialize + DeserializeOwned + Debug>(data: &[u8]) {
    match decode::<T>(data) {
        Ok(msg) => {
            let frame = encode(&msg).expect("a decoded message encodes");
            let again: T = decode(&frame[4..]).expect("an encoded message decodes");
            // Compared encoded: a float (an audit throttle) may be NaN, unequal to itself.
            let twice = encode(&again).expect("a decoded message encodes");
            assert_eq!(
                twice, frame,
                "decode → encode → decode changed {msg:?} into {again:?}"
            );
            // The same frame through the stream reader.
            let mut stream: &[u8] = &frame;
            let read = poll_once(read_frame::<_, T>(&mut stream)).expect("a frame reads back");
            assert_eq!(encode(&read).ok(), Some(frame));
        }
        Err(Error::Decode(_) | Error::Malformed(_)) => {}
        Err(e) => panic!("unexpected error kind decoding a frame body: {e:?}"),
    }
    // The bytes as a stream: a length prefix, then a body (the reader bounds the length
    // before it allocates).
    let mut stream: &[u8] = data;
    match poll_once(read_frame::<_, T>(&mut stream)) {
        Ok(_) => {}
        Err(Error::Decode(_) | Error::Malformed(_) | Error::TooLarge(_) | Error::Closed) => {}
        Err(Error::Io(e)) => assert_eq!(e.kind(), std::io::ErrorKind::UnexpectedEof, "{e}"),
        Err(e) => panic!("unexpected error kind reading a frame: {e:?}"),
    }
}

/// Runs a future over an in-memory reader, which is always ready.
fn poll_once<F: std::future::Future>(f: F) -> F::Output {
    let mut cx = Context::from_waker(Waker::noop());
    match pin!(f).poll(&mut cx) {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("reading from a slice is never pending"),
    }
}

fuzz_target!(|data: &[u8]| {
    check::<FromSupervisor>(data);
    check::<FromWorker>(data);
});
