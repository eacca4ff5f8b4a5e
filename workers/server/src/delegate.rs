//! Delegation between workers: HTTP/2 over unix sockets in the private runtime directory.
//!
//! The server side accepts a connection only from a peer running with this process's own
//! uid (`SO_PEERCRED`), and hands each request to the worker's handler together with the
//! [`RequestContext`] the front door attached. The client side keeps one multiplexed
//! HTTP/2 connection per worker and reconnects when it breaks.

use std::future::Future;
use std::os::unix::fs::PermissionsExt;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use futures_util::FutureExt;
use http::{HeaderValue, Request, Response};
use hyper::body::Incoming;
use hyper::client::conn::http2 as client_h2;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use kas_proto::{RequestContext, WorkerRole, CONTEXT_HEADER};
use tokio::net::{UnixListener, UnixStream};

use crate::body::{self, Body};
use crate::status::{Reason, Status};
use crate::Error;

/// The stream flow-control window of worker-to-worker HTTP/2: large enough that a big
/// LIST does not stall on window updates. It is also what a response the client does not
/// read can hold in the front door.
const STREAM_WINDOW: u32 = 4 << 20;
/// The stream window for long-running responses (watches): events are small and read as
/// they come, and thousands of watches whose clients stopped reading each hold no more
/// than this in the front door.
const LONG_RUNNING_STREAM_WINDOW: u32 = 64 << 10;
/// The connection window: HTTP/2's largest, so that streams whose client stopped reading
/// never use up a window the connection's other streams need (each stays bounded by its
/// own stream window). With 16 MiB, 1,000 unread watches stopped every GET on the hop.
const CONN_WINDOW: u32 = (1 << 31) - 1;
/// The largest header list on a delegation connection: above what the front door lets in
/// (a 1 MiB HTTP/1 head or HTTP/2 header list) plus what it adds (the request context,
/// HTTP/2's 32 bytes per field), so a request the front door took is never refused on the
/// way with h2's own bodiless 431.
const MAX_HEADER_LIST: u32 = 4 << 20;

/// Header a worker sets on a 404 that means "no route here" rather than "no such object",
/// so the front door falls through to the next server of the chain.
pub const UNHANDLED_HEADER: &str = "x-kube-apiserver-rs-unhandled";

/// Request header the front door sets on a delegated request to the host the client
/// asked for (the delegation's own host is the worker's role): what the API server's
/// proxy passes on to a pod, service or node, as upstream's does.
pub const HOST_HEADER: &str = "x-kube-apiserver-rs-host";

/// The host the client of a delegated request asked for.
pub fn client_host(headers: &http::HeaderMap) -> Option<&HeaderValue> {
    headers.get(HOST_HEADER)
}

/// Where a worker answers its own metrics to the front door.
pub const METRICS_PATH: &str = "/metrics";

/// Response header a worker sets on its 404 for a path it routes to no resource (in a
/// group it serves): the front door leaves such requests out of its metrics, and strips it.
pub const UNROUTED_HEADER: &str = "x-kube-apiserver-rs-unrouted";

/// The 404 a worker answers for a path it does not serve, marked for fall-through.
pub fn unhandled() -> Response<Body> {
    let mut resp = Status::path_not_found().into_response();
    resp.headers_mut()
        .insert(UNHANDLED_HEADER, http::HeaderValue::from_static("1"));
    resp
}

/// What a client is told when its request made a handler panic (kube-apiserver's words).
pub const PANIC_MESSAGE: &str =
    "This request caused apiserver to panic. Look in the logs for details.";

/// Response header in which a worker tells the front door that its handler panicked, with
/// the panic's text (visible ASCII, at most [`PANIC_HEADER_MAX`] bytes): the front door
/// writes the audit Panic stage, as upstream's audit filter does, and removes the header.
pub const PANIC_HEADER: &str = "x-kube-apiserver-rs-panic";

/// The most of a panic's text carried in [`PANIC_HEADER`].
pub const PANIC_HEADER_MAX: usize = 1024;

