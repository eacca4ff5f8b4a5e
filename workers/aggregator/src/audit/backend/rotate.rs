//! The audit log file, rotated as upstream's (lumberjack's) is: when a write would take
//! it past its size, the file is renamed `<name>-<UTC time 2006-01-02T15-04-05.000><ext>`
//! and a new one opened with the old one's mode; in the background, backups beyond
//! `max_backups` (counting a name and its `.gz` once) or older than `max_age` (by the
//! time in their names) are removed, and the rest gzipped when asked.
//!
//! No maintained crate names backups this way or prunes them by the time in the name,
//! and tools that read kube-apiserver's audit logs expect lumberjack's layout.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// lumberjack's size when none is given (`max_size_mb` 0).
const DEFAULT_MAX_MB: u64 = 100;
const MEGABYTE: u64 = 1024 * 1024;
const GZ: &str = ".gz";

/// The clock backups are named by (tests give one that moves on at each call).
pub(super) type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;

/// What to keep: the `--audit-log-max*` and `--audit-log-compress` flags.
#[derive(Clone)]
pub(super) struct Retention {
    /// Bytes before rotating.
    pub(super) max_bytes: u64,
    /// Backups kept (0: all).
    pub(super) max_backups: u32,
    /// Backups younger than this kept (zero: all).
    pub(super) max_age: Duration,
    /// Gzip backups.
    pub(super) compress: bool,
}

impl Retention {
    /// The flags' values: sizes in megabytes (0 is lumberjack's 100), ages in days.
    pub(super) fn from_flags(
        max_size_mb: u32,
        max_backups: u32,
        max_age_days: u32,
        compress: bool,
    ) -> Retention {
        let mb = if max_size_mb == 0 {
            DEFAULT_MAX_MB
        } else {
            u64::from(max_size_mb)
        };
        Retention {
            max_bytes: mb * MEGABYTE,
            max_backups,
            max_age: Duration::from_secs(u64::from(max_age_days) * 24 * 3600),
            compress,
        }
    }
}

/// An open, rotating log file. Callers serialise writes (one line per call).
pub(super) struct RotatingFile {
    path: PathBuf,
    keep: Retention,
    clock: Clock,
    file: Option<File>,
    size: u64,
    /// Wakes the pruning thread; a full channel means a run is already due.
    mill: SyncSender<()>,
}

impl RotatingFile {
    /// Creates the file (and its directory, 0700) when missing, mode 0600, as upstream
    /// checks it can before serving; rotation happens at the first write.
    pub(super) fn open(path: &Path, keep: Retention, clock: Clock) -> io::Result<RotatingFile> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)?;
        }
        OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)?;
        let (tx, rx) = sync_channel::<()>(1);
        let miller = Miller {
            path: path.to_owned(),
            keep: keep.clone(),
            clock: clock.clone(),
        };
        std::thread::Builder::new()
            .name("audit-log-mill".into())
            .spawn(move || {
                // Ends when the file is dropped (the sender with it).
                while rx.recv().is_ok() {
                    if let Err(e) = miller.run_once() {
                        tracing::warn!(error = %e, "pruning rotated audit logs");
                    }
                }
            })?;
        Ok(RotatingFile {
            path: path.to_owned(),
            keep,
            clock,
            file: None,
            size: 0,
            mill: tx,
        })
    }

    /// Writes `line` whole, rotating first when it would not fit.
    pub(super) fn write_line(&mut self, line: &[u8]) -> io::Result<()> {
        let len = line.len() as u64;
        if len > self.keep.max_bytes {
            return Err(io::Error::other(format!(
                "write length {len} exceeds maximum file size {}",
                self.keep.max_bytes
            )));
        }
        if self.file.is_none() {
            self.open_existing_or_new(len)?;
        }
        if self.size + len > self.keep.max_bytes {
            self.rotate()?;
        }
        let Some(file) = self.file.as_mut() else {
            return Err(io::Error::other("audit log file not open"));
        };
        // A failed write leaves the size unknown: reopen (and stat) at the next one.
        if let Err(e) = file.write_all(line) {
            self.file = None;
            return Err(e);
        }
        self.size += len;
        Ok(())
    }

    /// Flushes and closes the file; the next write opens it again.
    pub(super) fn close(&mut self) -> io::Result<()> {
        match self.file.take() {
            Some(f) => f.sync_data(),
            None => Ok(()),
        }
    }

    fn open_existing_or_new(&mut self, len: u64) -> io::Result<()> {
        self.wake_mill();
        let size = match fs::metadata(&self.path) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return self.open_new(),
            Err(e) => return Err(e),
        };
        if size + len >= self.keep.max_bytes {
            return self.rotate();
        }
        match OpenOptions::new().append(true).open(&self.path) {
            Ok(f) => {
                self.file = Some(f);
                self.size = size;
                Ok(())
            }
            Err(_) => self.open_new(),
        }
    }

    fn rotate(&mut self) -> io::Result<()> {
        self.file = None;
        self.open_new()?;
        self.wake_mill();
        Ok(())
    }

    /// Moves the current file aside (keeping its mode for the new one) and opens anew.
    fn open_new(&mut self) -> io::Result<()> {
        let mut mode = 0o600;
        if let Ok(m) = fs::metadata(&self.path) {
            mode = m.permissions().mode() & 0o7777;
            let backup = backup_path(&self.path, (self.clock)());
            fs::rename(&self.path, &backup)
                .map_err(|e| io::Error::new(e.kind(), format!("can't rename log file: {e}")))?;
        }
        // The old file was moved away: this creates it (append, so every write lands
        // at the end whatever else opened it).
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .mode(mode)
            .open(&self.path)
            .map_err(|e| io::Error::new(e.kind(), format!("can't open new logfile: {e}")))?;
        self.file = Some(file);
        self.size = 0;
        Ok(())
    }

    fn wake_mill(&self) {
        match self.mill.try_send(()) {
            Ok(()) | Err(TrySendError::Full(())) | Err(TrySendError::Disconnected(())) => {}
        }
    }
}

