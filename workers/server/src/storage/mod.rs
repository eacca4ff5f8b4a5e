//! The API servers' storage layer on etcd v3, through `etcd-client`, whatever the backend:
//! a real etcd (`--etcd-servers`) or the embedded store of the storage worker (its unix
//! socket). Keys, revisions and semantics are kube-apiserver's:
//!
//! * keys are `<prefix>/<resource path>/<namespace>/<name>` (the resource path carries the
//!   group where upstream puts it, e.g. `apiextensions.k8s.io/customresourcedefinitions`);
//! * `resourceVersion` is the etcd mod revision;
//! * create is a transaction on `create_revision == 0`, update and delete on
//!   `mod_revision == expected`;
//! * every page of a LIST is read at one revision; a compacted one is an error;
//! * objects with a TTL ride on leases;
//! * values pass through the storage codec (`codec`: `--storage-media-type`, protobuf for
//!   built-in kinds by default) and then the encryption-at-rest transformers
//!   (`encryption`) on their way in, and back out in reverse, here and nowhere else, so
//!   every reader sees plain JSON.

mod codec;
mod continue_token;
mod dial;
pub mod encryption;
mod error;
mod list;
mod maintenance;
mod metrics;
mod watch;

use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use etcd_client::{Client, Compare, CompareOp, GetOptions, PutOptions, Txn, TxnOp, TxnOpResponse};
use kas_proto::{EncryptionConfig, StorageMediaType, WorkerConfig, WorkerRole};
use tonic::transport::{Certificate, ClientTlsConfig, Endpoint, Identity};

/// The largest response accepted from etcd, as kube-apiserver's (`math.MaxInt32`).
const MAX_RECV_MSG: usize = i32::MAX as usize;

pub use codec::{set_decode_defaults, DecodeDefaults};
pub use error::StorageError;
pub(crate) use list::prefix_end;
pub use maintenance::{compactor, monitor};
pub use watch::{Watch, WatchEvent};

/// A `continue` token decoded as the storage layer decodes it: (start key relative to the
/// listed prefix, revision), or the 400 `Status` a LIST answers.
#[cfg(fuzzing)]
pub(crate) fn decode_continue(token: &str) -> Result<(String, i64), crate::status::Status> {
    continue_token::decode(token).map_err(|e| e.to_status("", "", ""))
}

/// The token that resumes a list at `start` (relative to the prefix) at `revision`.
#[cfg(fuzzing)]
pub(crate) fn encode_continue(start: &str, revision: i64) -> String {
    continue_token::encode(start, revision)
}

/// Where and how to reach etcd.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorageConfig {
    /// `http://`, `https://` or `unix://` endpoints.
    pub endpoints: Vec<String>,
    /// `--etcd-prefix`.
    pub prefix: String,
    /// `--etcd-cafile`.
    pub ca_file: Option<PathBuf>,
    /// `--etcd-certfile`.
    pub cert_file: Option<PathBuf>,
    /// `--etcd-keyfile`.
    pub key_file: Option<PathBuf>,
    /// `--encryption-provider-config`, parsed; `None` stores values as they are.
    pub encryption: Option<EncryptionConfig>,
    /// `--storage-media-type`.
    pub media_type: StorageMediaType,
}

impl StorageConfig {
    /// The storage a worker uses: `--etcd-servers`, or the storage worker's socket.
    pub fn for_worker(cfg: &WorkerConfig) -> StorageConfig {
        let endpoints = if cfg.etcd_servers.is_empty() {
            vec![format!(
                "unix://{}",
                cfg.socket_path(WorkerRole::Storage).display()
            )]
        } else {
            cfg.etcd_servers.clone()
        };
        StorageConfig {
            endpoints,
            prefix: cfg.etcd_prefix.trim_end_matches('/').to_owned(),
            ca_file: cfg.etcd_cafile.clone(),
            cert_file: cfg.etcd_certfile.clone(),
            key_file: cfg.etcd_keyfile.clone(),
            encryption: cfg.encryption.clone(),
            media_type: cfg.storage_media_type,
        }
    }
}

