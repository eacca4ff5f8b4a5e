//! The auditing flags: upstream's defaults, checks and words, and when auditing is on.

use std::os::unix::fs::PermissionsExt;

use super::*;

const POLICY: &str = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n";

fn opts(args: &[&str]) -> crate::options::Options {
    let mut v = vec!["kube-apiserver"];
    v.extend_from_slice(args);
    crate::options::parse(v).expect("parse").options
}

/// The flags' errors (as printed) and warnings, and what they come to.
fn run(args: &[&str]) -> (Vec<String>, Vec<String>, AuditValidated) {
    let (mut errs, mut warnings) = (Vec::new(), Vec::new());
    let v = validate(&opts(args).audit, &mut errs, &mut warnings);
    (errs.iter().map(|e| e.to_string()).collect(), warnings, v)
}

fn policy_file(dir: &Path) -> String {
    let p = dir.join("policy.yaml");
    std::fs::write(&p, POLICY).expect("write");
    format!("--audit-policy-file={}", p.display())
}

#[test]
fn upstream_defaults() {
    let dir = tempfile::tempdir().expect("dir");
    let (errs, warnings, v) = run(&[&policy_file(dir.path()), "--audit-log-path=-"]);
    assert!(
        errs.is_empty() && warnings.is_empty(),
        "{errs:?} {warnings:?}"
    );
    assert_eq!(v.log_file, None, "standard output is not a file to make");
    let c = v.config.expect("auditing on");
    assert_eq!(c.policy.rules[0].level, kas_proto::AuditLevel::Metadata);
    assert_eq!(
        c.log,
        Some(AuditLogBackend {
            path: "-".into(),
            max_age_days: 0,
            max_backups: 0,
            max_size_mb: 0,
            compress: false,
            format: AuditLogFormat::Json,
            mode: AuditMode::Blocking,
            batch: AuditBatch {
                buffer_size: 10000,
                max_size: 1,
                max_wait: Duration::ZERO,
                throttle: None,
            },
            truncate: None,
            version: "audit.k8s.io/v1".into(),
        })
    );
    assert_eq!(c.webhook, None);
}

#[test]
fn webhook_defaults_and_its_kubeconfig() {
    let dir = tempfile::tempdir().expect("dir");
    let kubeconfig = dir.path().join("audit.kubeconfig");
    std::fs::write(
        &kubeconfig,
        "clusters:\n- name: a\n  cluster: {server: 'https://127.0.0.1:1/audit'}\n",
    )
    .expect("write");
    let file = format!("--audit-webhook-config-file={}", kubeconfig.display());
    let (errs, _, v) = run(&[
        &policy_file(dir.path()),
        &file,
        "--audit-webhook-truncate-enabled",
    ]);
    assert!(errs.is_empty(), "{errs:?}");
    let w = v.config.expect("on").webhook.expect("webhook");
    assert_eq!(w.client.server, "https://127.0.0.1:1/audit");
    assert_eq!(w.mode, AuditMode::Batch);
    assert_eq!(
        w.batch,
        AuditBatch {
            buffer_size: 10000,
            max_size: 400,
            max_wait: Duration::from_secs(30),
            throttle: Some((10.0, 15)),
        }
    );
    assert_eq!(
        w.truncate,
        Some(AuditTruncate {
            max_event_size: 100 * 1024,
            max_batch_size: 10 * 1024 * 1024,
        })
    );
    assert_eq!(w.initial_backoff, Duration::from_secs(10));
    assert_eq!(w.version, "audit.k8s.io/v1");

    let missing = format!(
        "--audit-webhook-config-file={}",
        dir.path().join("missing").display()
    );
    let (errs, _, _) = run(&[&policy_file(dir.path()), &missing]);
    assert_eq!(errs.len(), 1);
    assert!(
        errs[0].starts_with(&format!(
            "invalid value for --audit-webhook-config-file: initializing audit webhook: {}/missing: ",
            dir.path().display()
        )),
        "{errs:?}"
    );
}

#[test]
fn a_backend_without_a_policy_records_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let log = dir.path().join("audit.log");
    let path = format!("--audit-log-path={}", log.display());
    // Not read without a policy, as upstream does not read it.
    let (errs, warnings, v) = run(&[&path, "--audit-webhook-config-file=/nonexistent"]);
    assert!(errs.is_empty(), "{errs:?}");
    assert_eq!(
        warnings,
        [
            "No audit policy file provided, no events will be recorded for log backend",
            "No audit policy file provided, no events will be recorded for webhook backend",
        ]
    );
    assert!(v.config.is_none());
    assert_eq!(
        v.log_file.as_deref(),
        Some(log.as_path()),
        "made all the same"
    );

    let (errs, warnings, v) = run(&[&policy_file(dir.path())]);
    assert!(errs.is_empty() && v.config.is_none());
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(run(&[]).2.config.is_none());
}

