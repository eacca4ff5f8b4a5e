//! Reload and binary upgrade under load (issue 18's benchmark): the server runs from a
//! copy of its binary with `NOTIFY_SOCKET` pointing here, so the reload time is measured
//! from SIGHUP to the supervisor's `READY=1`. GET clients, ConfigMap writers and watchers
//! run throughout; the report compares GET latency in the steady state with GET latency
//! while a reload runs, then while a binary upgrade runs (the file replaced by rename),
//! and checks what the issue promises: no failed request, no acknowledged write lost, and
//! every watcher seeing every write without a relist.
//!
//! Clients behave as Go's: a request that fails on a reused connection before any answer
//! is sent once more on a fresh connection (a draining server closes idle connections).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::Method;
use http_body_util::BodyExt;
use rustls::ClientConfig;
use serde::Serialize;

use crate::client::{Conn, Protocol, Target};
use crate::stats::Spread;
use crate::tls::{client_config, ClientIdentity, ServerTrust, ALPN_H2, ALPN_HTTP1};
use crate::Error;

/// What to run.
#[derive(Debug, Clone)]
pub struct ReloadSpec {
    /// The kube-apiserver binary (copied; the copy is what runs and is replaced).
    pub server: PathBuf,
    /// Scratch directory (binary copy, data dir, notify socket, log).
    pub work_dir: PathBuf,
    /// Connections sending GETs in a loop.
    pub getters: usize,
    /// Connections creating ConfigMaps in a loop.
    pub writers: usize,
    /// Watches of the ConfigMaps.
    pub watchers: usize,
    /// Steady state measured before the reload, and the pause after each reload.
    pub steady: Duration,
}

/// GET latency in one window.
#[derive(Debug, Clone, Serialize)]
pub struct Window {
    /// What the window is.
    pub name: String,
    /// Its length, ms.
    pub ms: f64,
    /// GETs answered in it, with their latency (µs).
    pub get: Spread,
    /// Requests of any kind that failed in it.
    pub failed: usize,
}

/// The outcome.
#[derive(Debug, Clone, Serialize)]
pub struct ReloadReport {
    /// Steady state, during the reload, during the upgrade.
    pub windows: Vec<Window>,
    /// SIGHUP → `READY=1` for the reload, ms.
    pub reload_ms: f64,
    /// SIGHUP → `READY=1` for the binary upgrade, ms.
    pub upgrade_ms: f64,
    /// Requests sent in all (GET and POST).
    pub requests: usize,
    /// Failed requests in all, and the first few answers.
    pub failed: usize,
    /// The first failures.
    pub failures: Vec<String>,
    /// ConfigMaps the server said it created.
    pub writes_acknowledged: usize,
    /// Of those, missing from a LIST at the end.
    pub writes_lost: usize,
    /// Watchers, and how many of them missed an acknowledged write.
    pub watchers: usize,
    /// Watchers that missed a write.
    pub watchers_missing_writes: usize,
    /// ERROR events (a 410 would mean a relist).
    pub watch_errors: usize,
    /// Watch streams that ended and were resumed from their last resourceVersion.
    pub watch_resumes: usize,
    /// The supervisor kept its PID through the upgrade.
    pub same_supervisor_pid: bool,
    /// Every process runs the new binary after the upgrade.
    pub all_on_new_binary: bool,
}

/// One request's fate.
#[derive(Debug, Clone)]
struct Sample {
    sent: Instant,
    took: Duration,
    get: bool,
    failure: Option<String>,
}

#[derive(Debug, Default)]
struct Watched {
    names: BTreeSet<String>,
    errors: usize,
    resumes: usize,
}

/// A connection that re-dials, and re-sends once a request that a reused connection
/// failed before any answer.
struct Client {
    target: Target,
    tls: Arc<ClientConfig>,
    protocol: Protocol,
    conn: Option<Conn>,
}