/// An object as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// The full key.
    pub key: String,
    /// The serialized object.
    pub value: Vec<u8>,
    /// The revision that last changed it: its resourceVersion.
    pub revision: i64,
    /// The revision that created it.
    pub create_revision: i64,
    /// The lease it is attached to (0 for none).
    pub lease: i64,
    /// Written by a provider other than the current write provider (or with another of
    /// its keys), or in another format than the storage media type: an update should
    /// store it again even when nothing else changed.
    pub stale: bool,
}

impl Stored {
    /// The key-value as etcd holds it, value untransformed.
    fn from_kv(kv: &etcd_client::KeyValue) -> Stored {
        Stored {
            key: String::from_utf8_lossy(kv.key()).into_owned(),
            value: kv.value().to_vec(),
            revision: kv.mod_revision(),
            create_revision: kv.create_revision(),
            lease: kv.lease(),
            stale: false,
        }
    }

    /// Its value as JSON: decrypted through `t`, then decoded by `codec`; upstream's
    /// message when it does not read.
    async fn opened(
        mut self,
        t: &encryption::Transformers,
        codec: &codec::Codec,
    ) -> Result<Stored, String> {
        let plain = t
            .decrypt(&self.key, std::mem::take(&mut self.value))
            .await?;
        let decoded = codec
            .decode(&self.key, plain.value)
            .map_err(|e| format!("unable to decode the stored object: {e}"))?;
        self.value = decoded.json;
        self.stale = plain.stale || decoded.stale;
        Ok(self)
    }
}

/// kube-apiserver's `resourceVersion` + `resourceVersionMatch` for reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadVersion {
    /// Unset: the latest data (a quorum read).
    Latest,
    /// `"0"`: any data is fine.
    Any,
    /// `resourceVersionMatch=NotOlderThan` (or a plain resourceVersion on GET).
    NotOlderThan(i64),
    /// `resourceVersionMatch=Exact`: as of that revision.
    Exact(i64),
}

/// A predicate on a stored object's bytes (label and field selectors).
pub type Filter = dyn Fn(&[u8]) -> bool + Send + Sync;

/// One LIST request's paging.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListOptions {
    /// `limit`; 0 means everything.
    pub limit: i64,
    /// `continue`.
    pub continue_token: Option<String>,
}

/// One page of a LIST.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListPage {
    /// The matching objects, in key order.
    pub items: Vec<Stored>,
    /// The revision every page of this list is read at: the list's resourceVersion.
    pub revision: i64,
    /// The token for the next page, when there is one.
    pub continue_token: Option<String>,
    /// Objects left after this page when no filter was applied (`remainingItemCount`).
    pub remaining: Option<i64>,
}

/// A connection to etcd (cheap to clone).
#[derive(Clone)]
pub struct Storage {
    client: Client,
    prefix: Arc<str>,
    transformers: Arc<encryption::Transformers>,
    codec: Arc<codec::Codec>,
    /// The highest revision seen in any response (for bookmarks and health).
    seen_revision: Arc<AtomicI64>,
    /// The objects' group-qualified resource, the `type` of the etcd metrics.
    kind: Arc<str>,
}

impl std::fmt::Debug for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Storage")
            .field("prefix", &self.prefix)
            .finish()
    }
}

fn read_file(p: &Option<PathBuf>) -> Result<Option<Vec<u8>>, StorageError> {
    p.as_ref()
        .map(|p| {
            std::fs::read(p)
                .map_err(|e| StorageError::Internal(format!("reading {}: {e}", p.display())))
        })
        .transpose()
}

