//! The handler chain, run once at the front door, outermost first: panic recovery →
//! request info → shutdown refusal → CORS → timeout → authentication → impersonation →
//! audit ID → seat (priority and fairness, or max-in-flight: [`crate::seat`]) →
//! authorization → director; cache-control and audit headers on the way out.
//! Authentication runs before the seat, as in kube-apiserver, so that a request is
//! classified by its user (`system:masters` rides the exempt level).

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Instant, SystemTime};

use bytes::Bytes;
use futures_util::FutureExt;
use http::header::{self, HeaderValue};
use http::{Method, Request, Response, StatusCode};
use hyper::body::Frame;
use kas_proto::{RequestContext, RequestInfo, UserInfo};
use kas_server::body::{Body, BoxError};
use kas_server::status::{Reason, Status};
use kas_server::{delegate, request_info};
use tokio_util::sync::WaitForCancellationFutureOwned;

use crate::front::Front;
use crate::{audit, authn};

/// What the TLS layer learnt about a connection.
#[derive(Debug, Clone)]
pub(crate) struct ConnInfo {
    /// The client certificate, as the authenticators judged it.
    pub(crate) cert: Option<crate::x509::PeerCert>,
    /// HTTP/1.x (where `Connection: close` means something).
    pub(crate) http1: bool,
    /// The client's address (the last of an event's `sourceIPs`).
    pub(crate) peer: std::net::SocketAddr,
    /// Notified to drop an HTTP/1 connection whose response outlived the request timeout.
    pub(crate) abort: Arc<tokio::sync::Notify>,
}

/// Runs the whole chain for one request.
pub(crate) async fn handle(
    front: Arc<Front>,
    conn: Arc<ConnInfo>,
    req: Request<Body>,
) -> Response<Body> {
    let started = Instant::now();
    let received = SystemTime::now();
    let info = request_info::parse(req.method(), req.uri().path(), req.uri().query());
    let audit_id = req
        .headers()
        .get("audit-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 128)
        .map(str::to_owned)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let origin = req.headers().get(header::ORIGIN).cloned();
    let long_running = request_info::is_long_running(&info);
    let labels = crate::metrics::Labels::of(req.method(), &info, req.uri().query(), req.headers());

    let audit = audit::Slot::default();
    let request = Request_ {
        info: info.clone(),
        audit_id: audit_id.clone(),
        received,
        audit: &audit,
    };
    let inner = AssertUnwindSafe(chain(&front, &conn, request, req));
    let mut resp = match inner.catch_unwind().await {
        Ok(mut resp) => {
            // A worker's handler panicked: the audit's Panic stage, as for our own.
            if let Some(what) = resp.headers_mut().remove(delegate::PANIC_HEADER) {
                audit.panicked(&String::from_utf8_lossy(what.as_bytes()));
            }
            resp
        }
        Err(panic) => {
            let what = delegate::panic_message(&*panic);
            tracing::error!(audit_id = %audit_id, path = %info.path, panic = %what, "recovered from a panic in a request handler");
            audit.panicked(&what);
            Status::new(Reason::InternalError, delegate::PANIC_MESSAGE).into_response()
        }
    };

    let headers = resp.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&audit_id) {
        headers.insert("audit-id", v);
    }
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-cache, private"));
    if let Some(origin) = origin.filter(|o| allowed_origin(&front, o)) {
        add_cors_headers(headers, origin);
    }

    let code = resp.status().as_u16();
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    // Failing probes are logged by the health handler with their reasons; they would
    // drown real failures here.
    let probe = kas_server::health::endpoint_of(&info.path).is_some();
    if code >= 500 && !probe {
        tracing::info!(verb = %info.verb, resource = %info.resource, namespace = %info.namespace, code, latency_ms, audit_id = %audit_id, path = %info.path, "request failed");
    } else {
        tracing::debug!(verb = %info.verb, resource = %info.resource, namespace = %info.namespace, code, latency_ms, audit_id = %audit_id, path = %info.path, "request");
    }
    let resp = audit.respond(resp, long_running).await;
    let measured = resp.extensions().get::<crate::metrics::Measure>().is_some();
    match labels.filter(|_| measured) {
        Some(labels) => crate::metrics::measure(labels, started, long_running, resp),
        None => resp,
    }
}

/// What the chain's outer frame knows of a request and hands inwards.
struct Request_<'a> {
    info: RequestInfo,
    audit_id: String,
    received: SystemTime,
    /// The request's audit, set once its user is known.
    audit: &'a audit::Slot,
}

