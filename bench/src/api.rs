//! ConfigMaps through the built-in API: seeding a namespace with `cm-0 … cm-N`, and a
//! closed loop of GET, LIST, CREATE or UPDATE over TLS (one request in flight per
//! connection), the server side of the "API vs raw etcd" comparison in [`crate::raw`].

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::header::{HeaderName, HeaderValue, ACCEPT, CONTENT_TYPE};
use http::{Method, StatusCode};
use http_body_util::BodyExt;
use rustls::ClientConfig;
use serde::Serialize;
use tokio::time::Instant;

use crate::client::{Conn, Protocol, Target};
use crate::stats::{Summary, Tally};
use crate::Error;

/// What one request of the loop does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectOp {
    /// GET of one ConfigMap (cycling over `cm-0 … cm-N`).
    Get,
    /// LIST of the namespace's ConfigMaps.
    List,
    /// POST of a new ConfigMap (a fresh name every time).
    Create,
    /// PUT of an existing ConfigMap with new data and no resourceVersion (unconditional).
    Update,
}

/// The closed loop to run against the API.
#[derive(Debug, Clone)]
pub struct ApiSpec {
    /// The server, `https://host:port` (the path is ignored).
    pub target: Target,
    /// HTTP/1.1 or HTTP/2.
    pub protocol: Protocol,
    /// Client TLS configuration; must offer `protocol`'s ALPN id.
    pub tls: Arc<ClientConfig>,
    /// The operation.
    pub op: ObjectOp,
    /// Concurrent connections.
    pub connections: usize,
    /// Unmeasured time before the window.
    pub warmup: Duration,
    /// Measured time.
    pub duration: Duration,
    /// The namespace holding `cm-0 … cm-{objects-1}`.
    pub namespace: String,
    /// ConfigMaps GET and UPDATE cycle over.
    pub objects: usize,
    /// Bytes of the data value of created and updated objects.
    pub value_size: usize,
    /// LIST asks for this many objects a page (`?limit=`), all of them when `None`.
    pub list_limit: Option<usize>,
}

/// The outcome of one loop, printed as JSON.
#[derive(Debug, Clone, Serialize)]
pub struct ApiReport {
    /// The operation.
    pub op: ObjectOp,
    /// `h2` or `http/1.1`.
    pub protocol: &'static str,
    /// Concurrent connections.
    pub connections: usize,
    /// Objects cycled over (GET, UPDATE) or listed (LIST).
    pub objects: usize,
    /// The numbers.
    #[serde(flatten)]
    pub summary: Summary,
}

/// The ConfigMap body every benchmark writes: `data.k` is `value_size` bytes that start
/// with `stamp` (so that no two updates are the same object: the server skips no-op
/// updates).
pub fn configmap_body(name: &str, stamp: u64, value_size: usize) -> Bytes {
    let mut value = format!("{stamp:016x}");
    value.truncate(value_size);
    while value.len() < value_size {
        value.push('x');
    }
    Bytes::from(format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{name}"}},"data":{{"k":"{value}"}}}}"#
    ))
}

/// The keys `client` of `clients` owns among `objects`: every `clients`-th, so that
/// concurrent updates do not contend for one object (falls back to a shared one when
/// there are more clients than objects).
pub fn keys_of(client: usize, clients: usize, objects: usize) -> Vec<usize> {
    let objects = objects.max(1);
    let own: Vec<usize> = (client..objects).step_by(clients.max(1)).collect();
    if own.is_empty() {
        vec![client % objects]
    } else {
        own
    }
}

/// A number no earlier run used (the start time in ns and the pid): the base of CREATE
/// names and of UPDATE stamps.
pub fn run_tag() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos as u64) ^ u64::from(std::process::id()).rotate_left(48)
}

fn json_headers() -> Vec<(HeaderName, HeaderValue)> {
    vec![
        (ACCEPT, HeaderValue::from_static("application/json")),
        (CONTENT_TYPE, HeaderValue::from_static("application/json")),
    ]
}

