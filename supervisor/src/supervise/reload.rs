//! Reload (SIGHUP, `systemctl reload`): re-read every file the flags name and validate
//! it all first — an invalid file is logged and the running configuration stays — then
//! replace the workers one at a time with fresh processes of the binary now on disk.
//!
//! A replacement takes traffic only once it reports ready: a back-end binds a staged
//! socket that the supervisor renames over the role's path at that moment (new
//! connections from the front door then reach it; the old worker's connections are
//! closed with GOAWAY as it drains, so the front door re-dials without failing a
//! request), and a new front door accepts on the same listening socket beside the old
//! one, which then stops accepting and drains. Watches of a draining worker end at a
//! bookmark; their clients resume on the new one. The embedded store hands its data over
//! (see [`Supervisor::release_store`]).
//!
//! systemd's protocol: `RELOADING=1` with `MONOTONIC_USEC` when the signal arrives,
//! `READY=1` only when every worker was replaced; a failure leaves the old workers
//! serving, is logged with its reason and shown in `STATUS=`, and sends no `READY=1`.
//! Signals during a reload are coalesced into one more reload after it.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::Duration;

use kas_proto::{
    FromSupervisor, FromWorker, PeerState, ShutdownPhase, StoreHandover, WorkerConfig, WorkerRole,
};
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::{Supervisor, DRAIN_SLACK};

mod priority;
pub(super) use priority::starts_idle;

/// How long a replacement may take to report ready before the reload is given up.
const READY_WITHIN: Duration = Duration::from_secs(60);
/// The order workers are replaced in: the store first (its clients are the others), back
/// ends next, so the new front door starts against new back ends; the front door last.
const ORDER: [WorkerRole; 4] = [
    WorkerRole::Storage,
    WorkerRole::KubeApi,
    WorkerRole::Extensions,
    WorkerRole::Aggregator,
];

/// Reload bookkeeping of the supervisor.
#[derive(Debug, Default)]
pub(super) struct Reload {
    roll: Option<Roll>,
    /// A reload was asked for while one ran.
    again: bool,
    /// Replaced workers still draining.
    retiring: Vec<Retiring>,
}

#[derive(Debug)]
struct Roll {
    started: Instant,
    queue: VecDeque<WorkerRole>,
    incoming: Option<Incoming>,
    /// Every worker replaced, since when; the roll then waits for the old front door.
    replaced: Option<Instant>,
    /// The store's successor serves; the next replacement starts once the old store
    /// stopped answering.
    after_store: bool,
}

/// The process started to replace the running worker of `role`.
#[derive(Debug)]
struct Incoming {
    role: WorkerRole,
    generation: u64,
    pid: Option<u32>,
    tx: Option<mpsc::UnboundedSender<FromSupervisor>>,
    /// A back end's socket, bound aside until it is moved over the role's path.
    staged: Option<PathBuf>,
    deadline: Instant,
    /// Until when it starts on idle CPU only (`None`: scheduled as an ordinary process).
    idle_until: Option<Instant>,
}

#[derive(Debug)]
struct Retiring {
    role: WorkerRole,
    generation: u64,
    pid: Option<u32>,
    /// Kept open while it drains: a worker whose control channel closes exits at once.
    _tx: Option<mpsc::UnboundedSender<FromSupervisor>>,
    deadline: Instant,
    /// A front door still accepting on the shared socket beside its replacement, or a
    /// store still answering beside its successor (which applies no write until then);
    /// the roll is not done (no `READY=1`) until it says it stopped, or exits.
    accepting: bool,
}

/// How long a finished roll waits for the old front door to stop accepting before it
/// reports success anyway (the old one is then hung; its drain deadline kills it).
const STOP_ACCEPTING_WITHIN: Duration = Duration::from_secs(5);

/// What the flags' files say now, as the configuration every worker would get, keeping
/// what cannot change while running (the bound port).
fn reconfigure(current: &WorkerConfig) -> Result<WorkerConfig, String> {
    let parsed = crate::options::parse(std::env::args_os()).map_err(|e| e.to_string())?;
    let validated = crate::validate::validate(&parsed.options).map_err(|errors| {
        errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    })?;
    let completed = crate::complete::complete(validated).map_err(|e| format!("{e:#}"))?;
    let mut next = completed.worker;
    next.serving.port = current.serving.port;
    Ok(next)
}