/// The answer to a request whose handler panicked: kube-apiserver's 500, marked with the
/// panic's text for the front door.
pub fn panicked(message: &str) -> Response<Body> {
    let mut resp = Status::new(Reason::InternalError, PANIC_MESSAGE).into_response();
    let text: String = message
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .take(PANIC_HEADER_MAX)
        .collect();
    if let Ok(value) = http::HeaderValue::from_str(&text) {
        resp.headers_mut().insert(PANIC_HEADER, value);
    }
    resp
}

/// The text of a panic payload.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// The environment variable that enables fault injection (`panic`), for tests only.
pub const FAILPOINTS_ENV: &str = "KUBE_APISERVER_RS_FAILPOINTS";

/// Whether the `panic` failpoint is enabled: then `GET /debug/failpoints/panic/<role>`
/// panics inside that worker's handler, to prove the panic filter holds.
pub fn panic_failpoint(path: &str, role: WorkerRole) -> bool {
    path == format!("/debug/failpoints/panic/{}", role.as_str())
        && std::env::var(FAILPOINTS_ENV).is_ok_and(|v| v.split(',').any(|f| f == "panic"))
}

/// Whether the `allocate` failpoint asks for memory: then `GET
/// /debug/failpoints/allocate/<role>/<MiB>` makes that worker allocate and touch that
/// many MiB, to prove `--worker-memory-limit` stops it alone. Returns the bytes.
pub fn allocate_failpoint(path: &str, role: WorkerRole) -> Option<usize> {
    let mib = path
        .strip_prefix("/debug/failpoints/allocate/")?
        .strip_prefix(role.as_str())?
        .strip_prefix('/')?
        .parse::<usize>()
        .ok()?;
    std::env::var(FAILPOINTS_ENV)
        .is_ok_and(|v| v.split(',').any(|f| f == "allocate"))
        .then(|| mib.saturating_mul(1 << 20))
}

/// Answers the `allocate` failpoint: allocates `bytes`, touching every page, and frees
/// them (a worker over its memory limit aborts on the way).
pub fn allocate(bytes: usize) -> Response<Body> {
    let block = vec![1u8; bytes];
    let touched = std::hint::black_box(&block).len();
    http::Response::new(body::full(format!("allocated {touched} bytes\n")))
}

/// A HEAD request's answer: the handler's head (its Content-Length included) without the
/// body. hyper leaves this to the service on HTTP/2 (it does it itself on HTTP/1), and an
/// HTTP/2 client refuses DATA on a HEAD stream: the front door's connection to the worker
/// reset the stream and the client got RST_STREAM for every HEAD over HTTP/2.
fn headers_only(resp: Response<Body>) -> Response<Body> {
    let (parts, _) = resp.into_parts();
    Response::from_parts(parts, body::empty())
}

/// Binds the unix socket at `path` (replacing a stale one), readable and writable by
/// this uid only.
pub fn bind(path: &Path) -> Result<UnixListener, Error> {
    let err = |source| Error::Bind {
        path: path.to_owned(),
        source,
    };
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(err(e)),
    }
    let listener = UnixListener::bind(path).map_err(err)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).map_err(err)?;
    Ok(listener)
}

