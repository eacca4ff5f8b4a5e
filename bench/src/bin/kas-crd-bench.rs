//! `kas-crd-bench`: custom resources against ConfigMaps of the same size in one run (GET,
//! LIST and CREATE at several connection counts), CRD create → `Established` → first
//! successful LIST, and the memory and idle CPU of the extensions worker as CRDs are
//! added. It starts the release `kube-apiserver` itself (temporary data dir, a port the
//! kernel picks) or loads a running server given by URL, and prints a markdown section.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use bytes::Bytes;
use clap::Parser;
use http::header::{HeaderValue, ACCEPT, CONTENT_TYPE};
use http::{Method, StatusCode};
use http_body_util::BodyExt;
use kas_bench::api::{configmap_body, keys_of, run_tag};
use kas_bench::cli::parse_duration;
use kas_bench::client::{Conn, Protocol, Target};
use kas_bench::procfs;
use kas_bench::stats::{Summary, Tally};
use kas_bench::tls::{client_config, ClientIdentity, ServerTrust};
use rustls::ClientConfig;
use serde::Serialize;
use serde_json::{json, Value};
use tokio::process::{Child, Command};
use tokio::time::{sleep, Instant};

#[path = "kas-crd-bench/report.rs"]
mod report;

use report::markdown;

/// Namespace of the objects GET cycles over and LIST returns.
const READ_NS: &str = "crd-bench";
/// Namespace CREATE writes into (so that LIST keeps returning exactly `--objects`).
const CREATE_NS: &str = "crd-bench-create";
/// Linux reports process CPU time in USER_HZ ticks, 100 per second on every architecture
/// this runs on.
const TICKS_PER_S: f64 = 100.0;

#[derive(Parser)]
#[command(
    version,
    about = "Custom resources vs ConfigMaps, CRD establishing time, extensions worker memory"
)]
struct Cli {
    /// The kube-apiserver binary to start (default: the one beside this program).
    #[arg(long, conflicts_with = "url")]
    server: Option<PathBuf>,
    /// Load a running server instead, `https://127.0.0.1:6443` (needs --cacert, --cert, --key).
    #[arg(long, requires_all = ["cacert", "cert", "key"])]
    url: Option<String>,
    /// CA certificate (PEM) of --url.
    #[arg(long)]
    cacert: Option<PathBuf>,
    /// Client certificate (PEM) for --url, e.g. the admin one.
    #[arg(long)]
    cert: Option<PathBuf>,
    /// Key of --cert (PEM).
    #[arg(long)]
    key: Option<PathBuf>,
    /// The supervisor pid of --url, for the worker memory (skipped without it).
    #[arg(long)]
    pid: Option<u32>,
    /// Objects GET cycles over and LIST returns, of each kind.
    #[arg(long, default_value_t = 100)]
    objects: usize,
    /// Bytes of the one data value of every object.
    #[arg(long, default_value_t = 1024)]
    value_size: usize,
    /// Connection counts to run each operation at.
    #[arg(short = 'c', long, value_delimiter = ',', default_value = "1,32")]
    connections: Vec<usize>,
    /// Measured time of each loop.
    #[arg(short = 'd', long, default_value = "5s", value_parser = parse_duration)]
    duration: Duration,
    /// Unmeasured time before each loop.
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    warmup: Duration,
    /// CRDs created one after another (each with a structural schema and a CEL rule).
    #[arg(long, default_value_t = 100)]
    crds: usize,
    /// CRDs in each establishing-time window (the first ones and the last ones).
    #[arg(long, default_value_t = 20)]
    window: usize,
    /// Installed-CRD counts at which the worker memory is read (0 and --crds always are).
    #[arg(long, value_delimiter = ',', default_value = "20,50")]
    rss_at: Vec<usize>,
    /// Pause before each memory reading.
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    settle: Duration,
    /// Window over which the idle CPU of the extensions worker is measured.
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    idle: Duration,
    /// Pause between two polls for Established and for the first LIST.
    #[arg(long, default_value = "2ms", value_parser = parse_duration)]
    poll: Duration,
    /// Longest wait for one CRD to be Established and listable.
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    crd_timeout: Duration,
    /// Where the started server keeps its data dir and log (default: a temporary dir).
    #[arg(long)]
    work_dir: Option<PathBuf>,
    /// Keep the work dir after the run.
    #[arg(long)]
    keep: bool,
    /// Also write every number as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
}

