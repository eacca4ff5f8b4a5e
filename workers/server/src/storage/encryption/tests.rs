//! The transformers against values laid out as kube-apiserver lays them out.

use kas_proto::{EncryptionConfig, EncryptionKey, EncryptionProvider, EncryptionRule};

use super::providers::{cbc_seal, gcm_seal, Cipher, Gcm};
use super::*;

const KEY: &str = "/registry/secrets/default/fixture";
const PLAIN: &[u8] = br#"{"kind":"Secret","apiVersion":"v1","metadata":{"name":"fixture","namespace":"default"},"data":{"k":"dg=="}}"#;

/// Key bytes 00..1f; the AES-128 keys below are its first 16 bytes.
fn key32() -> Vec<u8> {
    (0u8..32).collect()
}

/// `PLAIN` under aescbc key 00..1f (AES-256) and IV 10..1f, as produced independently by
/// `openssl enc -aes-256-cbc -K 000102…1f -iv 101112…1f` (PKCS#7 is OpenSSL's default
/// padding) and by Python's `cryptography` (AES/CBC + PKCS7 padder): IV, then ciphertext.
const CBC_FIXTURE: &str = "101112131415161718191a1b1c1d1e1f96d53b3f1d4737ef51eaf5ef90c15ca85cc854bbfe214d2143891e0dd50678f43d88fcdfaa8f62f12c10ac31d686a27931935638fbb3d109020491d2f6195c33ca22d4ae8200ec9d8ef9aae02defd7f41425cc6dcd50663859dc05a4722a0172a9849f11328c93c3553bd726ef861334";

/// `PLAIN` under aesgcm key 00..0f (AES-128), nonce 20..2b, the etcd key `KEY` as
/// additional data, from Python's `cryptography` (`AESGCM(key).encrypt(nonce, plain,
/// aad)`, ciphertext then tag): nonce, then that.
const GCM_FIXTURE: &str = "202122232425262728292a2bbbd779cde8945b33991beab703aae05ce49314eeef004f96140aa8798579cf2d79a61ea2cc41ad64913dd4fcb549d524b551378eadc2b8fd2922b2df91aa73b907e8bf017e0bec9bb9fb6e27133b1d0c740cfc505006cdba0b2062ad04d44aef5724b1ac2af309f177de5aecbefa052289a60547a43f55c765325f";

