//! Closed-loop load on an etcd v3 endpoint, the embedded store's unix socket or a real
//! etcd's TCP port, through `etcd-client` (what the API servers will use):
//!
//! * `put`: N clients, each putting its next ~1 KiB value as soon as the last put was
//!   acknowledged;
//! * `range`: N clients, each reading a prefix holding `range_keys` keys (linearizable,
//!   as kube-apiserver reads for a LIST without a resource version);
//! * `get`: the same for one key;
//! * `watch`: one watcher on a prefix and one client putting under it sequentially; the
//!   latency is from just before a put is issued to the watcher receiving its event.
//!
//! Every client has its own gRPC connection (HTTP/2), made from a tonic `Endpoint`
//! (`http://host:port` or `unix:///abs/path`), so both stores are reached the same way.

use std::sync::Arc;
use std::time::Duration;

use etcd_client::{Client, GetOptions, WatchOptions};
use hdrhistogram::Histogram;
use serde::Serialize;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::Error;

/// Highest latency the histogram holds (longer ones are clamped): 60 s in ns.
const MAX_LATENCY_NS: u64 = 60_000_000_000;
/// Keys each `put` client cycles through (so the key space stays bounded).
const PUT_KEYS_PER_CLIENT: u64 = 100;
/// Keys the watched put cycles through.
const WATCH_KEYS: u64 = 100;
/// Pause after a failed call, so a dead endpoint is not spun on.
const ERROR_PAUSE: Duration = Duration::from_millis(10);

/// The operation to load.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// Put one key.
    Put,
    /// Range over a prefix of `range_keys` keys.
    Range,
    /// Range of one key.
    Get,
    /// Put → watch event latency, one watcher, sequential puts.
    Watch,
}

/// What to load, where, and for how long.
#[derive(Debug, Clone)]
pub struct EtcdSpec {
    /// `http://127.0.0.1:2379` or `unix:///abs/path.sock`.
    pub endpoint: String,
    /// The operation.
    pub op: Op,
    /// Concurrent clients (ignored for `watch`: one watcher, one putter).
    pub clients: usize,
    /// Time run before measuring starts.
    pub warmup: Duration,
    /// Measured time.
    pub duration: Duration,
    /// Bytes of every value written.
    pub value_size: usize,
    /// Every key starts with this.
    pub prefix: String,
    /// Keys under the ranged prefix.
    pub range_keys: usize,
}

/// The outcome of one run, printed as JSON.
#[derive(Debug, Clone, Serialize)]
pub struct EtcdReport {
    /// The endpoint.
    pub endpoint: String,
    /// The operation.
    pub op: Op,
    /// Concurrent clients.
    pub clients: usize,
    /// Measured seconds.
    pub duration_s: f64,
    /// Operations completed in the measured window.
    pub ops: u64,
    /// `ops / duration_s`.
    pub ops_per_s: f64,
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
    /// Failed calls, and ranges that returned the wrong number of keys.
    pub errors: u64,
}

/// Connects one client over its own gRPC connection.
pub async fn connect(endpoint: &str) -> Result<Client, Error> {
    let channel = tonic::transport::Endpoint::from_shared(endpoint.to_string())?
        .connect()
        .await?;
    Ok(Client::from_channel(etcd_client::Channel::Tonic(channel), None).await?)
}

