//! Tests of the rotating audit log file.

use super::*;
use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::UNIX_EPOCH;

/// 2025-11-25T23:46:25Z, one second later at each call.
fn ticking_clock() -> Clock {
    let n = Arc::new(AtomicU64::new(0));
    Arc::new(move || {
        UNIX_EPOCH + Duration::from_secs(1_764_114_385 + n.fetch_add(1, Ordering::SeqCst))
    })
}

fn keep(max_bytes: u64) -> Retention {
    Retention {
        max_bytes,
        max_backups: 0,
        max_age: Duration::ZERO,
        compress: false,
    }
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Polls `cond` until it holds (the mill runs on its own thread).
fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !cond() {
        assert!(std::time::Instant::now() < deadline, "timed out: {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn line(n: usize) -> Vec<u8> {
    // 40 bytes with the newline.
    format!("{n:039}\n").into_bytes()
}

#[test]
fn flags_in_megabytes_and_days() {
    let r = Retention::from_flags(0, 3, 2, true);
    assert_eq!(r.max_bytes, 100 * 1024 * 1024);
    assert_eq!(r.max_age, Duration::from_secs(2 * 86400));
    assert_eq!(
        Retention::from_flags(5, 0, 0, false).max_bytes,
        5 * 1024 * 1024
    );
}

#[test]
fn creates_the_file_0600_in_a_0700_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("logs/audit.log");
    let _f = RotatingFile::open(&path, keep(100), ticking_clock()).unwrap();
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&tmp.path().join("logs")), 0o700);
}

#[test]
fn rotates_by_size_into_timestamped_backups() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("audit.log");
    let mut f = RotatingFile::open(&path, keep(100), ticking_clock()).unwrap();
    for n in 0..5 {
        f.write_line(&line(n)).unwrap();
    }
    // 2 lines (80 bytes) fit; the third would pass 100.
    assert_eq!(
        names(tmp.path()),
        [
            "audit-2025-11-25T23-46-25.000.log",
            "audit-2025-11-25T23-46-26.000.log",
            "audit.log"
        ]
    );
    let read = |n: &str| fs::read(tmp.path().join(n)).unwrap();
    assert_eq!(
        read("audit-2025-11-25T23-46-25.000.log"),
        [line(0), line(1)].concat()
    );
    assert_eq!(
        read("audit-2025-11-25T23-46-26.000.log"),
        [line(2), line(3)].concat()
    );
    assert_eq!(read("audit.log"), line(4));
    // The new file keeps the old one's mode.
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[test]
fn an_existing_file_is_appended_to_or_rotated_first() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("audit");
    fs::write(&path, line(0)).unwrap();
    let mut f = RotatingFile::open(&path, keep(100), ticking_clock()).unwrap();
    f.write_line(&line(1)).unwrap();
    assert_eq!(fs::read(&path).unwrap(), [line(0), line(1)].concat());
    f.close().unwrap();
    // 80 + 40 reaches the limit at opening: rotated before writing. No extension: the
    // backup is `<name>-<time>`.
    let mut f = RotatingFile::open(&path, keep(100), ticking_clock()).unwrap();
    f.write_line(&line(2)).unwrap();
    assert_eq!(
        names(tmp.path()),
        ["audit", "audit-2025-11-25T23-46-25.000"]
    );
    assert_eq!(fs::read(&path).unwrap(), line(2));
}

#[test]
fn a_line_larger_than_the_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let mut f = RotatingFile::open(&tmp.path().join("a.log"), keep(10), ticking_clock()).unwrap();
    let err = f.write_line(&line(0)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "write length 40 exceeds maximum file size 10"
    );
}

#[test]
fn keeps_max_backups_newest() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("audit.log");
    let mut k = keep(40);
    k.max_backups = 2;
    let mut f = RotatingFile::open(&path, k, ticking_clock()).unwrap();
    // Some other file of the directory is left alone.
    fs::write(tmp.path().join("audit-notatime.log"), "x").unwrap();
    for n in 0..5 {
        f.write_line(&line(n)).unwrap();
    }
    // The empty file reaches the limit with the first line, so it is rotated at once
    // (25, empty), then once per line (26 to 29).
    wait_until("two backups left", || names(tmp.path()).len() == 4);
    assert_eq!(
        names(tmp.path()),
        [
            "audit-2025-11-25T23-46-28.000.log",
            "audit-2025-11-25T23-46-29.000.log",
            "audit-notatime.log",
            "audit.log"
        ]
    );
}

#[test]
fn removes_backups_older_than_max_age() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("audit.log");
    let now = UNIX_EPOCH + Duration::from_secs(1_764_114_385);
    let old = backup_path(&path, now - Duration::from_secs(3 * 86400));
    let young = backup_path(&path, now - Duration::from_secs(86400 / 2));
    let old_gz = PathBuf::from(format!(
        "{}.gz",
        backup_path(&path, now - Duration::from_secs(2 * 86400 + 1)).display()
    ));
    for p in [&old, &young, &old_gz] {
        fs::write(p, "x").unwrap();
    }
    let mut k = keep(1000);
    k.max_age = Duration::from_secs(86400);
    let mut f = RotatingFile::open(&path, k, Arc::new(move || now)).unwrap();
    // Opening prunes nothing yet; the first write does (as lumberjack's first Write).
    f.write_line(&line(0)).unwrap();
    wait_until("old backups removed", || !old.exists() && !old_gz.exists());
    assert!(young.exists());
}

#[test]
fn compresses_backups_to_valid_gzip() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("audit.log");
    let mut k = keep(100);
    k.compress = true;
    let mut f = RotatingFile::open(&path, k, ticking_clock()).unwrap();
    for n in 0..3 {
        f.write_line(&line(n)).unwrap();
    }
    let gz = tmp.path().join("audit-2025-11-25T23-46-25.000.log.gz");
    wait_until("backup gzipped", || {
        names(tmp.path()) == ["audit-2025-11-25T23-46-25.000.log.gz", "audit.log"]
    });
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(File::open(&gz).unwrap())
        .read_to_end(&mut text)
        .unwrap();
    assert_eq!(text, [line(0), line(1)].concat());
    assert_eq!(
        fs::metadata(&gz).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[test]
fn backup_times_read_back() {
    let t = UNIX_EPOCH + Duration::from_millis(1_764_114_385_123);
    assert_eq!(backup_time(t), "2025-11-25T23-46-25.123");
    assert_eq!(parse_backup_time("2025-11-25T23-46-25.123"), Some(t));
    assert_eq!(parse_backup_time("2025-11-25T23:46:25.123"), None);
    assert_eq!(parse_backup_time("notatime"), None);
    assert_eq!(
        prefix_and_ext(Path::new("/var/log/a.b.log")),
        ("a.b-".to_owned(), ".log".to_owned())
    );
}
