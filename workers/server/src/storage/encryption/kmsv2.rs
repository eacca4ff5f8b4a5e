//! The KMS v2 envelope, byte for byte as k8s.io/apiserver's kmsv2 transformer writes it,
//! so kube-apiserver and this server read each other's values given the same plugin.
//!
//! A stored value is `k8s:enc:kms:v2:<name>:` and then the protobuf `EncryptedObject`
//! {1 encryptedData, 2 keyID, 3 encryptedDEKSource, 4 annotations, 5
//! encryptedDEKSourceType}. In the seed mode (type 1, HKDF_SHA256_XNONCE_AES_GCM_SEED,
//! v1.33's only write mode) the plugin encrypts a random 32-byte seed once per key ID,
//! and each write derives its own AES-256 key as HKDF-Expand(SHA-256, seed, info) with
//! 32 random bytes of info, so the random 12-byte GCM nonces never approach their limit;
//! encryptedData is info ‖ nonce ‖ AES-GCM(ciphertext ‖ tag) with the etcd key as
//! additional data. Values of the older direct mode (type 0, AES_GCM_KEY: the plugin
//! encrypted the DEK itself, encryptedData is nonce ‖ ciphertext ‖ tag) are read.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::Aes256Gcm;
use bytes::Bytes;
use prost::Message;

use super::kms_api::{EncryptedDekSourceType, EncryptedObject};
use super::providers::{Cipher, SHORT};

/// Seed, per-write info and derived key: upstream's `commonSize`.
pub(super) const SEED_LEN: usize = 32;
const INFO_LEN: usize = 32;
const NONCE_LEN: usize = 12;
const KEY_ID_MAX: usize = 1024;
const DEK_SOURCE_MAX: usize = 1024;
const ANNOTATIONS_MAX: u64 = 32 * 1024;
/// How long a decrypted DEK source stays cached (upstream's envelope cacheTTL).
const CACHE_TTL: Duration = Duration::from_secs(24 * 3600);

/// A decrypted DEK source: what turns encryptedData into plain text.
pub(super) enum Dek {
    /// A seed: each value's key is derived from it and the value's info.
    Seed(ring::hkdf::Prk),
    /// A DEK used directly (AES_GCM_KEY).
    Key(Cipher),
}

struct Len(usize);

impl ring::hkdf::KeyType for Len {
    fn len(&self) -> usize {
        self.0
    }
}

fn random(buf: &mut [u8]) -> Result<(), String> {
    use ring::rand::SecureRandom;
    ring::rand::SystemRandom::new()
        .fill(buf)
        .map_err(|_| "unable to read sufficient random bytes".to_owned())
}

/// 32 fresh random bytes: a new seed.
pub(super) fn new_seed() -> Result<[u8; SEED_LEN], String> {
    let mut seed = [0u8; SEED_LEN];
    random(&mut seed)?;
    Ok(seed)
}

/// HKDF-Expand only (the seed is already uniformly random, so upstream skips Extract).
fn derive(prk: &ring::hkdf::Prk, info: &[u8]) -> Result<Aes256Gcm, String> {
    let mut key = [0u8; 32];
    prk.expand(&[info], Len(key.len()))
        .and_then(|okm| okm.fill(&mut key))
        .map_err(|_| "failed to KDF expand seed with info".to_owned())?;
    Aes256Gcm::new_from_slice(&key).map_err(|e| e.to_string())
}

impl Dek {
    /// The DEK source as the plugin gave it back, for its type.
    pub(super) fn new(source_type: i32, plain: &[u8]) -> Result<Dek, String> {
        if source_type == EncryptedDekSourceType::HkdfSha256XnonceAesGcmSeed as i32 {
            if plain.len() < SEED_LEN {
                return Err(format!(
                    "invalid seed length {} used for key generation",
                    plain.len()
                ));
            }
            Ok(Dek::Seed(ring::hkdf::Prk::new_less_safe(
                ring::hkdf::HKDF_SHA256,
                plain,
            )))
        } else {
            Cipher::gcm(plain)
                .map(Dek::Key)
                .ok_or_else(|| format!("crypto/aes: invalid key size {}", plain.len()))
        }
    }

