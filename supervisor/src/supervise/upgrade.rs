//! Binary upgrade: a reload that finds the binary on disk replaced re-executes the
//! supervisor in place — same PID, so systemd's `MAINPID` stays right — keeping the
//! listening socket and the running workers, whose control channels it hands to its new
//! image; the new image then replaces every worker as any reload does.
//!
//! The handover happens at frame boundaries: the supervisor writes `Handover` as the last
//! frame on each channel, the worker answers `HandoverReady` as its last and queues what
//! it reports until the new image's `Resume`. The channels and the listener lose
//! close-on-exec and travel by number in one environment variable; SIGTERM, SIGINT and
//! SIGHUP are blocked across `execve` (the mask survives it) and unblocked once the new
//! image has its handlers, so a signal meanwhile is delivered late, not fatal.

use std::collections::BTreeSet;
use std::ffi::CString;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::Duration;

use kas_proto::{PeerState, WorkerHealth, WorkerRestarts, WorkerRole};
use nix::sys::signal::{SigSet, SigmaskHow, Signal};
use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::{Event, Supervisor};
use crate::sys;

/// The environment variable that carries [`Handover`] to the new image.
pub(super) const HANDOVER_ENV: &str = "KUBE_APISERVER_RS_HANDOVER";
/// How long workers get to answer `Handover`; one that does not is replaced afresh.
const HANDOVER_WITHIN: Duration = Duration::from_secs(5);
/// How long the new binary may take to print its version.
const CHECK_WITHIN: Duration = Duration::from_secs(10);

/// What the new image takes over, by fd number.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Handover {
    /// The control protocol the handed workers speak.
    protocol: u32,
    listener_fd: RawFd,
    /// The embedded store's socket.
    storage_listener_fd: Option<RawFd>,
    last_generation: u64,
    workers: Vec<HandedWorker>,
}

#[derive(Debug, Serialize, Deserialize)]
struct HandedWorker {
    role: WorkerRole,
    generation: u64,
    pid: u32,
    fd: RawFd,
    exited: u64,
    unresponsive: u64,
    health: WorkerHealth,
}

/// An upgrade waiting for the workers' channels.
#[derive(Debug)]
pub(super) struct Upgrade {
    waiting: BTreeSet<WorkerRole>,
    handed: Vec<(WorkerRole, u64, OwnedFd)>,
    deadline: Instant,
    /// The new binary answered; the workers are handing their channels over.
    checked: bool,
}

/// Whether the file `exe` names is no longer the one this process runs.
pub(super) fn binary_replaced(exe: &Path) -> bool {
    match (std::fs::metadata(exe), std::fs::metadata("/proc/self/exe")) {
        (Ok(on_disk), Ok(running)) => {
            (on_disk.dev(), on_disk.ino()) != (running.dev(), running.ino())
        }
        _ => false,
    }
}

fn terminal_signals() -> SigSet {
    let mut set = SigSet::empty();
    for s in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP] {
        set.add(s);
    }
    set
}

/// Unblocks the signals a previous image blocked across `execve` (a no-op at a plain
/// start). Call once the handlers are installed, before any worker is spawned (a child
/// inherits the mask).
pub(crate) fn unblock_signals() {
    let _ = nix::sys::signal::sigprocmask(SigmaskHow::SIG_UNBLOCK, Some(&terminal_signals()), None);
}

/// The handover the previous image left, if this process is one; removed from the
/// environment's copy that workers get (they are spawned with it removed).
pub(crate) fn take() -> anyhow::Result<Option<(Handover, OwnedFd)>> {
    let Some(raw) = std::env::var_os(HANDOVER_ENV) else {
        return Ok(None);
    };
    let handover: Handover = serde_json::from_slice(raw.as_bytes())
        .map_err(|e| anyhow::anyhow!("{HANDOVER_ENV} is not a handover: {e}"))?;
    let listener = sys::take_passed(handover.listener_fd)
        .map_err(|e| anyhow::anyhow!("the handed-over listener: {e}"))?;
    Ok(Some((handover, listener)))
}

impl Handover {
    /// The embedded store's socket the previous image held, if it had one.
    pub(crate) fn storage_listener(&self) -> anyhow::Result<Option<OwnedFd>> {
        self.storage_listener_fd
            .map(sys::take_passed)
            .transpose()
            .map_err(|e| anyhow::anyhow!("the handed-over store socket: {e}"))
    }
}

