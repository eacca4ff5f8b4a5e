//! The EncryptionConfiguration checks, one bad input each, with upstream's words.

use super::*;

const K16: &str = "MDEyMzQ1Njc4OWFiY2RlZg=="; // "0123456789abcdef"
const K32: &str = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";

fn errors(text: &str) -> Vec<String> {
    match parse(text, false) {
        Ok(c) => panic!("accepted: {c:?}"),
        Err(e) => e,
    }
}

/// The file as checked at start without `--encryption-provider-config-automatic-reload`.
fn parse_start(text: &str) -> Result<EncryptionConfig, Vec<String>> {
    parse(text, false)
}

fn has(errs: &[String], want: &str) {
    assert!(
        errs.iter().any(|e| e.contains(want)),
        "no error containing {want:?} in {errs:#?}"
    );
}

#[test]
fn yaml_with_every_provider() {
    let c = parse_start(&format!(
        "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets, configmaps, deployments.apps, widgets.example.com]
    providers:
      - aescbc: {{keys: [{{name: key1, secret: {K32}}}]}}
      - aesgcm: {{keys: [{{name: key2, secret: {K16}}}]}}
      - secretbox: {{keys: [{{name: key3, secret: {K32}}}]}}
      - identity: {{}}
  - resources: ['*.apps']
    providers: [{{identity: {{}}}}]
"
    ))
    .expect("valid");
    assert_eq!(c.rules.len(), 2);
    let p = &c.rules[0].providers;
    assert!(
        matches!(&p[0], EncryptionProvider::AesCbc(k) if k[0].name == "key1" && k[0].secret.len() == 32)
    );
    assert!(matches!(&p[1], EncryptionProvider::AesGcm(k) if k[0].secret == b"0123456789abcdef"));
    assert!(matches!(&p[2], EncryptionProvider::Secretbox(_)));
    assert_eq!(p[3], EncryptionProvider::Identity);
}

#[test]
fn json_and_the_legacy_kind() {
    let c = parse_start(&format!(
        r#"{{"kind":"EncryptionConfig","apiVersion":"v1","resources":[{{"resources":["*.*"],"providers":[{{"aesgcm":{{"keys":[{{"name":"k","secret":"{K16}"}}]}}}}]}}]}}"#
    ))
    .expect("valid");
    assert_eq!(c.rules[0].resources, ["*.*"]);
}

#[test]
fn wrong_kind_and_empty_resources() {
    let e = errors("apiVersion: apiserver.config.k8s.io/v1\nkind: Other\nresources: []\n");
    has(&e, "got unexpected config type");
    let e = errors("apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n");
    has(
        &e,
        "resources: Required value: at least one resources is required",
    );
    let e = errors("kinds: EncryptionConfiguration\napiVersion: apiserver.config.k8s.io/v1\n");
    has(&e, "unknown field \"kinds\"");
    let e = errors("{not yaml: [");
    has(&e, "error decoding encryption provider configuration");
}

#[test]
fn every_key_problem_at_once() {
    let e = errors(
        "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aescbc: {keys: [{name: a, secret: c2hvcnQ=}, {secret: MDEyMzQ1Njc4OWFiY2RlZg==}, {name: c, secret: '!!'}]}
      - secretbox: {keys: [{name: s, secret: MDEyMzQ1Njc4OWFiY2RlZg==}]}
      - aesgcm: {keys: []}
      - aesfoo: {}
      - {}
      - {identity: {}, aescbc: {keys: [{name: x, secret: MDEyMzQ1Njc4OWFiY2RlZg==}]}}
      - {identity: {keys: []}}
  - resources: []
    providers: []
",
    );
    has(&e, "resources[0].providers[0].aescbc.keys[0].secret: Invalid value: \"REDACTED\": secret is not of the expected length, got 5, expected one of [16 24 32]");
    has(&e, "resources[0].providers[0].aescbc.keys[1].name: Required value: name is a mandatory field for a key");
    has(&e, "resources[0].providers[0].aescbc.keys[2].secret: Invalid value: \"REDACTED\": secrets must be base64 encoded");
    has(&e, "resources[0].providers[1].secretbox.keys[0].secret: Invalid value: \"REDACTED\": secret is not of the expected length, got 16, expected one of [32]");
    has(
        &e,
        "resources[0].providers[2].aesgcm.keys: Required value: at least one keys is required",
    );
    has(
        &e,
        "resources[0].providers[3]: Invalid value: \"aesfoo\": unknown provider",
    );
    has(&e, "resources[0].providers[4]: Invalid value: {}: provider does not contain any of the expected providers");
    has(&e, "resources[0].providers[5]: Invalid value: aescbc, identity: more than one provider specified in a single element");
    has(
        &e,
        "strict decoding error: unknown field \"resources[0].providers[6].identity.keys\"",
    );
    has(
        &e,
        "resources[1].resources: Required value: at least one resources[1].resources is required",
    );
    has(
        &e,
        "resources[1].providers: Required value: at least one resources[1].providers is required",
    );
    assert!(
        !e.iter().any(|m| m.contains("c2hvcnQ")),
        "a secret leaked: {e:?}"
    );
}

