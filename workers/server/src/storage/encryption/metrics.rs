//! Encryption at rest's metrics, with kube-apiserver v1.33's names, labels and buckets
//! (k8s.io/apiserver `storage/value`, `envelope/metrics`, `encryptionconfig/metrics`):
//!
//! * every transformation by a configured resource's providers —
//!   `apiserver_storage_transformation_operations_total` (resource, direction, prefix,
//!   status: `OK`, the gRPC code of a KMS failure, or `unknown-non-grpc`) and, when it
//!   succeeds, `apiserver_storage_transformation_duration_seconds`. As upstream's nested
//!   prefix transformers record it, a keyed provider (aescbc, aesgcm, secretbox) counts
//!   at both levels: the key (`key1:`) and the provider (`k8s:enc:aescbc:v1:`); identity
//!   reads as `identity`, writes as ""; a value no provider matches as `unknown`. The
//!   resource is the one the etcd key names (upstream takes the request's, "" for reads
//!   no request made);
//! * KMS v2: each plugin call's latency and gRPC code, the key IDs used to write and read
//!   and announced by Status (hashed; at most 100 label sets each, the least recently
//!   used dropped), invalid key IDs from Status, DEK seed generations, DEK source cache
//!   misses and size;
//! * `--encryption-provider-config-automatic-reload`: reloads by outcome and when the
//!   last of each happened, by server identity (hashed).

use std::collections::VecDeque;
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use prometheus::{
    GaugeVec, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, Opts,
};

use crate::identity::{apiserver_id_hash, sha256_label};
use crate::metrics::{exponential_buckets, help, register, Stability};

/// Which way a value went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    ToStorage,
    FromStorage,
}

impl Direction {
    fn label(self) -> &'static str {
        match self {
            Direction::ToStorage => "to_storage",
            Direction::FromStorage => "from_storage",
        }
    }
}

/// The most key-ID label sets kept per family (upstream's LRU size).
const KEY_ID_LABEL_SETS: usize = 100;

struct Families {
    transformation_latency: HistogramVec,
    transformations: IntCounterVec,
    cache_misses: IntCounter,
    key_generation_latency: Histogram,
    key_generation_failures: IntCounter,
    kms_latency: HistogramVec,
    key_id_total: IntCounterVec,
    key_id_last: GaugeVec,
    key_id_status_last: GaugeVec,
    invalid_key_id: IntCounterVec,
    dek_source_cache_size: GaugeVec,
    reloads: IntCounterVec,
    reload_last: GaugeVec,
    /// The key-ID label sets in use, least recently used first.
    key_id_sets: Mutex<VecDeque<[String; 4]>>,
    key_id_status_sets: Mutex<VecDeque<[String; 3]>>,
}

fn alpha(name: &str, text: &str) -> Opts {
    Opts::new(name, help(Stability::Alpha, text))
}

fn alpha_histogram(name: &str, text: &str, buckets: Vec<f64>) -> HistogramOpts {
    HistogramOpts::new(name, help(Stability::Alpha, text)).buckets(buckets)
}