/// The server under test and the TLS to reach it.
struct Api {
    target: Target,
    tls: Arc<ClientConfig>,
}

impl Api {
    async fn conn(&self) -> Result<Conn> {
        Ok(Conn::connect(&self.target, self.tls.clone(), Protocol::Http2).await?)
    }

    /// One request with a JSON body, read whole.
    async fn call(
        &self,
        conn: &mut Conn,
        method: &Method,
        path: &str,
        body: Bytes,
    ) -> Result<(StatusCode, Bytes)> {
        self.call_accepting(conn, method, path, "application/json", body)
            .await
    }

    /// One request with a JSON body and `accept`, read whole.
    async fn call_accepting(
        &self,
        conn: &mut Conn,
        method: &Method,
        path: &str,
        accept: &'static str,
        body: Bytes,
    ) -> Result<(StatusCode, Bytes)> {
        let headers = [
            (ACCEPT, HeaderValue::from_static(accept)),
            (CONTENT_TYPE, HeaderValue::from_static("application/json")),
        ];
        let req = self
            .target
            .with_path(path)?
            .request(Protocol::Http2, method, &headers, body)?;
        let resp = conn.send(req).await?;
        let status = resp.status();
        Ok((status, resp.into_body().collect().await?.to_bytes()))
    }

    /// POST that must create or find the object already there.
    async fn ensure(&self, conn: &mut Conn, path: &str, body: Bytes) -> Result<()> {
        let (status, answer) = self.call(conn, &Method::POST, path, body).await?;
        if !status.is_success() && status != StatusCode::CONFLICT {
            bail!(
                "POST {path}: {status}: {}",
                String::from_utf8_lossy(&answer)
            );
        }
        Ok(())
    }
}

/// The names of the n-th benchmark CRD of a run.
#[derive(Debug, Clone)]
struct CrdNames {
    group: String,
    plural: String,
    kind: String,
}

impl CrdNames {
    /// Ten groups per run, named after the run's tag so that runs never collide.
    fn nth(tag: &str, n: usize) -> Self {
        Self {
            group: format!("g{}.r{tag}.crd-bench.example.com", n % 10),
            plural: format!("benchwidget{n}s"),
            kind: format!("BenchWidget{n}"),
        }
    }

    fn name(&self) -> String {
        format!("{}.{}", self.plural, self.group)
    }

    /// A namespaced CRD with one version, a small structural schema with defaults and
    /// one CEL rule.
    fn manifest(&self) -> Bytes {
        let spec = json!({
            "type": "object",
            "x-kubernetes-validations": [{
                "rule": "self.replicas <= self.maxReplicas",
                "message": "replicas must not exceed maxReplicas",
            }],
            "properties": {
                "k": {"type": "string", "maxLength": 65536},
                "replicas": {"type": "integer", "minimum": 0, "default": 1},
                "maxReplicas": {"type": "integer", "default": 10},
            },
        });
        let crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": self.name()},
            "spec": {
                "group": self.group,
                "scope": "Namespaced",
                "names": {
                    "plural": self.plural,
                    "singular": self.plural.trim_end_matches('s'),
                    "kind": self.kind,
                    "listKind": format!("{}List", self.kind),
                },
                "versions": [{
                    "name": "v1",
                    "served": true,
                    "storage": true,
                    "schema": {"openAPIV3Schema": {
                        "type": "object",
                        "properties": {"spec": spec},
                    }},
                }],
            },
        });
        Bytes::from(crd.to_string())
    }
}

/// ConfigMaps, or the custom resources of one CRD.
#[derive(Debug, Clone)]
enum Kind {
    ConfigMap,
    Custom(CrdNames),
}

impl Kind {
    fn collection(&self, ns: &str) -> String {
        match self {
            Self::ConfigMap => format!("/api/v1/namespaces/{ns}/configmaps"),
            Self::Custom(c) => format!("/apis/{}/v1/namespaces/{ns}/{}", c.group, c.plural),
        }
    }

