//! The request metrics of kube-apiserver's endpoint instrumentation, recorded at the front
//! door where every request passes: `apiserver_request_total`,
//! `apiserver_request_duration_seconds`, `apiserver_response_sizes`,
//! `apiserver_longrunning_requests` and `apiserver_current_inflight_requests`, with
//! upstream's names, labels, buckets and verb and scope rules
//! (`k8s.io/apiserver/pkg/endpoints/metrics`). A request is recorded when its response body
//! ends (or the client goes away), as upstream records when its handler returns.
//!
//! As upstream, only requests that reach a handler are counted (not those refused by
//! authentication or authorization; the 429s of max-in-flight are), and a path no server
//! routes is not: its labels would come from the URL alone and let any client add series.

use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures_util::future::join_all;
use http::{HeaderMap, Method, Response};
use hyper::body::{Frame, SizeHint};
use kas_proto::{RequestContext, RequestInfo, WorkerRole};
use kas_server::body::{Body, BoxError};
use kas_server::delegate::METRICS_PATH;
use kas_server::metrics::{exponential_buckets, help, register, Stability};

use crate::front::{Front, CHAIN};
use prometheus::{HistogramOpts, HistogramVec, IntCounterVec, IntGauge, IntGaugeVec, Opts};

/// Response extension: a response the metrics leave out (a path no server routes, an
/// answer of a remote API server).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Unmeasured;

/// Response extension set by the chain on the responses of requests that reached a
/// handler (and on max-in-flight's 429s).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Measure;

struct Families {
    requests: IntCounterVec,
    latency: HistogramVec,
    sizes: HistogramVec,
    long_running: IntGaugeVec,
    inflight: IntGaugeVec,
}

fn families() -> &'static Families {
    static FAMILIES: OnceLock<Families> = OnceLock::new();
    FAMILIES.get_or_init(|| {
        const REQUEST: [&str; 9] = [
            "verb",
            "dry_run",
            "group",
            "version",
            "resource",
            "subresource",
            "scope",
            "component",
            "code",
        ];
        const OBJECT: [&str; 7] = [
            "verb",
            "group",
            "version",
            "resource",
            "subresource",
            "scope",
            "component",
        ];
        // Building a vector can only fail on a malformed name or label: these are fixed.
        let requests = IntCounterVec::new(
            Opts::new("apiserver_request_total", help(Stability::Stable, "Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.")),
            &REQUEST,
        )
        .expect("apiserver_request_total");
        let latency = HistogramVec::new(
            HistogramOpts::new("apiserver_request_duration_seconds", help(Stability::Stable, "Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component."))
                .buckets(vec![0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 15.0, 20.0, 30.0, 45.0, 60.0]),
            &REQUEST[..8],
        )
        .expect("apiserver_request_duration_seconds");
        let sizes = HistogramVec::new(
            HistogramOpts::new("apiserver_response_sizes", help(Stability::Stable, "Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component."))
                .buckets(exponential_buckets(1000.0, 10.0, 7)),
            &OBJECT,
        )
        .expect("apiserver_response_sizes");
        let long_running = IntGaugeVec::new(
            Opts::new("apiserver_longrunning_requests", help(Stability::Stable, "Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.")),
            &OBJECT,
        )
        .expect("apiserver_longrunning_requests");
        let inflight = IntGaugeVec::new(
            Opts::new("apiserver_current_inflight_requests", help(Stability::Stable, "Maximal number of currently used inflight request limit of this apiserver per request kind in last second.")),
            &["request_kind"],
        )
        .expect("apiserver_current_inflight_requests");
        crate::audit::metrics::register_all();
        Families {
            requests: register(requests),
            latency: register(latency),
            sizes: register(sizes),
            long_running: register(long_running),
            inflight: register(inflight),
        }
    })
}

/// How long a worker may take to hand over its series before the scrape goes on without.
const WORKER_SCRAPE_TIMEOUT: Duration = Duration::from_secs(5);
/// The largest exposition taken from one worker.
const MAX_WORKER_EXPOSITION: usize = 64 << 20;

