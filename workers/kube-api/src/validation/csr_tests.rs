//! Tests of the CertificateSigningRequest rules and update preparation.

use super::super::causes::messages;
use super::*;
use serde_json::json;

fn request_pem() -> String {
    let key = rcgen::KeyPair::generate().expect("key");
    let params = rcgen::CertificateParams::new(vec!["n1".to_owned()]).expect("params");
    params
        .serialize_request(&key)
        .expect("csr")
        .pem()
        .expect("pem")
}

fn csr_object(pem: &str) -> Value {
    let b64 = base64::engine::general_purpose::STANDARD.encode(pem);
    json!({"metadata": {"name": "c"}, "spec": {"request": b64,
        "signerName": "example.com/signer", "usages": ["client auth"]}})
}

#[test]
fn a_signed_request_passes_and_bad_fields_are_named() {
    let good = csr_object(&request_pem());
    assert!(
        csr(&good, None).is_empty(),
        "{:?}",
        messages(&csr(&good, None))
    );
    let mut bad = good.clone();
    bad["spec"]["request"] = json!(base64::engine::general_purpose::STANDARD.encode("foo"));
    bad["spec"]["usages"] = json!(["client auth", "flying", "client auth"]);
    bad["spec"]["signerName"] = json!("example/x");
    bad["spec"]["expirationSeconds"] = json!(599);
    let got = messages(&csr(&bad, None));
    assert_eq!(got[0], "spec.request: Invalid value: []byte{0x66, 0x6f, 0x6f}: PEM block type must be CERTIFICATE REQUEST");
    assert!(got[1].starts_with("spec.usages[1]: Unsupported value: \"flying\": supported values: \"any\", \"cert sign\""), "{got:?}");
    assert_eq!(got[2], "spec.usages[2]: Duplicate value: \"client auth\"");
    assert_eq!(got[3], "spec.signerName: Invalid value: \"example\": should be a domain with at least two segments separated by dots");
    assert_eq!(got[4], "spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)");
    let mut none = good.clone();
    none["spec"]["usages"] = json!([]);
    none["spec"]["signerName"] = json!("");
    assert_eq!(
        messages(&csr(&none, None)),
        [
            "spec.usages: Required value",
            "spec.signerName: Required value"
        ]
    );
}

#[test]
fn conditions_and_certificates_on_update() {
    let old = csr_object(&request_pem());
    let mut approved = old.clone();
    approved["status"] = json!({"conditions": [{"type": "Approved", "status": "True"}]});
    // Approving goes through approval, not status.
    assert!(csr_subresource("approval", &approved, &old).is_empty());
    assert_eq!(
        messages(&csr_subresource("status", &approved, &old)),
        ["status.conditions: Forbidden: updates may not add a condition of type \"Approved\""]
    );
    // Decisions stay; Approved and Denied exclude each other; statuses as upstream.
    let mut both = approved.clone();
    both["status"]["conditions"] =
        json!([{"type": "Approved", "status": "True"}, {"type": "Denied", "status": "False"}]);
    assert_eq!(
        messages(&csr_subresource("approval", &both, &approved)),
        [
            "status.conditions[1].status: Unsupported value: \"False\": supported values: \"True\"",
            "status.conditions[1].type: Invalid value: \"Denied\": Approved and Denied conditions are mutually exclusive"
        ]
    );
    assert_eq!(
        messages(&csr_subresource("approval", &old, &approved)),
        ["status.conditions: Forbidden: updates may not remove a condition of type \"Approved\""]
    );
    // The certificate: set through status only, once.
    let mut issued = approved.clone();
    issued["status"]["certificate"] =
        json!(base64::engine::general_purpose::STANDARD.encode("junk"));
    assert_eq!(
        messages(&csr_subresource("status", &issued, &approved)),
        ["status.certificate: Invalid value: \"<certificate data>\": must contain at least one CERTIFICATE PEM block"]
    );
    let cert = rcgen::generate_simple_self_signed(vec!["n1".to_owned()])
        .expect("cert")
        .cert
        .pem();
    issued["status"]["certificate"] =
        json!(base64::engine::general_purpose::STANDARD.encode(&cert));
    assert!(csr_subresource("status", &issued, &approved).is_empty());
    assert_eq!(
        messages(&csr_subresource("approval", &issued, &approved)),
        ["status.certificate: Forbidden: updates may not set certificate content"]
    );
    let mut changed = issued.clone();
    changed["status"]["certificate"] =
        json!(base64::engine::general_purpose::STANDARD.encode(request_pem()));
    let got = messages(&csr_subresource("status", &changed, &issued));
    assert!(
        got.contains(
            &"status.certificate: Forbidden: updates may not modify existing certificate content"
                .to_owned()
        ),
        "{got:?}"
    );
}

#[test]
fn updates_keep_what_upstream_keeps() {
    let mut old = csr_object(&request_pem());
    old["status"] = json!({"conditions": [{"type": "Approved", "status": "True", "reason": "R",
        "lastUpdateTime": "2026-01-01T00:00:00Z", "lastTransitionTime": "2026-01-01T00:00:00Z"}]});
    let now = "2026-11-27T00:00:00Z";
    let mut whole = old.clone();
    whole["spec"]["usages"] = json!(["server auth"]);
    whole["status"] = json!({});
    prepare_update("", &mut whole, &old, now);
    assert_eq!(whole, old);
    let mut status = old.clone();
    status["spec"]["usages"] = json!(["server auth"]);
    status["status"]["conditions"] = json!([{"type": "Approved", "status": "True", "reason": "Changed"},
        {"type": "Failed", "status": "True"}]);
    prepare_update("status", &mut status, &old, now);
    assert_eq!(status["spec"], old["spec"]);
    assert_eq!(
        status["status"]["conditions"][0],
        old["status"]["conditions"][0]
    );
    assert_eq!(status["status"]["conditions"][1]["lastUpdateTime"], now);
    assert_eq!(status["status"]["conditions"][1]["lastTransitionTime"], now);
    let mut approval = old.clone();
    approval["status"]["conditions"] = json!([{"type": "Approved", "status": "True"}]);
    prepare_update("approval", &mut approval, &old, now);
    let c = &approval["status"]["conditions"][0];
    assert_eq!(
        (
            c["lastUpdateTime"].as_str(),
            c["lastTransitionTime"].as_str()
        ),
        (Some(now), Some("2026-01-01T00:00:00Z"))
    );
}
