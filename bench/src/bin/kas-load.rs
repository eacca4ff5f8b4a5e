//! `kas-load`: closed-loop TLS load generator, plus the `startup`, `restart`, `etcd`,
//! `wait` and `fetch` helpers the benchmark script needs. Every command prints one JSON
//! object on stdout (`fetch` prints the content type).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use bytes::Bytes;
use clap::{Args, Parser, Subcommand};
use http::header::{HeaderName, HeaderValue};
use http::{Method, StatusCode};
use kas_bench::cli::parse_duration;
use kas_bench::client::{Protocol, Target};
use kas_bench::etcd::{self, EtcdSpec, Op};
use kas_bench::load::{self, LoadSpec};
use kas_bench::probe::{self, wait_ready, PollTls};
use kas_bench::restart::{self, RestartSpec};
use kas_bench::startup::{self, StartupSpec};
use kas_bench::tls::{client_config, ClientIdentity, ServerTrust};

#[derive(Parser)]
#[command(
    version,
    about = "Closed-loop TLS load generator for kube-apiserver-rs benchmarks",
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    load: LoadArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Load a URL (the default when no subcommand is given).
    Load(LoadArgs),
    /// Time exec → readiness of a server command line, N times with fresh data dirs.
    Startup(StartupArgs),
    /// Time `kill -9` of each worker → readiness again, N times per worker.
    Restart(RestartArgs),
    /// Load an etcd v3 endpoint (embedded store or etcd) with puts, ranges or a watch.
    Etcd(EtcdArgs),
    /// Poll a URL until it answers 200.
    Wait(WaitArgs),
    /// GET a URL once, write its body to a file and print its content type.
    Fetch(FetchArgs),
}

/// How to reach a server over TLS.
#[derive(Args, Clone)]
struct TlsArgs {
    /// CA certificate (PEM) that signed the server's certificate.
    #[arg(long)]
    cacert: Option<PathBuf>,
    /// Trust any server certificate (instead of --cacert).
    #[arg(long, conflicts_with = "cacert")]
    insecure: bool,
    /// Client certificate (PEM) for certificate authentication.
    #[arg(long, requires = "key")]
    cert: Option<PathBuf>,
    /// Key of --cert (PEM).
    #[arg(long, requires = "cert")]
    key: Option<PathBuf>,
}

impl TlsArgs {
    fn trust(&self) -> Result<ServerTrust> {
        match (&self.cacert, self.insecure) {
            (Some(ca), _) => Ok(ServerTrust::CaFile(ca.clone())),
            (None, true) => Ok(ServerTrust::Any),
            (None, false) => bail!("give --cacert or --insecure"),
        }
    }

    fn identity(&self) -> Option<ClientIdentity> {
        Some(ClientIdentity {
            cert: self.cert.clone()?,
            key: self.key.clone()?,
        })
    }
}

#[derive(Args, Clone)]
struct LoadArgs {
    /// The https URL to load.
    #[arg(long, required = true)]
    url: Option<String>,
    /// Concurrent connections, each with one request in flight.
    #[arg(short = 'c', long, default_value_t = 1)]
    connections: usize,
    /// Measured time (e.g. 5s, 500ms).
    #[arg(short = 'd', long, default_value = "5s", value_parser = parse_duration)]
    duration: Duration,
    /// Unmeasured time before it.
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    warmup: Duration,
    /// Speak HTTP/2 (ALPN h2; the default).
    #[arg(long, conflicts_with = "http1")]
    http2: bool,
    /// Speak HTTP/1.1 with keep-alive.
    #[arg(long)]
    http1: bool,
    /// Request method.
    #[arg(short = 'X', long, default_value = "GET")]
    method: Method,
    /// Extra request header, `Name: value`; repeatable.
    #[arg(short = 'H', long = "header")]
    headers: Vec<String>,
    /// Request body, from this file.
    #[arg(long)]
    body_file: Option<PathBuf>,
    /// Tokio worker threads (default: one per CPU).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    tls: TlsArgs,
}

