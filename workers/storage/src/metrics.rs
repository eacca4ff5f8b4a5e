//! etcd's own series for the embedded store, served as etcd serves them (`/metrics`, in
//! Prometheus text format) on a unix socket of their own (`StoreConfig::metrics_socket`):
//! the names, types, help and buckets are etcd's for what this store has — operations by
//! kind as etcd's mvcc layer counts them (`etcd_mvcc_*_total`), commit latency (`etcd_disk_backend_commit_duration_seconds`),
//! size, keys and revisions, leadership (always: one member), the gRPC server's calls and
//! messages (`grpc_server_*`, see `grpc_metrics`) and `process_*`.

use std::convert::Infallible;
use std::path::Path;
use std::sync::Arc;

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::{Request, Response, StatusCode};
use prometheus::{Encoder, Histogram, HistogramOpts, IntCounter, IntGauge, Registry, TextEncoder};
use tokio::net::UnixListener;

use crate::pb::etcdserverpb::{response_op, TxnResponse};
use crate::store::Shared;

/// The counters and histograms a store updates as it serves; the gauges are read from
/// the state when scraped.
#[derive(Debug)]
pub(crate) struct Metrics {
    registry: Registry,
    pub(crate) range: IntCounter,
    pub(crate) put: IntCounter,
    pub(crate) delete: IntCounter,
    pub(crate) txn: IntCounter,
    pub(crate) commit: Histogram,
    has_leader: IntGauge,
    is_leader: IntGauge,
    db_size: IntGauge,
    keys: IntGauge,
    revision: IntGauge,
    compact_revision: IntGauge,
    /// The gRPC server's series, counted by a layer around the services.
    pub(crate) grpc: std::sync::Arc<crate::grpc_metrics::GrpcMetrics>,
}

impl Metrics {
    pub(crate) fn new() -> Metrics {
        let registry = Registry::new();
        // Fixed names and help: building and registering them cannot fail in a fresh
        // registry.
        let counter = |name: &str, help: &str| {
            let c = IntCounter::new(name, help).expect("etcd counter");
            registry.register(Box::new(c.clone())).expect("register");
            c
        };
        let gauge = |name: &str, help: &str| {
            let g = IntGauge::new(name, help).expect("etcd gauge");
            registry.register(Box::new(g.clone())).expect("register");
            g
        };
        let commit = Histogram::with_opts(
            HistogramOpts::new(
                "etcd_disk_backend_commit_duration_seconds",
                "The latency distributions of commit called by backend.",
            )
            .buckets(prometheus::exponential_buckets(0.001, 2.0, 14).expect("buckets")),
        )
        .expect("etcd histogram");
        registry
            .register(Box::new(commit.clone()))
            .expect("register");
        let process = prometheus::process_collector::ProcessCollector::for_self();
        let _ = registry.register(Box::new(process));
        let grpc = std::sync::Arc::new(crate::grpc_metrics::GrpcMetrics::new(&registry));
        Metrics {
            grpc,
            range: counter(
                "etcd_mvcc_range_total",
                "Total number of ranges seen by this member.",
            ),
            put: counter(
                "etcd_mvcc_put_total",
                "Total number of puts seen by this member.",
            ),
            delete: counter(
                "etcd_mvcc_delete_total",
                "Total number of deletes seen by this member.",
            ),
            txn: counter(
                "etcd_mvcc_txn_total",
                "Total number of txns seen by this member.",
            ),
            commit,
            has_leader: gauge(
                "etcd_server_has_leader",
                "Whether or not a leader exists. 1 is existence, 0 is not.",
            ),
            is_leader: gauge(
                "etcd_server_is_leader",
                "Whether or not this member is a leader. 1 if is, 0 otherwise.",
            ),
            db_size: gauge(
                "etcd_mvcc_db_total_size_in_bytes",
                "Total size of the underlying database physically allocated in bytes.",
            ),
            keys: gauge("etcd_debugging_mvcc_keys_total", "Total number of keys."),
            revision: gauge(
                "etcd_debugging_mvcc_current_revision",
                "The current revision of store.",
            ),
            compact_revision: gauge(
                "etcd_debugging_mvcc_compact_revision",
                "The revision of the last compaction in store.",
            ),
            registry,
        }
    }

