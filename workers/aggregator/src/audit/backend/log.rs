//! `--audit-log-path`: each event one line, JSON (`--audit-log-format=json`, the
//! Event as `--audit-log-version` spells it) or upstream's legacy text, to standard output
//! for `-` (journald's under systemd) or to a file rotated as upstream rotates it.

use std::io::{self, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};

use kas_proto::{AuditLogBackend, AuditLogFormat};

use super::super::Event;
use super::legacy;
use super::rotate::{Clock, Retention, RotatingFile};

/// The writer of one log backend. A line is built first, then written under the lock,
/// whole: concurrent requests' lines never interleave.
pub(super) struct LogWriter {
    out: Mutex<Output>,
    format: AuditLogFormat,
    version: String,
}

enum Output {
    Stdout,
    File(RotatingFile),
    /// After shutdown.
    Closed,
}

impl LogWriter {
    /// Opens `cfg.path` (creating it 0600) or takes standard output.
    pub(super) fn open(cfg: &AuditLogBackend) -> io::Result<LogWriter> {
        let keep = Retention::from_flags(
            cfg.max_size_mb,
            cfg.max_backups,
            cfg.max_age_days,
            cfg.compress,
        );
        LogWriter::open_with(cfg, keep, Arc::new(std::time::SystemTime::now))
    }

    /// [`LogWriter::open`] with the retention and clock given (tests: tiny sizes).
    pub(super) fn open_with(
        cfg: &AuditLogBackend,
        keep: Retention,
        clock: Clock,
    ) -> io::Result<LogWriter> {
        let out = if cfg.path == "-" {
            Output::Stdout
        } else {
            Output::File(RotatingFile::open(Path::new(&cfg.path), keep, clock)?)
        };
        Ok(LogWriter {
            out: Mutex::new(out),
            format: cfg.format,
            version: cfg.version.clone(),
        })
    }

    /// Writes each event's line; goes on past a failure, as upstream does. Returns how
    /// many were written and the first error.
    pub(super) fn write(&self, events: &[Arc<Event>]) -> (usize, Option<io::Error>) {
        let mut written = 0;
        let mut first_err = None;
        for e in events {
            match self.write_one(e) {
                Ok(()) => written += 1,
                Err(err) => {
                    first_err.get_or_insert(err);
                }
            }
        }
        (written, first_err)
    }

    fn write_one(&self, e: &Event) -> io::Result<()> {
        let line = match self.format {
            AuditLogFormat::Json => {
                let mut l = e.to_json(&self.version);
                l.push(b'\n');
                l
            }
            AuditLogFormat::Legacy => legacy::line(e).into_bytes(),
        };
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        match &mut *out {
            Output::Stdout => {
                let mut stdout = io::stdout().lock();
                stdout.write_all(&line)?;
                stdout.flush()
            }
            Output::File(f) => f.write_line(&line),
            Output::Closed => Err(io::Error::other("the audit log is closed")),
        }
    }

    /// Flushes and closes the file; later writes fail.
    pub(super) fn close(&self) -> io::Result<()> {
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        let result = match &mut *out {
            Output::Stdout => io::stdout().flush(),
            Output::File(f) => f.close(),
            Output::Closed => Ok(()),
        };
        *out = Output::Closed;
        result
    }
}
