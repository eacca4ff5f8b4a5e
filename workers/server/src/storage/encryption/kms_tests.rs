//! The KMS v2 envelope against values laid out as kube-apiserver lays them out.
//!
//! Fixtures made independently with Python's `cryptography` 48 from upstream's documented
//! layout (kmsv2/v2 api.proto, aes_extended_nonce.go): seed 00..1f, info 40..5f, nonce
//! 60..6b, the etcd key as additional data;
//! `key = HKDFExpand(SHA256(), 32, info).derive(seed)`,
//! `data = info + nonce + AESGCM(key).encrypt(nonce, PLAIN, KEY)`, and the EncryptedObject
//! encoded by hand (tags 0x0a data, 0x12 keyID, 0x1a encryptedDEKSource, 0x28 type).

use kas_proto::{EncryptionConfig, EncryptionProvider, EncryptionRule, KmsProvider};

use super::kms_api::EncryptedObject;
use super::kmsv2::{self, Dek};
use super::*;

const KEY: &str = "/registry/secrets/default/fixture";
const PLAIN: &[u8] = br#"{"kind":"Secret","apiVersion":"v1","metadata":{"name":"fixture","namespace":"default"},"data":{"k":"dg=="}}"#;
const PREFIX: &str = "k8s:enc:kms:v2:p:";

/// encryptedData of `PLAIN` in the seed mode.
const SEED_DATA: &str = "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b84833d4b62a8c9a6cb7cb0616751eb9cf55d4e2cc1a8f895a5609655b8f76c250e84287d4ac6cd9b014fa7de44ed7ae3abc1cd8efe770b5515df4a6c413ebd86e5f74195890c83520a38b58aa562a1c41a74dc81885489e94402b5ad8fbfefbbd1f88382b0b569b5df2f7060548ca10237d4314ad70208a94ff65c";

/// The EncryptedObject around `SEED_DATA`: keyID `key-1`, encryptedDEKSource
/// `sealed-seed-by-plugin`, type 1 (HKDF_SHA256_XNONCE_AES_GCM_SEED).
const SEED_OBJECT: &str = "0aa701404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b84833d4b62a8c9a6cb7cb0616751eb9cf55d4e2cc1a8f895a5609655b8f76c250e84287d4ac6cd9b014fa7de44ed7ae3abc1cd8efe770b5515df4a6c413ebd86e5f74195890c83520a38b58aa562a1c41a74dc81885489e94402b5ad8fbfefbbd1f88382b0b569b5df2f7060548ca10237d4314ad70208a94ff65c12056b65792d311a157365616c65642d736565642d62792d706c7567696e2801";

/// An older direct-DEK value (type 0, AES_GCM_KEY, field omitted as proto3 omits zero):
/// AES-256 DEK 80..9f, nonce 60..6b; keyID `key-0`, encryptedDEKSource `sealed-dek`.
const DEK_OBJECT: &str = "0a8701606162636465666768696a6be6f434065a4f2796549b1f84981b0266310bc6c9661923bb1e7517c082bcc20c5f1c1c05dafc68b8eb6e6fc3ad847b03e89fc58436f3876cf191b1712181c9d29d594644bb15328f8e45ae6543b736be4e427f5fb03589e7d4366f8583f436ccab1b6c95592a904ca798f153d1583a85c1a6a1a1cc6371508cb98d12056b65792d301a0a7365616c65642d64656b";

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn seed() -> Vec<u8> {
    (0u8..32).collect()
}

fn prefixed(body: &[u8]) -> Vec<u8> {
    let mut v = PREFIX.as_bytes().to_vec();
    v.extend_from_slice(body);
    v
}

/// Transformers with one KMS v2 provider `p` on secrets, its plugin at a socket nobody
/// serves (so any call to it times out after 200 ms).
fn transformers(dir: &std::path::Path) -> Set {
    let config = EncryptionConfig {
        rules: vec![EncryptionRule {
            resources: vec!["secrets".into()],
            providers: vec![
                EncryptionProvider::Kms(KmsProvider {
                    name: "p".into(),
                    socket: dir.join("absent.sock").display().to_string(),
                    timeout_ms: 200,
                }),
                EncryptionProvider::Identity,
            ],
        }],
    };
    Set::new("/registry", Some(&config), Arc::default()).expect("transformers")
}

#[test]
fn seed_mode_bytes_match_an_independent_implementation() {
    let prk = ring::hkdf::Prk::new_less_safe(ring::hkdf::HKDF_SHA256, &seed());
    let info: [u8; 32] = (0x40u8..0x60).collect::<Vec<_>>().try_into().expect("info");
    let nonce: [u8; 12] = (0x60u8..0x6c)
        .collect::<Vec<_>>()
        .try_into()
        .expect("nonce");
    let data = kmsv2::seal_with(&prk, &info, &nonce, PLAIN, KEY.as_bytes()).expect("seal");
    assert_eq!(data, hex(SEED_DATA));
    let dek = Dek::new(1, &seed()).expect("dek");
    assert_eq!(dek.open(&data, KEY.as_bytes()).expect("open"), PLAIN);
    // Another etcd key is other additional data.
    let moved = dek.open(&data, b"/registry/secrets/default/other");
    assert_eq!(
        moved.expect_err("moved"),
        "cipher: message authentication failed"
    );
}

