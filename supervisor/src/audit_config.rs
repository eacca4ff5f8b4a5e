//! The auditing flags (`--audit-policy-file`, `--audit-log-*`, `--audit-webhook-*`) as
//! kube-apiserver v1.33 defines, defaults and checks them (k8s.io/apiserver
//! pkg/server/options/audit.go), turned into the [`AuditConfig`] the front door receives.
//! Auditing is on with a policy and at least one backend; a backend without a policy
//! records nothing (a warning says so), and a policy without a backend is read and
//! checked but records nothing either. The log file is made at start (0600, its
//! directory 0700) whether or not there is a policy, as upstream makes it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches};
use kas_proto::{
    AuditBatch, AuditConfig, AuditLogBackend, AuditLogFormat, AuditMode, AuditTruncate,
    AuditWebhookBackend,
};

use crate::options::AUDIT;
use crate::pflag::{parse_bool, parse_duration, parse_float, parse_int};
use crate::validate::FlagError;

/// The only event version upstream knows.
const AUDIT_V1: &str = "audit.k8s.io/v1";
const MODES: &str = "batch,blocking,blocking-strict";
const FORMATS: &str = "legacy,json";

/// The auditing flags, with upstream's defaults.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct AuditFlags {
    /// Path to the audit policy file (audit.k8s.io/v1 Policy, YAML or JSON): which
    /// requests are recorded, and at which level. Without it nothing is recorded.
    #[arg(long, help_heading = AUDIT, value_name = "string")]
    pub(crate) audit_policy_file: Option<PathBuf>,

    /// If set, every request the policy selects is written to this file; '-' means
    /// standard output.
    #[arg(long, help_heading = AUDIT, value_name = "string", allow_hyphen_values = true)]
    pub(crate) audit_log_path: Option<String>,

    /// The maximum number of days to keep old audit log files, by the timestamp in their
    /// names. 0 keeps them whatever their age.
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 0, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_log_maxage: i64,

    /// The maximum number of old audit log files to keep. 0 keeps them all.
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 0, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_log_maxbackup: i64,

    /// The size in megabytes at which the audit log file is rotated (0: 100).
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 0, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_log_maxsize: i64,

    /// The format of the audit log: "json", one structured event per line, or "legacy",
    /// one line of text per event. Known formats are legacy,json.
    #[arg(long, help_heading = AUDIT, value_name = "string", default_value = "json")]
    pub(crate) audit_log_format: String,

    /// If set, rotated audit log files are compressed with gzip.
    #[arg(long, help_heading = AUDIT, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) audit_log_compress: bool,

    /// The API group and version of the events written to the log.
    #[arg(long, help_heading = AUDIT, value_name = "string", default_value = AUDIT_V1)]
    pub(crate) audit_log_version: String,

    /// How events reach the log: "blocking" writes each before the response goes on,
    /// "blocking-strict" also fails the request when the first write fails, "batch"
    /// buffers them and writes in the background. Known modes are
    /// batch,blocking,blocking-strict.
    #[arg(long, help_heading = AUDIT, value_name = "string", default_value = "blocking")]
    pub(crate) audit_log_mode: String,

    /// Events held before they are batched and written. Batch mode only.
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 10000, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_log_batch_buffer_size: i64,

    /// The most events in one batch. Batch mode only.
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 1, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_log_batch_max_size: i64,

    /// How long a batch that has not reached its maximum size waits before it is written
    /// anyway. Batch mode only.
    #[arg(long, help_heading = AUDIT, value_name = "duration", default_value = "0s", allow_hyphen_values = true, value_parser = parse_duration)]
    pub(crate) audit_log_batch_max_wait: String,

    /// Whether batches are throttled. Batch mode only.
    #[arg(long, help_heading = AUDIT, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) audit_log_batch_throttle_enable: bool,

    /// The most batches per second, on average, when throttled. Batch mode only.
    #[arg(long, help_heading = AUDIT, value_name = "float", default_value_t = 0.0, allow_negative_numbers = true, value_parser = parse_float)]
    pub(crate) audit_log_batch_throttle_qps: f64,

    /// The most batches sent at once when the throttle's rate has not been used before.
    /// Batch mode only.
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 0, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_log_batch_throttle_burst: i64,

    /// Whether events and batches are truncated to the sizes below.
    #[arg(long, help_heading = AUDIT, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) audit_log_truncate_enabled: bool,

    /// The most bytes in one batch written to the log (the written batch may be a few
    /// hundred bytes larger); a larger batch is split.
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 10 * 1024 * 1024, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_log_truncate_max_batch_size: i64,

    /// The most bytes in one event written to the log; a larger event loses its request
    /// and response objects, and is dropped if still too large.
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 100 * 1024, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_log_truncate_max_event_size: i64,

    /// Path to a kubeconfig file naming the audit webhook to send events to.
    #[arg(long, help_heading = AUDIT, value_name = "string")]
    pub(crate) audit_webhook_config_file: Option<PathBuf>,

    /// How long to wait before the first retry of a failed webhook request.
    #[arg(long, help_heading = AUDIT, value_name = "duration", default_value = "10s", allow_hyphen_values = true, value_parser = parse_duration)]
    pub(crate) audit_webhook_initial_backoff: String,

    /// Deprecated spelling of --audit-webhook-initial-backoff.
    #[arg(long, help_heading = AUDIT, value_name = "duration", hide = true, allow_hyphen_values = true, value_parser = parse_duration)]
    pub(crate) audit_webhook_batch_initial_backoff: Option<String>,

    /// The API group and version of the events sent to the webhook.
    #[arg(long, help_heading = AUDIT, value_name = "string", default_value = AUDIT_V1)]
    pub(crate) audit_webhook_version: String,

    /// How events reach the webhook: "blocking" sends each before the response goes on,
    /// "blocking-strict" also fails the request when the first send fails, "batch"
    /// buffers them and sends in the background. Known modes are
    /// batch,blocking,blocking-strict.
    #[arg(long, help_heading = AUDIT, value_name = "string", default_value = "batch")]
    pub(crate) audit_webhook_mode: String,

    /// Events held before they are batched and sent. Batch mode only.
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 10000, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_webhook_batch_buffer_size: i64,

    /// The most events in one webhook request. Batch mode only.
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 400, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_webhook_batch_max_size: i64,

    /// How long a batch that has not reached its maximum size waits before it is sent
    /// anyway. Batch mode only.
    #[arg(long, help_heading = AUDIT, value_name = "duration", default_value = "30s", allow_hyphen_values = true, value_parser = parse_duration)]
    pub(crate) audit_webhook_batch_max_wait: String,

    /// Whether webhook requests are throttled. Batch mode only.
    #[arg(long, help_heading = AUDIT, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "true", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) audit_webhook_batch_throttle_enable: bool,

    /// The most webhook requests per second, on average, when throttled. Batch mode
    /// only.
    #[arg(long, help_heading = AUDIT, value_name = "float", default_value_t = 10.0, allow_negative_numbers = true, value_parser = parse_float)]
    pub(crate) audit_webhook_batch_throttle_qps: f64,

    /// The most webhook requests sent at once when the throttle's rate has not been used
    /// before. Batch mode only.
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 15, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_webhook_batch_throttle_burst: i64,

    /// Whether events and batches are truncated to the sizes below.
    #[arg(long, help_heading = AUDIT, value_name = "bool", num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", action = ArgAction::Set, value_parser = parse_bool)]
    pub(crate) audit_webhook_truncate_enabled: bool,

    /// The most bytes in one webhook request's batch (the request may be a few hundred
    /// bytes larger); a larger batch is split.
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 10 * 1024 * 1024, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_webhook_truncate_max_batch_size: i64,

    /// The most bytes in one event sent to the webhook; a larger event loses its request
    /// and response objects, and is dropped if still too large.
    #[arg(long, help_heading = AUDIT, value_name = "int", default_value_t = 100 * 1024, allow_negative_numbers = true, value_parser = parse_int)]
    pub(crate) audit_webhook_truncate_max_event_size: i64,
}

