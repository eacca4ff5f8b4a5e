//! Per-worker limits (issue 18): `--worker-memory-limit` caps one worker's memory
//! (RLIMIT_DATA without a delegated cgroup v2); made to allocate past it (the `allocate`
//! failpoint), that worker fails alone and is restarted while the others keep serving.
//! With cgroup v2 the limits are cgroup files; these hosts mount cgroup v1, so that path
//! is checked against a directory standing in for the delegated cgroup
//! (`KUBE_APISERVER_RS_CGROUP_DIR`): what the server writes where, and how it reports a
//! worker the kernel killed at its memory limit.

use std::path::{Path, PathBuf};
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

/// Whether the kernel lets process `pid` use transparent huge pages (`/proc/<pid>/status`).
fn thp_enabled(pid: u32) -> String {
    read(Path::new(&format!("/proc/{pid}/status")))
        .lines()
        .find_map(|l| l.strip_prefix("THP_enabled:"))
        .map(|v| v.trim().to_owned())
        .unwrap_or_default()
}

/// mimalloc asks for huge pages; the server turns them off for itself and its workers
/// (each start zeroed whole 2 MiB regions), unless the operator sets mimalloc's own option.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workers_run_without_transparent_huge_pages_unless_asked() {
    let server = Server::builder().start().await;
    let workers = server.workers();
    assert_eq!(workers.len(), 4, "{workers:?}");
    for (role, pid) in &workers {
        assert_eq!(thp_enabled(*pid), "0", "{role}");
    }
    assert_eq!(thp_enabled(server.pid()), "0", "supervisor");
    drop(server);

    let server = Server::builder()
        .env("MIMALLOC_ALLOW_THP", "1")
        .start()
        .await;
    for (role, pid) in &server.workers() {
        assert_eq!(thp_enabled(*pid), "1", "{role}");
    }
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

#[test]
fn bad_cpu_limits_are_start_errors() {
    let out = Command::new(BIN)
        .arg("--worker-cpu-limit=extensions=many")
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(64), "{stderr}");
    assert!(
        stderr.contains("--worker-cpu-limit")
            && stderr.contains("is not a positive quantity of CPUs"),
        "{stderr}"
    );
}

/// Whether this host mounts the unified (v2) hierarchy.
fn delegated_cgroup_v2() -> bool {
    Path::new("/sys/fs/cgroup/cgroup.controllers").exists()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cpu_limits_without_cgroup_v2_are_a_start_error() {
    if delegated_cgroup_v2() {
        eprintln!("skipped: this host has a cgroup v2 hierarchy");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .arg("--worker-cpu-limit=extensions=500m")
        .arg(format!("--data-dir={}", dir.path().display()))
        .arg("--secure-port=0")
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("--worker-cpu-limit needs a cgroup v2 hierarchy delegated to this service")
            && stderr.contains("cgroup v1"),
        "{stderr}"
    );
    assert!(!dir.path().join("admin.kubeconfig").exists());
}

/// The cgroup directory of `role`'s current process.
fn worker_cgroup(base: &Path, role: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(base)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_prefix(role))
                .and_then(|rest| rest.strip_prefix('-'))
                .is_some_and(|g| g.parse::<u64>().is_ok())
        })
        .collect();
    dirs.sort();
    dirs
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cgroup_v2_limits_are_written_per_worker_process() {
    let cg = tempfile::tempdir().unwrap();
    let base = cg.path();
    std::fs::write(
        base.join("cgroup.controllers"),
        "cpuset cpu io memory pids\n",
    )
    .unwrap();
    std::fs::write(base.join("cgroup.procs"), "").unwrap();
    std::fs::write(base.join("cgroup.subtree_control"), "").unwrap();
    let server = Server::builder()
        .env("KUBE_APISERVER_RS_CGROUP_DIR", base.to_str().unwrap())
        .arg("--worker-memory-limit=kube-api=300Mi")
        .arg("--worker-cpu-limit=extensions=500m,kube-api=2")
        .start()
        .await;
    // The supervisor left the delegated cgroup for a leaf, so the controllers could be
    // handed to the workers' cgroups.
    assert_eq!(
        read(&base.join("supervisor/cgroup.procs")),
        server.pid().to_string()
    );
    assert_eq!(read(&base.join("cgroup.subtree_control")), "+memory +cpu");
    let kube_api = worker_cgroup(base, "kube-api");
    assert_eq!(kube_api.len(), 1, "{kube_api:?}");
    let kube_api = &kube_api[0];
    assert_eq!(read(&kube_api.join("memory.max")), "314572800");
    assert_eq!(read(&kube_api.join("memory.oom.group")), "1");
    assert_eq!(read(&kube_api.join("cpu.max")), "200000 100000");
    // The child moved itself in between fork and exec.
    assert_eq!(read(&kube_api.join("cgroup.procs")), "0");
    let extensions = worker_cgroup(base, "extensions");
    assert_eq!(extensions.len(), 1, "{extensions:?}");
    assert_eq!(read(&extensions[0].join("cpu.max")), "50000 100000");
    assert!(!extensions[0].join("memory.max").exists());
    // Workers without limits stay beside the supervisor.
    assert!(worker_cgroup(base, "aggregator").is_empty());
    assert!(worker_cgroup(base, "storage").is_empty());
    // cgroup v2 replaces RLIMIT_DATA.
    let before = server.workers();
    let pid = before["kube-api"];
    let limits = read(Path::new(&format!("/proc/{pid}/limits")));
    let data = limits
        .lines()
        .find(|l| l.starts_with("Max data size"))
        .unwrap();
    assert!(data.contains("unlimited"), "{data}");

    // The kernel kills a worker at memory.max (here: SIGKILL after marking the event).
    std::fs::write(
        kube_api.join("memory.events"),
        "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\noom_group_kill 1\n",
    )
    .unwrap();
    let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    let deadline = Instant::now() + READY_TIMEOUT;
    while server.workers().get("kube-api") == Some(&pid)
        || !server.workers().contains_key("kube-api")
    {
        assert!(Instant::now() < deadline, "kube-api not restarted");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    server
        .wait_for(|r| r.status == 200, "/api/v1/namespaces/default")
        .await;
    let log = server.log();
    assert!(
        log.contains("the kernel killed the worker")
            && log.contains("over its memory limit (314572800 bytes, memory.max)"),
        "{log}"
    );
    // The restarted worker has a cgroup of its own.
    let now = worker_cgroup(base, "kube-api");
    assert!(now.len() == 2 && now.contains(kube_api), "{now:?}");
    for role in ["aggregator", "extensions", "storage"] {
        assert_eq!(
            server.workers().get(role),
            before.get(role),
            "{role} was touched"
        );
    }
}