fn families() -> &'static Families {
    static FAMILIES: OnceLock<Families> = OnceLock::new();
    // Fixed names and labels: building them cannot fail.
    FAMILIES.get_or_init(|| Families {
        transformation_latency: register(
            HistogramVec::new(
                alpha_histogram(
                    "apiserver_storage_transformation_duration_seconds",
                    "Latencies in seconds of value transformation operations.",
                    exponential_buckets(5e-6, 2.0, 25),
                ),
                &["transformation_type", "transformer_prefix"],
            )
            .expect("transformation_duration_seconds"),
        ),
        transformations: register(
            IntCounterVec::new(
                alpha(
                    "apiserver_storage_transformation_operations_total",
                    "Total number of transformations. Successful transformation will have a status 'OK' and a varied status string when the transformation fails. The status, resource, and transformation_type fields can be used for alerting purposes. For example, you can monitor for encryption/decryption failures using the transformation_type (e.g., from_storage for decryption and to_storage for encryption). Additionally, these fields can be used to ensure that the correct transformers are applied to each resource.",
                ),
                &["resource", "transformation_type", "transformer_prefix", "status"],
            )
            .expect("transformation_operations_total"),
        ),
        cache_misses: register(
            IntCounter::with_opts(alpha(
                "apiserver_storage_envelope_transformation_cache_misses_total",
                "Total number of cache misses while accessing key decryption key(KEK).",
            ))
            .expect("envelope_transformation_cache_misses_total"),
        ),
        key_generation_latency: register(
            Histogram::with_opts(alpha_histogram(
                "apiserver_storage_data_key_generation_duration_seconds",
                "Latencies in seconds of data encryption key(DEK) generation operations.",
                exponential_buckets(5e-6, 2.0, 14),
            ))
            .expect("data_key_generation_duration_seconds"),
        ),
        key_generation_failures: register(
            IntCounter::with_opts(alpha(
                "apiserver_storage_data_key_generation_failures_total",
                "Total number of failed data encryption key(DEK) generation operations.",
            ))
            .expect("data_key_generation_failures_total"),
        ),
        kms_latency: register(
            HistogramVec::new(
                alpha_histogram(
                    "apiserver_envelope_encryption_kms_operations_latency_seconds",
                    "KMS operation duration with gRPC error code status total.",
                    exponential_buckets(0.0001, 2.0, 20),
                ),
                &["provider_name", "method_name", "grpc_status_code"],
            )
            .expect("kms_operations_latency_seconds"),
        ),
        key_id_total: register(
            IntCounterVec::new(
                alpha(
                    "apiserver_envelope_encryption_key_id_hash_total",
                    "Number of times a keyID is used split by transformation type, provider, and apiserver identity.",
                ),
                &["transformation_type", "provider_name", "key_id_hash", "apiserver_id_hash"],
            )
            .expect("key_id_hash_total"),
        ),
        key_id_last: register(
            GaugeVec::new(
                alpha(
                    "apiserver_envelope_encryption_key_id_hash_last_timestamp_seconds",
                    "The last time in seconds when a keyID was used.",
                ),
                &["transformation_type", "provider_name", "key_id_hash", "apiserver_id_hash"],
            )
            .expect("key_id_hash_last_timestamp_seconds"),
        ),
        key_id_status_last: register(
            GaugeVec::new(
                alpha(
                    "apiserver_envelope_encryption_key_id_hash_status_last_timestamp_seconds",
                    "The last time in seconds when a keyID was returned by the Status RPC call.",
                ),
                &["provider_name", "key_id_hash", "apiserver_id_hash"],
            )
            .expect("key_id_hash_status_last_timestamp_seconds"),
        ),
        invalid_key_id: register(
            IntCounterVec::new(
                alpha(
                    "apiserver_envelope_encryption_invalid_key_id_from_status_total",
                    "Number of times an invalid keyID is returned by the Status RPC call split by error.",
                ),
                &["provider_name", "error"],
            )
            .expect("invalid_key_id_from_status_total"),
        ),
        dek_source_cache_size: register(
            GaugeVec::new(
                alpha(
                    "apiserver_envelope_encryption_dek_source_cache_size",
                    "Number of records in data encryption key (DEK) source cache. On a restart, this value is an approximation of the number of decrypt RPC calls the server will make to the KMS plugin.",
                ),
                &["provider_name"],
            )
            .expect("dek_source_cache_size"),
        ),
        reloads: register(
            IntCounterVec::new(
                alpha(
                    "apiserver_encryption_config_controller_automatic_reloads_total",
                    "Total number of reload successes and failures of encryption configuration split by apiserver identity.",
                ),
                &["status", "apiserver_id_hash"],
            )
            .expect("automatic_reloads_total"),
        ),
        reload_last: register(
            GaugeVec::new(
                alpha(
                    "apiserver_encryption_config_controller_automatic_reload_last_timestamp_seconds",
                    "Timestamp of the last successful or failed automatic reload of encryption configuration split by apiserver identity.",
                ),
                &["status", "apiserver_id_hash"],
            )
            .expect("automatic_reload_last_timestamp_seconds"),
        ),
        key_id_sets: Mutex::default(),
        key_id_status_sets: Mutex::default(),
    })
}

/// Seconds since the epoch, as a gauge's SetToCurrentTime sets it.
fn now_seconds() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or_default()
}

/// The status label of a failure: the gRPC code when the message carries a plugin's
/// status (`rpc error: code = <Code> desc = …`, as Go prints it and this server's KMS
/// client does), `unknown-non-grpc` otherwise.
pub(super) fn status_of(err: &str) -> &str {
    err.split_once("rpc error: code = ")
        .and_then(|(_, rest)| rest.split(' ').next())
        .filter(|code| !code.is_empty())
        .unwrap_or("unknown-non-grpc")
}

