//! Encryption at rest (`--encryption-provider-config`): the transformer between the
//! objects the API servers handle and the bytes kept in etcd, applied by
//! [`Storage`](super::Storage) to every value it writes and reads, so each reader — REST
//! stores, watch caches, followers, controllers — sees plain text.
//!
//! As kube-apiserver: each resource has the provider list of the first rule naming it
//! (exactly, by `*.<group>`, or by `*.*`); the first provider writes; a value is read by
//! the provider whose prefix it carries, and a value not written by the first provider
//! (or its first key) is *stale*. A resource no rule names is stored as it is, and a
//! value that looks encrypted (`k8s:enc:`) is then refused rather than served.
//!
//! A [`Transformers`] holds a swappable [`Set`] (see `dynamic`), so
//! `--encryption-provider-config-automatic-reload` can replace them while serving.

mod dynamic;
mod kms;
pub mod kms_api;
mod kms_client;
mod kmsv2;
pub mod metrics;
mod providers;
pub mod resources;

#[cfg(test)]
mod dynamic_tests;
#[cfg(test)]
mod kms_tests;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use kas_proto::{EncryptionConfig, EncryptionKey, EncryptionProvider};
use metrics::Direction;

pub use dynamic::{apply_reloads, set_automatic_reload, Transformers};
use providers::Cipher;
pub use resources::GroupResource;

/// What every encrypted value starts with.
const ENCRYPTED: &[u8] = b"k8s:enc:";
const NO_PREFIX: &str = "no matching prefix found";
const IDENTITY_ENCRYPTED: &str = "identity transformer tried to read encrypted data";

/// One provider of a list, keys ready.
enum Provider {
    Identity,
    /// A provider with keys: its prefix (`k8s:enc:aescbc:v1:`), the message when no key
    /// name matches, and the keys with their names.
    Keyed {
        prefix: &'static str,
        no_key: &'static str,
        keys: Vec<(String, Cipher)>,
    },
    /// A KMS v2 plugin's envelope (`k8s:enc:kms:v2:<name>:`).
    Kms(Arc<kms::Kms>),
}

/// A provider list: the first writes, all read.
pub(crate) struct Chain(Vec<Provider>);

/// A value read back: the plain bytes, and whether it should be rewritten with the
/// current write provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plain {
    pub(crate) value: Vec<u8>,
    pub(crate) stale: bool,
}

/// Go's `utilerrors.Reduce(NewAggregate(errs))`: one error as itself, several (distinct)
/// as `[a, b]`.
fn aggregate(errs: Vec<String>) -> String {
    let mut seen = Vec::new();
    for e in errs {
        if !seen.contains(&e) {
            seen.push(e);
        }
    }
    match seen.len() {
        1 => seen.remove(0),
        _ => format!("[{}]", seen.join(", ")),
    }
}

