//! Reload (issue 18): SIGHUP re-reads the files the flags name, refuses an invalid one
//! (the running workers stay), and otherwise replaces the workers one at a time while
//! clients keep going: no failed request, no acknowledged write lost, and watches that
//! end on a replaced worker resume from where they were without a gap.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::Method;
use http_body_util::BodyExt;
use hyper_util::rt::TokioIo;
use nix::sys::signal::Signal;
use rustls::pki_types::ServerName;

use super::harness::{Server, READY_TIMEOUT};
use super::Load;

const TOKENS: &str = "token-one,alice,uid-1,system:masters\n";

/// A server reading `TOKENS` from a file the test may rewrite.
async fn with_token_file() -> (tempfile::TempDir, std::path::PathBuf, Server) {
    let dir = tempfile::tempdir().expect("tempdir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, TOKENS).expect("tokens");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .start()
        .await;
    (dir, tokens, server)
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

async fn status_with_token(server: &Server, token: &str) -> u16 {
    let auth = bearer(token);
    let reply = server
        .request_with(
            Method::GET,
            "/api/v1/namespaces/default/configmaps",
            &[("authorization", &auth)],
            false,
            true,
        )
        .await
        .expect("request");
    reply.status.as_u16()
}

/// How each thread of a process is scheduled: (policy, niceness) from
/// `/proc/<pid>/task/<tid>/stat` (fields 41 and 19); empty once the process is gone.
fn scheduling_of(pid: u32) -> Vec<(u32, i32)> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .filter_map(|t| {
            let stat = std::fs::read_to_string(t.ok()?.path().join("stat")).ok()?;
            // After the command's closing parenthesis come fields 3 (state) onwards.
            let rest: Vec<&str> = stat[stat.rfind(')')? + 2..].split_whitespace().collect();
            Some((rest.get(38)?.parse().ok()?, rest.get(16)?.parse().ok()?))
        })
        .collect()
}

/// Waits until every worker has a new pid and the log says the reload ended.
pub(super) async fn wait_replaced(
    server: &Server,
    before: &std::collections::BTreeMap<String, u32>,
) {
    let deadline = Instant::now() + READY_TIMEOUT;
    loop {
        let now = server.workers();
        let replaced = ["storage", "kube-api", "extensions", "aggregator"]
            .iter()
            .all(|r| now.get(*r).is_some_and(|p| Some(p) != before.get(*r)));
        let log = server.log();
        if let (true, Some(done)) = (replaced, log.find("reload complete")) {
            // READY=1 only once the old front door stopped accepting: a connection made
            // after it meets the new configuration.
            let stopped = log.find("the replaced front door stopped accepting");
            assert!(
                stopped.is_some_and(|s| s < done),
                "reload reported complete before the old front door stopped accepting:\n{log}"
            );
            // The store handed its data over: released (reads answered meanwhile), then
            // stopped answering before its successor applied writes.
            let released = log.find("the store worker releases its data");
            let store_stopped = log.find("the replaced store stopped answering");
            assert!(
                released.is_some_and(|r| store_stopped.is_some_and(|s| r < s && s < done)),
                "the store was not handed over in order:\n{log}"
            );
            assert!(log.contains("data released to the successor"), "{log}");
            // The next replacement starts only once the old store stopped answering.
            let kube_api_started = log.find(&format!("worker=kube-api pid={} ", now["kube-api"]));
            assert!(
                store_stopped.is_some_and(|s| kube_api_started.is_some_and(|k| s < k)),
                "the kube-api replacement started before the old store stopped:\n{log}"
            );
            // Replacements other than the store's start on idle CPU only (SCHED_IDLE) and
            // are scheduled as the others (SCHED_OTHER, nice 0) when they take over.
            for role in ["kube-api", "extensions", "aggregator"] {
                let started = format!("worker={role} pid={} generation=", now[role]);
                assert!(
                    log.lines()
                        .any(|l| l.contains(&started) && l.contains("scheduling=\"idle\"")),
                    "{role} did not start idle:\n{log}"
                );
            }
            for (role, pid) in &now {
                let threads = scheduling_of(*pid);
                assert!(
                    !threads.is_empty() && threads.iter().all(|t| *t == (0, 0)),
                    "{role} ({pid}) still lowered: {threads:?}"
                );
            }
            return;
        }
        assert!(
            Instant::now() < deadline,
            "workers not replaced: {before:?} → {now:?}\n{}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// What one watcher saw.
#[derive(Debug, Default)]
struct Seen {
    names: BTreeSet<String>,
    /// Streams that ended and were resumed from the last resourceVersion.
    resumed: usize,
    /// ERROR events (a 410 would mean the resume point was lost).
    errors: Vec<String>,
}

/// A client-go style watcher of the default namespace's ConfigMaps: on a stream's end it
/// watches again from the last resourceVersion it saw (event or bookmark).
fn watcher(server: &Server, from: String, stop: Arc<AtomicBool>) -> Arc<Mutex<Seen>> {
    let seen = Arc::new(Mutex::new(Seen::default()));
    let tls = server.tls_config(&[b"http/1.1"], false);
    let port = server.port;
    let out = seen.clone();
    tokio::spawn(async move {
        let mut rv = from;
        while !stop.load(Ordering::Relaxed) {
            let path = format!(
                "/api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=true&resourceVersion={rv}"
            );
            let Ok(tcp) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await else {
                continue;
            };
            let Ok(stream) = tokio_rustls::TlsConnector::from(tls.clone())
                .connect(ServerName::try_from("localhost").expect("name"), tcp)
                .await
            else {
                continue;
            };
            let Ok((mut send, conn)) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream)).await
            else {
                continue;
            };
            tokio::spawn(conn);
            let req = http::Request::get(format!("https://localhost:{port}{path}"))
                .header("host", format!("localhost:{port}"))
                .body(http_body_util::Full::new(Bytes::new()))
                .expect("request");
            let Ok(resp) = send.send_request(req).await else {
                continue;
            };
            let mut body = resp.into_body();
            let mut buf = Vec::new();
            while let Some(Ok(frame)) = body.frame().await {
                let Ok(data) = frame.into_data() else {
                    continue;
                };
                buf.extend_from_slice(&data);
                while let Some(end) = buf.iter().position(|b| *b == b'\n') {
                    let line: Vec<u8> = buf.drain(..=end).collect();
                    let Ok(event) = serde_json::from_slice::<serde_json::Value>(&line) else {
                        continue;
                    };
                    let object = &event["object"];
                    if let Some(v) = object["metadata"]["resourceVersion"].as_str() {
                        rv = v.to_owned();
                    }
                    let mut seen = out.lock().expect("seen");
                    match event["type"].as_str() {
                        Some("ADDED") => {
                            if let Some(name) = object["metadata"]["name"].as_str() {
                                seen.names.insert(name.to_owned());
                            }
                        }
                        Some("ERROR") => seen.errors.push(object.to_string()),
                        _ => {}
                    }
                }
            }
            out.lock().expect("seen").resumed += 1;
        }
    });
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn reload_replaces_every_worker_under_load_without_a_failed_request() {
    let (_dir, tokens, server) = with_token_file().await;
    assert_eq!(status_with_token(&server, "token-one").await, 200);
    assert_eq!(status_with_token(&server, "token-two").await, 401);
    let before = server.workers();

    let list = server.get("/api/v1/namespaces/default/configmaps").await;
    let from = list.json()["metadata"]["resourceVersion"]
        .as_str()
        .expect("rv")
        .to_owned();
    let stop = Arc::new(AtomicBool::new(false));
    // The watchers resume until they are judged: a drained worker ends its watches over
    // up to 2 s, some of them after the load stopped.
    let stop_watches = Arc::new(AtomicBool::new(false));
    let watchers: Vec<_> = (0..10)
        .map(|_| watcher(&server, from.clone(), stop_watches.clone()))
        .collect();
    let load = Load::start(
        &server,
        &[
            "/api/v1/namespaces/default",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            "/version",
        ],
        2,
    );
    // A writer: every ConfigMap it is told was created must be there (and be seen by
    // every watcher) afterwards.
    let created = Arc::new(Mutex::new(Vec::<String>::new()));
    let write_failures = Arc::new(Mutex::new(Vec::<String>::new()));
    let writer = {
        let (created, failures, stop) = (created.clone(), write_failures.clone(), stop.clone());
        let mut conn = server.conn(true);
        tokio::spawn(async move {
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                let name = format!("cm-{i}");
                i += 1;
                let body = serde_json::json!({
                    "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}
                });
                let path = "/api/v1/namespaces/default/configmaps";
                match conn
                    .send(Method::POST, path, Bytes::from(body.to_string()))
                    .await
                {
                    Ok(r) if r.status == 201 => created.lock().expect("created").push(name),
                    Ok(r) => failures.lock().expect("failures").push(format!(
                        "{name}: {} {}",
                        r.status,
                        r.text()
                    )),
                    Err(e) => failures
                        .lock()
                        .expect("failures")
                        .push(format!("{name}: {e}")),
                }
            }
        })
    };
    while load.snapshot().len() < 100 || created.lock().expect("created").len() < 10 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    // A new token in the file takes effect with the reload.
    std::fs::write(
        &tokens,
        format!("{TOKENS}token-two,bob,uid-2,system:masters\n"),
    )
    .expect("tokens");
    server.signal(Signal::SIGHUP);
    wait_replaced(&server, &before).await;
    let after_reload = load.snapshot().len();
    while load.snapshot().len() < after_reload + 100 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    stop.store(true, Ordering::Relaxed);
    let samples = load.finish().await;
    let _ = writer.await;

    let failed: Vec<_> = samples.iter().filter(|s| !s.ok).collect();
    assert!(
        failed.is_empty(),
        "{} of {} requests failed: {:?}\n{}",
        failed.len(),
        samples.len(),
        &failed[..failed.len().min(5)],
        server.log()
    );
    let write_failures = write_failures.lock().expect("failures").clone();
    assert!(write_failures.is_empty(), "{write_failures:?}");
    let created = created.lock().expect("created").clone();
    let stored = server
        .get("/api/v1/namespaces/default/configmaps")
        .await
        .json();
    let stored: BTreeSet<&str> = stored["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|o| o["metadata"]["name"].as_str())
        .collect();
    for name in &created {
        assert!(
            stored.contains(name.as_str()),
            "{name} acknowledged but not stored"
        );
    }

    // Every watcher saw every acknowledged write, resuming (not relisting) after the
    // replaced workers ended its streams.
    let deadline = Instant::now() + Duration::from_secs(15);
    for w in &watchers {
        loop {
            let complete = {
                let seen = w.lock().expect("seen");
                assert!(seen.errors.is_empty(), "{:?}", seen.errors);
                let complete = created.iter().all(|n| seen.names.contains(n));
                assert!(
                    complete || Instant::now() < deadline,
                    "a watcher missed writes: {seen:?}"
                );
                // The old front door ends its watches over up to 2 s after it drained.
                assert!(
                    seen.resumed >= 1 || Instant::now() < deadline,
                    "no watch was ended by the reload"
                );
                complete && seen.resumed >= 1
            };
            if complete {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    stop_watches.store(true, Ordering::Relaxed);

    assert_eq!(status_with_token(&server, "token-two").await, 200);
    assert!(server.log().contains("replaced worker stopped"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_configuration_is_refused_and_the_workers_keep_serving() {
    let (_dir, tokens, server) = with_token_file().await;
    let before = server.workers();

    std::fs::write(&tokens, format!("{TOKENS}token-two,bob\n")).expect("tokens");
    server.signal(Signal::SIGHUP);
    let deadline = Instant::now() + READY_TIMEOUT;
    while !server.log().contains("reload refused") {
        assert!(Instant::now() < deadline, "{}", server.log());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let log = server.log();
    assert!(
        log.contains("must have at least 3 columns (token, user name, user uid), found 2 (line 2)"),
        "{log}"
    );
    assert_eq!(server.workers(), before, "no worker may be replaced");
    assert_eq!(status_with_token(&server, "token-one").await, 200);
    assert_eq!(status_with_token(&server, "token-two").await, 401);

    // Fixed, the next reload goes through.
    std::fs::write(&tokens, format!("{TOKENS}token-two,bob,uid-2\n")).expect("tokens");
    server.signal(Signal::SIGHUP);
    wait_replaced(&server, &before).await;
    assert_eq!(status_with_token(&server, "token-two").await, 403);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reloads_during_a_reload_coalesce_and_sigterm_stops_one() {
    let mut server = Server::builder().start().await;
    let before = server.workers();
    let received = |server: &Server| server.log().matches("received signal, reloading").count();
    server.signal(Signal::SIGHUP);
    let deadline = Instant::now() + READY_TIMEOUT;
    while received(&server) < 1 {
        assert!(Instant::now() < deadline, "{}", server.log());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Two more while the first runs (a replacement takes a few hundred ms to be ready).
    server.signal(Signal::SIGHUP);
    server.signal(Signal::SIGHUP);
    while server.log().matches("reload complete").count() < 2 {
        assert!(Instant::now() < deadline, "{}", server.log());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let log = server.log();
    assert!(
        log.contains("another follows this one"),
        "the signals were not coalesced:\n{log}"
    );
    wait_replaced(&server, &before).await;
    assert_eq!(server.get("/api/v1/namespaces/default").await.status, 200);

    // SIGTERM while a reload runs: the replacement goes, the tree stops as usual.
    let workers = server.workers();
    let seen = received(&server);
    server.signal(Signal::SIGHUP);
    let deadline = Instant::now() + READY_TIMEOUT;
    while received(&server) <= seen {
        assert!(Instant::now() < deadline, "{}", server.log());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.signal(Signal::SIGTERM);
    let status = server.wait_exit(READY_TIMEOUT).await.expect("exit");
    assert_eq!(status.code(), Some(0), "{}", server.log());
    let deadline = Instant::now() + Duration::from_secs(5);
    while super::harness::workers_of(server.pid())
        .values()
        .any(|p| super::alive(*p))
        || workers.values().any(|p| super::alive(*p))
    {
        assert!(Instant::now() < deadline, "workers left behind");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The file each process of the tree runs, as `/proc/<pid>/exe` names it (" (deleted)"
/// when the file it was started from has been replaced since).
fn executables(server: &Server) -> Vec<(String, String)> {
    let exe = |pid: u32| {
        std::fs::read_link(format!("/proc/{pid}/exe"))
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    };
    std::iter::once(("supervisor".to_owned(), exe(server.pid())))
        .chain(
            server
                .workers()
                .into_iter()
                .map(|(role, pid)| (role, exe(pid))),
        )
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reload_after_the_binary_was_replaced_runs_the_new_one_under_the_same_pid() {
    let dir = tempfile::tempdir().expect("tempdir");
    let installed = dir.path().join("kube-apiserver");
    std::fs::copy(super::harness::BIN, &installed).expect("copy the binary");
    let server = Server::builder().binary(&installed).start().await;
    let pid = server.pid();
    let before = server.workers();
    let load = Load::start(&server, &["/api/v1/namespaces/default", "/version"], 2);
    while load.snapshot().len() < 100 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    // An upgrade as a package manager does it: a new file renamed over the old one.
    let staged = dir.path().join("kube-apiserver.new");
    std::fs::copy(super::harness::BIN, &staged).expect("copy the binary");
    std::fs::rename(&staged, &installed).expect("replace the binary");
    let path = installed.display().to_string();
    assert!(executables(&server)
        .iter()
        .all(|(_, exe)| exe.ends_with("(deleted)")));

    server.signal(Signal::SIGHUP);
    wait_replaced(&server, &before).await;
    let deadline = Instant::now() + READY_TIMEOUT;
    loop {
        let exes = executables(&server);
        let upgraded = exes.iter().all(|(_, exe)| *exe == path);
        if upgraded {
            break;
        }
        assert!(Instant::now() < deadline, "{exes:?}\n{}", server.log());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(server.pid(), pid, "the supervisor keeps its PID");
    let log = server.log();
    assert!(log.contains("re-executed in place"), "{log}");
    let after = load.snapshot().len();
    while load.snapshot().len() < after + 100 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let samples = load.finish().await;
    let failed: Vec<_> = samples.iter().filter(|s| !s.ok).collect();
    assert!(
        failed.is_empty(),
        "{} of {} requests failed: {:?}\n{log}",
        failed.len(),
        samples.len(),
        &failed[..failed.len().min(5)],
    );
    assert_eq!(server.get("/api/v1/namespaces/default").await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replaced_binary_that_does_not_run_fails_the_reload_and_nothing_changes() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let installed = dir.path().join("kube-apiserver");
    std::fs::copy(super::harness::BIN, &installed).expect("copy the binary");
    let server = Server::builder().binary(&installed).start().await;
    let before = server.workers();

    // A broken upgrade: something that is not this server.
    let staged = dir.path().join("kube-apiserver.new");
    std::fs::write(&staged, "#!/bin/sh\necho 'not today' >&2\nexit 3\n").expect("script");
    std::fs::set_permissions(&staged, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::rename(&staged, &installed).expect("replace the binary");
    server.signal(Signal::SIGHUP);
    let deadline = Instant::now() + READY_TIMEOUT;
    while !server.log().contains("the new binary does not run") {
        assert!(Instant::now() < deadline, "{}", server.log());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(server.log().contains("not today"), "{}", server.log());
    assert_eq!(server.workers(), before, "no worker may be replaced");
    assert_eq!(server.get("/api/v1/namespaces/default").await.status, 200);

    // The right binary, and the upgrade goes through.
    std::fs::copy(super::harness::BIN, &staged).expect("copy the binary");
    std::fs::rename(&staged, &installed).expect("replace the binary");
    server.signal(Signal::SIGHUP);
    wait_replaced(&server, &before).await;
    assert!(server.log().contains("re-executed in place"));
    assert_eq!(server.get("/api/v1/namespaces/default").await.status, 200);
}

/// A replacement that cannot get ready on idle CPU within 1 s (here: etcd is down, so
/// the new kube-api waits for it) is scheduled as an ordinary process at nice 10 rather
/// than left on idle CPU only, which a saturated machine never has; once it takes over
/// it is scheduled as the others.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replacement_not_ready_on_idle_cpu_shares_the_busy_cpu_below_the_others() {
    if !super::harness::require_tool("etcd") {
        return;
    }
    let mut etcd = super::harness::Etcd::new();
    etcd.start();
    let server = Server::builder()
        .arg(format!("--etcd-servers={}", etcd.url()))
        .start()
        .await;
    etcd.kill();
    server.signal(Signal::SIGHUP);
    let deadline = Instant::now() + READY_TIMEOUT;
    let busy = "reload: the new worker is not ready on idle CPU alone";
    while !server.log().contains(busy) {
        assert!(Instant::now() < deadline, "{}", server.log());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let log = server.log();
    let line = log.lines().find(|l| l.contains(busy)).unwrap_or_default();
    assert!(
        line.contains("worker=kube-api") && line.contains("nice=10"),
        "{line}"
    );
    let pid: u32 = line
        .split("pid=")
        .nth(1)
        .and_then(|p| p.split_whitespace().next())
        .and_then(|p| p.parse().ok())
        .expect("pid in the log line");
    let threads = scheduling_of(pid);
    assert!(
        !threads.is_empty() && threads.iter().all(|t| *t == (0, 10)),
        "{threads:?}"
    );
    assert!(
        !server
            .log()
            .contains("the new worker serves; the old one drains worker=kube-api"),
        "took over without etcd"
    );

    etcd.start();
    let deadline = Instant::now() + READY_TIMEOUT;
    loop {
        let now = server.workers();
        let log = server.log();
        if log.contains("reload complete") {
            assert_eq!(now["kube-api"], pid);
            for (role, pid) in &now {
                let threads = scheduling_of(*pid);
                assert!(threads.iter().all(|t| *t == (0, 0)), "{role}: {threads:?}");
            }
            break;
        }
        assert!(Instant::now() < deadline, "{log}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
