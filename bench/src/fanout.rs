//! Watch fan-out: many watchers on one namespace's ConfigMaps (HTTP/2 streams over a few
//! connections, `?watch=true&resourceVersion=<rv>`), then single writes one at a time;
//! for each write, the time from its response to each watcher receiving its event. The
//! baseline does the same with etcd watches on a key prefix through `etcd-client`.
//!
//! A watcher can see an event before the writer has read the write's response, so the
//! latencies are signed.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use etcd_client::{Client, WatchOptions};
use http::header::{HeaderValue, ACCEPT, CONTENT_TYPE};
use http::{Method, StatusCode};
use http_body_util::BodyExt;
use rustls::ClientConfig;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::api::{configmap_body, run_tag};
use crate::client::{Conn, Protocol, Target};
use crate::etcd::connect;
use crate::stats::Spread;
use crate::Error;

/// Longest wait for every watcher to be established, and for one write's events.
const WAIT: Duration = Duration::from_secs(60);

/// Where the watchers watch and the writes go.
#[derive(Debug, Clone)]
pub enum FanoutTarget {
    /// The API server: ConfigMaps of `namespace`; the writes update `cm-0` there (which
    /// must exist).
    Api {
        /// The server, `https://host:port`.
        target: Target,
        /// Client TLS configuration offering h2.
        tls: Arc<ClientConfig>,
        /// The watched namespace.
        namespace: String,
        /// Bytes of the written data value.
        value_size: usize,
    },
    /// An etcd v3 endpoint: watches on `prefix`, puts of `value_size` bytes under it.
    Etcd {
        /// `unix:///abs/storage.sock` or `http://127.0.0.1:2379`.
        endpoint: String,
        /// The watched prefix.
        prefix: String,
        /// Bytes of every value put.
        value_size: usize,
    },
}

/// The fan-out to measure.
#[derive(Debug, Clone)]
pub struct FanoutSpec {
    /// Where.
    pub target: FanoutTarget,
    /// Watchers.
    pub watchers: usize,
    /// Connections they are spread over.
    pub connections: usize,
    /// Writes, one at a time.
    pub writes: usize,
    /// Pause after every watcher is established, and between writes.
    pub pause: Duration,
}

/// The outcome, printed as JSON. Times in µs.
#[derive(Debug, Clone, Serialize)]
pub struct FanoutReport {
    /// `api` or `etcd`.
    pub target: &'static str,
    /// Watchers.
    pub watchers: usize,
    /// Connections.
    pub connections: usize,
    /// Writes.
    pub writes: usize,
    /// Time to establish every watcher, ms.
    pub setup_ms: f64,
    /// Events expected (`watchers × writes`).
    pub expected: usize,
    /// Events received in time.
    pub received: usize,
    /// Write's response → a watcher has the event, over every watcher and write.
    pub latency: Spread,
    /// Write sent → a watcher has the event, over every watcher and write.
    pub from_sent: Spread,
    /// Write's response → the last watcher has the event, over the writes.
    pub last: Spread,
    /// Write sent → its response, over the writes.
    pub write: Spread,
}

/// One event as a watcher saw it: watcher, revision, when.
type Seen = (usize, i64, Instant);

/// Establishes every watcher, then writes and collects.
pub async fn run(spec: FanoutSpec) -> Result<FanoutReport, Error> {
    if spec.watchers == 0 || spec.connections == 0 || spec.writes == 0 {
        return Err(Error::Setup(
            "watchers, connections and writes must be at least 1".into(),
        ));
    }
    let (events_tx, mut events) = mpsc::unbounded_channel::<Seen>();
    let (ready_tx, mut ready) = mpsc::unbounded_channel::<Result<(), Error>>();
    let start = Instant::now();
    let mut writer = match &spec.target {
        FanoutTarget::Api { .. } => start_api_watchers(&spec, events_tx, ready_tx).await?,
        FanoutTarget::Etcd { .. } => start_etcd_watchers(&spec, events_tx, ready_tx).await?,
    };
    for _ in 0..spec.watchers {
        match tokio::time::timeout(WAIT, ready.recv()).await {
            Ok(Some(Ok(()))) => {}
            Ok(Some(Err(e))) => return Err(e),
            Ok(None) | Err(_) => {
                return Err(Error::Timeout(
                    WAIT,
                    "every watcher to be established".into(),
                ))
            }
        }
    }
    let setup_ms = start.elapsed().as_secs_f64() * 1e3;

    let tag = run_tag();
    let (mut latency, mut from_sent) = (Vec::new(), Vec::new());
    let (mut last, mut write) = (Vec::new(), Vec::new());
    let mut received = 0;
    for k in 0..spec.writes {
        tokio::time::sleep(spec.pause).await;
        let sent = Instant::now();
        let revision = writer.write(tag.wrapping_add(k as u64)).await?;
        let answered = Instant::now();
        write.push(signed_us(answered, sent));
        let mut first_seen: HashMap<usize, Instant> = HashMap::with_capacity(spec.watchers);
        let deadline = answered + WAIT;
        while first_seen.len() < spec.watchers {
            match tokio::time::timeout_at(deadline, events.recv()).await {
                Ok(Some((w, rev, at))) if rev >= revision => {
                    first_seen.entry(w).or_insert(at);
                }
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => break,
            }
        }
        received += first_seen.len();
        let mut latest = None::<Instant>;
        for at in first_seen.values() {
            latency.push(signed_us(*at, answered));
            from_sent.push(signed_us(*at, sent));
            latest = Some(latest.map_or(*at, |l| l.max(*at)));
        }
        if let Some(latest) = latest {
            last.push(signed_us(latest, answered));
        }
    }
    Ok(FanoutReport {
        target: match spec.target {
            FanoutTarget::Api { .. } => "api",
            FanoutTarget::Etcd { .. } => "etcd",
        },
        watchers: spec.watchers,
        connections: spec.connections,
        writes: spec.writes,
        setup_ms,
        expected: spec.watchers * spec.writes,
        received,
        latency: Spread::of(&latency),
        from_sent: Spread::of(&from_sent),
        last: Spread::of(&last),
        write: Spread::of(&write),
    })
}

