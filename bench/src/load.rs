//! Closed-loop load: N connections, each sending its next request as soon as the last
//! response body has been read, for a warm-up and then a measured window. Latency goes
//! into an HDR histogram per connection; the histograms are merged at the end.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use hdrhistogram::Histogram;
use http::header::{HeaderName, HeaderValue};
use http::Method;
use http_body_util::BodyExt;
use rustls::ClientConfig;
use serde::Serialize;
use tokio::time::Instant;

use crate::client::{Conn, Protocol, Target};
use crate::Error;

/// Highest latency the histogram holds (longer ones are clamped): 60 s in ns.
const MAX_LATENCY_NS: u64 = 60_000_000_000;
/// Pause before re-connecting after a failed connect, so a dead server is not spun on.
const RECONNECT_PAUSE: Duration = Duration::from_millis(10);

/// What to send, where, and for how long.
#[derive(Debug, Clone)]
pub struct LoadSpec {
    /// The URL.
    pub target: Target,
    /// HTTP/1.1 or HTTP/2.
    pub protocol: Protocol,
    /// Concurrent connections, each with one request in flight.
    pub connections: usize,
    /// Time run before measuring starts.
    pub warmup: Duration,
    /// Measured time.
    pub duration: Duration,
    /// Request method.
    pub method: Method,
    /// Extra request headers.
    pub headers: Vec<(HeaderName, HeaderValue)>,
    /// Request body (empty for none).
    pub body: Bytes,
    /// Client TLS configuration; must offer `protocol`'s ALPN id.
    pub tls: Arc<ClientConfig>,
}

/// The outcome of one load run, printed as JSON.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The URL.
    pub url: String,
    /// `h2` or `http/1.1`.
    pub protocol: &'static str,
    /// Concurrent connections.
    pub connections: usize,
    /// Measured seconds.
    pub duration_s: f64,
    /// Responses completed in the measured window (any status).
    pub requests: u64,
    /// `requests / duration_s`.
    pub rps: f64,
    /// Mean latency, µs.
    pub mean_us: f64,
    /// Median latency, µs.
    pub p50_us: f64,
    /// 90th percentile latency, µs.
    pub p90_us: f64,
    /// 99th percentile latency, µs.
    pub p99_us: f64,
    /// Highest latency, µs.
    pub max_us: f64,
    /// Requests that failed below HTTP (connection reset, protocol error, …).
    pub errors: u64,
    /// Responses whose status was not 2xx (counted in `requests` too).
    pub non_2xx: u64,
    /// Response body bytes read in the measured window.
    pub body_bytes: u64,
}

/// What one connection saw in the measured window.
struct ConnTally {
    latency_ns: Histogram<u64>,
    errors: u64,
    non_2xx: u64,
    body_bytes: u64,
}

impl ConnTally {
    fn new() -> Result<Self, hdrhistogram::CreationError> {
        Ok(Self {
            latency_ns: Histogram::new_with_bounds(1, MAX_LATENCY_NS, 3)?,
            errors: 0,
            non_2xx: 0,
            body_bytes: 0,
        })
    }
}

/// Opens every connection first (handshakes are not measured), then runs the load and
/// returns the merged report. Fails only if a first connection cannot be made.
pub async fn run(spec: LoadSpec) -> Result<Report, Error> {
    let spec = Arc::new(spec);
    let mut conns = Vec::with_capacity(spec.connections);
    for _ in 0..spec.connections {
        conns.push(Conn::connect(&spec.target, spec.tls.clone(), spec.protocol).await?);
    }

    let start = Instant::now();
    let measure_from = start + spec.warmup;
    let until = measure_from + spec.duration;
    let tasks: Vec<_> = conns
        .into_iter()
        .map(|conn| tokio::spawn(drive(spec.clone(), conn, measure_from, until)))
        .collect();

    let mut total = ConnTally::new().map_err(histogram_bug)?;
    for task in tasks {
        // A panicking connection task is a bug in this crate; count it, do not hide it.
        let Ok(tally) = task.await else {
            total.errors += 1;
            continue;
        };
        let tally = tally?;
        total
            .latency_ns
            .add(&tally.latency_ns)
            .map_err(|_| histogram_bug("merge"))?;
        total.errors += tally.errors;
        total.non_2xx += tally.non_2xx;
        total.body_bytes += tally.body_bytes;
    }

    let h = &total.latency_ns;
    let us = |ns: u64| ns as f64 / 1000.0;
    let secs = spec.duration.as_secs_f64();
    Ok(Report {
        url: spec.target.uri().to_string(),
        protocol: spec.protocol.name(),
        connections: spec.connections,
        duration_s: secs,
        requests: h.len(),
        rps: h.len() as f64 / secs,
        mean_us: h.mean() / 1000.0,
        p50_us: us(h.value_at_quantile(0.50)),
        p90_us: us(h.value_at_quantile(0.90)),
        p99_us: us(h.value_at_quantile(0.99)),
        max_us: us(h.max()),
        errors: total.errors,
        non_2xx: total.non_2xx,
        body_bytes: total.body_bytes,
    })
}

