//! A `kms` (apiVersion v2) provider: its write state (the current DEK seed, encrypted by
//! the plugin, and the key ID it was encrypted under), the cache of decrypted DEK
//! sources, and the Status probe, all as kube-apiserver v1.33 runs them
//! (k8s.io/apiserver pkg/server/options/encryptionconfig and envelope/kmsv2):
//!
//! * the probe calls Status; healthz must be `ok`, version `v2` (or `v2beta1`, never
//!   changing), the key ID valid. When the key ID differs from the seed's, a new seed is
//!   generated and encrypted by the plugin; the seed stays writable for 3 minutes after
//!   the last good probe, so an outage longer than that fails writes;
//! * a read needs a write state (before the first good probe every read and write fails)
//!   and the DEK source decrypted, from the cache or by the plugin; a value whose key ID
//!   or source type differs from the current seed's is stale;
//! * the probe's result is cached 20 s when good, 3 s when not, and re-run when it
//!   expires; upstream re-runs it when a health check asks after that, here a loop asks
//!   at once (so key ID changes are seen at least as soon as under a prober).

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use kas_proto::KmsProvider;

use super::kms_api::{EncryptedDekSourceType, EncryptedObject};
use super::kms_client::KmsClient;
use super::kmsv2::{self, Dek, DekCache};
use super::metrics::{self, Direction};

/// The writable life of a seed after the last good probe.
const WRITE_TTL: Duration = Duration::from_secs(3 * 60);
/// How long a good probe holds (upstream's), unless [`PROBE_ENV`] says otherwise.
const POSITIVE_TTL: Duration = Duration::from_secs(20);
/// Environment variable: how long a good probe holds, in milliseconds (tests shorten it
/// to see a plugin's key ID change sooner).
pub(crate) const PROBE_ENV: &str = "KUBE_APISERVER_RS_KMS_PROBE_INTERVAL_MS";
const NEGATIVE_TTL: Duration = Duration::from_secs(3);
const SEED: i32 = EncryptedDekSourceType::HkdfSha256XnonceAesGcmSeed as i32;

/// The seed new values are written with.
#[derive(Clone)]
struct WriteState {
    dek: Arc<Dek>,
    /// The EncryptedObject every write starts from (no data yet).
    template: EncryptedObject,
    cache_key: Vec<u8>,
    expires: SystemTime,
}

/// One KMS v2 provider.
pub(super) struct Kms {
    pub(super) name: String,
    /// `k8s:enc:kms:v2:<name>:`.
    pub(super) prefix: String,
    client: KmsClient,
    state: Mutex<Option<WriteState>>,
    cache: DekCache,
    /// The plugin's API version from its first good Status.
    version: Mutex<String>,
    /// The last probe's result, for the health check.
    pub(super) last: Mutex<Result<(), String>>,
}

fn uid() -> String {
    uuid::Uuid::new_v4().to_string()
}

impl Kms {
    pub(super) fn new(p: &KmsProvider) -> Result<Kms, String> {
        let client = KmsClient::new(&p.name, &p.socket, Duration::from_millis(p.timeout_ms))
            .map_err(|e| {
                format!(
                    "could not configure KMSv2-Plugin's probe {:?}, error: {e}",
                    p.name
                )
            })?;
        Ok(Kms {
            name: p.name.clone(),
            prefix: format!("k8s:enc:kms:v2:{}:", p.name),
            client,
            state: Mutex::new(None),
            cache: DekCache::default(),
            version: Mutex::new(String::new()),
            last: Mutex::new(Err("not probed yet".to_owned())),
        })
    }

    /// Upstream's getCurrentState: the write state, if there is a valid one.
    fn current(&self) -> Result<WriteState, String> {
        self.state
            .lock()
            .ok()
            .and_then(|s| s.clone())
            .ok_or_else(|| "got unexpected nil transformer".to_owned())
    }

    /// What follows the prefix for `plain` stored under `key`.
    pub(super) fn seal(&self, plain: &[u8], key: &str) -> Result<Vec<u8>, String> {
        let state = self.current()?;
        let now = SystemTime::now();
        if now > state.expires {
            return Err(format!(
                "encryptedDEKSource with keyID hash {:?} expired at {} (current time is {})",
                kmsv2::key_id_hash(&state.template.key_id),
                kmsv2::rfc3339(state.expires),
                kmsv2::rfc3339(now)
            ));
        }
        // Keeps the write seed cached for reads, however long it has been in use.
        let cached = self.cache.set(state.cache_key.clone(), state.dek.clone());
        metrics::dek_source_cache_size(&self.name, cached);
        let mut o = state.template;
        o.encrypted_data = Bytes::from(state.dek.seal(plain, key.as_bytes())?);
        metrics::key_id_used(Direction::ToStorage, &self.name, &o.key_id);
        kmsv2::encode(&o)
    }