/// `decrypt` of providers that never wait (no KMS), run to completion in place.
fn dec(t: &Transformers, key: &str, v: Vec<u8>) -> Result<Plain, String> {
    futures_util::FutureExt::now_or_never(t.decrypt(key, v)).expect("no KMS: nothing to wait for")
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn key(name: &str, secret: Vec<u8>) -> EncryptionKey {
    EncryptionKey {
        name: name.into(),
        secret,
    }
}

fn transformers(resources: &[&str], providers: Vec<EncryptionProvider>) -> Transformers {
    let config = EncryptionConfig {
        rules: vec![EncryptionRule {
            resources: resources.iter().map(|s| s.to_string()).collect(),
            providers,
        }],
    };
    Transformers::new("/registry", Some(&config)).expect("transformers")
}

fn prefixed(prefix: &str, body: &[u8]) -> Vec<u8> {
    let mut v = prefix.as_bytes().to_vec();
    v.extend_from_slice(body);
    v
}

#[test]
fn reads_a_value_kube_apiserver_wrote_with_aescbc() {
    let t = transformers(
        &["secrets"],
        vec![EncryptionProvider::AesCbc(vec![key("key1", key32())])],
    );
    let stored = prefixed("k8s:enc:aescbc:v1:key1:", &hex(CBC_FIXTURE));
    let plain = dec(&t, KEY, stored).expect("decrypts");
    assert_eq!(plain.value, PLAIN);
    assert!(!plain.stale);
    // And the layout we write is the same bytes for the same IV.
    let iv: [u8; 16] = (0x10u8..0x20).collect::<Vec<_>>().try_into().expect("iv");
    assert_eq!(
        cbc_seal(&key32(), &iv, PLAIN).expect("seal"),
        hex(CBC_FIXTURE)
    );
}

#[test]
fn reads_a_value_kube_apiserver_wrote_with_aesgcm() {
    let t = transformers(
        &["secrets"],
        vec![EncryptionProvider::AesGcm(vec![key(
            "k",
            key32()[..16].to_vec(),
        )])],
    );
    let stored = prefixed("k8s:enc:aesgcm:v1:k:", &hex(GCM_FIXTURE));
    assert_eq!(dec(&t, KEY, stored.clone()).expect("decrypts").value, PLAIN);
    // The etcd key is authenticated: the same bytes under another key do not open.
    let moved = dec(&t, "/registry/secrets/default/other", stored).expect_err("moved value");
    assert_eq!(moved, "cipher: message authentication failed");
    let nonce: [u8; 12] = (0x20u8..0x2c)
        .collect::<Vec<_>>()
        .try_into()
        .expect("nonce");
    let Some(Cipher::Gcm(g)) = Cipher::gcm(&key32()[..16]) else {
        panic!("gcm")
    };
    let g: &Gcm = &g;
    assert_eq!(
        gcm_seal(g, &nonce, PLAIN, KEY.as_bytes()).expect("seal"),
        hex(GCM_FIXTURE)
    );
}

#[test]
fn round_trips_every_provider_and_key_size() {
    for size in [16, 24, 32] {
        let secret = vec![7u8; size];
        for p in [
            EncryptionProvider::AesCbc(vec![key("a", secret.clone())]),
            EncryptionProvider::AesGcm(vec![key("a", secret.clone())]),
        ] {
            let t = transformers(&["secrets"], vec![p]);
            let sealed = t.encrypt(KEY, PLAIN.to_vec()).expect("seal");
            assert!(sealed.starts_with(b"k8s:enc:aes"));
            assert_eq!(dec(&t, KEY, sealed).expect("open").value, PLAIN);
        }
    }
    let t = transformers(
        &["secrets"],
        vec![EncryptionProvider::Secretbox(vec![key("s", key32())])],
    );
    let sealed = t.encrypt(KEY, PLAIN.to_vec()).expect("seal");
    let prefix = b"k8s:enc:secretbox:v1:s:";
    assert!(sealed.starts_with(prefix));
    // Nonce (24) + Poly1305 tag (16) + the value.
    assert_eq!(sealed.len(), prefix.len() + 24 + 16 + PLAIN.len());
    assert_eq!(dec(&t, KEY, sealed).expect("open").value, PLAIN);
    // Two writes of one value differ (fresh IV/nonce each time).
    let a = t.encrypt(KEY, PLAIN.to_vec()).expect("seal");
    let b = t.encrypt(KEY, PLAIN.to_vec()).expect("seal");
    assert_ne!(a, b);
}

#[test]
fn cbc_layout_is_iv_then_padded_blocks() {
    let t = transformers(
        &["secrets"],
        vec![EncryptionProvider::AesCbc(vec![key("key1", key32())])],
    );
    for len in [0, 1, 15, 16, 17] {
        let sealed = t.encrypt(KEY, vec![b'x'; len]).expect("seal");
        let body = len + (16 - len % 16);
        assert_eq!(sealed.len(), "k8s:enc:aescbc:v1:key1:".len() + 16 + body);
        assert_eq!(dec(&t, KEY, sealed).expect("open").value, vec![b'x'; len]);
    }
}

#[test]
fn only_matching_resources_are_encrypted() {
    let config = EncryptionConfig {
        rules: vec![
            EncryptionRule {
                resources: vec!["secrets".into(), "widgets.example.com".into()],
                providers: vec![EncryptionProvider::AesGcm(vec![key("k", key32())])],
            },
            EncryptionRule {
                resources: vec!["*.apps".into()],
                providers: vec![EncryptionProvider::Secretbox(vec![key("s", key32())])],
            },
            EncryptionRule {
                resources: vec!["*.*".into()],
                providers: vec![EncryptionProvider::AesCbc(vec![key("c", key32())])],
            },
        ],
    };
    let t = Transformers::new("/registry/", Some(&config)).expect("transformers");
    let written = |k: &str| t.encrypt(k, b"{}".to_vec()).expect("seal");
    assert!(written("/registry/secrets/ns/s").starts_with(b"k8s:enc:aesgcm:v1:k:"));
    assert!(written("/registry/example.com/widgets/ns/w").starts_with(b"k8s:enc:aesgcm:v1:k:"));
    assert!(written("/registry/deployments/ns/d").starts_with(b"k8s:enc:secretbox:v1:s:"));
    assert!(written("/registry/configmaps/ns/c").starts_with(b"k8s:enc:aescbc:v1:c:"));
    let none = Transformers::new("/registry", None).expect("none");
    assert_eq!(
        none.encrypt("/registry/secrets/ns/s", b"{}".to_vec())
            .expect("plain"),
        b"{}"
    );
}

#[test]
fn rotation_marks_values_of_later_providers_and_keys_stale() {
    let old = transformers(
        &["secrets"],
        vec![EncryptionProvider::AesCbc(vec![key("key1", key32())])],
    );
    let old_value = old.encrypt(KEY, PLAIN.to_vec()).expect("seal");
    let new = transformers(
        &["secrets"],
        vec![
            EncryptionProvider::AesGcm(vec![key("key2", vec![9; 32])]),
            EncryptionProvider::AesCbc(vec![key("key0", vec![1; 32]), key("key1", key32())]),
            EncryptionProvider::Identity,
        ],
    );
    let read = dec(&new, KEY, old_value).expect("old value reads");
    assert_eq!(read.value, PLAIN);
    assert!(read.stale);
    let fresh = new.encrypt(KEY, PLAIN.to_vec()).expect("seal");
    assert!(fresh.starts_with(b"k8s:enc:aesgcm:v1:key2:"));
    assert!(!dec(&new, KEY, fresh).expect("open").stale);
    let plain = dec(&new, KEY, PLAIN.to_vec()).expect("identity reads");
    assert!(plain.stale);
}

#[test]
fn upstream_errors_for_values_that_do_not_read() {
    let t = transformers(
        &["secrets"],
        vec![EncryptionProvider::AesCbc(vec![key("key1", key32())])],
    );
    let err = |v: Vec<u8>| dec(&t, KEY, v).expect_err("refused");
    // Plain text without identity in the list.
    assert_eq!(err(PLAIN.to_vec()), "no matching prefix found");
    // Another provider's prefix.
    assert_eq!(
        err(b"k8s:enc:aesgcm:v1:key1:xxxxxxxxxxxxxxxx".to_vec()),
        "no matching prefix found"
    );
    assert_eq!(
        err(b"k8s:enc:aescbc:v1:key9:0123456789abcdef".to_vec()),
        "no matching key was found for the provided AES transformer"
    );
    assert_eq!(
        err(b"k8s:enc:aescbc:v1:key1:short".to_vec()),
        "the stored data was shorter than the required size"
    );
    assert_eq!(
        err(prefixed("k8s:enc:aescbc:v1:key1:", &[0u8; 20])),
        "the stored data is not a multiple of the block size"
    );
    assert_eq!(
        err(prefixed("k8s:enc:aescbc:v1:key1:", &[0u8; 16])),
        "invalid PKCS7 data (empty or not padded)"
    );
    // The right name, the wrong secret: garbage padding, never garbage data.
    let wrong = transformers(
        &["secrets"],
        vec![EncryptionProvider::AesCbc(vec![key("key1", vec![3; 32])])],
    );
    let stored = prefixed("k8s:enc:aescbc:v1:key1:", &hex(CBC_FIXTURE));
    let e = dec(&wrong, KEY, stored).expect_err("wrong key");
    assert!(
        e == "invalid padding on input" || e == "invalid PKCS7 data (empty or not padded)",
        "{e}"
    );
    // No rule for the resource: plain reads, an encrypted value is refused.
    let none = Transformers::new("/registry", None).expect("none");
    assert_eq!(
        dec(&none, KEY, b"k8s:enc:aescbc:v1:key1:...".to_vec()).expect_err("refused"),
        "identity transformer tried to read encrypted data"
    );
    // Two aescbc providers sharing a key name: both failures, aggregated as Go does.
    let two = transformers(
        &["secrets"],
        vec![
            EncryptionProvider::AesCbc(vec![key("key1", vec![3; 32])]),
            EncryptionProvider::AesGcm(vec![key("key1", vec![3; 32])]),
            EncryptionProvider::AesCbc(vec![key("key1", vec![4; 16])]),
        ],
    );
    let e = dec(&two, KEY, prefixed("k8s:enc:aescbc:v1:key1:", &[0u8; 20])).expect_err("both fail");
    assert_eq!(e, "the stored data is not a multiple of the block size");
    let s = transformers(
        &["secrets"],
        vec![EncryptionProvider::Secretbox(vec![key("s", key32())])],
    );
    assert_eq!(
        dec(&s, KEY, prefixed("k8s:enc:secretbox:v1:s:", &[0u8; 50])).expect_err("bad"),
        "output array was not large enough for encryption"
    );
}
