//! An exec-like subresource for pass-through tests of upgraded connections:
//! `…/namespaces/<ns>/flunders/<name>/echo` with `Connection: Upgrade` answers 101 with the
//! protocol asked for (SPDY/3.1, websocket, …; the first offered `X-Stream-Protocol-Version`
//! and `Sec-WebSocket-Protocol` are taken) and then echoes every byte back, unframed,
//! until the client closes or the server stops. It needs no stored Flunder.

use http::request::Parts;
use http::{HeaderValue, Response, StatusCode};
use http_body_util::{Either, Full};
use hyper_util::rt::TokioIo;

use super::reply::bad_request;
use super::{Resp, Shared, GROUP_VERSION};

fn is_echo(path: &str) -> bool {
    let Some(rest) = path.strip_prefix(&format!("/apis/{GROUP_VERSION}/namespaces/")) else {
        return false;
    };
    matches!(
        rest.split('/').collect::<Vec<_>>().as_slice(),
        [_, "flunders", _, "echo"]
    )
}

/// The 101 for an echo request (its connection then echoes), a 400 for one that does not
/// ask to upgrade, `None` for any other path.
pub(crate) fn echo(shared: &Shared, path: &str, parts: &mut Parts) -> Option<Resp> {
    if !is_echo(path) {
        return None;
    }
    let protocol = parts
        .headers
        .get(http::header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let on_upgrade = parts.extensions.remove::<hyper::upgrade::OnUpgrade>();
    let (Some(protocol), Some(on_upgrade)) = (protocol, on_upgrade) else {
        return Some(bad_request("Upgrade request required"));
    };
    let mut resp = Response::new(Either::Left(Full::default()));
    *resp.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let headers = resp.headers_mut();
    headers.insert(
        http::header::CONNECTION,
        HeaderValue::from_static("Upgrade"),
    );
    if let Ok(p) = HeaderValue::from_str(&protocol) {
        headers.insert(http::header::UPGRADE, p);
    }
    for name in ["x-stream-protocol-version", "sec-websocket-protocol"] {
        let first = parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .map(str::trim)
            .and_then(|v| HeaderValue::from_str(v).ok());
        if let Some(v) = first {
            headers.insert(name, v);
        }
    }
    let mut stop = shared.generation.subscribe();
    tokio::spawn(async move {
        let Ok(upgraded) = on_upgrade.await else {
            return;
        };
        let (mut r, mut w) = tokio::io::split(TokioIo::new(upgraded));
        tokio::select! {
            _ = stop.changed() => {}
            _ = tokio::io::copy(&mut r, &mut w) => {}
        }
    });
    Some(resp)
}