    /// An object whose one value is `size` bytes starting with `stamp`: `data.k` of a
    /// ConfigMap, `spec.k` of a custom resource.
    fn body(&self, name: &str, stamp: u64, size: usize) -> Bytes {
        match self {
            Self::ConfigMap => configmap_body(name, stamp, size),
            Self::Custom(c) => {
                let mut value = format!("{stamp:016x}");
                value.truncate(size);
                while value.len() < size {
                    value.push('x');
                }
                Bytes::from(
                    json!({
                        "apiVersion": format!("{}/v1", c.group),
                        "kind": c.kind,
                        "metadata": {"name": name},
                        "spec": {"k": value},
                    })
                    .to_string(),
                )
            }
        }
    }

    fn label(&self) -> &'static str {
        match self {
            Self::ConfigMap => "ConfigMap",
            Self::Custom(_) => "custom resource",
        }
    }
}

/// What one request of a loop does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Op {
    Get,
    List,
    Create,
    /// GET of a document the aggregator serves itself.
    Read(Endpoint),
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::List => "LIST",
            Self::Create => "CREATE",
            Self::Read(e) => e.path(),
        }
    }
}

/// The documents read with and without CRDs: `/version` (the baseline: answered by the
/// aggregator from memory, no document merged), the merged `/apis` (plain and aggregated,
/// as kubectl asks for it) and the merged `/openapi/v3` index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
enum Endpoint {
    Version,
    Apis,
    AggregatedApis,
    OpenApiV3,
}

impl Endpoint {
    const ALL: [Endpoint; 4] = [
        Endpoint::Version,
        Endpoint::Apis,
        Endpoint::AggregatedApis,
        Endpoint::OpenApiV3,
    ];

    fn path(self) -> &'static str {
        match self {
            Self::Version => "/version",
            Self::Apis | Self::AggregatedApis => "/apis",
            Self::OpenApiV3 => "/openapi/v3",
        }
    }

    fn accept(self) -> &'static str {
        match self {
            Self::AggregatedApis => "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json",
            Self::OpenApiV3 => "application/json, */*",
            Self::Version | Self::Apis => "application/json",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::Version => "`/version` (baseline)",
            Self::Apis => "`/apis`",
            Self::AggregatedApis => "`/apis` aggregated",
            Self::OpenApiV3 => "`/openapi/v3`",
        }
    }
}

/// One closed loop's shape.
struct LoopSpec {
    kind: Kind,
    op: Op,
    connections: usize,
    objects: usize,
    value_size: usize,
    warmup: Duration,
    duration: Duration,
    tag: u64,
}

/// Runs one closed loop (one request in flight per connection) and merges the tallies;
/// also returns the first failure seen, if any.
async fn run_loop(api: &Arc<Api>, spec: LoopSpec) -> Result<(Summary, Option<String>)> {
    let mut conns = Vec::with_capacity(spec.connections);
    for _ in 0..spec.connections {
        conns.push(api.conn().await?);
    }
    let spec = Arc::new(spec);
    let from = Instant::now() + spec.warmup;
    let until = from + spec.duration;
    let tasks: Vec<_> = conns
        .into_iter()
        .enumerate()
        .map(|(i, conn)| tokio::spawn(drive(api.clone(), spec.clone(), i, conn, from, until)))
        .collect();
    let mut total = Tally::new()?;
    let mut first_failure = None;
    for task in tasks {
        let (tally, failure) = task.await.context("load task")??;
        total.merge(&tally)?;
        first_failure = first_failure.or(failure);
    }
    Ok((total.summary(spec.duration.as_secs_f64()), first_failure))
}

