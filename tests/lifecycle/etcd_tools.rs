//! etcd's operator tools on the embedded store: Debian's `etcdctl` (v3 API, etcd 3.4)
//! against the storage worker's socket, in the forms operators write; its space quota,
//! snapshots and a damaged store file.

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use crate::harness::{require_tool, Server};

fn etcdctl(dir: &Path, endpoint: &str, args: &[&str]) -> Output {
    std::process::Command::new("etcdctl")
        .current_dir(dir)
        .env("ETCDCTL_API", "3")
        .args([
            &format!("--endpoints={endpoint}"),
            "--dial-timeout=3s",
            "--command-timeout=5s",
        ])
        .args(args)
        .output()
        .expect("run etcdctl")
}

fn ok(dir: &Path, endpoint: &str, args: &[&str]) -> String {
    let out = etcdctl(dir, endpoint, args);
    assert!(
        out.status.success(),
        "etcdctl --endpoints={endpoint} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// etcd 3.4's gRPC client names the socket path (or the whole endpoint) as the HTTP/2
/// `:authority`; every form reaches the store, including the commands that dial each
/// endpoint on its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn etcdctl_reaches_the_store_by_absolute_and_relative_socket_paths() {
    if !require_tool("etcdctl") {
        return;
    }
    let server = Server::builder().start().await;
    let run_dir = server.data_dir.join("run");
    let absolute = format!("unix://{}", run_dir.join("storage.sock").display());
    let elsewhere = std::env::temp_dir();
    for (dir, endpoint) in [
        (elsewhere.as_path(), absolute.as_str()),
        (run_dir.as_path(), "unix://storage.sock"),
    ] {
        ok(dir, endpoint, &["put", "/tools/a", endpoint]);
        assert_eq!(
            ok(dir, endpoint, &["get", "/tools/a", "--print-value-only"]).trim(),
            endpoint
        );
        let status: serde_json::Value =
            serde_json::from_str(&ok(dir, endpoint, &["endpoint", "status", "-w", "json"]))
                .expect("status json");
        let status = &status[0]["Status"];
        let member = status["header"]["member_id"].as_u64().expect("member id");
        assert_eq!(status["leader"].as_u64(), Some(member), "{status}");
        assert!(status["dbSize"].as_i64().unwrap_or(0) > 0, "{status}");
        assert!(status["header"]["revision"].as_i64().unwrap_or(0) > 1);
        // etcdctl 3.4 reports health on stderr.
        let health = etcdctl(dir, endpoint, &["endpoint", "health"]);
        let said = String::from_utf8_lossy(&health.stderr);
        assert!(
            health.status.success() && said.contains("is healthy"),
            "{said}"
        );
        let members = ok(dir, endpoint, &["member", "list"]);
        assert!(members.contains("started"), "{members}");
        let revision = status["header"]["revision"].as_i64().expect("revision");
        ok(dir, endpoint, &["compaction", &revision.to_string()]);
    }
}

/// Past `--storage-quota-bytes` the store raises NOSPACE: creates fail as kube-apiserver
/// shows etcd's error (500, no reason, etcd's message) while reads and deletes go on, and
/// an operator makes room with etcdctl: compaction, defrag, alarm disarm.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_space_quota_writes_fail_until_an_operator_makes_room() {
    if !require_tool("etcdctl") {
        return;
    }
    let server = Server::builder()
        .arg("--storage-quota-bytes=3000000")
        .start()
        .await;
    let run_dir = server.data_dir.join("run");
    let ctl = |args: &[&str]| ok(&run_dir, "unix://storage.sock", args);
    let configmap = |name: &str, size: usize| {
        serde_json::json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name}, "data": {"a": "x".repeat(size)}
        })
    };
    let path = "/api/v1/namespaces/default/configmaps";
    let create = |name: &'static str, size: usize| {
        let body = configmap(name, size);
        let server = &server;
        async move {
            server
                .send_json(http::Method::POST, path, "application/json", &body)
                .await
        }
    };
    let mut refused = None;
    for name in ["big-0", "big-1", "big-2", "big-3", "big-4", "big-5"] {
        let reply = create(name, 700_000).await;
        if reply.status != 201 {
            refused = Some(reply);
            break;
        }
    }
    let refused = refused.expect("the quota never refused a write");
    assert_eq!(refused.status, 500, "{}", refused.text());
    let status = refused.json();
    assert_eq!(
        status["message"],
        "etcdserver: mvcc: database space exceeded"
    );
    assert_eq!(status["reason"], serde_json::Value::Null, "{status}");
    // Small writes are refused too while the alarm is raised; reads go on.
    assert_eq!(create("small", 10).await.status, 500);
    assert_eq!(server.get(&format!("{path}/big-0")).await.status, 200);
    assert!(ctl(&["alarm", "list"]).contains("alarm:NOSPACE"));

    // Make room: delete, compact, defragment, disarm.
    let out = server.kubectl(&["delete", "configmaps", "--all", "-n", "default"]);
    assert!(out.status.success(), "{out:?}");
    let status: serde_json::Value =
        serde_json::from_str(&ctl(&["endpoint", "status", "-w", "json"])).expect("json");
    let revision = status[0]["Status"]["header"]["revision"]
        .as_i64()
        .expect("revision");
    ctl(&["compaction", &revision.to_string()]);
    ctl(&["defrag"]);
    ctl(&["alarm", "disarm"]);
    assert_eq!(ctl(&["alarm", "list"]), "");
    assert_eq!(create("small", 10).await.status, 201);
}

