//! CertificateApproval: approving a CertificateSigningRequest needs `approve` on its
//! signer (or the signer's domain), beyond the right to update the approval.

use super::super::harness::kubectl::Kubectl;
use super::super::harness::{require_tool, Server};
use super::super::rbac::{as_token_user, until};
use super::csr_request;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approving_needs_the_signer() {
    if !require_tool("kubectl") {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let tokens = dir.path().join("tokens.csv");
    std::fs::write(&tokens, "tok-ann,ann,1001\n").expect("write");
    let server = Server::builder()
        .arg(format!("--token-auth-file={}", tokens.display()))
        .start()
        .await;
    let admin = Kubectl::new(&server);
    let request = csr_request("dev", &[]);
    admin.ok_stdin(
        &["create", "-f", "-"],
        &format!("apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: dev\nspec:\n  request: {request}\n  signerName: example.com/team\n  usages: [client auth]\n"),
    );
    // Ann may update approvals, but not approve for this signer.
    admin.ok_stdin(
        &["apply", "-f", "-"],
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: csr-approver\nrules:\n- apiGroups: [certificates.k8s.io]\n  resources: [certificatesigningrequests]\n  verbs: [get, list]\n- apiGroups: [certificates.k8s.io]\n  resources: [certificatesigningrequests/approval]\n  verbs: [update]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: ann-approves\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: csr-approver\nsubjects:\n- kind: User\n  name: ann\n",
    );
    let out = as_token_user(&server, "tok-ann", &["certificate", "approve", "dev"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("certificatesigningrequests.certificates.k8s.io \"dev\" is forbidden: user not permitted to approve requests with signerName \"example.com/team\""),
        "{out:?}"
    );
    // With `approve` on the signer's domain she may.
    admin.ok_stdin(
        &["apply", "-f", "-"],
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: csr-approver\nrules:\n- apiGroups: [certificates.k8s.io]\n  resources: [certificatesigningrequests]\n  verbs: [get, list]\n- apiGroups: [certificates.k8s.io]\n  resources: [certificatesigningrequests/approval]\n  verbs: [update]\n- apiGroups: [certificates.k8s.io]\n  resources: [signers]\n  resourceNames: [example.com/*]\n  verbs: [approve]\n",
    );
    until("ann approves", || {
        as_token_user(&server, "tok-ann", &["certificate", "approve", "dev"])
            .status
            .success()
    });
    let conditions = admin.ok(&[
        "get",
        "csr",
        "dev",
        "-o",
        "jsonpath={.status.conditions[0].type}",
    ]);
    assert_eq!(conditions, "Approved");
}

/// The requester is whoever asked, whatever the body says, and a request cannot arrive
/// approved (upstream's PrepareForCreate of CertificateSigningRequests).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_names_its_requester() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let admin = Kubectl::new(&server);
    let request = csr_request("bob", &[]);
    admin.ok_stdin(
        &["--as=bob", "--as-uid=1234", "--as-group=system:masters", "create", "-f", "-"],
        &format!("apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: bobs\nspec:\n  request: {request}\n  signerName: example.com/team\n  usages: [client auth]\n  username: mallory\n  uid: \"0\"\n  groups: [evil]\n  extra: {{team: [red]}}\nstatus:\n  conditions:\n  - {{type: Approved, status: \"True\", reason: Forged}}\n"),
    );
    let csr: serde_json::Value =
        serde_json::from_str(&admin.ok(&["get", "csr", "bobs", "-o", "json"])).expect("json");
    assert_eq!(csr["spec"]["username"], "bob", "{csr}");
    assert_eq!(csr["spec"]["uid"], "1234", "{csr}");
    assert_eq!(
        csr["spec"]["groups"],
        serde_json::json!(["system:masters", "system:authenticated"]),
        "{csr}"
    );
    assert!(csr["spec"].get("extra").is_none(), "{csr}");
    assert!(csr["status"].get("conditions").is_none(), "{csr}");
}

/// A CertificateSigningRequest is validated as upstream's: bad usages, signer names and
/// requests are 422s; approval fills the condition's timestamps; a decision cannot be
/// taken back or contradicted; the certificate is set through `status`, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_conditions_and_certificates_as_upstream_validates_them() {
    if !require_tool("kubectl") {
        return;
    }
    let server = Server::builder().start().await;
    let admin = Kubectl::new(&server);
    let request = csr_request("dev", &[]);
    let manifest = |name: &str, signer: &str, usages: &str| {
        format!("apiVersion: certificates.k8s.io/v1\nkind: CertificateSigningRequest\nmetadata:\n  name: {name}\nspec:\n  request: {request}\n  signerName: {signer}\n  usages: {usages}\n")
    };
    let out = admin.run_stdin(
        &["create", "-f", "-"],
        &manifest("bad", "example/x", "[client auth, flying]"),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("* spec.usages[1]: Unsupported value: \"flying\": supported values: \"any\"")
            && err.contains("* spec.signerName: Invalid value: \"example\": should be a domain with at least two segments separated by dots"),
        "{err}"
    );
    admin.ok_stdin(
        &["create", "-f", "-"],
        &manifest("dev", "example.com/team", "[client auth]"),
    );
    admin.ok(&["certificate", "approve", "dev"]);
    let approved: serde_json::Value =
        serde_json::from_str(&admin.ok(&["get", "csr", "dev", "-o", "json"])).expect("json");
    let condition = &approved["status"]["conditions"][0];
    assert_eq!(condition["type"], "Approved");
    assert!(
        condition["lastUpdateTime"].is_string() && condition["lastTransitionTime"].is_string(),
        "{condition}"
    );
    // Denying an approved request contradicts it.
    let approval = "/apis/certificates.k8s.io/v1/certificatesigningrequests/dev/approval";
    let both = serde_json::json!({"status": {"conditions": [condition, {"type": "Denied", "status": "True"}]}});
    let r = server
        .send_json(
            http::Method::PATCH,
            approval,
            "application/merge-patch+json",
            &both,
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.text()
            .contains("Approved and Denied conditions are mutually exclusive"),
        "{}",
        r.text()
    );
    // Through status, the decision can neither go nor be added.
    let path = "/apis/certificates.k8s.io/v1/certificatesigningrequests/dev/status";
    let r = server
        .send_json(
            http::Method::PATCH,
            path,
            "application/merge-patch+json",
            &serde_json::json!({"status": {"conditions": []}}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("status.conditions: Forbidden: updates may not remove a condition of type \\\"Approved\\\""), "{}", r.text());
    // The certificate: PEM CERTIFICATE blocks, set once.
    use base64::Engine;
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let r = server
        .send_json(
            http::Method::PATCH,
            path,
            "application/merge-patch+json",
            &serde_json::json!({"status": {"certificate": b64("junk")}}),
        )
        .await;
    assert!(r.text().contains("status.certificate: Invalid value: \\\"\\u003ccertificate data\\u003e\\\": must contain at least one CERTIFICATE PEM block") || r.text().contains("must contain at least one CERTIFICATE PEM block"), "{}", r.text());
    let cert = rcgen::generate_simple_self_signed(vec!["dev".to_owned()])
        .expect("cert")
        .cert
        .pem();
    let r = server
        .send_json(
            http::Method::PATCH,
            path,
            "application/merge-patch+json",
            &serde_json::json!({"status": {"certificate": b64(&cert)}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let again = rcgen::generate_simple_self_signed(vec!["dev".to_owned()])
        .expect("cert")
        .cert
        .pem();
    let r = server
        .send_json(
            http::Method::PATCH,
            path,
            "application/merge-patch+json",
            &serde_json::json!({"status": {"certificate": b64(&again)}}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(
        r.text()
            .contains("updates may not modify existing certificate content"),
        "{}",
        r.text()
    );
}
