//! How a test makes the extension server misbehave: hang, answer garbage, answer slowly,
//! fail with a Status, drop the connection, or stream a response that never ends.

use std::time::Duration;

use bytes::Bytes;
use http::{Response, StatusCode};
use http_body_util::{Channel, Either};

use super::reply::{respond, status};
use super::{Resp, Shared};

/// How the server answers every request (health checks included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// As an API server does.
    Normal,
    /// Reads the request and never answers (until stopped).
    Hang,
    /// 200 with a body that is not JSON (`Content-Type: application/json` all the same).
    Garbage,
    /// As `Normal`, after waiting this long.
    Slow(Duration),
    /// A Status with this code (`500`, `403`, …) for every request.
    Fail(u16),
    /// Reads the request and closes the connection without an answer.
    Drop,
    /// 200 with a JSON list that never ends (64 KiB chunks as fast as the client reads),
    /// for bounds on a proxied response's size and time.
    Endless,
}

/// Waits until the server stops (the generation changes).
pub(crate) async fn stopped(shared: &Shared) {
    let mut rx = shared.generation.subscribe();
    let _ = rx.changed().await;
}

/// What `mode` answers instead of the API (`Err`: close the connection unanswered), or
/// `None` to answer as an API server (after any delay).
pub(crate) async fn misbehave(shared: &Shared, mode: Mode) -> Option<Result<Resp, std::io::Error>> {
    match mode {
        Mode::Normal => None,
        Mode::Slow(d) => {
            tokio::time::sleep(d).await;
            None
        }
        Mode::Hang => {
            stopped(shared).await;
            Some(Err(std::io::Error::other("stopped while hanging")))
        }
        Mode::Garbage => Some(Ok(respond(
            StatusCode::OK,
            "application/json",
            Bytes::from_static(b"<html>this is not JSON{"),
        ))),
        Mode::Fail(code) => {
            let code = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let reason = code
                .canonical_reason()
                .unwrap_or("Failure")
                .replace(' ', "");
            Some(Ok(status(code, &reason, "failing as the test asked")))
        }
        Mode::Drop => Some(Err(std::io::Error::other("dropped as the test asked"))),
        Mode::Endless => Some(Ok(endless(shared))),
    }
}

/// [`Mode::Endless`]'s answer: a list whose items never stop coming.
fn endless(shared: &Shared) -> Resp {
    let (mut tx, body) = Channel::<Bytes>::new(4);
    let mut stop = shared.generation.subscribe();
    tokio::spawn(async move {
        let chunk = Bytes::from("{},".repeat(64 * 1024 / 3));
        if tx
            .send_data(Bytes::from_static(b"{\"kind\":\"FlunderList\",\"items\":["))
            .await
            .is_err()
        {
            return;
        }
        loop {
            tokio::select! {
                _ = stop.changed() => return,
                sent = tx.send_data(chunk.clone()) => if sent.is_err() { return },
            }
        }
    });
    let mut resp = Response::new(Either::Right(body));
    resp.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    resp
}
