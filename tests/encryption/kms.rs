//! KMS v2 providers against the test plugin (tests/harness/kms.rs) and a real etcd: the
//! envelope `etcdctl get` shows, a rotation aescbc → kms → identity, a key ID change
//! leading to a new DEK seed, and a plugin that stops answering failing only its
//! resource.

use std::path::Path;
use std::time::{Duration, Instant};

use kas_server::storage::encryption::kms_api::EncryptedObject;
use prost::Message;

use super::super::harness::kms::{Answer, KmsPlugin};
use super::super::harness::kubectl::Kubectl;
use super::super::harness::{Etcd, Server};
use super::super::metrics::{scrape, value_with};
use super::{aescbc, password, raw, rewrite_all, start, tools, write_config, IDENTITY, KEY1};

const PREFIX: &str = "k8s:enc:kms:v2:kms1:";

fn kms(plugin: &KmsPlugin, timeout: &str) -> String {
    format!(
        "      - kms: {{apiVersion: v2, name: kms1, endpoint: '{}', timeout: {timeout}}}\n",
        plugin.endpoint()
    )
}

/// The EncryptedObject of a value stored by the KMS provider.
fn envelope(stored: &[u8]) -> EncryptedObject {
    let body = stored
        .strip_prefix(PREFIX.as_bytes())
        .unwrap_or_else(|| panic!("not a kms1 envelope: {}", String::from_utf8_lossy(stored)));
    EncryptedObject::decode(body).expect("protobuf EncryptedObject")
}

fn create_secret(k: &Kubectl, name: &str) {
    k.ok(&[
        "create",
        "secret",
        "generic",
        name,
        "--from-literal=password=hunter2",
    ]);
}

/// Starts a server whose readiness may wait for the plugin: only the API is awaited.
async fn spawn(etcd: &Etcd, config: &Path) -> Server {
    let server = Server::builder()
        .arg(format!("--etcd-servers={}", etcd.url()))
        .arg(format!("--encryption-provider-config={}", config.display()))
        .spawn()
        .await;
    server
        .wait_for(|r| r.status == 200, "/readyz/worker-kube-api")
        .await;
    server
        .wait_for(|r| r.status != 404, "/healthz/kms-providers")
        .await;
    server
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kms_v2_envelopes_in_etcd_through_a_rotation_and_back() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let plugin = KmsPlugin::start(&dir.path().join("kms.sock"), "key-1");
    let mut etcd = Etcd::new();
    etcd.start();

    let cbc = write_config(dir.path(), "cbc.yaml", &aescbc("key1", KEY1));
    let server = start(&etcd, Some(&cbc)).await;
    create_secret(&Kubectl::new(&server), "s1");
    drop(server);

    // KMS v2 writes, aescbc still reads.
    let kms_first = write_config(
        dir.path(),
        "kms.yaml",
        &(kms(&plugin, "3s") + &aescbc("key1", KEY1)),
    );
    let server = start(&etcd, Some(&kms_first)).await;
    let k = Kubectl::new(&server);
    assert_eq!(password(&k, "s1"), "aHVudGVyMg==");
    create_secret(&k, "s2");
    let s2 = raw(&etcd, "/registry/secrets/default/s2");
    let text = String::from_utf8_lossy(&s2);
    assert!(
        !text.contains("hunter2") && !text.contains("aHVudGVyMg"),
        "{text}"
    );
    let o = envelope(&s2);
    assert_eq!(o.key_id, "key-1");
    assert_eq!(o.encrypted_dek_source_type, 1, "a DEK seed (KMSv2KDF)");
    // The plugin sealed a 32-byte seed: nonce 12 + 32 + tag 16.
    assert_eq!(o.encrypted_dek_source.len(), 60);
    assert!(o.encrypted_data.len() > 32 + 12 + 16, "info, nonce, sealed");
    assert_eq!(password(&k, "s2"), "aHVudGVyMg==");
    assert_eq!(server.get("/healthz/kms-providers").await.text(), "ok");
    assert!(plugin.encrypts() >= 1, "a seed was encrypted by the plugin");
    // One seed per process that stores objects (aggregator, kube-api, extensions), not
    // one per storage client: the clients of a process share their providers.
    assert!(plugin.encrypts() <= 3, "{} seeds", plugin.encrypts());
    kms_metrics(&server).await;
    rewrite_all(&k);
    let s1 = envelope(&raw(&etcd, "/registry/secrets/default/s1"));
    assert_eq!(s1.encrypted_dek_source, o.encrypted_dek_source, "same seed");
    drop(k);
    drop(server);

    // A restart gets the seed decrypted by the plugin, then reads from its cache.
    let kms_only = write_config(dir.path(), "kms-only.yaml", &kms(&plugin, "3s"));
    let server = start(&etcd, Some(&kms_only)).await;
    let k = Kubectl::new(&server);
    for name in ["s1", "s2"] {
        assert_eq!(password(&k, name), "aHVudGVyMg==", "{name}");
    }
    assert!(
        plugin.decrypts() >= 1,
        "the old seed came back through the plugin"
    );
    let before = plugin.decrypts();
    for _ in 0..3 {
        for name in ["s1", "s2"] {
            assert_eq!(password(&k, name), "aHVudGVyMg==", "{name}");
        }
    }
    assert_eq!(plugin.decrypts(), before, "the decrypted seed is cached");
    drop(k);
    drop(server);

    // Back to identity, KMS still reading.
    let identity = write_config(
        dir.path(),
        "identity.yaml",
        &(IDENTITY.to_owned() + &kms(&plugin, "3s")),
    );
    let server = start(&etcd, Some(&identity)).await;
    let k = Kubectl::new(&server);
    rewrite_all(&k);
    for name in ["s1", "s2"] {
        let v = raw(&etcd, &format!("/registry/secrets/default/{name}"));
        // In clear: the protobuf value.
        assert!(v.starts_with(b"k8s\0"), "{}", String::from_utf8_lossy(&v));
        assert_eq!(password(&k, name), "aHVudGVyMg==");
    }
}