    /// encryptedData for `plain` under the etcd key `aad`: info ‖ nonce ‖ sealed.
    pub(super) fn seal(&self, plain: &[u8], aad: &[u8]) -> Result<Vec<u8>, String> {
        let Dek::Seed(prk) = self else {
            // Upstream v1.33 writes seeds only (KMSv2KDF is locked on).
            return Err("writes use a DEK seed".to_owned());
        };
        let mut info = [0u8; INFO_LEN];
        random(&mut info).map_err(|e| format!("failed to generate info for KDF: {e}"))?;
        let mut nonce = [0u8; NONCE_LEN];
        random(&mut nonce).map_err(|e| format!("failed to write nonce for AES-GCM: {e}"))?;
        seal_with(prk, &info, &nonce, plain, aad)
    }

    /// The plain text of encryptedData stored under `aad`.
    pub(super) fn open(&self, data: &[u8], aad: &[u8]) -> Result<Vec<u8>, String> {
        match self {
            Dek::Key(cipher) => cipher.open(data, aad),
            Dek::Seed(prk) => {
                if data.len() < INFO_LEN {
                    return Err(SHORT.to_owned());
                }
                let (info, rest) = data.split_at(INFO_LEN);
                let gcm = derive(prk, info)
                    .map_err(|e| format!("failed to derive read key from KDF: {e}"))?;
                if rest.len() < NONCE_LEN {
                    return Err(SHORT.to_owned());
                }
                let (nonce, sealed) = rest.split_at(NONCE_LEN);
                gcm.decrypt(nonce.into(), Payload { msg: sealed, aad })
                    .map_err(|_| "cipher: message authentication failed".to_owned())
            }
        }
    }
}

/// The seed mode's encryptedData with a given info and nonce (tests pin both).
pub(super) fn seal_with(
    prk: &ring::hkdf::Prk,
    info: &[u8; INFO_LEN],
    nonce: &[u8; NONCE_LEN],
    plain: &[u8],
    aad: &[u8],
) -> Result<Vec<u8>, String> {
    let gcm = derive(prk, info).map_err(|e| format!("failed to derive write key from KDF: {e}"))?;
    let sealed = gcm
        .encrypt(nonce.into(), Payload { msg: plain, aad })
        .map_err(|_| "AES-GCM: encryption failed".to_owned())?;
    let mut out = Vec::with_capacity(INFO_LEN + NONCE_LEN + sealed.len());
    out.extend_from_slice(info);
    out.extend_from_slice(nonce);
    out.extend_from_slice(&sealed);
    Ok(out)
}

/// Upstream's ValidateKeyID: on failure its error code (`empty`, `too_long`, as the
/// invalid-key-ID metric labels it) and message.
pub(super) fn validate_key_id(key_id: &str) -> Result<(), (&'static str, String)> {
    if key_id.is_empty() {
        return Err(("empty", "keyID is empty".to_owned()));
    }
    if key_id.len() > KEY_ID_MAX {
        return Err((
            "too_long",
            format!(
                "keyID is {} bytes, which exceeds the max size of {KEY_ID_MAX}",
                key_id.len()
            ),
        ));
    }
    Ok(())
}

/// A DNS-1123 subdomain with at least two labels (apimachinery's
/// IsFullyQualifiedDomainName), as annotation keys must be.
fn fqdn_problem(k: &str) -> Option<&'static str> {
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && l.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    let k = k.strip_suffix('.').unwrap_or(k);
    if k.is_empty() {
        return Some("Required value");
    }
    if k.split('.').count() < 2 {
        return Some("should be a domain with at least two segments separated by dots");
    }
    if k.len() > 253 || !k.split('.').all(label_ok) {
        return Some("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
    }
    None
}