/// `/metrics`: this process's series merged with each local worker's, a family several
/// processes have labelled by `worker`. A worker that is down or slow is left out of this
/// scrape.
pub(crate) async fn respond(
    front: &Front,
    ctx: &RequestContext,
    headers: &HeaderMap,
) -> Response<Body> {
    crate::peer_metrics::record(&front.peers.borrow());
    let own = kas_server::metrics::encode(kas_server::metrics::registry());
    let workers = join_all(
        CHAIN
            .iter()
            .map(|&role| async move { (role, worker_exposition(front, ctx, role).await) }),
    )
    .await;
    let mut sources = vec![(WorkerRole::Aggregator.as_str(), own.as_str())];
    for (role, text) in &workers {
        if let Some(text) = text {
            sources.push((role.as_str(), text.as_str()));
        }
    }
    kas_server::metrics::respond_with(kas_server::metrics::merge(&sources), headers)
}

/// The workers' `apiserver_storage_objects`: (resource, count), -1 for a resource a
/// worker could not count.
pub(crate) async fn storage_object_counts(front: &Front) -> Vec<(String, i64)> {
    let ctx = crate::front::own_context(&Method::GET, METRICS_PATH);
    let mut counts = Vec::new();
    for role in CHAIN {
        let Some(text) = worker_exposition(front, &ctx, role).await else {
            continue;
        };
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("apiserver_storage_objects{resource=\"") else {
                continue;
            };
            let Some((resource, value)) = rest.split_once("\"} ") else {
                continue;
            };
            if let Ok(n) = value.trim().parse::<f64>() {
                counts.push((resource.to_owned(), n as i64));
            }
        }
    }
    counts
}

/// One worker's exposition, asked for over its delegation socket.
async fn worker_exposition(
    front: &Front,
    ctx: &RequestContext,
    role: WorkerRole,
) -> Option<String> {
    if !front.peer_serving(role) {
        return None;
    }
    let parts = http::Request::get(METRICS_PATH)
        .body(())
        .ok()?
        .into_parts()
        .0;
    let send = crate::director::send(front, role, ctx, parts, kas_server::body::empty());
    let resp = tokio::time::timeout(WORKER_SCRAPE_TIMEOUT, send)
        .await
        .ok()?
        .ok()?;
    if !resp.status().is_success() {
        return None;
    }
    let body = kas_server::body::boxed(resp.into_body());
    let read = kas_server::body::read_limited(body, MAX_WORKER_EXPOSITION);
    let bytes = tokio::time::timeout(WORKER_SCRAPE_TIMEOUT, read)
        .await
        .ok()?
        .ok()?;
    String::from_utf8(bytes.to_vec()).ok()
}

/// The most read-only and mutating max-in-flight seats in use at once since the last
/// tick of [`publish_inflight`].
static WATERMARKS: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];

/// A request took a seat: `in_use` seats of its kind are taken now.
pub(crate) fn seats_taken(mutating: bool, in_use: usize) {
    WATERMARKS[usize::from(mutating)].fetch_max(in_use, Ordering::Relaxed);
}

/// Every second, `apiserver_current_inflight_requests` becomes the most seats of each
/// kind in use at once during that second, as upstream's max-in-flight filter publishes
/// its watermarks.
pub(crate) async fn publish_inflight(front: Arc<Front>) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let f = families();
    loop {
        tick.tick().await;
        let now = front.seats_in_use();
        for (i, kind) in ["readOnly", "mutating"].into_iter().enumerate() {
            let most = WATERMARKS[i].swap(0, Ordering::Relaxed).max(now[i]);
            f.inflight.with_label_values(&[kind]).set(most as i64);
        }
    }
}

/// The labels of one request, as upstream's `MonitorRequest` computes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Labels {
    verb: &'static str,
    dry_run: String,
    group: String,
    version: String,
    resource: String,
    subresource: String,
    scope: &'static str,
    component: &'static str,
}