impl Chain {
    fn new(
        providers: &[EncryptionProvider],
        kms: &mut Vec<Arc<kms::Kms>>,
    ) -> Result<Chain, String> {
        let keyed = |prefix, no_key, keys: &[EncryptionKey], make: fn(&[u8]) -> Option<Cipher>| {
            let keys = keys
                .iter()
                .map(|k| {
                    make(&k.secret)
                        .map(|c| (format!("{}:", k.name), c))
                        .ok_or_else(|| format!("key {} has an invalid length", k.name))
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok::<_, String>(Provider::Keyed {
                prefix,
                no_key,
                keys,
            })
        };
        let aes_no_key = "no matching key was found for the provided AES transformer";
        providers
            .iter()
            .map(|p| match p {
                EncryptionProvider::Identity => Ok(Provider::Identity),
                EncryptionProvider::AesCbc(k) => {
                    keyed("k8s:enc:aescbc:v1:", aes_no_key, k, Cipher::cbc)
                }
                EncryptionProvider::AesGcm(k) => {
                    keyed("k8s:enc:aesgcm:v1:", aes_no_key, k, Cipher::gcm)
                }
                EncryptionProvider::Secretbox(k) => keyed(
                    "k8s:enc:secretbox:v1:",
                    "no matching key was found for the provided Secretbox transformer",
                    k,
                    Cipher::secretbox,
                ),
                EncryptionProvider::Kms(p) => {
                    let k = Arc::new(kms::Kms::new(p)?);
                    kms.push(k.clone());
                    Ok(Provider::Kms(k))
                }
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Chain)
    }

    /// The stored bytes of `plain` kept under `key`, a value of `resource`.
    fn seal(&self, plain: Vec<u8>, key: &str, resource: &str) -> Result<Vec<u8>, String> {
        let record = timed(resource, Direction::ToStorage);
        match self.0.first() {
            None => Ok(plain),
            Some(Provider::Identity) => {
                record("", Ok(()));
                Ok(plain)
            }
            Some(Provider::Kms(k)) => {
                let out = k.seal(&plain, key).map(|sealed| {
                    let mut out = Vec::with_capacity(k.prefix.len() + sealed.len());
                    out.extend_from_slice(k.prefix.as_bytes());
                    out.extend_from_slice(&sealed);
                    out
                });
                record(&k.prefix, outcome(&out));
                out
            }
            Some(Provider::Keyed { prefix, keys, .. }) => {
                let Some((name, cipher)) = keys.first() else {
                    return Ok(plain);
                };
                let out = cipher.seal(&plain, key.as_bytes()).map(|sealed| {
                    let mut out = Vec::with_capacity(prefix.len() + name.len() + sealed.len());
                    out.extend_from_slice(prefix.as_bytes());
                    out.extend_from_slice(name.as_bytes());
                    out.extend_from_slice(&sealed);
                    out
                });
                // Upstream's two levels each record: the key, then the provider.
                record(name, outcome(&out));
                record(prefix, outcome(&out));
                out
            }
        }
    }

    /// Upstream's prefix transformers, two levels deep (providers, then key names): the
    /// first matching one that succeeds wins; failures of every match are reported
    /// together. Each level records what it did as upstream's does.
    async fn open(&self, data: Vec<u8>, key: &str, resource: &str) -> Result<Plain, String> {
        let record = timed(resource, Direction::FromStorage);
        let mut errs = Vec::new();
        for (i, p) in self.0.iter().enumerate() {
            match p {
                Provider::Identity => {
                    // An encrypted value is for a later provider, not an error here.
                    if !data.starts_with(ENCRYPTED) {
                        record("identity", Ok(()));
                        return Ok(Plain {
                            value: data,
                            stale: i != 0,
                        });
                    }
                }
                Provider::Kms(k) => {
                    let Some(rest) = data.strip_prefix(k.prefix.as_bytes()) else {
                        continue;
                    };
                    let opened = k.open(rest, key).await;
                    record(&k.prefix, outcome(&opened));
                    match opened {
                        Ok((value, stale)) => {
                            return Ok(Plain {
                                value,
                                stale: stale || i != 0,
                            })
                        }
                        Err(e) => errs.push(e),
                    }
                }
                Provider::Keyed {
                    prefix,
                    no_key,
                    keys,
                } => {
                    let Some(rest) = data.strip_prefix(prefix.as_bytes()) else {
                        continue;
                    };
                    let opened = open_keyed(keys, no_key, rest, key, resource);
                    record(prefix, outcome(&opened));
                    match opened {
                        Ok((value, key_index)) => {
                            return Ok(Plain {
                                value,
                                stale: i != 0 || key_index != 0,
                            })
                        }
                        Err(e) => errs.push(e),
                    }
                }
            }
        }
        if errs.is_empty() {
            record("unknown", Err(NO_PREFIX));
            Err(NO_PREFIX.to_owned())
        } else {
            Err(aggregate(errs))
        }
    }
}

/// Records what one level of a transformation of a `resource` value did, by its
/// prefix, timed from now.
fn timed(resource: &str, direction: Direction) -> impl Fn(&str, Result<(), &str>) + '_ {
    let start = Instant::now();
    move |prefix, result| {
        let elapsed = start.elapsed();
        metrics::transformation(resource, direction, prefix, elapsed, result);
    }
}

/// A transformation's result as [`timed`] records it.
fn outcome<T>(result: &Result<T, String>) -> Result<(), &str> {
    result.as_ref().map(|_| ()).map_err(String::as_str)
}

/// The inner level of a keyed provider: the key whose name prefixes `rest`.
fn open_keyed(
    keys: &[(String, Cipher)],
    no_key: &str,
    rest: &[u8],
    key: &str,
    resource: &str,
) -> Result<(Vec<u8>, usize), String> {
    let record = timed(resource, Direction::FromStorage);
    let mut errs = Vec::new();
    for (j, (name, cipher)) in keys.iter().enumerate() {
        if let Some(sealed) = rest.strip_prefix(name.as_bytes()) {
            let opened = cipher.open(sealed, key.as_bytes());
            record(name, outcome(&opened));
            match opened {
                Ok(v) => return Ok((v, j)),
                Err(e) => errs.push(e),
            }
        }
    }
    if errs.is_empty() {
        record("unknown", Err(no_key));
        Err(no_key.to_owned())
    } else {
        Err(aggregate(errs))
    }
}

/// The transformers of every configured resource, as one configuration made them.
pub(crate) struct Set {
    /// `--etcd-prefix` with a trailing `/`, stripped from keys to find their resource.
    prefix: String,
    /// By group, then resource, as the rules name them; `*` for wildcards. Nested so a
    /// lookup borrows the key's parts instead of building owned ones.
    chains: HashMap<String, HashMap<String, std::sync::Arc<Chain>>>,
    /// Every KMS v2 provider, in file order (`kms-provider-<index>` in health reasons).
    kms: Vec<Arc<kms::Kms>>,
    /// Bumped after each KMS probe (the sender of the [`Transformers`] holding this set).
    kms_changed: Arc<tokio::sync::watch::Sender<u64>>,
    /// upstream's KMSCloseGracePeriod: twice the sum of the KMS providers' timeouts.
    kms_grace: std::time::Duration,
    /// Set once the KMS plugins were first probed and their probe loops started: every
    /// client sharing the set asks, one probes.
    kms_started: tokio::sync::OnceCell<()>,
}

impl std::fmt::Debug for Set {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names: Vec<(&String, &String)> = self
            .chains
            .iter()
            .flat_map(|(g, rs)| rs.keys().map(move |r| (g, r)))
            .collect();
        names.sort();
        f.debug_struct("Set").field("resources", &names).finish()
    }
}

impl Set {
    /// The transformers of `config` for keys under `prefix` (`/registry`); an earlier
    /// rule wins over a later one naming the same resource. KMS probes mark `kms_changed`.
    pub(crate) fn new(
        prefix: &str,
        config: Option<&EncryptionConfig>,
        kms_changed: Arc<tokio::sync::watch::Sender<u64>>,
    ) -> Result<Set, String> {
        let mut chains = HashMap::new();
        let mut kms = Vec::new();
        let mut timeouts = 0u64;
        for rule in config.map(|c| c.rules.as_slice()).unwrap_or_default() {
            let chain = std::sync::Arc::new(Chain::new(&rule.providers, &mut kms)?);
            timeouts += rule
                .providers
                .iter()
                .map(|p| match p {
                    EncryptionProvider::Kms(k) => k.timeout_ms,
                    _ => 0,
                })
                .sum::<u64>();
            for r in &rule.resources {
                let (resource, group) = r.split_once('.').unwrap_or((r, ""));
                chains
                    .entry(group.to_owned())
                    .or_insert_with(HashMap::new)
                    .entry(resource.to_owned())
                    .or_insert_with(|| chain.clone());
            }
        }
        Ok(Set {
            prefix: format!("{}/", prefix.trim_end_matches('/')),
            chains,
            kms,
            kms_changed,
            kms_grace: std::time::Duration::from_millis(timeouts.saturating_mul(2)),
            kms_started: tokio::sync::OnceCell::new(),
        })
    }

