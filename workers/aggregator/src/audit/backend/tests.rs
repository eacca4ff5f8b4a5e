//! Tests of the backends as the front door calls them, through the log backend (the
//! webhook's are in webhook_tests.rs).

use super::*;
use kas_proto::{AuditBatch, AuditLevel, AuditLogBackend, AuditLogFormat, AuditPolicy};
use serde_json::value::RawValue;

fn log_config(path: &str, format: AuditLogFormat, mode: AuditMode) -> AuditConfig {
    AuditConfig {
        policy: AuditPolicy::default(),
        log: Some(AuditLogBackend {
            path: path.to_owned(),
            max_age_days: 0,
            max_backups: 0,
            max_size_mb: 0,
            compress: false,
            format,
            mode,
            batch: AuditBatch {
                buffer_size: 10_000,
                max_size: 1,
                max_wait: Duration::ZERO,
                throttle: None,
            },
            truncate: None,
            version: "audit.k8s.io/v1".into(),
        }),
        webhook: None,
    }
}

fn lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn json_lines_written_before_process_returns() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("audit.log");
    let cfg = log_config(
        path.to_str().unwrap(),
        AuditLogFormat::Json,
        AuditMode::Blocking,
    );
    let backends = Backends::start(&cfg).unwrap();
    for id in ["a", "b"] {
        backends.process(Arc::new(test_event(id))).await.unwrap();
    }
    let got = lines(&path);
    assert_eq!(got.len(), 2);
    let v: serde_json::Value = serde_json::from_str(&got[1]).unwrap();
    assert_eq!(v["kind"], "Event");
    assert_eq!(v["apiVersion"], "audit.k8s.io/v1");
    assert_eq!(v["auditID"], "b");
    assert_eq!(
        backends.stats(),
        [BackendStats {
            name: "log",
            written: 2,
            ..Default::default()
        }]
    );
    backends.shutdown().await;
    // Closed: later events fail (and are counted), the file is not reopened.
    backends.process(Arc::new(test_event("c"))).await.unwrap();
    assert_eq!(backends.stats()[0].errors, 1);
    assert_eq!(lines(&path).len(), 2);
}

