//! The worker side of the control channel: the version handshake, the configuration,
//! heartbeats answered from the worker's own runtime, health reports, the shutdown
//! phases the supervisor drives, and API change notices (a back end tells the aggregator,
//! through the supervisor, that its discovery changed, and waits until it is taken in).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use kas_proto::{
    read_frame, write_frame, AuthorizationChain, FromSupervisor, FromWorker, PeerStatus,
    ShutdownPhase, StoreHandover, WorkerConfig, WorkerHealth, WorkerRole, PROTOCOL_VERSION,
};
use tokio::net::UnixStream;
use tokio::sync::{mpsc, watch};

use crate::Error;

/// A connected control channel.
#[derive(Debug, Clone)]
pub struct Control {
    config: Arc<WorkerConfig>,
    phase: watch::Receiver<Option<ShutdownPhase>>,
    peers: watch::Receiver<Vec<PeerStatus>>,
    out: mpsc::UnboundedSender<FromWorker>,
    /// Back end: the last API change counter used, and the last one the aggregator saw.
    api_generation: Arc<AtomicU64>,
    api_seen: watch::Receiver<u64>,
    /// Aggregator: the latest API change counter announced by each back end.
    api_changes: watch::Receiver<BTreeMap<WorkerRole, u64>>,
    /// The authorizer chain as last reloaded (`None` until the file changes).
    authorization: watch::Receiver<Option<AuthorizationChain>>,
    /// The health last reported, sent again to a supervisor's new image.
    last_health: Arc<std::sync::Mutex<Option<WorkerHealth>>>,
    /// Storage worker: the latest step of a reload's hand-over of the data.
    store_handover: watch::Receiver<Option<StoreHandover>>,
}

/// How long a back end waits for the aggregator to take in an API change. The wait only
/// orders the change before what follows it (a CRD's `Established`); if the aggregator
/// is gone meanwhile, its successor reads everything afresh anyway.
const API_SEEN_TIMEOUT: Duration = Duration::from_secs(2);

impl Control {
    /// Performs the handshake on `stream`, receives the configuration and starts the
    /// reader and writer tasks.
    ///
    /// When the supervisor goes away before a shutdown was asked for, the worker exits
    /// with status 1: a worker never outlives its supervisor.
    pub async fn connect(stream: UnixStream, role: WorkerRole) -> Result<Control, Error> {
        let (mut rd, mut wr) = stream.into_split();
        match read_frame::<_, FromSupervisor>(&mut rd).await? {
            FromSupervisor::Hello { version } if version == PROTOCOL_VERSION => {}
            FromSupervisor::Hello { version } => {
                return Err(Error::VersionMismatch {
                    ours: PROTOCOL_VERSION,
                    theirs: version,
                })
            }
            other => return Err(Error::Unexpected(format!("{other:?} before Hello"))),
        }
        write_frame(
            &mut wr,
            &FromWorker::Hello {
                version: PROTOCOL_VERSION,
                role,
                pid: std::process::id(),
            },
        )
        .await?;
        let config = match read_frame::<_, FromSupervisor>(&mut rd).await? {
            FromSupervisor::Config(cfg) if cfg.role == role => Arc::new(*cfg),
            FromSupervisor::Config(cfg) => {
                return Err(Error::Unexpected(format!(
                    "configuration for {} sent to {role}",
                    cfg.role
                )))
            }
            other => return Err(Error::Unexpected(format!("{other:?} before Config"))),
        };

        let (out, mut out_rx) = mpsc::unbounded_channel::<FromWorker>();
        // Set between a handover's last frame and the new supervisor image's Resume:
        // what is reported meanwhile waits (in order) for the new reader.
        let (paused_tx, mut paused) = watch::channel(false);
        tokio::spawn(async move {
            while let Some(msg) = out_rx.recv().await {
                if let Err(e) = write_frame(&mut wr, &msg).await {
                    tracing::debug!(error = %e, "control channel write failed");
                    break;
                }
                if msg == FromWorker::HandoverReady {
                    let _ = paused.wait_for(|p| !*p).await;
                }
            }
        });
        let last_health = Arc::new(std::sync::Mutex::new(None::<WorkerHealth>));

        let (phase_tx, phase) = watch::channel(None);
        let (peers_tx, peers) = watch::channel(Vec::new());
        let (api_seen_tx, api_seen) = watch::channel(0u64);
        let (api_changes_tx, api_changes) = watch::channel(BTreeMap::new());
        let (authorization_tx, authorization) = watch::channel(None);
        let (store_handover_tx, store_handover) = watch::channel(None);
        // Reloaded encryption configurations, applied to every storage client of this
        // process (the aggregator's and the back ends'; the storage worker has none).
        let (encryption_tx, encryption) = watch::channel(None);
        if let Some(path) = &config.encryption_reload {
            tokio::spawn(crate::storage::encryption::apply_reloads(
                path.clone(),
                encryption,
            ));
        }
        let acks = out.clone();
        let health = last_health.clone();
        tokio::spawn(async move {
            loop {
                match read_frame::<_, FromSupervisor>(&mut rd).await {
                    Ok(FromSupervisor::Heartbeat { seq }) => {
                        let _ = acks.send(FromWorker::HeartbeatAck { seq });
                    }
                    Ok(FromSupervisor::Handover) => {
                        tracing::info!("supervisor re-executes itself; pausing reports");
                        paused_tx.send_replace(true);
                        let _ = acks.send(FromWorker::HandoverReady);
                    }
                    Ok(FromSupervisor::Resume) => {
                        tracing::info!("supervisor's new image took over the control channel");
                        // The new image knows nothing of this worker's health yet.
                        if let Some(h) = health.lock().ok().and_then(|h| h.clone()) {
                            let _ = acks.send(FromWorker::Health(h));
                        }
                        paused_tx.send_replace(false);
                    }
                    Ok(FromSupervisor::Peers(p)) => {
                        let _ = peers_tx.send(p);
                    }
                    Ok(FromSupervisor::ApiChanged { role, generation }) => {
                        // The latest notice wins (a restarted back end counts from 1).
                        api_changes_tx.send_modify(|m| {
                            m.insert(role, generation);
                        });
                    }
                    Ok(FromSupervisor::ApiSeen { generation }) => {
                        api_seen_tx.send_if_modified(|g| {
                            let newer = generation > *g;
                            if newer {
                                *g = generation;
                            }
                            newer
                        });
                    }
                    Ok(FromSupervisor::Authorization(chain)) => {
                        let _ = authorization_tx.send(Some(chain));
                    }
                    Ok(FromSupervisor::Encryption(config)) => {
                        // The latest wins; one not yet applied is skipped.
                        let _ = encryption_tx.send(Some(config));
                    }
                    Ok(FromSupervisor::EncryptionRefused) => {
                        crate::storage::encryption::metrics::reload(false);
                    }
                    Ok(FromSupervisor::Store(step)) => {
                        store_handover_tx.send_replace(Some(step));
                    }
                    Ok(FromSupervisor::Shutdown(p)) => {
                        phase_tx.send_if_modified(|cur| {
                            let forward = cur.is_none_or(|c| p > c);
                            if forward {
                                *cur = Some(p);
                            }
                            forward
                        });
                    }
                    Ok(other) => {
                        tracing::warn!(message = ?other, "ignoring unexpected control message");
                    }
                    Err(e) => {
                        if *phase_tx.borrow() == Some(ShutdownPhase::Drain) {
                            return;
                        }
                        tracing::error!(error = %e, "supervisor went away; exiting");
                        std::process::exit(1);
                    }
                }
            }
        });

        Ok(Control {
            config,
            phase,
            peers,
            out,
            api_generation: Arc::new(AtomicU64::new(0)),
            api_seen,
            api_changes,
            authorization,
            last_health,
            store_handover,
        })
    }

