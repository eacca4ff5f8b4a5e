//! What kube-apiserver presents to admission webhooks: the kubeconfig of the plugin's
//! `WebhookAdmissionConfiguration` (`kubeConfigFile`), its user chosen by the webhook's
//! `host:port`; a relative `kubeConfigFile` refuses the start as upstream's does.

use std::process::Command;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use serde_json::{json, Value};

use super::super::harness::https::HttpsServer;
use super::super::harness::kubectl::Kubectl;
use super::super::harness::{require_tool, Server, BIN};

fn admission_config(dir: &std::path::Path, kubeconfig: &str) -> std::path::PathBuf {
    let path = dir.join("admission.yaml");
    std::fs::write(
        &path,
        format!(
            "apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ValidatingAdmissionWebhook\n  configuration:\n    apiVersion: apiserver.config.k8s.io/v1\n    kind: WebhookAdmissionConfiguration\n    kubeConfigFile: {kubeconfig}\n"
        ),
    )
    .expect("write admission config");
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhooks_are_called_with_the_kubeconfigs_credentials() {
    if !require_tool("kubectl") {
        return;
    }
    // Allows a review only when it comes with the token of this webhook's user.
    let webhook = HttpsServer::start(|req: hyper::Request<hyper::body::Incoming>| async move {
        let auth = req
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        let review: Value = serde_json::from_slice(&req.into_body().collect().await?.to_bytes())
            .unwrap_or_default();
        let allowed = auth == "Bearer for-this-hook";
        let answer = json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
            "response": {"uid": review["request"]["uid"], "allowed": allowed,
                         "status": {"message": format!("authorization was {auth:?}")}}});
        Ok(hyper::Response::new(Full::new(Bytes::from(
            answer.to_string(),
        ))))
    })
    .await;
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("hook-token"), "for-this-hook\n").expect("token file");
    let kubeconfig = dir.path().join("webhooks.kubeconfig");
    std::fs::write(
        &kubeconfig,
        format!(
            "apiVersion: v1\nkind: Config\nusers:\n- name: '{}'\n  user:\n    tokenFile: hook-token\n- name: '*'\n  user:\n    token: for-everyone-else\n",
            webhook.addr()
        ),
    )
    .expect("write kubeconfig");
    let config = admission_config(dir.path(), &kubeconfig.display().to_string());
    let server = Server::builder()
        .arg(format!(
            "--admission-control-config-file={}",
            config.display()
        ))
        .start()
        .await;
    let k = Kubectl::new(&server);
    let configuration = json!({"apiVersion": "admissionregistration.k8s.io/v1",
        "kind": "ValidatingWebhookConfiguration", "metadata": {"name": "needs-token"},
        "webhooks": [{"name": "needs-token.example.com",
            "clientConfig": {"url": webhook.url("/check"), "caBundle": webhook.ca_bundle()},
            "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"],
                       "resources": ["configmaps"]}],
            "sideEffects": "None", "admissionReviewVersions": ["v1"], "failurePolicy": "Fail"}]});
    k.ok_stdin(&["create", "-f", "-"], &configuration.to_string());
    // In force once the webhook is called: its answer shows which token came.
    let start = Instant::now();
    loop {
        let out = k.run(&[
            "create",
            "configmap",
            "probe",
            "--dry-run=server",
            "--from-literal=a=b",
        ]);
        if out.status.success() {
            break;
        }
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !err.contains("authorization was"),
            "the wrong credentials: {err}"
        );
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "never in force: {err}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    k.ok(&["create", "configmap", "with-token"]);
}

#[test]
fn a_relative_kubeconfig_file_refuses_the_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = admission_config(dir.path(), "webhooks.kubeconfig");
    let out = Command::new(BIN)
        .arg(format!(
            "--admission-control-config-file={}",
            config.display()
        ))
        .arg(format!("--data-dir={}", dir.path().join("data").display()))
        .output()
        .expect("run");
    assert!(!out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("couldn't init admission plugin \"ValidatingAdmissionWebhook\": kubeConfigFile: Invalid value: \"webhooks.kubeconfig\": must be an absolute file path"),
        "{stderr}"
    );
}
