//! Per-worker memory limits (issue 18): `--worker-memory-limit` caps one worker's memory
//! (RLIMIT_DATA); made to allocate past it (the `allocate` failpoint), that worker fails
//! alone and is restarted while the others keep serving.

use std::process::Command;
use std::time::{Duration, Instant};

use super::harness::{Server, BIN, READY_TIMEOUT};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_over_its_memory_limit_fails_alone_and_is_restarted() {
    let server = Server::builder()
        .env("KUBE_APISERVER_RS_FAILPOINTS", "allocate")
        .arg("--worker-memory-limit=kube-api=300Mi")
        .start()
        .await;
    let before = server.workers();
    let within = server.get("/debug/failpoints/allocate/kube-api/50").await;
    assert_eq!(within.status, 200, "{}", within.text());
    assert_eq!(server.workers(), before);

    // Past the limit: the allocation is refused and the worker aborts; its request fails.
    let over = server.get("/debug/failpoints/allocate/kube-api/600").await;
    assert_eq!(over.status, 503, "{}", over.text());
    let deadline = Instant::now() + READY_TIMEOUT;
    while server.workers().get("kube-api") == before.get("kube-api") {
        assert!(Instant::now() < deadline, "kube-api not restarted");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let now = server.workers();
    for role in ["aggregator", "extensions", "storage"] {
        assert_eq!(now.get(role), before.get(role), "{role} was touched");
    }
    server
        .wait_for(|r| r.status == 200, "/api/v1/namespaces/default")
        .await;
    let log = server.log();
    assert!(
        log.contains("memory allocation of 629145600 bytes failed"),
        "{log}"
    );
    assert!(log.contains("killed by SIGABRT"), "{log}");
}

#[test]
fn bad_memory_limits_are_start_errors() {
    for (value, message) in [
        ("kube-api", "\"kube-api\" is not role=quantity"),
        ("kube-api=lots", "is not a positive quantity of bytes"),
        ("nobody=1Gi", "nobody"),
    ] {
        let out = Command::new(BIN)
            .arg(format!("--worker-memory-limit={value}"))
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(64), "{stderr}");
        assert!(
            stderr.contains("--worker-memory-limit") && stderr.contains(message),
            "{stderr}"
        );
    }
}