/// What a server that wrote and read Secrets under `kms1` (key ID `key-1`) exposes.
async fn kms_metrics(server: &Server) {
    let text = scrape(server).await;
    let at_least_one = |name: &str, labels: &[&str]| {
        let v = value_with(&text, name, labels);
        assert!(
            v.is_some_and(|v| v >= 1.0),
            "{name} {labels:?}: {v:?}\n{text}"
        );
    };
    let ops = "apiserver_storage_transformation_operations_total";
    for direction in ["to_storage", "from_storage"] {
        let t = format!("transformation_type=\"{direction}\"");
        let labels = [
            "resource=\"secrets\"",
            &t,
            "transformer_prefix=\"k8s:enc:kms:v2:kms1:\"",
            "status=\"OK\"",
        ];
        at_least_one(ops, &labels);
        let key_id = format!(
            "key_id_hash=\"{}\"",
            kas_server::identity::sha256_label("key-1")
        );
        let labels = [t.as_str(), "provider_name=\"kms1\"", &key_id];
        at_least_one("apiserver_envelope_encryption_key_id_hash_total", &labels);
    }
    // The aescbc value s1 was read through both of upstream's levels.
    for prefix in ["k8s:enc:aescbc:v1:", "key1:"] {
        let p = format!("transformer_prefix=\"{prefix}\"");
        at_least_one(
            ops,
            &["transformation_type=\"from_storage\"", &p, "status=\"OK\""],
        );
    }
    let latency = "apiserver_envelope_encryption_kms_operations_latency_seconds_count";
    for method in ["Status", "Encrypt"] {
        let m = format!("method_name=\"/v2.KeyManagementService/{method}\"");
        at_least_one(
            latency,
            &["provider_name=\"kms1\"", &m, "grpc_status_code=\"OK\""],
        );
    }
    at_least_one(
        "apiserver_storage_data_key_generation_duration_seconds_count",
        &[],
    );
    at_least_one(
        "apiserver_envelope_encryption_dek_source_cache_size",
        &["provider_name=\"kms1\""],
    );
    let status = "apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds";
    let id_hash = format!(
        "apiserver_id_hash=\"{}\"",
        kas_server::identity::apiserver_id_hash()
    );
    at_least_one(status, &["provider_name=\"kms1\"", &id_hash]);
    // ConfigMaps are named by no rule: no transformation of theirs is counted.
    let counted = |l: &&str| l.starts_with(ops) && l.contains("resource=\"configmaps\"");
    assert!(!text.lines().any(|l| counted(&l)), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_key_id_brings_a_new_seed_and_old_values_still_read() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let plugin = KmsPlugin::start(&dir.path().join("kms.sock"), "key-1");
    let mut etcd = Etcd::new();
    etcd.start();
    let config = write_config(dir.path(), "kms.yaml", &kms(&plugin, "3s"));
    // The server polls Status (every 20 s while healthy, upstream's period; 1 s here) and
    // rotates on a new key ID.
    let server = Server::builder()
        .arg(format!("--etcd-servers={}", etcd.url()))
        .arg(format!("--encryption-provider-config={}", config.display()))
        .env("KUBE_APISERVER_RS_KMS_PROBE_INTERVAL_MS", "1000")
        .start()
        .await;
    let k = Kubectl::new(&server);
    create_secret(&k, "old");
    let old = envelope(&raw(&etcd, "/registry/secrets/default/old"));
    assert_eq!(old.key_id, "key-1");

    plugin.set_key_id("key-2");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut n = 0;
    let new = loop {
        n += 1;
        let name = format!("new{n}");
        create_secret(&k, &name);
        let o = envelope(&raw(&etcd, &format!("/registry/secrets/default/{name}")));
        if o.key_id == "key-2" {
            break o;
        }
        assert!(Instant::now() < deadline, "still writing with key-1");
        tokio::time::sleep(Duration::from_millis(500)).await;
    };
    assert_ne!(
        new.encrypted_dek_source, old.encrypted_dek_source,
        "a new seed"
    );
    assert_eq!(
        password(&k, "old"),
        "aHVudGVyMg==",
        "the old seed still reads"
    );
    // The old value is stale: the documented rewrite moves it to the new seed.
    rewrite_all(&k);
    let old = envelope(&raw(&etcd, "/registry/secrets/default/old"));
    assert_eq!(old.key_id, "key-2");
    assert_eq!(old.encrypted_dek_source, new.encrypted_dek_source);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plugin_that_does_not_answer_fails_its_resource_only() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let plugin = KmsPlugin::start(&dir.path().join("kms.sock"), "key-1");
    let mut etcd = Etcd::new();
    etcd.start();
    let config = write_config(dir.path(), "kms.yaml", &kms(&plugin, "1s"));
    let server = start(&etcd, Some(&config)).await;
    let k = Kubectl::new(&server);
    create_secret(&k, "s1");
    k.ok(&["create", "configmap", "c1", "--from-literal=a=b"]);
    drop(k);
    drop(server);

    // Decrypt alone hangs: a restarted server has its write seed but cannot read the old
    // one; each read waits the 1 s timeout.
    plugin.answer(Answer::NoDecrypt);
    let server = spawn(&etcd, &config).await;
    let r = server.get("/api/v1/namespaces/default/secrets/s1").await;
    assert_eq!(r.status, 500, "{}", r.text());
    assert_eq!(r.json()["reason"], "InternalError");
    assert_eq!(
        r.json()["message"],
        "Internal error occurred: failed to decrypt DEK, error: rpc error: code = DeadlineExceeded desc = context deadline exceeded"
    );
    let k = Kubectl::new(&server);
    k.ok(&["get", "configmap", "c1"]);
    let text = scrape(&server).await;
    let decrypt = [
        "provider_name=\"kms1\"",
        "method_name=\"/v2.KeyManagementService/Decrypt\"",
        "grpc_status_code=\"DeadlineExceeded\"",
    ];
    let calls = "apiserver_envelope_encryption_kms_operations_latency_seconds_count";
    assert!(
        value_with(&text, calls, &decrypt).is_some_and(|v| v >= 1.0),
        "{text}"
    );
    let failed = [
        "resource=\"secrets\"",
        "transformation_type=\"from_storage\"",
        "transformer_prefix=\"k8s:enc:kms:v2:kms1:\"",
        "status=\"DeadlineExceeded\"",
    ];
    let ops = "apiserver_storage_transformation_operations_total";
    assert!(
        value_with(&text, ops, &failed).is_some_and(|v| v >= 1.0),
        "{text}"
    );
    let misses = "apiserver_storage_envelope_transformation_cache_misses_total";
    assert!(text.lines().any(|l| l.starts_with(misses)), "{text}");
    drop(k);
    drop(server);

    // Nothing answers: no seed at all, so the Secret's reads and writes fail, the health
    // check fails (not livez), and ConfigMaps work.
    plugin.answer(Answer::Nothing);
    let server = spawn(&etcd, &config).await;
    let health = server.get("/healthz/kms-providers").await;
    assert_eq!(health.status, 500, "{}", health.text());
    // A single check shows its error, as upstream's healthz handler does.
    assert_eq!(
        health.text().trim_end(),
        "internal server error: kms-provider-0: failed to perform status section of the healthz check for KMS Provider kms1, error: rpc error: code = DeadlineExceeded desc = context deadline exceeded"
    );
    // Live once its start-up hooks are done (each storage client waited one timeout for
    // the plugin at start), whatever the plugin does.
    server.wait_for(|r| r.status == 200, "/livez").await;
    let readyz = server.get("/readyz?verbose").await;
    assert!(
        readyz.text().contains("[-]kms-providers failed"),
        "{}",
        readyz.text()
    );
    let r = server.get("/api/v1/namespaces/default/secrets/s1").await;
    assert_eq!(r.status, 500, "{}", r.text());
    assert_eq!(
        r.json()["message"],
        "Internal error occurred: got unexpected nil transformer"
    );
    let k = Kubectl::new(&server);
    let out = k.fails(&[
        "create",
        "secret",
        "generic",
        "s2",
        "--from-literal=password=x",
    ]);
    assert!(out.contains("got unexpected nil transformer"), "{out}");
    k.ok(&["get", "configmap", "c1"]);
    k.ok(&["create", "configmap", "c2", "--from-literal=a=b"]);

    // The plugin answers again: within the failing probe's 3 s the seed is made and the
    // Secret reads.
    plugin.answer(Answer::All);
    server
        .wait_for(|r| r.status == 200, "/healthz/kms-providers")
        .await;
    assert_eq!(password(&k, "s1"), "aHVudGVyMg==");
    create_secret(&k, "s3");
}
