//! The "raw etcd" baseline of the object benchmarks: what the API's GET, LIST, CREATE and
//! UPDATE of a ConfigMap cost at the store itself, done straight through `etcd-client`
//! on the same endpoint with the same bytes:
//!
//! * `get`: a linearizable range of one key `<prefix>cm-N` (the keys the server wrote);
//! * `list`: a linearizable range of `<prefix>` (all the namespace's objects);
//! * `create`: a txn "create_revision == 0 → put, else get" of the stored bytes of
//!   `cm-0` under a fresh key of `<scratch>`;
//! * `update`: a txn "mod_revision == last → put, else get" of the same bytes on keys of
//!   `<scratch>` each client owns (the server's update also reads the object first).
//!
//! Writes go under `<scratch>`, outside the server's key space, so the server's objects
//! and its watch cache are left alone.

use std::sync::Arc;
use std::time::Duration;

use etcd_client::{Compare, CompareOp, GetOptions, KvClient, Txn, TxnOp};
use serde::Serialize;
use tokio::time::Instant;

use crate::api::{keys_of, run_tag, ObjectOp};
use crate::etcd::connect;
use crate::stats::{Summary, Tally};
use crate::Error;

/// Largest response accepted (a range of 10,000 1 KiB objects is ~14 MB; tonic's
/// default is 4 MiB).
const MAX_MESSAGE: usize = 256 << 20;

/// The closed loop to run against the store.
#[derive(Debug, Clone)]
pub struct RawSpec {
    /// `unix:///abs/storage.sock` or `http://127.0.0.1:2379`.
    pub endpoint: String,
    /// The operation.
    pub op: ObjectOp,
    /// Concurrent clients, each on its own gRPC connection.
    pub clients: usize,
    /// Unmeasured time before the window.
    pub warmup: Duration,
    /// Measured time.
    pub duration: Duration,
    /// Key prefix of the namespace's ConfigMaps, e.g. `/registry/configmaps/bench/`.
    pub prefix: String,
    /// Where writes go, e.g. `/kas-bench-raw/configmaps/bench/`.
    pub scratch: String,
    /// Objects GET and UPDATE cycle over, and that LIST must return.
    pub objects: usize,
}

/// The outcome of one loop, printed as JSON.
#[derive(Debug, Clone, Serialize)]
pub struct RawReport {
    /// The operation.
    pub op: ObjectOp,
    /// The endpoint.
    pub endpoint: String,
    /// Concurrent clients.
    pub clients: usize,
    /// Objects cycled over or listed.
    pub objects: usize,
    /// Bytes written by `create` and `update` (the stored `cm-0`).
    pub value_bytes: usize,
    /// The numbers (`rps`: operations per second).
    #[serde(flatten)]
    pub summary: Summary,
}

/// Connects a KV client that takes large ranges.
async fn kv(endpoint: &str) -> Result<KvClient, Error> {
    Ok(connect(endpoint)
        .await?
        .kv_client()
        .max_decoding_message_size(MAX_MESSAGE))
}

/// Reads the stored bytes of `cm-0`, connects every client, then runs the loop.
pub async fn run(spec: RawSpec) -> Result<RawReport, Error> {
    if spec.clients == 0 || spec.objects == 0 {
        return Err(Error::Setup(
            "clients and objects must be at least 1".into(),
        ));
    }
    let spec = Arc::new(spec);
    let mut first = kv(&spec.endpoint).await?;
    let sample = format!("{}cm-0", spec.prefix);
    let value = first
        .get(sample.as_str(), None)
        .await?
        .kvs()
        .first()
        .map(|kv| kv.value().to_vec())
        .ok_or_else(|| Error::Setup(format!("{sample} is not stored: seed the namespace first")))?;
    let value = Arc::new(value);
    let mut clients = Vec::with_capacity(spec.clients);
    for _ in 0..spec.clients {
        clients.push(kv(&spec.endpoint).await?);
    }
    let tag = run_tag();
    let from = Instant::now() + spec.warmup;
    let until = from + spec.duration;
    let tasks: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(i, c)| tokio::spawn(drive(spec.clone(), value.clone(), tag, i, c, from, until)))
        .collect();
    let mut total = Tally::new()?;
    for task in tasks {
        let Ok(tally) = task.await else {
            total.errors += 1;
            continue;
        };
        total.merge(&tally?)?;
    }
    Ok(RawReport {
        op: spec.op,
        endpoint: spec.endpoint.clone(),
        clients: spec.clients,
        objects: spec.objects,
        value_bytes: value.len(),
        summary: total.summary(spec.duration.as_secs_f64()),
    })
}

/// One client's closed loop.
async fn drive(
    spec: Arc<RawSpec>,
    value: Arc<Vec<u8>>,
    tag: u64,
    index: usize,
    mut kv: KvClient,
    from: Instant,
    until: Instant,
) -> Result<Tally, Error> {
    let mut tally = Tally::new()?;
    let keys = keys_of(index, spec.clients, spec.objects);
    // Update: this client's scratch keys and the revision each was last written at.
    let mut revisions = Vec::new();
    if spec.op == ObjectOp::Update {
        for &k in &keys {
            let key = format!("{}u-{tag:x}/cm-{k}", spec.scratch);
            let put = kv.put(key.as_str(), value.as_slice(), None).await?;
            let rev = put.header().map_or(0, |h| h.revision());
            revisions.push((key, rev));
        }
    }
    let mut i: u64 = 0;
    loop {
        let sent = Instant::now();
        if sent >= until {
            return Ok(tally);
        }
        let slot = (i % keys.len() as u64) as usize;
        let ok = match spec.op {
            ObjectOp::Get => {
                let key = format!("{}cm-{}", spec.prefix, keys[slot]);
                kv.get(key, None).await.is_ok_and(|r| r.kvs().len() == 1)
            }
            ObjectOp::List => kv
                .get(spec.prefix.as_str(), Some(GetOptions::new().with_prefix()))
                .await
                .is_ok_and(|r| r.kvs().len() == spec.objects),
            ObjectOp::Create => {
                let key = format!("{}c-{tag:x}/{index}/{i}", spec.scratch);
                let txn = Txn::new()
                    .when([Compare::create_revision(key.as_str(), CompareOp::Equal, 0)])
                    .and_then([TxnOp::put(key.as_str(), value.as_slice(), None)])
                    .or_else([TxnOp::get(key.as_str(), None)]);
                kv.txn(txn).await.is_ok_and(|r| r.succeeded())
            }
            ObjectOp::Update => {
                let (key, rev) = &mut revisions[slot];
                let txn = Txn::new()
                    .when([Compare::mod_revision(key.as_str(), CompareOp::Equal, *rev)])
                    .and_then([TxnOp::put(key.as_str(), value.as_slice(), None)])
                    .or_else([TxnOp::get(key.as_str(), None)]);
                match kv.txn(txn).await {
                    Ok(r) if r.succeeded() => {
                        *rev = r.header().map_or(0, |h| h.revision());
                        true
                    }
                    _ => false,
                }
            }
        };
        i += 1;
        let done = Instant::now();
        if done >= from && done < until {
            if ok {
                tally.record(done - sent);
            } else {
                tally.errors += 1;
            }
        }
        if !ok {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}
