//! `--encryption-provider-config-automatic-reload` on a real etcd: a rewritten file is
//! followed without a restart (a rotation aescbc → aesgcm and kubectl's rewrite), a bad
//! file is logged and the last good configuration stays, a restarted worker starts with
//! the reloaded configuration, and new KMS plugins must be healthy before they are used.

use std::path::Path;
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use super::super::harness::kms::{Answer, KmsPlugin};
use super::super::harness::kubectl::Kubectl;
use super::super::harness::{Etcd, Server};
use super::super::metrics::{scrape, value_with};
use super::{aescbc, aesgcm, password, raw, rewrite_all, tools, write_config, KEY1, KEY2};

/// How long a reload may take to show (the file is read every second).
const RELOAD_WITHIN: Duration = Duration::from_secs(30);

async fn start(etcd: &Etcd, config: &Path) -> Server {
    Server::builder()
        .arg(format!("--etcd-servers={}", etcd.url()))
        .arg(format!("--encryption-provider-config={}", config.display()))
        .arg("--encryption-provider-config-automatic-reload")
        .start()
        .await
}

/// Replaces the file in one step, so the follower never reads half a file.
fn rewrite(dir: &Path, config: &Path, providers: &str) {
    let next = write_config(dir, "next.yaml", providers);
    std::fs::rename(next, config).expect("rename");
}

