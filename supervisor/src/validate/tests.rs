//! Tests of `validate`.

use super::service_account::DEFAULT_SERVICE_ACCOUNT_ISSUER;
use super::*;
use clap::Parser;

fn opts(args: &[&str]) -> Options {
    let mut v = vec!["kube-apiserver"];
    v.extend_from_slice(args);
    Options::try_parse_from(v).expect("parse")
}

#[test]
fn defaults_are_valid() {
    let v = validate(&opts(&[])).expect("valid");
    assert_eq!(v.secure_port, 6443);
    assert_eq!(v.request_timeout, Duration::from_secs(60));
    assert_eq!(v.service_node_port_range, (30000, 32767));
    assert_eq!(v.service_cluster_ip_ranges[0].to_string(), "10.0.0.0/24");
}

#[test]
fn every_error_at_once() {
    let errs = validate(&opts(&[
        "--secure-port=70000",
        "--service-cluster-ip-range=10.0.0.0/33",
        "--tls-cert-file=/nonexistent/cert.pem",
        "--tls-private-key-file=/nonexistent/key.pem",
        "--min-request-timeout=0",
        "--service-node-port-range=5-1",
        "--request-timeout=soon",
    ]))
    .expect_err("invalid");
    let flags: Vec<&str> = errs.iter().map(|e| e.flag).collect();
    for f in [
        "--secure-port",
        "--service-cluster-ip-range",
        "--tls-cert-file",
        "--tls-private-key-file",
        "--min-request-timeout",
        "--service-node-port-range",
        "--request-timeout",
    ] {
        assert!(flags.contains(&f), "{f} missing from {errs:?}");
    }
}

#[test]
fn service_account_defaults() {
    let v = validate(&opts(&[])).expect("valid");
    assert_eq!(v.service_account_issuers, [DEFAULT_SERVICE_ACCOUNT_ISSUER]);
    assert_eq!(v.api_audiences, [DEFAULT_SERVICE_ACCOUNT_ISSUER]);
    assert!(v.service_account_extend_token_expiration);
    assert_eq!(v.service_account_max_token_expiration, None);
    assert!(v.service_account_signing_key_pem.is_none());
}

#[test]
fn service_account_flags() {
    let dir = tempfile::tempdir().expect("tempdir");
    let key = rcgen::KeyPair::generate().expect("key");
    let key_path = dir.path().join("sa.key");
    std::fs::write(&key_path, key.serialize_pem()).expect("write");
    let pub_path = dir.path().join("sa.pub");
    std::fs::write(&pub_path, key.public_key_pem()).expect("write");
    let v = validate(&opts(&[
        "--service-account-issuer=https://a.example",
        "--service-account-issuer=b",
        &format!("--service-account-signing-key-file={}", key_path.display()),
        &format!("--service-account-key-file={}", pub_path.display()),
        &format!("--service-account-key-file={}", key_path.display()),
        "--service-account-max-token-expiration=2h",
        "--service-account-extend-token-expiration=false",
    ]))
    .expect("valid");
    assert_eq!(v.service_account_issuers, ["https://a.example", "b"]);
    assert_eq!(v.api_audiences, ["https://a.example"]);
    assert_eq!(v.service_account_public_keys_pem.len(), 2);
    assert_eq!(
        v.service_account_public_keys_pem[0],
        v.service_account_public_keys_pem[1]
    );
    assert_eq!(
        v.service_account_max_token_expiration,
        Some(Duration::from_secs(7200))
    );
    assert!(!v.service_account_extend_token_expiration);
}

#[test]
fn signing_key_kinds() {
    let rsa = include_str!("../../../workers/kube-api/src/auth/testdata/rsa-2048.key");
    let public = signing_public_key(rsa).expect("RSA PKCS#8");
    assert!(public.contains("BEGIN PUBLIC KEY"));
    let p384 = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P384_SHA384).expect("key");
    assert!(signing_public_key(&p384.serialize_pem()).is_ok());
    let sec1 = "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n";
    assert!(signing_public_key(sec1)
        .expect_err("SEC1")
        .contains("PKCS#8"));
    let ed = rcgen::KeyPair::generate_for(&rcgen::PKCS_ED25519).expect("key");
    assert!(signing_public_key(&ed.serialize_pem()).is_err());
}

#[test]
fn bad_service_account_flags() {
    let dir = tempfile::tempdir().expect("tempdir");
    let junk = dir.path().join("junk");
    std::fs::write(&junk, "not a key").expect("write");
    let errs = validate(&opts(&[
        "--service-account-issuer=",
        "--service-account-issuer=a:b c",
        &format!("--service-account-signing-key-file={}", junk.display()),
        &format!("--service-account-key-file={}", junk.display()),
        "--service-account-max-token-expiration=5m",
    ]))
    .expect_err("invalid");
    let flags: Vec<&str> = errs.iter().map(|e| e.flag).collect();
    assert_eq!(
        flags
            .iter()
            .filter(|f| **f == "--service-account-issuer")
            .count(),
        2,
        "{errs:?}"
    );
    for f in [
        "--service-account-signing-key-file",
        "--service-account-key-file",
        "--service-account-max-token-expiration",
    ] {
        assert!(flags.contains(&f), "{f} missing from {errs:?}");
    }
}

#[test]
fn dual_stack_and_port_syntax() {
    let v = validate(&opts(&[
        "--service-cluster-ip-range=10.96.0.0/16,fd00::/108",
        "--service-node-port-range=30000+100",
    ]))
    .expect("valid");
    assert_eq!(v.service_cluster_ip_ranges.len(), 2);
    assert_eq!(v.service_node_port_range, (30000, 30100));
}
