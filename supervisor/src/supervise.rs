//! The supervisor's one loop: spawn the workers, talk to them over their control sockets,
//! restart the ones that die (with backoff), drive sd_notify from their readiness and
//! heartbeats, and run kube-apiserver's graceful termination across the processes.
//!
//! As in nginx's master, signal handlers only feed this loop; every action happens here.

use std::collections::BTreeMap;
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::process::ExitStatus;
use std::time::Duration;

use kas_proto::{
    AuthorizationChain, FromSupervisor, FromWorker, PeerState, PeerStatus, ShutdownPhase,
    WorkerConfig, WorkerHealth, WorkerRestarts, WorkerRole,
};
use nix::sys::signal::Signal;
use tokio::signal::unix::{signal, Signal as SignalStream, SignalKind};
use tokio::sync::mpsc;
use tokio::time::{sleep_until, Instant};

use crate::hung;
use crate::notify::Notifier;

mod channel;
mod events;
mod reload;
mod shutdown;
mod spawn;
mod upgrade;

pub(crate) use upgrade::{take as take_handover, unblock_signals};

/// Longest wait between restarts of a crash-looping worker.
const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// A worker that ran this long before dying is restarted immediately again.
const STABLE_AFTER: Duration = Duration::from_secs(10);
/// Slack added to `--request-timeout` before a draining worker is killed.
const DRAIN_SLACK: Duration = Duration::from_secs(5);

/// Signal handlers, installed before anything is announced.
pub(crate) struct Signals {
    term: SignalStream,
    int: SignalStream,
    hup: SignalStream,
}

impl Signals {
    /// Installs SIGTERM, SIGINT and SIGHUP handlers (they only queue; the loop acts).
    pub(crate) fn install() -> std::io::Result<Signals> {
        Ok(Signals {
            term: signal(SignalKind::terminate())?,
            int: signal(SignalKind::interrupt())?,
            hup: signal(SignalKind::hangup())?,
        })
    }

    async fn recv(&mut self) -> &'static str {
        tokio::select! {
            _ = self.term.recv() => "SIGTERM",
            _ = self.int.recv() => "SIGINT",
            _ = self.hup.recv() => "SIGHUP",
        }
    }
}

/// The workers that hold storage clients, and so encryption transformers (the storage
/// worker stores bytes it is given).
const STORES_OBJECTS: [WorkerRole; 3] = [
    WorkerRole::Aggregator,
    WorkerRole::KubeApi,
    WorkerRole::Extensions,
];

#[derive(Debug)]
enum Event {
    Connected {
        role: WorkerRole,
        generation: u64,
        tx: mpsc::UnboundedSender<FromSupervisor>,
    },
    Message {
        role: WorkerRole,
        generation: u64,
        msg: FromWorker,
    },
    Exited {
        role: WorkerRole,
        generation: u64,
        status: std::io::Result<ExitStatus>,
    },
    RestartDue {
        role: WorkerRole,
        generation: u64,
    },
    /// `--authorization-config` changed to this valid chain.
    Authorization(AuthorizationChain),
    /// `--encryption-provider-config` changed to this valid configuration.
    Encryption(kas_proto::EncryptionConfig),
    /// `--encryption-provider-config` changed to a text that was refused.
    EncryptionRefused,
    /// The replaced binary answered its version (or why it did not): the upgrade goes on.
    BinaryChecked(Result<(), String>),
    /// A worker's control channel, given back whole for a binary upgrade's re-exec.
    HandedOver {
        role: WorkerRole,
        generation: u64,
        fd: OwnedFd,
    },
}

#[derive(Debug)]
struct Slot {
    role: WorkerRole,
    generation: u64,
    pid: Option<u32>,
    state: PeerState,
    health: WorkerHealth,
    tx: Option<mpsc::UnboundedSender<FromSupervisor>>,
    started: Instant,
    last_ack: Instant,
    responsive: bool,
    failures: u32,
    running: bool,
    /// Set when the supervisor kills it for not answering (its exit is then counted so).
    killed_as_hung: bool,
    restarts: WorkerRestarts,
}

