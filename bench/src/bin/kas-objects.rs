//! `kas-objects`: ConfigMaps through the built-in API and the same operations on the raw
//! store, for the benchmark script: `seed`, `load`, `raw`, `fanout` and `rss`. Every
//! command prints one JSON object on stdout.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use kas_bench::api::{self, ApiSpec, ObjectOp};
use kas_bench::cli::parse_duration;
use kas_bench::client::{Protocol, Target};
use kas_bench::fanout::{self, FanoutSpec, FanoutTarget};
use kas_bench::procfs;
use kas_bench::raw::{self, RawSpec};
use kas_bench::tls::{client_config, ClientIdentity, ServerTrust};

#[derive(Parser)]
#[command(
    version,
    about = "ConfigMap benchmarks: the built-in API against the raw store"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create the namespace and `cm-FROM … cm-(FROM+COUNT-1)` in it (existing ones are kept).
    Seed(SeedArgs),
    /// Closed loop of GET, LIST, CREATE or UPDATE of ConfigMaps through the API.
    Load(LoadArgs),
    /// The same operations straight on the store through etcd-client (the baseline).
    Raw(RawArgs),
    /// One write → N watchers: through the API (--url) or etcd watches (--endpoint).
    Fanout(FanoutArgs),
    /// VmRSS and VmHWM of a supervisor and each of its workers.
    Rss(RssArgs),
}

/// How to reach the API server.
#[derive(Args, Clone)]
struct Server {
    /// The server, `https://127.0.0.1:6443`.
    #[arg(long)]
    url: String,
    /// CA certificate (PEM) that signed the server's certificate.
    #[arg(long)]
    cacert: PathBuf,
    /// Client certificate (PEM), e.g. the admin one.
    #[arg(long)]
    cert: PathBuf,
    /// Key of --cert (PEM).
    #[arg(long)]
    key: PathBuf,
    /// The namespace.
    #[arg(long, default_value = "bench")]
    namespace: String,
    /// Bytes of the data value of written objects.
    #[arg(long, default_value_t = 1024)]
    value_size: usize,
}

impl Server {
    fn tls(&self, protocol: Protocol) -> Result<std::sync::Arc<rustls::ClientConfig>> {
        Ok(client_config(
            &ServerTrust::CaFile(self.cacert.clone()),
            Some(&ClientIdentity {
                cert: self.cert.clone(),
                key: self.key.clone(),
            }),
            &[protocol.alpn()],
        )?)
    }
}

#[derive(Args)]
struct SeedArgs {
    #[command(flatten)]
    server: Server,
    /// First object number.
    #[arg(long, default_value_t = 0)]
    from: usize,
    /// Objects.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Concurrent connections.
    #[arg(short = 'c', long, default_value_t = 16)]
    connections: usize,
}

#[derive(Args)]
struct LoadArgs {
    #[command(flatten)]
    server: Server,
    /// The operation.
    #[arg(long, value_enum)]
    op: ObjectOp,
    /// Objects `cm-0 …` that GET and UPDATE cycle over (and LIST returns).
    #[arg(long, default_value_t = 100)]
    objects: usize,
    /// Concurrent connections, each with one request in flight.
    #[arg(short = 'c', long, default_value_t = 1)]
    connections: usize,
    /// Measured time.
    #[arg(short = 'd', long, default_value = "5s", value_parser = parse_duration)]
    duration: Duration,
    /// Unmeasured time before it.
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    warmup: Duration,
    /// Speak HTTP/1.1 instead of HTTP/2.
    #[arg(long)]
    http1: bool,
    /// LIST the first page of this many objects (`?limit=`, as kubectl's chunks) instead
    /// of the whole namespace.
    #[arg(long)]
    limit: Option<usize>,
}

#[derive(Args)]
struct RawArgs {
    /// gRPC endpoint: `unix:///abs/storage.sock` or `http://127.0.0.1:2379`.
    #[arg(long)]
    endpoint: String,
    /// The operation.
    #[arg(long, value_enum)]
    op: ObjectOp,
    /// Key prefix of the namespace's ConfigMaps.
    #[arg(long, default_value = "/registry/configmaps/bench/")]
    prefix: String,
    /// Where creates and updates write.
    #[arg(long, default_value = "/kas-bench-raw/configmaps/bench/")]
    scratch: String,
    /// Objects cycled over (and that a LIST must return).
    #[arg(long, default_value_t = 100)]
    objects: usize,
    /// Concurrent clients, each on its own connection.
    #[arg(short = 'c', long, default_value_t = 1)]
    clients: usize,
    /// Measured time.
    #[arg(short = 'd', long, default_value = "5s", value_parser = parse_duration)]
    duration: Duration,
    /// Unmeasured time before it.
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    warmup: Duration,
}