async fn drive(
    api: Arc<Api>,
    spec: Arc<LoopSpec>,
    index: usize,
    mut conn: Conn,
    from: Instant,
    until: Instant,
) -> Result<(Tally, Option<String>)> {
    let mut tally = Tally::new()?;
    let mut failure = None;
    let read = spec.kind.collection(READ_NS);
    let create = spec.kind.collection(CREATE_NS);
    let keys = keys_of(index, spec.connections, spec.objects);
    let mut i: u64 = 0;
    loop {
        let sent = Instant::now();
        if sent >= until {
            return Ok((tally, failure));
        }
        let (method, path, body) = match spec.op {
            Op::Get => {
                let key = keys[(i % keys.len() as u64) as usize];
                (Method::GET, format!("{read}/obj-{key}"), Bytes::new())
            }
            Op::List => (Method::GET, read.clone(), Bytes::new()),
            Op::Read(e) => (Method::GET, e.path().to_owned(), Bytes::new()),
            Op::Create => {
                // Unique across the loops of a run: the connection count is in the name.
                let name = format!("c-{:x}-{}-{index}-{i}", spec.tag, spec.connections);
                let body = spec.kind.body(&name, i, spec.value_size);
                (Method::POST, create.clone(), body)
            }
        };
        i += 1;
        let accept = match spec.op {
            Op::Read(e) => e.accept(),
            _ => "application/json",
        };
        let outcome = api
            .call_accepting(&mut conn, &method, &path, accept, body)
            .await;
        let done = Instant::now();
        let counted = done >= from && done < until;
        match outcome {
            Ok((status, body)) if counted => {
                tally.body_bytes += body.len() as u64;
                if status.is_success() {
                    tally.record(done - sent);
                } else {
                    tally.non_2xx += 1;
                    failure.get_or_insert_with(|| {
                        let text = String::from_utf8_lossy(&body);
                        format!(
                            "{method} {path}: {status}: {}",
                            text.chars().take(300).collect::<String>()
                        )
                    });
                }
            }
            Ok(_) => {}
            Err(e) => {
                if counted {
                    tally.errors += 1;
                    failure.get_or_insert_with(|| format!("{method} {path}: {e:#}"));
                }
                sleep(Duration::from_millis(10)).await;
                conn = api.conn().await?;
            }
        }
    }
}

/// Times of one CRD, from just before its POST was sent.
#[derive(Debug, Clone, Serialize)]
struct CrdTiming {
    name: String,
    /// CRDs installed before this one.
    installed: usize,
    post_ms: f64,
    established_ms: Option<f64>,
    first_list_ms: Option<f64>,
}

/// Polls `path` every `poll` until `done` accepts an answer; the time since `t0` it did.
async fn poll_until(
    api: &Api,
    conn: &mut Conn,
    path: &str,
    t0: Instant,
    poll: Duration,
    deadline: Instant,
    done: impl Fn(StatusCode, &[u8]) -> bool,
) -> Result<Option<f64>> {
    loop {
        let at = Instant::now();
        if at >= deadline {
            return Ok(None);
        }
        let (status, body) = api.call(conn, &Method::GET, path, Bytes::new()).await?;
        if done(status, &body) {
            return Ok(Some(t0.elapsed().as_secs_f64() * 1e3));
        }
        tokio::time::sleep_until(at + poll).await;
    }
}

fn is_established(status: StatusCode, body: &[u8]) -> bool {
    if status != StatusCode::OK {
        return false;
    }
    let Ok(crd) = serde_json::from_slice::<Value>(body) else {
        return false;
    };
    crd.pointer("/status/conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Established" && c["status"] == "True")
}

/// Creates one CRD and times it to Established and to the first 200 on a LIST of its
/// custom resources (both polled at once, on connections of their own).
async fn create_crd(
    api: &Api,
    conns: &mut [Conn; 3],
    names: &CrdNames,
    installed: usize,
    poll: Duration,
    timeout: Duration,
) -> Result<CrdTiming> {
    let [post, est, list] = conns;
    let crd_path = format!(
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{}",
        names.name()
    );
    let list_path = Kind::Custom(names.clone()).collection(READ_NS);
    let t0 = Instant::now();
    let deadline = t0 + timeout;
    let posting = async {
        let (status, body) = api
            .call(
                post,
                &Method::POST,
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                names.manifest(),
            )
            .await?;
        if !status.is_success() {
            bail!(
                "creating CRD {}: {status}: {}",
                names.name(),
                String::from_utf8_lossy(&body)
            );
        }
        Ok(t0.elapsed().as_secs_f64() * 1e3)
    };
    let established = poll_until(api, est, &crd_path, t0, poll, deadline, is_established);
    let listed = poll_until(api, list, &list_path, t0, poll, deadline, |s, _| {
        s == StatusCode::OK
    });
    let (post_ms, established_ms, first_list_ms) = tokio::join!(posting, established, listed);
    Ok(CrdTiming {
        name: names.name(),
        installed,
        post_ms: post_ms?,
        established_ms: established_ms?,
        first_list_ms: first_list_ms?,
    })
}

