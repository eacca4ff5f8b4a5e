//! Start-up time: exec a server command line, poll `/readyz` over TLS every ~1 ms, and
//! time exec → first 200. Each run gets a fresh data dir and starts twice: first-ever
//! (the server generates its certificates) and warm (same data dir again).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use serde::Serialize;
use tokio::process::{Child, Command};
use tokio::time::Instant;

use crate::client::Target;
use crate::probe::{wait_ready, PollTls};
use crate::tls::ClientIdentity;
use crate::Error;

/// Placeholder in the command line replaced by a free port.
pub const PORT: &str = "{port}";
/// Placeholder in the command line replaced by the run's data dir.
pub const DATA_DIR: &str = "{data_dir}";

/// What to start and how often.
#[derive(Debug, Clone)]
pub struct StartupSpec {
    /// Program and arguments, with [`PORT`] and [`DATA_DIR`] placeholders.
    pub command: Vec<String>,
    /// Number of runs (each: one first start and one warm start).
    pub runs: usize,
    /// Parent of the per-run directories; created if missing.
    pub work_dir: PathBuf,
    /// Path polled for readiness.
    pub ready_path: String,
    /// Client certificate and key, relative to the data dir, presented once they exist.
    pub identity: Option<(PathBuf, PathBuf)>,
    /// Pause between the starts of two polls.
    pub interval: Duration,
    /// Longest wait for readiness.
    pub timeout: Duration,
    /// SIGTERM → SIGKILL deadline when stopping.
    pub stop_grace: Duration,
    /// Keep the per-run directories (data and logs) instead of removing them.
    pub keep: bool,
}

/// Median, min and max of a set of samples, in milliseconds.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// Median (mean of the middle two for an even count).
    pub median_ms: f64,
    /// Fastest.
    pub min_ms: f64,
    /// Slowest.
    pub max_ms: f64,
    /// Every sample, in run order.
    pub samples_ms: Vec<f64>,
}

impl Summary {
    /// Summarises `samples` (at least one).
    pub fn of(samples: &[Duration]) -> Self {
        let ms: Vec<f64> = samples.iter().map(|d| d.as_secs_f64() * 1e3).collect();
        let mut sorted = ms.clone();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = match n {
            0 => f64::NAN,
            _ if n % 2 == 1 => sorted[n / 2],
            _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
        };
        Self {
            median_ms: median,
            min_ms: sorted.first().copied().unwrap_or(f64::NAN),
            max_ms: sorted.last().copied().unwrap_or(f64::NAN),
            samples_ms: ms,
        }
    }
}

/// The outcome of a start-up benchmark, printed as JSON.
#[derive(Debug, Clone, Serialize)]
pub struct StartupReport {
    /// The command line, placeholders left in.
    pub command: String,
    /// Runs done.
    pub runs: usize,
    /// exec → `/readyz` 200 with an empty data dir.
    pub first: Summary,
    /// exec → `/readyz` 200 with the data dir of the first start.
    pub warm: Summary,
    /// SIGTERM → exit, over both starts of every run.
    pub stop: Summary,
}

/// Runs the benchmark. Any start that fails to become ready fails the whole run.
pub async fn run(spec: &StartupSpec) -> Result<StartupReport, Error> {
    fs::create_dir_all(&spec.work_dir).map_err(|e| Error::file(&spec.work_dir, e))?;
    let (mut first, mut warm, mut stop) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..spec.runs {
        let run_dir = spec.work_dir.join(format!("run-{i}"));
        if run_dir.exists() {
            fs::remove_dir_all(&run_dir).map_err(|e| Error::file(&run_dir, e))?;
        }
        let data_dir = run_dir.join("data");
        fs::create_dir_all(&data_dir).map_err(|e| Error::file(&data_dir, e))?;

        let (ready, stopped) = start_once(spec, &data_dir, &run_dir.join("first.log")).await?;
        first.push(ready);
        stop.push(stopped);
        let (ready, stopped) = start_once(spec, &data_dir, &run_dir.join("warm.log")).await?;
        warm.push(ready);
        stop.push(stopped);

        if !spec.keep {
            fs::remove_dir_all(&run_dir).map_err(|e| Error::file(&run_dir, e))?;
        }
    }
    Ok(StartupReport {
        command: spec.command.join(" "),
        runs: spec.runs,
        first: Summary::of(&first),
        warm: Summary::of(&warm),
        stop: Summary::of(&stop),
    })
}

/// One start: exec, wait for readiness, stop. Returns (exec → ready, SIGTERM → exit).
async fn start_once(
    spec: &StartupSpec,
    data_dir: &Path,
    log: &Path,
) -> Result<(Duration, Duration), Error> {
    let identity = spec.identity.as_ref().map(|(cert, key)| ClientIdentity {
        cert: data_dir.join(cert),
        key: data_dir.join(key),
    });
    let mut server = Server::spawn(&spec.command, data_dir, log, &spec.ready_path, identity)?;
    let ready = match server.wait_ready(spec.interval, spec.timeout).await {
        Ok(at) => at - server.exec,
        Err(e) => {
            // Best effort: the error above is the one worth reporting.
            let _ = server.stop(spec.stop_grace).await;
            return Err(e);
        }
    };
    let stop_from = Instant::now();
    server.stop(spec.stop_grace).await?;
    Ok((ready, stop_from.elapsed()))
}