/// Upstream's ValidateEncryptedObject, its messages.
pub(super) fn validate(o: &EncryptedObject) -> Result<(), String> {
    let t = o.encrypted_dek_source_type;
    if EncryptedDekSourceType::try_from(t).is_err() {
        return Err(format!("unknown encryptedDEKSourceType: {t}"));
    }
    if o.encrypted_data.is_empty() {
        return Err("encrypted data is empty".to_owned());
    }
    let n = o.encrypted_dek_source.len();
    if n == 0 {
        return Err(
            "failed to validate encrypted DEK source: encrypted DEK source is empty".to_owned(),
        );
    }
    if n > DEK_SOURCE_MAX {
        return Err(format!("failed to validate encrypted DEK source: encrypted DEK source is {n} bytes, which exceeds the max size of {DEK_SOURCE_MAX}"));
    }
    validate_key_id(&o.key_id).map_err(|(_, e)| format!("failed to validate key id: {e}"))?;
    let mut errs = Vec::new();
    let mut total = 0u64;
    for (k, v) in &o.annotations {
        if let Some(why) = fqdn_problem(k) {
            errs.push(format!("annotations: Invalid value: {k:?}: {why}"));
        }
        total += (k.len() + v.len()) as u64;
    }
    errs.sort();
    if total > ANNOTATIONS_MAX {
        errs.push(format!(
            "total size of annotations is {total}, which exceeds the max size of {ANNOTATIONS_MAX}"
        ));
    }
    match errs.len() {
        0 => Ok(()),
        1 => Err(format!("failed to validate annotations: {}", errs[0])),
        _ => Err(format!(
            "failed to validate annotations: [{}]",
            errs.join(", ")
        )),
    }
}

/// The protobuf EncryptedObject of a stored value (after the prefix), checked.
pub(super) fn decode(data: &[u8]) -> Result<EncryptedObject, String> {
    let o = EncryptedObject::decode(data).map_err(|e| format!("proto: {e}"))?;
    validate(&o)?;
    Ok(o)
}

/// The stored bytes of `o` (gogo and prost both write fields in number order).
pub(super) fn encode(o: &EncryptedObject) -> Result<Vec<u8>, String> {
    validate(o)?;
    Ok(o.encode_to_vec())
}

/// Upstream's cache key of a DEK source: its type, the encrypted source and key ID
/// (16-bit length prefixed), then the annotations by key, so two sources differing in
/// any of them never share a DEK.
pub(super) fn cache_key(
    source_type: i32,
    source: &[u8],
    key_id: &str,
    annotations: &HashMap<String, Bytes>,
) -> Vec<u8> {
    let mut b = Vec::with_capacity(8 + source.len() + key_id.len());
    let prefixed = |b: &mut Vec<u8>, v: &[u8]| {
        b.extend_from_slice(&(v.len() as u16).to_be_bytes());
        b.extend_from_slice(v);
    };
    b.extend_from_slice(&(source_type as u32).to_be_bytes());
    prefixed(&mut b, source);
    prefixed(&mut b, key_id.as_bytes());
    if !annotations.is_empty() {
        b.extend_from_slice(&(annotations.len() as u32).to_be_bytes());
        let sorted: BTreeMap<&String, &Bytes> = annotations.iter().collect();
        for (k, v) in sorted {
            prefixed(&mut b, k.as_bytes());
            prefixed(&mut b, v);
        }
    }
    b
}

/// A cached DEK and when it was last used.
type Cached = (Arc<Dek>, Instant);

/// Decrypted DEK sources by cache key, each kept a day after its last use.
#[derive(Default)]
pub(super) struct DekCache(Mutex<HashMap<Vec<u8>, Cached>>);

impl DekCache {
    pub(super) fn get(&self, key: &[u8]) -> Option<Arc<Dek>> {
        let mut map = self.0.lock().ok()?;
        let entry = map.get_mut(key)?;
        entry.1 = Instant::now();
        Some(entry.0.clone())
    }

    /// Caches `dek` under `key`; returns how many sources the cache then holds.
    pub(super) fn set(&self, key: Vec<u8>, dek: Arc<Dek>) -> usize {
        let Ok(mut map) = self.0.lock() else {
            return 0;
        };
        let now = Instant::now();
        map.retain(|_, (_, used)| now.duration_since(*used) < CACHE_TTL);
        map.insert(key, (dek, now));
        map.len()
    }
}

/// `sha256:<hex>` of a key ID, as upstream logs and reports key IDs.
pub(super) fn key_id_hash(key_id: &str) -> String {
    crate::identity::sha256_label(key_id)
}

/// Go's `time.Time.Format(time.RFC3339)` of a UTC instant.
pub(super) fn rfc3339(t: SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}
