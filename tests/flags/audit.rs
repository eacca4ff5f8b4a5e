//! The auditing flags, black box: a bad policy file or bad backend values refuse the
//! start before anything is bound or written, every reason at once, each naming its flag
//! (and the file and field); a good policy with a log path starts and makes the log file
//! 0600, as kube-apiserver makes it.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use super::{flag, write};
use crate::harness::{Server, BIN};

const POLICY: &str = "apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  nonResourceURLs: [/healthz*, /readyz*, /livez*]
- level: RequestResponse
  resources: [{group: '', resources: [configmaps]}]
- level: Metadata
";

/// Runs the binary with `args` and a data dir in `dir`; returns its stderr, checking it
/// refused the flags (64) and wrote nothing.
fn refused(dir: &Path, args: &[String]) -> String {
    let data = dir.join("data");
    let out = Command::new(BIN)
        .args(["--secure-port=0", "--bind-address=127.0.0.1"])
        .arg(flag("data-dir", &data))
        .args(args)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(64), "{out:?}");
    assert!(!data.exists(), "wrote its data dir before refusing");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn has(stderr: &str, want: &str) {
    assert!(stderr.contains(want), "missing {want:?} in:\n{stderr}");
}

#[test]
fn a_bad_policy_refuses_the_start_with_every_reason() {
    let dir = tempfile::tempdir().expect("tempdir");
    let policy = dir.path().join("policy.yaml");
    write(
        &policy,
        "apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [Sometimes]
rules:
- level: Verbose
- level: None
  nonResourceURLs: [healthz, '/a*/b']
  namespaces: [default]
- level: Metadata
  resources: [{group: apps/v1, resourceNames: [web]}]
",
    );
    let log = dir.path().join("logs/audit.log");
    let stderr = refused(
        dir.path(),
        &[
            flag("audit-policy-file", &policy),
            flag("audit-log-path", &log),
        ],
    );
    let at = format!(
        "Error: invalid value for --audit-policy-file: {}: ",
        policy.display()
    );
    for want in [
        "omitStages[0]: Invalid value: \"Sometimes\": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic",
        "rules[0].level: Unsupported value: \"Verbose\": supported values: \"None\", \"Metadata\", \"Request\", \"RequestResponse\"",
        "rules[1].nonResourceURLs[0]: Invalid value: \"healthz\": non-resource URL rules must begin with a '/' character",
        "rules[1].nonResourceURLs[1]: Invalid value: \"/a*/b\": non-resource URL wildcards '*' must be the final character of the rule",
        "rules[1].nonResourceURLs: Invalid value: []string{\"healthz\", \"/a*/b\"}: rules cannot apply to both regular resources and non-resource URLs",
        "rules[2].resources.group: Invalid value: \"apps/v1\": a lowercase RFC 1123 subdomain",
        "rules[2].resources.resourceNames: Invalid value: []string{\"web\"}: using resourceNames requires at least one resource",
    ] {
        has(&stderr, &format!("{at}{want}"));
    }
    assert!(!log.exists(), "made the log file before refusing");

    // A version upstream no longer reads, and a file that is not there.
    write(
        &policy,
        "apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: Metadata}]\n",
    );
    let stderr = refused(dir.path(), &[flag("audit-policy-file", &policy)]);
    has(&stderr, &format!("{at}failed decoding: no kind \"Policy\" is registered for version \"audit.k8s.io/v1beta1\" in scheme \"k8s.io/apiserver/pkg/audit/scheme.go:30\""));
    let absent = dir.path().join("absent.yaml");
    let stderr = refused(dir.path(), &[flag("audit-policy-file", &absent)]);
    has(
        &stderr,
        &format!(
            "Error: invalid value for --audit-policy-file: failed to read file path {:?}",
            absent.display().to_string()
        ),
    );
}