impl Storage {
    /// Prepares a client; nothing is dialled until the first call, so a worker starts
    /// (and reports etcd as not ready) while etcd is still down.
    pub async fn new(cfg: &StorageConfig) -> Result<Storage, StorageError> {
        let ca = read_file(&cfg.ca_file)?;
        let identity = match (read_file(&cfg.cert_file)?, read_file(&cfg.key_file)?) {
            (Some(c), Some(k)) => Some(Identity::from_pem(c, k)),
            _ => None,
        };
        let mut endpoints = Vec::new();
        // The storage worker's socket: dialled by a connector that waits for it.
        let unix = match cfg.endpoints.as_slice() {
            [one] => dial::unix_path(one),
            _ => None,
        };
        for url in &cfg.endpoints {
            let url = match unix {
                Some(_) => "http://localhost",
                None => url.as_str(),
            };
            let mut ep = Endpoint::from_shared(url.to_owned())
                .map_err(|e| StorageError::Internal(format!("etcd endpoint {url}: {e}")))?
                .connect_timeout(Duration::from_secs(2))
                .tcp_nodelay(true)
                .http2_keep_alive_interval(Duration::from_secs(10))
                .keep_alive_timeout(Duration::from_secs(5));
            if url.starts_with("https://") {
                let mut tls = ClientTlsConfig::new();
                if let Some(ca) = &ca {
                    tls = tls.ca_certificate(Certificate::from_pem(ca));
                }
                if let Some(id) = &identity {
                    tls = tls.identity(id.clone());
                }
                ep = ep
                    .tls_config(tls)
                    .map_err(|e| StorageError::Internal(format!("etcd TLS: {e}")))?;
            }
            endpoints.push(ep);
        }
        let channel = match (endpoints.len(), unix) {
            (1, Some(path)) => dial::unix_channel(endpoints.remove(0), &path),
            (1, None) => endpoints.remove(0).connect_lazy(),
            _ => tonic::transport::Channel::balance_list(endpoints.into_iter()),
        };
        let client = Client::from_channel(etcd_client::Channel::Tonic(channel), None)
            .await
            .map_err(StorageError::from)?;
        let transformers = encryption::Transformers::new(&cfg.prefix, cfg.encryption.as_ref())
            .map_err(|e| StorageError::Internal(format!("encryption providers: {e}")))?;
        transformers.start_kms().await;
        Ok(Storage {
            client,
            prefix: Arc::from(cfg.prefix.as_str()),
            transformers: Arc::new(transformers),
            codec: Arc::new(codec::Codec::new(&cfg.prefix, cfg.media_type)),
            seen_revision: Arc::new(AtomicI64::new(0)),
            kind: Arc::from(""),
        })
    }

    /// The group-qualified resource its calls are counted on ("" when not one).
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The same connection, its calls counted in the etcd metrics as calls on objects of
    /// `kind` (the group-qualified resource, `configmaps` or `deployments.apps`).
    pub fn for_kind(&self, kind: &str) -> Storage {
        Storage {
            kind: Arc::from(kind),
            ..self.clone()
        }
    }

    /// A stored object as JSON; a value that does not decrypt or decode is an internal
    /// error naming upstream's reason.
    async fn read(&self, kv: &etcd_client::KeyValue) -> Result<Stored, StorageError> {
        Stored::from_kv(kv)
            .opened(&self.transformers, &self.codec)
            .await
            .map_err(StorageError::Transform)
    }

    /// The transformers' KMS health: a receiver marked after each plugin probe, and the
    /// `kms-providers` check; `None` when no KMS provider is configured.
    pub fn kms_health(
        &self,
    ) -> Option<(
        tokio::sync::watch::Receiver<u64>,
        Arc<encryption::Transformers>,
    )> {
        self.transformers
            .kms_changes()
            .map(|rx| (rx, self.transformers.clone()))
    }

    /// The bytes to store for `value` (JSON, or what [`Storage::encode`] made) under
    /// `key`: encoded in the media type, then encrypted.
    fn write(&self, key: &str, value: Vec<u8>) -> Result<Vec<u8>, StorageError> {
        let encoded = self
            .codec
            .encode(key, value)
            .map_err(|e| StorageError::Internal(format!("encoding for storage: {e}")))?;
        self.transformers
            .encrypt(key, encoded)
            .map_err(StorageError::Transform)
    }

    /// The value to pass to [`Storage::create`] or [`Storage::update`] for `obj` under
    /// `key`, already in the storage media type: a caller holding the object saves the
    /// write a second parse of its JSON.
    pub fn encode(&self, key: &str, obj: &serde_json::Value) -> Result<Vec<u8>, StorageError> {
        self.codec
            .encode_object(key, obj)
            .map_err(|e| StorageError::Internal(format!("encoding for storage: {e}")))
    }

