//! What the slow, HTTP/2 and watch abuse tests share: a server, the scenario engine
//! (`bench/src/hostile`, the same code `kas-hostile` runs at full size) pointed at it,
//! and the checks every scenario must pass.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::super::harness::Server;
use super::engine::{Outcome, Size, Target};

/// One scenario at a time: each measures the other client's GET rate, which a second
/// scenario running beside it on the same two cores would distort.
static SERIAL: Mutex<()> = Mutex::new(());

/// Runs a scenario test alone (see [`SERIAL`]) on a runtime of its own.
pub(super) fn serial<F: Future>(test: F) -> F::Output {
    let _alone = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(test)
}

/// The sizes the tests run at: a few hundred connections, each test well under 30 s.
pub(super) fn size(count: usize) -> Size {
    Size {
        count,
        hold: Duration::from_secs(4),
        window: Duration::from_secs(2),
    }
}

/// A server started with `args`, and the engine's view of it.
pub(super) async fn start(args: &[&str]) -> (Server, Arc<Target>) {
    let mut builder = Server::builder();
    for a in args {
        builder = builder.arg(*a);
    }
    let server = builder.start().await;
    let tls = server.tls_config(&[], false);
    let target = Target::new(server.port, server.pid(), &tls);
    (server, target)
}

/// The least share of its undisturbed GET rate the other client must keep in a test. The
/// target is half (issue 21), and `kas-hostile` measures it on a release build
/// (bench/RESULTS-hostile.md); a debug build sharing two cores with the rest of the test
/// suite measured 54 % where alone it measures 80 %, so the test asks for less and
/// catches starvation, not the figure.
const MIN_RATE_RATIO: f64 = 0.3;

/// What every scenario must leave: the server up with the same workers, the other
/// client's GET rate at least [`MIN_RATE_RATIO`] of its undisturbed rate, and the
/// server's memory (all processes) grown by less than `max_growth_mib` at its peak.
pub(super) fn check(server: &Server, o: &Outcome, max_growth_mib: u64) {
    eprintln!("{o:#?}");
    assert!(
        o.up,
        "{}: the server did not stay up; log:\n{}",
        o.scenario,
        server.log()
    );
    assert!(
        o.rate_ratio() >= MIN_RATE_RATIO,
        "{}: the other client's GET rate fell from {:.0}/s to {:.0}/s",
        o.scenario,
        o.rate_before,
        o.rate_during
    );
    let growth = o.rss_peak_kib.saturating_sub(o.rss_before_kib) / 1024;
    assert!(
        growth < max_growth_mib,
        "{}: the server's memory grew by {growth} MiB (limit {max_growth_mib})",
        o.scenario
    );
}