/// Memory and idle CPU of the extensions worker at some number of installed CRDs.
#[derive(Debug, Clone, Serialize)]
struct WorkerSample {
    crds: usize,
    when: &'static str,
    pid: u32,
    rss_kib: u64,
    hwm_kib: u64,
    /// CPU time used per second of wall time while nothing was asked of the server.
    idle_cpu_ms_per_s: Option<f64>,
}

/// utime + stime of `pid`, in ticks.
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

/// Reads the extensions worker of `supervisor` after `settle`, then (when `idle` is not
/// zero) its CPU use over `idle`.
async fn sample_worker(
    supervisor: u32,
    crds: usize,
    when: &'static str,
    settle: Duration,
    idle: Duration,
) -> Result<WorkerSample> {
    sleep(settle).await;
    let pid = procfs::worker_pid(supervisor, "extensions")
        .with_context(|| format!("no extensions worker under pid {supervisor}"))?;
    let idle_cpu_ms_per_s = if idle.is_zero() {
        None
    } else {
        let before = cpu_ticks(pid).context("reading the worker's CPU time")?;
        sleep(idle).await;
        let after = cpu_ticks(pid).context("reading the worker's CPU time")?;
        let ms = after.saturating_sub(before) as f64 / TICKS_PER_S * 1e3;
        Some(ms / idle.as_secs_f64())
    };
    let mem = procfs::memory(pid).context("reading the worker's memory")?;
    Ok(WorkerSample {
        crds,
        when,
        pid,
        rss_kib: mem.rss_kib,
        hwm_kib: mem.hwm_kib,
        idle_cpu_ms_per_s,
    })
}

/// A server this program started: killed on drop, stopped with SIGTERM otherwise.
struct Started {
    child: Child,
    data_dir: PathBuf,
    log: PathBuf,
}

impl Started {
    /// Starts `bin` on a kernel-picked port and waits until `/readyz` answers 200 to the
    /// admin client certificate.
    async fn start(bin: &Path, work_dir: &Path) -> Result<(Self, Api)> {
        let data_dir = work_dir.join("data");
        let log = work_dir.join("server.log");
        std::fs::create_dir_all(&data_dir).with_context(|| data_dir.display().to_string())?;
        let out = std::fs::File::create(&log).with_context(|| log.display().to_string())?;
        let child = Command::new(bin)
            .arg("--secure-port=0")
            .arg("--bind-address=127.0.0.1")
            .arg(format!("--data-dir={}", data_dir.display()))
            .env_remove("NOTIFY_SOCKET")
            .env_remove("WATCHDOG_USEC")
            .env_remove("JOURNAL_STREAM")
            .stdin(Stdio::null())
            .stdout(out.try_clone()?)
            .stderr(out)
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {}", bin.display()))?;
        let mut started = Self {
            child,
            data_dir,
            log,
        };
        let api = started.wait_ready().await?;
        Ok((started, api))
    }

    fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    async fn wait_ready(&mut self) -> Result<Api> {
        let deadline = Instant::now() + Duration::from_secs(120);
        let pki = self.data_dir.join("pki");
        let kubeconfig = self.data_dir.join("admin.kubeconfig");
        let mut api = None;
        loop {
            if let Some(status) = self.child.try_wait()? {
                bail!("server exited ({status}); log in {}", self.log.display());
            }
            if Instant::now() >= deadline {
                bail!("server not ready in 120 s; log in {}", self.log.display());
            }
            if api.is_none() {
                api = server_url(&kubeconfig).and_then(|url| {
                    let tls = client_config(
                        &ServerTrust::CaFile(pki.join("ca.crt")),
                        Some(&ClientIdentity {
                            cert: pki.join("admin.crt"),
                            key: pki.join("admin.key"),
                        }),
                        &[Protocol::Http2.alpn()],
                    )
                    .ok()?;
                    Some(Api {
                        target: Target::parse(&url).ok()?,
                        tls,
                    })
                });
            }
            if let Some(a) = &api {
                if let Ok(mut conn) = a.conn().await {
                    if let Ok((StatusCode::OK, _)) = a
                        .call(&mut conn, &Method::GET, "/readyz", Bytes::new())
                        .await
                    {
                        return api.context("checked above");
                    }
                }
            }
            sleep(Duration::from_millis(20)).await;
        }
    }

