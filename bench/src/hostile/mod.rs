//! Hostile clients against a running server (issue 21): slow HTTP/1.1 clients, HTTP/2
//! abuse and watch abuse, each run while another client measures its GET rate, with the
//! server's memory (all its processes) sampled before, during and after.
//!
//! The same code runs small in the black-box tests (`tests/hostile`, which include this
//! directory by path so that there is one copy) and at full size in `kas-hostile`, which
//! writes `bench/RESULTS-hostile.md`. It needs nothing but the server's port, an admin
//! TLS identity and the supervisor's pid, so it uses no other module of this crate.

pub mod flood;
pub mod frames;
pub mod h2_abuse;
pub mod slow;
pub mod watch;

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::ServerName;
use tokio::net::TcpStream;
use tokio::sync::{oneshot, watch as signal};
use tokio::task::JoinHandle;
use tokio_rustls::client::TlsStream;

/// A TLS connection to the server.
pub type Conn = TlsStream<TcpStream>;

/// The server under test.
pub struct Target {
    /// Its secure port on 127.0.0.1.
    pub port: u16,
    /// The supervisor's pid (its workers are its children).
    pub supervisor: u32,
    h1: Arc<rustls::ClientConfig>,
    h2: Arc<rustls::ClientConfig>,
    /// A bearer token the [`Client`]s send (else the TLS identity is the user).
    token: Option<Arc<str>>,
}

impl Target {
    /// `tls` trusts the server and presents an admin identity; its ALPN is replaced.
    pub fn new(port: u16, supervisor: u32, tls: &rustls::ClientConfig) -> Arc<Self> {
        let alpn = |p: &[u8]| {
            let mut c = tls.clone();
            c.alpn_protocols = vec![p.to_vec()];
            Arc::new(c)
        };
        Arc::new(Self {
            port,
            supervisor,
            h1: alpn(b"http/1.1"),
            h2: alpn(b"h2"),
            token: None,
        })
    }

    /// The same server, its [`Client`]s authenticating with bearer `token`.
    pub fn as_user(&self, token: &str) -> Arc<Self> {
        Arc::new(Self {
            port: self.port,
            supervisor: self.supervisor,
            h1: self.h1.clone(),
            h2: self.h2.clone(),
            token: Some(token.into()),
        })
    }

    /// A TLS connection with ALPN `h2` or `http/1.1`.
    pub async fn connect(&self, h2: bool) -> std::io::Result<Conn> {
        let tcp = TcpStream::connect(("127.0.0.1", self.port)).await?;
        let _ = tcp.set_nodelay(true);
        let config = if h2 { &self.h2 } else { &self.h1 };
        let connector = tokio_rustls::TlsConnector::from(config.clone());
        let name = ServerName::try_from("localhost").map_err(std::io::Error::other)?;
        tokio::time::timeout(Duration::from_secs(20), connector.connect(name, tcp))
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "TLS handshake"))?
    }

    /// A well-behaved HTTP/2 client on a connection of its own.
    pub async fn client(&self) -> std::io::Result<Client> {
        let conn = self.connect(true).await?;
        let (send, conn) =
            hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(conn))
                .await
                .map_err(std::io::Error::other)?;
        tokio::spawn(conn);
        Ok(Client {
            send,
            token: self.token.clone(),
        })
    }

    /// The server is up: the supervisor runs, the workers are the ones in `before`, and a
    /// new connection gets `/readyz` 200.
    pub async fn up(&self, before: &[u32]) -> bool {
        if !alive(self.supervisor) || workers(self.supervisor) != before {
            return false;
        }
        match self.client().await {
            Ok(c) => matches!(c.get("/readyz").await, Ok((StatusCode::OK, _))),
            Err(_) => false,
        }
    }
}

/// A well-behaved HTTP/2 client (hyper).
#[derive(Clone)]
pub struct Client {
    send: hyper::client::conn::http2::SendRequest<Full<Bytes>>,
    token: Option<Arc<str>>,
}

impl Client {
    /// One request; the status and the whole body, within 10 s.
    pub async fn request(
        &self,
        method: Method,
        path: &str,
        body: &[u8],
    ) -> std::io::Result<(StatusCode, Bytes)> {
        let (head, body) = self.exchange(method, path, body).await?;
        Ok((head.status, body))
    }

    /// GET `path`.
    pub async fn get(&self, path: &str) -> std::io::Result<(StatusCode, Bytes)> {
        self.request(Method::GET, path, b"").await
    }

    /// GET `path`: the status and the headers (the body is read and dropped), within 10 s.
    pub async fn head_of(&self, path: &str) -> std::io::Result<(StatusCode, http::HeaderMap)> {
        let (head, _) = self.exchange(Method::GET, path, b"").await?;
        Ok((head.status, head.headers))
    }

