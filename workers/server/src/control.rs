//! The worker side of the control channel: the version handshake, the configuration,
//! heartbeats answered from the worker's own runtime, health reports and the shutdown
//! phases the supervisor drives.

use std::sync::Arc;

use kas_proto::{
    read_frame, write_frame, FromSupervisor, FromWorker, PeerStatus, ShutdownPhase, WorkerConfig,
    WorkerHealth, WorkerRole, PROTOCOL_VERSION,
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
}

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
        tokio::spawn(async move {
            while let Some(msg) = out_rx.recv().await {
                if let Err(e) = write_frame(&mut wr, &msg).await {
                    tracing::debug!(error = %e, "control channel write failed");
                    break;
                }
            }
        });

        let (phase_tx, phase) = watch::channel(None);
        let (peers_tx, peers) = watch::channel(Vec::new());
        let acks = out.clone();
        tokio::spawn(async move {
            loop {
                match read_frame::<_, FromSupervisor>(&mut rd).await {
                    Ok(FromSupervisor::Heartbeat { seq }) => {
                        let _ = acks.send(FromWorker::HeartbeatAck { seq });
                    }
                    Ok(FromSupervisor::Peers(p)) => {
                        let _ = peers_tx.send(p);
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
        })
    }

    /// The completed configuration.
    pub fn config(&self) -> &Arc<WorkerConfig> {
        &self.config
    }

    /// Reports this worker's health to the supervisor.
    pub fn report_health(&self, health: WorkerHealth) {
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

    /// The state of every worker, as the supervisor last sent it (aggregator only).
    pub fn peers(&self) -> watch::Receiver<Vec<PeerStatus>> {
        self.peers.clone()
    }
}
