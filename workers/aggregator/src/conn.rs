//! One client connection's life after the TLS handshake: it ends gracefully when the
//! server drains, and an HTTP/2 connection without a stream for [`HTTP2_IDLE_TIMEOUT`] is
//! closed (GOAWAY), as Go's HTTP/2 server does with kube-apiserver's `IdleTimeout`.
//! HTTP/1 needs no timer of its own: the header read timeout runs while a keep-alive
//! connection waits for its next request.
//!
//! hyper-util's `GracefulShutdown` only watches connections whose future it drives; this
//! module drives the connection itself so that the idle timer can shut it down too.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use kas_server::body::{self, Body};
use tokio::sync::watch;

/// kube-apiserver's HTTP/2 `IdleTimeout` (secure_serving.go): "matches
/// http.DefaultTransport keep-alive timeout".
pub(crate) const HTTP2_IDLE_TIMEOUT: Duration = Duration::from_secs(90);

/// How long a connection that has not begun its first request is kept open once the
/// server drains. Go's `http.Server.Shutdown` closes a new connection as idle only after
/// 5 s: a client that connected as the server stopped accepting (as when a reload's new
/// front door takes over the listener) still gets its request answered, where closing
/// the connection would fail it (clients resend only on connections they reused).
pub(crate) const FRESH_GRACE: Duration = Duration::from_secs(5);

/// Whether a connection has begun a request yet.
#[derive(Debug, Clone, Default)]
pub(crate) struct FirstRequest(Arc<(AtomicBool, tokio::sync::Notify)>);

impl FirstRequest {
    /// A request began (cheap after the first: one load).
    pub(crate) fn seen(&self) {
        let (seen, notify) = &*self.0;
        if !seen.load(Ordering::Acquire) {
            seen.store(true, Ordering::Release);
            notify.notify_waiters();
        }
    }

    async fn wait(&self) {
        let (seen, notify) = &*self.0;
        loop {
            let notified = notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if seen.load(Ordering::Acquire) {
                return;
            }
            notified.await;
        }
    }
}

/// The server's side of graceful shutdown: one signal to every connection, then a wait
/// until all of them are gone.
#[derive(Debug)]
pub(crate) struct Connections {
    signal: watch::Sender<bool>,
}

impl Connections {
    pub(crate) fn new() -> Connections {
        Connections {
            signal: watch::Sender::new(false),
        }
    }

    /// What a new connection keeps for as long as it is open.
    pub(crate) fn register(&self) -> watch::Receiver<bool> {
        self.signal.subscribe()
    }

    /// Tells every connection to finish its in-flight requests and close (idle ones close
    /// at once, HTTP/2 ones with GOAWAY), then waits until all are closed.
    pub(crate) async fn shutdown(self) {
        self.signal.send_replace(true);
        self.signal.closed().await;
    }
}

/// Streams in progress on one connection, for its idle timer.
#[derive(Debug, Clone)]
pub(crate) struct Activity {
    streams: Arc<watch::Sender<usize>>,
}

/// Held by a request until its response body is done with (sent, or dropped on a reset).
#[derive(Debug)]
struct Active(Arc<watch::Sender<usize>>);

impl Drop for Active {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

impl Activity {
    pub(crate) fn new() -> Activity {
        Activity {
            streams: Arc::new(watch::Sender::new(0)),
        }
    }

    /// Counts a request from now until its response body is gone.
    pub(crate) fn track(&self, resp: http::Response<Body>) -> http::Response<Body> {
        self.streams.send_modify(|n| *n += 1);
        let active = Active(self.streams.clone());
        resp.map(|b| body::hold(b, active))
    }