#[derive(Args)]
struct StartupArgs {
    /// Runs; each starts the server twice (first-ever, then warm).
    #[arg(short = 'n', long, default_value_t = 10)]
    runs: usize,
    /// Parent of the per-run data dirs (default: a new dir under $TMPDIR).
    #[arg(long)]
    work_dir: Option<PathBuf>,
    /// Path polled for readiness.
    #[arg(long, default_value = "/readyz")]
    ready_path: String,
    /// Client certificate to present once it exists, relative to the data dir.
    #[arg(long, requires = "key_rel")]
    cert_rel: Option<PathBuf>,
    /// Key of --cert-rel, relative to the data dir.
    #[arg(long, requires = "cert_rel")]
    key_rel: Option<PathBuf>,
    /// Pause between the starts of two polls.
    #[arg(long, default_value = "1ms", value_parser = parse_duration)]
    interval: Duration,
    /// Longest wait for readiness of one start.
    #[arg(long, default_value = "60s", value_parser = parse_duration)]
    timeout: Duration,
    /// Keep the per-run dirs (data and logs).
    #[arg(long)]
    keep: bool,
    /// Server command line; `{port}` and `{data_dir}` are replaced in every argument.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

#[derive(Args)]
struct RestartArgs {
    /// Kills per worker role; each run starts the server once (warm data dir).
    #[arg(short = 'n', long, default_value_t = 10)]
    runs: usize,
    /// Worker roles to kill, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "aggregator,kube-api,extensions,storage"
    )]
    roles: Vec<String>,
    /// Holds the data dir and logs (default: a new dir under $TMPDIR, removed after).
    #[arg(long)]
    work_dir: Option<PathBuf>,
    /// Path polled for readiness.
    #[arg(long, default_value = "/readyz")]
    ready_path: String,
    /// Client certificate to present once it exists, relative to the data dir.
    #[arg(long, requires = "key_rel")]
    cert_rel: Option<PathBuf>,
    /// Key of --cert-rel, relative to the data dir.
    #[arg(long, requires = "cert_rel")]
    key_rel: Option<PathBuf>,
    /// Pause between the starts of two polls.
    #[arg(long, default_value = "1ms", value_parser = parse_duration)]
    interval: Duration,
    /// Pause after readiness before each kill.
    #[arg(long, default_value = "100ms", value_parser = parse_duration)]
    settle: Duration,
    /// Longest wait for readiness, at start and after each kill.
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    timeout: Duration,
    /// Server command line; `{port}` and `{data_dir}` are replaced in every argument.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

#[derive(Args)]
struct EtcdArgs {
    /// gRPC endpoint: `http://127.0.0.1:2379` or `unix:///abs/path/storage.sock`.
    #[arg(long)]
    endpoint: String,
    /// Operation to load.
    #[arg(long, value_enum, default_value = "put")]
    op: Op,
    /// Concurrent clients, each on its own connection with one call in flight (`watch`:
    /// always one watcher and one putter).
    #[arg(short = 'c', long, default_value_t = 1)]
    clients: usize,
    /// Measured time.
    #[arg(short = 'd', long, default_value = "5s", value_parser = parse_duration)]
    duration: Duration,
    /// Unmeasured time before it.
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    warmup: Duration,
    /// Bytes of every value written.
    #[arg(long, default_value_t = 1024)]
    value_size: usize,
    /// Prefix of every key.
    #[arg(long, default_value = "/kas-bench/")]
    prefix: String,
    /// Keys under the prefix `range` reads.
    #[arg(long, default_value_t = 100)]
    range_keys: usize,
    /// Only wait (up to this long) until the endpoint answers a Status call, print
    /// `{"ready_ms":…}` and exit.
    #[arg(long, value_parser = parse_duration)]
    wait_only: Option<Duration>,
}

#[derive(Args)]
struct WaitArgs {
    /// The https URL to poll.
    #[arg(long)]
    url: String,
    /// Pause between the starts of two polls.
    #[arg(long, default_value = "10ms", value_parser = parse_duration)]
    interval: Duration,
    /// Give up after this long.
    #[arg(long, default_value = "60s", value_parser = parse_duration)]
    timeout: Duration,
    /// Client certificate to present once it exists (PEM).
    #[arg(long, requires = "key")]
    cert: Option<PathBuf>,
    /// Key of --cert (PEM).
    #[arg(long, requires = "cert")]
    key: Option<PathBuf>,
}

#[derive(Args)]
struct FetchArgs {
    /// The https URL to GET.
    #[arg(long)]
    url: String,
    /// Where to write the body.
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    tls: TlsArgs,
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        None => run_load(cli.load),
        Some(Command::Load(args)) => run_load(args),
        Some(Command::Startup(args)) => current_thread()?.block_on(run_startup(args)),
        Some(Command::Restart(args)) => current_thread()?.block_on(run_restart(args)),
        Some(Command::Etcd(args)) => run_etcd(args),
        Some(Command::Wait(args)) => current_thread()?.block_on(run_wait(args)),
        Some(Command::Fetch(args)) => current_thread()?.block_on(run_fetch(args)),
    }
}

fn current_thread() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("tokio runtime")
}