/// `dir/<stem>-<time>.<ext>` for `dir/<stem>.<ext>`.
fn backup_path(path: &Path, t: SystemTime) -> PathBuf {
    let (prefix, ext) = prefix_and_ext(path);
    path.with_file_name(format!("{prefix}{}{ext}", backup_time(t)))
}

/// The file name up to its extension plus `-`, and the extension with its dot.
fn prefix_and_ext(path: &Path) -> (String, String) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Go's filepath.Ext: from the last dot on (a leading dot counts too).
    match name.rfind('.') {
        Some(i) => (format!("{}-", &name[..i]), name[i..].to_owned()),
        None => (format!("{name}-"), String::new()),
    }
}

/// `2006-01-02T15-04-05.000` in UTC.
fn backup_time(t: SystemTime) -> String {
    humantime::format_rfc3339_millis(t)
        .to_string()
        .trim_end_matches('Z')
        .replace(':', "-")
}

/// The time in a backup's name, as [`backup_time`] wrote it.
fn parse_backup_time(s: &str) -> Option<SystemTime> {
    let b = s.as_bytes();
    let shape = b.len() == 23
        && b[10] == b'T'
        && b[13] == b'-'
        && b[16] == b'-'
        && b[19] == b'.'
        && s.is_ascii();
    if !shape {
        return None;
    }
    let rfc3339 = format!("{}T{}:{}:{}Z", &s[..10], &s[11..13], &s[14..16], &s[17..]);
    humantime::parse_rfc3339(&rfc3339).ok()
}

/// The pruning and compression of backups, run off the write path.
struct Miller {
    path: PathBuf,
    keep: Retention,
    clock: Clock,
}

impl Miller {
    fn run_once(&self) -> io::Result<()> {
        let keep = &self.keep;
        if keep.max_backups == 0 && keep.max_age.is_zero() && !keep.compress {
            return Ok(());
        }
        let dir = match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
            _ => PathBuf::from("."),
        };
        let mut files = self.backups(&dir)?;
        let mut remove = Vec::new();
        if keep.max_backups > 0 && (keep.max_backups as usize) < files.len() {
            // A backup and its gzipped copy (a compression cut short) count as one.
            let mut seen = std::collections::HashSet::new();
            let mut remaining = Vec::new();
            for f in files {
                seen.insert(f.name.trim_end_matches(GZ).to_owned());
                if seen.len() > keep.max_backups as usize {
                    remove.push(f);
                } else {
                    remaining.push(f);
                }
            }
            files = remaining;
        }
        if !keep.max_age.is_zero() {
            let cutoff = (self.clock)()
                .checked_sub(keep.max_age)
                .unwrap_or(SystemTime::UNIX_EPOCH);
            let (old, young): (Vec<_>, Vec<_>) = files.into_iter().partition(|f| f.time < cutoff);
            remove.extend(old);
            files = young;
        }
        let mut first_err = None;
        for f in &remove {
            if let Err(e) = fs::remove_file(dir.join(&f.name)) {
                first_err.get_or_insert(e);
            }
        }
        if keep.compress {
            for f in files.iter().filter(|f| !f.name.ends_with(GZ)) {
                let src = dir.join(&f.name);
                if let Err(e) = compress(&src) {
                    first_err.get_or_insert(e);
                }
            }
        }
        first_err.map_or(Ok(()), Err)
    }

    /// The backups in `dir`, newest first.
    fn backups(&self, dir: &Path) -> io::Result<Vec<Backup>> {
        let (prefix, ext) = prefix_and_ext(&self.path);
        let gz_ext = format!("{ext}{GZ}");
        let mut out = Vec::new();
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            if entry.file_type()?.is_dir() {
                continue;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(rest) = name.strip_prefix(&prefix) else {
                continue;
            };
            let stamp = rest
                .strip_suffix(ext.as_str())
                .and_then(parse_backup_time)
                .or_else(|| {
                    rest.strip_suffix(gz_ext.as_str())
                        .and_then(parse_backup_time)
                });
            if let Some(time) = stamp {
                out.push(Backup { name, time });
            }
        }
        out.sort_by_key(|b| std::cmp::Reverse(b.time));
        Ok(out)
    }
}

struct Backup {
    name: String,
    time: SystemTime,
}

/// Gzips `src` to `src.gz` with its mode, then removes it; a failure removes the
/// partial `.gz` instead.
fn compress(src: &Path) -> io::Result<()> {
    let mut dst_name = src.as_os_str().to_owned();
    dst_name.push(GZ);
    let dst = PathBuf::from(dst_name);
    let result = (|| {
        let mut input = File::open(src)?;
        let mode = input.metadata()?.permissions().mode() & 0o7777;
        let out = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .mode(mode)
            .open(&dst)?;
        let mut gz = flate2::write::GzEncoder::new(out, flate2::Compression::default());
        io::copy(&mut input, &mut gz)?;
        gz.finish()?.sync_all()?;
        fs::remove_file(src)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&dst);
        return Err(io::Error::new(
            e.kind(),
            format!("failed to compress log file: {e}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
#[path = "rotate_tests.rs"]
mod tests;