    /// The plain text of what follows the prefix, and whether it is stale.
    pub(super) async fn open(&self, data: &[u8], key: &str) -> Result<(Vec<u8>, bool), String> {
        let o = kmsv2::decode(data)?;
        let state = self.current()?;
        let t = o.encrypted_dek_source_type;
        let cache_key = kmsv2::cache_key(t, &o.encrypted_dek_source, &o.key_id, &o.annotations);
        let dek = match self.cache.get(&cache_key) {
            Some(d) => d,
            None => {
                metrics::cache_miss();
                let plain = self
                    .client
                    .decrypt(&uid(), &o.encrypted_dek_source, &o.key_id, &o.annotations)
                    .await
                    .map_err(|e| format!("failed to decrypt DEK, error: {e}"))?;
                let dek = Arc::new(Dek::new(t, &plain)?);
                let cached = self.cache.set(cache_key, dek.clone());
                metrics::dek_source_cache_size(&self.name, cached);
                dek
            }
        };
        metrics::key_id_used(Direction::FromStorage, &self.name, &o.key_id);
        let plain = dek.open(&o.encrypted_data, key.as_bytes())?;
        let stale =
            o.key_id != state.template.key_id || t != state.template.encrypted_dek_source_type;
        Ok((plain, stale))
    }

    /// One probe (upstream's kmsv2PluginProbe.check); returns how long its result holds.
    pub(super) async fn probe(&self) -> Duration {
        let result = match self.client.status().await {
            Err(e) => Err(format!(
                "failed to perform status section of the healthz check for KMS Provider {}, error: {e}",
                self.name
            )),
            Ok(s) => self.healthy_and_rotate(&s.healthz, &s.version, &s.key_id).await,
        };
        if let Err(e) = &result {
            tracing::warn!(name = %self.name, error = %e, "kms plugin failed health check probe");
        }
        let ttl = if result.is_ok() {
            crate::period::from_env(PROBE_ENV, POSITIVE_TTL)
        } else {
            NEGATIVE_TTL
        };
        if let Ok(mut last) = self.last.lock() {
            *last = result;
        }
        ttl
    }

    async fn healthy_and_rotate(
        &self,
        healthz: &str,
        version: &str,
        key_id: &str,
    ) -> Result<(), String> {
        let mut errs = Vec::new();
        if healthz != "ok" {
            errs.push(format!("got unexpected healthz status: {healthz}"));
        }
        if version != "v2" && version != "v2beta1" {
            errs.push(format!("expected KMSv2 API version v2, got {version}"));
        } else if let Ok(mut first) = self.version.lock() {
            if first.is_empty() {
                *first = version.to_owned();
            }
            if *first != version {
                errs.push(format!("KMSv2 API version should not change after the initial status response version {first}, got {version}"));
            }
        }
        match kmsv2::validate_key_id(key_id) {
            Err((code, e)) => {
                metrics::invalid_key_id_from_status(&self.name, code);
                errs.push(format!(
                    "got invalid KMSv2 KeyID hash {:?}: {e}",
                    kmsv2::key_id_hash(key_id)
                ))
            }
            Ok(()) => {
                metrics::key_id_from_status(&self.name, key_id);
                if let Err(e) = self.rotate(key_id).await {
                    errs.push(e);
                }
            }
        }
        if errs.is_empty() {
            return Ok(());
        }
        let all = if errs.len() == 1 {
            errs.remove(0)
        } else {
            format!("[{}]", errs.join(", "))
        };
        Err(format!(
            "kmsv2 Provider {} is not healthy, error: {all}",
            self.name
        ))
    }