#[test]
fn bad_backend_values_refuse_the_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let stderr = refused(
        dir.path(),
        &[
            "--audit-log-path=-".to_owned(),
            "--audit-log-mode=sync".to_owned(),
            "--audit-log-format=yaml".to_owned(),
            "--audit-log-version=audit.k8s.io/v1beta1".to_owned(),
            "--audit-log-maxbackup=-1".to_owned(),
            "--audit-webhook-config-file=/nonexistent/audit.kubeconfig".to_owned(),
            "--audit-webhook-mode=batch".to_owned(),
            "--audit-webhook-batch-max-size=0".to_owned(),
            "--audit-webhook-truncate-max-event-size=20000000".to_owned(),
        ],
    );
    for want in [
        "Error: invalid value for --audit-log-mode: invalid audit log mode sync, allowed modes are \"batch,blocking,blocking-strict\"",
        "Error: invalid value for --audit-log-format: invalid audit log format yaml, allowed formats are \"legacy,json\"",
        "Error: invalid value for --audit-log-version: invalid group version, allowed versions are [\"audit.k8s.io/v1\"]",
        "Error: invalid value for --audit-log-maxbackup: --audit-log-maxbackup -1 can't be a negative number",
        "Error: invalid value for --audit-webhook-batch-max-size: invalid audit batch webhook max batch size 0, must be a positive number",
        "Error: invalid value for --audit-webhook-truncate-max-batch-size: invalid audit truncate webhook max batch size 10485760, must be greater than max event size (20000000)",
    ] {
        has(&stderr, want);
    }
    // A syntax pflag refuses exits as pflag's errors do.
    let out = Command::new(BIN)
        .arg("--audit-webhook-batch-throttle-qps=fast")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    has(
        &String::from_utf8_lossy(&out.stderr),
        "Error: invalid argument \"fast\" for \"--audit-webhook-batch-throttle-qps\" flag: strconv.ParseFloat: parsing \"fast\": invalid syntax",
    );
}

#[test]
fn a_log_file_that_cannot_be_made_fails_the_start_before_binding() {
    let dir = tempfile::tempdir().expect("tempdir");
    let policy = dir.path().join("policy.yaml");
    write(&policy, POLICY);
    let blocker = dir.path().join("not-a-dir");
    write(&blocker, "");
    let data = dir.path().join("data");
    let out = Command::new(BIN)
        .args(["--secure-port=0", "--bind-address=127.0.0.1"])
        .arg(flag("data-dir", &data))
        .arg(flag("audit-policy-file", &policy))
        .arg(flag("audit-log-path", &blocker.join("audit.log")))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    has(
        &String::from_utf8_lossy(&out.stderr),
        &format!(
            "--audit-log-path: cannot create the audit log {}/audit.log",
            blocker.display()
        ),
    );
    assert!(!data.join("admin.kubeconfig").exists(), "bound and served");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_good_policy_with_a_log_path_starts_and_makes_the_file_0600() {
    let dir = tempfile::tempdir().expect("tempdir");
    let policy = dir.path().join("policy.json");
    // JSON is read as well as YAML.
    write(
        &policy,
        r#"{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"Metadata"}]}"#,
    );
    let log = dir.path().join("audit/kube-apiserver/audit.log");
    let server = Server::builder()
        .arg(flag("audit-policy-file", &policy))
        .arg(flag("audit-log-path", &log))
        .arg("--audit-log-maxbackup=3")
        .arg("--audit-log-mode=batch")
        .start()
        .await;
    let mode = |p: &Path| std::fs::metadata(p).expect("stat").permissions().mode() & 0o777;
    assert_eq!(mode(&log), 0o600);
    assert_eq!(mode(log.parent().expect("dir")), 0o700);
    let out = server.kubectl(&["get", "--raw", "/readyz"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ok", "{out:?}");
    assert!(
        !server.log().contains("no effect in kube-apiserver-rs"),
        "{}",
        server.log()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_path_without_a_policy_warns_and_still_makes_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("audit.log");
    let server = Server::builder()
        .arg(flag("audit-log-path", &log))
        .start()
        .await;
    assert!(log.exists());
    let text = server.log();
    assert!(
        text.contains("No audit policy file provided, no events will be recorded for log backend"),
        "{text}"
    );
}
