//! EventRateLimit (when enabled, configured by --admission-control-config-file): Events
//! over a namespace's burst are refused with 429 until its bucket refills.

use super::super::harness::kubectl::Kubectl;
use super::super::harness::{require_tool, Server};

fn event(name: &str, ns: &str) -> String {
    format!("apiVersion: v1\nkind: Event\nmetadata:\n  name: {name}\n  namespace: {ns}\ninvolvedObject:\n  kind: Pod\n  name: web\n  namespace: {ns}\nreason: Test\nmessage: hello\ntype: Normal\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_over_the_burst_are_refused() {
    if !require_tool("kubectl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(
        dir.path().join("limits.yaml"),
        "apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\nlimits:\n- type: Namespace\n  qps: 1\n  burst: 2\n",
    )
    .expect("write");
    let admission = dir.path().join("admission.yaml");
    std::fs::write(
        &admission,
        "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: limits.yaml\n",
    )
    .expect("write");
    let server = Server::builder()
        .arg("--enable-admission-plugins=EventRateLimit")
        .arg(format!(
            "--admission-control-config-file={}",
            admission.display()
        ))
        .start()
        .await;
    let k = Kubectl::new(&server);
    // The burst of two, then refusals (a token comes back every second).
    let mut refused = None;
    for i in 0..5 {
        let out = k.run_stdin(&["create", "-f", "-"], &event(&format!("e{i}"), "default"));
        if !out.status.success() {
            refused = Some(String::from_utf8_lossy(&out.stderr).into_owned());
            break;
        }
    }
    let err = refused.expect("an event over the burst is refused");
    assert!(
        err.contains("Error from server (TooManyRequests): error when creating \"STDIN\": Too many requests: Too many requests: limit reached on type Namespace for key default"),
        "{err}"
    );
    // Another namespace has its own bucket.
    k.ok_stdin(&["create", "-f", "-"], &event("other", "kube-system"));
}
