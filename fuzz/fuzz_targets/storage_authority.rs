//! The storage socket's header-block rewriter (`kas_storage::FixAuthority`): any bytes a
//! client sends go through without a panic or a hang; what is not an HTTP/2 client
//! preface goes through unchanged, and a stream's preface always does.
#![no_main]

use std::pin::pin;
use std::task::{Context, Poll, Waker};

use kas_storage::FixAuthority;
use libfuzzer_sys::fuzz_target;
use tokio::io::{AsyncRead, ReadBuf};

const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

fuzz_target!(|data: &[u8]| {
    // Half the inputs get the preface, so that the frames behind it are reached.
    let (input, with_preface) = match data.split_first() {
        Some((&flag, rest)) if flag & 1 == 1 => ([PREFACE, rest].concat(), true),
        Some((_, rest)) => (rest.to_vec(), false),
        None => return,
    };
    let mut fixed = pin!(FixAuthority::new(&input[..]));
    let mut cx = Context::from_waker(Waker::noop());
    let mut out = Vec::new();
    let mut chunk = [0u8; 1000];
    loop {
        let mut buf = ReadBuf::new(&mut chunk);
        match fixed.as_mut().poll_read(&mut cx, &mut buf) {
            Poll::Ready(Ok(())) if buf.filled().is_empty() => break,
            Poll::Ready(Ok(())) => out.extend_from_slice(buf.filled()),
            other => panic!("a slice reader is always ready: {other:?}"),
        }
        assert!(out.len() <= 2 * input.len() + 64 * 1024, "output grows without bound");
    }
    if with_preface {
        assert_eq!(&out[..PREFACE.len()], PREFACE);
    } else if !input.starts_with(PREFACE) {
        assert_eq!(out, input, "bytes that are not HTTP/2 changed");
    }
});