/// `at - since` in µs, negative when `at` came first.
fn signed_us(at: Instant, since: Instant) -> f64 {
    match at.checked_duration_since(since) {
        Some(d) => d.as_secs_f64() * 1e6,
        None => -(since.duration_since(at).as_secs_f64() * 1e6),
    }
}

/// Makes the writes and says which revision each one produced.
enum Writer {
    Api {
        conn: Conn,
        target: Target,
        path: String,
        value_size: usize,
    },
    Etcd {
        // Boxed: an etcd client is far larger than the API variant.
        client: Box<Client>,
        key: String,
        value: Vec<u8>,
    },
}

impl Writer {
    async fn write(&mut self, stamp: u64) -> Result<i64, Error> {
        match self {
            Self::Api {
                conn,
                target,
                path,
                value_size,
            } => {
                let body = configmap_body("cm-0", stamp, *value_size);
                let req = target.with_path(path)?.request(
                    Protocol::Http2,
                    &Method::PUT,
                    &[
                        (ACCEPT, HeaderValue::from_static("application/json")),
                        (CONTENT_TYPE, HeaderValue::from_static("application/json")),
                    ],
                    body,
                )?;
                let resp = conn.send(req).await?;
                let status = resp.status();
                let body = resp.into_body().collect().await?.to_bytes();
                if status != StatusCode::OK {
                    return Err(Error::Setup(format!(
                        "PUT {path}: {status}: {}",
                        String::from_utf8_lossy(&body)
                    )));
                }
                let object: Object = serde_json::from_slice(&body)
                    .map_err(|e| Error::Setup(format!("PUT {path} answered: {e}")))?;
                object.revision()
            }
            Self::Etcd { client, key, value } => {
                let put = client.put(key.as_str(), value.as_slice(), None).await?;
                put.header()
                    .map(|h| h.revision())
                    .ok_or_else(|| Error::Setup("put response without a header".into()))
            }
        }
    }
}

#[derive(Deserialize)]
struct Object {
    metadata: Meta,
}

#[derive(Deserialize)]
struct Meta {
    #[serde(rename = "resourceVersion", default)]
    resource_version: String,
}

impl Object {
    fn revision(&self) -> Result<i64, Error> {
        self.metadata.resource_version.parse().map_err(|_| {
            Error::Setup(format!(
                "resourceVersion {:?} is not a number",
                self.metadata.resource_version
            ))
        })
    }
}

#[derive(Deserialize)]
struct WatchEvent {
    object: Object,
}

async fn start_api_watchers(
    spec: &FanoutSpec,
    events: mpsc::UnboundedSender<Seen>,
    ready: mpsc::UnboundedSender<Result<(), Error>>,
) -> Result<Writer, Error> {
    let FanoutTarget::Api {
        target,
        tls,
        namespace,
        value_size,
    } = &spec.target
    else {
        return Err(Error::Setup("not an API target".into()));
    };
    let collection = format!("/api/v1/namespaces/{namespace}/configmaps");
    let mut control = Conn::connect(target, tls.clone(), Protocol::Http2).await?;
    // The list's resourceVersion: every watcher starts from the same point.
    let req = target
        .with_path(&format!("{collection}?limit=1"))?
        .request(
            Protocol::Http2,
            &Method::GET,
            &[(ACCEPT, HeaderValue::from_static("application/json"))],
            Bytes::new(),
        )?;
    let resp = control.send(req).await?;
    let status = resp.status();
    let body = resp.into_body().collect().await?.to_bytes();
    if status != StatusCode::OK {
        return Err(Error::Setup(format!(
            "LIST {collection}: {status}: {}",
            String::from_utf8_lossy(&body)
        )));
    }
    let list: Object = serde_json::from_slice(&body)
        .map_err(|e| Error::Setup(format!("LIST {collection} answered: {e}")))?;
    let watch_path = format!(
        "{collection}?watch=true&resourceVersion={}",
        list.metadata.resource_version
    );
    let mut conns = Vec::with_capacity(spec.connections);
    for _ in 0..spec.connections {
        conns.push(Conn::connect(target, tls.clone(), Protocol::Http2).await?);
    }
    for w in 0..spec.watchers {
        let Some(conn) = conns[w % conns.len()].share() else {
            return Err(Error::Setup("watchers need HTTP/2".into()));
        };
        let req = target.with_path(&watch_path)?.request(
            Protocol::Http2,
            &Method::GET,
            &[(ACCEPT, HeaderValue::from_static("application/json"))],
            Bytes::new(),
        )?;
        tokio::spawn(api_watcher(w, conn, req, events.clone(), ready.clone()));
    }
    Ok(Writer::Api {
        conn: control,
        target: target.clone(),
        path: format!("{collection}/cm-0"),
        value_size: *value_size,
    })
}