/// One transformation of a value of `resource` by the provider or key at `prefix`.
pub(super) fn transformation(
    resource: &str,
    direction: Direction,
    prefix: &str,
    elapsed: Duration,
    result: Result<(), &str>,
) {
    let f = families();
    let status = match result {
        Ok(()) => "OK",
        Err(e) => status_of(e),
    };
    f.transformations
        .with_label_values(&[resource, direction.label(), prefix, status])
        .inc();
    if result.is_ok() {
        f.transformation_latency
            .with_label_values(&[direction.label(), prefix])
            .observe(elapsed.as_secs_f64());
    }
}

/// A DEK source that was not cached: the plugin is asked to decrypt it.
pub(super) fn cache_miss() {
    families().cache_misses.inc();
}

/// A DEK seed drawn (its latency) or not.
pub(super) fn key_generation(elapsed: Duration, ok: bool) {
    let f = families();
    if ok {
        f.key_generation_latency.observe(elapsed.as_secs_f64());
    } else {
        f.key_generation_failures.inc();
    }
}

/// One call to a KMS plugin (`method` its full gRPC name) and how it ended.
pub(super) fn kms_call(provider: &str, method: &str, elapsed: Duration, code: &str) {
    families()
        .kms_latency
        .with_label_values(&[provider, method, code])
        .observe(elapsed.as_secs_f64());
}

/// Marks `set` most recently used in `sets`, and returns the label set that fell out.
fn touch<const N: usize>(
    sets: &Mutex<VecDeque<[String; N]>>,
    set: &[String; N],
) -> Option<[String; N]> {
    let mut sets = sets.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(i) = sets.iter().position(|s| s == set) {
        let s = sets.remove(i)?;
        sets.push_back(s);
        return None;
    }
    sets.push_back(set.clone());
    (sets.len() > KEY_ID_LABEL_SETS)
        .then(|| sets.pop_front())
        .flatten()
}

fn strs<const N: usize>(set: &[String; N]) -> [&str; N] {
    std::array::from_fn(|i| set[i].as_str())
}

/// A value written or read with a DEK under `key_id`.
pub(super) fn key_id_used(direction: Direction, provider: &str, key_id: &str) {
    let f = families();
    let set = [
        direction.label().to_owned(),
        provider.to_owned(),
        sha256_label(key_id),
        apiserver_id_hash().to_owned(),
    ];
    if let Some(old) = touch(&f.key_id_sets, &set) {
        let _ = f.key_id_total.remove_label_values(&strs(&old));
        let _ = f.key_id_last.remove_label_values(&strs(&old));
    }
    f.key_id_total.with_label_values(&strs(&set)).inc();
    f.key_id_last
        .with_label_values(&strs(&set))
        .set(now_seconds());
}

/// A valid key ID announced by the plugin's Status.
pub(super) fn key_id_from_status(provider: &str, key_id: &str) {
    let f = families();
    let set = [
        provider.to_owned(),
        sha256_label(key_id),
        apiserver_id_hash().to_owned(),
    ];
    if let Some(old) = touch(&f.key_id_status_sets, &set) {
        let _ = f.key_id_status_last.remove_label_values(&strs(&old));
    }
    f.key_id_status_last
        .with_label_values(&strs(&set))
        .set(now_seconds());
}

/// An invalid key ID from Status (`code`: `empty` or `too_long`).
pub(super) fn invalid_key_id_from_status(provider: &str, code: &str) {
    families()
        .invalid_key_id
        .with_label_values(&[provider, code])
        .inc();
}

/// How many decrypted DEK sources `provider` holds.
pub(super) fn dek_source_cache_size(provider: &str, size: usize) {
    families()
        .dek_source_cache_size
        .with_label_values(&[provider])
        .set(size as f64);
}

/// A reload of `--encryption-provider-config` that took effect, or failed.
pub fn reload(ok: bool) {
    let f = families();
    let status = if ok { "success" } else { "failure" };
    let labels = [status, apiserver_id_hash()];
    f.reloads.with_label_values(&labels).inc();
    f.reload_last.with_label_values(&labels).set(now_seconds());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_labels() {
        assert_eq!(
            status_of("failed to decrypt DEK, error: rpc error: code = DeadlineExceeded desc = context deadline exceeded"),
            "DeadlineExceeded"
        );
        assert_eq!(status_of("no matching prefix found"), "unknown-non-grpc");
    }

    #[test]
    fn key_id_label_sets_are_bounded() {
        let sets = Mutex::default();
        let set = |i: usize| [i.to_string()];
        for i in 0..KEY_ID_LABEL_SETS {
            assert_eq!(touch(&sets, &set(i)), None);
        }
        // Using the oldest again keeps it; the next new one pushes out the next oldest.
        assert_eq!(touch(&sets, &set(0)), None);
        assert_eq!(touch(&sets, &set(1000)), Some(set(1)));
    }
}
