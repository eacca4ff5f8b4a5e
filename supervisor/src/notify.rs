//! systemd notifications (`READY=1`, `STATUS=`, `RELOADING=1`, `STOPPING=1`,
//! `WATCHDOG=1`), a no-op without `NOTIFY_SOCKET`.

use std::time::Duration;

use sd_notify::NotifyState;

/// Sends notifications to the service manager, if there is one.
#[derive(Debug, Clone, Default)]
pub(crate) struct Notifier {
    ready_sent: bool,
}

impl Notifier {
    fn send(&self, states: &[NotifyState<'_>]) {
        if std::env::var_os("NOTIFY_SOCKET").is_none() {
            return;
        }
        if let Err(e) = sd_notify::notify(states) {
            tracing::warn!(error = %e, "sd_notify failed");
        }
    }

    /// `READY=1` with a status line; sent once.
    pub(crate) fn ready(&mut self, status: &str) {
        if !self.ready_sent {
            self.ready_sent = true;
            self.send(&[NotifyState::Ready, NotifyState::Status(status)]);
        } else {
            self.status(status);
        }
    }

    /// `STATUS=`.
    pub(crate) fn status(&self, status: &str) {
        self.send(&[NotifyState::Status(status)]);
    }

    /// `RELOADING=1` with `MONOTONIC_USEC` (systemd 253's notify-reload protocol matches
    /// the reload to the request by it) and a status line.
    pub(crate) fn reloading(&self, status: &str) {
        match NotifyState::monotonic_usec_now() {
            Ok(now) => self.send(&[NotifyState::Reloading, now, NotifyState::Status(status)]),
            Err(e) => tracing::warn!(error = %e, "cannot read the monotonic clock"),
        }
    }

    /// `READY=1` after a reload that succeeded, with a status line.
    pub(crate) fn reloaded(&self, status: &str) {
        self.send(&[NotifyState::Ready, NotifyState::Status(status)]);
    }

    /// `STOPPING=1` with a status line.
    pub(crate) fn stopping(&self, status: &str) {
        self.send(&[NotifyState::Stopping, NotifyState::Status(status)]);
    }

    /// `WATCHDOG=1`.
    pub(crate) fn watchdog(&self) {
        self.send(&[NotifyState::Watchdog]);
    }

    /// The watchdog interval systemd asked for, if any.
    pub(crate) fn watchdog_interval() -> Option<Duration> {
        sd_notify::watchdog_enabled()
    }
}
