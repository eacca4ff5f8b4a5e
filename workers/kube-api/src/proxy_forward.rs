//! Carrying a `proxy` subresource request to its [`Location`], as upstream's
//! upgrade-aware proxy handler with its rewriting transport does: the path after
//! `/proxy` (cleaned, its trailing slash kept) and the query go to the backend with the
//! client's headers (not its credentials or identity, no hop-by-hop ones) and
//! `X-Forwarded-Uri`; a GET of the proxy root without its slash is redirected to it; the
//! answer streams back without CORS headers, its `Location` and HTML links pointing
//! through the proxy again. A connection upgrade (WebSocket, SPDY) is joined end to end.

use bytes::Bytes;
use http::header::{CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, HOST, LOCATION};
use http::{HeaderValue, Method, Request, Response, StatusCode};
use http_body_util::BodyExt;
use kas_server::body::{self, Body};
use kas_server::outbound::StreamClient;
use kas_server::status::{Reason, Status};

use crate::proxy::Location;
use crate::proxy_rewrite::{clean, Rewriter, MAX_HTML};

/// How long a backend may take to answer the head of a response (Go's transport has no
/// bound; this one keeps a hung backend from holding the request forever).
const HEAD_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3600);

/// Response headers a proxy never passes on (Go's ReverseProxy hop-by-hop set) or that
/// upstream's transport removes (CORS).
const DROPPED: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "access-control-allow-credentials",
    "access-control-allow-headers",
    "access-control-allow-methods",
    "access-control-allow-origin",
];

/// Forwards `req` (whose path's first `prefix_segments` segments lead to `proxy`) to
/// `location` with `client`.
pub(crate) async fn forward(
    client: &StreamClient,
    location: &Location,
    prefix_segments: usize,
    mut req: Request<Body>,
) -> Result<Response<Body>, Status> {
    let upgrade =
        kas_server::upgrade::is_upgrade(req.headers()).then(|| hyper::upgrade::on(&mut req));
    let (parts, body) = req.into_parts();
    let incoming = kas_server::health::path_unescape(parts.uri.path());
    let backend_path = backend_path(&incoming, prefix_segments);
    let escaped = escape_path(&backend_path);
    let mut headers = crate::pod_connect::forwarded(&parts.headers, upgrade.is_some());
    // The backend is told the host the client asked for, as upstream's proxy handler
    // (Go's reverse proxy keeps the request's Host; only the dial goes to the location).
    if let Some(host) = kas_server::delegate::client_host(&parts.headers) {
        headers.insert(HOST, host.clone());
    }
    if let Some(client_side) = upgrade {
        // Upstream dials the location itself: the path, not the query.
        let url = format!("{}{escaped}", location.base);
        let mut resp = client
            .send(parts.method, &url, headers, HEAD_TIMEOUT)
            .await
            .map_err(|e| {
                Status::new(
                    Reason::Unknown,
                    format!("error dialing backend: {}", cause(&e)),
                )
            })?;
        let code = resp.status();
        if code == StatusCode::SWITCHING_PROTOCOLS {
            let backend_side = hyper::upgrade::on(&mut resp);
            tokio::spawn(kas_server::upgrade::join(
                client_side,
                backend_side,
                "proxy",
            ));
            return Ok(resp);
        }
        if code.as_u16() < 400 {
            return Err(Status::new(
                Reason::Unknown,
                format!("invalid upgrade response: status code {}", code.as_u16()),
            ));
        }
        return Ok(passed_on(resp));
    }
    let query = parts.uri.query().filter(|q| !q.is_empty());
    if backend_path.is_empty() && (parts.method == Method::GET || parts.method == Method::HEAD) {
        let location = match query {
            Some(q) => format!("{}/?{q}", parts.uri.path()),
            None => format!("{}/", parts.uri.path()),
        };
        let mut resp = Response::new(body::empty());
        *resp.status_mut() = StatusCode::MOVED_PERMANENTLY;
        if let Ok(v) = HeaderValue::from_str(&location) {
            resp.headers_mut().insert(LOCATION, v);
        }
        return Ok(resp);
    }
    let prefix = path_prepend(&incoming, &backend_path);
    let mut forwarded_uri = format!(
        "{}/{}",
        prefix.trim_end_matches('/'),
        escaped.trim_start_matches('/')
    );
    forwarded_uri = clean(&forwarded_uri);
    if escaped.ends_with('/') && !forwarded_uri.ends_with('/') {
        forwarded_uri.push('/');
    }
    if let Ok(v) = HeaderValue::from_str(&forwarded_uri) {
        headers.insert("x-forwarded-uri", v);
    }
    let url = match query {
        Some(q) => format!("{}{escaped}?{q}", location.base),
        None => format!(
            "{}{}",
            location.base,
            if escaped.is_empty() { "/" } else { &escaped }
        ),
    };
    let resp = client
        .send_body(parts.method, &url, headers, body, HEAD_TIMEOUT)
        .await
        .map_err(|e| {
            Status::new(
                Reason::ServiceUnavailable,
                format!("error trying to reach service: {}", cause(&e)),
            )
        })?;
    let rewriter = Rewriter {
        prefix,
        backend_host: location
            .base
            .split_once("://")
            .map_or("", |(_, h)| h)
            .to_owned(),
    };
    rewritten(passed_on(resp), &rewriter).await
}

/// The error of a client call without Go's `Get "url": ` in front (what upstream's
/// transport reports is the round trip's own error).
fn cause(e: &str) -> &str {
    e.split_once("\": ").map_or(e, |(_, c)| c)
}

