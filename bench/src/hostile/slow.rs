//! Slow HTTP/1.1 clients: a request head trickled a byte at a time (slowloris), a body
//! trickled the same way, a large response read a little at a time, and connections that
//! send nothing at all once TLS is up (HTTP/1.1) or once the HTTP/2 preface is sent.
//! Each connection's task says how it ended: held until the scenario stopped, closed by
//! the server, or answered (with the status).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::{frames, millis, open_many, Conn, Ctl, Facts, Size, Stop, Target};

/// How one connection ended.
#[derive(Debug, Clone, Copy)]
pub enum End {
    /// Still open when the scenario stopped.
    Held,
    /// The server closed it, this long after the scenario started.
    Closed(Duration),
    /// The server answered with this status.
    Answered(u16, Duration),
    /// The whole response arrived.
    Completed(Duration),
}

/// Counts the ends into facts: `held`, `closed`, `answered`, `answered_<status>`,
/// `completed`, and the first and last time the server ended one (`first_end_ms`,
/// `last_end_ms`).
pub fn tally(ends: &[End]) -> Facts {
    let mut facts = Facts::new();
    let mut times = Vec::new();
    for end in ends {
        let key = match end {
            End::Held => "held".to_owned(),
            End::Closed(t) => {
                times.push(*t);
                "closed".to_owned()
            }
            End::Answered(status, t) => {
                times.push(*t);
                *facts.entry("answered".to_owned()).or_default() += 1;
                format!("answered_{status}")
            }
            End::Completed(t) => {
                times.push(*t);
                "completed".to_owned()
            }
        };
        *facts.entry(key).or_default() += 1;
    }
    if let (Some(first), Some(last)) = (times.iter().min(), times.iter().max()) {
        facts.insert("first_end_ms".to_owned(), millis(*first));
        facts.insert("last_end_ms".to_owned(), millis(*last));
    }
    facts
}