#[test]
fn resource_rules() {
    let e = errors(
        "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [Secrets, '*', serviceipallocations, events.events.k8s.io, deployments.extensions, 'secrets.*']
    providers: [{identity: {}}]
  - resources: [secrets, secrets]
    providers: [{identity: {}}]
  - resources: [configmaps, '*.']
    providers: [{identity: {}}]
",
    );
    has(&e, "resources[0].resources[0]: Invalid value: \"Secrets\": resource name should not contain capital letters");
    has(&e, "resources[0].resources[1]: Invalid value: \"*\": use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources");
    has(&e, "resources[0].resources[2]: Invalid value: \"serviceipallocations\": resources which do not have REST API/s cannot be encrypted");
    has(&e, "resources[0].resources[3]: Invalid value: \"events.events.k8s.io\": '*.events.k8s.io' objects are stored using the 'events' API group");
    has(&e, "resources[0].resources[4]: Invalid value: \"deployments.extensions\": 'extensions' group has been removed");
    has(&e, "resources[0].resources[5]: Invalid value: \"secrets.*\": encrypting the same resource across groups is not supported");
    has(&e, "resources[1].resources: Invalid value: []string{\"secrets\", \"secrets\"}: the same resource cannot be specified multiple times");
    has(&e, "resources[2].resources: Invalid value: []string{\"configmaps\", \"*.\"}: using overlapping resources");
}

#[test]
fn masked_by_an_earlier_wildcard() {
    let e = errors(
        "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: ['*.apps']
    providers: [{identity: {}}]
  - resources: [deployments.apps]
    providers: [{identity: {}}]
  - resources: ['*.*']
    providers: [{identity: {}}]
  - resources: [secrets]
    providers: [{identity: {}}]
",
    );
    has(
        &e,
        "resource \"deployments.apps\" is masked by earlier rule \"*.apps\"",
    );
    has(&e, "resource \"secrets\" is masked by earlier rule \"*.*\"");
}

#[test]
fn kms_v2_is_read_with_its_defaults() {
    let c = parse_start(
        "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - kms: {apiVersion: v2, name: p1, endpoint: unix:///tmp/kms.sock}
      - kms: {apiVersion: v2, name: p2, endpoint: 'unix:///run/k.sock', timeout: 1m30s}
      - identity: {}
",
    )
    .expect("valid");
    let p = &c.rules[0].providers;
    assert_eq!(
        p[0],
        EncryptionProvider::Kms(KmsProvider {
            name: "p1".into(),
            socket: "/tmp/kms.sock".into(),
            timeout_ms: 3000,
        })
    );
    assert_eq!(
        p[1],
        EncryptionProvider::Kms(KmsProvider {
            name: "p2".into(),
            socket: "/run/k.sock".into(),
            timeout_ms: 90_000,
        })
    );
}

