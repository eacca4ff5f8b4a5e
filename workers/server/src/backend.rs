//! The life of a back-end worker (kube-api, extensions): bind its unix socket, report its
//! post-start hooks to the supervisor, serve delegated requests, and stop when told to
//! drain, after the front door has stopped.

use std::future::Future;

use http::{Request, Response};
use kas_proto::{RequestContext, ShutdownPhase};

use crate::body::Body;
use crate::control::Control;
use crate::health::PostStartHooks;
use crate::lifecycle::{Lifecycle, Phase};
use crate::{delegate, Error};

/// Runs a back-end worker until the supervisor asks it to drain.
pub async fn run<F, Fut>(
    control: Control,
    hooks: PostStartHooks,
    lifecycle: Lifecycle,
    handler: F,
) -> Result<(), Error>
where
    F: Fn(RequestContext, Request<Body>) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response<Body>> + Send + 'static,
{
    let config = control.config().clone();
    let socket = config.own_socket_path();
    let listener = delegate::bind(&socket)?;
    tracing::info!(socket = %socket.display(), "serving delegated requests");

    // Report health now and whenever a hook changes.
    let reporter = {
        let control = control.clone();
        let hooks = hooks.clone();
        let lifecycle = lifecycle.clone();
        let mut changed = hooks.subscribe();
        tokio::spawn(async move {
            loop {
                let health = hooks.health();
                if health.ready {
                    lifecycle.advance(Phase::Serving);
                }
                control.report_health(health);
                if changed.changed().await.is_err() {
                    return;
                }
            }
        })
    };

    let mut phases = control.shutdown_phases();
    let stop = {
        let lifecycle = lifecycle.clone();
        async move {
            loop {
                let phase = *phases.borrow_and_update();
                match phase {
                    Some(ShutdownPhase::Drain) => break,
                    Some(ShutdownPhase::Initiated | ShutdownPhase::NotAcceptingNewRequests) => {
                        lifecycle.advance(Phase::ShutdownInitiated);
                    }
                    None => {}
                }
                if phases.changed().await.is_err() {
                    // The supervisor is gone; the control reader exits the process.
                    std::future::pending::<()>().await;
                }
            }
            lifecycle.advance(Phase::NotAcceptingNewRequests);
            crate::lifecycle::end_watches();
        }
    };
    delegate::serve(listener, handler, stop, config.request_timeout).await;
    lifecycle.advance(Phase::Stopped);
    reporter.abort();
    control.shutdown_done(ShutdownPhase::Drain);
    Ok(())
}

/// The health check of the KMS v2 plugins; upstream leaves it out of livez.
pub const KMS_CHECK: &str = "kms-providers";

/// Connects to the worker's storage and keeps its `etcd` check (and, with KMS providers
/// or `--encryption-provider-config-automatic-reload`, `kms-providers`) current in
/// `hooks`.
pub async fn connect_storage(
    control: &Control,
    hooks: &PostStartHooks,
) -> Result<crate::storage::Storage, Error> {
    let cfg = crate::storage::StorageConfig::for_worker(control.config());
    let reload = control.config().encryption_reload.is_some();
    // Before the client is made: its transformers then keep the check whatever the
    // providers, as upstream's reloading transformers do.
    crate::storage::encryption::set_automatic_reload(reload);
    if reload {
        // Upstream's hook that starts its reload controller (ours runs from the control
        // channel, already started).
        hooks
            .register("start-encryption-provider-config-automatic-reload")
            .done();
    }
    let storage = crate::storage::Storage::new(&cfg)
        .await
        .map_err(|e| Error::Storage(e.to_string()))?;
    // Readiness waits for etcd: until the first successful probe the check fails.
    hooks.set_check("etcd", Err("not connected yet".into()));
    if let Some((mut changes, transformers)) = storage.kms_health() {
        // kube-apiserver's `kms-providers` check (healthz and readyz, not livez): every
        // KMS v2 plugin's last Status probe, of the transformers in force.
        let hooks = hooks.clone();
        hooks.set_check(KMS_CHECK, transformers.kms_health());
        tokio::spawn(async move {
            while changes.changed().await.is_ok() {
                hooks.set_check(KMS_CHECK, transformers.kms_health());
            }
        });
    }
    let hooks = hooks.clone();
    tokio::spawn(crate::storage::monitor(storage.clone(), move |result| {
        hooks.set_check("etcd", result);
    }));
    Ok(storage)
}