/// `--audit-webhook-batch-initial-backoff`, deprecated: pflag's warning, and its value
/// moved to `--audit-webhook-initial-backoff` when it came later on the command line
/// (upstream binds both flags to one variable: the last one given wins).
pub(crate) fn deprecated(matches: &ArgMatches, flags: &mut AuditFlags) -> Vec<String> {
    const OLD: &str = "audit_webhook_batch_initial_backoff";
    const NEW: &str = "audit_webhook_initial_backoff";
    let Some(old) = flags.audit_webhook_batch_initial_backoff.clone() else {
        return Vec::new();
    };
    let last = |id: &str| matches.indices_of(id).and_then(|i| i.max());
    let new_given = matches.value_source(NEW) == Some(ValueSource::CommandLine);
    if !new_given || last(OLD) > last(NEW) {
        flags.audit_webhook_initial_backoff = old;
    }
    vec![
        "Flag --audit-webhook-batch-initial-backoff has been deprecated, Deprecated, use --audit-webhook-initial-backoff instead."
            .to_owned(),
    ]
}

/// The auditing flags, checked.
#[derive(Debug, Clone, Default)]
pub(crate) struct AuditValidated {
    /// Auditing, when a policy and a backend are given.
    pub(crate) config: Option<AuditConfig>,
    /// The log file to make at start (absolute), whether or not there is a policy.
    pub(crate) log_file: Option<PathBuf>,
}

