//! etcd's operator tools on the embedded store: Debian's `etcdctl` (v3 API, etcd 3.4)
//! against the storage worker's socket, in the forms operators write.

use std::path::Path;
use std::process::Output;

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
