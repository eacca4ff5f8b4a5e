//! kube-apiserver's graceful termination across the processes: ShutdownInitiated and the
//! shutdown delay, then the front door, the back ends and the store drained in turn, each
//! stage bounded, and the second signal's kill.

use kas_proto::{FromSupervisor, ShutdownPhase, WorkerRole};
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use tokio::time::Instant;

use super::{Event, Stage, Supervisor, DRAIN_SLACK};

/// How long the second signal's kill waits to reap the workers: SIGKILL leaves them
/// nothing to do, so this only bounds a process stuck in the kernel.
const REAP_WITHIN: std::time::Duration = std::time::Duration::from_secs(2);

impl Supervisor {
    pub(super) fn begin_shutdown(&mut self) {
        self.abandon_reload();
        let delay = self.base.shutdown_delay;
        self.notifier.stopping(&format!(
            "Shutting down: readyz failing, serving for {}",
            crate::godur::format(delay)
        ));
        tracing::info!(phase = "ShutdownInitiated", delay = %crate::godur::format(delay), "lifecycle signal");
        self.stage = Stage::Delay;
        self.stage_deadline = Some(Instant::now() + delay);
        let roles: Vec<WorkerRole> = self.slots.keys().copied().collect();
        for role in roles {
            self.send_to(role, FromSupervisor::Shutdown(ShutdownPhase::Initiated));
            self.refresh_state(role);
        }
    }

    /// A stage's deadline passed: move on (killing what did not stop in time).
    pub(super) fn stage_timer(&mut self) {
        self.stage_deadline = None;
        match self.stage {
            Stage::Running => {}
            Stage::Delay => self.stop_front(),
            Stage::Front => {
                self.kill_roles(
                    &[WorkerRole::Aggregator],
                    "front door did not drain in time",
                );
                self.stop_backends();
            }
            Stage::Backends => {
                self.kill_roles(
                    &[WorkerRole::KubeApi, WorkerRole::Extensions],
                    "back-end workers did not drain in time",
                );
                self.stop_storage();
            }
            Stage::Storage => {
                self.kill_roles(&[WorkerRole::Storage], "storage did not stop in time")
            }
        }
    }

    pub(super) fn stop_front(&mut self) {
        tracing::info!(phase = "NotAcceptingNewRequest", "lifecycle signal");
        self.notifier
            .status("Shutting down: not accepting new requests, draining");
        // Our copy of the listener goes; the aggregator closes its own.
        self.listener = None;
        self.stage = Stage::Front;
        self.stage_deadline = Some(Instant::now() + self.base.request_timeout + DRAIN_SLACK);
        self.send_to(
            WorkerRole::Aggregator,
            FromSupervisor::Shutdown(ShutdownPhase::NotAcceptingNewRequests),
        );
    }

    pub(super) fn stop_backends(&mut self) {
        tracing::info!("front door stopped; draining the back-end workers");
        self.notifier
            .status("Shutting down: draining back-end workers");
        self.stage = Stage::Backends;
        self.stage_deadline = Some(Instant::now() + self.base.request_timeout + DRAIN_SLACK);
        for role in [WorkerRole::KubeApi, WorkerRole::Extensions] {
            self.send_to(role, FromSupervisor::Shutdown(ShutdownPhase::Drain));
        }
    }

    pub(super) fn stop_storage(&mut self) {
        self.stage = Stage::Storage;
        self.stage_deadline = Some(Instant::now() + DRAIN_SLACK * 2);
        self.send_to(
            WorkerRole::Storage,
            FromSupervisor::Shutdown(ShutdownPhase::Drain),
        );
    }

    pub(super) fn running(&self, roles: &[WorkerRole]) -> bool {
        roles
            .iter()
            .any(|r| self.slots.get(r).is_some_and(|s| s.running))
    }

    /// Moves the shutdown on when the current stage's workers are gone; true when
    /// everything has stopped.
    pub(super) fn advance_shutdown(&mut self) -> bool {
        loop {
            match self.stage {
                Stage::Running | Stage::Delay => return false,
                Stage::Front => {
                    if self.running(&[WorkerRole::Aggregator]) {
                        return false;
                    }
                    tracing::info!(phase = "InFlightRequestsDrained", "lifecycle signal");
                    self.stop_backends();
                }
                Stage::Backends => {
                    if self.running(&[WorkerRole::KubeApi, WorkerRole::Extensions]) {
                        return false;
                    }
                    self.stop_storage();
                }
                Stage::Storage => return !self.running(&[WorkerRole::Storage]),
            }
        }
    }

    pub(super) fn kill_roles(&mut self, roles: &[WorkerRole], why: &str) {
        for role in roles {
            if let Some(slot) = self.slots.get(role).filter(|s| s.running) {
                if let Some(pid) = slot.pid {
                    tracing::warn!(worker = %role, pid, why, "killing worker");
                    let _ = kill(Pid::from_raw(-(pid as i32)), Signal::SIGKILL);
                }
            }
        }
    }

    /// The second signal: every worker, replaced ones still draining included, is killed
    /// at once and then reaped (waited for, briefly), so that none is left a zombie for
    /// whoever adopts it. Returns how many did not exit in time.
    pub(super) async fn kill_and_reap(&mut self) -> usize {
        let roles: Vec<WorkerRole> = self.slots.keys().copied().collect();
        self.kill_roles(&roles, "second signal");
        for (role, pid) in self.reload.retiring_pids() {
            tracing::warn!(worker = %role, pid, why = "second signal", "killing replaced worker");
            let _ = kill(Pid::from_raw(-(pid as i32)), Signal::SIGKILL);
        }
        let until = Instant::now() + REAP_WITHIN;
        loop {
            let left = self.slots.values().filter(|s| s.running).count()
                + self.reload.retiring_pids().len();
            if left == 0 {
                return 0;
            }
            match tokio::time::timeout_at(until, self.events.recv()).await {
                Ok(Some(ev @ Event::Exited { .. })) => self.handle(ev),
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => return left,
            }
        }
    }

    pub(super) fn pre_shutdown_hooks(&self) {
        for role in self.slots.keys() {
            let _ = std::fs::remove_file(self.base.socket_path(*role));
        }
        let _ = std::fs::remove_file(self.base.store_metrics_socket_path());
    }
}