/// The flag names of one backend, for its errors.
struct Names {
    plugin: &'static str,
    mode: &'static str,
    buffer_size: &'static str,
    max_size: &'static str,
    qps: &'static str,
    burst: &'static str,
    max_event_size: &'static str,
    max_batch_size: &'static str,
    version: &'static str,
}

const LOG: Names = Names {
    plugin: "log",
    mode: "--audit-log-mode",
    buffer_size: "--audit-log-batch-buffer-size",
    max_size: "--audit-log-batch-max-size",
    qps: "--audit-log-batch-throttle-qps",
    burst: "--audit-log-batch-throttle-burst",
    max_event_size: "--audit-log-truncate-max-event-size",
    max_batch_size: "--audit-log-truncate-max-batch-size",
    version: "--audit-log-version",
};

const WEBHOOK: Names = Names {
    plugin: "webhook",
    mode: "--audit-webhook-mode",
    buffer_size: "--audit-webhook-batch-buffer-size",
    max_size: "--audit-webhook-batch-max-size",
    qps: "--audit-webhook-batch-throttle-qps",
    burst: "--audit-webhook-batch-throttle-burst",
    max_event_size: "--audit-webhook-truncate-max-event-size",
    max_batch_size: "--audit-webhook-truncate-max-batch-size",
    version: "--audit-webhook-version",
};

/// One backend's batch and truncate flags, as read.
struct BackendFlags<'a> {
    mode: &'a str,
    buffer_size: i64,
    max_size: i64,
    max_wait: &'a str,
    throttle: bool,
    qps: f64,
    burst: i64,
    truncate: bool,
    max_event_size: i64,
    max_batch_size: i64,
    version: &'a str,
}

/// What one backend's batch, truncate and version flags come to.
struct Backend {
    mode: AuditMode,
    batch: AuditBatch,
    truncate: Option<AuditTruncate>,
    version: String,
}

struct Check<'e> {
    errs: &'e mut Vec<FlagError>,
}