impl Supervisor {
    /// Runs the new binary once (`--version=raw`) before anything is handed to it: a
    /// file that is not an executable of this server (truncated, another architecture,
    /// another program) fails the reload while the running image and workers carry on.
    pub(super) fn check_new_binary(&mut self) {
        self.notifier.status("Reloading: checking the new binary");
        // Marks the upgrade as under way (a second SIGHUP is absorbed meanwhile).
        self.upgrade = Some(Upgrade {
            waiting: BTreeSet::new(),
            handed: Vec::new(),
            deadline: Instant::now() + CHECK_WITHIN + HANDOVER_WITHIN,
            checked: false,
        });
        let exe = self.exe.clone();
        let events = self.events_tx.clone();
        tokio::spawn(async move {
            let run = tokio::process::Command::new(&exe)
                .arg("--version=raw")
                .stdin(std::process::Stdio::null())
                .kill_on_drop(true)
                .output();
            let result = match tokio::time::timeout(CHECK_WITHIN, run).await {
                Err(_) => Err(format!(
                    "{} --version=raw did not answer in time",
                    exe.display()
                )),
                Ok(Err(e)) => Err(format!("cannot run {}: {e}", exe.display())),
                Ok(Ok(out))
                    if out.status.success()
                        && String::from_utf8_lossy(&out.stdout).contains("kube-apiserver-rs") =>
                {
                    Ok(())
                }
                Ok(Ok(out)) => Err(format!(
                    "{} --version=raw: {} {}",
                    exe.display(),
                    out.status,
                    String::from_utf8_lossy(&out.stderr).trim()
                )),
            };
            let _ = events.send(Event::BinaryChecked(result));
        });
    }

    pub(super) fn binary_checked(&mut self, result: Result<(), String>) {
        if self.upgrade.as_ref().is_none_or(|u| u.checked) {
            return;
        }
        match result {
            Ok(()) => self.begin_upgrade(),
            Err(why) => {
                self.upgrade = None;
                tracing::error!(reason = %why, "reload failed: the new binary does not run; the running image and workers keep serving");
                self.notifier.status(&format!(
                    "Reload failed: the new binary does not run: {why}"
                ));
            }
        }
    }

    /// Asks every worker for its channel; the re-exec follows when all have answered.
    fn begin_upgrade(&mut self) {
        tracing::info!(exe = %self.exe.display(), "the binary on disk was replaced: handing over to it");
        self.notifier
            .status("Reloading: re-executing the new binary");
        let mut waiting = BTreeSet::new();
        for slot in self.slots.values().filter(|s| s.running) {
            if let Some(tx) = &slot.tx {
                if tx.send(kas_proto::FromSupervisor::Handover).is_ok() {
                    waiting.insert(slot.role);
                }
            }
        }
        self.upgrade = Some(Upgrade {
            waiting,
            handed: Vec::new(),
            deadline: Instant::now() + HANDOVER_WITHIN,
            checked: true,
        });
        self.exec_when_handed();
    }

    pub(super) fn handed_over(&mut self, role: WorkerRole, generation: u64, fd: OwnedFd) {
        let current = self.slots.get(&role).map(|s| s.generation);
        if let Some(upgrade) = self.upgrade.as_mut() {
            if current == Some(generation) {
                upgrade.waiting.remove(&role);
                upgrade.handed.push((role, generation, fd));
            }
        }
        self.exec_when_handed();
    }

    /// Once a heartbeat: workers that did not answer in time are left behind.
    pub(super) fn upgrade_timer(&mut self) {
        let late = self
            .upgrade
            .as_ref()
            .is_some_and(|u| u.checked && Instant::now() >= u.deadline);
        if late {
            if let Some(u) = self.upgrade.as_mut() {
                tracing::warn!(workers = ?u.waiting, "workers did not hand over in time; the new image starts them afresh");
                u.waiting.clear();
            }
            self.exec_when_handed();
        }
    }

    fn exec_when_handed(&mut self) {
        if self
            .upgrade
            .as_ref()
            .is_some_and(|u| u.checked && u.waiting.is_empty())
        {
            if let Some(upgrade) = self.upgrade.take() {
                let error = self.exec(&upgrade);
                tracing::error!(error = %error, "cannot re-execute the new binary; this image keeps running");
                self.notifier
                    .status(&format!("Reload failed: cannot re-execute: {error}"));
                self.resume(upgrade);
            }
        }
    }

    /// Replaces this process image; returns only on failure.
    fn exec(&self, upgrade: &Upgrade) -> String {
        let Some(listener) = &self.listener else {
            return "no listener to hand over".into();
        };
        let mut workers = Vec::new();
        for (role, generation, fd) in &upgrade.handed {
            let Some(slot) = self.slots.get(role) else {
                continue;
            };
            let (Some(pid), Ok(())) = (slot.pid, sys::keep_across_exec(fd)) else {
                continue;
            };
            workers.push(HandedWorker {
                role: *role,
                generation: *generation,
                pid,
                fd: fd.as_raw_fd(),
                exited: slot.restarts.exited,
                unresponsive: slot.restarts.unresponsive,
                health: slot.health.clone(),
            });
        }
        if let Err(e) = sys::keep_across_exec(listener) {
            return format!("the listener: {e}");
        }
        if let Some(Err(e)) = self.storage_listener.as_ref().map(sys::keep_across_exec) {
            return format!("the store's listener: {e}");
        }
        let handover = Handover {
            protocol: kas_proto::PROTOCOL_VERSION,
            listener_fd: listener.as_raw_fd(),
            storage_listener_fd: self.storage_listener.as_ref().map(AsRawFd::as_raw_fd),
            last_generation: self.last_generation,
            workers,
        };
        let Ok(value) = serde_json::to_string(&handover) else {
            return "encoding the handover".into();
        };
        let cstr = |b: &[u8]| CString::new(b).ok();
        let Some(path) = cstr(self.exe.as_os_str().as_bytes()) else {
            return "the binary's path has a NUL".into();
        };
        let args: Vec<CString> = std::env::args_os()
            .filter_map(|a| cstr(a.as_bytes()))
            .collect();
        let mut env: Vec<CString> = std::env::vars_os()
            .filter(|(k, _)| k != HANDOVER_ENV)
            .filter_map(|(k, v)| cstr(&[k.as_bytes(), b"=", v.as_bytes()].concat()))
            .collect();
        env.extend(cstr(format!("{HANDOVER_ENV}={value}").as_bytes()));
        tracing::info!(workers = handover.workers.len(), "re-executing in place");
        let mask = terminal_signals();
        let _ = nix::sys::signal::sigprocmask(SigmaskHow::SIG_BLOCK, Some(&mask), None);
        let error = nix::unistd::execve(&path, &args, &env).err();
        unblock_signals();
        let listeners = [Some(listener), self.storage_listener.as_ref()];
        for fd in upgrade
            .handed
            .iter()
            .map(|(_, _, fd)| fd)
            .chain(listeners.into_iter().flatten())
        {
            let _ = sys::close_on_exec(fd);
        }
        error.map_or_else(|| "execve returned".into(), |e| e.to_string())
    }