#[test]
fn kms_v2_fields_are_checked_as_upstream() {
    let e = errors(
        "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - kms: {apiVersion: v2, name: 'a:b', endpoint: tcp://x, cachesize: 100, timeout: 0s}
      - kms: {apiVersion: v2, name: p, endpoint: unix:///k.sock, timeout: -2s}
  - resources: [configmaps]
    providers:
      - kms: {apiVersion: v2, name: p, endpoint: unix:///k.sock, color: blue}
      - kms: {apiVersion: v3, endpoint: unix:///k.sock}
      - kms: {apiVersion: v2, name: q, endpoint: unix:///k.sock, timeout: soon}
",
    );
    let at = "resources[0].providers[0].kms";
    has(&e, &format!("{at}.name: Invalid value: \"a:b\": invalid KMS provider name a:b, must not contain ':'"));
    has(&e, &format!("{at}.endpoint: Invalid value: \"tcp://x\": unsupported scheme \"tcp\" for KMS provider, only unix is supported"));
    has(
        &e,
        &format!("{at}.cachesize: Invalid value: 100: cachesize is not supported in v2"),
    );
    has(
        &e,
        &format!("{at}.timeout: Invalid value: 0s: timeout should be a positive value"),
    );
    has(&e, "resources[0].providers[1].kms.timeout: Invalid value: -2s: timeout should be a positive value");
    has(&e, "resources[1].providers[0].kms.name: Invalid value: \"p\": duplicate KMS provider name p, names must be unique");
    has(
        &e,
        "strict decoding error: unknown field \"resources[1].providers[0].kms.color\"",
    );
    has(&e, "resources[1].providers[1].kms.name: Required value: name is a mandatory field for a provider");
    has(&e, "resources[1].providers[1].kms.apiVersion: Invalid value: \"v3\": unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported");
    has(
        &e,
        "resources[1].providers[2].kms.timeout: Invalid value: \"soon\"",
    );
    assert_eq!(e.len(), 10, "{e:#?}");
}

#[test]
fn kms_v1_is_refused_as_without_its_feature_gate() {
    // Field errors first, as upstream validates before it builds transformers.
    let e = errors(
        "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - kms: {name: 'a:b', endpoint: tcp://x, cachesize: 0}
",
    );
    has(&e, "resources[0].providers[0].kms.endpoint: Invalid value: \"tcp://x\": unsupported scheme \"tcp\" for KMS provider, only unix is supported");
    has(&e, "resources[0].providers[0].kms.cachesize: Invalid value: 0: cachesize should be a positive value, or negative to disable");
    assert_eq!(e.len(), 2, "{e:#?}");
    // A valid v1 provider (its name may hold ':') still does not start the server.
    let e = errors(
        "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - kms: {name: 'a:b', endpoint: unix:///k.sock}
      - kms: {apiVersion: v2, name: 'a:b', endpoint: unix:///k2.sock}
",
    );
    assert_eq!(e.len(), 2, "{e:#?}");
    has(&e, "resources[0].providers[1].kms.name: Invalid value: \"a:b\": duplicate KMS provider name a:b");
    let e = errors(
        "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - kms: {name: v1, endpoint: unix:///k.sock}
",
    );
    assert_eq!(e, vec!["error while building transformers: KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead.  Set --feature-gates=KMSv1=true to use the deprecated KMSv1 feature.".to_owned()]);
}

#[test]
fn a_followed_file_needs_unique_kms_v1_names_too() {
    // Upstream validates with reload=true when the file is followed: two v1 providers
    // sharing a name are then a field error, not only the KMSv1 refusal.
    let text = "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - kms: {name: one, endpoint: unix:///k.sock}
      - kms: {name: one, endpoint: unix:///k2.sock}
";
    let e = parse(text, true).expect_err("duplicate");
    assert_eq!(e, vec!["resources[0].providers[1].kms.name: Invalid value: \"one\": duplicate KMS provider name one, names must be unique".to_owned()]);
    let e = parse(text, false).expect_err("v1");
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(
        e[0].starts_with("error while building transformers: KMSv1"),
        "{e:?}"
    );
}

#[test]
fn file_errors_name_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("enc.yaml");
    std::fs::write(&p, "").expect("write");
    let e = load(&p, false).expect_err("empty");
    assert_eq!(e[0].flag, "--encryption-provider-config");
    assert!(e[0].message.starts_with(&p.display().to_string()), "{e:?}");
    assert!(e[0].message.contains("is empty"));
    let e = load(&dir.path().join("missing.yaml"), false).expect_err("missing");
    assert!(e[0].message.contains("missing.yaml"));
}
