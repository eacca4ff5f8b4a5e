//! Starting worker processes: a fresh generation of a role, its exit and control tasks,
//! and restarts with backoff after a crash.

use std::os::fd::{AsRawFd, OwnedFd};
use std::time::Duration;

use kas_proto::{PeerState, WorkerConfig, WorkerHealth, WorkerRole};
use tokio::net::UnixStream;
use tokio::time::Instant;

use super::channel::control_task;
use super::{reload, upgrade, Event, Supervisor, MAX_BACKOFF, STABLE_AFTER};
use crate::sys;

impl Supervisor {
    pub(super) fn spawn(&mut self, role: WorkerRole) {
        if !self.slots.contains_key(&role) {
            return;
        }
        let generation = self.next_generation();
        let Ok(pid) = self.launch(role, generation, false) else {
            if let Some(slot) = self.slots.get_mut(&role) {
                slot.generation = generation;
            }
            self.schedule_restart(role);
            return;
        };
        if let Some(slot) = self.slots.get_mut(&role) {
            slot.generation = generation;
            slot.pid = pid;
            slot.state = PeerState::Starting;
            slot.health = WorkerHealth::default();
            slot.started = Instant::now();
            slot.last_ack = Instant::now();
            slot.responsive = true;
            slot.running = true;
            slot.killed_as_hung = false;
            slot.tx = None;
        }
        self.broadcast_peers();
    }

    /// A generation number no process of this supervisor has had (events carry it, so
    /// those of a replaced process are told apart from its successor's).
    pub(super) fn next_generation(&mut self) -> u64 {
        self.last_generation += 1;
        self.last_generation
    }

    /// Starts a process of `role` as `generation` (`staged`: to replace the running one,
    /// taking traffic only once ready), with tasks that report its exit and its control
    /// messages as events; returns its pid. Failures are logged.
    pub(super) fn launch(
        &self,
        role: WorkerRole,
        generation: u64,
        staged: bool,
    ) -> Result<Option<u32>, ()> {
        let (ours, theirs) = match UnixStream::pair() {
            Ok(p) => p,
            Err(e) => {
                tracing::error!(worker = %role, error = %e, "cannot create a control socket");
                return Err(());
            }
        };
        let theirs: OwnedFd = match theirs.into_std() {
            Ok(s) => s.into(),
            Err(e) => {
                tracing::error!(worker = %role, error = %e, "cannot create a control socket");
                return Err(());
            }
        };
        let mut cmd = tokio::process::Command::new(&self.exe);
        cmd.arg("__worker")
            .arg(role.as_str())
            .stdin(std::process::Stdio::null())
            .env_remove("NOTIFY_SOCKET")
            .env_remove("WATCHDOG_USEC")
            .env_remove("WATCHDOG_PID")
            .env_remove("LISTEN_FDS")
            .env_remove("LISTEN_PID")
            .env_remove("LISTEN_FDNAMES")
            .env_remove(upgrade::HANDOVER_ENV)
            .process_group(0)
            .kill_on_drop(false);
        let listener = match role {
            WorkerRole::Aggregator => self.listener.as_ref(),
            WorkerRole::Storage => self.storage_listener.as_ref(),
            _ => None,
        };
        // A replacement starts on idle CPU only (reload/priority.rs).
        let idle = staged && reload::starts_idle(role);
        let cgroups = self.limits.cgroups();
        let cgroup = match cgroups.as_ref().map(|c| c.prepare(role, generation)) {
            Some(Err(e)) => {
                tracing::error!(worker = %role, error = %e, "cannot create the worker's cgroup");
                return Err(());
            }
            Some(Ok(procs)) => procs,
            None => None,
        };
        let limits = sys::Limits {
            idle,
            memory: self.limits.rlimit(role),
            cgroup_procs: cgroup.as_ref().map(AsRawFd::as_raw_fd),
        };
        let spawned = sys::spawn_with_fds(&mut cmd, &theirs, listener, limits);
        drop(cgroup);
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) => {
                tracing::error!(worker = %role, error = %e, "cannot spawn worker");
                // The cgroup made for it goes, as after an exit.
                if let Some(c) = &cgroups {
                    c.exited_logged(role, generation, None);
                }
                return Err(());
            }
        };
        drop(theirs);
        let pid = child.id();
        if idle {
            tracing::info!(worker = %role, pid, generation, scheduling = "idle", "started worker");
        } else {
            tracing::info!(worker = %role, pid, generation, "started worker");
        }

        let events = self.events_tx.clone();
        tokio::spawn(async move {
            let status = child.wait().await;
            if let Some(c) = cgroups {
                c.exited_logged(role, generation, pid);
            }
            let _ = events.send(Event::Exited {
                role,
                generation,
                status,
            });
        });

        let events = self.events_tx.clone();
        let config = WorkerConfig {
            staged,
            ..self.config_for(role)
        };
        tokio::spawn(async move {
            if let Err(e) = control_task(ours, role, generation, config, events).await {
                tracing::warn!(worker = %role, error = %e, "control channel ended");
            }
        });
        Ok(pid)
    }

    pub(super) fn schedule_restart(&mut self, role: WorkerRole) {
        let Some(slot) = self.slots.get_mut(&role) else {
            return;
        };
        if slot.started.elapsed() >= STABLE_AFTER {
            slot.failures = 0;
        }
        let delay = match slot.failures {
            0 => Duration::ZERO,
            n => (Duration::from_millis(250) * 2u32.saturating_pow(n - 1)).min(MAX_BACKOFF),
        };
        slot.failures += 1;
        let generation = slot.generation;
        let events = self.events_tx.clone();
        tracing::info!(worker = %role, delay_ms = delay.as_millis() as u64, "restarting worker");
        tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let _ = events.send(Event::RestartDue { role, generation });
        });
    }
}