    /// Takes the handed channels back after a failed exec.
    fn resume(&mut self, upgrade: Upgrade) {
        for (role, generation, fd) in upgrade.handed {
            self.resume_channel(role, generation, fd);
        }
    }

    fn resume_channel(&self, role: WorkerRole, generation: u64, fd: OwnedFd) {
        let events = self.events_tx.clone();
        let stream = std::os::unix::net::UnixStream::from(fd);
        tokio::spawn(async move {
            let stream = stream
                .set_nonblocking(true)
                .and_then(|()| tokio::net::UnixStream::from_std(stream));
            let result = match stream {
                Ok(s) => super::channel::resumed_control_task(s, role, generation, events).await,
                Err(e) => Err(e.into()),
            };
            if let Err(e) = result {
                tracing::warn!(worker = %role, error = %e, "control channel ended");
            }
        });
    }

    /// The new image: takes the workers the previous one handed over (they keep serving
    /// until the reload that follows replaces them).
    pub(crate) fn adopt(&mut self, handover: Handover) {
        self.last_generation = self.last_generation.max(handover.last_generation);
        if handover.protocol != kas_proto::PROTOCOL_VERSION {
            // This image cannot talk to them: closing their channels stops them (they
            // exit when their supervisor goes away) and fresh ones start in their place.
            tracing::warn!(
                theirs = handover.protocol,
                ours = kas_proto::PROTOCOL_VERSION,
                "the workers of the previous image speak another control protocol: they are restarted, not handed over"
            );
            for w in &handover.workers {
                drop(sys::take_passed(w.fd));
            }
            return;
        }
        for w in handover.workers {
            let fd = match sys::take_passed(w.fd) {
                Ok(fd) => fd,
                Err(e) => {
                    tracing::error!(worker = %w.role, error = %e, "cannot take a handed-over channel");
                    continue;
                }
            };
            let Some(slot) = self.slots.get_mut(&w.role) else {
                continue;
            };
            let now = Instant::now();
            slot.generation = w.generation;
            slot.pid = Some(w.pid);
            // Serving as it was: the front door must not see its peers down meanwhile.
            slot.state = if w.health.ready {
                PeerState::Ready
            } else {
                PeerState::Starting
            };
            slot.health = w.health;
            slot.started = now;
            slot.last_ack = now;
            slot.responsive = true;
            slot.running = true;
            slot.restarts = WorkerRestarts {
                exited: w.exited,
                unresponsive: w.unresponsive,
            };
            tracing::info!(worker = %w.role, pid = w.pid, "adopted the worker of the previous image");
            self.resume_channel(w.role, w.generation, fd);
            let events = self.events_tx.clone();
            let (role, generation, pid) = (w.role, w.generation, w.pid);
            let cgroups = self.limits.cgroups();
            tokio::task::spawn_blocking(move || {
                let status = sys::wait_adopted(pid);
                if let Some(c) = cgroups {
                    c.exited_logged(role, generation, Some(pid));
                }
                let _ = events.send(Event::Exited {
                    role,
                    generation,
                    status,
                });
            });
        }
        self.adopted = Some(Instant::now());
    }

    /// Starts the roll onto the new binary once every adopted worker's channel is back
    /// (the roll drains the old ones over it), or after [`HANDOVER_WITHIN`] regardless.
    pub(super) fn roll_adopted(&mut self) {
        let Some(since) = self.adopted else {
            return;
        };
        let connected = self
            .slots
            .values()
            .filter(|s| s.running)
            .all(|s| s.tx.is_some());
        if connected || since.elapsed() >= HANDOVER_WITHIN {
            self.adopted = None;
            // The workers run the previous binary: replace them as a reload does.
            self.request_reload();
        }
    }
}