/// `etcdctl snapshot save` streams the whole store; `kube-apiserver --restore-snapshot`
/// makes it the store of a fresh data dir, which then serves the same objects at the same
/// resourceVersions, and nothing written after the snapshot. A damaged snapshot, or a data
/// dir that has a store, is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_restores_into_a_fresh_data_dir() {
    if !require_tool("etcdctl") {
        return;
    }
    let server = Server::builder().start().await;
    let absolute = format!(
        "unix://{}",
        server.data_dir.join("run/storage.sock").display()
    );
    let scratch = tempfile::tempdir().expect("tempdir");
    let cm = |name: &str| {
        serde_json::json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name}, "data": {"k": name}
        })
    };
    let path = "/api/v1/namespaces/default/configmaps";
    let kept = server
        .send_json(http::Method::POST, path, "application/json", &cm("kept"))
        .await;
    assert_eq!(kept.status, 201, "{}", kept.text());
    let kept = kept.json();
    ok(scratch.path(), &absolute, &["put", "/tools/raw", "v"]);
    let snap = scratch.path().join("snap.db");
    let saved = ok(
        scratch.path(),
        &absolute,
        &["snapshot", "save", snap.to_str().expect("path")],
    );
    assert!(saved.contains("Snapshot saved at"), "{saved}");
    let later = server
        .send_json(http::Method::POST, path, "application/json", &cm("later"))
        .await;
    assert_eq!(later.status, 201);

    let restore = |snapshot: &std::path::Path, data_dir: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_kube-apiserver"))
            .arg(format!("--restore-snapshot={}", snapshot.display()))
            .arg(format!("--data-dir={}", data_dir.display()))
            .output()
            .expect("run kube-apiserver --restore-snapshot")
    };
    // One flipped byte: the checksum catches it.
    let mut damaged = std::fs::read(&snap).expect("read snapshot");
    damaged[100] ^= 1;
    let damaged_path = scratch.path().join("damaged.db");
    std::fs::write(&damaged_path, damaged).expect("write");
    let out = restore(&damaged_path, &scratch.path().join("never"));
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("sha256 checksum mismatch"),
        "{out:?}"
    );
    // Over an existing store: refused, the store untouched.
    let out = restore(&snap, &server.data_dir);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("restore into a fresh data dir"),
        "{out:?}"
    );

    let restored = scratch.path().join("restored");
    let out = restore(&snap, &restored);
    assert!(out.status.success(), "{out:?}");
    let again = Server::builder().data_dir(&restored).start().await;
    let got = again.get(&format!("{path}/kept")).await;
    assert_eq!(got.status, 200, "{}", got.text());
    let got = got.json();
    assert_eq!(got["metadata"]["uid"], kept["metadata"]["uid"]);
    assert_eq!(
        got["metadata"]["resourceVersion"],
        kept["metadata"]["resourceVersion"]
    );
    assert_eq!(again.get(&format!("{path}/later")).await.status, 404);
    let endpoint = format!("unix://{}", restored.join("run/storage.sock").display());
    assert_eq!(
        ok(
            scratch.path(),
            &endpoint,
            &["get", "/tools/raw", "--print-value-only"]
        )
        .trim(),
        "v"
    );
}