async fn chain(
    front: &Arc<Front>,
    conn: &ConnInfo,
    request: Request_<'_>,
    req: Request<Body>,
) -> Response<Body> {
    if front.refuse_new.load(Ordering::Acquire) {
        let mut resp = crate::seat::too_many_requests(
            "The apiserver is shutting down, please try again later.",
            HeaderValue::from_static("5"),
        );
        if conn.http1 {
            resp.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        return resp;
    }

    // CORS preflight is answered before authentication, as upstream does.
    if req.method() == Method::OPTIONS {
        if let Some(origin) = req.headers().get(header::ORIGIN) {
            if allowed_origin(front, origin) {
                let mut resp = Response::new(kas_server::body::empty());
                *resp.status_mut() = StatusCode::OK;
                return resp;
            }
        }
    }

    let long_running = request_info::is_long_running(&request.info);
    if long_running {
        let resp = Box::pin(authenticated(front, conn, request, req)).await;
        return until_cancelled(resp, front.end_long_running.clone().cancelled_owned());
    }
    let _in_flight = front.in_flight.enter();
    let timeout = front.config.request_timeout;
    // The rest of the chain is boxed: its future is several kilobytes, and left inline it
    // is copied at every level of the handler's state and into each HTTP/2 stream's task
    // (the whole handler's future was 58 KB, now 20 KB with this and director.rs's boxes;
    // memmove was ~10% of the front door's CPU under proxy load, ~8.6% after).
    let rest = Box::pin(authenticated(front, conn, request, req));
    let deadline = tokio::time::Instant::now() + timeout;
    match tokio::time::timeout_at(deadline, rest).await {
        Ok(resp) => cut_off_at(resp, deadline, conn),
        Err(_) => Status::new(
            Reason::Timeout,
            "Timeout: request did not complete within the allotted timeout",
        )
        .into_response(),
    }
}

/// A response body of at most this many bytes is taken whole by the connection's buffers
/// (hyper's HTTP/1 write buffer, an HTTP/2 stream's 64 KiB send buffer) whether or not
/// the client reads, so it needs no deadline timer.
const FITS_IN_BUFFERS: u64 = 64 << 10;

/// A response still being sent at the request's deadline is cut off there (upstream's
/// timeout filter aborts the handler): whatever it holds is released, and an HTTP/1
/// connection, which cannot end one response early and go on, is closed.
fn cut_off_at(
    resp: Response<Body>,
    deadline: tokio::time::Instant,
    conn: &ConnInfo,
) -> Response<Body> {
    let body = resp.body();
    if hyper::body::Body::is_end_stream(body)
        || hyper::body::Body::size_hint(body)
            .exact()
            .is_some_and(|n| n <= FITS_IN_BUFFERS)
    {
        // Nothing to cut off: it ends at once, into the connection's buffers.
        return resp;
    }
    let (peer, abort) = (conn.peer, conn.http1.then(|| conn.abort.clone()));
    resp.map(|b| {
        kas_server::body::with_deadline(b, deadline, move || {
            tracing::debug!(%peer, "a response was still being sent at the request timeout");
            if let Some(abort) = abort {
                abort.notify_one();
            }
        })
    })
}

async fn authenticated(
    front: &Arc<Front>,
    conn: &ConnInfo,
    request: Request_<'_>,
    req: Request<Body>,
) -> Response<Body> {
    let Request_ {
        info,
        audit_id,
        received,
        audit,
    } = request;
    let (mut parts, body) = req.into_parts();
    let Some(user) = authn::authenticate(front, conn, &parts.headers, parts.uri.path()).await
    else {
        if let Some(auditor) = &front.audit {
            let client_cert = conn.cert.is_some();
            if let Some(a) = auditor.failed_authentication(
                &info,
                &parts,
                conn.peer,
                &audit_id,
                received,
                client_cert,
            ) {
                audit.set(a);
            }
        }
        let resp = unauthorized(&parts.headers);
        return refuse(body, resp).await;
    };
    if let Some(auditor) = &front.audit {
        match auditor
            .begin(&user, &info, &parts, conn.peer, &audit_id, received)
            .await
        {
            Ok(Some(a)) => audit.set(a),
            Ok(None) => {}
            Err(()) => {
                let resp = internal_error(&parts.uri, "failed to store audit event");
                return refuse(body, resp).await;
            }
        }
    }
    let impersonating = parts
        .headers
        .keys()
        .any(|k| k.as_str().starts_with("impersonate-"));
    let user =
        match crate::impersonation::impersonate(front, user, &parts.headers, &parts.uri).await {
            Ok(user) => user,
            Err(refused) => return refuse(body, refused).await,
        };
    if impersonating {
        audit.with(|a| a.impersonated(&user));
    }
    crate::impersonation::strip(&mut parts.headers);
    if let Some(rh) = &front.config.request_header {
        crate::front_proxy::strip(rh, &mut parts.headers);
    }

    let held = match crate::seat::take(front, &user, &info, parts.uri.query()).await {
        Ok(held) => held,
        Err(refused) => return refuse(body, refused).await,
    };

    let mut attrs = attributes(&info);
    attrs.field_selector = request_info::field_selector(&info, parts.uri.query());
    attrs.label_selector = request_info::label_selector(&info, parts.uri.query());
    let verdict = front.authorizer.decide(&user, &attrs).await;
    if verdict.decision != kas_authz::Decision::Allow {
        // An authorizer that failed (a webhook down) makes the refusal a 500 naming the
        // error, as upstream's authorization filter does; else a 403 with the reasons.
        let resp = match verdict.error {
            Some(error) => {
                audit.with(|a| a.annotate(audit::REASON, "internal error"));
                internal_error(&parts.uri, &error)
            }
            None => {
                audit.with(|a| {
                    a.annotate(audit::DECISION, "forbid");
                    a.annotate(audit::REASON, &verdict.reason);
                });
                forbidden_response(forbidden(&user, &info, &verdict.reason), &parts.headers)
            }
        };
        return refuse(body, resp).await;
    }
    let mut req = Request::from_parts(parts, body);
    let mut audit_request_object = false;
    audit.with(|a| {
        a.annotate(audit::DECISION, "allow");
        a.annotate(audit::REASON, &verdict.reason);
        req = a.request_body(std::mem::replace(
            &mut req,
            Request::new(kas_server::body::empty()),
        ));
        audit_request_object = a.wants_request_object();
    });

    if info.subresource == "proxy" {
        // The proxied server learns who asked, as Go's reverse proxy tells it.
        forwarded_for(req.headers_mut(), conn.peer.ip());
    }
    let ctx = RequestContext {
        user,
        audit_id,
        info,
        audit_request_object,
    };
    let watch = ctx.info.verb == "watch";
    let mut resp = crate::director::direct(front, ctx, req).await;
    resp = held.hold_through(resp, watch);
    // A path no handler routes (a worker's or this process's `Status` says so) is left
    // out of the metrics; the marker is internal.
    let unrouted = resp
        .headers_mut()
        .remove(delegate::UNROUTED_HEADER)
        .is_some();
    if !unrouted
        && resp
            .extensions()
            .get::<crate::metrics::Unmeasured>()
            .is_none()
    {
        resp.extensions_mut().insert(crate::metrics::Measure);
    }
    resp
}

/// The most of an unread request body read (and dropped) before a refusal is sent.
const REFUSAL_DRAIN_BYTES: usize = 1 << 20;
/// How long a refusal waits for the unread request body.
const REFUSAL_DRAIN_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// A refusal given before the request body was read: the body is read and dropped first
/// (up to 1 MiB, for up to a second), so that an HTTP/2 client that is still sending sees
/// the answer, not its stream reset.
/// Appends `peer` to the request's `X-Forwarded-For` chain (Go's ReverseProxy joins
/// the earlier values with ", ").
fn forwarded_for(headers: &mut http::HeaderMap, peer: std::net::IpAddr) {
    let prior: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    let chain = if prior.is_empty() {
        peer.to_string()
    } else {
        format!("{}, {peer}", prior.join(", "))
    };
    if let Ok(v) = http::HeaderValue::from_str(&chain) {
        headers.insert("x-forwarded-for", v);
    }
}

async fn refuse(mut body: Body, resp: Response<Body>) -> Response<Body> {
    use http_body_util::BodyExt;
    if hyper::body::Body::is_end_stream(&body) {
        return resp;
    }
    let drain = async {
        let mut read = 0;
        while let Some(Ok(frame)) = body.frame().await {
            read += frame.data_ref().map_or(0, |d| d.len());
            if read > REFUSAL_DRAIN_BYTES {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(REFUSAL_DRAIN_TIME, drain).await;
    resp
}

/// The authentication filter's 401, negotiated like every `Status`.
fn unauthorized(headers: &http::HeaderMap) -> Response<Body> {
    Status::new(Reason::Unauthorized, "Unauthorized").into_negotiated(headers)
}

/// Upstream's responsewriters.Forbidden: a negotiated Status, `nosniff`.
pub(crate) fn forbidden_response(denied: Status, headers: &http::HeaderMap) -> Response<Body> {
    let mut resp = denied.into_negotiated(headers);
    resp.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    resp
}

/// The configured authorizers in order; the first decision wins, and nobody allowing is
/// a 403 (an authorizer's error too: impersonation refuses it so, as upstream).
pub(crate) async fn authorize(
    front: &Front,
    user: &UserInfo,
    info: &RequestInfo,
) -> Option<Status> {
    let (decision, reason) = front.authorizer.authorize(user, &attributes(info)).await;
    match decision {
        kas_authz::Decision::Allow => None,
        _ => Some(forbidden(user, info, &reason)),
    }
}

/// Upstream's `responsewriters.InternalError`: Go's plain-text `http.Error` with the
/// request URI quoted and `&`, `<`, `>` escaped.
pub(crate) fn internal_error(uri: &http::Uri, error: &str) -> Response<Body> {
    let request_uri = uri.path_and_query().map(|p| p.as_str()).unwrap_or("/");
    let message = format!(
        "Internal Server Error: {}: {error}",
        kas_server::status::go_quote(request_uri)
    )
    .replace('&', "&amp;")
    .replace('<', "&lt;")
    .replace('>', "&gt;");
    tracing::error!(error = %error, "an authorizer failed");
    kas_server::status::go_http_error(StatusCode::INTERNAL_SERVER_ERROR, &message)
}

/// What the authorizers are asked about a request.
fn attributes(info: &RequestInfo) -> kas_authz::Attributes {
    kas_authz::Attributes {
        verb: info.verb.clone(),
        resource_request: info.is_resource_request,
        namespace: info.namespace.clone(),
        group: info.api_group.clone(),
        version: info.api_version.clone(),
        resource: info.resource.clone(),
        subresource: info.subresource.clone(),
        name: info.name.clone(),
        path: info.path.clone(),
        field_selector: String::new(),
        label_selector: String::new(),
    }
}

/// 403 worded as kube-apiserver words it.
fn forbidden(user: &UserInfo, info: &RequestInfo, reason: &str) -> Status {
    let mut msg = if info.is_resource_request {
        let resource = if info.subresource.is_empty() {
            info.resource.clone()
        } else {
            format!("{}/{}", info.resource, info.subresource)
        };
        let scope = if info.namespace.is_empty() {
            " at the cluster scope".to_owned()
        } else {
            format!(" in the namespace \"{}\"", info.namespace)
        };
        let qualified = if info.api_group.is_empty() {
            info.resource.clone()
        } else {
            format!("{}.{}", info.resource, info.api_group)
        };
        let subject = if info.name.is_empty() {
            format!("{qualified} is forbidden")
        } else {
            format!("{qualified} \"{}\" is forbidden", info.name)
        };
        format!(
            "{subject}: User \"{}\" cannot {} resource \"{resource}\" in API group \"{}\"{scope}",
            user.name, info.verb, info.api_group
        )
    } else {
        format!(
            "forbidden: User \"{}\" cannot {} path \"{}\"",
            user.name, info.verb, info.path
        )
    };
    if !reason.is_empty() {
        msg.push_str(": ");
        msg.push_str(reason);
    }
    Status::new(Reason::Forbidden, msg)
}

fn allowed_origin(front: &Front, origin: &HeaderValue) -> bool {
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    front.cors.iter().any(|re| re.is_match(origin))
}

fn add_cors_headers(headers: &mut http::HeaderMap, origin: HeaderValue) {
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("POST, GET, OPTIONS, PUT, DELETE, PATCH"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static(
            "Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since",
        ),
    );
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("Date"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_CREDENTIALS,
        HeaderValue::from_static("true"),
    );
}

/// A long-running response whose body ends cleanly when the server finishes draining.
/// The response of a long-running request, ended when the front door drains, in its
/// turn (kas_server::lifecycle::Pacer).
fn until_cancelled(resp: Response<Body>, stop: WaitForCancellationFutureOwned) -> Response<Body> {
    let ticket = kas_server::lifecycle::ENDS.ticket();
    let stop = async move {
        let _ticket = ticket;
        stop.await;
        kas_server::lifecycle::ENDS.turn().await;
    };
    resp.map(|inner| {
        kas_server::body::boxed(UntilCancelled {
            inner,
            stop: Box::pin(stop),
        })
    })
}

struct UntilCancelled {
    inner: Body,
    stop: Pin<Box<dyn Future<Output = ()> + Send>>,
}

impl hyper::body::Body for UntilCancelled {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        if self.stop.as_mut().poll(cx).is_ready() {
            return Poll::Ready(None);
        }
        Pin::new(&mut self.inner).poll_frame(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_messages() {
        let user = UserInfo {
            name: "bob".into(),
            ..Default::default()
        };
        let info = request_info::parse(&Method::GET, "/api/v1/namespaces/default/pods/web", None);
        assert_eq!(
            forbidden(&user, &info, "").message,
            "pods \"web\" is forbidden: User \"bob\" cannot get resource \"pods\" in API group \"\" in the namespace \"default\""
        );
        let info = request_info::parse(&Method::GET, "/apis/apps/v1/deployments", None);
        assert_eq!(
            forbidden(&user, &info, "Everything is forbidden.").message,
            "deployments.apps is forbidden: User \"bob\" cannot list resource \"deployments\" in API group \"apps\" at the cluster scope: Everything is forbidden."
        );
        let info = request_info::parse(&Method::GET, "/healthz", None);
        assert_eq!(
            forbidden(&user, &info, "").message,
            "forbidden: User \"bob\" cannot get path \"/healthz\""
        );
    }
}