fn run_load(args: LoadArgs) -> Result<()> {
    let url = args.url.clone().context("--url is required")?;
    if args.connections == 0 {
        bail!("--connections must be at least 1");
    }
    if args.duration.is_zero() {
        bail!("--duration must be positive");
    }
    let protocol = if args.http1 {
        Protocol::Http1
    } else {
        Protocol::Http2
    };
    let headers = args
        .headers
        .iter()
        .map(|h| parse_header(h))
        .collect::<Result<Vec<_>>>()?;
    let body = match &args.body_file {
        Some(path) => {
            Bytes::from(std::fs::read(path).with_context(|| format!("reading {}", path.display()))?)
        }
        None => Bytes::new(),
    };
    let spec = LoadSpec {
        target: Target::parse(&url)?,
        protocol,
        connections: args.connections,
        warmup: args.warmup,
        duration: args.duration,
        method: args.method.clone(),
        headers,
        body,
        tls: client_config(
            &args.tls.trust()?,
            args.tls.identity().as_ref(),
            &[protocol.alpn()],
        )?,
    };
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = args.threads {
        runtime.worker_threads(n.max(1));
    }
    let report = runtime
        .enable_all()
        .build()
        .context("tokio runtime")?
        .block_on(load::run(spec))?;
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

fn parse_header(h: &str) -> Result<(HeaderName, HeaderValue)> {
    let (name, value) = h
        .split_once(':')
        .with_context(|| format!("header {h:?}: expected `Name: value`"))?;
    Ok((
        HeaderName::from_bytes(name.trim().as_bytes())
            .with_context(|| format!("header name {name:?}"))?,
        HeaderValue::from_str(value.trim()).with_context(|| format!("header value {value:?}"))?,
    ))
}

async fn run_startup(args: StartupArgs) -> Result<()> {
    let work_dir = match args.work_dir {
        Some(dir) => dir,
        None => std::env::temp_dir().join(format!("kas-startup-{}", std::process::id())),
    };
    let spec = StartupSpec {
        command: args.command,
        runs: args.runs.max(1),
        work_dir: work_dir.clone(),
        ready_path: args.ready_path,
        identity: args.cert_rel.zip(args.key_rel),
        interval: args.interval,
        timeout: args.timeout,
        stop_grace: Duration::from_secs(10),
        keep: args.keep,
    };
    let report = startup::run(&spec).await?;
    if !args.keep {
        // Only empty if every run cleaned up; a leftover dir is worth a look, not an error.
        let _ = std::fs::remove_dir(&work_dir);
    }
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

async fn run_restart(args: RestartArgs) -> Result<()> {
    let (work_dir, remove) = match args.work_dir {
        Some(dir) => (dir, false),
        None => (
            std::env::temp_dir().join(format!("kas-restart-{}", std::process::id())),
            true,
        ),
    };
    let spec = RestartSpec {
        command: args.command,
        roles: args.roles,
        runs: args.runs.max(1),
        work_dir: work_dir.clone(),
        ready_path: args.ready_path,
        identity: args.cert_rel.zip(args.key_rel),
        interval: args.interval,
        timeout: args.timeout,
        settle: args.settle,
        stop_grace: Duration::from_secs(10),
    };
    let report = restart::run(&spec).await?;
    if remove {
        std::fs::remove_dir_all(&work_dir)
            .with_context(|| format!("removing {}", work_dir.display()))?;
    }
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

fn run_etcd(args: EtcdArgs) -> Result<()> {
    if args.duration.is_zero() {
        bail!("--duration must be positive");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("tokio runtime")?;
    if let Some(timeout) = args.wait_only {
        let ready = runtime.block_on(etcd::wait_healthy(&args.endpoint, timeout))?;
        println!(
            "{}",
            serde_json::json!({ "ready_ms": ready.as_secs_f64() * 1e3 })
        );
        return Ok(());
    }
    let spec = EtcdSpec {
        endpoint: args.endpoint,
        op: args.op,
        clients: args.clients,
        warmup: args.warmup,
        duration: args.duration,
        value_size: args.value_size,
        prefix: args.prefix,
        range_keys: args.range_keys,
    };
    let report = runtime.block_on(etcd::run(spec))?;
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

async fn run_wait(args: WaitArgs) -> Result<()> {
    let target = Target::parse(&args.url)?;
    let identity = args
        .cert
        .zip(args.key)
        .map(|(cert, key)| ClientIdentity { cert, key });
    let mut tls = PollTls::new(identity)?;
    let start = tokio::time::Instant::now();
    let ready = wait_ready(&target, &mut tls, args.interval, args.timeout, || Ok(())).await?;
    println!(
        "{}",
        serde_json::json!({ "ready_ms": (ready - start).as_secs_f64() * 1e3 })
    );
    Ok(())
}

async fn run_fetch(args: FetchArgs) -> Result<()> {
    let target = Target::parse(&args.url)?;
    let tls = client_config(
        &args.tls.trust()?,
        args.tls.identity().as_ref(),
        &[Protocol::Http1.alpn()],
    )?;
    let resp = probe::get(&target, tls).await?;
    if resp.status != StatusCode::OK {
        bail!(
            "{} answered {}: {}",
            args.url,
            resp.status,
            String::from_utf8_lossy(&resp.body)
        );
    }
    std::fs::write(&args.out, &resp.body)
        .with_context(|| format!("writing {}", args.out.display()))?;
    println!("{}", resp.content_type.unwrap_or_default());
    Ok(())
}
