//! Control messages on the socketpair between the supervisor and each worker.

use serde::{Deserialize, Serialize};

use crate::{WorkerConfig, WorkerRole};

/// A message the supervisor sends to a worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FromSupervisor {
    /// First message: the protocol version the supervisor speaks.
    Hello {
        /// [`crate::PROTOCOL_VERSION`] of the supervisor.
        version: u32,
    },
    /// The worker's completed configuration; sent once, after the handshake.
    Config(Box<WorkerConfig>),
    /// Liveness probe; the worker answers [`FromWorker::HeartbeatAck`] from its runtime.
    Heartbeat {
        /// Echoed back.
        seq: u64,
    },
    /// The state of every worker (sent to the aggregator whenever it changes).
    Peers(Vec<PeerStatus>),
    /// Move to a shutdown phase; the worker answers [`FromWorker::ShutdownDone`].
    Shutdown(ShutdownPhase),
    /// To the aggregator: `role` changed what it serves (relayed
    /// [`FromWorker::ApiChanged`]). The aggregator re-reads that worker's discovery and
    /// OpenAPI, then answers [`FromWorker::ApiSeen`].
    ApiChanged {
        /// The back end whose API changed.
        role: WorkerRole,
        /// Its change counter.
        generation: u64,
    },
    /// To a back end: the aggregator serves its API as of `generation` (or there is no
    /// aggregator running, and a new one reads everything afresh).
    ApiSeen {
        /// The back end's change counter, echoed.
        generation: u64,
    },
    /// The `--authorization-config` file changed and its new chain is valid: workers that
    /// authorize replace their authorizers with it (the RBAC and Node caches carry on).
    Authorization(AuthorizationChain),
    /// The `--encryption-provider-config` file changed and its new configuration is valid
    /// (with `--encryption-provider-config-automatic-reload`): workers that store objects
    /// build its transformers, wait for their KMS plugins to be healthy, and swap them in.
    Encryption(crate::EncryptionConfig),
    /// The `--encryption-provider-config` file changed and its new text was refused (its
    /// error is in the supervisor's log); the configuration in force stays. Workers that
    /// store objects count it as a failed reload in their metrics, as kube-apiserver does.
    EncryptionRefused,
    /// The supervisor is about to re-execute itself (a binary upgrade) and hand this
    /// channel to its new image: the worker answers [`FromWorker::HandoverReady`] as its
    /// last frame and sends nothing more until [`FromSupervisor::Resume`].
    Handover,
    /// The first frame of the supervisor's new image on a channel it was handed: the
    /// worker sends again, starting with its health.
    Resume,
    /// To the storage worker: its part in a reload's hand-over of the data.
    Store(StoreHandover),
}

/// A reload passes the embedded store's data from the running storage worker to its
/// successor without a gap in reads (see `kas_storage::StoreControl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StoreHandover {
    /// To the running store: commit, close the database for the successor and keep
    /// answering reads from memory; writes wait. `Shutdown(Drain)` follows once the
    /// successor serves: the store then refuses writes as not applied, closes its
    /// connections (answering the reads on them) and, once they are closed, refuses
    /// everything and answers `ShutdownDone(NotAcceptingNewRequests)`.
    Release,
    /// To the running store after `Release`: the successor failed; open the data again
    /// and apply writes.
    Resume,
    /// To the successor (started with writes waiting): its predecessor answers nothing
    /// any more; apply writes.
    TakeWrites,
}

/// An authorizer chain: the types in order and the webhooks, one per `Webhook`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuthorizationChain {
    /// The authorizer types in order (`--authorization-mode` spellings).
    pub modes: Vec<String>,
    /// The webhooks, one per `Webhook` among the modes, in order.
    pub webhooks: Vec<crate::AuthorizationWebhookConfig>,
}

/// A message a worker sends to the supervisor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// First message: the worker's protocol version and who it is.
    Hello {
        /// [`crate::PROTOCOL_VERSION`] of the worker.
        version: u32,
        /// The role it was started as.
        role: WorkerRole,
        /// Its process ID.
        pid: u32,
    },
    /// The worker's health changed (sent at start, and whenever a check flips).
    Health(WorkerHealth),
    /// Answer to [`FromSupervisor::Heartbeat`].
    HeartbeatAck {
        /// The probe's sequence number.
        seq: u64,
    },
    /// The worker finished a shutdown phase.
    ShutdownDone(ShutdownPhase),
    /// A back end changed what it serves (a CRD's group established or gone): its
    /// discovery and OpenAPI documents differ from before. `generation` counts up.
    ApiChanged {
        /// This worker's change counter.
        generation: u64,
    },
    /// From the aggregator: it now serves `role`'s API as of `generation`.
    ApiSeen {
        /// The back end whose change was taken in.
        role: WorkerRole,
        /// Its change counter, echoed.
        generation: u64,
    },
    /// Answer to [`FromSupervisor::Handover`]: nothing follows until `Resume`.
    HandoverReady,
}

/// kube-apiserver's graceful termination, as phases the supervisor drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ShutdownPhase {
    /// ShutdownInitiated: readyz fails from now on; requests are still served.
    Initiated,
    /// NotAcceptingNewRequest: close listeners; new requests on open connections are
    /// refused (429 with `--shutdown-send-retry-after`).
    NotAcceptingNewRequests,
    /// InFlightRequestsDrained: wait for in-flight requests (bounded by
    /// `--request-timeout`), then end watches and exit.
    Drain,
}

/// A worker's own view of its health.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WorkerHealth {
    /// True once the worker serves (its post-start hooks have finished): requests are
    /// routed to it. Its checks may still fail (e.g. etcd down).
    pub ready: bool,
    /// Its checks (post-start hooks, storage), in a stable order.
    pub checks: Vec<CheckStatus>,
}

/// One named health check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckStatus {
    /// Check name as it appears in `/readyz?verbose`, e.g. `poststarthook/x` or `etcd`.
    pub name: String,
    /// Whether it passes.
    pub ok: bool,
    /// Why not, for the log (never shown to clients).
    pub reason: Option<String>,
}

/// The supervisor's view of one worker, as sent to the aggregator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeerStatus {
    /// Which worker.
    pub role: WorkerRole,
    /// Its lifecycle state.
    pub state: PeerState,
    /// Its health as it last reported it.
    pub health: WorkerHealth,
    /// How often it was restarted since the supervisor started.
    pub restarts: WorkerRestarts,
    /// Which process serves the role (it changes with every restart and replacement:
    /// connections to the previous one are then stale).
    pub generation: u64,
}

/// Restarts of one worker by why it was restarted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkerRestarts {
    /// It exited (crashed, was killed from outside, or stopped on its own).
    pub exited: u64,
    /// It answered no heartbeat for `--worker-heartbeat-timeout` and was killed.
    pub unresponsive: u64,
}

/// Lifecycle of a worker process as the supervisor sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PeerState {
    /// Spawned, not ready yet.
    Starting,
    /// Ready and answering heartbeats.
    Ready,
    /// Exited or unresponsive; a restart is pending.
    Down,
    /// Shutting down on purpose.
    Stopping,
}
