//! The secure server: accept on the inherited listener, TLS handshake, HTTP/1.1 or HTTP/2
//! by ALPN, and kube-apiserver's graceful termination: stop accepting, (optionally) refuse
//! new requests with 429, drain in-flight requests within `--request-timeout`, then end
//! long-running requests and close every connection.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use hyper::Request;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use kas_proto::ShutdownPhase;
use kas_server::body::boxed;
use kas_server::lifecycle::Phase;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

use crate::chain::{self, ConnInfo};
use crate::conn::{Activity, Connections, Drive, FirstRequest, HTTP2_IDLE_TIMEOUT};
use crate::front::Front;
use crate::head_errors::StatusOnParseError;
use crate::unread;
use crate::Error;

/// How long a client may take to finish the TLS handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long connections get to close after the drain before the process exits anyway.
const CLOSE_GRACE: Duration = Duration::from_secs(5);
/// The largest request header block (HTTP/1 buffer and HTTP/2 header list): Go's
/// `MaxHeaderBytes` as kube-apiserver sets it (secure_serving.go).
const MAX_HEADER_BYTES: usize = 1 << 20;
/// kube-apiserver's `ReadHeaderTimeout`, "just shy of requestTimeoutUpperBound". hyper
/// runs it from the moment it waits for a head, so it also ends a keep-alive connection
/// idle that long (Go's `IdleTimeout` is 90 s): a trickled head (slowloris) or an idle
/// connection costs at most this long.
const READ_HEADER_TIMEOUT: Duration = Duration::from_secs(32);
/// kube-apiserver's HTTP/2 upload buffer per stream (`resourceBody99Percentile`,
/// 256 KiB); the connection's buffer is this times the streams allowed, as upstream sizes
/// it. Upstream also reads frames of up to 256 KiB; here frames stay at HTTP/2's 16 KiB:
/// h2 allows a header block only as many CONTINUATION frames as the header list limit
/// over the frame size (+25 %, at least 5), so with 256 KiB frames a client that sends
/// its headers in 16 KiB frames (as nghttp2 does) was cut off with GOAWAY past 80 KiB of
/// headers; with 16 KiB frames, header lists up to the 1 MiB limit pass in any frame size.
const HTTP2_STREAM_BUFFER: u32 = 256 << 10;

/// The most response data an HTTP/2 stream buffers while its client's window is shut (h2's
/// default is 400 KiB): a thousand watches that never read hold 64 MiB, not 400. Go's
/// server holds little more than a frame per stream: its handler blocks instead.
const HTTP2_SEND_BUFFER: usize = 64 << 10;

/// The connection builder with kube-apiserver's limits for both protocols.
fn builder(front: &Front) -> auto::Builder<TokioExecutor> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .max_buf_size(MAX_HEADER_BYTES)
        .header_read_timeout(READ_HEADER_TIMEOUT);
    let streams = front.config.serving.http2_max_streams_per_connection;
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(streams)
        .max_header_list_size(MAX_HEADER_BYTES as u32)
        .max_send_buf_size(HTTP2_SEND_BUFFER)
        .initial_stream_window_size(HTTP2_STREAM_BUFFER)
        .initial_connection_window_size(
            HTTP2_STREAM_BUFFER
                .saturating_mul(streams)
                .min(i32::MAX as u32),
        );
    builder
}

/// The answer to a HEAD over HTTP/2: the head the GET would have, its length included,
/// and no body. hyper drops a HEAD's body itself on HTTP/1 only; on HTTP/2 the client
/// refuses DATA on a HEAD stream and resets it.
fn headers_only(
    resp: hyper::Response<kas_server::body::Body>,
) -> hyper::Response<kas_server::body::Body> {
    let (mut parts, body) = resp.into_parts();
    if let Some(len) = hyper::body::Body::size_hint(&body).exact() {
        parts
            .headers
            .entry(hyper::header::CONTENT_LENGTH)
            .or_insert_with(|| len.into());
    }
    hyper::Response::from_parts(parts, kas_server::body::empty())
}

