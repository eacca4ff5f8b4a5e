//! Auditing as the front door receives it: the `--audit-policy-file` Policy, parsed and
//! checked by the supervisor, and the backends the `--audit-log-*` and
//! `--audit-webhook-*` flags configure.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Auditing is on: a policy and at least one backend.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditConfig {
    /// `--audit-policy-file`, parsed.
    pub policy: AuditPolicy,
    /// `--audit-log-path` and its companions.
    pub log: Option<AuditLogBackend>,
    /// `--audit-webhook-config-file` and its companions.
    pub webhook: Option<AuditWebhookBackend>,
}

/// An `audit.k8s.io/v1` Policy.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditPolicy {
    /// `rules`, in file order: the first that matches a request decides its level.
    pub rules: Vec<AuditRule>,
    /// `omitStages`: stages no event is written for, whatever the rule.
    pub omit_stages: Vec<AuditStage>,
    /// `omitManagedFields`: leave `metadata.managedFields` out of logged objects.
    pub omit_managed_fields: bool,
}

/// One `rules[]` entry. An empty list matches everything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRule {
    /// `level`.
    pub level: AuditLevel,
    /// `users`: user names.
    pub users: Vec<String>,
    /// `userGroups`: any of the user's groups.
    pub user_groups: Vec<String>,
    /// `verbs`: request verbs (`get`, `list`, `watch`, `create`, …).
    pub verbs: Vec<String>,
    /// `resources`: a rule with resources matches resource requests only.
    pub resources: Vec<AuditGroupResources>,
    /// `namespaces`: `""` matches cluster-scoped resources; a rule with namespaces
    /// matches resource requests only.
    pub namespaces: Vec<String>,
    /// `nonResourceURLs`: paths, `*` allowed only as the last character (a prefix);
    /// a rule with them matches non-resource requests only.
    pub non_resource_urls: Vec<String>,
    /// `omitStages`, added to the policy's.
    pub omit_stages: Vec<AuditStage>,
    /// `omitManagedFields`; `None` takes the policy's.
    pub omit_managed_fields: Option<bool>,
}

/// One `resources[]` entry of a rule.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditGroupResources {
    /// `group`: `""` is the core group.
    pub group: String,
    /// `resources`: `pods`, `pods/log`, `pods/*`, `*/scale`, `*`; empty means all of the
    /// group's resources.
    pub resources: Vec<String>,
    /// `resourceNames`; empty means any name.
    pub resource_names: Vec<String>,
}

/// How much of a request an event records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum AuditLevel {
    /// No event.
    None,
    /// User, verb, resource, timestamps, response code: no bodies.
    Metadata,
    /// Metadata and the request object.
    Request,
    /// Metadata, request and response objects.
    RequestResponse,
}

impl AuditLevel {
    /// Parses a Policy's spelling.
    pub fn parse(s: &str) -> Option<AuditLevel> {
        match s {
            "None" => Some(AuditLevel::None),
            "Metadata" => Some(AuditLevel::Metadata),
            "Request" => Some(AuditLevel::Request),
            "RequestResponse" => Some(AuditLevel::RequestResponse),
            _ => None,
        }
    }

    /// The spelling of Policy files and events.
    pub fn as_str(self) -> &'static str {
        match self {
            AuditLevel::None => "None",
            AuditLevel::Metadata => "Metadata",
            AuditLevel::Request => "Request",
            AuditLevel::RequestResponse => "RequestResponse",
        }
    }
}

/// A point in a request's life at which an event is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AuditStage {
    /// As soon as the request is received, before it is handled.
    RequestReceived,
    /// Once the response headers are sent, for long-running requests (watch) only.
    ResponseStarted,
    /// Once the response is complete.
    ResponseComplete,
    /// The handler panicked.
    Panic,
}

impl AuditStage {
    /// Parses a Policy's spelling.
    pub fn parse(s: &str) -> Option<AuditStage> {
        match s {
            "RequestReceived" => Some(AuditStage::RequestReceived),
            "ResponseStarted" => Some(AuditStage::ResponseStarted),
            "ResponseComplete" => Some(AuditStage::ResponseComplete),
            "Panic" => Some(AuditStage::Panic),
            _ => None,
        }
    }

