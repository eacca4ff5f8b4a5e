//! `kas-baseline`: a bare hyper + rustls server answering a fixed body on every path,
//! the baseline the real server's throughput and latency are divided by; or, with
//! `--kms-plugin <socket>`, a KMS v2 plugin for the encryption benchmark.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use bytes::Bytes;
use clap::Parser;
use http::header::HeaderValue;
use kas_bench::baseline::{serve, Answer};
use kas_bench::tls::{server_config, SelfSigned};
use tokio::net::TcpListener;
use tokio::signal::unix::{signal, SignalKind};

#[derive(Parser)]
#[command(
    version,
    about = "Bare hyper + rustls server answering fixed bytes on every path"
)]
struct Cli {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    bind_address: IpAddr,
    /// Port to listen on (0: any free one; the chosen address is printed).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Serving certificate (PEM), e.g. the real server's `pki/apiserver.crt`.
    #[arg(long, requires = "key", conflicts_with = "self_signed_dir")]
    cert: Option<PathBuf>,
    /// Key of --cert (PEM).
    #[arg(long, requires = "cert")]
    key: Option<PathBuf>,
    /// Use ca.crt / apiserver.crt / apiserver.key in this dir, generating them first if
    /// any is missing.
    #[arg(long)]
    self_signed_dir: Option<PathBuf>,
    /// File whose bytes are the body of every response (default: `ok`).
    #[arg(long)]
    body_file: Option<PathBuf>,
    /// Content type of every response.
    #[arg(long, default_value = "text/plain; charset=utf-8")]
    content_type: String,
    /// Tokio worker threads (default: one per CPU).
    #[arg(long)]
    threads: Option<usize>,
    /// Answer AdmissionReviews (allow, echoing the uid): a no-op admission webhook.
    #[arg(long)]
    admission_review: bool,
    /// Serve the KMS v2 plugin API (Status, Encrypt, Decrypt; a local AES-256-GCM key)
    /// on this unix socket instead of HTTPS.
    #[arg(long, conflicts_with_all = ["cert", "self_signed_dir", "admission_review"])]
    kms_plugin: Option<PathBuf>,
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    if let Some(socket) = &cli.kms_plugin {
        return kms_plugin(socket, cli.threads);
    }
    let (cert, key) = match (&cli.cert, &cli.key, &cli.self_signed_dir) {
        (Some(cert), Some(key), _) => (cert.clone(), key.clone()),
        (_, _, Some(dir)) => {
            let (set, _generated) = SelfSigned::ensure(dir)?;
            (set.cert, set.key)
        }
        _ => bail!("give --cert and --key, or --self-signed-dir"),
    };
    let tls = server_config(&cert, &key)?;
    let body = match &cli.body_file {
        Some(path) => {
            Bytes::from(std::fs::read(path).with_context(|| format!("reading {}", path.display()))?)
        }
        None => Bytes::from_static(b"ok"),
    };
    let answer = Answer {
        body,
        content_type: HeaderValue::from_str(&cli.content_type).context("--content-type")?,
        admission_review: cli.admission_review,
    };

    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = cli.threads {
        runtime.worker_threads(n.max(1));
    }
    runtime
        .enable_all()
        .build()
        .context("tokio runtime")?
        .block_on(async move {
            // Handlers first, so a SIGTERM right after the address is printed is seen.
            let mut term = signal(SignalKind::terminate()).context("SIGTERM handler")?;
            let mut int = signal(SignalKind::interrupt()).context("SIGINT handler")?;
            let addr = SocketAddr::new(cli.bind_address, cli.port);
            let listener = TcpListener::bind(addr)
                .await
                .with_context(|| format!("binding {addr}"))?;
            let local = listener.local_addr().context("local address")?;
            println!("listening on {local}");
            tokio::select! {
                () = serve(listener, tls, answer) => {}
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            Ok(())
        })
}

/// `--kms-plugin`: serves until SIGTERM or SIGINT.
fn kms_plugin(socket: &std::path::Path, threads: Option<usize>) -> Result<()> {
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = threads {
        runtime.worker_threads(n.max(1));
    }
    runtime
        .enable_all()
        .build()
        .context("tokio runtime")?
        .block_on(async move {
            let mut term = signal(SignalKind::terminate()).context("SIGTERM handler")?;
            let mut int = signal(SignalKind::interrupt()).context("SIGINT handler")?;
            tokio::select! {
                served = kas_bench::kms_plugin::serve(socket) => served?,
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            let _ = std::fs::remove_file(socket);
            Ok(())
        })
}
