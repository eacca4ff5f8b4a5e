//! Watch abuse: many watches from one client, and watches whose client never reads while
//! ConfigMaps of 32 KiB change under them. A well-behaved watcher counts the events it
//! gets meanwhile.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request, StatusCode};
use http_body_util::{BodyExt, Full};
use tokio::io::AsyncWriteExt;

use super::frames::{self, Raw, INITIAL_WINDOW_SIZE};
use super::{open_many, Ctl, Facts, Size, Stop, Target};

const WATCH: &str = "/api/v1/namespaces/default/configmaps?watch=1";

/// How many ConfigMaps the writer cycles through.
const NAMES: usize = 8;

/// Creates [`NAMES`] ConfigMaps, then replaces one of them in turn every `every` with
/// `kib` KiB of fresh data until `stop`; counts the writes answered 200/201.
async fn writer(
    target: Arc<Target>,
    prefix: &'static str,
    kib: usize,
    every: Duration,
    mut stop: Stop,
    writes: Arc<AtomicU64>,
) {
    let Ok(client) = target.client().await else {
        return;
    };
    let body = |name: &str, n: u64| {
        let data = format!("{n:08}").repeat(kib * 128);
        format!(
            r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{name}"}},"data":{{"d":"{data}"}}}}"#
        )
    };
    for i in 0..NAMES {
        let name = format!("{prefix}-{i}");
        let _ = client
            .request(
                Method::POST,
                "/api/v1/namespaces/default/configmaps",
                body(&name, 0).as_bytes(),
            )
            .await;
    }
    let mut n = 0u64;
    let mut tick = tokio::time::interval(every);
    while !stop.now() {
        tokio::select! {
            _ = stop.wait() => break,
            _ = tick.tick() => {}
        }
        let name = format!("{prefix}-{}", n as usize % NAMES);
        let path = format!("/api/v1/namespaces/default/configmaps/{name}");
        let bytes = body(&name, n);
        let put = client.request(Method::PUT, &path, bytes.as_bytes());
        tokio::select! {
            _ = stop.wait() => break,
            r = put => if matches!(r, Ok((StatusCode::OK | StatusCode::CREATED, _))) {
                writes.fetch_add(1, Ordering::Relaxed);
            },
        }
        n += 1;
    }
}

/// A watcher that reads everything; counts the events (lines) it got.
async fn healthy(target: Arc<Target>, mut stop: Stop, events: Arc<AtomicU64>) {
    let Ok(conn) = target.connect(true).await else {
        return;
    };
    let Ok((mut send, conn)) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(conn),
    )
    .await
    else {
        return;
    };
    tokio::spawn(conn);
    let Ok(req) = Request::get(format!("https://localhost{WATCH}")).body(Full::new(Bytes::new()))
    else {
        return;
    };
    let Ok(resp) = send.send_request(req).await else {
        return;
    };
    let mut body = resp.into_body();
    loop {
        tokio::select! {
            _ = stop.wait() => return,
            f = body.frame() => match f {
                Some(Ok(f)) => if let Some(d) = f.data_ref() {
                    let lines = d.iter().filter(|b| **b == b'\n').count();
                    events.fetch_add(lines as u64, Ordering::Relaxed);
                },
                _ => return,
            },
        }
    }
}