    /// One request (with the target's token, if any); the response head and the whole
    /// body, within 10 s.
    async fn exchange(
        &self,
        method: Method,
        path: &str,
        body: &[u8],
    ) -> std::io::Result<(http::response::Parts, Bytes)> {
        let mut send = self.send.clone();
        let mut req = Request::builder()
            .method(method)
            .uri(format!("https://localhost{path}"))
            .header("content-type", "application/json");
        if let Some(token) = &self.token {
            req = req.header("authorization", format!("Bearer {token}"));
        }
        let req = req
            .body(Full::new(Bytes::copy_from_slice(body)))
            .map_err(std::io::Error::other)?;
        let answer = async {
            let resp = send
                .send_request(req)
                .await
                .map_err(std::io::Error::other)?;
            let (head, body) = resp.into_parts();
            let body = body.collect().await.map_err(std::io::Error::other)?;
            Ok((head, body.to_bytes()))
        };
        tokio::time::timeout(Duration::from_secs(10), answer)
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "request"))?
    }
}

/// The other client: GETs one after another (a new connection every 20 requests, so that
/// refused or slow connections show too), counting the 200s.
pub struct Probe {
    ok: Arc<AtomicU64>,
    errors: Arc<AtomicU64>,
    task: JoinHandle<()>,
}

/// What the probe GETs: a namespace, through authentication, authorization and storage.
pub const PROBE_PATH: &str = "/api/v1/namespaces/default";

impl Probe {
    /// Starts GETting [`PROBE_PATH`].
    pub fn start(target: Arc<Target>) -> Self {
        let ok = Arc::new(AtomicU64::new(0));
        let errors = Arc::new(AtomicU64::new(0));
        let (ok2, errors2) = (ok.clone(), errors.clone());
        let task = tokio::spawn(async move {
            loop {
                let Ok(client) = target.client().await else {
                    errors2.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                };
                for _ in 0..20 {
                    match client.get(PROBE_PATH).await {
                        Ok((StatusCode::OK, _)) => ok2.fetch_add(1, Ordering::Relaxed),
                        _ => errors2.fetch_add(1, Ordering::Relaxed),
                    };
                }
            }
        });
        Self { ok, errors, task }
    }

    /// GETs answered 200 per second over the next `window`.
    pub async fn rate(&self, window: Duration) -> f64 {
        let (n0, t0) = (self.ok.load(Ordering::Relaxed), Instant::now());
        tokio::time::sleep(window).await;
        let n = self.ok.load(Ordering::Relaxed) - n0;
        n as f64 / t0.elapsed().as_secs_f64()
    }

    /// Failed or non-200 GETs so far.
    pub fn errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }
}

impl Drop for Probe {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Whether `pid` runs.
pub fn alive(pid: u32) -> bool {
    std::fs::metadata(format!("/proc/{pid}")).is_ok()
}

/// The supervisor's children (its workers), sorted.
pub fn workers(supervisor: u32) -> Vec<u32> {
    let mut found = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid …: the command may hold spaces and parentheses.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(supervisor) {
            found.push(pid);
        }
    }
    found.sort_unstable();
    found
}

/// Resident memory of the supervisor and all its workers, KiB.
pub fn rss_kib(supervisor: u32) -> u64 {
    let rss = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                s.lines().find_map(|l| {
                    let v = l.strip_prefix("VmRSS:")?.trim().strip_suffix("kB")?;
                    v.trim().parse::<u64>().ok()
                })
            })
            .unwrap_or(0)
    };
    rss(supervisor) + workers(supervisor).into_iter().map(rss).sum::<u64>()
}

/// How big a scenario runs.
#[derive(Debug, Clone, Copy)]
pub struct Size {
    /// Connections, streams or watches (the scenario says which).
    pub count: usize,
    /// How long the abuse is held once it is fully set up (the probe measures during the
    /// first `window` of it).
    pub hold: Duration,
    /// How long each probe rate is measured.
    pub window: Duration,
}

/// Tells a scenario when it is fully set up and when to stop.
pub struct Ctl {
    ready: Option<oneshot::Sender<()>>,
    stop: signal::Receiver<bool>,
    /// When the scenario started.
    pub started: Instant,
}

impl Ctl {
    /// The abuse is fully set up: the probe starts measuring.
    pub fn ready(&mut self) {
        if let Some(tx) = self.ready.take() {
            let _ = tx.send(());
        }
    }

    /// Whether the scenario should stop now.
    pub fn stopping(&self) -> bool {
        *self.stop.borrow()
    }

    /// Resolves when the scenario should stop.
    pub async fn stopped(&mut self) {
        let _ = self.stop.wait_for(|s| *s).await;
    }

    /// A stop signal for one of the scenario's tasks.
    pub fn signal(&self) -> Stop {
        Stop(self.stop.clone())
    }
}

/// The stop signal as one task of a scenario holds it.
#[derive(Clone)]
pub struct Stop(signal::Receiver<bool>);

impl Stop {
    /// Resolves when the scenario should stop.
    pub async fn wait(&mut self) {
        let _ = self.0.wait_for(|s| *s).await;
    }

