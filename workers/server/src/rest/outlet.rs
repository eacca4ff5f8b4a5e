//! A watch's side of its response body: a bounded buffer ahead of the client, the end of
//! a watch whose client stopped reading, event lines that share the cache's serialization,
//! and upstream's watch metrics, `apiserver_watch_events_total` (every event sent) and
//! `apiserver_watch_events_sizes` by group, version and kind. Upstream observes an
//! object's size when it encodes it, which its cache does once for all watchers; here the
//! objects of JSON event lines are observed per watcher and event.

use std::sync::OnceLock;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Channel;
use prometheus::{Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, Opts};

use super::Resource;
use crate::body::{self, Body, BoxError};
use crate::metrics::{exponential_buckets, help, register, Stability};

fn families() -> &'static (IntCounterVec, HistogramVec) {
    static FAMILIES: OnceLock<(IntCounterVec, HistogramVec)> = OnceLock::new();
    FAMILIES.get_or_init(|| {
        let labels = ["group", "version", "kind"];
        // Building a family fails only on a malformed name or label: these are fixed.
        let events = IntCounterVec::new(
            Opts::new(
                "apiserver_watch_events_total",
                help(Stability::Alpha, "Number of events sent in watch clients"),
            ),
            &labels,
        )
        .expect("apiserver_watch_events_total");
        let sizes = HistogramVec::new(
            HistogramOpts::new(
                "apiserver_watch_events_sizes",
                help(Stability::Alpha, "Watch event size distribution in bytes"),
            )
            .buckets(exponential_buckets(1024.0, 2.0, 8)),
            &labels,
        )
        .expect("apiserver_watch_events_sizes");
        (register(events), register(sizes))
    })
}

/// Frames a watch buffers ahead of its client (an event is one to three frames).
const BUFFERED_FRAMES: usize = 192;

/// How long a watch's buffer may stay full before the watch is ended. Upstream's cache
/// closes a watcher whose buffer stays full past its dispatch budget (at most 100 ms,
/// "Forcing … watcher close due to unresponsiveness"); this buffer is shallower than
/// upstream's (up to 1,000 events), so the wait is longer. The client sees its watch end
/// and resumes from its last resourceVersion, as after any watch timeout.
const UNRESPONSIVE_AFTER: Duration = Duration::from_secs(1);

/// The watch's side of its response body.
pub(super) struct Outlet {
    tx: http_body_util::channel::Sender<Bytes, BoxError>,
    events: IntCounter,
    sizes: Histogram,
}

impl Outlet {
    pub(super) fn new(resource: &Resource) -> (Outlet, Body) {
        let (tx, rx) = Channel::<Bytes, BoxError>::new(BUFFERED_FRAMES);
        let labels = [resource.group, resource.version, resource.kind];
        let (events, sizes) = families();
        let outlet = Outlet {
            tx,
            events: events.with_label_values(&labels),
            sizes: sizes.with_label_values(&labels),
        };
        (outlet, body::boxed(rx))
    }

    /// Queues one whole event (a bookmark, an error, an object in another encoding),
    /// counted in `apiserver_watch_events_total`.
    pub(super) async fn send_event(&mut self, bytes: Bytes) -> bool {
        self.events.inc();
        self.send(bytes).await
    }

    /// Queues `bytes`; false when the watch must end: the client went, or left the buffer
    /// full for [`UNRESPONSIVE_AFTER`].
    async fn send(&mut self, bytes: Bytes) -> bool {
        match tokio::time::timeout(UNRESPONSIVE_AFTER, self.tx.send_data(bytes)).await {
            Ok(sent) => sent.is_ok(),
            Err(_) => {
                tracing::debug!("ending a watch whose client stopped reading");
                false
            }
        }
    }

    /// Queues the event line around an object serialized once for every watcher: the
    /// object is shared, not copied per watcher.
    pub(super) async fn send_line(&mut self, kind: &'static str, object: Bytes) -> bool {
        self.events.inc();
        self.sizes.observe(object.len() as f64);
        let prefix: &'static [u8] = match kind {
            "ADDED" => b"{\"type\":\"ADDED\",\"object\":",
            "MODIFIED" => b"{\"type\":\"MODIFIED\",\"object\":",
            "DELETED" => b"{\"type\":\"DELETED\",\"object\":",
            _ => return self.send(super::watch::line_raw(kind, &object)).await,
        };
        self.send(Bytes::from_static(prefix)).await
            && self.send(object).await
            && self.send(Bytes::from_static(b"}\n")).await
    }
}

#[cfg(test)]
mod tests {
    use http_body_util::BodyExt;

    use super::*;

    fn resource() -> Resource {
        Resource::new("", "v1", "configmaps", "configmap", "ConfigMap")
    }

    /// A client that stops reading has its watch ended once the buffer has stayed full
    /// for [`UNRESPONSIVE_AFTER`]; one that reads gets every frame.
    #[tokio::test(start_paused = true)]
    async fn an_unread_watch_ends_when_its_buffer_stays_full() {
        let (mut out, body) = Outlet::new(&resource());
        for _ in 0..BUFFERED_FRAMES {
            assert!(out.send(Bytes::from_static(b"x")).await);
        }
        let started = tokio::time::Instant::now();
        assert!(!out.send(Bytes::from_static(b"x")).await);
        assert_eq!(started.elapsed(), UNRESPONSIVE_AFTER);
        drop(out);
        // What was queued is still delivered, then the stream ends cleanly.
        let got = body.collect().await.expect("a clean end").to_bytes();
        assert_eq!(got.len(), BUFFERED_FRAMES);

        let (mut out, mut body) = Outlet::new(&resource());
        let reader = tokio::spawn(async move {
            let mut n = 0;
            while let Some(frame) = body.frame().await {
                n += frame.expect("frame").into_data().map_or(0, |d| d.len());
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            n
        });
        for _ in 0..BUFFERED_FRAMES * 2 {
            assert!(out.send_line("ADDED", Bytes::from_static(b"{}")).await);
        }
        drop(out);
        let line = b"{\"type\":\"ADDED\",\"object\":{}}\n".len();
        assert_eq!(reader.await.expect("reader"), line * BUFFERED_FRAMES * 2);
        let events = families()
            .0
            .with_label_values(&["", "v1", "ConfigMap"])
            .get();
        assert!(events >= (BUFFERED_FRAMES * 2) as u64, "{events}");
    }
}
