//! etcd's gRPC server series (go-grpc-prometheus, as etcd registers it): every RPC started
//! and handled with its gRPC code, and every message received and sent, by method —
//! `grpc_server_started_total`, `grpc_server_handled_total`,
//! `grpc_server_msg_received_total`, `grpc_server_msg_sent_total` with `grpc_type`
//! (`unary`, `server_stream`, `bidi_stream`), `grpc_service` (`etcdserverpb.KV`) and
//! `grpc_method` (`Range`). As etcd does, every method the store serves starts at zero
//! (and every code of `handled`), so a dashboard sees the series before the first call.
//!
//! A tower layer around the tonic router counts at the HTTP/2 level: messages are counted
//! from gRPC's length-prefixed framing as the bodies pass, the code is the response's
//! `grpc-status` (in its headers when the answer is only an error, else in its trailers),
//! and an answer whose body is dropped before it ends (the client went away) is handled
//! as `Canceled`, as the interceptor sees the handler's context error.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{HeaderMap, Request, Response};
use http_body::{Body as HttpBody, Frame, SizeHint};
use prometheus::{IntCounter, IntCounterVec, Opts, Registry};
use tonic::body::Body;

/// The methods the store serves: service, method, type.
const METHODS: &[(&str, &str, &str)] = &[
    ("etcdserverpb.KV", "Range", "unary"),
    ("etcdserverpb.KV", "Put", "unary"),
    ("etcdserverpb.KV", "DeleteRange", "unary"),
    ("etcdserverpb.KV", "Txn", "unary"),
    ("etcdserverpb.KV", "Compact", "unary"),
    ("etcdserverpb.Watch", "Watch", "bidi_stream"),
    ("etcdserverpb.Lease", "LeaseGrant", "unary"),
    ("etcdserverpb.Lease", "LeaseRevoke", "unary"),
    ("etcdserverpb.Lease", "LeaseKeepAlive", "bidi_stream"),
    ("etcdserverpb.Lease", "LeaseTimeToLive", "unary"),
    ("etcdserverpb.Lease", "LeaseLeases", "unary"),
    ("etcdserverpb.Cluster", "MemberAdd", "unary"),
    ("etcdserverpb.Cluster", "MemberRemove", "unary"),
    ("etcdserverpb.Cluster", "MemberUpdate", "unary"),
    ("etcdserverpb.Cluster", "MemberList", "unary"),
    ("etcdserverpb.Cluster", "MemberPromote", "unary"),
    ("etcdserverpb.Maintenance", "Alarm", "unary"),
    ("etcdserverpb.Maintenance", "Status", "unary"),
    ("etcdserverpb.Maintenance", "Defragment", "unary"),
    ("etcdserverpb.Maintenance", "Hash", "unary"),
    ("etcdserverpb.Maintenance", "HashKV", "unary"),
    ("etcdserverpb.Maintenance", "Snapshot", "server_stream"),
    ("etcdserverpb.Maintenance", "MoveLeader", "unary"),
    ("etcdserverpb.Maintenance", "Downgrade", "unary"),
];

/// gRPC's codes by number, as Go names them.
const CODES: [&str; 17] = [
    "OK",
    "Canceled",
    "Unknown",
    "InvalidArgument",
    "DeadlineExceeded",
    "NotFound",
    "AlreadyExists",
    "PermissionDenied",
    "ResourceExhausted",
    "FailedPrecondition",
    "Aborted",
    "OutOfRange",
    "Unimplemented",
    "Internal",
    "Unavailable",
    "DataLoss",
    "Unauthenticated",
];

/// The four families' series of every served method, made (at zero) once, so a call
/// looks its counters up by path instead of hashing label values.
#[derive(Debug)]
pub(crate) struct GrpcMetrics {
    /// By request path (`/etcdserverpb.KV/Range`).
    methods: HashMap<String, Arc<Method>>,
}

/// One method's series.
#[derive(Debug)]
struct Method {
    started: IntCounter,
    received: IntCounter,
    sent: IntCounter,
    /// By code, in [`CODES`] order.
    handled: Vec<IntCounter>,
}