/// Creates Secrets `<stem>-0`, `<stem>-1`, … until one is stored with `prefix`, and
/// returns its name.
async fn written_with(k: &Kubectl, etcd: &Etcd, stem: &str, prefix: &str) -> String {
    let t = Instant::now();
    for i in 0.. {
        let name = format!("{stem}-{i}");
        k.ok(&[
            "create",
            "secret",
            "generic",
            &name,
            "--from-literal=password=hunter2",
        ]);
        let v = raw(etcd, &format!("/registry/secrets/default/{name}"));
        if v.starts_with(prefix.as_bytes()) {
            return name;
        }
        assert!(
            t.elapsed() < RELOAD_WITHIN,
            "no Secret written with {prefix} yet: {}",
            String::from_utf8_lossy(&v)
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    unreachable!()
}

async fn wait_log(server: &Server, want: &str) {
    let t = Instant::now();
    while !server.log().contains(want) {
        assert!(
            t.elapsed() < RELOAD_WITHIN,
            "{want:?} not logged:\n{}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewritten_file_is_followed_a_bad_one_logged_and_a_restarted_worker_keeps_it() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut etcd = Etcd::new();
    etcd.start();
    let config = write_config(dir.path(), "enc.yaml", &aescbc("key1", KEY1));
    let server = start(&etcd, &config).await;
    let k = Kubectl::new(&server);
    k.ok(&[
        "create",
        "secret",
        "generic",
        "s1",
        "--from-literal=password=hunter2",
    ]);
    assert!(raw(&etcd, "/registry/secrets/default/s1").starts_with(b"k8s:enc:aescbc:v1:key1:"));
    // With reload on, one kms-providers check whatever the providers, as upstream.
    assert_eq!(server.get("/healthz/kms-providers").await.text(), "ok");
    let readyz = server.get("/readyz?verbose").await.text();
    assert!(
        readyz.contains("[+]poststarthook/start-encryption-provider-config-automatic-reload ok"),
        "{readyz}"
    );

    // Rotation without a restart: aesgcm key2 first, aescbc key1 still reads.
    rewrite(
        dir.path(),
        &config,
        &(aesgcm("key2", KEY2) + &aescbc("key1", KEY1)),
    );
    written_with(&k, &etcd, "gcm", "k8s:enc:aesgcm:v1:key2:").await;
    assert_eq!(password(&k, "s1"), "aHVudGVyMg==", "the old Secret reads");
    rewrite_all(&k);
    let s1 = raw(&etcd, "/registry/secrets/default/s1");
    assert!(
        s1.starts_with(b"k8s:enc:aesgcm:v1:key2:"),
        "kubectl replace rewrote the stale Secret: {}",
        String::from_utf8_lossy(&s1)
    );
    assert_eq!(password(&k, "s1"), "aHVudGVyMg==");
    let reloads = |status: &'static str| {
        let server = &server;
        async move {
            let text = scrape(server).await;
            let id_hash = format!(
                "apiserver_id_hash=\"{}\"",
                kas_server::identity::apiserver_id_hash()
            );
            let labels = [format!("status=\"{status}\""), id_hash];
            let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
            let name = "apiserver_encryption_config_controller_automatic_reloads_total";
            let count = value_with(&text, name, &labels);
            let name =
                "apiserver_encryption_config_controller_automatic_reload_last_timestamp_seconds";
            (count, value_with(&text, name, &labels))
        }
    };
    let (count, last) = reloads("success").await;
    assert!(count.is_some_and(|c| c >= 1.0), "{count:?}");
    assert!(last.is_some_and(|t| t > 1.7e9), "{last:?}");

    // A bad file: logged with the file, field and reason; the last good one stays.
    rewrite(dir.path(), &config, &aesgcm("key3", "c2hvcnQ="));
    wait_log(
        &server,
        &format!(
            "error processing encryption config file {0}: {0}: resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: \"REDACTED\": secret is not of the expected length, got 5, expected one of [16 24 32]",
            config.display()
        ),
    )
    .await;
    assert!(!server.log().contains("c2hvcnQ"), "a secret leaked");
    // ... and counted as a failed reload by the workers that store objects.
    let t = Instant::now();
    while reloads("failure").await.0.is_none() {
        assert!(t.elapsed() < RELOAD_WITHIN, "no failed reload counted");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    k.ok(&[
        "create",
        "secret",
        "generic",
        "s3",
        "--from-literal=password=hunter2",
    ]);
    assert!(raw(&etcd, "/registry/secrets/default/s3").starts_with(b"k8s:enc:aesgcm:v1:key2:"));
    assert_eq!(password(&k, "s1"), "aHVudGVyMg==");

    // kill -9 of the kube-api worker: its successor starts with the configuration in
    // force (the reloaded one), not the start-up file, nor the bad file now on disk.
    let before = server.workers()["kube-api"];
    kill(Pid::from_raw(before as i32), Signal::SIGKILL).expect("kill -9");
    let t = Instant::now();
    while server
        .workers()
        .get("kube-api")
        .is_none_or(|p| *p == before)
        || server.get("/readyz").await.status != 200
    {
        if t.elapsed() > RELOAD_WITHIN {
            let readyz = server.get("/readyz?verbose").await.text();
            panic!("kube-api not back: {readyz}\n{}", server.log());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    k.ok(&[
        "create",
        "secret",
        "generic",
        "s4",
        "--from-literal=password=hunter2",
    ]);
    let s4 = raw(&etcd, "/registry/secrets/default/s4");
    assert!(
        s4.starts_with(b"k8s:enc:aesgcm:v1:key2:"),
        "{}",
        String::from_utf8_lossy(&s4)
    );
    for name in ["s1", "s3", "s4"] {
        assert_eq!(password(&k, name), "aHVudGVyMg==", "{name}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_kms_plugins_must_be_healthy_before_they_are_used() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let plugin = KmsPlugin::start(&dir.path().join("kms.sock"), "key-1");
    plugin.answer(Answer::Nothing);
    let mut etcd = Etcd::new();
    etcd.start();
    let config = write_config(dir.path(), "enc.yaml", &aescbc("key1", KEY1));
    let server = start(&etcd, &config).await;
    let k = Kubectl::new(&server);

    let kms = format!(
        "      - kms: {{apiVersion: v2, name: kms1, endpoint: '{}', timeout: 1s}}\n",
        plugin.endpoint()
    );
    rewrite(dir.path(), &config, &(kms + &aescbc("key1", KEY1)));
    // The plugin does not answer: after the wait (at least 10 s) the worker logs why and
    // keeps aescbc; writes meanwhile never use the new provider.
    let t = Instant::now();
    wait_log(
        &server,
        &format!(
            "error processing encryption config file {}: health check for new transformers failed, polling error timed out waiting for the condition: kms-provider-0: failed to perform status section of the healthz check for KMS Provider kms1, error: rpc error: code = DeadlineExceeded desc = context deadline exceeded",
            config.display()
        ),
    )
    .await;
    assert!(t.elapsed() >= Duration::from_secs(9), "{:?}", t.elapsed());
    k.ok(&[
        "create",
        "secret",
        "generic",
        "meanwhile",
        "--from-literal=password=hunter2",
    ]);
    assert!(
        raw(&etcd, "/registry/secrets/default/meanwhile").starts_with(b"k8s:enc:aescbc:v1:key1:")
    );
    assert_eq!(server.get("/healthz/kms-providers").await.text(), "ok");

    // Once it answers, a later attempt takes the new configuration.
    plugin.answer(Answer::All);
    written_with(&k, &etcd, "kms", "k8s:enc:kms:v2:kms1:").await;
    assert_eq!(password(&k, "meanwhile"), "aHVudGVyMg==");
    assert_eq!(server.get("/healthz/kms-providers").await.text(), "ok");
    // The check follows the plugins now in force.
    plugin.answer(Answer::Nothing);
    server
        .wait_for(|r| r.status != 200, "/healthz/kms-providers")
        .await;
}
