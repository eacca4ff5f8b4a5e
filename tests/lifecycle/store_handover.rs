//! The embedded store's hand-over in a reload (issue 18) when its successor fails: the
//! old store, which released its data, answers reads meanwhile, takes the data back, and
//! applies the writes that waited; nothing acknowledged is lost and the next reload works.

use std::time::{Duration, Instant};

use bytes::Bytes;
use http::Method;
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use super::harness::{Server, READY_TIMEOUT};

fn configmap(name: &str) -> Bytes {
    let body = serde_json::json!({
        "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}
    });
    Bytes::from(body.to_string())
}

const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_whose_successor_fails_answers_reads_meanwhile_and_takes_its_data_back() {
    let server = Server::builder().start().await;
    let old_store = server.workers()["storage"];
    let mut conn = server.conn(true);
    let r = conn
        .send(Method::POST, CONFIGMAPS, configmap("before"))
        .await
        .expect("create");
    assert_eq!(r.status, 201, "{}", r.text());

    // Freeze the store's successor as soon as it runs: the old store has released the
    // data by then (it is told to before the successor starts).
    server.signal(Signal::SIGHUP);
    let deadline = Instant::now() + READY_TIMEOUT;
    let successor = loop {
        if let Some(&pid) = server.workers().get("storage").filter(|p| **p != old_store) {
            break pid;
        }
        assert!(Instant::now() < deadline, "{}", server.log());
        tokio::time::sleep(Duration::from_millis(1)).await;
    };
    kill(Pid::from_raw(successor as i32), Signal::SIGSTOP).expect("SIGSTOP");
    let deadline = Instant::now() + READY_TIMEOUT;
    while !server.log().contains("data released to the successor") {
        assert!(Instant::now() < deadline, "{}", server.log());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(
        !server
            .log()
            .contains("the replaced store stopped answering"),
        "the successor took over before it was frozen:\n{}",
        server.log()
    );

    // Reads are answered from the released store; a write waits.
    let read = server.get(&format!("{CONFIGMAPS}/before")).await;
    assert_eq!(read.status, 200, "{}", read.text());
    let write = tokio::spawn(async move {
        conn.send(Method::POST, CONFIGMAPS, configmap("during"))
            .await
            .map(|r| (r.status, r.text()))
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !write.is_finished(),
        "a write was applied while the data was released"
    );

    // The successor dies: the reload fails and the old store takes its data back.
    kill(Pid::from_raw(successor as i32), Signal::SIGKILL).expect("SIGKILL");
    let (status, text) = tokio::time::timeout(Duration::from_secs(20), write)
        .await
        .expect("the waiting write is answered")
        .expect("task")
        .expect("write");
    assert_eq!(status, 201, "{text}\n{}", server.log());
    let log = server.log();
    assert!(log.contains("reload failed"), "{log}");
    assert!(
        log.contains("the store worker takes its data back"),
        "{log}"
    );
    assert!(
        log.contains("data taken back (its successor failed)"),
        "{log}"
    );
    assert_eq!(
        server.workers()["storage"],
        old_store,
        "the old store serves on"
    );
    for name in ["before", "during"] {
        let r = server.get(&format!("{CONFIGMAPS}/{name}")).await;
        assert_eq!(r.status, 200, "{name}: {}", r.text());
    }

    // The next reload hands the data over.
    let before = server.workers();
    server.signal(Signal::SIGHUP);
    super::reload::wait_replaced(&server, &before).await;
    let r = server.get(&format!("{CONFIGMAPS}/during")).await;
    assert_eq!(r.status, 200, "{}", r.text());
}
