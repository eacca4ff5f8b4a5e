//! `kas-hostile`: runs each hostile-client scenario of issue 21 at full size (thousands
//! of connections, holds past the server's timeouts) against a fresh kube-apiserver per
//! scenario, and prints a Markdown report: what was sent, for how long, the server's
//! memory before / at its peak / after, another client's GET rate undisturbed and during,
//! and whether the server stayed up. `bench/hostile.sh` wraps it into
//! `bench/RESULTS-hostile.md`. The scenarios are the ones the tests in `tests/hostile`
//! run small.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Parser;
use kas_bench::hostile::{flood, h2_abuse, run, slow, watch, Facts, Outcome, Size, Target};
use kas_bench::tls::{client_config, ClientIdentity, ServerTrust};

#[derive(Parser)]
#[command(version, about = "Hostile clients at full size against kube-apiserver")]
struct Cli {
    /// The kube-apiserver binary.
    #[arg(long, default_value = "target/release/kube-apiserver")]
    server: PathBuf,
    /// Only these scenarios (comma-separated names as in the report); all by default.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Divide every count by this (a quick trial run).
    #[arg(long, default_value_t = 1)]
    divide: usize,
    /// Write the report here as well as to stdout.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// A scenario at full size: its name, count, hold, and what kube-apiserver bounds it
/// with (k8s.io/apiserver secure_serving.go and filters, Go's net/http and x/net/http2).
struct Plan {
    name: &'static str,
    count: usize,
    hold: u64,
    upstream: &'static str,
}

const PLANS: &[Plan] = &[
    Plan {
        name: "slowloris",
        count: 2000,
        // Held past the 32 s header timeout.
        hold: 40,
        upstream: "ReadHeaderTimeout 32 s closes the connection; MaxHeaderBytes 1 MiB",
    },
    Plan {
        name: "slow body",
        count: 500,
        // Held past the 60 s --request-timeout and the 5 s the front door then waits for
        // the unread body.
        hold: 70,
        upstream: "--request-timeout 60 s answers 504; past 256 KiB of unread body Go sends it \
                   with Connection: close at once; --max-mutating-requests-inflight 200 \
                   (system:masters, as here, is exempt)",
    },
    Plan {
        name: "slow read",
        count: 200,
        hold: 20,
        upstream: "--request-timeout 60 s ends the handler's write; memory is the socket \
                   buffers (the cached document is shared)",
    },
    Plan {
        name: "idle connections",
        count: 5000,
        // Held past the 32 s header timeout.
        hold: 40,
        upstream: "IdleTimeout 90 s (HTTP/1.1 and HTTP/2); a connection that never sends a \
                   request: ReadHeaderTimeout 32 s",
    },
    Plan {
        name: "rapid reset",
        count: 2_000_000,
        hold: 15,
        upstream: "x/net/http2 (CVE-2023-44487 fix) runs at most MaxConcurrentStreams \
                   handlers, queues 4x that, then closes the connection",
    },
    Plan {
        name: "CONTINUATION flood",
        count: 256,
        hold: 10,
        upstream: "x/net/http2 (CVE-2023-45288 fix) closes the connection once the header \
                   block passes MaxHeaderBytes",
    },
    Plan {
        name: "huge header lists",
        count: 200,
        hold: 10,
        upstream: "x/net/http2 answers 431 on the stream, the connection stays",
    },
    Plan {
        name: "window starvation",
        count: 1800,
        hold: 20,
        upstream: "--request-timeout 60 s ends the stream",
    },
    Plan {
        name: "streams past the limit",
        count: 1000,
        hold: 10,
        upstream: "--http2-max-streams-per-connection (100 by default): streams past it reset",
    },
    Plan {
        name: "many watches",
        count: 3000,
        hold: 20,
        upstream: "no cap per client; watches are exempt from max-in-flight and end after \
                   --min-request-timeout (1800 s) x rand(1, 2)",
    },
    Plan {
        name: "list flood",
        count: 200,
        hold: 20,
        upstream: "API Priority and Fairness: the flooder's FlowSchema puts it in workload-low \
                   (100 shares of 245; may lend 90 %, borrows without limit), a LIST of \
                   32,000 objects takes 10 seats; past its seats and 128 queues of 50 a \
                   request gets 429",
    },
    Plan {
        name: "two large lists",
        count: 2,
        hold: 20,
        upstream: "issue 15's large lists: two clients LISTing 32,000 objects in a loop (20 \
                   seats of workload-low: nothing is queued or refused); the LISTs' cost \
                   against the other client's GETs",
    },
    Plan {
        name: "unread watches",
        count: 1000,
        hold: 20,
        upstream: "the watch cache's per-watcher buffer; a watcher that stays blocked is \
                   closed",
    },
];

/// The ConfigMaps the list flood LISTs (issue 15's "32k objects").
const FLOOD_OBJECTS: usize = 32_000;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<()> {
    let cli = Cli::parse();
    let mut report = String::new();
    writeln!(report, "| scenario | sent | took | server RSS before / peak / after | other client's GET/s undisturbed → during | its failed GETs | server up |")?;
    writeln!(report, "|---|---|---|---|---|---|---|")?;
    let mut details = String::new();
    for plan in PLANS {
        if !cli.only.is_empty() && !cli.only.iter().any(|o| o == plan.name) {
            continue;
        }
        eprintln!(
            "[kas-hostile] {} ({} for {} s)",
            plan.name, plan.count, plan.hold
        );
        let size = Size {
            count: (plan.count / cli.divide.max(1)).max(1),
            hold: Duration::from_secs(plan.hold),
            window: Duration::from_secs(3),
        };
        let server = Server::start(&cli.server).await?;
        let t = &server.target;
        let o = match plan.name {
            "slowloris" => run(t, plan.name, size, slow::slowloris).await,
            "slow body" => run(t, plan.name, size, slow::slow_body).await,
            "slow read" => run(t, plan.name, size, slow::slow_read).await,
            "idle connections" => run(t, plan.name, size, slow::idle).await,
            "rapid reset" => run(t, plan.name, size, h2_abuse::rapid_reset).await,
            "CONTINUATION flood" => run(t, plan.name, size, h2_abuse::continuation_flood).await,
            "huge header lists" => run(t, plan.name, size, h2_abuse::huge_headers).await,
            "window starvation" => run(t, plan.name, size, h2_abuse::window_starvation).await,
            "streams past the limit" => run(t, plan.name, size, h2_abuse::too_many_streams).await,
            "many watches" => run(t, plan.name, size, watch::many_watches).await,
            "unread watches" => run(t, plan.name, size, watch::unread_watches).await,
            "list flood" | "two large lists" => {
                let reader = server.reader.as_user(flood::READER);
                flood::prepare(t, &reader, FLOOD_OBJECTS / cli.divide.max(1)).await?;
                // The front door counts stored objects once a minute (as upstream), and a
                // LIST's seats follow the count: let it see the seeded objects.
                tokio::time::sleep(Duration::from_secs(65)).await;
                run(&reader, plan.name, size, flood::list_flood).await
            }
            other => bail!("no scenario {other}"),
        };
        server.stop().await;
        eprintln!("{o:#?}");
        row(&mut report, &o)?;
        writeln!(
            details,
            "- **{}** (kube-apiserver: {}): {}",
            o.scenario,
            plan.upstream,
            facts(&o.facts)
        )?;
    }
    writeln!(report, "\nWhat each scenario observed (counts; `*_ms` are milliseconds from its start; `rst_code_N` RST_STREAM frames with error code N, `goaway_code_N` a GOAWAY with code N):\n")?;
    report.push_str(&details);
    print!("{report}");
    if let Some(out) = &cli.out {
        std::fs::write(out, &report).with_context(|| format!("writing {}", out.display()))?;
    }
    Ok(())
}

fn row(report: &mut String, o: &Outcome) -> Result<()> {
    let mib = |k: u64| k as f64 / 1024.0;
    writeln!(
        report,
        "| {} | {} | {:.1} s | {:.0} / {:.0} / {:.0} MiB | {:.0} → {:.0} ({:.0} %) | {} | {} |",
        o.scenario,
        o.sent,
        o.took.as_secs_f64(),
        mib(o.rss_before_kib),
        mib(o.rss_peak_kib),
        mib(o.rss_after_kib),
        o.rate_before,
        o.rate_during,
        o.rate_ratio() * 100.0,
        o.probe_errors,
        if o.up { "yes" } else { "**no**" },
    )?;
    Ok(())
}

fn facts(facts: &Facts) -> String {
    facts
        .iter()
        .map(|(k, v)| format!("`{k}` {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A kube-apiserver on a free port with a temporary data dir; killed when dropped.
struct Server {
    child: tokio::process::Child,
    target: Arc<Target>,
    /// The same server, as a client with no certificate (for bearer tokens).
    reader: Arc<Target>,
    _dir: TempDir,
}

impl Server {
    async fn start(bin: &Path) -> Result<Server> {
        let dir = TempDir::new()?;
        let data = dir.0.join("data");
        let log = std::fs::File::create(dir.0.join("server.log"))?;
        let tokens = dir.0.join("tokens.csv");
        std::fs::write(&tokens, flood::TOKENS)?;
        let child = tokio::process::Command::new(bin)
            .arg("--secure-port=0")
            .arg("--bind-address=127.0.0.1")
            .arg(format!("--data-dir={}", data.display()))
            .arg(format!("--token-auth-file={}", tokens.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {}", bin.display()))?;
        let kubeconfig = data.join("admin.kubeconfig");
        let deadline = Instant::now() + Duration::from_secs(60);
        let port: u16 = loop {
            let text = std::fs::read_to_string(&kubeconfig).unwrap_or_default();
            let port = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("server:"))
                .and_then(|url| url.trim().rsplit(':').next()?.parse().ok());
            if let Some(p) = port {
                break p;
            }
            if Instant::now() > deadline {
                bail!("the server wrote no kubeconfig in 60 s");
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        let pki = data.join("pki");
        let identity = ClientIdentity {
            cert: pki.join("admin.crt"),
            key: pki.join("admin.key"),
        };
        let tls = client_config(
            &ServerTrust::CaFile(pki.join("ca.crt")),
            Some(&identity),
            &[],
        )?;
        let pid = child.id().context("server pid")?;
        let target = Target::new(port, pid, &tls);
        let no_identity = client_config(&ServerTrust::CaFile(pki.join("ca.crt")), None, &[])?;
        let reader = Target::new(port, pid, &no_identity);
        // Ready: /readyz 200.
        loop {
            if let Ok(c) = target.client().await {
                if matches!(c.get("/readyz").await, Ok((s, _)) if s == 200) {
                    break;
                }
            }
            if Instant::now() > deadline {
                bail!("the server was not ready in 60 s");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(Server {
            child,
            target,
            reader,
            _dir: dir,
        })
    }

    async fn stop(mut self) {
        if let Some(pid) = self.child.id() {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGTERM,
            );
        }
        if tokio::time::timeout(Duration::from_secs(30), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

/// A temporary directory, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<TempDir> {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("kas-hostile-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)?;
        Ok(TempDir(path))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