impl Client {
    fn new(target: Target, tls: Arc<ClientConfig>, protocol: Protocol) -> Self {
        Self {
            target,
            tls,
            protocol,
            conn: None,
        }
    }

    async fn call(
        &mut self,
        method: &Method,
        path: &str,
        body: Bytes,
    ) -> Result<(u16, Bytes), String> {
        let target = self.target.with_path(path).map_err(|e| e.to_string())?;
        let reused = self.conn.is_some();
        match self.once(&target, method, body.clone()).await {
            Err((false, e)) if reused => {
                let _ = e;
                self.once(&target, method, body).await.map_err(|(_, e)| e)
            }
            r => r.map_err(|(_, e)| e),
        }
    }

    /// One try; the error says whether an answer had begun.
    async fn once(
        &mut self,
        target: &Target,
        method: &Method,
        body: Bytes,
    ) -> Result<(u16, Bytes), (bool, String)> {
        if self.conn.is_none() {
            let conn = Conn::connect(target, self.tls.clone(), self.protocol)
                .await
                .map_err(|e| (false, e.to_string()))?;
            self.conn = Some(conn);
        }
        let headers = [(
            http::header::CONTENT_TYPE,
            http::HeaderValue::from_static("application/json"),
        )];
        let req = target
            .request(self.protocol, method, &headers, body)
            .map_err(|e| (false, e.to_string()))?;
        let Some(conn) = self.conn.as_mut() else {
            return Err((false, "no connection".into()));
        };
        let resp = match conn.send(req).await {
            Ok(r) => r,
            Err(e) => {
                self.conn = None;
                return Err((false, e.to_string()));
            }
        };
        let status = resp.status().as_u16();
        match resp.into_body().collect().await {
            Ok(b) => Ok((status, b.to_bytes())),
            Err(e) => {
                self.conn = None;
                Err((true, e.to_string()))
            }
        }
    }
}