impl Labels {
    /// The labels of a request, or `None` for a request upstream does not instrument (a
    /// non-resource path other than the health checks).
    pub(crate) fn of(
        method: &Method,
        info: &RequestInfo,
        query: Option<&str>,
        headers: &HeaderMap,
    ) -> Option<Labels> {
        if !info.is_resource_request {
            // The health checks are instrumented with their path as the subresource and
            // no component (`server/healthz`).
            kas_server::health::endpoint_of(&info.path)?;
            return Some(Labels {
                verb: "GET",
                dry_run: String::new(),
                group: String::new(),
                version: String::new(),
                resource: String::new(),
                subresource: info.path.clone(),
                scope: "",
                component: "",
            });
        }
        let scope = scope(info);
        Some(Labels {
            verb: verb(method, info, scope, headers),
            dry_run: dry_run(query),
            group: info.api_group.clone(),
            version: info.api_version.clone(),
            resource: info.resource.clone(),
            subresource: info.subresource.clone(),
            scope,
            component: "apiserver",
        })
    }

    fn object(&self) -> [&str; 7] {
        [
            self.verb,
            &self.group,
            &self.version,
            &self.resource,
            &self.subresource,
            self.scope,
            self.component,
        ]
    }

    fn request(&self) -> [&str; 8] {
        [
            self.verb,
            &self.dry_run,
            &self.group,
            &self.version,
            &self.resource,
            &self.subresource,
            self.scope,
            self.component,
        ]
    }
}

/// `CleanScope`: one object, a namespace, the cluster, or none (non-resource).
fn scope(info: &RequestInfo) -> &'static str {
    if !info.name.is_empty() || info.verb == "create" {
        "resource"
    } else if !info.namespace.is_empty() {
        "namespace"
    } else {
        "cluster"
    }
}

/// The reported verb: the method in capitals, GET of a collection as LIST, watches as
/// WATCH, server-side apply as APPLY, the connect subresources as CONNECT, anything
/// else as `other`.
fn verb(method: &Method, info: &RequestInfo, scope: &str, headers: &HeaderMap) -> &'static str {
    const CONNECT: [&str; 5] = ["log", "exec", "portforward", "attach", "proxy"];
    if CONNECT.contains(&info.subresource.as_str()) {
        return "CONNECT";
    }
    if info.verb == "watch" {
        return "WATCH";
    }
    match *method {
        Method::GET | Method::HEAD if scope == "resource" => "GET",
        Method::GET | Method::HEAD => "LIST",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => {
            let apply = headers
                .get(http::header::CONTENT_TYPE)
                .is_some_and(|v| v.as_bytes() == b"application/apply-patch+yaml");
            if apply {
                "APPLY"
            } else {
                "PATCH"
            }
        }
        _ => "other",
    }
}

/// `cleanDryRun`: the distinct `dryRun` values sorted and joined, `invalid` when any is
/// not `All`.
fn dry_run(query: Option<&str>) -> String {
    let Some(query) = query.filter(|q| q.contains("dryRun")) else {
        return String::new();
    };
    let mut values: Vec<String> = form_urlencoded::parse(query.as_bytes())
        .filter(|(k, _)| k == "dryRun")
        .map(|(_, v)| v.into_owned())
        .collect();
    if values.iter().any(|v| v != "All") {
        return "invalid".to_owned();
    }
    values.sort();
    values.dedup();
    values.join(",")
}

/// Records `resp` once its body ends (or is dropped): the count and latency, the size of
/// GET and LIST responses; a long-running request is in `apiserver_longrunning_requests`
/// meanwhile.
pub(crate) fn measure(
    labels: Labels,
    started: Instant,
    long_running: bool,
    resp: Response<Body>,
) -> Response<Body> {
    let code = resp.status().as_u16();
    let running = long_running.then(|| {
        let gauge = families().long_running.with_label_values(&labels.object());
        gauge.inc();
        gauge
    });
    resp.map(|inner| {
        kas_server::body::boxed(Measured {
            inner,
            record: Some(Record {
                labels,
                code,
                started,
                running,
                size: 0,
            }),
        })
    })
}

struct Record {
    labels: Labels,
    code: u16,
    started: Instant,
    running: Option<IntGauge>,
    size: usize,
}

impl Drop for Record {
    fn drop(&mut self) {
        let f = families();
        if let Some(gauge) = &self.running {
            gauge.dec();
        }
        let request = self.labels.request();
        let mut with_code = request.to_vec();
        let code = self.code.to_string();
        with_code.push(&code);
        f.requests.with_label_values(&with_code).inc();
        f.latency
            .with_label_values(&request)
            .observe(self.started.elapsed().as_secs_f64());
        if matches!(self.labels.verb, "GET" | "LIST") {
            f.sizes
                .with_label_values(&self.labels.object())
                .observe(self.size as f64);
        }
    }
}

