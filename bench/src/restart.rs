//! Restart latency: start the server, then for each worker role `kill -9` that worker and
//! time kill → `/readyz` 200 again with a new process in the role.
//!
//! The supervisor restarts a worker's first crash at once and backs off from 250 ms on
//! later crashes within 10 s of its start, so each run starts the server afresh (same data
//! dir, warm) and kills every role once: every sample is a first crash, the case a
//! one-off failure hits. A killed worker comes back so fast that `/readyz` may never be
//! seen failing, so "back" is decided by the pid: a 200 counts only from a probe sent
//! after the role's new process was seen (the aggregator's old process cannot answer at
//! all, so for it any 200 with the new process present counts).

use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use http::StatusCode;
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use serde::Serialize;
use tokio::time::Instant;

use crate::probe::{self, PROBE_TIMEOUT};
use crate::procfs::worker_pid;
use crate::startup::{Server, Summary};
use crate::tls::ClientIdentity;
use crate::Error;

/// The role whose process owns the listener and answers `/readyz` itself.
const FRONT_ROLE: &str = "aggregator";

/// What to start, which workers to kill, and how often.
#[derive(Debug, Clone)]
pub struct RestartSpec {
    /// Program and arguments, with the [`crate::startup`] placeholders.
    pub command: Vec<String>,
    /// Worker roles to kill, in this order in the first run (rotated in later ones).
    pub roles: Vec<String>,
    /// Runs; each starts the server once and kills every role once.
    pub runs: usize,
    /// Holds the data dir (shared by the runs) and the logs; created if missing.
    pub work_dir: PathBuf,
    /// Path polled for readiness.
    pub ready_path: String,
    /// Client certificate and key, relative to the data dir.
    pub identity: Option<(PathBuf, PathBuf)>,
    /// Pause between the starts of two polls.
    pub interval: Duration,
    /// Longest wait for readiness, at start and after each kill.
    pub timeout: Duration,
    /// Pause after readiness before a kill, so the previous restart has settled.
    pub settle: Duration,
    /// SIGTERM → SIGKILL deadline when stopping.
    pub stop_grace: Duration,
}

/// Restart latency of one role.
#[derive(Debug, Clone, Serialize)]
pub struct RoleReport {
    /// The worker role.
    pub role: String,
    /// `kill -9` → `/readyz` 200 with the new process in place.
    pub restart: Summary,
    /// Samples in which `/readyz` was seen failing (or unreachable) after the kill.
    pub red_seen: usize,
}

/// The outcome of a restart benchmark, printed as JSON.
#[derive(Debug, Clone, Serialize)]
pub struct RestartReport {
    /// The command line, placeholders left in.
    pub command: String,
    /// Runs done (samples per role).
    pub runs: usize,
    /// One entry per role, in the order given.
    pub roles: Vec<RoleReport>,
}

/// Runs the benchmark; a worker that does not come back fails the whole run.
pub async fn run(spec: &RestartSpec) -> Result<RestartReport, Error> {
    if spec.roles.is_empty() {
        return Err(Error::Setup("no worker roles to kill".into()));
    }
    fs::create_dir_all(&spec.work_dir).map_err(|e| Error::file(&spec.work_dir, e))?;
    let data_dir = spec.work_dir.join("data");
    fs::create_dir_all(&data_dir).map_err(|e| Error::file(&data_dir, e))?;

    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); spec.roles.len()];
    let mut red = vec![0usize; spec.roles.len()];
    for i in 0..spec.runs {
        let identity = spec.identity.as_ref().map(|(cert, key)| ClientIdentity {
            cert: data_dir.join(cert),
            key: data_dir.join(key),
        });
        let log = spec.work_dir.join(format!("run-{i}.log"));
        let mut server = Server::spawn(&spec.command, &data_dir, &log, &spec.ready_path, identity)?;
        let outcome = kill_each(spec, &mut server, i, &mut samples, &mut red).await;
        // Stop whatever happened; the run's own error, if any, is the one to report.
        let stopped = server.stop(spec.stop_grace).await;
        outcome?;
        stopped?;
    }
    Ok(RestartReport {
        command: spec.command.join(" "),
        runs: spec.runs,
        roles: spec
            .roles
            .iter()
            .zip(samples.iter().zip(red))
            .map(|(role, (s, red_seen))| RoleReport {
                role: role.clone(),
                restart: Summary::of(s),
                red_seen,
            })
            .collect(),
    })
}

/// One run: wait for readiness, then kill each role once, in rotated order.
async fn kill_each(
    spec: &RestartSpec,
    server: &mut Server,
    run: usize,
    samples: &mut [Vec<Duration>],
    red: &mut [usize],
) -> Result<(), Error> {
    server.wait_ready(spec.interval, spec.timeout).await?;
    let supervisor = server
        .pid()
        .ok_or_else(|| Error::Setup("server exited".into()))?;
    let n = spec.roles.len();
    for k in 0..n {
        let idx = (run + k) % n;
        tokio::time::sleep(spec.settle).await;
        let (took, red_seen) = kill_one(spec, server, supervisor, &spec.roles[idx]).await?;
        samples[idx].push(took);
        red[idx] += usize::from(red_seen);
    }
    Ok(())
}

/// Kills `role`'s process and waits until it is back. Returns (kill → back, whether
/// `/readyz` was seen failing meanwhile).
async fn kill_one(
    spec: &RestartSpec,
    server: &mut Server,
    supervisor: u32,
    role: &str,
) -> Result<(Duration, bool), Error> {
    let old = worker_pid(supervisor, role)
        .ok_or_else(|| Error::Setup(format!("no `__worker {role}` child of pid {supervisor}")))?;
    let pid = i32::try_from(old).map_err(|_| Error::Setup(format!("pid {old} out of range")))?;
    let is_new = |p: Option<u32>| p.is_some_and(|p| p != old);

    let killed = Instant::now();
    kill(Pid::from_raw(pid), Signal::SIGKILL).map_err(|e| Error::Process {
        command: format!("kill -9 {old}"),
        source: e.into(),
    })?;
    let deadline = killed + spec.timeout;
    let mut new_seen = false;
    let mut red_seen = false;
    loop {
        server.check_running()?;
        let attempt = Instant::now();
        if attempt >= deadline {
            return Err(Error::Timeout(
                spec.timeout,
                format!("worker {role} to come back after kill -9 {old}"),
            ));
        }
        new_seen = new_seen || is_new(worker_pid(supervisor, role));
        let sent_after_new = new_seen;
        let outcome = tokio::time::timeout(
            PROBE_TIMEOUT,
            probe::get(&server.target, server.tls.config()),
        )
        .await;
        let ok = matches!(&outcome, Ok(Ok(resp)) if resp.status == StatusCode::OK);
        if ok {
            let at = Instant::now();
            if sent_after_new || (role == FRONT_ROLE && is_new(worker_pid(supervisor, role))) {
                return Ok((at - killed, red_seen));
            }
        } else {
            red_seen = true;
        }
        tokio::time::sleep_until(attempt + spec.interval).await;
    }
}