    /// Completes once the connection has had no stream for `timeout` in a row.
    pub(crate) async fn idle_for(&self, timeout: Duration) {
        let mut streams = self.streams.subscribe();
        loop {
            if streams.wait_for(|n| *n == 0).await.is_err() {
                return;
            }
            match tokio::time::timeout(timeout, streams.changed()).await {
                Err(_) if *streams.borrow() == 0 => return,
                Err(_) | Ok(Ok(())) => {}
                Ok(Err(_)) => return,
            }
        }
    }
}

/// Drives a connection to its end, calling `graceful` (hyper's `graceful_shutdown`) once
/// when the server shuts down or, for a connection given an idle timeout, once it has
/// been idle that long; and drops it at once (`None`) when `abort` is notified (an HTTP/1
/// response cut off at the request timeout: the client stopped reading). A plain future
/// rather than an `async fn`: the compiler cannot prove an `async fn` generic over hyper's
/// connection `Send`.
pub(crate) struct Drive<C> {
    conn: Pin<Box<C>>,
    graceful: fn(Pin<&mut C>),
    stop: Pin<Box<dyn Future<Output = ()> + Send>>,
    abort: Pin<Box<dyn Future<Output = ()> + Send>>,
    closing: bool,
    /// Keeps the connection counted by [`Connections::shutdown`] until it is closed.
    _registered: watch::Receiver<bool>,
}

impl<C: Future> Drive<C> {
    pub(crate) fn new(
        conn: C,
        graceful: fn(Pin<&mut C>),
        registered: watch::Receiver<bool>,
        idle: Option<(Activity, Duration)>,
        abort: Arc<tokio::sync::Notify>,
        first: FirstRequest,
    ) -> Drive<C> {
        let accepted = tokio::time::Instant::now();
        let mut shutdown = registered.clone();
        let stop = async move {
            let idle = async {
                match idle {
                    Some((activity, timeout)) => {
                        activity.idle_for(timeout).await;
                        tracing::debug!("closing an idle HTTP/2 connection");
                    }
                    None => std::future::pending().await,
                }
            };
            let draining = tokio::select! {
                r = shutdown.wait_for(|s| *s) => r.is_ok(),
                () = idle => false,
            };
            if draining {
                // A fresh connection gets to send its first request (FRESH_GRACE).
                tokio::select! {
                    () = first.wait() => {}
                    () = tokio::time::sleep_until(accepted + FRESH_GRACE) => {}
                }
            }
        };
        Drive {
            conn: Box::pin(conn),
            graceful,
            stop: Box::pin(stop),
            abort: Box::pin(async move { abort.notified().await }),
            closing: false,
            _registered: registered,
        }
    }
}

impl<C: Future> Future for Drive<C> {
    type Output = Option<C::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<C::Output>> {
        let this = &mut *self;
        if this.abort.as_mut().poll(cx).is_ready() {
            return Poll::Ready(None);
        }
        if !this.closing && this.stop.as_mut().poll(cx).is_ready() {
            this.closing = true;
            (this.graceful)(this.conn.as_mut());
        }
        this.conn.as_mut().poll(cx).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use http_body_util::BodyExt;

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn idle_only_after_the_last_stream_and_the_timeout() {
        let activity = Activity::new();
        let resp = activity.track(http::Response::new(body::full("x")));
        let idle = activity.clone();
        let timer = tokio::spawn(async move { idle.idle_for(Duration::from_secs(90)).await });
        tokio::time::sleep(Duration::from_secs(300)).await;
        assert!(!timer.is_finished(), "a stream is open");
        drop(resp);
        tokio::time::sleep(Duration::from_secs(60)).await;
        assert!(!timer.is_finished(), "idle for 60 s only");
        // A request in between starts the count again.
        let again = activity.track(http::Response::new(body::full("y")));
        drop(again);
        tokio::time::sleep(Duration::from_secs(60)).await;
        assert!(!timer.is_finished(), "idle for 60 s since the last stream");
        tokio::time::sleep(Duration::from_secs(31)).await;
        assert!(timer.is_finished());
    }

    #[tokio::test]
    async fn shutdown_waits_for_every_connection() {
        let conns = Connections::new();
        let mut a = conns.register();
        let held = tokio::spawn(async move {
            let _ = a.wait_for(|s| *s).await;
            tokio::time::sleep(Duration::from_millis(50)).await;
            drop(a);
        });
        tokio::time::timeout(Duration::from_secs(5), conns.shutdown())
            .await
            .expect("all connections gone");
        assert!(held.is_finished());
    }

    /// The real thing over an in-memory pipe: an HTTP/2 connection is closed once it has
    /// been idle for the timeout after its last stream, and not while a stream is open.
    #[tokio::test]
    async fn an_idle_http2_connection_is_closed() {
        use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
        use hyper_util::server::conn::auto;

        let (client_io, server_io) = tokio::io::duplex(1 << 16);
        let conns = Connections::new();
        let activity = Activity::new();
        let streams = activity.clone();
        let service =
            hyper::service::service_fn(move |req: http::Request<hyper::body::Incoming>| {
                let streams = streams.clone();
                async move {
                    let resp = if req.uri().path() == "/slow" {
                        let (tx, body) = http_body_util::channel::Channel::<
                            bytes::Bytes,
                            body::BoxError,
                        >::new(1);
                        tokio::spawn(async move {
                            let mut tx = tx;
                            tokio::time::sleep(Duration::from_millis(600)).await;
                            let _ = tx.send_data(bytes::Bytes::from_static(b"done")).await;
                        });
                        http::Response::new(body::boxed(body))
                    } else {
                        http::Response::new(body::full("ok"))
                    };
                    Ok::<_, std::convert::Infallible>(streams.track(resp))
                }
            });
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder.http2().timer(TokioTimer::new());
        let builder = builder.http2_only();
        let conn = builder
            .serve_connection_with_upgrades(TokioIo::new(server_io), service)
            .into_owned();
        let drive = Drive::new(
            conn,
            auto::UpgradeableConnection::graceful_shutdown,
            conns.register(),
            Some((activity, Duration::from_millis(300))),
            Arc::default(),
            FirstRequest::default(),
        );
        let server = tokio::spawn(drive);

        let (mut sender, client_conn) =
            hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(client_io))
                .await
                .expect("handshake");
        let client = tokio::spawn(client_conn);
        let get = |path: &'static str| {
            http::Request::get(format!("http://x{path}"))
                .body(body::empty())
                .expect("request")
        };
        let started = std::time::Instant::now();
        let resp = sender.send_request(get("/slow")).await.expect("answered");
        let got = resp.into_body().collect().await.expect("body").to_bytes();
        assert_eq!(got, "done");
        // The stream lasted 600 ms, twice the idle timeout, and the connection stayed.
        let resp = sender.send_request(get("/")).await.expect("still open");
        assert_eq!(resp.status(), 200);
        // Ended (the client may close its end first, on the GOAWAY: no "clean" check).
        let _ = tokio::time::timeout(Duration::from_secs(5), server)
            .await
            .expect("the server closed the idle connection")
            .expect("task");
        assert!(started.elapsed() >= Duration::from_millis(900));
        let _ = tokio::time::timeout(Duration::from_secs(5), client).await;
        assert!(sender.send_request(get("/")).await.is_err());
        tokio::time::timeout(Duration::from_secs(5), conns.shutdown())
            .await
            .expect("nothing left to wait for");
    }

