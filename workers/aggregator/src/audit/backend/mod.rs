//! The audit backends: where events go once the policy has made them. The log and the
//! webhook each take events in their mode: blocking (written before the request goes
//! on; a failure is logged), blocking-strict (the same, and a failure is the request's),
//! or batch (buffered and written in the background; never waits). Each truncates
//! events when asked to, counts what it wrote and dropped, and warns about failures at
//! most once per ten seconds.

mod batch;
mod legacy;
mod log;
mod rotate;
mod stats;
mod truncate;
mod webhook;

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::{join_all, FutureExt};
use kas_proto::{AuditConfig, AuditMode, AuditTruncate};

use super::Event;
use batch::{Batcher, Enqueued};
use stats::{Counters, RateLimited};

pub(crate) use stats::BackendStats;

/// The longest [`Backends::shutdown`] waits for buffered events to be written.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// A backend that could not start.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BackendError {
    /// `--audit-log-path` cannot be opened or created.
    #[error("audit log {path:?}: {source}")]
    LogFile {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The `--audit-webhook-config-file` client cannot be built.
    #[error("audit webhook {file:?}: {message}")]
    Webhook { file: String, message: String },
}

/// A blocking-strict backend failed to write an event.
#[derive(Debug, thiserror::Error)]
#[error("audit backend {backend}: {message}")]
pub(crate) struct ProcessError {
    /// `log` or `webhook`.
    pub(crate) backend: &'static str,
    /// What went wrong.
    pub(crate) message: String,
}

/// The configured backends, started.
pub(crate) struct Backends {
    backends: Vec<Backend>,
}

struct Backend {
    sink: Arc<Sink>,
    /// In batch mode.
    batcher: Option<Batcher>,
}

impl Backends {
    /// Opens the log file / builds the webhook client, and starts the batching tasks
    /// (on the current Tokio runtime).
    pub(crate) fn start(cfg: &AuditConfig) -> Result<Backends, BackendError> {
        let mut backends = Vec::new();
        if let Some(l) = &cfg.log {
            let writer = log::LogWriter::open(l).map_err(|source| BackendError::LogFile {
                path: l.path.clone(),
                source,
            })?;
            let sink = Sink::new("log", l.mode, l.truncate, &l.version, Writer::Log(writer));
            // Log batches are written in turn: concurrent writers would only queue on
            // the file's lock.
            backends.push(Backend::start(sink, &l.batch, false));
        }
        if let Some(w) = &cfg.webhook {
            let writer =
                webhook::WebhookWriter::new(w).map_err(|message| BackendError::Webhook {
                    file: w.client.file.clone(),
                    message,
                })?;
            let sink = Sink::new(
                "webhook",
                w.mode,
                w.truncate,
                &w.version,
                Writer::Webhook(Box::new(writer)),
            );
            backends.push(Backend::start(sink, &w.batch, true));
        }
        Ok(Backends { backends })
    }

    /// Hands `event` to every backend: blocking ones return once it is written (or
    /// failed), batch ones once it is buffered (or dropped). `Err` when a blocking-strict
    /// backend failed to write it.
    pub(crate) async fn process(&self, event: Arc<Event>) -> Result<(), ProcessError> {
        super::metrics::event();
        let results = join_all(self.backends.iter().map(|b| b.process(event.clone()))).await;
        results
            .into_iter()
            .collect::<Result<Vec<()>, _>>()
            .map(drop)
    }

    /// Writes what the batch buffers hold (waiting [`SHUTDOWN_GRACE`] at most) and
    /// closes the log file. Events processed later are dropped (counted) or fail.
    pub(crate) async fn shutdown(&self) {
        join_all(self.backends.iter().map(Backend::shutdown)).await;
    }

    /// Each backend's counts.
    pub(crate) fn stats(&self) -> Vec<BackendStats> {
        self.backends
            .iter()
            .map(|b| b.sink.counters.snapshot(b.sink.name))
            .collect()
    }
}

impl Backend {
    fn start(sink: Sink, batch: &kas_proto::AuditBatch, concurrent: bool) -> Backend {
        let sink = Arc::new(sink);
        let batcher = (sink.mode == AuditMode::Batch).then(|| {
            let s = sink.clone();
            let deliver: batch::Deliver = Arc::new(move |events| {
                let s = s.clone();
                async move {
                    let _ = s.deliver(events).await;
                }
                .boxed()
            });
            Batcher::start(batch, concurrent, deliver)
        });
        Backend { sink, batcher }
    }

    async fn process(&self, event: Arc<Event>) -> Result<(), ProcessError> {
        let sink = &self.sink;
        match &self.batcher {
            Some(b) => {
                let why = match b.enqueue(event) {
                    Enqueued::Yes => return Ok(()),
                    Enqueued::Full => "audit buffer queue blocked",
                    Enqueued::Closed => "audit backend shut down",
                };
                Counters::add(&sink.counters.dropped_full, 1);
                super::metrics::errors("buffered", 1);
                sink.warn(&sink.dropped_warn, why);
                Ok(())
            }
            None => match sink.deliver(vec![event]).await {
                Err(message) if sink.mode == AuditMode::BlockingStrict => Err(ProcessError {
                    backend: sink.name,
                    message,
                }),
                _ => Ok(()),
            },
        }
    }

