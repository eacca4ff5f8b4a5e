//! Socket activation (issue 18) under Debian's `systemd-socket-activate`: the supervisor
//! serves on the socket it is passed instead of binding, hands it to every incarnation of
//! the front door, and refuses to start when the flags name another address.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use super::harness::{free_port, require_tool, Server, BIN, READY_TIMEOUT};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_on_the_socket_systemd_passes() {
    if !require_tool("systemd-socket-activate") {
        return;
    }
    let port = free_port();
    let mut server = Server::builder()
        .socket_activated(port)
        .arg(format!("--secure-port={port}"))
        .start()
        .await;
    assert_eq!(server.port, port);
    assert!(
        server.log().contains("socket activation"),
        "{}",
        server.log()
    );
    let out = server.kubectl(&["get", "namespace", "default", "-o", "name"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "namespace/default"
    );

    // A restarted front door is handed the same passed socket.
    let front = server.workers()["aggregator"];
    kill(Pid::from_raw(front as i32), Signal::SIGKILL).expect("kill aggregator");
    let deadline = Instant::now() + READY_TIMEOUT;
    while server
        .workers()
        .get("aggregator")
        .is_none_or(|p| *p == front)
    {
        assert!(Instant::now() < deadline, "aggregator not restarted");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    server.wait_ready().await;
    assert_eq!(server.get("/api/v1/namespaces/default").await.status, 200);

    server.signal(Signal::SIGTERM);
    let status = server.wait_exit(READY_TIMEOUT).await.expect("exit");
    assert_eq!(status.code(), Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flags_that_disagree_with_the_passed_socket_stop_the_start() {
    if !require_tool("systemd-socket-activate") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let port = free_port();
    let other = free_port();
    for (flags, passed) in [
        (
            vec![
                format!("--secure-port={other}"),
                "--bind-address=127.0.0.1".into(),
            ],
            port,
        ),
        (
            vec![
                format!("--secure-port={port}"),
                "--bind-address=0.0.0.0".into(),
            ],
            port,
        ),
    ] {
        let mut child = Command::new("systemd-socket-activate")
            .arg(format!("--listen=127.0.0.1:{passed}"))
            .arg("--fdname=secure")
            .arg(BIN)
            .arg(format!("--data-dir={}", dir.path().display()))
            .args(&flags)
            .env_remove("NOTIFY_SOCKET")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("systemd-socket-activate");
        let deadline = Instant::now() + READY_TIMEOUT;
        while std::net::TcpStream::connect(("127.0.0.1", passed)).is_err() {
            assert!(
                Instant::now() < deadline,
                "socket activation did not listen"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let out = loop {
            if child.try_wait().expect("wait").is_some() {
                break child.wait_with_output().expect("output");
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("the server kept running with flags {flags:?}");
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("the passed socket listens on 127.0.0.1:{passed}"))
                && stderr.contains("make them agree"),
            "{stderr}"
        );
        assert!(!dir.path().join("admin.kubeconfig").exists());
    }
}