    /// SIGTERM, then SIGKILL after 15 s.
    async fn stop(mut self) -> Result<()> {
        if let Some(pid) = self.pid().and_then(|p| i32::try_from(p).ok()) {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGTERM,
            );
        }
        if tokio::time::timeout(Duration::from_secs(15), self.child.wait())
            .await
            .is_err()
        {
            self.child.start_kill()?;
            self.child.wait().await?;
        }
        Ok(())
    }
}

/// The `server:` URL of a kubeconfig, once it has been written.
fn server_url(kubeconfig: &Path) -> Option<String> {
    let text = std::fs::read_to_string(kubeconfig).ok()?;
    text.lines()
        .find_map(|l| l.trim().strip_prefix("server:"))
        .map(|u| u.trim().to_owned())
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    if cli.duration.is_zero() || cli.objects == 0 || cli.connections.contains(&0) {
        bail!("--duration, --objects and every --connections must be positive");
    }
    if cli.crds == 0 {
        bail!("--crds must be at least 1 (the custom resources belong to the first CRD)");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("tokio runtime")?;
    runtime.block_on(run(cli))
}

/// One closed loop's outcome.
#[derive(Debug, Clone, Serialize)]
struct LoopRow {
    op: Op,
    connections: usize,
    kind: &'static str,
    #[serde(flatten)]
    summary: Summary,
    /// The first failed request of the measured window, if any.
    first_failure: Option<String>,
}

/// One read loop of a document.
#[derive(Debug, Clone, Serialize)]
struct ReadRow {
    crds: usize,
    endpoint: Endpoint,
    connections: usize,
    summary: Summary,
    first_failure: Option<String>,
}

/// Reads each document in closed loops at each connection count, with `crds` installed.
async fn read_loops(api: &Arc<Api>, cli: &Cli, crds: usize, tag: u64) -> Result<Vec<ReadRow>> {
    let mut rows = Vec::new();
    for &connections in &cli.connections {
        for endpoint in Endpoint::ALL {
            eprintln!("{} x{connections} with {crds} CRDs", endpoint.label());
            let (summary, first_failure) = run_loop(
                api,
                LoopSpec {
                    kind: Kind::ConfigMap,
                    op: Op::Read(endpoint),
                    connections,
                    objects: cli.objects,
                    value_size: cli.value_size,
                    warmup: cli.warmup,
                    duration: cli.duration,
                    tag,
                },
            )
            .await?;
            rows.push(ReadRow {
                crds,
                endpoint,
                connections,
                summary,
                first_failure,
            });
        }
    }
    Ok(rows)
}

/// Everything measured, printed as markdown (and JSON with `--json`).
#[derive(Debug, Clone, Serialize)]
struct Results {
    server: String,
    objects: usize,
    value_size: usize,
    warmup_s: f64,
    duration_s: f64,
    crds: usize,
    window: usize,
    poll_ms: f64,
    loops: Vec<LoopRow>,
    /// Document reads with no CRD, then with all of them.
    reads: Vec<ReadRow>,
    crd_timings: Vec<CrdTiming>,
    worker: Vec<WorkerSample>,
}

/// Starts (or finds) the server, measures, stops what it started.
async fn run(cli: Cli) -> Result<()> {
    let tag = run_tag();
    let (started, api, supervisor, server, work_dir) = match &cli.url {
        Some(url) => {
            let (Some(cacert), Some(cert), Some(key)) = (&cli.cacert, &cli.cert, &cli.key) else {
                bail!("--url needs --cacert, --cert and --key");
            };
            let tls = client_config(
                &ServerTrust::CaFile(cacert.clone()),
                Some(&ClientIdentity {
                    cert: cert.clone(),
                    key: key.clone(),
                }),
                &[Protocol::Http2.alpn()],
            )?;
            let api = Api {
                target: Target::parse(url)?,
                tls,
            };
            (None, api, cli.pid, url.clone(), None)
        }
        None => {
            let bin = match &cli.server {
                Some(b) => b.clone(),
                None => std::env::current_exe()?
                    .parent()
                    .context("the program's directory")?
                    .join("kube-apiserver"),
            };
            let work_dir = cli.work_dir.clone().unwrap_or_else(|| {
                std::env::temp_dir().join(format!("kas-crd-bench-{}-{tag:x}", std::process::id()))
            });
            eprintln!("starting {} in {}", bin.display(), work_dir.display());
            let (started, api) = Started::start(&bin, &work_dir).await?;
            let pid = started.pid();
            (
                Some(started),
                api,
                pid,
                bin.display().to_string(),
                Some(work_dir),
            )
        }
    };
    let api = Arc::new(api);
    let outcome = measure(&cli, &api, supervisor, tag, server).await;
    if let Some(s) = started {
        s.stop().await?;
    }
    let results = match outcome {
        Ok(r) => r,
        Err(e) => {
            if let Some(dir) = &work_dir {
                eprintln!("work dir kept: {}", dir.display());
            }
            return Err(e);
        }
    };
    if let Some(dir) = work_dir.filter(|_| !cli.keep) {
        std::fs::remove_dir_all(&dir).with_context(|| dir.display().to_string())?;
    }
    if let Some(path) = &cli.json {
        std::fs::write(path, serde_json::to_string_pretty(&results)?)
            .with_context(|| path.display().to_string())?;
    }
    print!("{}", markdown(&results));
    Ok(())
}

async fn measure(
    cli: &Cli,
    api: &Arc<Api>,
    supervisor: Option<u32>,
    tag: u64,
    server: String,
) -> Result<Results> {
    let short = format!("{:08x}", tag as u32);
    let mut worker = Vec::new();
    let mut conn = api.conn().await?;
    for ns in [READ_NS, CREATE_NS] {
        let body = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}});
        api.ensure(
            &mut conn,
            "/api/v1/namespaces",
            Bytes::from(body.to_string()),
        )
        .await?;
    }
    if let Some(sup) = supervisor {
        eprintln!("extensions worker before any CRD");
        worker.push(sample_worker(sup, 0, "before any CRD", cli.settle, cli.idle).await?);
    }

    let mut reads = read_loops(api, cli, 0, tag).await?;

    let mut conns = [api.conn().await?, api.conn().await?, api.conn().await?];
    let mut crd_timings = Vec::with_capacity(cli.crds);
    for n in 0..cli.crds {
        let names = CrdNames::nth(&short, n);
        let t = create_crd(api, &mut conns, &names, n, cli.poll, cli.crd_timeout).await?;
        crd_timings.push(t);
        if let Some(sup) = supervisor.filter(|_| cli.rss_at.contains(&(n + 1)) && n + 1 < cli.crds)
        {
            eprintln!("extensions worker with {} CRDs", n + 1);
            worker
                .push(sample_worker(sup, n + 1, "while adding CRDs", cli.settle, cli.idle).await?);
        }
    }
    if let Some(sup) = supervisor {
        eprintln!("extensions worker with {} CRDs", cli.crds);
        worker.push(sample_worker(sup, cli.crds, "all CRDs added", cli.settle, cli.idle).await?);
    }

    reads.extend(read_loops(api, cli, cli.crds, tag).await?);

    let custom = Kind::Custom(CrdNames::nth(&short, 0));
    for kind in [&Kind::ConfigMap, &custom] {
        let path = kind.collection(READ_NS);
        for k in 0..cli.objects {
            let body = kind.body(&format!("obj-{k}"), k as u64, cli.value_size);
            api.ensure(&mut conn, &path, body).await?;
        }
    }
    let mut loops = Vec::new();
    for op in [Op::Get, Op::List, Op::Create] {
        for &connections in &cli.connections {
            for kind in [&Kind::ConfigMap, &custom] {
                eprintln!("{} {} x{connections}", kind.label(), op.name());
                let (summary, first_failure) = run_loop(
                    api,
                    LoopSpec {
                        kind: kind.clone(),
                        op,
                        connections,
                        objects: cli.objects,
                        value_size: cli.value_size,
                        warmup: cli.warmup,
                        duration: cli.duration,
                        tag,
                    },
                )
                .await?;
                loops.push(LoopRow {
                    op,
                    connections,
                    kind: kind.label(),
                    summary,
                    first_failure,
                });
            }
        }
    }
    if let Some(sup) = supervisor {
        eprintln!("extensions worker after the object loops");
        let after = "after the object loops";
        worker.push(sample_worker(sup, cli.crds, after, cli.settle, cli.idle).await?);
    }
    Ok(Results {
        server,
        objects: cli.objects,
        value_size: cli.value_size,
        warmup_s: cli.warmup.as_secs_f64(),
        duration_s: cli.duration.as_secs_f64(),
        crds: cli.crds,
        window: cli.window,
        poll_ms: cli.poll.as_secs_f64() * 1e3,
        loops,
        reads,
        crd_timings,
        worker,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crd_names_and_bodies() {
        let c = CrdNames::nth("abc", 13);
        assert_eq!(c.name(), "benchwidget13s.g3.rabc.crd-bench.example.com");
        let crd: Value = serde_json::from_slice(&c.manifest()).expect("json");
        assert_eq!(crd["spec"]["names"]["singular"], "benchwidget13");
        assert_eq!(crd["spec"]["names"]["kind"], "BenchWidget13");
        let props = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"];
        assert!(props["spec"]["x-kubernetes-validations"][0]["rule"].is_string());

        let kind = Kind::Custom(c);
        assert_eq!(
            kind.collection("ns"),
            "/apis/g3.rabc.crd-bench.example.com/v1/namespaces/ns/benchwidget13s"
        );
        let cr: Value = serde_json::from_slice(&kind.body("o", 42, 1024)).expect("json");
        let cm: Value = serde_json::from_slice(&Kind::ConfigMap.body("o", 42, 1024)).expect("json");
        assert_eq!(cr["spec"]["k"], cm["data"]["k"]);
        assert_eq!(cr["spec"]["k"].as_str().map(str::len), Some(1024));
        assert_eq!(cr["apiVersion"], "g3.rabc.crd-bench.example.com/v1");
        let tiny: Value = serde_json::from_slice(&kind.body("o", u64::MAX, 3)).expect("json");
        assert_eq!(tiny["spec"]["k"], "fff");
    }

    #[test]
    fn established_needs_the_condition() {
        let yes = br#"{"status":{"conditions":[{"type":"Established","status":"True"}]}}"#;
        let no = br#"{"status":{"conditions":[{"type":"Established","status":"False"}]}}"#;
        assert!(is_established(StatusCode::OK, yes));
        assert!(!is_established(StatusCode::OK, no));
        assert!(!is_established(StatusCode::NOT_FOUND, yes));
        assert!(!is_established(StatusCode::OK, b"not json"));
        assert!(!is_established(StatusCode::OK, b"{}"));
    }

    #[test]
    fn reads_cpu_time_and_kubeconfig() {
        assert!(cpu_ticks(std::process::id()).is_some());
        assert_eq!(cpu_ticks(0), None);
        let dir = std::env::temp_dir().join(format!("kas-crd-bench-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let kc = dir.join("admin.kubeconfig");
        std::fs::write(
            &kc,
            "clusters:\n- cluster:\n    server: https://127.0.0.1:4321\n",
        )
        .expect("write");
        assert_eq!(server_url(&kc).as_deref(), Some("https://127.0.0.1:4321"));
        assert_eq!(server_url(&dir.join("missing")), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn markdown_of_an_empty_run() {
        let r = Results {
            server: "x".into(),
            objects: 1,
            value_size: 1,
            warmup_s: 0.0,
            duration_s: 1.0,
            crds: 0,
            window: 20,
            poll_ms: 2.0,
            loops: vec![],
            reads: vec![],
            crd_timings: vec![],
            worker: vec![],
        };
        let md = markdown(&r);
        assert!(md.contains("Not measured"), "{md}");
    }
}