    /// An HTTP/1.1 connection served as serve.rs serves one, over an in-memory pipe.
    fn http1_connection(
        conns: &Connections,
    ) -> (
        tokio::io::DuplexStream,
        tokio::task::JoinHandle<Option<Result<(), body::BoxError>>>,
    ) {
        use hyper_util::rt::{TokioExecutor, TokioIo};
        use hyper_util::server::conn::auto;

        let (client_io, server_io) = tokio::io::duplex(1 << 16);
        let first = FirstRequest::default();
        let seen = first.clone();
        let service =
            hyper::service::service_fn(move |_req: http::Request<hyper::body::Incoming>| {
                seen.seen();
                async { Ok::<_, std::convert::Infallible>(http::Response::new(body::full("ok"))) }
            });
        let builder = auto::Builder::new(TokioExecutor::new()).http1_only();
        let conn = builder
            .serve_connection_with_upgrades(TokioIo::new(server_io), service)
            .into_owned();
        let drive = Drive::new(
            conn,
            auto::UpgradeableConnection::graceful_shutdown,
            conns.register(),
            None,
            Arc::default(),
            first,
        );
        (client_io, tokio::spawn(drive))
    }

    /// A connection accepted just before the server began to drain, whose first request
    /// comes after, is answered (not closed as idle).
    #[tokio::test]
    async fn a_fresh_connection_gets_its_first_request_answered_while_draining() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};

        let conns = Connections::new();
        let (mut client, server) = http1_connection(&conns);
        let draining = tokio::spawn(conns.shutdown());
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(!server.is_finished(), "closed before its first request");
        client
            .write_all(b"GET / HTTP/1.1\r\nhost: x\r\n\r\n")
            .await
            .expect("write");
        let mut got = Vec::new();
        tokio::time::timeout(Duration::from_secs(5), client.read_to_end(&mut got))
            .await
            .expect("the connection closed after the answer")
            .expect("read");
        let got = String::from_utf8_lossy(&got);
        assert!(got.starts_with("HTTP/1.1 200 OK"), "{got}");
        assert!(got.ends_with("ok"), "{got}");
        tokio::time::timeout(Duration::from_secs(5), draining)
            .await
            .expect("drained")
            .expect("task");
    }

    /// One that sends nothing is closed after the grace, not before.
    #[tokio::test(start_paused = true)]
    async fn a_silent_fresh_connection_is_closed_after_the_grace() {
        let conns = Connections::new();
        let (_client, server) = http1_connection(&conns);
        let draining = tokio::spawn(conns.shutdown());
        tokio::time::sleep(FRESH_GRACE - Duration::from_millis(100)).await;
        assert!(!server.is_finished() && !draining.is_finished());
        tokio::time::sleep(Duration::from_millis(200)).await;
        tokio::task::yield_now().await;
        let _ = tokio::time::timeout(Duration::from_millis(100), draining)
            .await
            .expect("closed after the grace");
    }
}