/// Sends one request and reads its whole body.
async fn call(
    conn: &mut Conn,
    target: &Target,
    protocol: Protocol,
    method: &Method,
    path: &str,
    body: Bytes,
) -> Result<(StatusCode, Bytes), Error> {
    let req = target
        .with_path(path)?
        .request(protocol, method, &json_headers(), body)?;
    let resp = conn.send(req).await?;
    let status = resp.status();
    Ok((status, resp.into_body().collect().await?.to_bytes()))
}

/// Opens every connection (not measured), runs the loop and merges the tallies.
pub async fn run(spec: ApiSpec) -> Result<ApiReport, Error> {
    if spec.connections == 0 || spec.objects == 0 {
        return Err(Error::Setup(
            "connections and objects must be at least 1".into(),
        ));
    }
    let spec = Arc::new(spec);
    let mut conns = Vec::with_capacity(spec.connections);
    for _ in 0..spec.connections {
        conns.push(Conn::connect(&spec.target, spec.tls.clone(), spec.protocol).await?);
    }
    let tag = run_tag();
    let from = Instant::now() + spec.warmup;
    let until = from + spec.duration;
    let tasks: Vec<_> = conns
        .into_iter()
        .enumerate()
        .map(|(i, conn)| tokio::spawn(drive(spec.clone(), tag, i, conn, from, until)))
        .collect();
    let mut total = Tally::new()?;
    for task in tasks {
        let Ok(tally) = task.await else {
            total.errors += 1;
            continue;
        };
        total.merge(&tally?)?;
    }
    Ok(ApiReport {
        op: spec.op,
        protocol: spec.protocol.name(),
        connections: spec.connections,
        objects: spec.objects,
        summary: total.summary(spec.duration.as_secs_f64()),
    })
}

