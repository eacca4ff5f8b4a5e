//! The worker side of the binary: `kube-apiserver __worker <role>`. Takes the inherited
//! control socket (and listener), receives the completed options, and runs the role.

use std::process::ExitCode;
use std::time::Duration;

use kas_proto::{ShutdownPhase, StoreHandover, WorkerHealth, WorkerRole, CONTROL_FD, LISTENER_FD};
use kas_server::control::Control;
use tokio::signal::unix::{signal, SignalKind};

use crate::sys;

/// Runs a worker process for `role`.
pub(crate) fn main(role: &str) -> ExitCode {
    let role: WorkerRole = match role.parse() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("kube-apiserver: {e}");
            return ExitCode::from(64);
        }
    };
    let control = match sys::take_inherited(CONTROL_FD) {
        Ok(fd) => fd,
        Err(e) => {
            eprintln!("kube-apiserver worker {role}: {e}");
            return ExitCode::from(64);
        }
    };
    // The front door's TCP listener, or the embedded store's unix one: the supervisor
    // binds both and keeps them across restarts of their workers.
    let listener = if matches!(role, WorkerRole::Aggregator | WorkerRole::Storage) {
        match sys::take_inherited(LISTENER_FD) {
            Ok(fd) => Some(fd),
            Err(e) => {
                eprintln!("kube-apiserver worker {role}: {e}");
                return ExitCode::from(64);
            }
        }
    } else {
        None
    };
    // The front door terminates TLS for every client and uses every core. A back end
    // does little per request; one thread spares it the cross-thread wake-ups that
    // dominate a delegation hop's latency. The store answers every worker: on one thread
    // a worker's start-up lists (a new kube-api filling its caches during a reload) held
    // up every other worker's small reads.
    let mut builder = match role {
        WorkerRole::Aggregator | WorkerRole::Storage => tokio::runtime::Builder::new_multi_thread(),
        _ => tokio::runtime::Builder::new_current_thread(),
    };
    let runtime = match builder.enable_all().thread_name(format!("{role}")).build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("kube-apiserver worker {role}: cannot start runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(async move {
        // Terminal signals are the supervisor's business: holding these streams replaces
        // the default action (exit) with a queue nobody reads. A Ctrl-C in a terminal
        // reaches the supervisor, which drives the shutdown over the control channel.
        let _ignored = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        );
        let control = std::os::unix::net::UnixStream::from(control);
        let control = match control
            .set_nonblocking(true)
            .and_then(|()| tokio::net::UnixStream::from_std(control))
        {
            Ok(s) => s,
            Err(e) => {
                eprintln!("kube-apiserver worker {role}: control socket: {e}");
                return 1;
            }
        };
        let control = match Control::connect(control, role).await {
            Ok(c) => c,
            Err(e) => {
                eprintln!("kube-apiserver worker {role}: {e}");
                return 1;
            }
        };
        let cfg = control.config().clone();
        if let Err(e) = kas_server::logging::init(role.as_str(), cfg.verbosity, &cfg.logging_format)
        {
            eprintln!("kube-apiserver worker {role}: {e}");
        }
        let result = match role {
            WorkerRole::Aggregator => match listener {
                Some(l) => kas_aggregator::run(control, std::net::TcpListener::from(l))
                    .await
                    .map_err(|e| e.to_string()),
                None => Err("no listener inherited".to_owned()),
            },
            WorkerRole::KubeApi => kas_kube_api::run(control).await.map_err(|e| e.to_string()),
            WorkerRole::Extensions => kas_extensions::run(control)
                .await
                .map_err(|e| e.to_string()),
            WorkerRole::Storage => match listener {
                Some(l) => run_storage(control, std::os::unix::net::UnixListener::from(l)).await,
                None => Err("no listener inherited".to_owned()),
            },
        };
        match result {
            Ok(()) => 0,
            Err(e) => {
                tracing::error!(error = %e, "worker failed");
                1
            }
        }
    });
    // Tasks still running (idle connections) must not hold the exit up.
    runtime.shutdown_background();
    ExitCode::from(code)
}