/// Runs the benchmark.
pub async fn run(spec: &ReloadSpec) -> Result<ReloadReport, Error> {
    let io = |what: &str, e: std::io::Error| Error::Setup(format!("{what}: {e}"));
    std::fs::create_dir_all(spec.work_dir.join("bin")).map_err(|e| io("work dir", e))?;
    let binary = spec.work_dir.join("bin/kube-apiserver");
    std::fs::copy(&spec.server, &binary).map_err(|e| io("copying the server", e))?;
    let notify_path = spec.work_dir.join("notify.sock");
    let _ = std::fs::remove_file(&notify_path);
    let notify =
        tokio::net::UnixDatagram::bind(&notify_path).map_err(|e| io("notify socket", e))?;
    let notes: Arc<Mutex<Vec<(Instant, String)>>> = Arc::default();
    {
        let notes = notes.clone();
        tokio::spawn(async move {
            let mut buf = vec![0u8; 4096];
            while let Ok(n) = notify.recv(&mut buf).await {
                let text = String::from_utf8_lossy(&buf[..n]).into_owned();
                if let Ok(mut notes) = notes.lock() {
                    notes.push((Instant::now(), text));
                }
            }
        });
    }
    let port = crate::startup::free_port()?;
    let data = spec.work_dir.join("data");
    let log = std::fs::File::create(spec.work_dir.join("server.log")).map_err(|e| io("log", e))?;
    let err = log.try_clone().map_err(|e| io("log", e))?;
    let mut child = tokio::process::Command::new(&binary)
        .arg(format!("--secure-port={port}"))
        .arg("--bind-address=127.0.0.1")
        .arg(format!("--data-dir={}", data.display()))
        .env("NOTIFY_SOCKET", &notify_path)
        .stdin(std::process::Stdio::null())
        .stdout(log)
        .stderr(err)
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| io("starting the server", e))?;
    let supervisor = child.id().unwrap_or(0);
    let started = Instant::now();
    wait_note(&notes, started, "READY=1", Duration::from_secs(60)).await?;

    let pki = data.join("pki");
    let trust = ServerTrust::CaFile(pki.join("ca.crt"));
    let identity = ClientIdentity {
        cert: pki.join("admin.crt"),
        key: pki.join("admin.key"),
    };
    let h1 = client_config(&trust, Some(&identity), &[ALPN_HTTP1])?;
    let h2 = client_config(&trust, Some(&identity), &[ALPN_H2])?;
    let base = Target::parse(&format!("https://127.0.0.1:{port}/"))?;
    let tls_for = |p: Protocol| {
        if p == Protocol::Http2 {
            h2.clone()
        } else {
            h1.clone()
        }
    };
    let proto = |i: usize| {
        if i.is_multiple_of(2) {
            Protocol::Http2
        } else {
            Protocol::Http1
        }
    };

    let cms = "/api/v1/namespaces/default/configmaps";
    let mut setup = Client::new(base.clone(), h2.clone(), Protocol::Http2);
    let probe = serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "probe"}, "data": {"k": "v"}});
    setup
        .call(&Method::POST, cms, Bytes::from(probe.to_string()))
        .await
        .map_err(Error::Setup)?;
    let (_, list) = setup
        .call(&Method::GET, cms, Bytes::new())
        .await
        .map_err(Error::Setup)?;
    let from = serde_json::from_slice::<serde_json::Value>(&list)
        .ok()
        .and_then(|v| v["metadata"]["resourceVersion"].as_str().map(str::to_owned))
        .unwrap_or_default();

    let stop = Arc::new(AtomicBool::new(false));
    let stop_watches = Arc::new(AtomicBool::new(false));
    let samples: Arc<Mutex<Vec<Sample>>> = Arc::default();
    let acknowledged: Arc<Mutex<Vec<String>>> = Arc::default();
    let mut tasks = Vec::new();
    for i in 0..spec.getters {
        let mut client = Client::new(base.clone(), tls_for(proto(i)), proto(i));
        let (stop, samples) = (stop.clone(), samples.clone());
        tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let sent = Instant::now();
                let r = client
                    .call(&Method::GET, &format!("{cms}/probe"), Bytes::new())
                    .await;
                let failure = match r {
                    Ok((200, _)) => None,
                    Ok((code, body)) => {
                        Some(format!("GET {code} {}", String::from_utf8_lossy(&body)))
                    }
                    Err(e) => Some(format!("GET: {e}")),
                };
                push(
                    &samples,
                    Sample {
                        sent,
                        took: sent.elapsed(),
                        get: true,
                        failure,
                    },
                );
            }
        }));
    }
    for i in 0..spec.writers {
        let mut client = Client::new(base.clone(), tls_for(proto(i)), proto(i));
        let (stop, samples, acknowledged) = (stop.clone(), samples.clone(), acknowledged.clone());
        tasks.push(tokio::spawn(async move {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let name = format!("w{i}-{n}");
                n += 1;
                let body = serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}});
                let sent = Instant::now();
                let r = client.call(&Method::POST, cms, Bytes::from(body.to_string())).await;
                let failure = match r {
                    Ok((201, _)) => {
                        if let Ok(mut a) = acknowledged.lock() {
                            a.push(name);
                        }
                        None
                    }
                    Ok((code, body)) => Some(format!("POST {code} {}", String::from_utf8_lossy(&body))),
                    Err(e) => Some(format!("POST: {e}")),
                };
                push(&samples, Sample { sent, took: sent.elapsed(), get: false, failure });
            }
        }));
    }
    let mut watch_tasks = Vec::new();
    let watched: Vec<Arc<Mutex<Watched>>> = (0..spec.watchers)
        .map(|i| {
            let seen: Arc<Mutex<Watched>> = Arc::default();
            let client = Client::new(base.clone(), tls_for(proto(i)), proto(i));
            watch_tasks.push(tokio::spawn(watch(
                client,
                from.clone(),
                seen.clone(),
                stop_watches.clone(),
            )));
            seen
        })
        .collect();

    // Steady state, then a reload, then a binary upgrade.
    tokio::time::sleep(spec.steady).await;
    let steady_from = started.max(Instant::now() - spec.steady + Duration::from_secs(1));
    let reload_at = Instant::now();
    let reload_wall = std::time::SystemTime::now();
    signal(supervisor, nix::sys::signal::Signal::SIGHUP)?;
    let reload_ready = wait_note(&notes, reload_at, "READY=1", Duration::from_secs(120)).await?;
    tokio::time::sleep(spec.steady / 2).await;

    let staged = spec.work_dir.join("bin/kube-apiserver.new");
    std::fs::copy(&spec.server, &staged).map_err(|e| io("staging the new binary", e))?;
    std::fs::rename(&staged, &binary).map_err(|e| io("replacing the binary", e))?;
    let upgrade_at = Instant::now();
    signal(supervisor, nix::sys::signal::Signal::SIGHUP)?;
    let upgrade_ready = wait_note(&notes, upgrade_at, "READY=1", Duration::from_secs(120)).await?;
    tokio::time::sleep(spec.steady / 2).await;
    stop.store(true, Ordering::Relaxed);
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(10), t).await;
    }
    // The watchers get the last writes' events before they are judged.
    let acknowledged_now = acknowledged.lock().map(|a| a.clone()).unwrap_or_default();
    let caught_up = |w: &Arc<Mutex<Watched>>| {
        w.lock()
            .map(|w| acknowledged_now.iter().all(|n| w.names.contains(n)))
            .unwrap_or(false)
    };
    let deadline = Instant::now() + Duration::from_secs(15);
    while !watched.iter().all(caught_up) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop_watches.store(true, Ordering::Relaxed);
    for t in watch_tasks {
        let _ = tokio::time::timeout(Duration::from_secs(10), t).await;
    }

    let exe = |pid: u32| std::fs::read_link(format!("/proc/{pid}/exe")).unwrap_or_default();
    let all_on_new_binary = std::iter::once(supervisor)
        .chain(
            crate::procfs::workers(supervisor)
                .into_iter()
                .map(|(pid, _)| pid),
        )
        .all(|pid| exe(pid) == binary);
    let same_supervisor_pid = child.try_wait().ok().flatten().is_none();

    // Every acknowledged write is stored and was seen by every watcher.
    let acknowledged = acknowledged.lock().map(|a| a.clone()).unwrap_or_default();
    let (_, list) = setup
        .call(&Method::GET, cms, Bytes::new())
        .await
        .map_err(Error::Setup)?;
    let stored: BTreeSet<String> = serde_json::from_slice::<serde_json::Value>(&list)
        .ok()
        .and_then(|v| v["items"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|o| o["metadata"]["name"].as_str().map(str::to_owned))
        .collect();
    let writes_lost = acknowledged.iter().filter(|n| !stored.contains(*n)).count();
    let (mut missing, mut errors, mut resumes) = (0, 0, 0);
    for w in &watched {
        if let Ok(w) = w.lock() {
            missing += usize::from(acknowledged.iter().any(|n| !w.names.contains(n)));
            errors += w.errors;
            resumes += w.resumes;
        }
    }

    let samples = samples.lock().map(|s| s.clone()).unwrap_or_default();
    let window = |name: &str, from: Instant, to: Instant| {
        let within: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.sent >= from && s.sent <= to)
            .collect();
        let gets: Vec<f64> = within
            .iter()
            .filter(|s| s.get && s.failure.is_none())
            .map(|s| s.took.as_secs_f64() * 1e6)
            .collect();
        Window {
            name: name.to_owned(),
            ms: to.duration_since(from).as_secs_f64() * 1e3,
            get: Spread::of(&gets),
            failed: within.iter().filter(|s| s.failure.is_some()).count(),
        }
    };
    if let Some(path) = std::env::var_os("KAS_RELOAD_SAMPLES") {
        dump_samples(
            &path,
            &samples,
            (reload_at, upgrade_at, upgrade_ready),
            reload_wall,
        );
    }
    let failures: Vec<String> = samples.iter().filter_map(|s| s.failure.clone()).collect();
    let report = ReloadReport {
        windows: vec![
            window("steady state", steady_from, reload_at),
            window("during the reload", reload_at, reload_ready),
            window("during the binary upgrade", upgrade_at, upgrade_ready),
        ],
        reload_ms: reload_ready.duration_since(reload_at).as_secs_f64() * 1e3,
        upgrade_ms: upgrade_ready.duration_since(upgrade_at).as_secs_f64() * 1e3,
        requests: samples.len(),
        failed: failures.len(),
        failures: failures.into_iter().take(5).collect(),
        writes_acknowledged: acknowledged.len(),
        writes_lost,
        watchers: watched.len(),
        watchers_missing_writes: missing,
        watch_errors: errors,
        watch_resumes: resumes,
        same_supervisor_pid,
        all_on_new_binary,
    };
    signal(supervisor, nix::sys::signal::Signal::SIGTERM)?;
    let _ = tokio::time::timeout(Duration::from_secs(30), child.wait()).await;
    Ok(report)
}