/// A server process started from a command line with [`PORT`] and [`DATA_DIR`]
/// placeholders, with what it takes to poll its readiness. Killed if dropped running.
pub struct Server {
    /// The process.
    pub child: Child,
    /// Its program, for messages.
    pub program: String,
    /// The readiness URL.
    pub target: Target,
    /// TLS for polling it.
    pub tls: PollTls,
    /// When it was exec'd.
    pub exec: Instant,
    log: PathBuf,
}

impl Server {
    /// Picks a free port, fills in the placeholders and execs the command, its output
    /// going to `log`.
    pub fn spawn(
        command: &[String],
        data_dir: &Path,
        log: &Path,
        ready_path: &str,
        identity: Option<ClientIdentity>,
    ) -> Result<Self, Error> {
        let port = free_port()?;
        let data = data_dir.to_string_lossy();
        let args: Vec<String> = command
            .iter()
            .map(|a| a.replace(PORT, &port.to_string()).replace(DATA_DIR, &data))
            .collect();
        let program = args.first().cloned().unwrap_or_default();
        let target = Target::parse(&format!("https://127.0.0.1:{port}{ready_path}"))?;
        let tls = PollTls::new(identity)?;

        let out = fs::File::create(log).map_err(|e| Error::file(log, e))?;
        let err = out.try_clone().map_err(|e| Error::file(log, e))?;
        let exec = Instant::now();
        let child = Command::new(&program)
            .args(args.get(1..).unwrap_or_default())
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| Error::Process {
                command: program.clone(),
                source,
            })?;
        Ok(Self {
            child,
            program,
            target,
            tls,
            exec,
            log: log.to_path_buf(),
        })
    }

    /// The process id (None once it has been reaped).
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Ok while the process runs; its exit (with the log's path) otherwise.
    pub fn check_running(&mut self) -> Result<(), Error> {
        still_running(&mut self.child, &self.program, &self.log)
    }

    /// Polls the readiness URL until it answers 200; returns when the 200 arrived.
    pub async fn wait_ready(
        &mut self,
        interval: Duration,
        timeout: Duration,
    ) -> Result<Instant, Error> {
        let Self {
            child,
            program,
            target,
            tls,
            log,
            ..
        } = self;
        wait_ready(target, tls, interval, timeout, || {
            still_running(child, program, log)
        })
        .await
    }

    /// SIGTERM, wait up to `grace`, then SIGKILL.
    pub async fn stop(&mut self, grace: Duration) -> Result<ExitStatus, Error> {
        stop_child(&mut self.child, grace, &self.program).await
    }
}

fn still_running(child: &mut Child, program: &str, log: &Path) -> Result<(), Error> {
    match child.try_wait() {
        Ok(None) => Ok(()),
        Ok(Some(status)) => Err(Error::EarlyExit {
            command: program.to_string(),
            status,
            log: log.to_path_buf(),
        }),
        Err(source) => Err(Error::Process {
            command: program.to_string(),
            source,
        }),
    }
}

/// SIGTERM, wait up to `grace`, then SIGKILL; returns how the child exited.
pub async fn stop_child(
    child: &mut Child,
    grace: Duration,
    program: &str,
) -> Result<ExitStatus, Error> {
    let process_err = |source| Error::Process {
        command: program.to_string(),
        source,
    };
    if let Some(status) = child.try_wait().map_err(process_err)? {
        return Ok(status);
    }
    if let Some(pid) = child.id().and_then(|id| i32::try_from(id).ok()) {
        // ESRCH means it exited in between: the wait below reaps it.
        let _ = kill(Pid::from_raw(pid), Signal::SIGTERM);
    }
    match tokio::time::timeout(grace, child.wait()).await {
        Ok(status) => status.map_err(process_err),
        Err(_) => {
            child.start_kill().map_err(process_err)?;
            child.wait().await.map_err(process_err)
        }
    }
}

/// A port free right now on 127.0.0.1 (the kernel's pick; it may be taken again before
/// the server binds it, which only fails that run).
pub fn free_port() -> Result<u16, Error> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|source| Error::Connect {
        addr: "127.0.0.1:0".into(),
        source,
    })?;
    let port = listener
        .local_addr()
        .map_err(|source| Error::Connect {
            addr: "127.0.0.1:0".into(),
            source,
        })?
        .port();
    Ok(port)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_takes_the_middle() {
        let ms = |v: &[u64]| {
            v.iter()
                .map(|&m| Duration::from_millis(m))
                .collect::<Vec<_>>()
        };
        let odd = Summary::of(&ms(&[30, 10, 20]));
        assert_eq!((odd.median_ms, odd.min_ms, odd.max_ms), (20.0, 10.0, 30.0));
        assert_eq!(odd.samples_ms, vec![30.0, 10.0, 20.0]);
        let even = Summary::of(&ms(&[40, 10, 20, 30]));
        assert_eq!(even.median_ms, 25.0);
    }
}