impl Reload {
    /// Whether `generation` of `role` is a replacement still starting.
    pub(super) fn is_incoming(&self, role: WorkerRole, generation: u64) -> bool {
        self.incoming()
            .is_some_and(|i| i.role == role && i.generation == generation)
    }

    fn incoming(&self) -> Option<&Incoming> {
        self.roll.as_ref().and_then(|r| r.incoming.as_ref())
    }

    /// The control channel of the replacement for `role`, if one is connected.
    pub(super) fn incoming_tx(
        &self,
        role: WorkerRole,
    ) -> Option<&mpsc::UnboundedSender<FromSupervisor>> {
        self.incoming()
            .filter(|i| i.role == role)
            .and_then(|i| i.tx.as_ref())
    }

    /// Whether `generation` of `role` is a replaced worker still draining; its exit
    /// removes it.
    pub(super) fn is_retiring(&self, role: WorkerRole, generation: u64) -> bool {
        self.retiring
            .iter()
            .any(|r| r.role == role && r.generation == generation)
    }

    /// A replaced worker exited: forgets it, and says whether it had not yet reported
    /// that it stopped accepting (or answering).
    fn retired_exit(&mut self, role: WorkerRole, generation: u64) -> bool {
        let mut accepting = false;
        self.retiring.retain(|r| {
            let this = r.role == role && r.generation == generation;
            accepting |= this && r.accepting;
            !this
        });
        accepting
    }

    pub(super) fn running(&self) -> bool {
        self.roll.is_some()
    }

    /// A replaced front door reports it stopped accepting (a replaced store, that it
    /// stopped answering): true when it was one.
    pub(super) fn stopped_accepting(&mut self, role: WorkerRole, generation: u64) -> bool {
        let found = self
            .retiring
            .iter_mut()
            .find(|r| r.role == role && r.generation == generation);
        match found {
            Some(r) => {
                r.accepting = false;
                true
            }
            None => false,
        }
    }

    /// Whether a replaced front door may still accept connections (or a replaced store
    /// still answer).
    fn old_worker_accepting(&self) -> bool {
        self.retiring.iter().any(|r| r.accepting)
    }

    /// Whether a replaced store may still answer requests.
    fn old_store_answering(&self) -> bool {
        self.retiring
            .iter()
            .any(|r| r.role == WorkerRole::Storage && r.accepting)
    }

    /// The role a replacement is being started for.
    pub(super) fn incoming_role(&self) -> Option<WorkerRole> {
        self.incoming().map(|i| i.role)
    }
}

impl Supervisor {
    /// SIGHUP: start a reload, or remember to run one more after the current one.
    pub(super) fn request_reload(&mut self) {
        if self.upgrade.is_some() {
            tracing::info!(
                "reload requested during a re-exec: the new image replaces every worker anyway"
            );
            return;
        }
        if self.reload.running() {
            tracing::info!("reload requested during a reload: another follows this one");
            self.reload.again = true;
            return;
        }
        self.notifier
            .reloading("Reloading: checking the configuration");
        tracing::info!("reload: re-reading the configuration");
        let next = match reconfigure(&self.base) {
            Ok(next) => next,
            Err(e) => {
                tracing::error!(error = %e, "reload refused: the new configuration is not valid; the running one stays");
                self.notifier
                    .status(&format!("Reload failed (configuration kept): {e}"));
                return;
            }
        };
        // Reloaded chains are in the new base already.
        self.base = next;
        if super::upgrade::binary_replaced(&self.exe) {
            if !self.reload.retiring.is_empty() {
                // Their control channels would not survive the re-exec.
                tracing::info!("upgrade waits for the replaced workers to finish draining");
                self.reload.again = true;
                return;
            }
            return self.check_new_binary();
        }
        self.reloaded_authorization = None;
        self.reloaded_encryption = false;
        let queue = ORDER
            .into_iter()
            .filter(|r| self.slots.contains_key(r))
            .collect();
        self.reload.roll = Some(Roll {
            started: Instant::now(),
            queue,
            incoming: None,
            replaced: None,
            after_store: false,
        });
        self.next_replacement();
    }

