//! Reloads reach every client of a registry, wait for healthy KMS plugins, and leave the
//! transformers in force when the new ones fail.

use std::time::Duration;

use kas_proto::{EncryptionConfig, EncryptionKey, EncryptionProvider, EncryptionRule, KmsProvider};

use super::dynamic::Registry;

const KEY: &str = "/registry/secrets/default/s";

fn secrets(providers: Vec<EncryptionProvider>) -> EncryptionConfig {
    EncryptionConfig {
        rules: vec![EncryptionRule {
            resources: vec!["secrets".into()],
            providers,
        }],
    }
}

fn key(name: &str, byte: u8) -> Vec<EncryptionKey> {
    vec![EncryptionKey {
        name: name.into(),
        secret: vec![byte; 32],
    }]
}

#[tokio::test]
async fn a_reload_swaps_every_client_and_later_ones_start_with_it() {
    let reg = Registry::default();
    let cbc = secrets(vec![EncryptionProvider::AesCbc(key("key1", 1))]);
    let a = reg.make("/registry", Some(&cbc)).expect("a");
    let b = reg.make("/registry", Some(&cbc)).expect("b");
    // Clients of one prefix and configuration share their providers (one KMS probe
    // loop and seed per process); another prefix or configuration has its own.
    assert!(a.shares_with(&b));
    let other_prefix = reg.make("/other", Some(&cbc)).expect("other prefix");
    assert!(!a.shares_with(&other_prefix));
    let other_key = secrets(vec![EncryptionProvider::AesCbc(key("key9", 9))]);
    let other_config = reg
        .make("/registry", Some(&other_key))
        .expect("other config");
    assert!(!a.shares_with(&other_config));
    drop((other_prefix, other_config));
    let old = a.encrypt(KEY, b"v1".to_vec()).expect("encrypt");
    assert!(old.starts_with(b"k8s:enc:aescbc:v1:key1:"));
    assert!(a.kms_changes().is_none(), "no KMS, reloads not followed");

    let gcm = secrets(vec![
        EncryptionProvider::AesGcm(key("key2", 2)),
        EncryptionProvider::AesCbc(key("key1", 1)),
    ]);
    reg.reload(&gcm, Duration::from_millis(200))
        .await
        .expect("reload");
    for t in [&a, &b] {
        let new = t.encrypt(KEY, b"v2".to_vec()).expect("encrypt");
        assert!(new.starts_with(b"k8s:enc:aesgcm:v1:key2:"));
        // The value written before still reads, now stale.
        let plain = t.decrypt(KEY, old.clone()).await.expect("old value");
        assert_eq!((plain.value, plain.stale), (b"v1".to_vec(), true));
    }
    // A client made after the reload from the start-up configuration gets the new one.
    let c = reg.make("/registry", Some(&cbc)).expect("c");
    assert!(c
        .encrypt(KEY, b"v3".to_vec())
        .expect("encrypt")
        .starts_with(b"k8s:enc:aesgcm:v1:key2:"));
}

#[tokio::test]
async fn unhealthy_new_plugins_leave_the_transformers_in_force() {
    let dir = tempfile::tempdir().expect("tempdir");
    let reg = Registry::default();
    let cbc = secrets(vec![EncryptionProvider::AesCbc(key("key1", 1))]);
    let a = reg.make("/registry", Some(&cbc)).expect("a");
    let kms = secrets(vec![EncryptionProvider::Kms(KmsProvider {
        name: "p".into(),
        socket: dir.path().join("absent.sock").display().to_string(),
        timeout_ms: 100,
    })]);
    let started = std::time::Instant::now();
    let e = reg
        .reload(&kms, Duration::from_millis(300))
        .await
        .expect_err("nobody answers");
    assert!(
        e.starts_with("health check for new transformers failed, polling error timed out waiting for the condition: kms-provider-0: failed to perform status section of the healthz check for KMS Provider p, error: "),
        "{e}"
    );
    // Waited at least the minimum, not much more.
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(a
        .encrypt(KEY, b"v".to_vec())
        .expect("encrypt")
        .starts_with(b"k8s:enc:aescbc:v1:key1:"));
    assert!(a.kms_health().is_ok());
    // Nor do clients made afterwards take the refused configuration.
    let b = reg.make("/registry", Some(&cbc)).expect("b");
    assert!(b
        .encrypt(KEY, b"v".to_vec())
        .expect("encrypt")
        .starts_with(b"k8s:enc:aescbc:v1:key1:"));
}

#[tokio::test]
async fn followed_reloads_keep_one_health_check_that_follows_the_current_set() {
    let reg = Registry::default();
    reg.set_automatic_reload(true);
    let a = reg.make("/registry", None).expect("a");
    let mut changes = a.kms_changes().expect("a check even without KMS");
    assert_eq!(a.kms_health(), Ok(()));
    changes.borrow_and_update();
    reg.reload(
        &secrets(vec![EncryptionProvider::Identity]),
        Duration::from_millis(100),
    )
    .await
    .expect("reload");
    assert!(
        changes.has_changed().expect("sender alive"),
        "a swap marks the check"
    );
}