#[tokio::test]
async fn reads_seed_and_direct_dek_values_kube_apiserver_wrote() {
    let dir = tempfile::tempdir().expect("tempdir");
    let t = transformers(dir.path());
    let kms = t.kms[0].clone();
    kms.install_seed("key-1", b"sealed-seed-by-plugin", &seed());
    let plain = t
        .decrypt(KEY, prefixed(&hex(SEED_OBJECT)))
        .await
        .expect("seed value");
    assert_eq!(plain.value, PLAIN);
    assert!(!plain.stale);
    // A direct-DEK value reads once its DEK is known, and is stale (other key ID, type).
    let dek: Vec<u8> = (0x80u8..0xa0).collect();
    kms.cache_source(0, "key-0", b"sealed-dek", &dek);
    let plain = t
        .decrypt(KEY, prefixed(&hex(DEK_OBJECT)))
        .await
        .expect("dek value");
    assert_eq!(plain.value, PLAIN);
    assert!(plain.stale);
}

#[tokio::test]
async fn writes_the_upstream_layout_and_reads_it_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let t = transformers(dir.path());
    t.kms[0].install_seed("key-1", b"sealed-seed-by-plugin", &seed());
    let stored = t.encrypt(KEY, PLAIN.to_vec()).expect("encrypt");
    let body = stored.strip_prefix(PREFIX.as_bytes()).expect("prefix");
    let o = <EncryptedObject as prost::Message>::decode(body).expect("protobuf");
    assert_eq!(o.key_id, "key-1");
    assert_eq!(&o.encrypted_dek_source[..], b"sealed-seed-by-plugin");
    assert_eq!(o.encrypted_dek_source_type, 1);
    assert!(o.annotations.is_empty());
    // info (32) + nonce (12) + ciphertext + tag (16), no plain text anywhere.
    assert_eq!(o.encrypted_data.len(), 32 + 12 + PLAIN.len() + 16);
    assert!(!stored.windows(6).any(|w| w == b"fixtur"));
    let back = t.decrypt(KEY, stored.clone()).await.expect("decrypt");
    assert_eq!(back.value, PLAIN);
    assert!(!back.stale);
    // Two writes of the same value differ (fresh info and nonce each time).
    assert_ne!(stored, t.encrypt(KEY, PLAIN.to_vec()).expect("again"));
    // Identity, the second provider, still reads plain values, as stale.
    let plain = t.decrypt(KEY, PLAIN.to_vec()).await.expect("identity");
    assert!(plain.stale);
}

#[tokio::test]
async fn an_unanswering_plugin_or_no_seed_fails_as_upstream() {
    let dir = tempfile::tempdir().expect("tempdir");
    let t = transformers(dir.path());
    // Before any good Status there is no write state: reads and writes fail.
    assert_eq!(
        t.encrypt(KEY, PLAIN.to_vec()).expect_err("no seed"),
        "got unexpected nil transformer"
    );
    let e = t
        .decrypt(KEY, prefixed(&hex(SEED_OBJECT)))
        .await
        .expect_err("no seed");
    assert_eq!(e, "got unexpected nil transformer");
    // With a seed, a value whose DEK source is not cached needs the plugin, which does
    // not answer within the timeout.
    t.kms[0].install_seed("key-2", b"another-seed", &seed());
    let started = std::time::Instant::now();
    let e = t
        .decrypt(KEY, prefixed(&hex(SEED_OBJECT)))
        .await
        .expect_err("timeout");
    assert_eq!(
        e,
        "failed to decrypt DEK, error: rpc error: code = DeadlineExceeded desc = context deadline exceeded"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    // The probe reports the same outage for the health check.
    t.kms[0].probe().await;
    let health = t.kms_health().expect_err("unhealthy");
    assert_eq!(health, "kms-provider-0: failed to perform status section of the healthz check for KMS Provider p, error: rpc error: code = DeadlineExceeded desc = context deadline exceeded");
}

#[tokio::test]
async fn malformed_envelopes_are_refused_with_upstream_reasons() {
    let dir = tempfile::tempdir().expect("tempdir");
    let t = transformers(dir.path());
    t.kms[0].install_seed("key-1", b"sealed-seed-by-plugin", &seed());
    let object = |f: &dyn Fn(&mut EncryptedObject)| {
        let mut o =
            <EncryptedObject as prost::Message>::decode(&hex(SEED_OBJECT)[..]).expect("fixture");
        f(&mut o);
        prefixed(&prost::Message::encode_to_vec(&o))
    };
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (object(&|o| o.key_id.clear()), "failed to validate key id: keyID is empty"),
        (object(&|o| o.key_id = "k".repeat(1025)), "failed to validate key id: keyID is 1025 bytes, which exceeds the max size of 1024"),
        (object(&|o| o.encrypted_dek_source_type = 7), "unknown encryptedDEKSourceType: 7"),
        (object(&|o| o.encrypted_data.clear()), "encrypted data is empty"),
        (object(&|o| o.encrypted_dek_source.clear()), "failed to validate encrypted DEK source: encrypted DEK source is empty"),
        (object(&|o| { o.annotations.insert("nodots".into(), bytes::Bytes::new()); }), "failed to validate annotations: annotations: Invalid value: \"nodots\": should be a domain with at least two segments separated by dots"),
        (object(&|o| o.encrypted_data = bytes::Bytes::from_static(b"short")), "the stored data was shorter than the required size"),
    ];
    for (stored, want) in cases {
        let e = t.decrypt(KEY, stored).await.expect_err(want);
        assert_eq!(e, want);
    }
    // An envelope of another provider name is no match for this one.
    let e = t
        .decrypt(KEY, b"k8s:enc:kms:v2:other:xyz".to_vec())
        .await
        .expect_err("other name");
    assert_eq!(e, NO_PREFIX);
}