    /// Whether the scenario should stop now.
    pub fn now(&self) -> bool {
        *self.0.borrow()
    }
}

/// Facts a scenario observed (counts, milliseconds, bytes), by name.
pub type Facts = BTreeMap<String, u64>;

/// What one scenario did to the server.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The scenario's name.
    pub scenario: &'static str,
    /// What was sent, in words.
    pub sent: String,
    /// From the scenario's start to its end, set-up included.
    pub took: Duration,
    /// Server memory (all processes) before, highest during, and right after, KiB.
    pub rss_before_kib: u64,
    /// See `rss_before_kib`.
    pub rss_peak_kib: u64,
    /// See `rss_before_kib`.
    pub rss_after_kib: u64,
    /// The other client's GETs per second before the abuse.
    pub rate_before: f64,
    /// … and while it was held.
    pub rate_during: f64,
    /// The other client's failed GETs during the scenario.
    pub probe_errors: u64,
    /// Same workers, supervisor running, `/readyz` 200 on a new connection afterwards.
    pub up: bool,
    /// What the scenario observed.
    pub facts: Facts,
}

impl Outcome {
    /// `during / before`.
    pub fn rate_ratio(&self) -> f64 {
        if self.rate_before > 0.0 {
            self.rate_during / self.rate_before
        } else {
            0.0
        }
    }

    /// A fact, 0 when the scenario did not record it.
    pub fn fact(&self, name: &str) -> u64 {
        self.facts.get(name).copied().unwrap_or(0)
    }
}

/// Runs `scenario` against `target`: the probe's rate before, the scenario set up, the
/// probe's rate during its first `size.window`, then held until `size.hold`, stopped, and
/// the server checked. The scenario returns what was sent and its facts.
pub async fn run<F, Fut>(
    target: &Arc<Target>,
    name: &'static str,
    size: Size,
    scenario: F,
) -> Outcome
where
    F: FnOnce(Arc<Target>, Size, Ctl) -> Fut,
    Fut: Future<Output = (String, Facts)> + Send + 'static,
{
    let before_workers = workers(target.supervisor);
    let probe = Probe::start(target.clone());
    // Let the probe connect and warm up before counting.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let rate_before = probe.rate(size.window).await;
    let errors_before = probe.errors();
    let rss_before_kib = rss_kib(target.supervisor);
    let peak = Arc::new(AtomicU64::new(rss_before_kib));
    let sampler = {
        let (peak, pid) = (peak.clone(), target.supervisor);
        tokio::spawn(async move {
            loop {
                peak.fetch_max(rss_kib(pid), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
    };

    let (ready_tx, ready_rx) = oneshot::channel();
    let (stop_tx, stop_rx) = signal::channel(false);
    let started = Instant::now();
    let ctl = Ctl {
        ready: Some(ready_tx),
        stop: stop_rx,
        started,
    };
    let task = tokio::spawn(scenario(target.clone(), size, ctl));
    // A scenario that cannot set up fully (the server refuses) is measured anyway.
    let _ = tokio::time::timeout(Duration::from_secs(60), ready_rx).await;
    let held_from = Instant::now();
    let rate_during = probe.rate(size.window).await;
    if let Some(rest) = size.hold.checked_sub(held_from.elapsed()) {
        tokio::time::sleep(rest).await;
    }
    let _ = stop_tx.send(true);
    let (sent, facts) = match tokio::time::timeout(Duration::from_secs(30), task).await {
        Ok(Ok(r)) => r,
        _ => ("(the scenario did not finish)".to_owned(), Facts::new()),
    };
    let took = started.elapsed();
    let probe_errors = probe.errors() - errors_before;
    drop(probe);
    sampler.abort();
    let rss_after_kib = rss_kib(target.supervisor);
    let up = target.up(&before_workers).await;
    Outcome {
        scenario: name,
        sent,
        took,
        rss_before_kib,
        rss_peak_kib: peak.load(Ordering::Relaxed).max(rss_after_kib),
        rss_after_kib,
        rate_before,
        rate_during,
        probe_errors,
        up,
        facts,
    }
}

/// Opens `n` connections, at most `parallel` handshakes at a time; the ones that failed
/// are left out.
pub async fn open_many(target: &Arc<Target>, n: usize, h2: bool, parallel: usize) -> Vec<Conn> {
    let sem = Arc::new(tokio::sync::Semaphore::new(parallel.max(1)));
    let tasks: Vec<_> = (0..n)
        .map(|_| {
            let (target, sem) = (target.clone(), sem.clone());
            tokio::spawn(async move {
                let _permit = sem.acquire_owned().await.ok()?;
                target.connect(h2).await.ok()
            })
        })
        .collect();
    let mut conns = Vec::with_capacity(n);
    for t in tasks {
        if let Ok(Some(c)) = t.await {
            conns.push(c);
        }
    }
    conns
}

/// Seconds as a whole number of milliseconds, for facts.
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