    /// Starts the replacement for the next role of the roll, or finishes it.
    fn next_replacement(&mut self) {
        let Some(role) = self.reload.roll.as_mut().and_then(|r| r.queue.pop_front()) else {
            return self.finish_roll();
        };
        self.notifier
            .status(&format!("Reloading: replacing the {role} worker"));
        if role == WorkerRole::Storage {
            return self.release_store();
        }
        self.start_replacement(role);
    }

    /// The embedded store's data can be open in one process only. The running store
    /// releases it (commits, closes the database, keeps answering reads from memory;
    /// writes wait) and its successor, started at once, opens it as soon as it is free
    /// and answers reads too, with writes waiting. When the successor is ready the old
    /// store stops answering (refusing what reaches it as not applied, which its clients
    /// send again), and only then does the successor apply writes. Reads never wait for
    /// the gap; writes wait for the successor's open. If the successor fails, the old
    /// store takes the data back.
    fn release_store(&mut self) {
        let Some(slot) = self.slots.get(&WorkerRole::Storage) else {
            return self.next_replacement();
        };
        if slot.running {
            if let Some(tx) = &slot.tx {
                let _ = tx.send(FromSupervisor::Store(StoreHandover::Release));
            }
            tracing::info!(
                pid = slot.pid,
                "reload: the store worker releases its data; its successor opens it"
            );
        }
        self.start_replacement(WorkerRole::Storage);
    }

    fn start_replacement(&mut self, role: WorkerRole) {
        let generation = self.next_generation();
        let staged = matches!(role, WorkerRole::KubeApi | WorkerRole::Extensions)
            .then(|| self.base.staged_socket_path(role));
        match self.launch(role, generation, true) {
            Ok(pid) => {
                if let Some(roll) = self.reload.roll.as_mut() {
                    roll.incoming = Some(Incoming {
                        role,
                        generation,
                        pid,
                        tx: None,
                        staged,
                        deadline: Instant::now() + READY_WITHIN,
                        idle_until: priority::idle_until(role),
                    });
                }
            }
            Err(()) => self.fail_roll(&format!("cannot start a new {role} worker")),
        }
    }

    /// Every worker was replaced: the roll is done once no old front door accepts (so
    /// that a connection made after `READY=1` meets the new configuration) and no old
    /// store answers (so its successor applies writes).
    fn finish_roll(&mut self) {
        let waiting = self.reload.old_worker_accepting();
        let Some(roll) = self.reload.roll.as_mut() else {
            return;
        };
        let since = *roll.replaced.get_or_insert_with(Instant::now);
        if waiting && since.elapsed() < STOP_ACCEPTING_WITHIN {
            return;
        }
        if waiting {
            tracing::warn!(
                "a replaced worker did not report that it stopped accepting; reload reported complete anyway"
            );
        }
        let Some(roll) = self.reload.roll.take() else {
            return;
        };
        let took = roll.started.elapsed();
        tracing::info!(
            took_ms = took.as_millis() as u64,
            "reload complete: every worker replaced"
        );
        self.notifier.reloaded(&format!(
            "Serving on {}: reloaded in {} ms",
            self.url,
            took.as_millis()
        ));
        self.reload_again();
    }

    /// Gives the roll up: the replacement (if any) is killed, the workers not yet
    /// replaced keep serving, no `READY=1` follows.
    fn fail_roll(&mut self, why: &str) {
        let Some(mut roll) = self.reload.roll.take() else {
            return;
        };
        if let Some(incoming) = roll.incoming.take() {
            self.give_up(&incoming);
        }
        tracing::error!(
            reason = why,
            "reload failed; the running workers keep serving"
        );
        self.notifier.status(&format!("Reload failed: {why}"));
        self.reload_again();
    }

    /// Kills a replacement that will not serve. The worker it was to replace serves on:
    /// a store takes its released data back; one that exited meanwhile is started again
    /// as after a crash.
    fn give_up(&mut self, incoming: &Incoming) {
        discard(incoming);
        let role = incoming.role;
        let Some(slot) = self.slots.get(&role) else {
            return;
        };
        if !slot.running {
            if self.stage_is_running() {
                self.schedule_restart(role);
            }
        } else if role == WorkerRole::Storage {
            tracing::info!("reload: the store worker takes its data back");
            self.send_to(role, FromSupervisor::Store(StoreHandover::Resume));
        }
    }