/// A truncated or overwritten store file: the storage worker refuses to start, naming the
/// file and what is wrong (again at each restart, with back-off), and nothing is served
/// from it; readyz stays red.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_store_file_is_refused_by_name() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let data = scratch.path().join("data");
    let mut server = Server::builder().data_dir(&data).start().await;
    server.signal(nix::sys::signal::Signal::SIGTERM);
    assert!(server.wait_exit(Duration::from_secs(10)).await.is_some());
    drop(server);
    let file = data.join("store/store.redb");
    let pristine = std::fs::read(&file).expect("read store");
    let truncated = pristine[..pristine.len() / 3].to_vec();
    let mut overwritten = pristine.clone();
    let (from, to) = (pristine.len() / 4, pristine.len() * 3 / 4);
    overwritten[from..to].fill(0xab);
    for (damaged, said) in [
        (truncated, "DB corrupted"),
        (overwritten, "is damaged, refusing to serve from it"),
    ] {
        std::fs::write(&file, &damaged).expect("damage the store");
        let server = Server::builder().data_dir(&data).spawn().await;
        let named = format!("{}", file.display());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let log = server.log();
            if log.lines().any(|l| l.contains(&named) && l.contains(said)) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "no refusal naming the file: {log}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_ne!(server.get("/readyz").await.status, 200);
        assert_ne!(server.get("/api/v1/namespaces").await.status, 200);
    }
}

/// An object over the store's request limit (etcd's --max-request-bytes, 1.5 MiB) but
/// under the API's body limit fails as on kube-apiserver with etcd: etcd's words, 500.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_object_over_the_store_request_limit_fails_with_etcds_words() {
    let server = Server::builder().start().await;
    let scratch = tempfile::tempdir().expect("tempdir");
    let crd = scratch.path().join("crd.yaml");
    std::fs::write(
        &crd,
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n\
         metadata: {name: blobs.example.com}\nspec:\n  group: example.com\n  \
         names: {kind: Blob, plural: blobs}\n  scope: Namespaced\n  versions:\n  \
         - name: v1\n    served: true\n    storage: true\n    schema: {openAPIV3Schema: \
         {type: object, x-kubernetes-preserve-unknown-fields: true}}\n",
    )
    .expect("write crd");
    let out = server.kubectl(&["apply", "-f", crd.to_str().expect("path")]);
    assert!(out.status.success(), "{out:?}");
    let path = "/apis/example.com/v1/namespaces/default/blobs";
    let blob = |name: &str, size: usize| {
        serde_json::json!({
            "apiVersion": "example.com/v1", "kind": "Blob",
            "metadata": {"name": name}, "data": "x".repeat(size)
        })
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let small = server
            .send_json(
                http::Method::POST,
                path,
                "application/json",
                &blob("small", 10),
            )
            .await;
        if small.status == 201 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the CRD is never served: {}",
            small.text()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let big = server
        .send_json(
            http::Method::POST,
            path,
            "application/json",
            &blob("big", 2_000_000),
        )
        .await;
    assert_eq!(big.status, 500, "{}", big.text());
    let status = big.json();
    assert_eq!(status["message"], "etcdserver: request is too large");
    assert_eq!(status["reason"], serde_json::Value::Null, "{status}");
}

/// Unmounts a test's file system when the test ends, however it ends.
struct Unmount(std::path::PathBuf);

impl Drop for Unmount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.0)
            .status();
    }
}

/// The disk under the store fills up: the writes that cannot be made durable fail with the
/// reason, nothing acknowledged is lost, reads go on, and writes work again once there is
/// room, without a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_fails_writes_until_there_is_room_again() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let data = scratch.path().join("data");
    let store = data.join("store");
    std::fs::create_dir_all(&store).expect("mkdir");
    // A small file system of the store's own (a tmpfs: root may mount one).
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=4m", "tmpfs"])
        .arg(&store)
        .output()
        .expect("run mount");
    if !mounted.status.success() {
        // A container without CAP_SYS_ADMIN: nothing here can fill a disk safely.
        eprintln!("skipping: cannot mount a tmpfs ({mounted:?})");
        return;
    }
    let _unmount = Unmount(store.clone());
    // Most of the room goes to a file that is removed later.
    let filler = store.join("filler");
    std::fs::write(&filler, vec![0u8; 2_500_000]).expect("filler");
    let server = Server::builder().data_dir(&data).start().await;
    let path = "/api/v1/namespaces/default/configmaps";
    let cm = |name: &str| {
        serde_json::json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name}, "data": {"k": "x".repeat(200_000)}
        })
    };
    let mut acked = Vec::new();
    let mut refused = None;
    for i in 0..40 {
        let name = format!("cm-{i}");
        let reply = server
            .send_json(http::Method::POST, path, "application/json", &cm(&name))
            .await;
        match reply.status.as_u16() {
            201 => acked.push(name),
            _ => {
                refused = Some(reply);
                break;
            }
        }
    }
    let refused = refused.expect("the disk never filled up");
    assert_eq!(refused.status, 503, "{}", refused.text());
    assert!(
        refused.text().contains("No space left on device"),
        "{}",
        refused.text()
    );
    assert!(!acked.is_empty());
    for name in &acked {
        let got = server.get(&format!("{path}/{name}")).await;
        assert_eq!(got.status, 200, "{name} was acknowledged, then lost");
    }
    std::fs::remove_file(&filler).expect("make room");
    let again = server
        .send_json(http::Method::POST, path, "application/json", &cm("after"))
        .await;
    assert_eq!(again.status, 201, "{}", again.text());
    for name in &acked {
        assert_eq!(server.get(&format!("{path}/{name}")).await.status, 200);
    }
}