    /// Counts an applied Txn as etcd's mvcc layer does: its `compares` as ranges (all of
    /// them: an early false one is not told apart), the operations it ran by kind, and
    /// one txn when the request did more than one thing.
    pub(crate) fn count_txn(&self, compares: usize, resp: &TxnResponse) {
        let mut ops = [compares as u64, 0, 0];
        ran(resp, &mut ops);
        let [ranges, puts, deletes] = ops;
        self.range.inc_by(ranges);
        self.put.inc_by(puts);
        self.delete.inc_by(deletes);
        if ranges + puts + deletes > 1 {
            self.txn.inc();
        }
    }

    /// The exposition: gauges read from `shared` now.
    fn render(&self, shared: &Shared) -> String {
        {
            let st = shared.read();
            self.revision.set(st.committed_rev);
            self.compact_revision.set(st.compact_rev);
            let live = st
                .index
                .values()
                .filter(|e| e.last().is_some_and(|e| e.kv.is_some()));
            self.keys
                .set(i64::try_from(live.count()).unwrap_or(i64::MAX));
        }
        // One member, its own leader.
        self.has_leader.set(1);
        self.is_leader.set(1);
        self.db_size
            .set(crate::engine::Engine::file_size(&shared.db_path));
        let mut out = Vec::new();
        if let Err(e) = TextEncoder::new().encode(&self.registry.gather(), &mut out) {
            tracing::warn!(error = %e, "cannot encode the store's metrics");
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}

/// Adds the operations `resp` ran (nested Txns' too) as [ranges, puts, deletes].
fn ran(resp: &TxnResponse, ops: &mut [u64; 3]) {
    for op in &resp.responses {
        match &op.response {
            Some(response_op::Response::ResponseRange(_)) => ops[0] += 1,
            Some(response_op::Response::ResponsePut(_)) => ops[1] += 1,
            Some(response_op::Response::ResponseDeleteRange(_)) => ops[2] += 1,
            Some(response_op::Response::ResponseTxn(nested)) => ran(nested, ops),
            None => {}
        }
    }
}

/// Answers `GET /metrics` on `listener` (HTTP/1.1) until the task is dropped.
pub(crate) async fn serve(listener: UnixListener, shared: Arc<Shared>) {
    loop {
        let stream = match listener.accept().await {
            Ok((s, _)) => s,
            Err(e) => {
                tracing::debug!(error = %e, "metrics socket accept failed");
                continue;
            }
        };
        let shared = shared.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
                let answer = answer(&req, &shared);
                async move { Ok::<_, Infallible>(answer) }
            });
            let io = hyper_util::rt::TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
        });
    }
}

fn answer(req: &Request<hyper::body::Incoming>, shared: &Shared) -> Response<Full<Bytes>> {
    let reply = |status: StatusCode, body: String, kind: &'static str| {
        let mut r = Response::new(Full::new(Bytes::from(body)));
        *r.status_mut() = status;
        r.headers_mut().insert(
            hyper::header::CONTENT_TYPE,
            hyper::header::HeaderValue::from_static(kind),
        );
        r
    };
    match (req.method(), req.uri().path()) {
        (&hyper::Method::GET, "/metrics") => reply(
            StatusCode::OK,
            shared.metrics.render(shared),
            "text/plain; version=0.0.4; charset=utf-8",
        ),
        (_, "/metrics") => reply(
            StatusCode::METHOD_NOT_ALLOWED,
            "method not allowed\n".into(),
            "text/plain; charset=utf-8",
        ),
        _ => reply(
            StatusCode::NOT_FOUND,
            "404 page not found\n".into(),
            "text/plain; charset=utf-8",
        ),
    }
}

/// Binds the metrics socket at `path` (mode 0600, as the store's own).
pub(crate) fn bind(path: &Path) -> Result<UnixListener, crate::Error> {
    let listener = crate::serve::bind_socket(path)?;
    listener
        .set_nonblocking(true)
        .and_then(|()| UnixListener::from_std(listener))
        .map_err(|source| crate::Error::Bind {
            path: path.to_path_buf(),
            source,
        })
}