#[tokio::test]
async fn legacy_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("audit.log");
    let cfg = log_config(
        path.to_str().unwrap(),
        AuditLogFormat::Legacy,
        AuditMode::Blocking,
    );
    let backends = Backends::start(&cfg).unwrap();
    backends.process(Arc::new(test_event("a"))).await.unwrap();
    let got = lines(&path);
    assert_eq!(got.len(), 1);
    assert!(
        got[0].contains(" AUDIT: id=\"a\" stage=\"ResponseComplete\" ip=\"127.0.0.1\""),
        "{}",
        got[0]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_events_are_whole_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("audit.log");
    let cfg = log_config(
        path.to_str().unwrap(),
        AuditLogFormat::Json,
        AuditMode::Blocking,
    );
    let backends = Arc::new(Backends::start(&cfg).unwrap());
    let mut tasks = Vec::new();
    for i in 0..64 {
        let b = backends.clone();
        tasks.push(tokio::spawn(async move {
            let mut e = test_event(&i.to_string());
            e.level = AuditLevel::Request;
            let big = format!(r#"{{"data":"{}"}}"#, "x".repeat(64 * 1024));
            e.request_object = Some(RawValue::from_string(big).unwrap());
            b.process(Arc::new(e)).await.unwrap();
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let got = lines(&path);
    assert_eq!(got.len(), 64);
    for l in got {
        let v: serde_json::Value = serde_json::from_str(&l).unwrap();
        assert_eq!(
            v["requestObject"]["data"].as_str().unwrap().len(),
            64 * 1024
        );
    }
}

#[tokio::test]
async fn a_failed_write_fails_only_blocking_strict() {
    // Every write to /dev/full fails as on a full disk.
    let strict = log_config("/dev/full", AuditLogFormat::Json, AuditMode::BlockingStrict);
    let backends = Backends::start(&strict).unwrap();
    let err = backends
        .process(Arc::new(test_event("a")))
        .await
        .unwrap_err();
    assert_eq!(err.backend, "log");
    assert!(err.to_string().starts_with("audit backend log: "), "{err}");
    let s = &backends.stats()[0];
    assert_eq!((s.written, s.errors), (0, 1));

    let blocking = log_config("/dev/full", AuditLogFormat::Json, AuditMode::Blocking);
    let backends = Backends::start(&blocking).unwrap();
    for id in ["a", "b"] {
        backends.process(Arc::new(test_event(id))).await.unwrap();
    }
    assert_eq!(backends.stats()[0].errors, 2);
}

#[tokio::test]
async fn an_unopenable_path_names_the_backend() {
    let tmp = tempfile::tempdir().unwrap();
    // A directory where the file should be.
    let cfg = log_config(
        tmp.path().to_str().unwrap(),
        AuditLogFormat::Json,
        AuditMode::Blocking,
    );
    let err = Backends::start(&cfg).err().unwrap();
    assert!(matches!(err, BackendError::LogFile { .. }));
    assert!(err
        .to_string()
        .starts_with(&format!("audit log {:?}: ", tmp.path().to_str().unwrap())));
}

#[tokio::test]
async fn batch_mode_drops_when_full_and_flushes_on_shutdown() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("audit.log");
    let mut cfg = log_config(
        path.to_str().unwrap(),
        AuditLogFormat::Json,
        AuditMode::Batch,
    );
    if let Some(l) = cfg.log.as_mut() {
        l.batch.buffer_size = 2;
        l.batch.max_size = 10;
        l.batch.max_wait = Duration::from_secs(3600);
    }
    let backends = Backends::start(&cfg).unwrap();
    // This single-threaded runtime does not run the batching task in between: the
    // buffer holds two, the others are dropped at once.
    for id in ["a", "b", "c", "d"] {
        backends.process(Arc::new(test_event(id))).await.unwrap();
    }
    assert_eq!(backends.stats()[0].dropped_full, 2);
    assert!(lines(&path).is_empty());
    backends.shutdown().await;
    let got: Vec<String> = lines(&path)
        .iter()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["auditID"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(got, ["a", "b"]);
    let s = &backends.stats()[0];
    assert_eq!((s.written, s.dropped_full), (2, 2));
    // After shutdown, batch events are dropped (counted) and never block.
    backends.process(Arc::new(test_event("e"))).await.unwrap();
    assert_eq!(backends.stats()[0].dropped_full, 3);
}

#[tokio::test]
async fn truncates_large_events() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("audit.log");
    let mut cfg = log_config(
        path.to_str().unwrap(),
        AuditLogFormat::Json,
        AuditMode::Blocking,
    );
    if let Some(l) = cfg.log.as_mut() {
        l.truncate = Some(AuditTruncate {
            max_event_size: 2000,
            max_batch_size: 10_000,
        });
    }
    let backends = Backends::start(&cfg).unwrap();
    let mut big = test_event("big");
    big.level = AuditLevel::RequestResponse;
    big.response_object = Some(RawValue::from_string(format!("\"{}\"", "x".repeat(5000))).unwrap());
    backends.process(Arc::new(big)).await.unwrap();
    let mut huge = test_event("huge");
    huge.request_uri = "/".repeat(5000);
    backends.process(Arc::new(huge)).await.unwrap();
    let got = lines(&path);
    assert_eq!(got.len(), 1);
    let v: serde_json::Value = serde_json::from_str(&got[0]).unwrap();
    assert_eq!(v["auditID"], "big");
    assert_eq!(v["annotations"]["audit.k8s.io/truncated"], "true");
    assert!(v.get("responseObject").is_none());
    let s = &backends.stats()[0];
    assert_eq!((s.written, s.dropped_too_large), (1, 1));
}