/// Serves until the supervisor says NotAcceptingNewRequest, then drains and returns.
pub(crate) async fn serve(front: Arc<Front>, listener: std::net::TcpListener) -> Result<(), Error> {
    listener.set_nonblocking(true).map_err(Error::Listener)?;
    let listener = TcpListener::from_std(listener).map_err(Error::Listener)?;
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, "serving securely");
    }
    // One builder per protocol, chosen by ALPN: the auto builder's sniffing of the first
    // bytes has no deadline of its own, and a client that never sent a byte held its
    // connection for ever; with the protocol known, HTTP/1's header read timeout runs from
    // the start (Go's net/http serves HTTP/2 over TLS by ALPN only, too).
    let http1 = Arc::new(builder(&front).http1_only());
    let http2 = Arc::new(builder(&front).http2_only());
    tokio::spawn(crate::metrics::publish_inflight(front.clone()));
    let graceful = Connections::new();
    let mut lifecycle = front.lifecycle.subscribe();
    if front.config.staged {
        // A replacement front door shares the listener with the one it replaces: it
        // accepts only once ready, so no client meets it half started.
        let _ = lifecycle.wait_for(|p| *p >= Phase::Serving).await;
        tracing::info!("ready: accepting beside the front door this one replaces");
    }

    loop {
        let (tcp, peer) = tokio::select! {
            r = lifecycle.wait_for(|p| *p >= Phase::NotAcceptingNewRequests) => {
                let _ = r;
                break;
            }
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
        };
        let _ = tcp.set_nodelay(true);
        let front = front.clone();
        let (http1, http2) = (http1.clone(), http2.clone());
        let shutdown = graceful.register();
        tokio::spawn(async move {
            let certs = front.certs.active();
            let acceptor = TlsAcceptor::from(certs.tls.clone());
            let tls = match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await {
                Ok(Ok(tls)) => tls,
                Ok(Err(e)) => {
                    tracing::debug!(%peer, error = %e, "TLS handshake failed");
                    return;
                }
                Err(_) => {
                    tracing::debug!(%peer, "TLS handshake timed out");
                    return;
                }
            };
            let session = tls.get_ref().1;
            let speaks_http1 = session.alpn_protocol() != Some(b"h2");
            let abort = Arc::new(tokio::sync::Notify::new());
            let conn_info = Arc::new(ConnInfo {
                cert: session
                    .peer_certificates()
                    .and_then(|chain| certs.authenticator.peer(chain)),
                http1: speaks_http1,
                peer,
                abort: abort.clone(),
            });
            let activity = Activity::new();
            let streams = activity.clone();
            let first = FirstRequest::default();
            let first_seen = first.clone();
            let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                first_seen.seen();
                let front = front.clone();
                let conn_info = conn_info.clone();
                let streams = streams.clone();
                async move {
                    let (parts, body) = req.into_parts();
                    // Only HTTP/1 shares the connection between a body and the next
                    // request; an HTTP/2 stream ends on its own.
                    let tracked = if conn_info.http1 {
                        unread::track(body)
                    } else {
                        Err(body)
                    };
                    let (body, settle) = match tracked {
                        Ok((tracked, settle)) => (boxed(tracked), Some(settle)),
                        Err(body) => (boxed(body), None),
                    };
                    let head = parts.method == hyper::Method::HEAD;
                    let http1 = conn_info.http1;
                    let req = Request::from_parts(parts, body);
                    let mut resp = chain::handle(front, conn_info, req).await;
                    if let Some(settle) = settle {
                        settle.settle(&mut resp).await;
                    }
                    if !http1 {
                        if head {
                            resp = headers_only(resp);
                        }
                        resp = streams.track(resp);
                    }
                    Ok::<_, std::convert::Infallible>(resp)
                }
            });
            let builder = if speaks_http1 { http1 } else { http2 };
            let io = TokioIo::new(StatusOnParseError::new(tls));
            let conn = builder
                .serve_connection_with_upgrades(io, service)
                .into_owned();
            let idle = (!speaks_http1).then_some((activity, HTTP2_IDLE_TIMEOUT));
            let graceful = auto::UpgradeableConnection::graceful_shutdown;
            match Drive::new(conn, graceful, shutdown, idle, abort, first).await {
                Some(Ok(())) => {}
                Some(Err(e)) => {
                    tracing::debug!(%peer, error = %e, "connection ended with an error")
                }
                None => {
                    tracing::debug!(%peer, "connection closed: a response outlived the request timeout")
                }
            }
        });
    }

    // NotAcceptingNewRequest: our copy of the listener goes (the supervisor drops its own).
    // During a reload the supervisor reports the reload done only after this message, so
    // a connection made after that meets the replacement.
    drop(listener);
    front
        .control
        .shutdown_done(ShutdownPhase::NotAcceptingNewRequests);
    let config = front.config.clone();
    let mut graceful = Some(graceful);
    let closing = if config.shutdown_send_retry_after {
        front.refuse_new.store(true, Ordering::Release);
        None
    } else {
        // Close idle connections and refuse new streams now; in-flight ones finish.
        graceful.take().map(|g| tokio::spawn(g.shutdown()))
    };
    front.lifecycle.advance(Phase::Draining);
    if tokio::time::timeout(config.request_timeout, front.in_flight.drained())
        .await
        .is_err()
    {
        tracing::warn!("in-flight requests did not drain within --request-timeout");
    }
    tracing::info!(phase = "InFlightRequestsDrained", "lifecycle signal");
    // Watches and other long-running requests end last, cleanly.
    front.end_long_running.cancel();
    let closed = async {
        match closing {
            Some(task) => {
                let _ = task.await;
            }
            None => {
                if let Some(g) = graceful {
                    g.shutdown().await;
                }
            }
        }
    };
    if tokio::time::timeout(CLOSE_GRACE, closed).await.is_err() {
        tracing::warn!("connections still open after the drain; closing them");
    }
    if let Some(audit) = &front.audit {
        audit.shutdown().await;
    }
    front.lifecycle.advance(Phase::Stopped);
    front.control.shutdown_done(ShutdownPhase::Drain);
    // Give the control writer a moment to deliver the message before the process exits.
    tokio::time::sleep(Duration::from_millis(20)).await;
    Ok(())
}