impl Check<'_> {
    fn push(&mut self, flag: &'static str, message: String) {
        self.errs.push(FlagError { flag, message });
    }

    /// Upstream's checks of one enabled backend, in its order: mode and batch (the batch
    /// values only in batch mode), truncate sizes (whether or not truncating is on),
    /// version.
    fn backend(&mut self, n: &Names, f: &BackendFlags<'_>) -> Backend {
        let p = n.plugin;
        let mode = AuditMode::from_flag(f.mode);
        if mode.is_none() {
            self.push(
                n.mode,
                format!(
                    "invalid audit {p} mode {}, allowed modes are {MODES:?}",
                    f.mode
                ),
            );
        }
        if mode == Some(AuditMode::Batch) {
            if f.buffer_size <= 0 {
                self.push(
                    n.buffer_size,
                    format!(
                        "invalid audit batch {p} buffer size {}, must be a positive number",
                        f.buffer_size
                    ),
                );
            }
            if f.max_size <= 0 {
                self.push(
                    n.max_size,
                    format!(
                        "invalid audit batch {p} max batch size {}, must be a positive number",
                        f.max_size
                    ),
                );
            }
            if f.throttle && f.qps <= 0.0 {
                self.push(
                    n.qps,
                    format!(
                        "invalid audit batch {p} throttle QPS {}, must be a positive number",
                        f.qps as f32
                    ),
                );
            }
            if f.throttle && f.burst <= 0 {
                self.push(
                    n.burst,
                    format!(
                        "invalid audit batch {p} throttle burst {}, must be a positive number",
                        f.burst
                    ),
                );
            }
        }
        if f.max_event_size <= 0 {
            self.push(
                n.max_event_size,
                format!(
                    "invalid audit truncate {p} max event size {}, must be a positive number",
                    f.max_event_size
                ),
            );
        } else if f.max_batch_size < f.max_event_size {
            self.push(n.max_batch_size, format!("invalid audit truncate {p} max batch size {}, must be greater than max event size ({})", f.max_batch_size, f.max_event_size));
        }
        self.version(n.version, f.version);
        Backend {
            mode: mode.unwrap_or(AuditMode::Blocking),
            batch: AuditBatch {
                buffer_size: usize::try_from(f.buffer_size).unwrap_or(0),
                max_size: usize::try_from(f.max_size).unwrap_or(0),
                max_wait: duration(f.max_wait),
                throttle: f.throttle.then(|| {
                    (
                        f.qps as f32,
                        u32::try_from(f.burst.max(0)).unwrap_or(u32::MAX),
                    )
                }),
            },
            truncate: f.truncate.then(|| AuditTruncate {
                max_event_size: u64::try_from(f.max_event_size).unwrap_or(0),
                max_batch_size: u64::try_from(f.max_batch_size).unwrap_or(0),
            }),
            version: f.version.to_owned(),
        }
    }

    /// Upstream's `schema.ParseGroupVersion`, then the one known version.
    fn version(&mut self, flag: &'static str, v: &str) {
        if v.matches('/').count() > 1 {
            self.push(flag, format!("unexpected GroupVersion string: {v}"));
        } else if v != AUDIT_V1 {
            self.push(
                flag,
                format!("invalid group version, allowed versions are [\"{AUDIT_V1}\"]"),
            );
        }
    }

    /// A count that must not be negative (`--audit-log-max*`).
    fn count(&mut self, flag: &'static str, v: i64) -> u32 {
        if v < 0 {
            self.push(flag, format!("{flag} {v} can't be a negative number"));
        }
        u32::try_from(v.max(0)).unwrap_or(u32::MAX)
    }
}

/// A duration flag's value (pflag has checked its syntax); a negative one is zero.
fn duration(v: &str) -> Duration {
    if v.starts_with('-') {
        return Duration::ZERO;
    }
    crate::godur::parse(v).unwrap_or(Duration::ZERO)
}

/// A path flag given and not empty.
fn given(p: &Option<PathBuf>) -> Option<&Path> {
    p.as_deref().filter(|p| !p.as_os_str().is_empty())
}

