//! `kube-apiserver`: parse → validate → complete → bind → supervise. The same binary run as
//! `kube-apiserver __worker <role>` is a worker.

#![deny(unsafe_code)]

mod activation;
mod admission;
mod audit_config;
mod audit_policy;
mod authz_config;
mod authz_reload;
mod certs;
mod cgroup;
mod complete;
mod encryption_config;
mod encryption_reload;
mod flagtable;
mod front_proxy_certs;
mod godur;
mod hung;
mod jwt_flags;
mod listener;
mod notify;
mod options;
mod outbound_certs;
mod pem_keys;
mod pflag;
mod requestheader;
mod supervise;
mod sys;
mod token_file;
mod validate;
mod webhook_config;
mod worker;
mod worker_limits;

use std::net::{IpAddr, SocketAddr};

use kas_proto::WorkerRole;
use std::process::ExitCode;

/// Every process of the server (supervisor and workers are this one binary) allocates
/// with mimalloc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit status for flag values that fail validation (EX_USAGE). A command line that
/// cannot be parsed at all exits with kube-apiserver's 1 ([`pflag::EXIT_PARSE`]).
const EXIT_USAGE: u8 = 64;

/// Environment variable of mimalloc's own transparent-huge-page option; when an operator
/// sets it, this server leaves THP as the kernel is configured.
const ALLOW_THP_ENV: &str = "MIMALLOC_ALLOW_THP";

/// Turns transparent huge pages off for this process and, as the kernel keeps the flag
/// across fork and exec, for every worker it starts. mimalloc is built not to ask for them
/// (its `no_thp` feature: before `main` its first arena took two, ~15 ms of zeroing at
/// every start), but a kernel with THP `always` would still give them: each first touch of
/// a 2 MiB region zeroes all of it, so a worker's heap of tens of MiB doubled its resident
/// memory and each start (a reload's replacements most) spent tens of milliseconds clearing
/// pages, taken from the workers serving meanwhile; steady GET throughput was the same
/// either way (bench/RESULTS-reload.md).
fn small_pages() {
    if std::env::var_os(ALLOW_THP_ENV).is_none() {
        // Refused only by kernels older than 3.15; THP then stays as configured.
        let _ = nix::sys::prctl::set_thp_disable(true);
    }
}