/// The storage worker: the embedded etcd-compatible store on the unix socket the
/// supervisor bound, durable in `<data-dir>/store`. It is ready once the store is open
/// (connections made before wait in the socket's backlog), and stops last. In a reload it
/// hands its data to its successor as the supervisor says (`kas_storage::StoreControl`).
async fn run_storage(
    control: Control,
    listener: std::os::unix::net::UnixListener,
) -> Result<(), String> {
    let cfg = control.config().clone();
    let socket = cfg.socket_path(WorkerRole::Storage);
    let mut store_cfg = kas_storage::StoreConfig::new(cfg.data_dir.join("store"), socket.clone());
    // etcd's /metrics, beside the store's socket (etcd: --listen-metrics-urls).
    store_cfg.metrics_socket = Some(cfg.store_metrics_socket_path());
    if cfg.storage_quota_bytes > 0 {
        store_cfg.quota_bytes = cfg.storage_quota_bytes;
    }
    // A replacement (a reload) starts while the store it replaces still holds the data:
    // it opens it as soon as it is released.
    let patience = if cfg.staged {
        Duration::from_secs(60)
    } else {
        Duration::ZERO
    };
    let store = kas_storage::open_when_free(patience, move || kas_storage::Store::open(&store_cfg))
        .await
        .map_err(|e| with_causes(&e))?;
    let store_control = store.control();
    if cfg.staged {
        // Its predecessor may still answer reads: writes wait until it stopped.
        store_control.wait_for_predecessor();
    }
    tokio::spawn(follow_handover(
        control.store_handover(),
        store_control.clone(),
    ));
    let listener = listener
        .set_nonblocking(true)
        .and_then(|()| tokio::net::UnixListener::from_std(listener))
        .map_err(|e| format!("the store's listener: {e}"))?;
    control.report_health(WorkerHealth {
        ready: true,
        checks: Vec::new(),
    });
    let mut phases = control.shutdown_phases();
    let draining = store_control.clone();
    let shutdown = async move {
        let _ = phases.wait_for(|p| *p == Some(ShutdownPhase::Drain)).await;
        // Reads sent on the open connections are answered while they close (a
        // successor applies no write meanwhile); writes go to the successor.
        draining.stop_writes();
    };
    let result = kas_storage::serve_on(store, listener, &socket, shutdown)
        .await
        .map_err(|e| e.to_string());
    // Nothing is answered from here on, so a successor may apply writes.
    store_control.stop();
    control.shutdown_done(ShutdownPhase::NotAcceptingNewRequests);
    control.shutdown_done(ShutdownPhase::Drain);
    result
}

/// Carries out the supervisor's hand-over steps, in order.
async fn follow_handover(
    mut steps: tokio::sync::watch::Receiver<Option<StoreHandover>>,
    store: kas_storage::StoreControl,
) {
    while steps.changed().await.is_ok() {
        let step = *steps.borrow_and_update();
        match step {
            Some(StoreHandover::Release) => store.release().await,
            Some(StoreHandover::Resume) => {
                if let Err(e) = store.resume(RESUME_WITHIN).await {
                    // Writes can no longer be applied here: a fresh store worker (the
                    // supervisor restarts this one) opens the data as after a crash.
                    tracing::error!(error = %e, "cannot take the store's data back; exiting");
                    std::process::exit(1);
                }
            }
            Some(StoreHandover::TakeWrites) => store.take_writes(),
            None => {}
        }
    }
}

/// How long a store whose successor failed waits for the data to be free again (the
/// successor is being killed).
const RESUME_WITHIN: Duration = Duration::from_secs(10);

/// An error and each of its causes, `: `-separated: what went wrong and why.
pub(crate) fn with_causes(e: &dyn std::error::Error) -> String {
    let mut message = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        message.push_str(": ");
        message.push_str(&c.to_string());
        cause = c.source();
    }
    message
}