    /// The spelling of Policy files and events.
    pub fn as_str(self) -> &'static str {
        match self {
            AuditStage::RequestReceived => "RequestReceived",
            AuditStage::ResponseStarted => "ResponseStarted",
            AuditStage::ResponseComplete => "ResponseComplete",
            AuditStage::Panic => "Panic",
        }
    }
}

/// How a backend takes events from the request path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AuditMode {
    /// `blocking`: each event is written before the request goes on; a failed write is
    /// logged and the request goes on.
    Blocking,
    /// `blocking-strict`: as blocking, and a failed RequestReceived write fails the
    /// request.
    BlockingStrict,
    /// `batch`: events are buffered and written in the background; a full buffer drops
    /// events (counted and logged), never blocks a request.
    Batch,
}

impl AuditMode {
    /// Parses the flag's value.
    pub fn from_flag(s: &str) -> Option<AuditMode> {
        match s {
            "blocking" => Some(AuditMode::Blocking),
            "blocking-strict" => Some(AuditMode::BlockingStrict),
            "batch" => Some(AuditMode::Batch),
            _ => None,
        }
    }
}

/// `--audit-*-batch-*`: used in batch mode only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditBatch {
    /// `buffer-size`: events held before new ones are dropped.
    pub buffer_size: usize,
    /// `max-size`: events in one write (one webhook request).
    pub max_size: usize,
    /// `max-wait`: the longest an event waits for its batch to fill (the log's default is
    /// 0: a batch is whatever is buffered when the writer gets to it).
    pub max_wait: Duration,
    /// `throttle-enable` with `throttle-qps` and `throttle-burst`: batches per second
    /// and the burst; `None` when throttling is off (the log's default; the webhook's
    /// default is 10 per second, burst 15).
    pub throttle: Option<(f32, u32)>,
}

/// `--audit-*-truncate-*`, when `truncate-enabled`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditTruncate {
    /// `max-event-size` in bytes: a larger event loses its request and response objects
    /// (and is dropped if still too large).
    pub max_event_size: u64,
    /// `max-batch-size` in bytes: a batch is split to stay under it.
    pub max_batch_size: u64,
}

/// The format of `--audit-log-path`'s lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AuditLogFormat {
    /// `json`: one `audit.k8s.io` Event per line.
    Json,
    /// `legacy`: one `AUDIT: id=… stage=…` text line per event.
    Legacy,
}

/// `--audit-log-*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditLogBackend {
    /// `--audit-log-path`; `-` is standard output.
    pub path: String,
    /// `--audit-log-maxage`: days a rotated file is kept (0: no limit).
    pub max_age_days: u32,
    /// `--audit-log-maxbackup`: rotated files kept (0: no limit).
    pub max_backups: u32,
    /// `--audit-log-maxsize`: megabytes before the file is rotated; 0 (the default) is
    /// upstream's rotation library's own default, 100.
    pub max_size_mb: u32,
    /// `--audit-log-compress`: rotated files are gzipped.
    pub compress: bool,
    /// `--audit-log-format`.
    pub format: AuditLogFormat,
    /// `--audit-log-mode`.
    pub mode: AuditMode,
    /// `--audit-log-batch-*`.
    pub batch: AuditBatch,
    /// `--audit-log-truncate-*`.
    pub truncate: Option<AuditTruncate>,
    /// `--audit-log-version`, e.g. `audit.k8s.io/v1`.
    pub version: String,
}

/// `--audit-webhook-*`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditWebhookBackend {
    /// `--audit-webhook-config-file`, read.
    pub client: crate::WebhookClientConfig,
    /// `--audit-webhook-mode`.
    pub mode: AuditMode,
    /// `--audit-webhook-batch-*`.
    pub batch: AuditBatch,
    /// `--audit-webhook-truncate-*`.
    pub truncate: Option<AuditTruncate>,
    /// `--audit-webhook-initial-backoff`: the wait before the first retry of a failed
    /// request.
    pub initial_backoff: Duration,
    /// `--audit-webhook-version`, e.g. `audit.k8s.io/v1`.
    pub version: String,
}