fn main() -> ExitCode {
    small_pages();
    let mut args = std::env::args();
    if args.nth(1).as_deref() == Some("__worker") {
        return worker::main(args.next().as_deref().unwrap_or(""));
    }

    let (opts, flag_warnings) = match options::parse(std::env::args_os()) {
        Ok(parsed) => (parsed.options, parsed.warnings),
        Err(e) => match pflag::describe(&e, &options::command()) {
            None => {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            Some(message) => {
                eprintln!("{message}");
                return ExitCode::from(pflag::EXIT_PARSE);
            }
        },
    };
    if let Some(v) = opts.version.as_deref().filter(|v| *v != "false") {
        return print_version(v);
    }
    let validated = match validate::validate(&opts) {
        Ok(v) => v,
        Err(errors) => {
            // Before logging is set up: on stderr, as pflag prints them.
            for warning in &flag_warnings {
                eprintln!("{warning}");
            }
            for e in &errors {
                eprintln!("Error: {e}");
            }
            return ExitCode::from(EXIT_USAGE);
        }
    };
    if let Err(e) =
        kas_server::logging::init("supervisor", validated.verbosity, &validated.logging_format)
    {
        eprintln!("kube-apiserver: {e}");
    }
    // Logged, not printed: under systemd they reach the journal as warnings.
    for warning in flag_warnings.iter().chain(&validated.warnings) {
        tracing::warn!("{warning}");
    }
    if let Some(snapshot) = &validated.restore_snapshot {
        return restore_snapshot(snapshot, &complete::data_dir(&validated));
    }
    kas_aggregator::tls::install_default_provider();

    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            tracing::error!(error = %e, "cannot start the runtime");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(async move {
        match serve(validated).await {
            Ok(code) => code,
            Err(e) => {
                tracing::error!(error = format!("{e:#}"), "kube-apiserver failed to start");
                1
            }
        }
    });
    ExitCode::from(code)
}

async fn serve(validated: validate::Validated) -> anyhow::Result<u8> {
    use anyhow::Context;
    // Handlers first: a signal that arrives during start-up is acted on, not lost.
    let signals = supervise::Signals::install().context("installing signal handlers")?;
    // A previous image (binary upgrade) blocked them across its execve.
    supervise::unblock_signals();
    let handover = supervise::take_handover()?;
    let mut completed = complete::complete(validated).context("completing options")?;
    // Before anything is bound or written: CPU limits this host cannot apply stop here.
    let limits = worker_limits::Enforcement::choose(
        completed.worker_memory_limits.clone(),
        completed.worker_cpu_limits.clone(),
    )
    .map_err(anyhow::Error::msg)?;

    let bind_address = completed.worker.serving.bind_address;
    let addr = SocketAddr::new(bind_address, completed.worker.serving.port);
    let (handover, (listener, port)) = match handover {
        Some((handover, listener)) => {
            let port = listener::port_of(&listener).context("the handed-over listener")?;
            tracing::info!(
                port,
                "re-executed in place: serving on the previous image's socket"
            );
            (Some(handover), (listener, port))
        }
        None => match activation::secure_listener(addr)? {
            Some((listener, port)) => {
                tracing::info!(
                    port,
                    "serving on the socket passed by systemd (socket activation)"
                );
                (None, (listener, port))
            }
            None => (
                None,
                listener::bind_secure(addr)
                    .with_context(|| format!("binding the secure port {addr}"))?,
            ),
        },
    };
    completed.worker.serving.port = port;

    let host = match bind_address {
        ip if ip.is_unspecified() || ip.is_loopback() => IpAddr::from([127, 0, 0, 1]),
        ip => ip,
    };
    let url = format!("https://{}", SocketAddr::new(host, port));
    certs::write_private(
        &completed.kubeconfig_path,
        certs::kubeconfig(
            &completed.pki,
            &url,
            &completed.worker.serving.ca_bundle_pem,
        )
        .as_bytes(),
    )
    .context("writing the admin kubeconfig")?;
    tracing::info!(
        %url,
        kubeconfig = %completed.kubeconfig_path.display(),
        "serving securely on {url}; kubectl --kubeconfig {}",
        completed.kubeconfig_path.display()
    );

    // The embedded store's socket, unless the previous image handed it over.
    let storage_listener = match handover.as_ref().map(|h| h.storage_listener()) {
        Some(handed) => handed?,
        None if completed.worker.roles().contains(&WorkerRole::Storage) => {
            let path = completed.worker.socket_path(WorkerRole::Storage);
            let bound = kas_storage::bind_socket(&path)
                .with_context(|| format!("binding the store's socket {}", path.display()))?;
            Some(std::os::fd::OwnedFd::from(bound))
        }
        None => None,
    };
    let encryption_reload = completed.worker.encryption_reload.clone();
    let mut supervisor = supervise::Supervisor::new(completed.worker, listener, url)
        .context("starting the supervisor")?;
    supervisor.kill_unresponsive_after(completed.worker_heartbeat_timeout);
    supervisor.limit_workers(limits);
    supervisor.serve_store_on(storage_listener);
    if let Some(handover) = handover {
        supervisor.adopt(handover);
    }
    if let Some(path) = completed.authorization_config {
        supervisor.follow_authorization_config(path);
    }
    if let Some(path) = encryption_reload {
        supervisor.follow_encryption_config(path);
    }
    Ok(supervisor.run(signals).await)
}

fn print_version(v: &str) -> ExitCode {
    match v {
        "true" => {
            println!("Kubernetes {}", kas_server::KUBERNETES_VERSION);
            ExitCode::SUCCESS
        }
        "raw" => {
            println!(
                "version.Info{{Major:\"1\", Minor:\"33\", GitVersion:\"{}\", Platform:\"linux/{}\", \
                 Implementation:\"kube-apiserver-rs {}\"}}",
                kas_server::KUBERNETES_VERSION,
                std::env::consts::ARCH,
                env!("CARGO_PKG_VERSION")
            );
            ExitCode::SUCCESS
        }
        "false" => ExitCode::SUCCESS,
        other => {
            eprintln!(
                "Error: invalid argument {other:?} for \"--version\" flag: use true, false or raw"
            );
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// `--restore-snapshot`: the snapshot becomes the embedded store of `data_dir`.
fn restore_snapshot(snapshot: &std::path::Path, data_dir: &std::path::Path) -> ExitCode {
    let store = data_dir.join("store");
    // The data dir will hold keys: private from the start, as the server makes it.
    let private =
        std::os::unix::fs::DirBuilderExt::mode(std::fs::DirBuilder::new().recursive(true), 0o700)
            .create(data_dir);
    if let Err(e) = private {
        tracing::error!(path = %data_dir.display(), error = %e, "cannot create the data dir");
        return ExitCode::FAILURE;
    }
    match kas_storage::restore_snapshot(snapshot, &store) {
        Ok(()) => {
            tracing::info!(
                snapshot = %snapshot.display(),
                store = %store.display(),
                "snapshot restored; start the server on this data dir to serve it"
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            tracing::error!(error = %worker::with_causes(&e), "cannot restore the snapshot");
            ExitCode::FAILURE
        }
    }
}