/// The backend's answer without the headers a proxy drops.
fn passed_on(resp: Response<Body>) -> Response<Body> {
    let (mut parts, body) = resp.into_parts();
    for name in DROPPED {
        parts.headers.remove(*name);
    }
    Response::from_parts(parts, body)
}

/// The answer with its `Location` or HTML links through the proxy.
async fn rewritten(resp: Response<Body>, rewriter: &Rewriter) -> Result<Response<Body>, Status> {
    let (mut parts, body) = resp.into_parts();
    if let Some(location) = parts.headers.get(LOCATION) {
        let text = location.to_str().unwrap_or("");
        let new = rewriter.url(text).ok_or_else(|| {
            Status::internal(format!(
                "error trying to parse Location header: parse {}: invalid URL escape",
                kas_server::status::go_quote(text)
            ))
        })?;
        if let Ok(v) = HeaderValue::from_str(&new) {
            parts.headers.insert(LOCATION, v);
        }
        return Ok(Response::from_parts(parts, body));
    }
    let media = parts
        .headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::trim)
        .unwrap_or("");
    if media != "text/html" {
        return Ok(Response::from_parts(parts, body));
    }
    let encoding = parts
        .headers
        .get(CONTENT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    if !matches!(encoding.as_str(), "" | "gzip" | "deflate") {
        return Ok(Response::from_parts(parts, body));
    }
    let mut body = body;
    let mut page = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame =
            frame.map_err(|e| Status::internal(format!("reading the proxied page: {e}")))?;
        if let Ok(data) = frame.into_data() {
            page.extend_from_slice(&data);
        }
        if page.len() > MAX_HTML {
            // Too large to rewrite: what was read, then the rest, unchanged.
            let head = futures_util::stream::once(async move {
                Ok::<_, kas_server::body::BoxError>(hyper::body::Frame::data(Bytes::from(page)))
            });
            let tail = http_body_util::BodyStream::new(body);
            let stream = futures_util::StreamExt::chain(head, tail);
            return Ok(Response::from_parts(
                parts,
                body::boxed(http_body_util::StreamBody::new(stream)),
            ));
        }
    }
    let out: Bytes = rewriter
        .html(&page, &encoding)
        .map_or_else(|| Bytes::from(page), Bytes::from);
    parts.headers.remove(CONTENT_LENGTH);
    Ok(Response::from_parts(parts, body::full(out)))
}

/// The backend path of a request whose (decoded) path is `incoming`: what follows the
/// `proxy` segment, with a leading slash, cleaned as Go's path.Join, a trailing slash
/// kept (upstream's ProxyOptions.Path through JoinPreservingTrailingSlash); empty for
/// the proxy root without its slash.
pub(crate) fn backend_path(incoming: &str, prefix_segments: usize) -> String {
    let segments: Vec<&str> = incoming.trim_matches('/').split('/').collect();
    let rest = segments
        .get(prefix_segments..)
        .map(|s| s.join("/"))
        .unwrap_or_default();
    let mut option = if rest.is_empty() {
        String::new()
    } else {
        format!("/{rest}")
    };
    if incoming.ends_with('/') && !option.ends_with('/') {
        option.push('/');
    }
    if option.is_empty() {
        return option;
    }
    let mut path = clean(&option);
    if option.ends_with('/') && !path.ends_with('/') {
        path.push('/');
    }
    path
}

/// What stands before the backend path in the incoming path (upstream's PathPrepend).
pub(crate) fn path_prepend(incoming: &str, backend_path: &str) -> String {
    let mut suffix = backend_path.to_owned();
    if incoming.ends_with('/') && !suffix.ends_with('/') {
        suffix.push('/');
    }
    incoming
        .strip_suffix(suffix.as_str())
        .unwrap_or(incoming)
        .to_owned()
}

/// A path escaped as Go's url.URL.EscapedPath escapes one it built: letters, digits,
/// `-_.~` and `$&+,/:;=@` stay, everything else is `%XX`.
pub(crate) fn escape_path(path: &str) -> String {
    kas_server::health::percent_escape(path, b"-_.~$&+,/:;=@")
}

#[cfg(test)]
mod tests {
    use super::*;

    const POD: &str = "/api/v1/namespaces/ns/pods/web/proxy";

    #[test]
    fn the_backend_path_is_what_follows_proxy() {
        assert_eq!(backend_path(POD, 7), "");
        assert_eq!(backend_path(&format!("{POD}/"), 7), "/");
        assert_eq!(backend_path(&format!("{POD}/a/b"), 7), "/a/b");
        assert_eq!(backend_path(&format!("{POD}/a//./b/../c/"), 7), "/a/c/");
        assert_eq!(
            backend_path("/api/v1/nodes/n1/proxy/metrics", 5),
            "/metrics"
        );
        assert_eq!(path_prepend(&format!("{POD}/a/b"), "/a/b"), POD);
        assert_eq!(path_prepend(&format!("{POD}/"), "/"), POD);
        assert_eq!(path_prepend(POD, ""), POD);
        assert_eq!(escape_path("/a b/c?d/é"), "/a%20b/c%3Fd/%C3%A9");
        assert_eq!(
            cause("Get \"http://10.0.0.5:80/\": dial tcp 10.0.0.5:80: connect: connection refused"),
            "dial tcp 10.0.0.5:80: connect: connection refused"
        );
    }
}