    async fn shutdown(&self) {
        if let Some(b) = &self.batcher {
            if !b.shutdown(SHUTDOWN_GRACE).await {
                tracing::warn!(
                    backend = self.sink.name,
                    "audit events still being written after {SHUTDOWN_GRACE:?}; abandoned"
                );
            }
        }
        if let Writer::Log(l) = &self.sink.writer {
            if let Err(e) = l.close() {
                tracing::warn!(error = %e, "closing the audit log");
            }
        }
    }
}

/// One backend's writing: truncation, the writer, its counts and warnings.
struct Sink {
    name: &'static str,
    mode: AuditMode,
    truncate: Option<AuditTruncate>,
    version: String,
    writer: Writer,
    counters: Counters,
    error_warn: RateLimited,
    dropped_warn: RateLimited,
    too_large_warn: RateLimited,
}

enum Writer {
    Log(log::LogWriter),
    // Boxed: the client is large, and there is one of each.
    Webhook(Box<webhook::WebhookWriter>),
}

impl Sink {
    fn new(
        name: &'static str,
        mode: AuditMode,
        truncate: Option<AuditTruncate>,
        version: &str,
        writer: Writer,
    ) -> Sink {
        Sink {
            name,
            mode,
            truncate,
            version: version.to_owned(),
            writer,
            counters: Counters::default(),
            error_warn: RateLimited::default(),
            dropped_warn: RateLimited::default(),
            too_large_warn: RateLimited::default(),
        }
    }

    /// Truncates and writes `events` (one webhook request per piece); counts and warns.
    /// The error is the first write's failure.
    async fn deliver(&self, events: Vec<Arc<Event>>) -> Result<(), String> {
        let pieces = match &self.truncate {
            Some(limits) => {
                let split = truncate::split(events, limits, &self.version);
                if split.dropped > 0 {
                    Counters::add(&self.counters.dropped_too_large, split.dropped);
                    super::metrics::errors("truncate", split.dropped);
                    let first = split.first_dropped.unwrap_or_default();
                    self.warn(
                        &self.too_large_warn,
                        &format!(
                            "{} event(s) too large even after truncating dropped (first: auditID {first})",
                            split.dropped
                        ),
                    );
                }
                split.batches
            }
            None => vec![events],
        };
        let mut first_err = None;
        for piece in pieces.into_iter().filter(|p| !p.is_empty()) {
            let (written, err) = match &self.writer {
                Writer::Log(w) => {
                    let (n, err) = w.write(&piece);
                    (n, err.map(|e| e.to_string()))
                }
                Writer::Webhook(w) => match w.post(&piece).await {
                    Ok(()) => (piece.len(), None),
                    Err(e) => (0, Some(e)),
                },
            };
            Counters::add(&self.counters.written, written);
            if let Some(e) = err {
                Counters::add(&self.counters.errors, piece.len() - written);
                super::metrics::errors(self.name, piece.len() - written);
                self.warn(
                    &self.error_warn,
                    &format!("{} event(s) not written: {e}", piece.len() - written),
                );
                first_err.get_or_insert(e);
            }
        }
        first_err.map_or(Ok(()), Err)
    }

    /// Logs `message` unless this kind of warning was logged less than ten seconds ago.
    fn warn(&self, limiter: &RateLimited, message: &str) {
        if let Some(held_back) = limiter.allow() {
            tracing::warn!(backend = self.name, held_back, "audit: {message}");
        }
    }
}

#[cfg(test)]
pub(super) fn test_event(id: &str) -> Event {
    use std::collections::BTreeMap;
    Event {
        level: kas_proto::AuditLevel::Metadata,
        audit_id: id.into(),
        stage: kas_proto::AuditStage::ResponseComplete,
        request_uri: "/api/v1/namespaces/default/configmaps".into(),
        verb: "create".into(),
        user: kas_proto::UserInfo {
            name: "admin".into(),
            groups: vec!["system:masters".into()],
            ..Default::default()
        },
        impersonated_user: None,
        source_ips: vec!["127.0.0.1".into()],
        user_agent: "kubectl/v1.33.0".into(),
        object_ref: Some(super::ObjectRef {
            resource: "configmaps".into(),
            namespace: "default".into(),
            api_version: "v1".into(),
            ..Default::default()
        }),
        response_status: None,
        request_object: None,
        response_object: None,
        request_received_timestamp: std::time::SystemTime::now(),
        stage_timestamp: std::time::SystemTime::now(),
        annotations: BTreeMap::from([("authorization.k8s.io/decision".into(), "allow".into())]),
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
