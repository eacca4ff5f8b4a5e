//! Bad encryption configurations refuse the start, every reason at once, each with the
//! file and the field.

use std::path::Path;
use std::process::Command;

use super::super::harness::BIN;
use super::{aescbc, aesgcm, write_config, KEY1};

/// Runs the binary with `config` and returns its stderr, checking it refused to start.
fn refused(config: &Path) -> String {
    let out = Command::new(BIN)
        .arg(format!("--encryption-provider-config={}", config.display()))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(64), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn bad_configurations_refuse_to_start_with_every_reason() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = write_config(
        dir.path(),
        "bad.yaml",
        &(aescbc("key1", "c2hvcnQ=")
            + &aesgcm("", KEY1)
            + "      - secretbox:\n          keys: [{name: k, secret: MDEyMzQ1Njc4OWFiY2RlZg==}]\n"
            + "      - rot13: {}\n"),
    );
    let stderr = refused(&bad);
    let shown = bad.display().to_string();
    for want in [
        "resources[0].providers[0].aescbc.keys[0].secret: Invalid value: \"REDACTED\": secret is not of the expected length, got 5, expected one of [16 24 32]",
        "resources[0].providers[1].aesgcm.keys[0].name: Required value: name is a mandatory field for a key",
        "resources[0].providers[2].secretbox.keys[0].secret: Invalid value: \"REDACTED\": secret is not of the expected length, got 16, expected one of [32]",
        "resources[0].providers[3]: Invalid value: \"rot13\": unknown provider",
    ] {
        assert!(
            stderr.contains(&format!("Error: invalid value for --encryption-provider-config: {shown}: {want}")),
            "missing {want:?} in:\n{stderr}"
        );
    }
    assert!(!stderr.contains("c2hvcnQ"), "a secret leaked: {stderr}");

    // KMS v1 is refused as v1.33 refuses it without the KMSv1 feature gate; a bad v2
    // provider with upstream's field errors.
    let kms = write_config(
        dir.path(),
        "kms.yaml",
        "      - kms: {name: vault, endpoint: unix:///run/kms.sock}\n",
    );
    let stderr = refused(&kms);
    assert!(
        stderr.contains("error while building transformers: KMSv1 is deprecated and will only receive security updates going forward. Use KMSv2 instead.  Set --feature-gates=KMSv1=true to use the deprecated KMSv1 feature."),
        "{stderr}"
    );
    let kms = write_config(
        dir.path(),
        "kms2.yaml",
        "      - kms: {apiVersion: v2, name: 'a:b', endpoint: 'tcp://kms:1', cachesize: 10}\n",
    );
    let stderr = refused(&kms);
    for want in [
        "resources[0].providers[0].kms.name: Invalid value: \"a:b\": invalid KMS provider name a:b, must not contain ':'",
        "resources[0].providers[0].kms.endpoint: Invalid value: \"tcp://kms:1\": unsupported scheme \"tcp\" for KMS provider, only unix is supported",
        "resources[0].providers[0].kms.cachesize: Invalid value: 10: cachesize is not supported in v2",
    ] {
        assert!(stderr.contains(want), "missing {want:?} in:\n{stderr}");
    }

    // Resources that may not be named so, wildcards masking later rules, a missing file.
    let rules = dir.path().join("rules.yaml");
    std::fs::write(
        &rules,
        "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: ['*.*']
    providers: [{identity: {}}]
  - resources: [events.events.k8s.io, secrets]
    providers: [{identity: {}}]
",
    )
    .expect("write");
    let stderr = refused(&rules);
    assert!(stderr.contains("resources[1].resources[0]: Invalid value: \"events.events.k8s.io\": '*.events.k8s.io' objects are stored using the 'events' API group in etcd"), "{stderr}");
    assert!(
        stderr.contains("resource \"secrets\" is masked by earlier rule \"*.*\""),
        "{stderr}"
    );
    let stderr = refused(&dir.path().join("absent.yaml"));
    assert!(
        stderr.contains("absent.yaml: error reading encryption provider configuration file"),
        "{stderr}"
    );
}

#[test]
fn automatic_reload_needs_a_file() {
    let out = Command::new(BIN)
        .arg("--encryption-provider-config-automatic-reload")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(64), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--encryption-provider-config-automatic-reload must be set with --encryption-provider-config"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("has no effect"),
        "no longer an ignored flag: {stderr}"
    );
}