    /// The completed configuration.
    pub fn config(&self) -> &Arc<WorkerConfig> {
        &self.config
    }

    /// Reports this worker's health to the supervisor.
    pub fn report_health(&self, health: WorkerHealth) {
        if let Ok(mut last) = self.last_health.lock() {
            *last = Some(health.clone());
        }
        let _ = self.out.send(FromWorker::Health(health));
    }

    /// Tells the supervisor a shutdown phase is complete.
    pub fn shutdown_done(&self, phase: ShutdownPhase) {
        let _ = self.out.send(FromWorker::ShutdownDone(phase));
    }

    /// The latest shutdown phase the supervisor asked for.
    pub fn shutdown_phases(&self) -> watch::Receiver<Option<ShutdownPhase>> {
        self.phase.clone()
    }

    /// Storage worker: the latest step of a reload's hand-over the supervisor asked for.
    pub fn store_handover(&self) -> watch::Receiver<Option<StoreHandover>> {
        self.store_handover.clone()
    }

    /// The state of every worker, as the supervisor last sent it (aggregator only).
    pub fn peers(&self) -> watch::Receiver<Vec<PeerStatus>> {
        self.peers.clone()
    }

    /// Back end: announces that what this worker serves changed, and returns once the
    /// aggregator serves the new discovery (or after a bounded wait). Call it after the
    /// change is visible in this worker and before anything a client could take as its
    /// consequence (a CRD's `Established` condition, its removal).
    pub async fn announce_api_change(&self) {
        let generation = self.api_generation.fetch_add(1, Ordering::AcqRel) + 1;
        if self
            .out
            .send(FromWorker::ApiChanged { generation })
            .is_err()
        {
            return;
        }
        let mut seen = self.api_seen.clone();
        let waited = tokio::time::timeout(API_SEEN_TIMEOUT, seen.wait_for(|g| *g >= generation));
        if waited.await.is_err() {
            tracing::warn!(
                generation,
                "the aggregator did not confirm an API change in time"
            );
        }
    }

    /// The authorizer chain of `--authorization-config` as last reloaded: `None` until
    /// the file changes after start (the configuration holds the first one).
    pub fn authorization(&self) -> watch::Receiver<Option<AuthorizationChain>> {
        self.authorization.clone()
    }

    /// Aggregator: the latest API change counter each back end announced.
    pub fn api_changes(&self) -> watch::Receiver<BTreeMap<WorkerRole, u64>> {
        self.api_changes.clone()
    }

    /// Aggregator: tells `role` that its API as of `generation` is served.
    pub fn api_seen(&self, role: WorkerRole, generation: u64) {
        let _ = self.out.send(FromWorker::ApiSeen { role, generation });
    }
}