/// Where the whole tree is in its shutdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Running,
    /// ShutdownInitiated; waiting out `--shutdown-delay-duration`.
    Delay,
    /// The front door is draining and will exit.
    Front,
    /// The back-end API workers are draining.
    Backends,
    /// The storage worker is stopping.
    Storage,
}

/// The supervisor and its workers.
pub(crate) struct Supervisor {
    exe: PathBuf,
    base: WorkerConfig,
    listener: Option<OwnedFd>,
    /// The embedded store's socket, handed to each storage worker.
    storage_listener: Option<OwnedFd>,
    slots: BTreeMap<WorkerRole, Slot>,
    events_tx: mpsc::UnboundedSender<Event>,
    events: mpsc::UnboundedReceiver<Event>,
    notifier: Notifier,
    url: String,
    stage: Stage,
    stage_deadline: Option<Instant>,
    heartbeat_seq: u64,
    /// The last generation given to a spawned process.
    last_generation: u64,
    heartbeat_every: Duration,
    /// `--worker-heartbeat-timeout` (zero: never kill).
    hung_after: Duration,
    /// `--worker-memory-limit` and `--worker-cpu-limit`, as applied.
    limits: crate::worker_limits::Enforcement,
    watchdog: Option<Duration>,
    all_ready_once: bool,
    /// The authorizer chain as last reloaded (also sent to a worker that connects after
    /// the reload, which may have been started with the older one).
    reloaded_authorization: Option<AuthorizationChain>,
    /// `--encryption-provider-config` was reloaded (`base.encryption` is the latest,
    /// also sent to a worker that connects after the reload).
    reloaded_encryption: bool,
    /// SIGHUP's reload: the roll of replacements and the replaced workers draining.
    reload: reload::Reload,
    /// A binary upgrade waiting for the workers' control channels.
    upgrade: Option<upgrade::Upgrade>,
    /// This image took over workers from the previous one (a binary upgrade) at this
    /// time; the roll onto the new binary starts once their channels are back.
    adopted: Option<Instant>,
}

impl Supervisor {
    /// A supervisor for the workers of `base`, serving the secure `listener`.
    pub(crate) fn new(
        base: WorkerConfig,
        listener: OwnedFd,
        url: String,
    ) -> std::io::Result<Supervisor> {
        let exe = std::env::current_exe()?;
        let (events_tx, events) = mpsc::unbounded_channel();
        let watchdog = Notifier::watchdog_interval();
        let heartbeat_every = watchdog
            .map(|w| (w / 4).min(Duration::from_secs(1)))
            .unwrap_or(Duration::from_secs(1))
            .max(Duration::from_millis(50));
        let now = Instant::now();
        let slots = base
            .roles()
            .into_iter()
            .map(|role| {
                (
                    role,
                    Slot {
                        role,
                        generation: 0,
                        pid: None,
                        state: PeerState::Down,
                        health: WorkerHealth::default(),
                        tx: None,
                        started: now,
                        last_ack: now,
                        responsive: true,
                        failures: 0,
                        running: false,
                        killed_as_hung: false,
                        restarts: WorkerRestarts::default(),
                    },
                )
            })
            .collect();
        Ok(Supervisor {
            exe,
            base,
            listener: Some(listener),
            storage_listener: None,
            slots,
            events_tx,
            events,
            notifier: Notifier::default(),
            url,
            stage: Stage::Running,
            stage_deadline: None,
            heartbeat_seq: 0,
            last_generation: 0,
            heartbeat_every,
            hung_after: Duration::ZERO,
            limits: Default::default(),
            watchdog,
            all_ready_once: false,
            reloaded_authorization: None,
            reloaded_encryption: false,
            reload: reload::Reload::default(),
            upgrade: None,
            adopted: None,
        })
    }