/// The bounds above are constants, so histogram errors cannot come from input.
fn histogram_bug(what: impl std::fmt::Debug) -> Error {
    Error::Histogram(format!("{what:?}"))
}

/// One connection's closed loop. A response counts if it completes inside
/// `[measure_from, until)`; on a failed request the connection is re-opened.
async fn drive(
    spec: Arc<LoadSpec>,
    mut conn: Conn,
    measure_from: Instant,
    until: Instant,
) -> Result<ConnTally, Error> {
    let mut tally = ConnTally::new().map_err(histogram_bug)?;
    loop {
        let sent = Instant::now();
        if sent >= until {
            return Ok(tally);
        }
        let req = spec.target.request(
            spec.protocol,
            &spec.method,
            &spec.headers,
            spec.body.clone(),
        )?;
        let outcome = async {
            let resp = conn.send(req).await?;
            let status = resp.status();
            let body = resp.into_body().collect().await?.to_bytes();
            Ok::<_, Error>((status, body.len()))
        }
        .await;
        let done = Instant::now();
        let counted = done >= measure_from && done < until;
        match outcome {
            Ok((status, len)) => {
                if counted {
                    let ns = u64::try_from((done - sent).as_nanos()).unwrap_or(u64::MAX);
                    tally.latency_ns.saturating_record(ns.max(1));
                    tally.body_bytes += len as u64;
                    if !status.is_success() {
                        tally.non_2xx += 1;
                    }
                }
            }
            Err(_) => {
                if counted {
                    tally.errors += 1;
                }
                conn = loop {
                    if Instant::now() >= until {
                        return Ok(tally);
                    }
                    match Conn::connect(&spec.target, spec.tls.clone(), spec.protocol).await {
                        Ok(c) => break c,
                        Err(_) => {
                            tally.errors += 1;
                            tokio::time::sleep(RECONNECT_PAUSE).await;
                        }
                    }
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::{serve, Answer};
    use crate::tls::{client_config, server_config, SelfSigned, ServerTrust};

    /// The load generator against the baseline, in process, for both protocols.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn loads_the_baseline() {
        let dir = std::env::temp_dir().join(format!("kas-bench-test-{}", std::process::id()));
        let (pki, generated) = SelfSigned::ensure(&dir).expect("self-signed set");
        assert!(generated);
        assert!(!SelfSigned::ensure(&dir).expect("reuse").1);

        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = listener.local_addr().expect("address").port();
        let answer = Answer {
            body: Bytes::from_static(b"{\"kind\":\"APIVersions\"}"),
            content_type: HeaderValue::from_static("application/json"),
            admission_review: false,
        };
        let server = tokio::spawn(serve(
            listener,
            server_config(&pki.cert, &pki.key).expect("server config"),
            answer,
        ));

        for protocol in [Protocol::Http1, Protocol::Http2] {
            let spec = LoadSpec {
                target: Target::parse(&format!("https://localhost:{port}/api")).expect("url"),
                protocol,
                connections: 4,
                warmup: Duration::from_millis(50),
                duration: Duration::from_millis(200),
                method: Method::GET,
                headers: vec![],
                body: Bytes::new(),
                tls: client_config(
                    &ServerTrust::CaFile(pki.ca.clone()),
                    None,
                    &[protocol.alpn()],
                )
                .expect("client config"),
            };
            let report = run(spec).await.expect("load run");
            assert!(report.requests > 0, "{report:?}");
            assert_eq!((report.errors, report.non_2xx), (0, 0), "{report:?}");
            assert_eq!(report.body_bytes, report.requests * 22);
            assert!(report.p50_us <= report.p99_us && report.p99_us <= report.max_us);
        }

        server.abort();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