    /// Upstream's rotateDEKOnKeyIDChange: the same key ID extends the seed's life; a new
    /// one (or no seed yet) makes a new seed, kept only if the plugin encrypted it under
    /// the key ID Status announced. On failure the old seed coasts until it expires.
    async fn rotate(&self, status_key_id: &str) -> Result<(), String> {
        let uid = uid();
        // The clock starts before the network call: the TTL is an upper bound.
        let expires = SystemTime::now() + WRITE_TTL;
        let old = self.current();
        if let Ok(mut s) = self.state.lock() {
            if let Some(s) = s.as_mut().filter(|s| s.template.key_id == status_key_id) {
                s.expires = expires;
                return Ok(());
            }
        }
        let generated = self.generate(&uid).await;
        if let Ok((dek, template, cache_key)) = &generated {
            if template.key_id == status_key_id {
                if let Ok(mut s) = self.state.lock() {
                    *s = Some(WriteState {
                        dek: dek.clone(),
                        template: template.clone(),
                        cache_key: cache_key.clone(),
                        expires,
                    });
                }
                tracing::info!(name = %self.name, uid, key_id_hash = %kmsv2::key_id_hash(status_key_id), "rotated the KMS v2 DEK seed");
                return Ok(());
            }
        }
        let nil = || "<nil>".to_owned();
        let encrypt_key_id = generated
            .as_ref()
            .map(|g| g.1.key_id.clone())
            .unwrap_or_default();
        let (state_key_id, state_expires) = match &old {
            Ok(s) => (s.template.key_id.clone(), kmsv2::rfc3339(s.expires)),
            Err(_) => (String::new(), "0001-01-01T00:00:00Z".to_owned()),
        };
        Err(format!(
            "failed to rotate DEK uid={uid:?}, useSeed=true, errState={}, errGen={}, statusKeyIDHash={:?}, encryptKeyIDHash={:?}, stateKeyIDHash={:?}, expirationTimestamp={state_expires}",
            old.err().unwrap_or_else(nil),
            generated.err().unwrap_or_else(nil),
            kmsv2::key_id_hash(status_key_id),
            kmsv2::key_id_hash(&encrypt_key_id),
            kmsv2::key_id_hash(&state_key_id),
        ))
    }

    /// Upstream's GenerateTransformer in seed mode: a fresh seed, encrypted by the plugin.
    async fn generate(&self, uid: &str) -> Result<(Arc<Dek>, EncryptedObject, Vec<u8>), String> {
        let drawn = std::time::Instant::now();
        let seed = kmsv2::new_seed();
        metrics::key_generation(drawn.elapsed(), seed.is_ok());
        let seed = seed?;
        let dek = Arc::new(Dek::new(SEED, &seed)?);
        let resp = self
            .client
            .encrypt(uid, &seed)
            .await
            .map_err(|e| format!("failed to encrypt DEK, error: {e}"))?;
        let mut o = EncryptedObject {
            encrypted_data: Bytes::from_static(&[0]), // passes validation
            key_id: resp.key_id,
            encrypted_dek_source: resp.ciphertext,
            annotations: resp.annotations,
            encrypted_dek_source_type: SEED,
        };
        kmsv2::validate(&o)?;
        let cache_key = kmsv2::cache_key(SEED, &o.encrypted_dek_source, &o.key_id, &o.annotations);
        o.encrypted_data = Bytes::new();
        Ok((dek, o, cache_key))
    }
}

#[cfg(test)]
impl Kms {
    /// Installs a write seed as if the plugin had encrypted `seed` into `source` under
    /// `key_id`, and caches it.
    pub(super) fn install_seed(&self, key_id: &str, source: &[u8], seed: &[u8]) {
        let dek = Arc::new(Dek::new(SEED, seed).expect("seed"));
        let template = EncryptedObject {
            encrypted_data: Bytes::new(),
            key_id: key_id.to_owned(),
            encrypted_dek_source: Bytes::copy_from_slice(source),
            annotations: Default::default(),
            encrypted_dek_source_type: SEED,
        };
        let cache_key = kmsv2::cache_key(SEED, source, key_id, &template.annotations);
        self.cache.set(cache_key.clone(), dek.clone());
        *self.state.lock().expect("state") = Some(WriteState {
            dek,
            template,
            cache_key,
            expires: SystemTime::now() + WRITE_TTL,
        });
    }

    /// Caches a decrypted DEK source as if the plugin had decrypted it.
    pub(super) fn cache_source(&self, source_type: i32, key_id: &str, source: &[u8], plain: &[u8]) {
        let key = kmsv2::cache_key(source_type, source, key_id, &Default::default());
        self.cache
            .set(key, Arc::new(Dek::new(source_type, plain).expect("dek")));
    }
}

/// Keeps `kms` probed while it is alive, after `first` and then whenever the last result
/// expires.
pub(super) async fn probe_loop(
    kms: std::sync::Weak<Kms>,
    changed: Arc<tokio::sync::watch::Sender<u64>>,
    first: Duration,
) {
    tokio::time::sleep(first).await;
    loop {
        let Some(k) = kms.upgrade() else { return };
        let ttl = k.probe().await;
        drop(k);
        changed.send_modify(|n| *n += 1);
        tokio::time::sleep(ttl).await;
    }
}
