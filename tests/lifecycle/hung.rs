//! Hung workers (issue 18): a worker stopped with SIGSTOP answers no heartbeat; within
//! 3 s the front door answers its requests with 503 at once, and after
//! `--worker-heartbeat-timeout` the supervisor kills it and starts a new one, logged with
//! its state and counted in `/metrics`.

use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use super::harness::Server;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_worker_is_killed_and_replaced() {
    let server = Server::builder()
        .arg("--worker-heartbeat-timeout=4s")
        .start()
        .await;
    let path = "/api/v1/namespaces/default";
    assert_eq!(server.get(path).await.status, 200);
    let hung = server.workers()["kube-api"];
    kill(Pid::from_raw(hung as i32), Signal::SIGSTOP).expect("SIGSTOP");
    let stopped = Instant::now();

    // Marked down after 3 s of silence: its requests fail fast with a Status.
    let refused = server.wait_for(|r| r.status == 503, path).await;
    let asked = Instant::now();
    let again = server.get(path).await;
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
    let status = if again.status == 503 { again } else { refused };
    assert_eq!(status.headers["retry-after"], "1");
    let body = status.json();
    assert_eq!(body["kind"], "Status");
    assert_eq!(body["reason"], "ServiceUnavailable");

    // Killed at the timeout and replaced.
    let deadline = Instant::now() + Duration::from_secs(30);
    while server.workers().get("kube-api") == Some(&hung) {
        assert!(
            Instant::now() < deadline,
            "the hung worker was never replaced"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Silence counts from the last answered heartbeat, up to a second (one heartbeat)
    // before the stop: not killed before 4 s - 1 s.
    let replaced = stopped.elapsed();
    assert!(replaced >= Duration::from_secs(3), "{replaced:?}");
    println!("a SIGSTOPped worker was replaced {replaced:?} after it stopped");
    server.wait_ready().await;
    assert_eq!(server.get(path).await.status, 200);
    let log = server.log();
    assert!(
        log.contains("answered no heartbeat for --worker-heartbeat-timeout"),
        "{log}"
    );
    assert!(
        log.contains("T (stopped)"),
        "the log names the state: {log}"
    );

    let metrics = server.get("/metrics").await.text();
    let restarts = metrics
        .lines()
        .find(|l| {
            l.starts_with("kube_apiserver_rs_worker_restarts_total")
                && l.contains("reason=\"unresponsive\"")
                && l.contains("worker=\"kube-api\"")
        })
        .unwrap_or_else(|| panic!("no restart series: {metrics}"));
    assert!(restarts.ends_with(" 1"), "{restarts}");
}