    /// Hands `listener` (the embedded store's socket) to every storage worker.
    pub(crate) fn serve_store_on(&mut self, listener: Option<OwnedFd>) {
        self.storage_listener = listener;
    }

    /// Limits each worker's memory and CPU (`--worker-memory-limit`, `--worker-cpu-limit`).
    pub(crate) fn limit_workers(&mut self, limits: crate::worker_limits::Enforcement) {
        self.limits = limits;
    }

    /// Kills (and restarts) a worker that answers no heartbeat for `timeout`; zero never.
    pub(crate) fn kill_unresponsive_after(&mut self, timeout: Duration) {
        self.hung_after = timeout;
    }

    /// Runs until the tree has shut down; returns the process exit code.
    pub(crate) async fn run(mut self, mut signals: Signals) -> u8 {
        self.notifier.status("Starting workers");
        let mut roles: Vec<WorkerRole> = self.slots.keys().copied().collect();
        // The store first: every other worker's start waits for it.
        roles.sort_by_key(|r| *r != WorkerRole::Storage);
        for role in roles {
            if !self.slots.get(&role).is_some_and(|s| s.running) {
                self.spawn(role);
            }
        }
        let mut heartbeat = tokio::time::interval(self.heartbeat_every);
        heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut watchdog = tokio::time::interval(
            self.watchdog
                .map(|w| w / 2)
                .unwrap_or(Duration::from_secs(3600)),
        );
        watchdog.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);