/// Connects until `timeout`, answering once a Status call succeeds (a fresh etcd takes a
/// moment to elect itself).
pub async fn wait_healthy(endpoint: &str, timeout: Duration) -> Result<Duration, Error> {
    let start = Instant::now();
    loop {
        let attempt = async { connect(endpoint).await?.status().await.map_err(Error::from) };
        let last = match tokio::time::timeout(Duration::from_secs(2), attempt).await {
            Ok(Ok(_)) => return Ok(start.elapsed()),
            Ok(Err(e)) => e.to_string(),
            Err(_) => "status call timed out".to_string(),
        };
        if start.elapsed() >= timeout {
            return Err(Error::Timeout(
                timeout,
                format!("{endpoint} to answer Status (last: {last})"),
            ));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Latencies and errors of one client.
struct Tally {
    latency_ns: Histogram<u64>,
    errors: u64,
}

impl Tally {
    fn new() -> Result<Self, Error> {
        Ok(Self {
            latency_ns: Histogram::new_with_bounds(1, MAX_LATENCY_NS, 3)
                .map_err(|e| Error::Histogram(format!("{e:?}")))?,
            errors: 0,
        })
    }

    fn record(&mut self, took: Duration) {
        let ns = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.latency_ns.saturating_record(ns.max(1));
    }

    fn merge(&mut self, other: &Tally) -> Result<(), Error> {
        self.latency_ns
            .add(&other.latency_ns)
            .map_err(|e| Error::Histogram(format!("{e:?}")))?;
        self.errors += other.errors;
        Ok(())
    }
}

/// The measured window.
#[derive(Clone, Copy)]
struct Window {
    from: Instant,
    until: Instant,
}

impl Window {
    fn counts(&self, at: Instant) -> bool {
        at >= self.from && at < self.until
    }
}

/// Connects every client first (not measured), writes what `range` and `get` read, then
/// runs the load and returns the merged report.
pub async fn run(spec: EtcdSpec) -> Result<EtcdReport, Error> {
    if spec.clients == 0 {
        return Err(Error::Setup("at least one client is needed".into()));
    }
    let spec = Arc::new(spec);
    let value = Arc::new(vec![b'v'; spec.value_size]);
    let clients = match spec.op {
        Op::Watch => 1,
        _ => spec.clients,
    };

    let total = if spec.op == Op::Watch {
        let watcher = connect(&spec.endpoint).await?;
        let putter = connect(&spec.endpoint).await?;
        let window = window(&spec);
        watch_loop(&spec, watcher, putter, &value, window).await?
    } else {
        let mut conns = Vec::with_capacity(clients);
        for _ in 0..clients {
            conns.push(connect(&spec.endpoint).await?);
        }
        if matches!(spec.op, Op::Range | Op::Get) {
            let mut first = conns[0].clone();
            for j in 0..spec.range_keys.max(1) {
                first
                    .put(range_key(&spec.prefix, j), value.as_slice(), None)
                    .await?;
            }
        }
        let window = window(&spec);
        let tasks: Vec<_> = conns
            .into_iter()
            .enumerate()
            .map(|(i, client)| {
                tokio::spawn(client_loop(spec.clone(), client, i, value.clone(), window))
            })
            .collect();
        let mut total = Tally::new()?;
        for task in tasks {
            // A panicking client task is a bug in this crate; count it, do not hide it.
            let Ok(tally) = task.await else {
                total.errors += 1;
                continue;
            };
            total.merge(&tally?)?;
        }
        total
    };

    let h = &total.latency_ns;
    let us = |ns: u64| ns as f64 / 1000.0;
    let secs = spec.duration.as_secs_f64();
    Ok(EtcdReport {
        endpoint: spec.endpoint.clone(),
        op: spec.op,
        clients,
        duration_s: secs,
        ops: h.len(),
        ops_per_s: h.len() as f64 / secs,
        mean_us: h.mean() / 1000.0,
        p50_us: us(h.value_at_quantile(0.50)),
        p90_us: us(h.value_at_quantile(0.90)),
        p99_us: us(h.value_at_quantile(0.99)),
        max_us: us(h.max()),
        errors: total.errors,
    })
}

fn window(spec: &EtcdSpec) -> Window {
    let from = Instant::now() + spec.warmup;
    Window {
        from,
        until: from + spec.duration,
    }
}

fn range_key(prefix: &str, j: usize) -> String {
    format!("{prefix}range/{j:06}")
}

/// One client's closed loop of puts, ranges or gets.
async fn client_loop(
    spec: Arc<EtcdSpec>,
    mut client: Client,
    index: usize,
    value: Arc<Vec<u8>>,
    window: Window,
) -> Result<Tally, Error> {
    let mut tally = Tally::new()?;
    let range_prefix = format!("{}range/", spec.prefix);
    let single = range_key(&spec.prefix, 0);
    let expected = match spec.op {
        Op::Range => spec.range_keys.max(1),
        _ => 1,
    };
    let mut i: u64 = 0;
    loop {
        let sent = Instant::now();
        if sent >= window.until {
            return Ok(tally);
        }
        let ok = match spec.op {
            Op::Put => {
                let key = format!(
                    "{}put/{index:04}/{:04}",
                    spec.prefix,
                    i % PUT_KEYS_PER_CLIENT
                );
                client.put(key, value.as_slice(), None).await.is_ok()
            }
            Op::Range => client
                .get(range_prefix.as_str(), Some(GetOptions::new().with_prefix()))
                .await
                .is_ok_and(|r| r.kvs().len() == expected),
            // (`watch` runs in `watch_loop`, never here.)
            Op::Get | Op::Watch => client
                .get(single.as_str(), None)
                .await
                .is_ok_and(|r| r.kvs().len() == expected),
        };
        i += 1;
        let done = Instant::now();
        if window.counts(done) {
            if ok {
                tally.record(done - sent);
            } else {
                tally.errors += 1;
            }
        }
        if !ok {
            tokio::time::sleep(ERROR_PAUSE).await;
        }
    }
}

/// Sequential puts under a watched prefix; each put's latency runs from just before it
/// is issued to the watcher task receiving the event of that revision.
async fn watch_loop(
    spec: &EtcdSpec,
    mut watcher: Client,
    mut putter: Client,
    value: &[u8],
    window: Window,
) -> Result<Tally, Error> {
    let prefix = format!("{}watch/", spec.prefix);
    let mut stream = watcher
        .watch(prefix.as_str(), Some(WatchOptions::new().with_prefix()))
        .await?;
    // The first response confirms the watch exists; puts before it could be missed.
    match stream.message().await? {
        Some(resp) if resp.created() => {}
        _ => return Err(Error::Setup("watch was not created".into())),
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<(i64, Instant)>();
    let reader = tokio::spawn(async move {
        while let Ok(Some(resp)) = stream.message().await {
            let at = Instant::now();
            for event in resp.events() {
                if let Some(kv) = event.kv() {
                    if tx.send((kv.mod_revision(), at)).is_err() {
                        return;
                    }
                }
            }
        }
    });

    let mut tally = Tally::new()?;
    let mut i: u64 = 0;
    let outcome = loop {
        let sent = Instant::now();
        if sent >= window.until {
            break Ok(());
        }
        let key = format!("{prefix}{:04}", i % WATCH_KEYS);
        i += 1;
        let revision = match putter.put(key, value, None).await {
            Ok(resp) => resp.header().map(|h| h.revision()),
            Err(e) => break Err(Error::from(e)),
        };
        let Some(revision) = revision else {
            break Err(Error::Setup("put response without a header".into()));
        };
        // Events arrive in revision order; skip any older ones.
        let seen = loop {
            match tokio::time::timeout(Duration::from_secs(10), rx.recv()).await {
                Ok(Some((rev, at))) if rev >= revision => break Some(at),
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => break None,
            }
        };
        let Some(seen) = seen else {
            break Err(Error::Timeout(
                Duration::from_secs(10),
                format!("the watch event of revision {revision}"),
            ));
        };
        if window.counts(seen) {
            tally.record(seen - sent);
        }
    };
    reader.abort();
    outcome.map(|()| tally)
}