#[test]
fn bad_values_in_upstreams_words() {
    let (errs, _, _) = run(&[
        "--audit-log-path=-",
        "--audit-log-mode=async",
        "--audit-log-format=xml",
        "--audit-log-version=audit.k8s.io/v1beta1",
        "--audit-log-maxage=-1",
        "--audit-log-maxbackup=-2",
        "--audit-log-maxsize=-3",
        "--audit-log-truncate-max-event-size=0",
        "--audit-webhook-config-file=/nonexistent",
        "--audit-webhook-batch-buffer-size=0",
        "--audit-webhook-batch-max-size=-1",
        "--audit-webhook-batch-throttle-qps=0",
        "--audit-webhook-batch-throttle-burst=0",
        "--audit-webhook-truncate-max-batch-size=10",
        "--audit-webhook-version=a/b/c",
    ]);
    assert_eq!(
        errs,
        [
            "invalid value for --audit-log-mode: invalid audit log mode async, allowed modes are \"batch,blocking,blocking-strict\"",
            "invalid value for --audit-log-truncate-max-event-size: invalid audit truncate log max event size 0, must be a positive number",
            "invalid value for --audit-log-version: invalid group version, allowed versions are [\"audit.k8s.io/v1\"]",
            "invalid value for --audit-log-format: invalid audit log format xml, allowed formats are \"legacy,json\"",
            "invalid value for --audit-log-maxage: --audit-log-maxage -1 can't be a negative number",
            "invalid value for --audit-log-maxbackup: --audit-log-maxbackup -2 can't be a negative number",
            "invalid value for --audit-log-maxsize: --audit-log-maxsize -3 can't be a negative number",
            "invalid value for --audit-webhook-batch-buffer-size: invalid audit batch webhook buffer size 0, must be a positive number",
            "invalid value for --audit-webhook-batch-max-size: invalid audit batch webhook max batch size -1, must be a positive number",
            "invalid value for --audit-webhook-batch-throttle-qps: invalid audit batch webhook throttle QPS 0, must be a positive number",
            "invalid value for --audit-webhook-batch-throttle-burst: invalid audit batch webhook throttle burst 0, must be a positive number",
            "invalid value for --audit-webhook-truncate-max-batch-size: invalid audit truncate webhook max batch size 10, must be greater than max event size (102400)",
            "invalid value for --audit-webhook-version: unexpected GroupVersion string: a/b/c",
        ]
    );
}

#[test]
fn batch_values_are_checked_in_batch_mode_only() {
    let args = [
        "--audit-log-path=-",
        "--audit-log-batch-buffer-size=0",
        "--audit-log-batch-throttle-enable",
    ];
    assert!(run(&args).0.is_empty());
    let (errs, _, _) = run(&[&args[..], &["--audit-log-mode=batch"][..]].concat());
    assert_eq!(
        errs,
        [
            "invalid value for --audit-log-batch-buffer-size: invalid audit batch log buffer size 0, must be a positive number",
            "invalid value for --audit-log-batch-throttle-qps: invalid audit batch log throttle QPS 0, must be a positive number",
            "invalid value for --audit-log-batch-throttle-burst: invalid audit batch log throttle burst 0, must be a positive number",
        ]
    );
    // A disabled backend's flags are not checked at all.
    assert!(run(&["--audit-log-mode=nope", "--audit-webhook-mode=nope"])
        .0
        .is_empty());
}

#[test]
fn batch_and_truncate_values_reach_the_config() {
    let dir = tempfile::tempdir().expect("dir");
    let (errs, _, v) = run(&[
        &policy_file(dir.path()),
        "--audit-log-path=-",
        "--audit-log-mode=batch",
        "--audit-log-format=legacy",
        "--audit-log-batch-max-size=50",
        "--audit-log-batch-max-wait=5s",
        "--audit-log-batch-throttle-enable=true",
        "--audit-log-batch-throttle-qps=2.5",
        "--audit-log-batch-throttle-burst=3",
        "--audit-log-truncate-enabled",
        "--audit-log-truncate-max-event-size=1000",
        "--audit-log-truncate-max-batch-size=1000",
        "--audit-log-maxage=7",
        "--audit-log-maxbackup=3",
        "--audit-log-maxsize=20",
        "--audit-log-compress",
    ]);
    assert!(errs.is_empty(), "{errs:?}");
    let log = v.config.expect("on").log.expect("log");
    assert_eq!(log.mode, AuditMode::Batch);
    assert_eq!(log.format, AuditLogFormat::Legacy);
    assert_eq!(
        log.batch,
        AuditBatch {
            buffer_size: 10000,
            max_size: 50,
            max_wait: Duration::from_secs(5),
            throttle: Some((2.5, 3)),
        }
    );
    assert_eq!(
        log.truncate,
        Some(AuditTruncate {
            max_event_size: 1000,
            max_batch_size: 1000
        })
    );
    assert_eq!(
        (
            log.max_age_days,
            log.max_backups,
            log.max_size_mb,
            log.compress
        ),
        (7, 3, 20, true)
    );
}