#[derive(Args)]
struct FanoutArgs {
    /// The API server, `https://127.0.0.1:6443` (needs --cacert, --cert, --key).
    #[arg(long, conflicts_with = "endpoint")]
    url: Option<String>,
    /// An etcd v3 endpoint instead: `unix:///abs/storage.sock` or `http://…`.
    #[arg(long)]
    endpoint: Option<String>,
    /// CA certificate (PEM) of the server.
    #[arg(long)]
    cacert: Option<PathBuf>,
    /// Client certificate (PEM).
    #[arg(long)]
    cert: Option<PathBuf>,
    /// Key of --cert (PEM).
    #[arg(long)]
    key: Option<PathBuf>,
    /// The watched namespace (API; `cm-0` in it is what the writes update).
    #[arg(long, default_value = "bench")]
    namespace: String,
    /// The watched prefix (etcd).
    #[arg(long, default_value = "/kas-bench-raw/watch/")]
    prefix: String,
    /// Watchers.
    #[arg(short = 'w', long, default_value_t = 1000)]
    watchers: usize,
    /// Connections the watchers share.
    #[arg(short = 'c', long, default_value_t = 10)]
    connections: usize,
    /// Writes, one at a time.
    #[arg(short = 'n', long, default_value_t = 10)]
    writes: usize,
    /// Pause before each write.
    #[arg(long, default_value = "200ms", value_parser = parse_duration)]
    pause: Duration,
    /// Bytes of the written value.
    #[arg(long, default_value_t = 1024)]
    value_size: usize,
}

#[derive(Args)]
struct RssArgs {
    /// The supervisor's pid.
    #[arg(long)]
    pid: u32,
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("tokio runtime")?;
    let json = match cli.command {
        Command::Seed(a) => {
            let tls = a.server.tls(Protocol::Http2)?;
            let report = runtime.block_on(api::seed(
                &Target::parse(&a.server.url)?,
                tls,
                &a.server.namespace,
                a.from,
                a.count,
                a.server.value_size,
                a.connections,
            ))?;
            serde_json::to_string(&report)?
        }
        Command::Load(a) => {
            let protocol = if a.http1 {
                Protocol::Http1
            } else {
                Protocol::Http2
            };
            if a.duration.is_zero() {
                bail!("--duration must be positive");
            }
            let spec = ApiSpec {
                target: Target::parse(&a.server.url)?,
                protocol,
                tls: a.server.tls(protocol)?,
                op: a.op,
                connections: a.connections,
                warmup: a.warmup,
                duration: a.duration,
                namespace: a.server.namespace.clone(),
                objects: a.objects,
                value_size: a.server.value_size,
                list_limit: a.limit,
            };
            serde_json::to_string(&runtime.block_on(api::run(spec))?)?
        }
        Command::Raw(a) => {
            if a.duration.is_zero() {
                bail!("--duration must be positive");
            }
            let spec = RawSpec {
                endpoint: a.endpoint,
                op: a.op,
                clients: a.clients,
                warmup: a.warmup,
                duration: a.duration,
                prefix: a.prefix,
                scratch: a.scratch,
                objects: a.objects,
            };
            serde_json::to_string(&runtime.block_on(raw::run(spec))?)?
        }
        Command::Fanout(a) => {
            let target = match (a.url, a.endpoint) {
                (Some(url), None) => {
                    let (Some(cacert), Some(cert), Some(key)) = (a.cacert, a.cert, a.key) else {
                        bail!("--url needs --cacert, --cert and --key");
                    };
                    FanoutTarget::Api {
                        target: Target::parse(&url)?,
                        tls: client_config(
                            &ServerTrust::CaFile(cacert),
                            Some(&ClientIdentity { cert, key }),
                            &[Protocol::Http2.alpn()],
                        )?,
                        namespace: a.namespace,
                        value_size: a.value_size,
                    }
                }
                (None, Some(endpoint)) => FanoutTarget::Etcd {
                    endpoint,
                    prefix: a.prefix,
                    value_size: a.value_size,
                },
                _ => bail!("give one of --url and --endpoint"),
            };
            let spec = FanoutSpec {
                target,
                watchers: a.watchers,
                connections: a.connections,
                writes: a.writes,
                pause: a.pause,
            };
            serde_json::to_string(&runtime.block_on(fanout::run(spec))?)?
        }
        Command::Rss(a) => {
            let supervisor =
                procfs::memory(a.pid).with_context(|| format!("no process {} to read", a.pid))?;
            let workers: Vec<_> = procfs::workers(a.pid)
                .into_iter()
                .filter_map(|(pid, role)| {
                    let m = procfs::memory(pid)?;
                    Some(serde_json::json!({ "role": role, "pid": pid, "rss_kib": m.rss_kib, "hwm_kib": m.hwm_kib }))
                })
                .collect();
            serde_json::json!({
                "supervisor": { "pid": a.pid, "rss_kib": supervisor.rss_kib, "hwm_kib": supervisor.hwm_kib },
                "workers": workers,
            })
            .to_string()
        }
    };
    println!("{json}");
    Ok(())
}