struct Measured {
    inner: Body,
    record: Option<Record>,
}

impl hyper::body::Body for Measured {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                let n = frame.data_ref().map_or(0, Bytes::len);
                if let Some(r) = self.record.as_mut() {
                    r.size += n;
                }
            }
            // The end: recorded now rather than when hyper drops the body.
            Poll::Ready(None) | Poll::Ready(Some(Err(_))) => self.record = None,
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

    fn labels(method: Method, path: &str, query: Option<&str>, content_type: &str) -> Labels {
        let info = kas_server::request_info::parse(&method, path, query);
        let mut headers = HeaderMap::new();
        if !content_type.is_empty() {
            headers.insert(http::header::CONTENT_TYPE, content_type.parse().unwrap());
        }
        Labels::of(&method, &info, query, &headers).expect("measured")
    }

    #[test]
    fn verbs_and_scopes_as_upstream() {
        let cases = [
            (
                Method::GET,
                "/api/v1/namespaces/default/pods/web",
                None,
                "",
                "GET",
                "resource",
            ),
            (
                Method::GET,
                "/api/v1/namespaces/default/pods",
                None,
                "",
                "LIST",
                "namespace",
            ),
            (Method::GET, "/api/v1/pods", None, "", "LIST", "cluster"),
            (
                Method::GET,
                "/api/v1/pods",
                Some("watch=true"),
                "",
                "WATCH",
                "cluster",
            ),
            (
                Method::GET,
                "/api/v1/watch/namespaces/default/pods",
                None,
                "",
                "WATCH",
                "namespace",
            ),
            (
                Method::POST,
                "/api/v1/namespaces/default/pods",
                None,
                "",
                "POST",
                "resource",
            ),
            (
                Method::PUT,
                "/apis/apps/v1/namespaces/a/deployments/d",
                None,
                "",
                "PUT",
                "resource",
            ),
            (
                Method::PATCH,
                "/apis/apps/v1/namespaces/a/deployments/d",
                None,
                "application/apply-patch+yaml",
                "APPLY",
                "resource",
            ),
            (
                Method::PATCH,
                "/apis/apps/v1/namespaces/a/deployments/d",
                None,
                "application/merge-patch+json",
                "PATCH",
                "resource",
            ),
            (
                Method::DELETE,
                "/api/v1/namespaces/default/configmaps",
                None,
                "",
                "DELETE",
                "namespace",
            ),
            (
                Method::GET,
                "/api/v1/namespaces/default/pods/web/log",
                None,
                "",
                "CONNECT",
                "resource",
            ),
        ];
        for (method, path, query, ct, verb, scope) in cases {
            let l = labels(method, path, query, ct);
            assert_eq!((l.verb, l.scope), (verb, scope), "{path} {query:?}");
        }
        let l = labels(
            Method::GET,
            "/apis/apps/v1/namespaces/a/deployments/d/scale",
            None,
            "",
        );
        assert_eq!(
            l.request(),
            [
                "GET",
                "",
                "apps",
                "v1",
                "deployments",
                "scale",
                "resource",
                "apiserver"
            ]
        );
    }

    #[test]
    fn non_resource_paths() {
        let info = kas_server::request_info::parse(&Method::GET, "/readyz", None);
        let l = Labels::of(&Method::GET, &info, None, &HeaderMap::new()).expect("health");
        assert_eq!(l.request(), ["GET", "", "", "", "", "/readyz", "", ""]);
        let info = kas_server::request_info::parse(&Method::GET, "/whatever", None);
        assert!(Labels::of(&Method::GET, &info, None, &HeaderMap::new()).is_none());
    }

    #[test]
    fn dry_run_values() {
        assert_eq!(dry_run(None), "");
        assert_eq!(dry_run(Some("dryRun=All&dryRun=All")), "All");
        assert_eq!(dry_run(Some("dryRun=Nope")), "invalid");
        assert_eq!(dry_run(Some("limit=1")), "");
    }
}