/// One API watcher: reports once its response head is in, then every event's revision.
async fn api_watcher(
    w: usize,
    mut conn: Conn,
    req: http::Request<http_body_util::Full<Bytes>>,
    events: mpsc::UnboundedSender<Seen>,
    ready: mpsc::UnboundedSender<Result<(), Error>>,
) {
    let resp = match conn.send(req).await {
        Ok(resp) if resp.status() == StatusCode::OK => resp,
        Ok(resp) => {
            let _ = ready.send(Err(Error::Setup(format!(
                "watch answered {}",
                resp.status()
            ))));
            return;
        }
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    let _ = ready.send(Ok(()));
    let mut body = resp.into_body();
    let mut buf: Vec<u8> = Vec::new();
    while let Some(Ok(frame)) = body.frame().await {
        let Some(data) = frame.data_ref() else {
            continue;
        };
        let at = Instant::now();
        buf.extend_from_slice(data);
        // Events are JSON objects one after another (newline-separated); a frame may end
        // inside one, which then waits for the next frame.
        let mut stream = serde_json::Deserializer::from_slice(&buf).into_iter::<WatchEvent>();
        let mut used = 0;
        while let Some(Ok(event)) = stream.next() {
            used = stream.byte_offset();
            if let Ok(rev) = event.object.revision() {
                if events.send((w, rev, at)).is_err() {
                    return;
                }
            }
        }
        buf.drain(..used);
    }
}

async fn start_etcd_watchers(
    spec: &FanoutSpec,
    events: mpsc::UnboundedSender<Seen>,
    ready: mpsc::UnboundedSender<Result<(), Error>>,
) -> Result<Writer, Error> {
    let FanoutTarget::Etcd {
        endpoint,
        prefix,
        value_size,
    } = &spec.target
    else {
        return Err(Error::Setup("not an etcd target".into()));
    };
    let mut clients = Vec::with_capacity(spec.connections);
    for _ in 0..spec.connections {
        clients.push(connect(endpoint).await?);
    }
    for w in 0..spec.watchers {
        let mut client = clients[w % clients.len()].clone();
        let prefix = prefix.clone();
        let events = events.clone();
        let ready = ready.clone();
        tokio::spawn(async move {
            let opened = client
                .watch(prefix.as_str(), Some(WatchOptions::new().with_prefix()))
                .await;
            let mut stream = match opened {
                Ok(s) => s,
                Err(e) => {
                    let _ = ready.send(Err(e.into()));
                    return;
                }
            };
            match stream.message().await {
                Ok(Some(resp)) if resp.created() => {
                    let _ = ready.send(Ok(()));
                }
                _ => {
                    let _ = ready.send(Err(Error::Setup("watch was not created".into())));
                    return;
                }
            }
            while let Ok(Some(resp)) = stream.message().await {
                let at = Instant::now();
                for event in resp.events() {
                    if let Some(kv) = event.kv() {
                        if events.send((w, kv.mod_revision(), at)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
    }
    Ok(Writer::Etcd {
        client: Box::new(connect(endpoint).await?),
        key: format!("{prefix}cm-0"),
        value: vec![b'v'; *value_size],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_latencies() {
        let a = Instant::now();
        let b = a + Duration::from_micros(250);
        assert!((signed_us(b, a) - 250.0).abs() < 1.0);
        assert!((signed_us(a, b) + 250.0).abs() < 1.0);
    }

    #[test]
    fn watch_events_parse_to_revisions() {
        let line = br#"{"type":"MODIFIED","object":{"kind":"ConfigMap","metadata":{"name":"cm-0","resourceVersion":"42"},"data":{"k":"v"}}}"#;
        let e: WatchEvent = serde_json::from_slice(line).expect("event");
        assert_eq!(e.object.revision().expect("number"), 42);
        let bad: WatchEvent =
            serde_json::from_slice(br#"{"object":{"metadata":{"resourceVersion":"x"}}}"#)
                .expect("event");
        assert!(bad.object.revision().is_err());
        assert!(serde_json::from_slice::<WatchEvent>(b"{}").is_err());
    }
}