    /// What a read will show of an object [`Storage::encode`] made `encoded` of, when
    /// that differs from the object: protobuf keeps no empty list or map (they come back
    /// null or absent). `None` when the value reads back as written.
    pub fn reread(&self, encoded: &[u8]) -> Option<serde_json::Value> {
        codec::reread(encoded)
    }

    fn saw(&self, header: Option<&etcd_client::ResponseHeader>) -> i64 {
        let rev = header.map(|h| h.revision()).unwrap_or(0);
        self.seen_revision.fetch_max(rev, Ordering::Relaxed);
        rev
    }

    /// The key of one object.
    pub fn key(&self, resource_path: &str, namespace: Option<&str>, name: &str) -> String {
        match namespace {
            Some(ns) => format!("{}/{resource_path}/{ns}/{name}", self.prefix),
            None => format!("{}/{resource_path}/{name}", self.prefix),
        }
    }

    /// The prefix (with a trailing `/`) of a resource, or of its objects in a namespace.
    pub fn list_prefix(&self, resource_path: &str, namespace: Option<&str>) -> String {
        match namespace {
            Some(ns) => format!("{}/{resource_path}/{ns}/", self.prefix),
            None => format!("{}/{resource_path}/", self.prefix),
        }
    }

    /// The store's current revision.
    pub async fn current_revision(&self) -> Result<i64, StorageError> {
        let kv = self.kv();
        let key = format!("{}/", self.prefix);
        let resp = metrics::timed("listWithCount", &self.kind, || {
            let (mut kv, key) = (kv.clone(), key.clone());
            async move { kv.get(key, Some(GetOptions::new().with_count_only())).await }
        })
        .await?;
        Ok(self.saw(resp.header()))
    }

    /// Reads one object.
    pub async fn get(
        &self,
        key: &str,
        version: ReadVersion,
    ) -> Result<Option<Stored>, StorageError> {
        let kv = self.kv();
        let mut opts = GetOptions::new();
        if let ReadVersion::Exact(rev) = version {
            opts = opts.with_revision(rev);
        }
        let resp = metrics::timed("get", &self.kind, || {
            let (mut kv, opts) = (kv.clone(), opts.clone());
            async move { kv.get(key, Some(opts)).await }
        })
        .await
        .map_err(|e| match e {
            StorageError::Compacted { .. } => StorageError::Compacted {
                requested: match version {
                    ReadVersion::Exact(r) => r,
                    _ => 0,
                },
                compacted: 0,
            },
            other => other,
        })?;
        let current = self.saw(resp.header());
        if let ReadVersion::NotOlderThan(rev) = version {
            if rev > current {
                return Err(StorageError::TooLargeResourceVersion {
                    requested: rev,
                    current,
                });
            }
        }
        match resp.kvs().first() {
            Some(kv) => self.read(kv).await.map(Some),
            None => Ok(None),
        }
    }

    async fn grant(&self, ttl: Option<i64>) -> Result<Option<PutOptions>, StorageError> {
        let Some(ttl) = ttl.filter(|t| *t > 0) else {
            return Ok(None);
        };
        let lease = self.client.lease_client();
        let granted = metrics::bounded(|| {
            let mut lease = lease.clone();
            async move { lease.grant(ttl, None).await }
        })
        .await?;
        Ok(Some(PutOptions::new().with_lease(granted.id())))
    }

    /// Creates `key`; fails with AlreadyExists if anything is there. `ttl` (seconds)
    /// attaches a lease. Returns the new revision.
    pub async fn create(
        &self,
        key: &str,
        value: Vec<u8>,
        ttl: Option<i64>,
    ) -> Result<i64, StorageError> {
        let value = self.write(key, value)?;
        let put = self.grant(ttl).await?;
        let txn = Txn::new()
            .when([Compare::create_revision(key, CompareOp::Equal, 0)])
            .and_then([TxnOp::put(key, value, put)]);
        let resp = self.txn("create", txn).await?;
        let rev = self.saw(resp.header());
        if !resp.succeeded() {
            return Err(StorageError::AlreadyExists);
        }
        Ok(rev)
    }