/// Many watches from one client: `size.count` ConfigMap watches over raw HTTP/2
/// connections (90 streams each, windows open), while ConfigMaps change.
pub async fn many_watches(target: Arc<Target>, size: Size, mut ctl: Ctl) -> (String, Facts) {
    let mut facts = Facts::new();
    let block = frames::request_block("GET", WATCH, &[]);
    let mut raws = Vec::new();
    let mut left = size.count;
    while left > 0 {
        let n = left.min(90);
        left -= n;
        let Ok(raw) = Raw::open(&target, &[(INITIAL_WINDOW_SIZE, 1 << 24)]).await else {
            *facts.entry("connect_failed".to_owned()).or_default() += 1;
            continue;
        };
        let mut out = Vec::new();
        frames::window_update(&mut out, 0, 1 << 30);
        for i in 0..n as u32 {
            frames::headers(&mut out, 1 + 2 * i, &block, true);
        }
        let _ = raw.send(&out).await;
        raws.push(raw);
    }
    // Set up: every watch answered (or 10 s).
    let answered = || {
        raws.iter()
            .map(|r| r.seen.responses.load(Ordering::Relaxed))
            .sum::<u64>()
    };
    let t0 = std::time::Instant::now();
    while answered() < size.count as u64 && t0.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (writes, events) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let w = tokio::spawn(writer(
        target.clone(),
        "hostile-many",
        1,
        Duration::from_millis(500),
        ctl.signal(),
        writes.clone(),
    ));
    let h = tokio::spawn(healthy(target.clone(), ctl.signal(), events.clone()));
    ctl.ready();
    ctl.stopped().await;
    let _ = tokio::join!(w, h);
    let mut total = 0;
    for raw in &raws {
        let seen = &raw.seen;
        total += seen.data_bytes.load(Ordering::Relaxed);
        *facts.entry("watches_200".to_owned()).or_default() += seen.ok.load(Ordering::Relaxed);
        *facts.entry("watches_reset".to_owned()).or_default() += seen.reset_count();
        *facts.entry("connections_gone".to_owned()).or_default() += u64::from(seen.gone());
    }
    facts.insert("watches".to_owned(), size.count as u64);
    facts.insert("connections".to_owned(), raws.len() as u64);
    facts.insert("event_bytes_received".to_owned(), total);
    facts.insert("writes".to_owned(), writes.load(Ordering::Relaxed));
    facts.insert(
        "healthy_watcher_events".to_owned(),
        events.load(Ordering::Relaxed),
    );
    let what = format!(
        "{} ConfigMap watches from one client over {} HTTP/2 connections, while one writer \
         replaced one of {NAMES} ConfigMaps (1 KiB) every 500 ms",
        size.count,
        raws.len()
    );
    (what, facts)
}

/// Watches that never read: `size.count` HTTP/1.1 connections each start a ConfigMap
/// watch and never read a byte, while ConfigMaps of 32 KiB change; a healthy watcher
/// counts its events.
pub async fn unread_watches(target: Arc<Target>, size: Size, mut ctl: Ctl) -> (String, Facts) {
    let mut facts = Facts::new();
    let mut conns = open_many(&target, size.count, false, 32).await;
    let req = format!("GET {WATCH} HTTP/1.1\r\nHost: localhost\r\n\r\n");
    let mut started = 0u64;
    for c in &mut conns {
        if c.write_all(req.as_bytes()).await.is_ok() && c.flush().await.is_ok() {
            started += 1;
        }
    }
    let (writes, events) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let w = tokio::spawn(writer(
        target.clone(),
        "hostile-unread",
        32,
        Duration::from_millis(500),
        ctl.signal(),
        writes.clone(),
    ));
    let h = tokio::spawn(healthy(target.clone(), ctl.signal(), events.clone()));
    ctl.ready();
    ctl.stopped().await;
    let _ = tokio::join!(w, h);
    // How many the server has closed: a read that ends at once (or fails) is closed, and
    // so is a response that ends with the last chunk (the watch ended, the connection
    // kept alive); one that yields data was still being fed.
    let mut closed = 0u64;
    for c in &mut conns {
        let mut buf = vec![0u8; 64 * 1024];
        let mut tail: Vec<u8> = Vec::new();
        let mut ended = false;
        // Drain what is queued.
        for _ in 0..512 {
            match tokio::time::timeout(
                Duration::from_millis(5),
                tokio::io::AsyncReadExt::read(c, &mut buf),
            )
            .await
            {
                Ok(Ok(0)) | Ok(Err(_)) => {
                    ended = true;
                    break;
                }
                Ok(Ok(n)) => {
                    tail.extend_from_slice(&buf[..n]);
                    let keep = tail.len().saturating_sub(5);
                    tail.drain(..keep);
                }
                Err(_) => break,
            }
        }
        closed += u64::from(ended || tail == b"0\r\n\r\n");
    }
    facts.insert("watches".to_owned(), started);
    facts.insert("closed_by_server".to_owned(), closed);
    facts.insert("writes".to_owned(), writes.load(Ordering::Relaxed));
    facts.insert(
        "healthy_watcher_events".to_owned(),
        events.load(Ordering::Relaxed),
    );
    let what = format!(
        "{started} HTTP/1.1 ConfigMap watches never read, while one writer replaced {NAMES} \
         ConfigMaps (32 KiB) in turn, one every 500 ms"
    );
    (what, facts)
}