#[test]
fn policy_errors_name_the_flag_and_the_file() {
    let dir = tempfile::tempdir().expect("dir");
    let p = dir.path().join("bad.yaml");
    std::fs::write(
        &p,
        "apiVersion: audit.k8s.io/v1\nkind: Policy\nextra: 1\nrules:\n- level: Loud\n- level: None\n  nonResourceURLs: [metrics]\n",
    )
    .expect("write");
    let (errs, warnings, v) = run(&[
        &format!("--audit-policy-file={}", p.display()),
        "--audit-log-path=-",
    ]);
    let file = p.display();
    assert_eq!(
        errs,
        [
            format!("invalid value for --audit-policy-file: {file}: rules[0].level: Unsupported value: \"Loud\": supported values: \"None\", \"Metadata\", \"Request\", \"RequestResponse\""),
            format!("invalid value for --audit-policy-file: {file}: rules[1].nonResourceURLs[0]: Invalid value: \"metrics\": non-resource URL rules must begin with a '/' character"),
        ]
    );
    assert!(warnings.is_empty() && v.config.is_none());

    std::fs::write(&p, format!("{POLICY}extra: 1\n")).expect("write");
    let (errs, warnings, v) = run(&[
        &format!("--audit-policy-file={}", p.display()),
        "--audit-log-path=-",
    ]);
    assert!(errs.is_empty() && v.config.is_some());
    assert_eq!(
        warnings,
        [format!("{file}: Audit policy contains errors, falling back to lenient decoding: strict decoding error: unknown field \"extra\"")]
    );
}

#[test]
fn a_relative_log_path_is_made_absolute() {
    let (_, _, v) = run(&["--audit-log-path=logs/audit.log"]);
    let want = std::env::current_dir().expect("cwd").join("logs/audit.log");
    assert_eq!(v.log_file, Some(want));
}

#[test]
fn the_deprecated_backoff_flag_warns_and_the_last_one_wins() {
    let parsed = crate::options::parse([
        "kube-apiserver",
        "--audit-webhook-initial-backoff=1s",
        "--audit-webhook-batch-initial-backoff=2s",
    ])
    .expect("parse");
    assert_eq!(parsed.options.audit.audit_webhook_initial_backoff, "2s");
    assert_eq!(
        parsed.warnings,
        ["Flag --audit-webhook-batch-initial-backoff has been deprecated, Deprecated, use --audit-webhook-initial-backoff instead."]
    );
    let o = opts(&[
        "--audit-webhook-batch-initial-backoff=2s",
        "--audit-webhook-initial-backoff=3s",
    ]);
    assert_eq!(o.audit.audit_webhook_initial_backoff, "3s");
    assert_eq!(opts(&[]).audit.audit_webhook_initial_backoff, "10s");
    let help = crate::options::command().render_long_help().to_string();
    assert!(
        help.contains("--audit-webhook-initial-backoff")
            && !help.contains("--audit-webhook-batch-initial-backoff")
    );
}

#[test]
fn the_log_file_is_made_0600_in_a_0700_directory() {
    let dir = tempfile::tempdir().expect("dir");
    let log = dir.path().join("a/b/audit.log");
    ensure_log_file(&log).expect("made");
    let mode = |p: &Path| std::fs::metadata(p).expect("stat").permissions().mode() & 0o777;
    assert_eq!(mode(&log), 0o600);
    assert_eq!(mode(&dir.path().join("a/b")), 0o700);
    // An existing file is kept as it is.
    std::fs::write(&log, "earlier\n").expect("write");
    ensure_log_file(&log).expect("again");
    assert_eq!(std::fs::read_to_string(&log).expect("read"), "earlier\n");

    let blocked = dir.path().join("file");
    std::fs::write(&blocked, "").expect("write");
    assert!(ensure_log_file(&blocked.join("audit.log")).is_err());
}