    /// A replaced front door stopped accepting, or a replaced store answering: the
    /// store's successor applies writes from now on, and a roll waiting for that is done.
    pub(super) fn retired_quiet(&mut self, role: WorkerRole) {
        self.stopped_accepting_or_answering(role);
        if self.roll_waits_for_old_workers() {
            self.finish_roll();
        }
    }

    fn stopped_accepting_or_answering(&mut self, role: WorkerRole) {
        if role == WorkerRole::Storage {
            tracing::info!(
                "reload: the replaced store stopped answering; its successor applies writes"
            );
            self.send_to(role, FromSupervisor::Store(StoreHandover::TakeWrites));
            let after_store = self
                .reload
                .roll
                .as_mut()
                .is_some_and(|r| std::mem::take(&mut r.after_store));
            if after_store {
                self.next_replacement();
            }
        } else {
            tracing::info!("reload: the replaced front door stopped accepting");
        }
    }

    fn roll_waits_for_old_workers(&self) -> bool {
        self.reload
            .roll
            .as_ref()
            .is_some_and(|r| r.replaced.is_some())
    }

    /// A replaced worker stopped: a reload that waited for it (an upgrade, a roll waiting
    /// for the old front door) goes on, and a replaced store's successor applies writes
    /// (if the old one's exit came before its word that it stopped answering).
    pub(super) fn retired(&mut self, role: WorkerRole, generation: u64) {
        if self.reload.retired_exit(role, generation) {
            self.stopped_accepting_or_answering(role);
        }
        if self.roll_waits_for_old_workers() {
            self.finish_roll();
        }
        if self.reload.retiring.is_empty() && !self.reload.running() {
            self.reload_again();
        }
    }

    fn reload_again(&mut self) {
        if std::mem::take(&mut self.reload.again) && self.stage_is_running() {
            self.request_reload();
        }
    }

    /// Control events of the replacement being started.
    pub(super) fn incoming_connected(&mut self, tx: mpsc::UnboundedSender<FromSupervisor>) {
        let role = match self.reload.roll.as_mut().and_then(|r| r.incoming.as_mut()) {
            Some(incoming) => {
                incoming.tx = Some(tx);
                incoming.role
            }
            None => return,
        };
        if role == WorkerRole::Aggregator {
            self.broadcast_peers();
        }
    }

    pub(super) fn incoming_message(&mut self, msg: FromWorker) {
        let Some(role) = self.reload.incoming().map(|i| i.role) else {
            return;
        };
        match msg {
            FromWorker::Health(h) if h.ready => self.promote(h),
            FromWorker::ApiChanged { generation } => self.relay_api_change(role, generation),
            FromWorker::ApiSeen { role, generation } => {
                self.send_to(role, FromSupervisor::ApiSeen { generation });
            }
            _ => {}
        }
    }

    pub(super) fn incoming_exited(&mut self, status: String) {
        let role = self.reload.incoming().map(|i| i.role);
        if let Some(role) = role {
            if let Some(incoming) = self.reload.roll.as_mut().and_then(|r| r.incoming.as_mut()) {
                // Reaped: its pid may be another process's by now.
                incoming.pid = None;
            }
            self.fail_roll(&format!(
                "the new {role} worker exited before it was ready ({status})"
            ));
        }
    }