/// The etcdctl commands operators use, against the embedded store: get with a revision,
/// limit, prefix and keys-only; txn; leases (grant, put with a lease, timetolive,
/// keep-alive, revoke); watch from a revision with previous values; del by prefix.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn etcdctls_everyday_commands_work() {
    if !require_tool("etcdctl") {
        return;
    }
    let server = Server::builder().start().await;
    let endpoint = format!(
        "unix://{}",
        server.data_dir.join("run/storage.sock").display()
    );
    let dir = std::env::temp_dir();
    let ctl = |args: &[&str]| ok(&dir, &endpoint, args);
    ctl(&["put", "/t/a", "1"]);
    ctl(&["put", "/t/b", "2"]);
    let first: serde_json::Value =
        serde_json::from_str(&ctl(&["get", "/t/a", "-w", "json"])).expect("json");
    let rev = first["header"]["revision"].as_i64().expect("revision");
    ctl(&["put", "/t/a", "3"]);
    assert_eq!(
        ctl(&["get", "/t/a", &format!("--rev={rev}"), "--print-value-only"]).trim(),
        "1"
    );
    assert_eq!(
        ctl(&["get", "/t/", "--prefix", "--limit=1", "--keys-only"]).trim(),
        "/t/a"
    );
    // txn from stdin: compare, then-ops, else-ops.
    let mut txn = std::process::Command::new("etcdctl")
        .env("ETCDCTL_API", "3")
        .arg(format!("--endpoints={endpoint}"))
        .arg("txn")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("etcdctl txn");
    std::io::Write::write_all(
        txn.stdin.as_mut().expect("stdin"),
        b"value(\"/t/a\") = \"3\"\n\nput /t/c yes\n\nput /t/c no\n\n",
    )
    .expect("write txn");
    let out = txn.wait_with_output().expect("txn output");
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("SUCCESS"),
        "{out:?}"
    );
    assert_eq!(ctl(&["get", "/t/c", "--print-value-only"]).trim(), "yes");

    let granted = ctl(&["lease", "grant", "100"]);
    let lease = granted
        .split_whitespace()
        .nth(1)
        .expect("lease id")
        .to_owned();
    ctl(&["put", "/t/leased", "v", &format!("--lease={lease}")]);
    let ttl = ctl(&["lease", "timetolive", &lease, "--keys"]);
    assert!(ttl.contains("attached keys([/t/leased])"), "{ttl}");
    assert!(ctl(&["lease", "keep-alive", "--once", &lease]).contains("keepalived"));
    ctl(&["lease", "revoke", &lease]);
    assert_eq!(ctl(&["get", "/t/leased"]), "");

    // A watch from the first revision replays every change, each with its previous value.
    let watch = std::process::Command::new("timeout")
        .args(["2", "etcdctl"])
        .env("ETCDCTL_API", "3")
        .arg(format!("--endpoints={endpoint}"))
        .args(["watch", "/t/a", "--rev=1", "--prev-kv"])
        .output()
        .expect("etcdctl watch");
    let seen = String::from_utf8_lossy(&watch.stdout);
    // PUT, key, previous value, new value: the second put shows 1 then 3.
    assert!(seen.contains("PUT\n/t/a\n1\n/t/a\n3\n"), "{seen}");
    assert_eq!(ctl(&["del", "/t/", "--prefix"]).trim(), "3");
}