/// For looking into a slow reload: every request sent from 200 ms before the reload to
/// 200 ms after it, as CSV (ms since the SIGHUP, ms taken, GET or write, failure), the
/// SIGHUP's wall clock first to line it up with the server's log.
fn dump_samples(
    path: &std::ffi::OsStr,
    samples: &[Sample],
    (from, upgrade_at, to): (Instant, Instant, Instant),
    wall: std::time::SystemTime,
) {
    let since_epoch = wall
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let mut out = format!(
        "# SIGHUP at {:.3} (unix seconds); the upgrade's at +{:.1} ms\n",
        since_epoch.as_secs_f64(),
        upgrade_at.duration_since(from).as_secs_f64() * 1e3
    );
    let margin = Duration::from_millis(200);
    let offset = |t: Instant| {
        if t >= from {
            t.duration_since(from).as_secs_f64() * 1e3
        } else {
            -(from.duration_since(t).as_secs_f64() * 1e3)
        }
    };
    for s in samples
        .iter()
        .filter(|s| s.sent + margin >= from && s.sent <= to + margin)
    {
        out.push_str(&format!(
            "{:.2},{:.2},{},{}\n",
            offset(s.sent),
            s.took.as_secs_f64() * 1e3,
            if s.get { "get" } else { "write" },
            s.failure.as_deref().unwrap_or("")
        ));
    }
    if let Err(e) = std::fs::write(path, out) {
        eprintln!("writing the samples: {e}");
    }
}