    /// Whether a KMS provider is configured.
    pub(crate) fn has_kms(&self) -> bool {
        !self.kms.is_empty()
    }

    /// Probes every KMS plugin once (upstream primes its seed before serving), then keeps
    /// probing each in the background for as long as these transformers live. Only the
    /// first call probes; later ones wait for it.
    pub(crate) async fn start_kms(&self) {
        self.kms_started
            .get_or_init(|| async {
                let probes = self.kms.iter().map(|k| k.probe());
                let ttls = futures_util::future::join_all(probes).await;
                self.kms_changed.send_modify(|n| *n += 1);
                for (k, ttl) in self.kms.iter().zip(ttls) {
                    let weak = Arc::downgrade(k);
                    tokio::spawn(kms::probe_loop(weak, self.kms_changed.clone(), ttl));
                }
            })
            .await;
    }

    /// The `kms-providers` health check: each plugin's last probe, failures named
    /// `kms-provider-<index>` and reported together (upstream's kmsHealthChecker).
    pub(crate) fn kms_health(&self) -> Result<(), String> {
        let errs: Vec<String> = self
            .kms
            .iter()
            .enumerate()
            .filter_map(|(i, k)| {
                let last = k.last.lock().map(|l| l.clone()).unwrap_or(Ok(()));
                last.err().map(|e| format!("kms-provider-{i}: {e}"))
            })
            .collect();
        if errs.is_empty() {
            Ok(())
        } else {
            Err(aggregate(errs))
        }
    }

    /// The provider list of the resource `key` belongs to and that resource's name as
    /// metrics label it (`secrets`, `deployments.apps`); `None` when no rule names it.
    fn chain(&self, key: &str) -> Option<(&Chain, String)> {
        if self.chains.is_empty() {
            return None;
        }
        let path = key.strip_prefix(&self.prefix).unwrap_or(key);
        let gr = resources::of_key_path(path);
        let find = |g: &str, r: &str| self.chains.get(g).and_then(|rs| rs.get(r));
        let chain = find(gr.group, gr.resource)
            .or_else(|| find(gr.group, "*"))
            .or_else(|| find("*", "*"))?;
        let resource = match gr.group {
            "" => gr.resource.to_owned(),
            g => format!("{}.{g}", gr.resource),
        };
        Some((chain.as_ref(), resource))
    }

    /// The bytes to store for `plain` under `key`.
    pub(crate) fn encrypt(&self, key: &str, plain: Vec<u8>) -> Result<Vec<u8>, String> {
        match self.chain(key) {
            None => Ok(plain),
            Some((chain, resource)) => chain.seal(plain, key, &resource),
        }
    }

    /// The plain bytes of the value stored under `key`, or upstream's reason it cannot
    /// be read.
    pub(crate) async fn decrypt(&self, key: &str, stored: Vec<u8>) -> Result<Plain, String> {
        match self.chain(key) {
            None if stored.starts_with(ENCRYPTED) => Err(IDENTITY_ENCRYPTED.to_owned()),
            None => Ok(Plain {
                value: stored,
                stale: false,
            }),
            Some((chain, resource)) => chain.open(stored, key, &resource).await,
        }
    }
}
