//! Serving the store on a unix socket until shutdown, with the background lease expiry and
//! optional automatic compaction.

use std::future::Future;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::Path;

use tokio::net::UnixListener;
use tokio::sync::watch;
use tokio_stream::wrappers::UnixListenerStream;
use tokio_stream::StreamExt;
use tonic::transport::server::Connected;
use tonic::transport::Server;

use crate::authority::FixAuthority;
use crate::config::AutoCompaction;
use crate::error::{Error, EtcdError};
use crate::pb::etcdserverpb::{
    cluster_server::ClusterServer, kv_server::KvServer, lease_server::LeaseServer,
    maintenance_server::MaintenanceServer, watch_server::WatchServer,
};
use crate::service::Etcd;
use crate::store::{Handle, Store};
use crate::writer::WriteOp;

/// gRPC overhead allowed on top of the largest request (etcd: 512 KiB).
const GRPC_OVERHEAD: usize = 512 * 1024;

fn bind_err(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Bind {
        path: path.to_path_buf(),
        source,
    }
}

/// Binds `path` with mode 0600: removes a stale socket, binds a temporary name in the same
/// directory, restricts it, then renames it into place so the final path is never open
/// to others. (The supervisor binds the store's socket this way and keeps it.)
pub fn bind_socket(path: &Path) -> Result<std::os::unix::net::UnixListener, Error> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_socket() => {
            std::fs::remove_file(path).map_err(bind_err(path))?
        }
        Ok(_) => {
            return Err(bind_err(path)(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "path exists and is not a socket",
            )))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(bind_err(path)(e)),
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(bind_err(path))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let listener = std::os::unix::net::UnixListener::bind(&tmp).map_err(bind_err(path))?;
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600))
        .map_err(bind_err(path))?;
    std::fs::rename(&tmp, path).map_err(bind_err(path))?;
    Ok(listener)
}

/// Serves the etcd v3 API of `store` on the unix socket `socket_path` until `shutdown`
/// resolves; then stops accepting, ends open watch and keep-alive streams, waits for
/// in-flight requests (at most `shutdown_grace`), removes the socket and closes the store
/// after its queued writes are durable.
pub async fn serve(
    store: Store,
    socket_path: &Path,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), Error> {
    let listener = bind_socket(socket_path)?;
    let listener = listener
        .set_nonblocking(true)
        .and_then(|()| UnixListener::from_std(listener))
        .map_err(bind_err(socket_path))?;
    let result = serve_on(store, listener, socket_path, shutdown).await;
    if let Err(e) = std::fs::remove_file(socket_path) {
        tracing::debug!(error = %e, "cannot remove the store socket");
    }
    result
}

/// As [`serve`], on a `listener` bound at `socket_path` by its owner, who keeps it: a
/// supervisor that holds it across restarts of the store's process lets connections wait
/// in its backlog meanwhile instead of being refused. The socket file is left in place.
pub async fn serve_on(
    store: Store,
    listener: UnixListener,
    socket_path: &Path,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), Error> {
    let handle = store.handle();
    let config = handle.shared.config.clone();
    let (stop_tx, stop_rx) = watch::channel(false);
    let etcd = Etcd {
        handle: handle.clone(),
        shutdown: stop_rx.clone(),
        client_url: format!("unix://{}", socket_path.display()),
    };
    let mut tasks = vec![tokio::spawn(crate::lease::expiry_loop(handle.clone()))];
    if let Some(path) = &config.metrics_socket {
        // A successor's bind takes the path over; this one keeps serving its own fd.
        let listener = crate::metrics::bind(path)?;
        tasks.push(tokio::spawn(crate::metrics::serve(
            listener,
            handle.shared.clone(),
        )));
    }
    if config.auto_compaction != AutoCompaction::Off {
        tasks.push(tokio::spawn(compaction_loop(
            handle.clone(),
            config.auto_compaction,
        )));
    }
    let grpc_metrics = crate::grpc_metrics::Layer(handle.shared.metrics.grpc.clone());
    drop(handle);

    let max_decode = config.max_request_bytes + GRPC_OVERHEAD;
    let signal = async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    };
    let server = Server::builder()
        .layer(grpc_metrics)
        .add_service(KvServer::new(etcd.clone()).max_decoding_message_size(max_decode))
        .add_service(WatchServer::new(etcd.clone()).max_decoding_message_size(max_decode))
        .add_service(LeaseServer::new(etcd.clone()))
        .add_service(ClusterServer::new(etcd.clone()))
        .add_service(MaintenanceServer::new(etcd))
        .serve_with_incoming_shutdown(
            UnixListenerStream::new(listener).map(|conn| conn.map(FixAuthority::new)),
            signal,
        );
    let mut grace_rx = stop_rx;
    let grace = async move {
        stopped(&mut grace_rx).await;
        tokio::time::sleep(config.shutdown_grace).await;
    };
    let result = tokio::select! {
        r = server => r.map_err(Error::Serve),
        () = grace => {
            tracing::warn!("embedded store: shutdown grace elapsed with requests still open");
            Ok(())
        }
    };
    for task in &tasks {
        task.abort();
    }
    for task in tasks {
        let _ = task.await;
    }
    // Joining the writer blocks until its queue is committed.
    let _ = tokio::task::spawn_blocking(move || drop(store)).await;
    result
}

/// Resolves once `rx` says the server is stopping (or its sender is gone).
pub(crate) async fn stopped(rx: &mut watch::Receiver<bool>) {
    // Drop the borrowed value at once: holding it would make the future not `Send`.
    let _ = rx.wait_for(|stop| *stop).await;
}

/// Issues `Compact` on the configured schedule.
async fn compaction_loop(handle: Handle, mode: AutoCompaction) {
    let compact = |rev: i64| {
        let handle = handle.clone();
        async move {
            if rev <= handle.shared.read().compact_rev {
                return;
            }
            match handle.write(WriteOp::Compact(rev)).await {
                Ok(_) => tracing::info!(revision = rev, "auto-compacted"),
                Err(EtcdError::Compacted) => {}
                Err(e) => tracing::warn!(revision = rev, error = %e, "auto-compaction failed"),
            }
        }
    };
    match mode {
        AutoCompaction::Off => {}
        AutoCompaction::Revisions { keep, check_every } => loop {
            tokio::time::sleep(check_every).await;
            compact(handle.shared.committed_rev() - keep).await;
        },
        AutoCompaction::Periodic { every } => {
            let mut previous = handle.shared.committed_rev();
            loop {
                tokio::time::sleep(every).await;
                let now = handle.shared.committed_rev();
                compact(previous).await;
                previous = now;
            }
        }
    }
}

impl Connected for FixAuthority<tokio::net::UnixStream> {
    type ConnectInfo = <tokio::net::UnixStream as Connected>::ConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.get_ref().connect_info()
    }
}