/// One connection's closed loop; a response counts if it completes inside the window.
async fn drive(
    spec: Arc<ApiSpec>,
    tag: u64,
    index: usize,
    mut conn: Conn,
    from: Instant,
    until: Instant,
) -> Result<Tally, Error> {
    let mut tally = Tally::new()?;
    let ns = &spec.namespace;
    let collection = format!("/api/v1/namespaces/{ns}/configmaps");
    let keys = keys_of(index, spec.connections, spec.objects);
    let mut i: u64 = 0;
    loop {
        let sent = Instant::now();
        if sent >= until {
            return Ok(tally);
        }
        let key = keys[(i % keys.len() as u64) as usize];
        let (method, path, body) = match spec.op {
            ObjectOp::Get => (Method::GET, format!("{collection}/cm-{key}"), Bytes::new()),
            ObjectOp::List => match spec.list_limit {
                Some(limit) => (
                    Method::GET,
                    format!("{collection}?limit={limit}"),
                    Bytes::new(),
                ),
                None => (Method::GET, collection.clone(), Bytes::new()),
            },
            ObjectOp::Create => {
                let name = format!("c-{tag:x}-{index}-{i}");
                let body = configmap_body(&name, i, spec.value_size);
                (Method::POST, collection.clone(), body)
            }
            ObjectOp::Update => {
                let name = format!("cm-{key}");
                // A stamp no earlier update of this object used, in this run or another.
                let body = configmap_body(&name, tag.wrapping_add(i), spec.value_size);
                (Method::PUT, format!("{collection}/{name}"), body)
            }
        };
        i += 1;
        let outcome = call(&mut conn, &spec.target, spec.protocol, &method, &path, body).await;
        let done = Instant::now();
        let counted = done >= from && done < until;
        match outcome {
            Ok((status, body)) => {
                if counted {
                    tally.body_bytes += body.len() as u64;
                    if status.is_success() {
                        tally.record(done - sent);
                    } else {
                        tally.non_2xx += 1;
                    }
                }
            }
            Err(_) => {
                if counted {
                    tally.errors += 1;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
                conn = Conn::connect(&spec.target, spec.tls.clone(), spec.protocol).await?;
            }
        }
    }
}

/// What seeding did, printed as JSON.
#[derive(Debug, Clone, Serialize)]
pub struct SeedReport {
    /// The namespace.
    pub namespace: String,
    /// Objects created now.
    pub created: usize,
    /// Objects that already existed (409).
    pub existing: usize,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Creates per second.
    pub creates_per_s: f64,
}

/// Creates the namespace (if missing) and `cm-{from} … cm-{from+count-1}` in it over
/// `connections` HTTP/2 connections; an object that already exists is left alone.
pub async fn seed(
    target: &Target,
    tls: Arc<ClientConfig>,
    namespace: &str,
    from: usize,
    count: usize,
    value_size: usize,
    connections: usize,
) -> Result<SeedReport, Error> {
    let protocol = Protocol::Http2;
    let mut first = Conn::connect(target, tls.clone(), protocol).await?;
    let ns_body =
        format!(r#"{{"apiVersion":"v1","kind":"Namespace","metadata":{{"name":"{namespace}"}}}}"#);
    let (status, body) = call(
        &mut first,
        target,
        protocol,
        &Method::POST,
        "/api/v1/namespaces",
        Bytes::from(ns_body),
    )
    .await?;
    if !status.is_success() && status != StatusCode::CONFLICT {
        return Err(Error::Setup(format!(
            "creating namespace {namespace}: {status}: {}",
            String::from_utf8_lossy(&body)
        )));
    }
    let start = Instant::now();
    let connections = connections.clamp(1, count.max(1));
    let mut tasks = Vec::with_capacity(connections);
    for c in 0..connections {
        let mut conn = Conn::connect(target, tls.clone(), protocol).await?;
        let target = target.clone();
        let path = format!("/api/v1/namespaces/{namespace}/configmaps");
        tasks.push(tokio::spawn(async move {
            let (mut created, mut existing) = (0usize, 0usize);
            for n in (from + c..from + count).step_by(connections) {
                let body = configmap_body(&format!("cm-{n}"), n as u64, value_size);
                let (status, answer) =
                    call(&mut conn, &target, protocol, &Method::POST, &path, body).await?;
                match status {
                    s if s.is_success() => created += 1,
                    StatusCode::CONFLICT => existing += 1,
                    s => {
                        return Err(Error::Setup(format!(
                            "creating cm-{n}: {s}: {}",
                            String::from_utf8_lossy(&answer)
                        )))
                    }
                }
            }
            Ok::<_, Error>((created, existing))
        }));
    }
    let (mut created, mut existing) = (0, 0);
    for task in tasks {
        let (c, e) = task
            .await
            .map_err(|e| Error::Setup(format!("seeding task: {e}")))??;
        created += c;
        existing += e;
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(SeedReport {
        namespace: namespace.to_string(),
        created,
        existing,
        seconds,
        creates_per_s: if seconds > 0.0 {
            created as f64 / seconds
        } else {
            0.0
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_configmaps_of_the_asked_size() {
        let body = configmap_body("cm-7", 42, 1024);
        let v: serde_json::Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(v["metadata"]["name"], "cm-7");
        let data = v["data"]["k"].as_str().expect("string");
        assert_eq!(data.len(), 1024);
        assert!(data.starts_with("000000000000002a"));
        assert_ne!(configmap_body("cm-7", 43, 1024), body);
        // Tiny values are cut, not padded past the size.
        let small = configmap_body("x", u64::MAX, 4);
        let v: serde_json::Value = serde_json::from_slice(&small).expect("json");
        assert_eq!(v["data"]["k"], "ffff");
    }

    #[test]
    fn clients_own_disjoint_keys() {
        assert_eq!(keys_of(0, 32, 100), vec![0, 32, 64, 96]);
        assert_eq!(keys_of(31, 32, 100), vec![31, 63, 95]);
        assert_eq!(keys_of(0, 1, 3), vec![0, 1, 2]);
        // More clients than objects: share.
        assert_eq!(keys_of(5, 8, 2), vec![1]);
        assert_eq!(keys_of(0, 0, 0), vec![0]);
    }
}