/// Serves delegated requests on `listener` with `handler` until `stop` completes, then
/// lets open connections finish for at most `grace`.
pub async fn serve<F, Fut>(
    listener: UnixListener,
    handler: F,
    stop: impl Future<Output = ()>,
    grace: Duration,
) where
    F: Fn(RequestContext, Request<Body>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response<Body>> + Send + 'static,
{
    let uid = nix::unistd::geteuid().as_raw();
    let graceful = GracefulShutdown::new();
    // HTTP/2 for every delegated request; HTTP/1.1 only for the front door's upgrade
    // requests, each on a connection of its own (`upgrade`).
    let mut builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
    builder
        .http2()
        .timer(TokioTimer::new())
        .initial_stream_window_size(STREAM_WINDOW)
        .initial_connection_window_size(CONN_WINDOW)
        .max_concurrent_streams(None)
        .max_header_list_size(MAX_HEADER_LIST);
    tokio::pin!(stop);
    loop {
        let stream = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!(error = %e, "accepting a delegated connection");
                    continue;
                }
            },
        };
        match stream.peer_cred() {
            Ok(cred) if cred.uid() == uid => {}
            Ok(cred) => {
                tracing::warn!(
                    peer_uid = cred.uid(),
                    "refusing delegated connection from another uid"
                );
                continue;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot read peer credentials; refusing connection");
                continue;
            }
        }
        let handler = handler.clone();
        let service = hyper::service::service_fn(move |req: Request<Incoming>| {
            let handler = handler.clone();
            async move {
                let (parts, incoming) = req.into_parts();
                let head = parts.method == http::Method::HEAD;
                let ctx = match parts.headers.get(CONTEXT_HEADER) {
                    Some(v) => RequestContext::from_header_value(v.as_bytes()),
                    None => Err(kas_proto::Error::Malformed(
                        "missing request context".into(),
                    )),
                };
                let resp = match ctx {
                    // The front door gathers each worker's series for its `/metrics`
                    // (clients' own requests for the path never reach a worker).
                    Ok(_)
                        if parts.method == http::Method::GET
                            && parts.uri.path() == METRICS_PATH =>
                    {
                        crate::metrics::respond(&http::HeaderMap::new())
                    }
                    Ok(ctx) => {
                        let path = parts.uri.path().to_owned();
                        let audit_id = ctx.audit_id.clone();
                        let call = handler(ctx, Request::from_parts(parts, body::boxed(incoming)));
                        match AssertUnwindSafe(call).catch_unwind().await {
                            Ok(resp) => resp,
                            Err(panic) => {
                                let message = panic_message(&*panic);
                                tracing::error!(
                                    audit_id = %audit_id,
                                    path = %path,
                                    panic = %message,
                                    "recovered from a panic in a request handler"
                                );
                                panicked(&message)
                            }
                        }
                    }
                    Err(e) => {
                        Status::new(Reason::BadRequest, format!("bad delegated request: {e}"))
                            .into_response()
                    }
                };
                Ok::<_, std::convert::Infallible>(if head { headers_only(resp) } else { resp })
            }
        });
        let conn = builder
            .serve_connection_with_upgrades(TokioIo::new(stream), service)
            .into_owned();
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!(error = %e, "delegated connection ended");
            }
        });
    }
    drop(listener);
    // The front door stops using connections to a worker that was replaced and closes
    // them once their streams end; until then they are served as usual. A GOAWAY sent
    // first would race the requests the front door is sending on them. (At a full stop
    // the front door is gone already and nothing waits here.)
    let released = async {
        while graceful.count() > 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    let _ = tokio::time::timeout(RELEASE_WITHIN, released).await;
    if tokio::time::timeout(grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            ?grace,
            "delegated connections still open after the grace period"
        );
    }
}

/// How long a draining worker lets its clients close their connections themselves before
/// it closes them with GOAWAY.
const RELEASE_WITHIN: Duration = Duration::from_secs(5);

/// HTTP/2 connections kept to each worker for short requests. One connection serialises
/// every request through one connection task and one stream-table lock; a few spread the
/// load over the front door's threads.
const POOL_SIZE: usize = 4;
/// Connections kept for long-running requests, which have a smaller stream window.
const LONG_RUNNING_POOL_SIZE: usize = 2;

/// Which connections a delegated request travels on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Traffic {
    /// A request that ends (GET, LIST, writes): the large stream window.
    Short,
    /// A watch or another long-running request: the small stream window.
    LongRunning,
}

impl Traffic {
    fn stream_window(self) -> u32 {
        match self {
            Traffic::Short => STREAM_WINDOW,
            Traffic::LongRunning => LONG_RUNNING_STREAM_WINDOW,
        }
    }
}

/// One pooled connection.
#[derive(Debug)]
struct PooledConn {
    sender: Mutex<Option<client_h2::SendRequest<Body>>>,
    dial: tokio::sync::Mutex<()>,
}

impl PooledConn {
    fn cached(&self) -> Option<client_h2::SendRequest<Body>> {
        let guard = self.sender.lock().ok()?;
        guard.as_ref().filter(|s| !s.is_closed()).cloned()
    }
}