    /// The replacement is ready: it takes the role's traffic and the old worker drains.
    fn promote(&mut self, health: kas_proto::WorkerHealth) {
        let Some(incoming) = self.reload.roll.as_mut().and_then(|r| r.incoming.take()) else {
            return;
        };
        let role = incoming.role;
        if let Some(staged) = &incoming.staged {
            let path = self.base.socket_path(role);
            if let Err(e) = std::fs::rename(staged, &path) {
                discard(&incoming);
                return self.fail_roll(&format!(
                    "cannot move {} over {}: {e}",
                    staged.display(),
                    path.display()
                ));
            }
        }
        if let Some(pid) = incoming.pid {
            // Serving now: as the workers it joins (an unprivileged supervisor needs
            // LimitNICE=+0 in its unit to raise it back; the unit sets it).
            if let Err(e) = crate::sys::schedule_normally(pid, 0) {
                tracing::warn!(worker = %role, pid, error = %e, "cannot restore the worker's priority");
            }
        }
        let Some(slot) = self.slots.get_mut(&role) else {
            return;
        };
        let old_tx = slot.tx.take();
        // The old front door stops accepting (the new one accepts on the same socket);
        // an old back end closes its connections with GOAWAY and ends its watches.
        let phase = match role {
            WorkerRole::Aggregator => ShutdownPhase::NotAcceptingNewRequests,
            _ => ShutdownPhase::Drain,
        };
        if let Some(tx) = &old_tx {
            let _ = tx.send(FromSupervisor::Shutdown(phase));
        }
        if slot.running {
            self.reload.retiring.push(Retiring {
                role,
                generation: slot.generation,
                pid: slot.pid,
                _tx: old_tx,
                deadline: Instant::now() + self.base.request_timeout + DRAIN_SLACK,
                accepting: matches!(role, WorkerRole::Aggregator | WorkerRole::Storage),
            });
        }
        let now = Instant::now();
        slot.generation = incoming.generation;
        slot.pid = incoming.pid;
        slot.tx = incoming.tx;
        slot.health = health;
        slot.state = PeerState::Ready;
        slot.started = now;
        slot.last_ack = now;
        slot.responsive = true;
        slot.running = true;
        slot.killed_as_hung = false;
        slot.failures = 0;
        tracing::info!(worker = %role, pid = slot.pid, "reload: the new worker serves; the old one drains");
        self.broadcast_peers();
        if role == WorkerRole::Storage {
            if self.reload.old_store_answering() {
                // The workers' connections move to the new store and their watches resume
                // on it as the old one stops: the next replacement (filling its caches
                // from the store) starts after that, not in the middle of it.
                if let Some(roll) = self.reload.roll.as_mut() {
                    roll.after_store = true;
                }
                return;
            }
            // Its predecessor is gone already.
            self.send_to(role, FromSupervisor::Store(StoreHandover::TakeWrites));
        }
        self.next_replacement();
    }

    /// Once a heartbeat: replacements that take too long and replaced workers that do
    /// not finish draining are killed.
    pub(super) fn reload_timers(&mut self) {
        let now = Instant::now();
        if self.roll_waits_for_old_workers() {
            self.finish_roll();
        }
        self.start_busy(now);
        let late = self.reload.incoming().is_some_and(|i| now >= i.deadline);
        if late {
            self.fail_roll(&format!(
                "the new worker was not ready within {}",
                crate::godur::format(READY_WITHIN)
            ));
        }
        for r in self
            .reload
            .retiring
            .iter_mut()
            .filter(|r| now >= r.deadline)
        {
            if let Some(pid) = r.pid.take() {
                tracing::warn!(worker = %r.role, pid, "replaced worker did not drain in time: killing it");
                let _ = kill(Pid::from_raw(-(pid as i32)), Signal::SIGKILL);
            }
        }
    }

    /// Shutdown during a reload: the replacement goes, replaced workers drain as they
    /// were (they die with the supervisor at the latest).
    pub(super) fn abandon_reload(&mut self) {
        self.reload.again = false;
        if let Some(mut roll) = self.reload.roll.take() {
            if let Some(incoming) = roll.incoming.take() {
                self.give_up(&incoming);
            }
            tracing::info!("shutdown during a reload: the reload is abandoned");
        }
    }
}

impl Reload {
    /// Replaced workers still running (draining), by role and pid.
    pub(super) fn retiring_pids(&self) -> Vec<(WorkerRole, u32)> {
        self.retiring
            .iter()
            .filter_map(|r| r.pid.map(|p| (r.role, p)))
            .collect()
    }
}

/// Kills a replacement that will not serve and removes its staged socket.
fn discard(incoming: &Incoming) {
    if let Some(pid) = incoming.pid {
        let _ = kill(Pid::from_raw(-(pid as i32)), Signal::SIGKILL);
    }
    remove_staged(incoming);
}

fn remove_staged(incoming: &Incoming) {
    if let Some(staged) = &incoming.staged {
        let _ = std::fs::remove_file(staged);
    }
}