impl GrpcMetrics {
    /// The families, registered in `registry` with every method's series at zero.
    pub(crate) fn new(registry: &Registry) -> GrpcMetrics {
        let labels = ["grpc_type", "grpc_service", "grpc_method"];
        // Fixed names and labels: building and registering them cannot fail in a fresh
        // registry.
        let family = |name: &str, help: &str, labels: &[&str]| {
            let c = IntCounterVec::new(Opts::new(name, help), labels).expect("grpc counter");
            registry.register(Box::new(c.clone())).expect("register");
            c
        };
        let started = family(
            "grpc_server_started_total",
            "Total number of RPCs started on the server.",
            &labels,
        );
        let handled = family(
            "grpc_server_handled_total",
            "Total number of RPCs completed on the server, regardless of success or failure.",
            &["grpc_type", "grpc_service", "grpc_method", "grpc_code"],
        );
        let received = family(
            "grpc_server_msg_received_total",
            "Total number of RPC stream messages received on the server.",
            &labels,
        );
        let sent = family(
            "grpc_server_msg_sent_total",
            "Total number of gRPC stream messages sent by the server.",
            &labels,
        );
        let methods = METHODS
            .iter()
            .map(|&(service, method, kind)| {
                let labels = [kind, service, method];
                let m = Method {
                    started: started.with_label_values(&labels),
                    received: received.with_label_values(&labels),
                    sent: sent.with_label_values(&labels),
                    handled: CODES
                        .iter()
                        .map(|code| handled.with_label_values(&[kind, service, method, code]))
                        .collect(),
                };
                (format!("/{service}/{method}"), Arc::new(m))
            })
            .collect();
        GrpcMetrics { methods }
    }
}

/// The layer counting every RPC of the services it wraps.
#[derive(Debug, Clone)]
pub(crate) struct Layer(pub(crate) Arc<GrpcMetrics>);

impl<S> tower_layer::Layer<S> for Layer {
    type Service = Counting<S>;

    fn layer(&self, inner: S) -> Counting<S> {
        Counting {
            inner,
            metrics: self.0.clone(),
        }
    }
}

/// A service whose RPCs are counted.
#[derive(Debug, Clone)]
pub(crate) struct Counting<S> {
    inner: S,
    metrics: Arc<GrpcMetrics>,
}

/// One RPC of a served method.
#[derive(Debug, Clone)]
struct Rpc(Arc<Method>);

impl Rpc {
    fn of(metrics: &GrpcMetrics, path: &str) -> Option<Rpc> {
        metrics.methods.get(path).cloned().map(Rpc)
    }

    fn handled(&self, code: &str) {
        let i = CODES.iter().position(|c| *c == code).unwrap_or(2); // Unknown
        self.0.handled[i].inc();
    }
}

/// The name of a `grpc-status` value.
fn code_name(value: &[u8]) -> &'static str {
    std::str::from_utf8(value)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .and_then(|n| CODES.get(n).copied())
        .unwrap_or("Unknown")
}

fn status_in(headers: &HeaderMap) -> Option<&'static str> {
    headers.get("grpc-status").map(|v| code_name(v.as_bytes()))
}

impl<S> tower_service::Service<Request<Body>> for Counting<S>
where
    S: tower_service::Service<Request<Body>, Response = Response<Body>>,
    S::Future: Send + 'static,
{
    type Response = Response<Counted>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Counted>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request<Body>) -> Self::Future {
        let rpc = Rpc::of(&self.metrics, req.uri().path());
        let req = match &rpc {
            None => req,
            Some(rpc) => {
                rpc.0.started.inc();
                let received = rpc.0.received.clone();
                req.map(|body| Body::new(Counted::new(body, received, None)))
            }
        };
        let call = self.inner.call(req);
        Box::pin(async move {
            let resp = call.await?;
            let Some(rpc) = rpc else {
                return Ok(resp.map(Counted::plain));
            };
            // An answer that is only an error carries its status in the headers.
            if let Some(code) = status_in(resp.headers()) {
                rpc.handled(code);
                return Ok(resp.map(Counted::plain));
            }
            let sent = rpc.0.sent.clone();
            Ok(resp.map(|body| Counted::new(body, sent, Some(rpc))))
        })
    }
}