fn push(samples: &Mutex<Vec<Sample>>, s: Sample) {
    if let Ok(mut v) = samples.lock() {
        v.push(s);
    }
}

fn signal(pid: u32, sig: nix::sys::signal::Signal) -> Result<(), Error> {
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), sig)
        .map_err(|e| Error::Setup(format!("signalling {pid}: {e}")))
}

/// The time of the first notification after `after` with a line `line`.
async fn wait_note(
    notes: &Mutex<Vec<(Instant, String)>>,
    after: Instant,
    line: &str,
    timeout: Duration,
) -> Result<Instant, Error> {
    let deadline = Instant::now() + timeout;
    loop {
        let found = notes.lock().ok().and_then(|n| {
            n.iter()
                .find(|(at, text)| *at >= after && text.lines().any(|l| l == line))
                .map(|(at, _)| *at)
        });
        if let Some(at) = found {
            return Ok(at);
        }
        if Instant::now() > deadline {
            return Err(Error::Setup(format!(
                "no {line} from the server within {timeout:?}"
            )));
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// A client-go style watcher: resumes from its last resourceVersion when a stream ends.
async fn watch(
    mut client: Client,
    mut rv: String,
    seen: Arc<Mutex<Watched>>,
    stop: Arc<AtomicBool>,
) {
    while !stop.load(Ordering::Relaxed) {
        let path = format!(
            "/api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=true&resourceVersion={rv}&timeoutSeconds=600"
        );
        let Ok(target) = client.target.with_path(&path) else {
            return;
        };
        if client.conn.is_none() {
            match Conn::connect(&target, client.tls.clone(), client.protocol).await {
                Ok(c) => client.conn = Some(c),
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            }
        }
        let Ok(req) = target.request(client.protocol, &Method::GET, &[], Bytes::new()) else {
            return;
        };
        let resp = match client.conn.as_mut().map(|c| c.send(req)) {
            Some(fut) => fut.await,
            None => continue,
        };
        let Ok(resp) = resp else {
            client.conn = None;
            continue;
        };
        let mut body = resp.into_body();
        let mut buf = Vec::new();
        loop {
            let frame = tokio::select! {
                f = body.frame() => f,
                () = wait_stop(&stop) => return,
            };
            let Some(Ok(frame)) = frame else { break };
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
                if let Ok(mut seen) = seen.lock() {
                    match event["type"].as_str() {
                        Some("ADDED") => {
                            if let Some(name) = object["metadata"]["name"].as_str() {
                                seen.names.insert(name.to_owned());
                            }
                        }
                        Some("ERROR") => seen.errors += 1,
                        _ => {}
                    }
                }
            }
        }
        if let Ok(mut seen) = seen.lock() {
            seen.resumes += 1;
        }
        // HTTP/1.1: the stream's end may have closed the connection.
        if client.protocol == Protocol::Http1 {
            client.conn = None;
        }
    }
}

async fn wait_stop(stop: &AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The report as Markdown (a section of the results file).
pub fn markdown(r: &ReloadReport, spec: &ReloadSpec) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "Load: {} GET connections (HTTP/2 and HTTP/1.1 alternating, one ConfigMap), {} ConfigMap writers, {} watches of the ConfigMaps (bookmarks on).\n\n",
        spec.getters, spec.writers, spec.watchers
    ));
    out.push_str("| window | length | GETs | GET p50 | GET p99 | failed requests |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");
    for w in &r.windows {
        out.push_str(&format!(
            "| {} | {:.0} ms | {} | {:.2} ms | {:.2} ms | {} |\n",
            w.name,
            w.ms,
            w.get.n,
            w.get.p50_us / 1e3,
            w.get.p99_us / 1e3,
            w.failed
        ));
    }
    let steady = r.windows.first().map(|w| w.get.p99_us).unwrap_or(0.0);
    let ratio = |i: usize| {
        r.windows
            .get(i)
            .map(|w| {
                if steady > 0.0 {
                    w.get.p99_us / steady
                } else {
                    0.0
                }
            })
            .unwrap_or(0.0)
    };
    out.push_str(&format!(
        "\n- SIGHUP → `READY=1`: reload {:.0} ms, binary upgrade {:.0} ms.\n\
         - GET p99 during the reload / steady: {:.2}× (target ≤ 2×); during the upgrade: {:.2}×.\n\
         - Requests: {} sent, {} failed{}.\n\
         - Writes: {} acknowledged, {} lost.\n\
         - Watches: {} watchers, {} missed a write, {} ERROR events, {} streams ended and resumed from their last resourceVersion.\n\
         - After the upgrade: supervisor PID unchanged: {}; every process runs the new file: {}.\n",
        r.reload_ms,
        r.upgrade_ms,
        ratio(1),
        ratio(2),
        r.requests,
        r.failed,
        if r.failures.is_empty() { String::new() } else { format!(" (first: {})", r.failures.join("; ")) },
        r.writes_acknowledged,
        r.writes_lost,
        r.watchers,
        r.watchers_missing_writes,
        r.watch_errors,
        r.watch_resumes,
        r.same_supervisor_pid,
        r.all_on_new_binary,
    ));
    out
}
