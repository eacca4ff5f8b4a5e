//! The control events of the workers serving their roles: one connected (it is told
//! where things stand), one reported (heartbeats, health, API changes) and one exited
//! (restarted with backoff, unless the supervisor is stopping or a replacement is
//! starting for its role). A reload's replacements and replaced workers are routed to
//! `reload.rs` before these.

use std::process::ExitStatus;

use kas_proto::{FromSupervisor, FromWorker, PeerState, ShutdownPhase, WorkerRole};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::{describe, Stage, Supervisor, STORES_OBJECTS};
use crate::hung;

impl Supervisor {
    pub(super) fn connected(
        &mut self,
        role: WorkerRole,
        generation: u64,
        tx: mpsc::UnboundedSender<FromSupervisor>,
    ) {
        let Some(slot) = self.slots.get_mut(&role) else {
            return;
        };
        if slot.generation != generation {
            return;
        }
        // A worker joining during shutdown is told where things stand.
        let catch_up = match self.stage {
            Stage::Running => None,
            _ => Some(ShutdownPhase::Initiated),
        };
        if let Some(p) = catch_up {
            let _ = tx.send(FromSupervisor::Shutdown(p));
        }
        if let (
            Some(chain),
            WorkerRole::Aggregator | WorkerRole::KubeApi | WorkerRole::Extensions,
        ) = (&self.reloaded_authorization, role)
        {
            let _ = tx.send(FromSupervisor::Authorization(chain.clone()));
        }
        // A worker spawned before the last reload and connecting after it.
        if let (true, Some(config), true) = (
            self.reloaded_encryption,
            &self.base.encryption,
            STORES_OBJECTS.contains(&role),
        ) {
            let _ = tx.send(FromSupervisor::Encryption(config.clone()));
        }
        slot.tx = Some(tx);
        if role == WorkerRole::Aggregator {
            self.broadcast_peers();
        }
        self.roll_adopted();
    }

    pub(super) fn message(&mut self, role: WorkerRole, generation: u64, msg: FromWorker) {
        let Some(slot) = self.slots.get_mut(&role) else {
            return;
        };
        if slot.generation != generation {
            return;
        }
        match msg {
            FromWorker::HeartbeatAck { .. } => {
                slot.last_ack = Instant::now();
                if !slot.responsive {
                    slot.responsive = true;
                    tracing::info!(worker = %role, "worker answers heartbeats again");
                    self.refresh_state(role);
                }
            }
            FromWorker::Health(h) => {
                for c in h.checks.iter().filter(|c| !c.ok) {
                    tracing::debug!(worker = %role, check = %c.name, reason = ?c.reason, "check not passing");
                }
                slot.health = h;
                self.refresh_state(role);
            }
            FromWorker::ShutdownDone(phase) => {
                tracing::info!(worker = %role, ?phase, "worker finished shutdown phase");
            }
            FromWorker::ApiChanged { generation } => self.relay_api_change(role, generation),
            FromWorker::ApiSeen { role, generation } => {
                self.send_to(role, FromSupervisor::ApiSeen { generation });
                // A replacement starting for that role waits for it too.
                if let Some(tx) = self.reload.incoming_tx(role) {
                    let _ = tx.send(FromSupervisor::ApiSeen { generation });
                }
            }
            FromWorker::Hello { .. } | FromWorker::HandoverReady => {}
        }
    }

    pub(super) fn exited(
        &mut self,
        role: WorkerRole,
        generation: u64,
        status: std::io::Result<ExitStatus>,
    ) {
        let Some(slot) = self.slots.get_mut(&role) else {
            return;
        };
        if slot.generation != generation {
            return;
        }
        slot.running = false;
        slot.tx = None;
        slot.state = PeerState::Down;
        let pid = slot.pid.take();
        let status = match status {
            Ok(s) => describe(s),
            Err(e) => format!("unknown ({e})"),
        };
        let cause = if std::mem::take(&mut slot.killed_as_hung) {
            hung::Cause::Unresponsive
        } else {
            hung::Cause::Exited
        };
        if self.stage == Stage::Running {
            match cause {
                hung::Cause::Exited => slot.restarts.exited += 1,
                hung::Cause::Unresponsive => slot.restarts.unresponsive += 1,
            }
            tracing::error!(worker = %role, pid, %status, ?cause, "worker exited unexpectedly");
            if self.reload.incoming_role() == Some(role) {
                // Its replacement is starting and takes over when ready (a
                // failed one starts this role again).
                self.notifier.status(&format!(
                    "Worker {role} exited ({status}); its replacement is starting"
                ));
            } else {
                self.notifier
                    .status(&format!("Worker {role} exited ({status}); restarting"));
                self.schedule_restart(role);
            }
        } else {
            tracing::info!(worker = %role, pid, %status, "worker stopped");
        }
        self.broadcast_peers();
    }
}