/// Counts the gRPC messages in a byte stream: each is a 5-byte header (a flag and a
/// big-endian length) and that many bytes.
#[derive(Debug, Default)]
struct Framing {
    header: [u8; 5],
    header_len: usize,
    /// Bytes of the current message's payload still to come.
    remaining: usize,
}

impl Framing {
    /// The messages that `data` completes.
    fn feed(&mut self, mut data: &[u8]) -> u64 {
        let mut complete = 0;
        while !data.is_empty() {
            if self.header_len < 5 {
                let take = (5 - self.header_len).min(data.len());
                self.header[self.header_len..self.header_len + take].copy_from_slice(&data[..take]);
                self.header_len += take;
                data = &data[take..];
                if self.header_len == 5 {
                    let len = u32::from_be_bytes([
                        self.header[1],
                        self.header[2],
                        self.header[3],
                        self.header[4],
                    ]);
                    self.remaining = len as usize;
                    if self.remaining == 0 {
                        complete += 1;
                        self.header_len = 0;
                    }
                }
                continue;
            }
            let take = self.remaining.min(data.len());
            self.remaining -= take;
            data = &data[take..];
            if self.remaining == 0 {
                complete += 1;
                self.header_len = 0;
            }
        }
        complete
    }
}

/// A body whose gRPC messages are counted and, for an answer, whose end records the
/// RPC's code.
pub(crate) struct Counted {
    inner: Body,
    counting: Option<(IntCounter, Framing)>,
    /// The RPC to record as handled when the answer ends (or is dropped unfinished).
    answer: Option<Rpc>,
}

impl Counted {
    fn new(inner: Body, messages: IntCounter, answer: Option<Rpc>) -> Counted {
        Counted {
            inner,
            counting: Some((messages, Framing::default())),
            answer,
        }
    }

    fn plain(inner: Body) -> Counted {
        Counted {
            inner,
            counting: None,
            answer: None,
        }
    }

    fn finish(&mut self, code: &str) {
        if let Some(rpc) = self.answer.take() {
            rpc.handled(code);
        }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.finish("Canceled");
    }
}

impl HttpBody for Counted {
    type Data = Bytes;
    type Error = tonic::Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, tonic::Status>>> {
        let this = &mut *self;
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                if let (Some(data), Some((counter, framing))) =
                    (frame.data_ref(), &mut this.counting)
                {
                    counter.inc_by(framing.feed(data));
                }
                if let Some(trailers) = frame.trailers_ref() {
                    let code = status_in(trailers).unwrap_or("OK");
                    this.finish(code);
                }
            }
            Poll::Ready(None) => this.finish("OK"),
            Poll::Ready(Some(Err(_))) => this.finish("Unknown"),
            Poll::Pending => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_counted_across_chunks() {
        let mut f = Framing::default();
        // Two messages (3 bytes, then empty) split mid-header and mid-payload.
        let bytes = [0u8, 0, 0, 0, 3, 1, 2, 3, 0, 0, 0, 0, 0];
        assert_eq!(f.feed(&bytes[..2]), 0);
        assert_eq!(f.feed(&bytes[2..6]), 0);
        assert_eq!(f.feed(&bytes[6..]), 2);
        assert_eq!(code_name(b"5"), "NotFound");
        assert_eq!(code_name(b"99"), "Unknown");
    }

    #[test]
    fn every_method_starts_at_zero() {
        let registry = Registry::new();
        let m = GrpcMetrics::new(&registry);
        let rpc = Rpc::of(&m, "/etcdserverpb.KV/Range").expect("served");
        rpc.0.started.inc();
        assert!(Rpc::of(&m, "/etcdserverpb.Auth/Authenticate").is_none());
        let text = {
            let mut out = Vec::new();
            prometheus::Encoder::encode(
                &prometheus::TextEncoder::new(),
                &registry.gather(),
                &mut out,
            )
            .expect("encode");
            String::from_utf8(out).expect("utf-8")
        };
        assert!(text.contains(
            r#"grpc_server_handled_total{grpc_code="Unavailable",grpc_method="Watch",grpc_service="etcdserverpb.Watch",grpc_type="bidi_stream"} 0"#
        ), "{text}");
        assert!(text.contains(
            r#"grpc_server_started_total{grpc_method="Range",grpc_service="etcdserverpb.KV",grpc_type="unary"} 1"#
        ), "{text}");
    }
}