/// The status code of an HTTP/1.1 status line at the start of `bytes`.
fn status_of(bytes: &[u8]) -> u16 {
    std::str::from_utf8(bytes.get(9..12).unwrap_or_default())
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// What a trickling connection sends: `head` at once, then `trickle` and after it
/// `filler` forever, one byte every `every`.
struct Trickle {
    head: Vec<u8>,
    trickle: Vec<u8>,
    filler: u8,
    every: Duration,
}

/// Sends `t` until the server answers or closes or the scenario stops.
async fn trickle(
    mut conn: Conn,
    t: Trickle,
    mut stop: Stop,
    t0: Instant,
    sent: Arc<AtomicU64>,
) -> End {
    let Trickle {
        head,
        trickle,
        filler,
        every,
    } = t;
    if conn.write_all(&head).await.is_err() || conn.flush().await.is_err() {
        return End::Closed(t0.elapsed());
    }
    let mut buf = [0u8; 4096];
    let mut next = trickle.into_iter();
    let mut tick = tokio::time::interval(every);
    loop {
        tokio::select! {
            _ = stop.wait() => return End::Held,
            r = conn.read(&mut buf) => return match r {
                Ok(n) if n >= 12 => End::Answered(status_of(&buf[..n]), t0.elapsed()),
                _ => End::Closed(t0.elapsed()),
            },
            _ = tick.tick() => {
                let byte = next.next().unwrap_or(filler);
                if conn.write_all(&[byte]).await.is_err() || conn.flush().await.is_err() {
                    return End::Closed(t0.elapsed());
                }
                sent.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

async fn collect(tasks: Vec<tokio::task::JoinHandle<End>>) -> Vec<End> {
    let mut ends = Vec::with_capacity(tasks.len());
    for t in tasks {
        ends.push(t.await.unwrap_or(End::Held));
    }
    ends
}

/// Slowloris: `size.count` connections each trickle a GET's head a byte every 500 ms and
/// never end it (an `X-Slow` header that goes on forever).
pub async fn slowloris(target: Arc<Target>, size: Size, mut ctl: Ctl) -> (String, Facts) {
    let every = Duration::from_millis(500);
    let conns = open_many(&target, size.count, false, 32).await;
    let opened = conns.len();
    let sent = Arc::new(AtomicU64::new(0));
    let start = b"GET /api/v1/namespaces/default HTTP/1.1\r\nHost: localhost\r\nX-Slow: ".to_vec();
    let tasks: Vec<_> = conns
        .into_iter()
        .map(|c| {
            let t = Trickle {
                head: Vec::new(),
                trickle: start.clone(),
                filler: b'a',
                every,
            };
            tokio::spawn(trickle(c, t, ctl.signal(), ctl.started, sent.clone()))
        })
        .collect();
    ctl.ready();
    let ends = collect(tasks).await;
    let mut facts = tally(&ends);
    facts.insert("connections".to_owned(), opened as u64);
    facts.insert("bytes_sent".to_owned(), sent.load(Ordering::Relaxed));
    let what = format!(
        "{opened} HTTP/1.1 connections, each a GET head trickled 1 byte / 500 ms, never ended"
    );
    (what, facts)
}

/// Slow body: `size.count` connections each send a ConfigMap POST's head at once with
/// `Content-Length: 1048576`, then its body a byte every 200 ms.
pub async fn slow_body(target: Arc<Target>, size: Size, mut ctl: Ctl) -> (String, Facts) {
    let every = Duration::from_millis(200);
    let conns = open_many(&target, size.count, false, 32).await;
    let opened = conns.len();
    let sent = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = conns
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let head = b"POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: localhost\r\n\
                 Content-Type: application/json\r\nContent-Length: 1048576\r\n\r\n"
                .to_vec();
            let body = format!(
                r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"slow-body-{i}"}},"data":{{"k":""#
            )
            .into_bytes();
            let t = Trickle {
                head,
                trickle: body,
                filler: b'a',
                every,
            };
            tokio::spawn(trickle(c, t, ctl.signal(), ctl.started, sent.clone()))
        })
        .collect();
    ctl.ready();
    let ends = collect(tasks).await;
    let mut facts = tally(&ends);
    facts.insert("connections".to_owned(), opened as u64);
    facts.insert("body_bytes_sent".to_owned(), sent.load(Ordering::Relaxed));
    let what = format!(
        "{opened} HTTP/1.1 ConfigMap POSTs, Content-Length 1 MiB, body trickled 1 byte / 200 ms"
    );
    (what, facts)
}

/// The path slow readers GET: the OpenAPI v2 document, the largest answer a new server
/// has (megabytes).
pub const LARGE: &str = "/openapi/v2";

/// Slow read: `size.count` connections each GET [`LARGE`] and read 1 KiB every 100 ms.
pub async fn slow_read(target: Arc<Target>, size: Size, mut ctl: Ctl) -> (String, Facts) {
    let every = Duration::from_millis(100);
    // Built once and cached by the server: fetched first so that the slow readers measure
    // slow reading, not a cold cache built by each of them at once.
    if let Ok(c) = target.client().await {
        let _ = c.get(LARGE).await;
    }
    let conns = open_many(&target, size.count, false, 32).await;
    let opened = conns.len();
    let read = Arc::new(AtomicU64::new(0));
    let tasks: Vec<_> = conns
        .into_iter()
        .map(|mut conn| {
            let (mut stop, t0, read) = (ctl.signal(), ctl.started, read.clone());
            tokio::spawn(async move {
                let req = format!(
                    "GET {LARGE} HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n"
                );
                if conn.write_all(req.as_bytes()).await.is_err() || conn.flush().await.is_err() {
                    return End::Closed(t0.elapsed());
                }
                let mut buf = vec![0u8; 1024];
                let mut tail = Vec::new();
                loop {
                    tokio::select! {
                        _ = stop.wait() => return End::Held,
                        _ = tokio::time::sleep(every) => {}
                    }
                    match conn.read(&mut buf).await {
                        Ok(0) | Err(_) => return End::Closed(t0.elapsed()),
                        Ok(n) => {
                            read.fetch_add(n as u64, Ordering::Relaxed);
                            tail.extend_from_slice(&buf[..n]);
                            let keep = tail.len().saturating_sub(5);
                            tail.drain(..keep);
                            if tail == b"0\r\n\r\n" {
                                return End::Completed(t0.elapsed());
                            }
                        }
                    }
                }
            })
        })
        .collect();
    ctl.ready();
    let ends = collect(tasks).await;
    let mut facts = tally(&ends);
    facts.insert("connections".to_owned(), opened as u64);
    facts.insert("bytes_read".to_owned(), read.load(Ordering::Relaxed));
    let what = format!("{opened} HTTP/1.1 GETs of {LARGE}, each read 1 KiB / 100 ms");
    (what, facts)
}

/// Idle connections: `size.count / 2` that finish TLS (ALPN http/1.1) and send nothing,
/// and as many that send the HTTP/2 preface and SETTINGS and then nothing.
pub async fn idle(target: Arc<Target>, size: Size, mut ctl: Ctl) -> (String, Facts) {
    let half = size.count / 2;
    let h1 = open_many(&target, half, false, 32).await;
    let h2 = open_many(&target, size.count - half, true, 32).await;
    let (n1, n2) = (h1.len(), h2.len());
    let spawn = |mut conn: Conn, hello: Vec<u8>, ctl: &Ctl| {
        let (mut stop, t0) = (ctl.signal(), ctl.started);
        tokio::spawn(async move {
            if conn.write_all(&hello).await.is_err() || conn.flush().await.is_err() {
                return End::Closed(t0.elapsed());
            }
            let mut buf = [0u8; 1024];
            loop {
                tokio::select! {
                    _ = stop.wait() => return End::Held,
                    r = conn.read(&mut buf) => if matches!(r, Ok(0) | Err(_)) {
                        return End::Closed(t0.elapsed());
                    },
                }
            }
        })
    };
    let mut hello = frames::PREFACE.to_vec();
    hello.extend_from_slice(&frames::settings(&[]));
    let t1: Vec<_> = h1.into_iter().map(|c| spawn(c, Vec::new(), &ctl)).collect();
    let t2: Vec<_> = h2
        .into_iter()
        .map(|c| spawn(c, hello.clone(), &ctl))
        .collect();
    ctl.ready();
    let mut facts = Facts::new();
    for (prefix, ends) in [("h1_", collect(t1).await), ("h2_", collect(t2).await)] {
        for (k, v) in tally(&ends) {
            facts.insert(format!("{prefix}{k}"), v);
        }
    }
    facts.insert("connections".to_owned(), (n1 + n2) as u64);
    let what = format!(
        "{n1} TLS connections (http/1.1) sending nothing, {n2} (h2) sending only the preface \
         and SETTINGS"
    );
    (what, facts)
}