        loop {
            let deadline = self.stage_deadline;
            tokio::select! {
                sig = signals.recv() => {
                    if sig == "SIGHUP" {
                        if self.stage == Stage::Running {
                            tracing::info!(signal = sig, "received signal, reloading");
                            self.request_reload();
                        } else {
                            tracing::info!(signal = sig, "ignored during shutdown");
                        }
                    } else if self.stage == Stage::Running {
                        tracing::info!(signal = sig, "received signal, starting graceful shutdown");
                        self.begin_shutdown();
                    } else {
                        tracing::warn!(signal = sig, "second signal: killing every worker and exiting");
                        let left = self.kill_and_reap().await;
                        if left == 0 {
                            tracing::warn!("every worker killed and reaped; exiting with status 1");
                        } else {
                            tracing::error!(left, "workers still running after SIGKILL; exiting with status 1");
                        }
                        self.notifier.status("Stopped: killed by a second signal");
                        return 1;
                    }
                }
                Some(ev) = self.events.recv() => self.handle(ev),
                _ = heartbeat.tick() => self.heartbeat(),
                _ = watchdog.tick(), if self.watchdog.is_some() => {
                    // A hung worker withholds the ping; one being restarted does not (a
                    // crash loop must not make systemd restart the healthy rest).
                    if self.slots.values().all(|s| s.responsive || !s.running) {
                        self.notifier.watchdog();
                    } else {
                        tracing::warn!("withholding the watchdog ping: a worker is not answering heartbeats");
                    }
                }
                () = sleep_until(deadline.unwrap_or_else(Instant::now)), if deadline.is_some() => {
                    self.stage_timer();
                }
            }
            if self.stage != Stage::Running && self.advance_shutdown() {
                tracing::info!("every worker has stopped; running pre-shutdown hooks");
                self.pre_shutdown_hooks();
                self.notifier.status("Stopped");
                return 0;
            }
        }
    }

    /// Re-reads `path` (`--authorization-config`) every second from now on; a valid new
    /// chain goes to the workers that authorize, and to any worker started later.
    pub(crate) fn follow_authorization_config(&self, path: PathBuf) {
        let events = self.events_tx.clone();
        let initial = AuthorizationChain {
            modes: self.base.authorization_modes.clone(),
            webhooks: self.base.authorization_webhooks.clone(),
        };
        crate::authz_reload::follow(path, initial, move |chain| {
            events.send(Event::Authorization(chain)).is_ok()
        });
    }

    /// Re-reads `path` (`--encryption-provider-config`) every second from now on; a valid
    /// new configuration goes to the workers that store objects, and to any worker
    /// started later (in its configuration).
    pub(crate) fn follow_encryption_config(&self, path: PathBuf) {
        let events = self.events_tx.clone();
        let initial = self.base.encryption.clone().unwrap_or_default();
        crate::encryption_reload::follow(path, initial, move |config| {
            let event = match config {
                Some(config) => Event::Encryption(config),
                None => Event::EncryptionRefused,
            };
            events.send(event).is_ok()
        });
    }

    fn config_for(&self, role: WorkerRole) -> WorkerConfig {
        WorkerConfig {
            role,
            ..self.base.clone()
        }
    }

    fn handle(&mut self, ev: Event) {
        match ev {
            Event::Connected {
                role,
                generation,
                tx,
            } if self.reload.is_incoming(role, generation) => self.incoming_connected(tx),
            Event::Message {
                role,
                generation,
                msg,
            } if self.reload.is_incoming(role, generation) => self.incoming_message(msg),
            Event::Message {
                role,
                generation,
                msg: FromWorker::ShutdownDone(ShutdownPhase::NotAcceptingNewRequests),
            } if self.reload.stopped_accepting(role, generation) => self.retired_quiet(role),
            Event::Exited {
                role,
                generation,
                status,
            } if self.reload.is_incoming(role, generation) => {
                self.incoming_exited(status.map(describe).unwrap_or_else(|e| e.to_string()))
            }
            Event::Exited {
                role,
                generation,
                status,
            } if self.reload.is_retiring(role, generation) => {
                let status = status.map(describe).unwrap_or_else(|e| e.to_string());
                tracing::info!(worker = %role, %status, "replaced worker stopped");
                self.retired(role, generation);
            }
            Event::Connected {
                role,
                generation,
                tx,
            } => self.connected(role, generation, tx),
            Event::Message {
                role,
                generation,
                msg,
            } => self.message(role, generation, msg),
            Event::Exited {
                role,
                generation,
                status,
            } => self.exited(role, generation, status),
            Event::Authorization(chain) => {
                self.base.authorization_modes = chain.modes.clone();
                self.base.authorization_webhooks = chain.webhooks.clone();
                for role in [
                    WorkerRole::Aggregator,
                    WorkerRole::KubeApi,
                    WorkerRole::Extensions,
                ] {
                    self.send_to(role, FromSupervisor::Authorization(chain.clone()));
                }
                self.reloaded_authorization = Some(chain);
            }
            Event::Encryption(config) => {
                // A restarted worker starts with the configuration in force.
                self.base.encryption = Some(config.clone());
                self.reloaded_encryption = true;
                for role in STORES_OBJECTS {
                    self.send_to(role, FromSupervisor::Encryption(config.clone()));
                }
            }
            Event::EncryptionRefused => {
                for role in STORES_OBJECTS {
                    self.send_to(role, FromSupervisor::EncryptionRefused);
                }
            }
            Event::BinaryChecked(result) => self.binary_checked(result),
            Event::HandedOver {
                role,
                generation,
                fd,
            } => self.handed_over(role, generation, fd),
            Event::RestartDue { role, generation } => {
                let current = self.slots.get(&role).map(|s| s.generation);
                if current == Some(generation) && self.stage == Stage::Running {
                    self.spawn(role);
                }
            }
        }
    }

    fn refresh_state(&mut self, role: WorkerRole) {
        let Some(slot) = self.slots.get_mut(&role) else {
            return;
        };
        if !slot.running {
            return;
        }
        let new = if self.stage != Stage::Running {
            PeerState::Stopping
        } else if slot.health.ready && slot.responsive {
            PeerState::Ready
        } else if !slot.responsive {
            PeerState::Down
        } else {
            PeerState::Starting
        };
        if new != slot.state {
            tracing::info!(worker = %role, from = ?slot.state, to = ?new, "worker state");
            slot.state = new;
        }
        self.broadcast_peers();
        // During a reload READY=1 waits for its end (systemd reads it as the reload's).
        if self.stage == Stage::Running
            && !self.reload.running()
            && self.slots.values().all(|s| s.state == PeerState::Ready)
        {
            let line = format!("Serving on {}: all workers ready", self.url);
            if !self.all_ready_once {
                self.all_ready_once = true;
                tracing::info!(url = %self.url, "all workers ready");
            }
            self.notifier.ready(&line);
        }
    }

    fn broadcast_peers(&self) {
        let fronts: Vec<_> = self
            .slots
            .get(&WorkerRole::Aggregator)
            .and_then(|s| s.tx.as_ref())
            .into_iter()
            .chain(self.reload.incoming_tx(WorkerRole::Aggregator))
            .collect();
        if fronts.is_empty() {
            return;
        }
        let peers: Vec<PeerStatus> = self
            .slots
            .values()
            .map(|s| PeerStatus {
                role: s.role,
                state: s.state,
                health: s.health.clone(),
                restarts: s.restarts,
                generation: s.generation,
            })
            .collect();
        for tx in fronts {
            let _ = tx.send(FromSupervisor::Peers(peers.clone()));
        }
    }

    /// Tells the aggregator that `role`'s API changed. With no aggregator connected the
    /// change is acknowledged at once: the next aggregator reads every back end afresh.
    fn relay_api_change(&self, role: WorkerRole, generation: u64) {
        let aggregator = self
            .slots
            .get(&WorkerRole::Aggregator)
            .and_then(|s| s.tx.as_ref());
        let relayed = aggregator
            .map(|tx| {
                tx.send(FromSupervisor::ApiChanged { role, generation })
                    .is_ok()
            })
            .unwrap_or(false);
        if !relayed {
            self.send_to(role, FromSupervisor::ApiSeen { generation });
        }
    }

    fn heartbeat(&mut self) {
        self.heartbeat_seq += 1;
        let seq = self.heartbeat_seq;
        let stale_after = self.heartbeat_every * 3;
        let running = self.stage == Stage::Running;
        let mut changed = Vec::new();
        let mut hung = Vec::new();
        for slot in self.slots.values_mut() {
            if let Some(tx) = &slot.tx {
                let _ = tx.send(FromSupervisor::Heartbeat { seq });
                let silent = slot.last_ack.elapsed();
                if slot.responsive && silent > stale_after {
                    slot.responsive = false;
                    tracing::warn!(worker = %slot.role, pid = slot.pid, "worker stopped answering heartbeats");
                    changed.push(slot.role);
                }
                if let Some(pid) = slot.pid.filter(|_| {
                    running && !slot.killed_as_hung && hung::is_hung(silent, self.hung_after)
                }) {
                    tracing::error!(
                        worker = %slot.role,
                        pid,
                        state = %hung::process_state(pid),
                        silent_ms = silent.as_millis() as u64,
                        "worker answered no heartbeat for --worker-heartbeat-timeout: killing it to restart it"
                    );
                    slot.killed_as_hung = true;
                    hung.push(slot.role);
                }
            }
        }
        self.kill_roles(&hung, "unresponsive");
        for role in changed {
            self.refresh_state(role);
        }
        self.reload_timers();
        self.upgrade_timer();
        self.roll_adopted();
    }

    fn stage_is_running(&self) -> bool {
        self.stage == Stage::Running
    }

    fn send_to(&self, role: WorkerRole, msg: FromSupervisor) {
        if let Some(tx) = self.slots.get(&role).and_then(|s| s.tx.as_ref()) {
            let _ = tx.send(msg);
        }
    }
}

fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(sig)) => Signal::try_from(sig)
            .map(|s| format!("killed by {}", s.as_str()))
            .unwrap_or_else(|_| format!("killed by signal {sig}")),
        _ => "unknown".into(),
    }
}
