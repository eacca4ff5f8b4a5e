//! Lifecycle across processes, black box: graceful termination under load, the second
//! signal, crash isolation with `kill -9` of each worker, sd_notify readiness and watchdog,
//! and journald's native protocol.
//!
//! These tests raise signals only at the server processes they start, never at the test
//! process, so they share one test binary and run in parallel safely.

#[path = "lifecycle/activation.rs"]
mod activation;
#[path = "lifecycle/etcd_tools.rs"]
mod etcd_tools;
mod harness;
#[path = "lifecycle/hung.rs"]
mod hung;
#[path = "lifecycle/limits.rs"]
mod limits;
#[path = "lifecycle/reload.rs"]
mod reload;
#[path = "lifecycle/store_handover.rs"]
mod store_handover;

use std::os::unix::net::UnixDatagram;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use harness::{alive, require_tool, Server};
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

/// One request's fate in a load loop.
#[derive(Debug, Clone)]
struct Sample {
    sent: Instant,
    path: &'static str,
    ok: bool,
    code: u16,
    /// The answer (or error) of a failed request, shown when an assertion prints it.
    #[allow(dead_code)]
    failure: Option<String>,
}

/// Clients hammering the server on persistent connections until stopped.
struct Load {
    stop: Arc<AtomicBool>,
    samples: Arc<Mutex<Vec<Sample>>>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl Load {
    fn start(server: &Server, paths: &[&'static str], per_path: usize) -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let samples = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for (i, path) in paths.iter().enumerate() {
            for j in 0..per_path {
                let mut conn = server.conn((i + j) % 2 == 0);
                let stop = stop.clone();
                let samples = samples.clone();
                let path = *path;
                tasks.push(tokio::spawn(async move {
                    while !stop.load(Ordering::Relaxed) {
                        let sent = Instant::now();
                        let r = conn.get(path).await;
                        let (ok, code, failure) = match &r {
                            Ok(reply) if reply.status.is_success() => {
                                (true, reply.status.as_u16(), None)
                            }
                            Ok(reply) => (false, reply.status.as_u16(), Some(reply.text())),
                            Err(e) => (false, 0, Some(e.to_string())),
                        };
                        samples.lock().expect("samples").push(Sample {
                            sent,
                            path,
                            ok,
                            code,
                            failure,
                        });
                        if !ok {
                            tokio::time::sleep(Duration::from_millis(5)).await;
                        }
                    }
                }));
            }
        }
        Load {
            stop,
            samples,
            tasks,
        }
    }

    fn snapshot(&self) -> Vec<Sample> {
        self.samples.lock().expect("samples").clone()
    }

    async fn finish(self) -> Vec<Sample> {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.tasks {
            let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
        }
        self.samples.lock().expect("samples").clone()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sigterm_drains_without_failing_accepted_requests() {
    let delay = Duration::from_secs(2);
    let mut server = Server::builder()
        .arg("--shutdown-delay-duration=2s")
        .start()
        .await;
    let load = Load::start(
        &server,
        &["/version", "/api", "/apis/apiextensions.k8s.io"],
        2,
    );
    while load.snapshot().len() < 200 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    let t0 = Instant::now();
    server.signal(Signal::SIGTERM);
    // ShutdownInitiated: readyz fails at once, livez stays green, requests are served.
    let ready = server
        .wait_for(|r| r.status == 500, "/readyz?verbose")
        .await;
    assert!(t0.elapsed() < delay, "readyz took too long to fail");
    assert!(
        ready.text().contains("[-]shutdown failed: reason withheld"),
        "{}",
        ready.text()
    );
    assert!(
        ready.text().contains("[+]worker-kube-api ok"),
        "{}",
        ready.text()
    );
    let live = server.get("/livez").await;
    assert_eq!(live.status, 200);

    let status = server
        .wait_exit(Duration::from_secs(30))
        .await
        .expect("exit");
    assert_eq!(status.code(), Some(0), "log:\n{}", server.log());
    let samples = load.finish().await;

    // Every request sent before NotAcceptingNewRequest (t0 + delay) succeeded.
    let cutoff = t0 + delay - Duration::from_millis(100);
    let before: Vec<&Sample> = samples.iter().filter(|s| s.sent < cutoff).collect();
    let failed: Vec<&&Sample> = before.iter().filter(|s| !s.ok).collect();
    assert!(before.len() > 500, "too little load: {}", before.len());
    assert!(
        failed.is_empty(),
        "{} of {} failed: {:?}",
        failed.len(),
        before.len(),
        &failed[..failed.len().min(5)]
    );
    let during_delay = before.iter().filter(|s| s.sent > t0).count();
    assert!(
        during_delay > 100,
        "requests were not served during the delay: {during_delay}"
    );

    let log = server.log();
    let order = [
        "ShutdownInitiated",
        "NotAcceptingNewRequest",
        "InFlightRequestsDrained",
        "every worker has stopped",
    ];
    let mut at = 0;
    for step in order {
        let pos = log[at..]
            .find(step)
            .unwrap_or_else(|| panic!("{step} not logged after {at}:\n{log}"));
        at += pos;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_signal_exits_1_at_once_with_no_worker_left() {
    nix::sys::prctl::set_child_subreaper(true).expect("PR_SET_CHILD_SUBREAPER");
    let mut server = Server::builder()
        .arg("--shutdown-delay-duration=30s")
        .start()
        .await;
    let workers = server.workers();
    assert_eq!(workers.len(), 4);
    server.signal(Signal::SIGTERM);
    server.wait_for(|r| r.status == 500, "/readyz").await;
    let t1 = Instant::now();
    server.signal(Signal::SIGINT);
    let status = server
        .wait_exit(Duration::from_secs(1))
        .await
        .expect("exit within 1s");
    assert_eq!(status.code(), Some(1));
    // Reaped by the supervisor before it exited: no process, not even a zombie, is left
    // for this test process (a subreaper, so orphans would come to it) to adopt.
    let left: Vec<_> = workers
        .iter()
        .filter(|(_, pid)| std::path::Path::new(&format!("/proc/{pid}")).exists())
        .collect();
    for (_, pid) in &left {
        let _ = nix::sys::wait::waitpid(Pid::from_raw(**pid as i32), None);
    }
    assert!(left.is_empty(), "workers left behind: {left:?}");
    assert!(t1.elapsed() < Duration::from_secs(1));
    let log = server.log();
    for role in workers.keys() {
        assert!(
            log.lines().any(|l| l.contains("worker stopped")
                && l.contains(&format!("worker={role}"))
                && l.contains("killed by SIGKILL")),
            "{role}'s kill not logged:\n{log}"
        );
    }
    assert!(
        log.contains("every worker killed and reaped; exiting with status 1"),
        "{log}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn kill_9_of_each_worker_is_isolated_and_repaired() {
    let server = Server::builder().start().await;
    // A worker ignores terminal signals: only the supervisor drives it.
    let kube_api = server.workers()["kube-api"];
    kill(Pid::from_raw(kube_api as i32), Signal::SIGTERM).expect("kill");
    kill(Pid::from_raw(kube_api as i32), Signal::SIGINT).expect("kill");
    assert_eq!(server.get("/api").await.status, 200);
    assert_eq!(server.workers()["kube-api"], kube_api);

    let owner = |path: &str| match path {
        "/api" => "kube-api",
        "/apis/apiextensions.k8s.io" => "extensions",
        _ => "aggregator",
    };
    let load = Load::start(
        &server,
        &["/version", "/api", "/apis/apiextensions.k8s.io"],
        2,
    );
    for role in ["kube-api", "extensions", "storage"] {
        let before = server.workers()[role];
        let from = load.snapshot().len();
        let t = Instant::now();
        kill(Pid::from_raw(before as i32), Signal::SIGKILL).expect("kill -9");
        loop {
            let now = server.workers().get(role).copied();
            if now.is_some_and(|p| p != before) && server.get("/readyz").await.status == 200 {
                break;
            }
            assert!(
                t.elapsed() < Duration::from_secs(2),
                "{role} not back within 2s"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // Let the load run on the repaired tree for a moment before judging.
        let settled = load.snapshot().len() + 50;
        while load.snapshot().len() < settled {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let window = &load.snapshot()[from..];
        for s in window.iter().filter(|s| owner(s.path) != role) {
            assert!(s.ok, "{} failed while {role} was down: {s:?}", s.path);
        }
        for s in window.iter().filter(|s| !s.ok) {
            assert_eq!(
                s.code, 503,
                "{role}'s own routes answer 503 while it is down: {s:?}"
            );
        }
    }
    let samples = load.finish().await;
    assert!(samples.iter().filter(|s| s.ok).count() >= 150);
    assert!(
        server.log().contains("killed by SIGKILL"),
        "exit status not logged"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_aggregator_comes_back_on_the_same_socket() {
    let server = Server::builder().start().await;
    let before = server.workers()["aggregator"];
    let t = Instant::now();
    kill(Pid::from_raw(before as i32), Signal::SIGKILL).expect("kill -9");
    // The listener lives on in the supervisor: connecting is never refused; the kernel
    // queues the connection until the new aggregator accepts it.
    let tcp =
        std::net::TcpStream::connect(("127.0.0.1", server.port)).expect("connect during restart");
    drop(tcp);
    let r = server.wait_for(|r| r.status == 200, "/readyz").await;
    assert_eq!(r.text(), "ok");
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "aggregator back after {:?}",
        t.elapsed()
    );
    assert_ne!(server.workers()["aggregator"], before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_acknowledged_write_is_lost_when_storage_is_killed() {
    if !require_tool("etcdctl") {
        return;
    }
    let server = Server::builder().start().await;
    // etcdctl in the runtime dir, with a relative path.
    let run_dir = server.data_dir.join("run");
    let endpoint = "unix://storage.sock".to_owned();
    let acked = Arc::new(Mutex::new(Vec::new()));
    let writer = {
        let endpoint = endpoint.clone();
        let acked = acked.clone();
        let run_dir = run_dir.clone();
        tokio::task::spawn_blocking(move || {
            for i in 0..150 {
                let out = std::process::Command::new("etcdctl")
                    .current_dir(&run_dir)
                    .env("ETCDCTL_API", "3")
                    .args([
                        "--endpoints",
                        &endpoint,
                        "--command-timeout=2s",
                        "put",
                        &format!("/ack/{i:04}"),
                        &format!("v{i}"),
                    ])
                    .output()
                    .expect("etcdctl");
                if out.status.success() {
                    acked.lock().expect("acked").push(i);
                }
            }
        })
    };
    let t = Instant::now();
    while acked.lock().expect("acked").len() < 30 {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "etcdctl writes are not acknowledged"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let storage = server.workers()["storage"];
    kill(Pid::from_raw(storage as i32), Signal::SIGKILL).expect("kill -9");
    writer.await.expect("writer");
    server.wait_ready().await;
    let out = std::process::Command::new("etcdctl")
        .current_dir(&run_dir)
        .env("ETCDCTL_API", "3")
        .args([
            "--endpoints",
            &endpoint,
            "get",
            "--prefix",
            "/ack/",
            "--keys-only",
        ])
        .output()
        .expect("etcdctl get");
    assert!(out.status.success(), "{out:?}");
    let keys = String::from_utf8_lossy(&out.stdout);
    let acked = acked.lock().expect("acked").clone();
    assert!(acked.len() > 30 && acked.len() < 150 + 1);
    for i in &acked {
        assert!(
            keys.contains(&format!("/ack/{i:04}")),
            "acknowledged write {i} lost"
        );
    }
}

/// Reads sd_notify datagrams until `want` appears (or the deadline passes).
fn read_until(sock: &UnixDatagram, want: &str, within: Duration, seen: &mut Vec<String>) -> bool {
    let deadline = Instant::now() + within;
    let mut buf = vec![0u8; 4096];
    while Instant::now() < deadline {
        sock.set_read_timeout(Some(
            deadline
                .saturating_duration_since(Instant::now())
                .max(Duration::from_millis(1)),
        ))
        .expect("timeout");
        if let Ok(n) = sock.recv(&mut buf) {
            let msg = String::from_utf8_lossy(&buf[..n]).into_owned();
            let hit = msg.lines().any(|l| l == want);
            seen.push(msg);
            if hit {
                return true;
            }
        }
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sd_notify_ready_then_stopping() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("notify.sock");
    let sock = UnixDatagram::bind(&path).expect("bind");
    let mut server = Server::builder()
        .env("NOTIFY_SOCKET", path.display().to_string())
        .start()
        .await;
    let mut seen = Vec::new();
    assert!(
        read_until(&sock, "READY=1", Duration::from_secs(10), &mut seen),
        "{seen:?}"
    );
    let ready = seen.last().cloned().unwrap_or_default();
    assert!(
        ready.contains("STATUS=Serving on https://127.0.0.1:"),
        "{ready}"
    );
    assert!(seen.iter().all(|m| !m.contains("STOPPING=1")));
    // READY=1 means readyz passes.
    assert_eq!(server.get("/readyz").await.status, 200);

    server.signal(Signal::SIGTERM);
    assert!(
        read_until(&sock, "STOPPING=1", Duration::from_secs(10), &mut seen),
        "{seen:?}"
    );
    let status = server
        .wait_exit(Duration::from_secs(20))
        .await
        .expect("exit");
    assert_eq!(status.code(), Some(0));
    assert!(
        read_until(&sock, "STATUS=Stopped", Duration::from_secs(2), &mut seen),
        "{seen:?}"
    );
    assert_eq!(seen.iter().filter(|m| m.contains("READY=1")).count(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watchdog_pings_stop_while_a_worker_is_frozen() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("notify.sock");
    let sock = UnixDatagram::bind(&path).expect("bind");
    let server = Server::builder()
        .env("NOTIFY_SOCKET", path.display().to_string())
        .env("WATCHDOG_USEC", "1000000")
        // This test is about the watchdog: the frozen worker is not to be replaced.
        .arg("--worker-heartbeat-timeout=0")
        .start()
        .await;
    let mut seen = Vec::new();
    assert!(
        read_until(&sock, "WATCHDOG=1", Duration::from_secs(5), &mut seen),
        "{seen:?}"
    );

    let frozen = server.workers()["extensions"];
    kill(Pid::from_raw(frozen as i32), Signal::SIGSTOP).expect("SIGSTOP");
    let r = server
        .wait_for(
            |r| r.text().contains("[-]worker-extensions failed"),
            "/readyz?verbose",
        )
        .await;
    assert_eq!(r.status, 500);
    // Pings are due every 500 ms; none may come while the worker is frozen.
    let mut drained = Vec::new();
    read_until(&sock, "\u{0}", Duration::from_millis(50), &mut drained);
    let mut quiet = Vec::new();
    assert!(
        !read_until(&sock, "WATCHDOG=1", Duration::from_millis(1500), &mut quiet),
        "watchdog pinged while a worker was frozen: {quiet:?}"
    );

    kill(Pid::from_raw(frozen as i32), Signal::SIGCONT).expect("SIGCONT");
    assert!(
        read_until(&sock, "WATCHDOG=1", Duration::from_secs(3), &mut seen),
        "pings did not resume"
    );
    server.wait_ready().await;
    assert_eq!(
        server.workers()["extensions"],
        frozen,
        "a frozen worker is not restarted"
    );
}

/// Decodes journald's native protocol: `KEY=value\n`, or `KEY\n<u64 LE length><bytes>\n`.
fn journal_fields(mut d: &[u8]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    while !d.is_empty() {
        let Some(nl) = d.iter().position(|b| *b == b'\n') else {
            break;
        };
        let line = &d[..nl];
        if let Some(eq) = line.iter().position(|b| *b == b'=') {
            out.push((
                String::from_utf8_lossy(&line[..eq]).into_owned(),
                String::from_utf8_lossy(&line[eq + 1..]).into_owned(),
            ));
            d = &d[nl + 1..];
        } else {
            let key = String::from_utf8_lossy(line).into_owned();
            let rest = &d[nl + 1..];
            if rest.len() < 8 {
                break;
            }
            let len = u64::from_le_bytes(rest[..8].try_into().expect("8 bytes")) as usize;
            let value = rest.get(8..8 + len).unwrap_or_default();
            out.push((key, String::from_utf8_lossy(value).into_owned()));
            d = rest.get(8 + len + 1..).unwrap_or_default();
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn journald_native_fields() {
    let socket = std::path::Path::new("/run/systemd/journal/socket");
    if UnixDatagram::unbound()
        .and_then(|s| s.connect(socket))
        .is_ok()
    {
        // A real journald owns the socket; this test must not steal its messages.
        eprintln!("skipping: journald is running on this machine");
        return;
    }
    let _ = std::fs::remove_file(socket);
    std::fs::create_dir_all("/run/systemd/journal").expect("mkdir");
    let sock = UnixDatagram::bind(socket).expect("bind journald socket");
    let cleanup = scopeguard(socket);
    // Read continuously, as journald does: a datagram socket's queue is short, and a full
    // one blocks the sender.
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 65536];
        while let Ok(n) = sock.recv(&mut buf) {
            if tx.send(buf[..n].to_vec()).is_err() {
                return;
            }
        }
    });

    let server = Server::builder()
        .arg("--logging-format=journald")
        .env("KUBE_APISERVER_RS_FAILPOINTS", "panic")
        .start()
        .await;
    let r = server.get("/debug/failpoints/panic/aggregator").await;
    assert_eq!(r.status, 500);
    let audit_id = r.headers["audit-id"].to_str().expect("audit id").to_owned();

    let deadline = Instant::now() + Duration::from_secs(10);
    let mut workers_seen = std::collections::BTreeSet::new();
    let mut found = None;
    while Instant::now() < deadline && (found.is_none() || workers_seen.len() < 5) {
        let Ok(datagram) = rx.recv_timeout(Duration::from_millis(200)) else {
            continue;
        };
        let fields = journal_fields(&datagram);
        if fields.is_empty() {
            // tracing-journald probes the socket with an empty datagram.
            continue;
        }
        let get = |k: &str| {
            fields
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
        };
        assert_eq!(
            get("SYSLOG_IDENTIFIER").as_deref(),
            Some("kube-apiserver"),
            "{fields:?}"
        );
        assert!(get("PRIORITY").is_some(), "{fields:?}");
        if let Some(w) = get("WORKER") {
            workers_seen.insert(w);
        }
        if get("CODE").as_deref() == Some("500") && get("AUDIT_ID") == Some(audit_id.clone()) {
            found = Some(fields.clone());
        }
    }
    drop(cleanup);
    let fields = found.expect("no journal entry with CODE=500");
    let get = |k: &str| {
        fields
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(get("WORKER").as_deref(), Some("aggregator"));
    assert_eq!(get("VERB").as_deref(), Some("get"));
    assert!(get("LATENCY_MS").is_some(), "{fields:?}");
    assert_eq!(get("PRIORITY").as_deref(), Some("6"), "info level");
    for w in [
        "supervisor",
        "aggregator",
        "kube-api",
        "extensions",
        "storage",
    ] {
        assert!(
            workers_seen.contains(w),
            "no journal entry from {w}: {workers_seen:?}"
        );
    }
}

/// Removes the fake journald socket when dropped, even if the test fails.
fn scopeguard(path: &std::path::Path) -> impl Drop + '_ {
    struct Guard<'a>(&'a std::path::Path);
    impl Drop for Guard<'_> {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(self.0);
        }
    }
    Guard(path)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn etcd_outages_turn_readyz_red_and_heal_without_a_crash() {
    if !require_tool("etcd") {
        return;
    }
    let mut etcd = harness::Etcd::new();
    // Started before etcd: the preflight keeps retrying and readiness waits for it.
    let server = Server::builder()
        .arg(format!("--etcd-servers={}", etcd.url()))
        .spawn()
        .await;
    let r = server
        .wait_for(
            |r| r.text().contains("[-]etcd failed: reason withheld"),
            "/readyz?verbose",
        )
        .await;
    assert_eq!(r.status, 500);
    let workers = server.workers();
    assert_eq!(
        workers.keys().map(String::as_str).collect::<Vec<_>>(),
        ["aggregator", "extensions", "kube-api"],
        "no storage worker with --etcd-servers"
    );
    etcd.start();
    let r = server
        .wait_for(|r| r.status == 200, "/readyz?verbose")
        .await;
    assert!(r.text().contains("[+]etcd ok"), "{}", r.text());

    etcd.kill();
    let r = server
        .wait_for(|r| r.text().contains("[-]etcd failed"), "/readyz?verbose")
        .await;
    assert_eq!(r.status, 500);
    assert!(r.text().contains("[+]worker-kube-api ok"), "{}", r.text());
    assert_eq!(
        server.get("/version").await.status,
        200,
        "the front door keeps serving"
    );
    let live = server.get("/livez?verbose").await;
    assert!(live.text().contains("[-]etcd failed"), "{}", live.text());
    // Writes fail as 503 ServiceUnavailable, not a hang, a 500 or a crash.
    let cm = br#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"during-outage"}}"#;
    let base = "/api/v1/namespaces/default/configmaps";
    let r = server
        .request(http::Method::POST, base, cm, true, false)
        .await
        .expect("write during outage");
    assert_eq!(r.status, 503, "{}", r.text());
    assert_eq!(r.json()["reason"], "ServiceUnavailable");
    assert_eq!(r.headers["retry-after"], "1");

    etcd.start();
    server.wait_for(|r| r.status == 200, "/readyz").await;
    let r = server
        .request(http::Method::POST, base, cm, true, false)
        .await
        .expect("write after outage");
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(
        server.workers(),
        workers,
        "no worker crashed or restarted over the outage"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_send_retry_after_new_requests_get_429_until_drained() {
    use bytes::Bytes;
    use http_body_util::{BodyExt, Channel};
    use hyper_util::rt::TokioIo;

    let mut server = Server::builder()
        .arg("--shutdown-delay-duration=1s")
        .arg("--shutdown-send-retry-after")
        .start()
        .await;

    // Connection A: a request whose body is still being sent stays in flight.
    let (tls, _) = server
        .connect(&[b"http/1.1"], false)
        .await
        .expect("connect A");
    let (mut send_a, conn_a) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
        .await
        .expect("handshake A");
    tokio::spawn(conn_a);
    let (mut body_tx, body) = Channel::<Bytes, std::convert::Infallible>::new(4);
    let slow = http::Request::post(format!("https://localhost:{}/no/such/path", server.port))
        .header("host", "localhost")
        .body(body)
        .expect("request");
    body_tx
        .send_data(Bytes::from_static(b"{\"a\":"))
        .await
        .expect("first chunk");
    let in_flight = tokio::spawn(async move { send_a.send_request(slow).await });

    // Connection B: open and idle-kept before the shutdown starts.
    let mut conn_b = server.conn(false);
    assert_eq!(conn_b.get("/version").await.expect("b").status, 200);

    server.signal(Signal::SIGTERM);
    // Past the delay, the listener is closed and new requests are told to retry.
    let deadline = Instant::now() + Duration::from_secs(10);
    let refused = loop {
        let r = conn_b
            .get("/version")
            .await
            .expect("b after NotAcceptingNewRequest");
        if r.status == 429 {
            break r;
        }
        assert!(Instant::now() < deadline, "never refused with 429");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    // As upstream's WithRetryAfter filter: Go's http.Error, Retry-After 5.
    assert_eq!(refused.headers["retry-after"], "5");
    assert_eq!(refused.headers["connection"], "close");
    assert_eq!(refused.headers["content-type"], "text/plain; charset=utf-8");
    assert_eq!(
        refused.text(),
        "The apiserver is shutting down, please try again later.\n"
    );
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", server.port)).is_err(),
        "the listener must be closed after NotAcceptingNewRequest"
    );
    assert!(
        server.child.try_wait().expect("wait").is_none(),
        "still draining"
    );

    // The in-flight request completes normally; then the server finishes and exits 0.
    body_tx
        .send_data(Bytes::from_static(b"1}"))
        .await
        .expect("last chunk");
    drop(body_tx);
    let resp = in_flight.await.expect("join").expect("in-flight request");
    assert_eq!(resp.status(), 404, "answered, not dropped");
    let _ = resp.into_body().collect().await;
    let status = server
        .wait_exit(Duration::from_secs(20))
        .await
        .expect("exit");
    assert_eq!(status.code(), Some(0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_server_compacts_the_store_every_interval() {
    if !require_tool("etcdctl") {
        return;
    }
    let server = Server::builder()
        .arg("--etcd-compaction-interval=1s")
        .start()
        .await;
    let run_dir = server.data_dir.join("run");
    let etcdctl = |args: &[&str]| {
        std::process::Command::new("etcdctl")
            .current_dir(&run_dir)
            .env("ETCDCTL_API", "3")
            .args(["--endpoints", "unix://storage.sock", "-w", "json"])
            .args(args)
            .output()
            .expect("etcdctl")
    };
    let out = etcdctl(&["put", "/registry/x", "1"]);
    assert!(out.status.success(), "{out:?}");
    let put: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let old_rev = put["header"]["revision"].as_i64().expect("revision");
    assert!(etcdctl(&["put", "/registry/x", "2"]).status.success());
    // The compactor compacts to the revision it saw one interval earlier: within a few
    // intervals, the first write's revision is gone.
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let out = etcdctl(&["get", "/registry/x", &format!("--rev={old_rev}")]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() && stderr.contains("required revision has been compacted") {
            break;
        }
        assert!(Instant::now() < deadline, "never compacted: {out:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(server.log().contains("compacted etcd history"));
    // The current value survives compaction ("2", base64 "Mg==" in etcdctl's JSON).
    let out = etcdctl(&["get", "/registry/x"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("\"value\":\"Mg==\""),
        "{out:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_crash_looping_worker_backs_off_and_never_takes_the_others_down() {
    let server = Server::builder().start().await;
    let load = Load::start(&server, &["/version", "/api"], 2);
    let mut pid = server.workers()["extensions"];
    let mut kills = 0;
    let t = Instant::now();
    while kills < 5 {
        kill(Pid::from_raw(pid as i32), Signal::SIGKILL).expect("kill -9");
        kills += 1;
        // Wait for the next incarnation, then kill it at once: a crash loop.
        loop {
            match server.workers().get("extensions").copied() {
                Some(p) if p != pid => {
                    pid = p;
                    break;
                }
                _ => {}
            }
            assert!(
                t.elapsed() < Duration::from_secs(20),
                "extensions never came back"
            );
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
    // The restarts slowed down: 0, 250, 500, 1000 ms between the five crashes.
    assert!(
        t.elapsed() >= Duration::from_millis(1500),
        "no backoff: {:?}",
        t.elapsed()
    );
    let log = server.log();
    for delay in [
        "delay_ms=0",
        "delay_ms=250",
        "delay_ms=500",
        "delay_ms=1000",
    ] {
        assert!(log.contains(delay), "{delay} not logged");
    }
    // Back to healthy once it stops crashing; the others never failed a request.
    server.wait_ready().await;
    let samples = load.finish().await;
    let failed: Vec<&Sample> = samples.iter().filter(|s| !s.ok).collect();
    assert!(
        failed.is_empty(),
        "{} failed: {:?}",
        failed.len(),
        &failed[..failed.len().min(3)]
    );
    assert!(samples.len() > 100);
}
