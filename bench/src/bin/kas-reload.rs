//! `kas-reload`: a reload and a binary upgrade of kube-apiserver-rs under load (see
//! `kas_bench::reload`). Prints the report as JSON, and as Markdown with `--markdown`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Parser;
use kas_bench::cli::parse_duration;
use kas_bench::reload::{self, ReloadSpec};

#[derive(Parser)]
#[command(
    version,
    about = "Reload and binary upgrade of kube-apiserver-rs under load"
)]
struct Cli {
    /// The kube-apiserver binary (it is copied; the copy runs and is replaced).
    #[arg(long)]
    server: PathBuf,
    /// Scratch directory (default: a fresh one under the temp dir).
    #[arg(long)]
    work_dir: Option<PathBuf>,
    /// Connections sending GETs.
    #[arg(long, default_value_t = 12)]
    getters: usize,
    /// Connections creating ConfigMaps.
    #[arg(long, default_value_t = 4)]
    writers: usize,
    /// Watches.
    #[arg(long, default_value_t = 100)]
    watchers: usize,
    /// Steady state before the reload (half of it after each reload).
    #[arg(long, value_parser = parse_duration, default_value = "10s")]
    steady: Duration,
    /// Print Markdown instead of JSON.
    #[arg(long)]
    markdown: bool,
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    // A directory given is kept (its server.log), a temporary one removed.
    let keep = cli.work_dir.is_some();
    let work_dir = cli
        .work_dir
        .unwrap_or_else(|| std::env::temp_dir().join(format!("kas-reload-{}", std::process::id())));
    let spec = ReloadSpec {
        server: cli.server,
        work_dir: work_dir.clone(),
        getters: cli.getters,
        writers: cli.writers,
        watchers: cli.watchers,
        steady: cli.steady,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("runtime")?;
    let report = runtime
        .block_on(reload::run(&spec))
        .context("reload benchmark")?;
    if cli.markdown {
        print!("{}", reload::markdown(&report, &spec));
    } else {
        println!("{}", serde_json::to_string_pretty(&report)?);
    }
    if !keep {
        let _ = std::fs::remove_dir_all(&work_dir);
    }
    Ok(())
}