    /// Replaces `key` if it is still at `expected`; returns the new revision. A changed
    /// object is Conflict, a missing one NotFound.
    pub async fn update(
        &self,
        key: &str,
        value: Vec<u8>,
        expected: i64,
        ttl: Option<i64>,
    ) -> Result<i64, StorageError> {
        let value = self.write(key, value)?;
        let put = self.grant(ttl).await?;
        let txn = Txn::new()
            .when([Compare::mod_revision(key, CompareOp::Equal, expected)])
            .and_then([TxnOp::put(key, value, put)])
            .or_else([TxnOp::get(key, None)]);
        let resp = self.txn("update", txn).await?;
        let rev = self.saw(resp.header());
        if resp.succeeded() {
            return Ok(rev);
        }
        Err(match current_of(resp.op_responses()) {
            Some(current) => StorageError::Conflict {
                current: current.revision,
            },
            None => StorageError::NotFound,
        })
    }

    /// Runs `txn`, recorded as `operation` (sent again as [`metrics::bounded`] allows).
    async fn txn(
        &self,
        operation: &str,
        txn: Txn,
    ) -> Result<etcd_client::TxnResponse, StorageError> {
        let kv = self.kv();
        metrics::timed(operation, &self.kind, || {
            let (mut kv, txn) = (kv.clone(), txn.clone());
            async move { kv.txn(txn).await }
        })
        .await
    }

    /// Deletes `key`, if it is still at `expected` when given. Returns the object as it
    /// was, with `revision` set to the deletion's revision.
    pub async fn delete(&self, key: &str, expected: Option<i64>) -> Result<Stored, StorageError> {
        let kv = self.kv();
        loop {
            let current = match expected {
                Some(_) => None,
                None => metrics::timed("get", &self.kind, || {
                    let mut kv = kv.clone();
                    async move { kv.get(key, None).await }
                })
                .await?
                .kvs()
                .first()
                .map(Stored::from_kv),
            };
            let guard = match (expected, &current) {
                (Some(rev), _) => rev,
                (None, Some(c)) => c.revision,
                (None, None) => return Err(StorageError::NotFound),
            };
            let txn = Txn::new()
                .when([Compare::mod_revision(key, CompareOp::Equal, guard)])
                .and_then([TxnOp::delete(
                    key,
                    Some(etcd_client::DeleteOptions::new().with_prev_key()),
                )])
                .or_else([TxnOp::get(key, None)]);
            let resp = self.txn("delete", txn).await?;
            let rev = self.saw(resp.header());
            if resp.succeeded() {
                let prev = resp.op_responses().into_iter().find_map(|op| match op {
                    TxnOpResponse::Delete(d) => d.prev_kvs().first().cloned(),
                    _ => None,
                });
                let mut gone = self.read(&prev.ok_or(StorageError::NotFound)?).await?;
                gone.revision = rev;
                return Ok(gone);
            }
            match (expected, current_of(resp.op_responses())) {
                (_, None) => return Err(StorageError::NotFound),
                (Some(_), Some(now)) => {
                    return Err(StorageError::Conflict {
                        current: now.revision,
                    })
                }
                // Unconditional delete raced with a write: read again and retry.
                (None, Some(_)) => continue,
            }
        }
    }

    /// The KV client, taking responses of any size as kube-apiserver's etcd client does
    /// (`MaxCallRecvMsgSize: math.MaxInt32`): a page of 10,000 objects is over gRPC's
    /// default 4 MiB.
    fn kv(&self) -> etcd_client::KvClient {
        self.client
            .kv_client()
            .max_decoding_message_size(MAX_RECV_MSG)
    }

    /// Watches every key under `prefix`, starting with the changes after `after`
    /// (a resourceVersion); 0 means from now.
    pub async fn watch(&self, prefix: &str, after: i64) -> Result<Watch, StorageError> {
        Watch::start(
            self.client
                .watch_client()
                .max_decoding_message_size(MAX_RECV_MSG),
            prefix,
            after,
            self.transformers.clone(),
            self.codec.clone(),
        )
        .await
    }
}

fn current_of(ops: Vec<TxnOpResponse>) -> Option<Stored> {
    ops.into_iter().find_map(|op| match op {
        TxnOpResponse::Get(g) => g.kvs().first().map(Stored::from_kv),
        _ => None,
    })
}
