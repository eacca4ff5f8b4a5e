//! Logging for every process of the tree: natively to journald when running under
//! systemd (`JOURNAL_STREAM` set) or with `--logging-format=journald`, with the worker's
//! role in a `WORKER` field and event fields (`VERB`, `CODE`, …) as journal fields;
//! otherwise human text on stderr with the role at the start of each line.

use std::io::IsTerminal;

use tracing::{Event, Subscriber};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::EnvFilter;

use crate::Error;

/// The journal's SYSLOG_IDENTIFIER for every process of the tree.
pub const SYSLOG_IDENTIFIER: &str = "kube-apiserver";

/// Where log lines go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Destination {
    /// journald's native protocol.
    Journald,
    /// Text on stderr.
    Stderr,
}

/// Picks the destination for `--logging-format` (`text` or `journald`): `text` means
/// journald anyway when systemd connected stderr to the journal.
pub fn destination(format: &str) -> Destination {
    if format == "journald" || std::env::var_os("JOURNAL_STREAM").is_some() {
        Destination::Journald
    } else {
        Destination::Stderr
    }
}

/// The filter for klog-style verbosity `-v`, unless `RUST_LOG` says otherwise.
fn filter(verbosity: u8) -> EnvFilter {
    if let Ok(f) = EnvFilter::try_from_default_env() {
        return f;
    }
    let level = match verbosity {
        0..=2 => "info",
        3..=5 => "debug",
        _ => "trace",
    };
    EnvFilter::new(format!("{level},h2=warn,hyper=warn,rustls=warn,tonic=warn"))
}

/// Installs the global subscriber for a process running as `role` (`supervisor`,
/// `aggregator`, …). Falls back to stderr when journald's socket is not there.
pub fn init(role: &'static str, verbosity: u8, format: &str) -> Result<(), Error> {
    let registry = tracing_subscriber::registry().with(filter(verbosity));
    if destination(format) == Destination::Journald {
        match tracing_journald::layer() {
            Ok(layer) => {
                // syslog's convention (and klog's under systemd): info is 6, debug 7.
                let priorities = tracing_journald::PriorityMappings {
                    info: tracing_journald::Priority::Informational,
                    debug: tracing_journald::Priority::Debug,
                    ..tracing_journald::PriorityMappings::new()
                };
                let layer = layer
                    .with_priority_mappings(priorities)
                    .with_syslog_identifier(SYSLOG_IDENTIFIER.to_owned())
                    .with_field_prefix(None)
                    .with_custom_fields([("WORKER", role.as_bytes())]);
                return registry
                    .with(layer)
                    .try_init()
                    .map_err(|e| Error::Logging(e.to_string()));
            }
            Err(e) => eprintln!("{role} journald unavailable ({e}); logging to stderr"),
        }
    }
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .event_format(RolePrefix {
            role,
            inner: tracing_subscriber::fmt::format().with_target(false),
        });
    registry
        .with(fmt)
        .try_init()
        .map_err(|e| Error::Logging(e.to_string()))
}

/// Puts the process role in front of each text line.
struct RolePrefix<F> {
    role: &'static str,
    inner: F,
}

impl<S, N, F> FormatEvent<S, N> for RolePrefix<F>
where
    F: FormatEvent<S, N>,
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> std::fmt::Result {
        write!(writer, "[{}] ", self.role)?;
        self.inner.format_event(ctx, writer, event)
    }
}