/// Connections of one kind, used in turn.
#[derive(Debug)]
struct Pool {
    conns: Vec<PooledConn>,
    next: AtomicUsize,
}

impl Pool {
    fn new(size: usize) -> Pool {
        Pool {
            conns: (0..size)
                .map(|_| PooledConn {
                    sender: Mutex::new(None),
                    dial: tokio::sync::Mutex::new(()),
                })
                .collect(),
            next: AtomicUsize::new(0),
        }
    }

    fn slot(&self) -> &PooledConn {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.conns.len();
        &self.conns[i]
    }
}

/// A client for one worker's socket: a few multiplexed HTTP/2 connections for short
/// requests and a few for long-running ones, each re-dialled when it breaks.
#[derive(Debug)]
pub struct WorkerClient {
    role: WorkerRole,
    path: PathBuf,
    short: Pool,
    long_running: Pool,
}

impl WorkerClient {
    /// A client for `role` listening at `path`. Nothing is dialled until first use.
    pub fn new(role: WorkerRole, path: PathBuf) -> WorkerClient {
        WorkerClient {
            role,
            path,
            short: Pool::new(POOL_SIZE),
            long_running: Pool::new(LONG_RUNNING_POOL_SIZE),
        }
    }

    /// The worker this client talks to.
    pub fn role(&self) -> WorkerRole {
        self.role
    }

    /// The worker's socket.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Another process now serves the socket: later requests dial it. Requests on the
    /// old connections finish there, and the connections close when they have.
    pub fn redial(&self) {
        for conn in self.short.conns.iter().chain(&self.long_running.conns) {
            if let Ok(mut guard) = conn.sender.lock() {
                *guard = None;
            }
        }
    }

    fn pool(&self, traffic: Traffic) -> &Pool {
        match traffic {
            Traffic::Short => &self.short,
            Traffic::LongRunning => &self.long_running,
        }
    }

    async fn sender(
        &self,
        traffic: Traffic,
        slot: &PooledConn,
    ) -> Result<client_h2::SendRequest<Body>, Error> {
        if let Some(s) = slot.cached() {
            return Ok(s);
        }
        let _dialling = slot.dial.lock().await;
        if let Some(s) = slot.cached() {
            return Ok(s);
        }
        let stream = UnixStream::connect(&self.path)
            .await
            .map_err(|source| Error::Connect {
                role: self.role,
                source,
            })?;
        let (sender, conn) = client_h2::Builder::new(TokioExecutor::new())
            .timer(TokioTimer::new())
            .initial_stream_window_size(traffic.stream_window())
            .initial_connection_window_size(CONN_WINDOW)
            .max_header_list_size(MAX_HEADER_LIST)
            .handshake(TokioIo::new(stream))
            .await
            .map_err(|source| Error::Delegate {
                role: self.role,
                source,
            })?;
        let role = self.role;
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                tracing::debug!(%role, error = %e, "delegation connection closed");
            }
        });
        if let Ok(mut guard) = slot.sender.lock() {
            *guard = Some(sender.clone());
        }
        Ok(sender)
    }

    /// Sends `req` to the worker on a connection for `traffic`. A request that never left
    /// this process because the cached connection had just broken is retried once on a
    /// fresh connection.
    pub async fn send(
        &self,
        traffic: Traffic,
        req: Request<Body>,
    ) -> Result<Response<Incoming>, Error> {
        let slot = self.pool(traffic).slot();
        let mut sender = self.sender(traffic, slot).await?;
        let delegate_err = |source| Error::Delegate {
            role: self.role,
            source,
        };
        match sender.try_send_request(req).await {
            Ok(resp) => Ok(resp),
            Err(mut e) => match e.take_message() {
                Some(req) => {
                    if let Ok(mut guard) = slot.sender.lock() {
                        *guard = None;
                    }
                    let mut sender = self.sender(traffic, slot).await?;
                    sender.send_request(req).await.map_err(delegate_err)
                }
                None => Err(delegate_err(e.into_error())),
            },
        }
    }
}

#[cfg(test)]
#[path = "delegate_tests.rs"]
mod tests;