/// Checks the auditing flags and reads the policy (and the webhook's kubeconfig, when
/// there is a policy), adding every problem to `errs` and what upstream logs to
/// `warnings`.
pub(crate) fn validate(
    f: &AuditFlags,
    errs: &mut Vec<FlagError>,
    warnings: &mut Vec<String>,
) -> AuditValidated {
    let mut check = Check { errs };
    let policy_file = given(&f.audit_policy_file);
    let policy = policy_file.and_then(|p| match crate::audit_policy::load(p) {
        Ok(loaded) => {
            warnings.extend(loaded.warning);
            Some(loaded.policy)
        }
        Err(msgs) => {
            for m in msgs {
                check.push("--audit-policy-file", m);
            }
            None
        }
    });

    let log_path = f.audit_log_path.as_deref().filter(|p| !p.is_empty());
    let log = log_path.map(|path| {
        let b = check.backend(
            &LOG,
            &BackendFlags {
                mode: &f.audit_log_mode,
                buffer_size: f.audit_log_batch_buffer_size,
                max_size: f.audit_log_batch_max_size,
                max_wait: &f.audit_log_batch_max_wait,
                throttle: f.audit_log_batch_throttle_enable,
                qps: f.audit_log_batch_throttle_qps,
                burst: f.audit_log_batch_throttle_burst,
                truncate: f.audit_log_truncate_enabled,
                max_event_size: f.audit_log_truncate_max_event_size,
                max_batch_size: f.audit_log_truncate_max_batch_size,
                version: &f.audit_log_version,
            },
        );
        let format = match f.audit_log_format.as_str() {
            "json" => AuditLogFormat::Json,
            "legacy" => AuditLogFormat::Legacy,
            other => {
                check.push(
                    "--audit-log-format",
                    format!("invalid audit log format {other}, allowed formats are {FORMATS:?}"),
                );
                AuditLogFormat::Json
            }
        };
        AuditLogBackend {
            // The front door writes it: a relative path means the same file to it.
            path: match path {
                "-" => path.to_owned(),
                p => absolute(Path::new(p)).display().to_string(),
            },
            max_age_days: check.count("--audit-log-maxage", f.audit_log_maxage),
            max_backups: check.count("--audit-log-maxbackup", f.audit_log_maxbackup),
            max_size_mb: check.count("--audit-log-maxsize", f.audit_log_maxsize),
            compress: f.audit_log_compress,
            format,
            mode: b.mode,
            batch: b.batch,
            truncate: b.truncate,
            version: b.version,
        }
    });

    let webhook_file = given(&f.audit_webhook_config_file);
    let webhook = webhook_file.map(|file| {
        let b = check.backend(
            &WEBHOOK,
            &BackendFlags {
                mode: &f.audit_webhook_mode,
                buffer_size: f.audit_webhook_batch_buffer_size,
                max_size: f.audit_webhook_batch_max_size,
                max_wait: &f.audit_webhook_batch_max_wait,
                throttle: f.audit_webhook_batch_throttle_enable,
                qps: f.audit_webhook_batch_throttle_qps,
                burst: f.audit_webhook_batch_throttle_burst,
                truncate: f.audit_webhook_truncate_enabled,
                max_event_size: f.audit_webhook_truncate_max_event_size,
                max_batch_size: f.audit_webhook_truncate_max_batch_size,
                version: &f.audit_webhook_version,
            },
        );
        // Upstream reads the kubeconfig only when it will send events.
        let client = policy_file.and_then(|_| {
            crate::webhook_config::load(file)
                .map_err(|e| {
                    check.push(
                        "--audit-webhook-config-file",
                        format!("initializing audit webhook: {e}"),
                    )
                })
                .ok()
        });
        (client, b)
    });
    if webhook.is_none() && f.audit_webhook_version.matches('/').count() > 1 {
        // Upstream parses this flag's value even with no webhook.
        check.version("--audit-webhook-version", &f.audit_webhook_version);
    }

    if policy_file.is_none() {
        for (on, backend) in [(log.is_some(), "log"), (webhook.is_some(), "webhook")] {
            if on {
                warnings.push(format!(
                    "No audit policy file provided, no events will be recorded for {backend} backend"
                ));
            }
        }
    } else if log.is_none() && webhook.is_none() {
        warnings.push(
            "--audit-policy-file is set without --audit-log-path or --audit-webhook-config-file: no events will be recorded"
                .to_owned(),
        );
    }

    let log_file = log
        .as_ref()
        .filter(|l| l.path != "-")
        .map(|l| PathBuf::from(&l.path));
    let webhook = webhook.and_then(|(client, b)| {
        Some(AuditWebhookBackend {
            client: client?,
            mode: b.mode,
            batch: b.batch,
            truncate: b.truncate,
            initial_backoff: duration(&f.audit_webhook_initial_backoff),
            version: b.version,
        })
    });
    let config = policy.and_then(|policy| {
        (log.is_some() || webhook.is_some()).then_some(AuditConfig {
            policy,
            log,
            webhook,
        })
    });
    AuditValidated { config, log_file }
}

/// `p`, made absolute against the working directory.
fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        return p.to_owned();
    }
    std::env::current_dir()
        .map(|d| d.join(p))
        .unwrap_or_else(|_| p.to_owned())
}

/// Makes the audit log file and its directory as upstream does at start: the directory
/// 0700 when made, the file 0600 when made, an existing one left as it is.
pub(crate) fn ensure_log_file(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .mode(0o600)
        .open(path)
        .map(drop)
}

#[cfg(test)]
#[path = "audit_config_tests.rs"]
mod tests;
