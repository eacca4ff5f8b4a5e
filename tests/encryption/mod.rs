//! Encryption at rest (`--encryption-provider-config`), black box against a real etcd:
//! what `etcdctl get` shows for Secrets written with kubectl under aescbc, a rotation to
//! aesgcm and back to identity with kubectl's documented rewrite, values laid out as
//! kube-apiserver writes them read back, a wrong key failing only its object, and bad
//! configurations refused at start.

use std::path::{Path, PathBuf};
use std::process::Command;

use aes::cipher::{block_padding::Pkcs7, BlockEncryptMut, KeyIvInit};
use aes_gcm::aead::{Aead, KeyInit, Payload};
use base64::Engine;

use super::harness::etcdctl::{put, raw};
use super::harness::kubectl::Kubectl;
use super::harness::{require_tool, Etcd, Server};

mod kms;
mod refusals;
mod reload;

/// Key bytes 00..1f, base64 in the configuration.
const KEY1: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
/// Another 32-byte key.
const KEY2: &str = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
/// The same name as KEY1's, another secret.
const WRONG: &str = "ZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmY=";

fn b64(s: &str) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(s)
        .expect("base64")
}

fn write_config(dir: &Path, name: &str, providers: &str) -> PathBuf {
    let path = dir.join(name);
    let text = format!(
        "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
{providers}"
    );
    std::fs::write(&path, text).expect("write config");
    path
}

fn aescbc(name: &str, secret: &str) -> String {
    format!("      - aescbc:\n          keys: [{{name: {name}, secret: {secret}}}]\n")
}

fn aesgcm(name: &str, secret: &str) -> String {
    format!("      - aesgcm:\n          keys: [{{name: {name}, secret: {secret}}}]\n")
}

const IDENTITY: &str = "      - identity: {}\n";

async fn start(etcd: &Etcd, config: Option<&Path>) -> Server {
    let mut b = Server::builder().arg(format!("--etcd-servers={}", etcd.url()));
    if let Some(c) = config {
        b = b.arg(format!("--encryption-provider-config={}", c.display()));
    }
    b.start().await
}

fn tools() -> bool {
    require_tool("kubectl") && require_tool("etcd") && require_tool("etcdctl")
}

/// `kubectl get secrets -A -o json | kubectl replace -f -`, upstream's documented way to
/// rewrite every Secret with the current write provider.
fn rewrite_all(k: &Kubectl) {
    let all = k.ok(&["get", "secrets", "-A", "-o", "json"]);
    k.ok_stdin(&["replace", "-f", "-"], &all);
}

fn password(k: &Kubectl, name: &str) -> String {
    k.ok(&["get", "secret", name, "-o", "jsonpath={.data.password}"])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_are_ciphertext_in_etcd_through_a_rotation_and_back() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut etcd = Etcd::new();
    etcd.start();

    // aescbc writes.
    let cbc_only = write_config(dir.path(), "cbc.yaml", &aescbc("key1", KEY1));
    let server = start(&etcd, Some(&cbc_only)).await;
    let k = Kubectl::new(&server);
    k.ok(&[
        "create",
        "secret",
        "generic",
        "s1",
        "--from-literal=password=hunter2",
    ]);
    k.ok(&[
        "create",
        "configmap",
        "c1",
        "--from-literal=password=hunter2",
    ]);
    let s1 = raw(&etcd, "/registry/secrets/default/s1");
    assert!(
        s1.starts_with(b"k8s:enc:aescbc:v1:key1:"),
        "{}",
        String::from_utf8_lossy(&s1)
    );
    let text = String::from_utf8_lossy(&s1);
    assert!(
        !text.contains("hunter2") && !text.contains("aHVudGVyMg"),
        "{text}"
    );
    // IV + whole blocks after the prefix.
    assert_eq!((s1.len() - "k8s:enc:aescbc:v1:key1:".len()) % 16, 0);
    assert_eq!(password(&k, "s1"), "aHVudGVyMg==");
    // Resources the configuration does not name stay as encoded: protobuf, in clear.
    assert!(raw(&etcd, "/registry/configmaps/default/c1").starts_with(b"k8s\0"));
    drop(k);
    drop(server);

    // Rotation: aesgcm first, aescbc still reads.
    let gcm_first = write_config(
        dir.path(),
        "gcm.yaml",
        &(aesgcm("key2", KEY2) + &aescbc("key1", KEY1)),
    );
    let server = start(&etcd, Some(&gcm_first)).await;
    let k = Kubectl::new(&server);
    assert_eq!(password(&k, "s1"), "aHVudGVyMg==", "the old Secret reads");
    k.ok(&[
        "create",
        "secret",
        "generic",
        "s2",
        "--from-literal=password=hunter2",
    ]);
    assert!(raw(&etcd, "/registry/secrets/default/s2").starts_with(b"k8s:enc:aesgcm:v1:key2:"));
    assert!(raw(&etcd, "/registry/secrets/default/s1").starts_with(b"k8s:enc:aescbc:v1:key1:"));
    rewrite_all(&k);
    let s1 = raw(&etcd, "/registry/secrets/default/s1");
    assert!(
        s1.starts_with(b"k8s:enc:aesgcm:v1:key2:"),
        "kubectl replace rewrote the unchanged, stale Secret: {}",
        String::from_utf8_lossy(&s1)
    );
    // Nonce (12) + ciphertext + tag (16): longer than the prefix by at least 28.
    assert!(s1.len() >= "k8s:enc:aesgcm:v1:key2:".len() + 28);
    assert_eq!(password(&k, "s1"), "aHVudGVyMg==");
    // Without the old key, everything still reads: nothing is left under aescbc.
    drop(k);
    drop(server);
    let gcm_only = write_config(dir.path(), "gcm-only.yaml", &aesgcm("key2", KEY2));
    let server = start(&etcd, Some(&gcm_only)).await;
    let k = Kubectl::new(&server);
    let listed = k.ok(&["get", "secrets", "-o", "name"]);
    assert!(
        listed.contains("secret/s1") && listed.contains("secret/s2"),
        "{listed}"
    );
    drop(k);
    drop(server);

    // Back to identity: identity writes, aesgcm reads what is left.
    let back = write_config(
        dir.path(),
        "identity.yaml",
        &(IDENTITY.to_owned() + &aesgcm("key2", KEY2)),
    );
    let server = start(&etcd, Some(&back)).await;
    let k = Kubectl::new(&server);
    assert_eq!(password(&k, "s2"), "aHVudGVyMg==");
    rewrite_all(&k);
    for name in ["s1", "s2"] {
        let v = raw(&etcd, &format!("/registry/secrets/default/{name}"));
        // In clear: the protobuf value (the Secret's data as raw bytes).
        assert!(
            v.starts_with(b"k8s\0"),
            "{name}: {}",
            String::from_utf8_lossy(&v)
        );
        assert!(String::from_utf8_lossy(&v).contains("hunter2"));
    }
    drop(k);
    drop(server);
    // And with no configuration at all the plain Secrets read.
    let server = start(&etcd, None).await;
    let k = Kubectl::new(&server);
    assert_eq!(password(&k, "s1"), "aHVudGVyMg==");
}

/// A Secret as kube-apiserver stores it, JSON (the bytes inside the encryption).
fn secret_json(name: &str) -> String {
    format!(
        r#"{{"kind":"Secret","apiVersion":"v1","metadata":{{"name":"{name}","namespace":"default","uid":"6f1d8c52-0d7e-4b4e-9a53-6c1f0e0e0001","creationTimestamp":"2026-01-01T00:00:00Z"}},"data":{{"password":"aHVudGVyMg=="}},"type":"Opaque"}}"#
    )
}

/// `secret_json("upstream")` under aescbc key KEY1 (bytes 00..1f) with IV 10..1f, laid out
/// as kube-apiserver's aescbc transformer writes it: IV, then AES-256-CBC with PKCS#7
/// padding. Derived outside this code base, twice, with the same result:
/// `printf %s "$json" | openssl enc -aes-256-cbc -K 000102…1f -iv 101112…1f | xxd -p`
/// (the IV prepended by hand) and Python's `cryptography` (AES/CBC with its PKCS7 padder).
const UPSTREAM_CBC: &str = "101112131415161718191a1b1c1d1e1f96d53b3f1d4737ef51eaf5ef90c15ca85cc854bbfe214d2143891e0dd50678f43d88fcdfaa8f62f12c10ac31d686a27971161a1d43ff26bf18f2313835f89a2ddfef9f5cd324731696b93ac403ce2522d9dfd236068fc1bf9cdacaf0d32d08fa2c86891f32c3a22709986045a06df98170e5145b8343f424bf1cc7bd976bc734117443ad129bb5321f9940ee1d44d7239043950e2e96c5e19d87d82d1fff2d12e868bab30ac98d8825ca889cb967a482c1de24e60336c2f9561d3f6dc695ad9c7927b7448eb7ee98c86eabf0f82a1017016a99092e6193fc0fd7d6f8ff56996dab2045d5c7c56390f4a39c98d43a126d";

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn prefixed(prefix: &str, body: &[u8]) -> Vec<u8> {
    let mut v = prefix.as_bytes().to_vec();
    v.extend_from_slice(body);
    v
}

/// Upstream's aescbc layout, computed here: IV, then AES-CBC/PKCS#7 of `plain`.
fn cbc(key: &[u8], iv: [u8; 16], plain: &[u8]) -> Vec<u8> {
    let mut out = iv.to_vec();
    out.extend(
        cbc::Encryptor::<aes::Aes256>::new_from_slices(key, &iv)
            .expect("key")
            .encrypt_padded_vec_mut::<Pkcs7>(plain),
    );
    out
}

/// Upstream's aesgcm layout: nonce, then AES-GCM of `plain` with `etcd_key` authenticated.
fn gcm(key: &[u8], nonce: [u8; 12], plain: &[u8], etcd_key: &str) -> Vec<u8> {
    let sealed = aes_gcm::Aes256Gcm::new_from_slice(key)
        .expect("key")
        .encrypt(
            &nonce.into(),
            Payload {
                msg: plain,
                aad: etcd_key.as_bytes(),
            },
        )
        .expect("seal");
    let mut out = nonce.to_vec();
    out.extend(sealed);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_written_as_upstream_writes_them_read_and_a_wrong_key_fails_one_object() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut etcd = Etcd::new();
    etcd.start();
    let config = write_config(
        dir.path(),
        "enc.yaml",
        &(aescbc("key1", KEY1) + &aesgcm("key2", KEY2)),
    );
    let server = start(&etcd, Some(&config)).await;
    let k = Kubectl::new(&server);
    k.ok(&[
        "create",
        "secret",
        "generic",
        "good",
        "--from-literal=password=hunter2",
    ]);

    // The fixed bytes, and values computed here with upstream's layouts.
    let key = "/registry/secrets/default/upstream";
    put(
        &etcd,
        key,
        &prefixed("k8s:enc:aescbc:v1:key1:", &hex(UPSTREAM_CBC)),
    );
    let computed = "/registry/secrets/default/computed-cbc";
    let iv = [7u8; 16];
    put(
        &etcd,
        computed,
        &prefixed(
            "k8s:enc:aescbc:v1:key1:",
            &cbc(&b64(KEY1), iv, secret_json("computed-cbc").as_bytes()),
        ),
    );
    let computed_gcm = "/registry/secrets/default/computed-gcm";
    put(
        &etcd,
        computed_gcm,
        &prefixed(
            "k8s:enc:aesgcm:v1:key2:",
            &gcm(
                &b64(KEY2),
                [9u8; 12],
                secret_json("computed-gcm").as_bytes(),
                computed_gcm,
            ),
        ),
    );
    for name in ["upstream", "computed-cbc", "computed-gcm"] {
        assert_eq!(password(&k, name), "aHVudGVyMg==", "{name}");
    }
    let listed = k.ok(&["get", "secrets", "-o", "name"]);
    assert!(listed.contains("secret/computed-gcm"), "{listed}");

    // Encrypted with another key of the same name: a 500 for that Secret only.
    put(
        &etcd,
        "/registry/secrets/default/wrong",
        &prefixed(
            "k8s:enc:aescbc:v1:key1:",
            &cbc(&b64(WRONG), iv, secret_json("wrong").as_bytes()),
        ),
    );
    // A GCM value moved under another key does not authenticate.
    let moved = gcm(
        &b64(KEY2),
        [9u8; 12],
        secret_json("moved").as_bytes(),
        computed_gcm,
    );
    put(
        &etcd,
        "/registry/secrets/default/moved",
        &prefixed("k8s:enc:aesgcm:v1:key2:", &moved),
    );
    let r = server.get("/api/v1/namespaces/default/secrets/wrong").await;
    assert_eq!(r.status, 500, "{}", r.text());
    let status = r.json();
    assert_eq!(status["reason"], "InternalError");
    let message = status["message"].as_str().unwrap_or_default().to_owned();
    assert!(
        message == "Internal error occurred: invalid padding on input"
            || message == "Internal error occurred: invalid PKCS7 data (empty or not padded)",
        "{message}"
    );
    let r = server.get("/api/v1/namespaces/default/secrets/moved").await;
    assert_eq!(r.status, 500, "{}", r.text());
    let status = r.json();
    assert_eq!(
        status["message"],
        "Internal error occurred: cipher: message authentication failed"
    );
    assert_eq!(
        status["details"]["causes"][0]["message"], "cipher: message authentication failed",
        "the reason is also the one cause, as apierrors.NewInternalError writes it"
    );
    // Plain text where the list has no identity provider.
    put(
        &etcd,
        "/registry/secrets/default/plain",
        secret_json("plain").as_bytes(),
    );
    let r = server.get("/api/v1/namespaces/default/secrets/plain").await;
    assert_eq!(r.status, 500, "{}", r.text());
    assert_eq!(
        r.json()["message"],
        "Internal error occurred: no matching prefix found"
    );
    // Every other Secret still reads.
    for name in ["good", "upstream", "computed-gcm"] {
        assert_eq!(password(&k, name), "aHVudGVyMg==", "{name}");
    }
    // A list meeting one of them fails as upstream's does, naming the key.
    let r = server.get("/api/v1/namespaces/default/secrets").await;
    assert_eq!(r.status, 500, "{}", r.text());
    let message = r.json()["message"].as_str().unwrap_or_default().to_owned();
    assert!(
        message.starts_with(
            "Internal error occurred: unable to transform key \"/registry/secrets/default/"
        ),
        "{message}"
    );
    // Other resources are untouched.
    k.ok(&["get", "configmaps"]);
}

const WIDGET_CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
"#;

/// The raw value of `key` in the embedded store, read with etcdctl over the storage
/// worker's socket (a relative path: see the README's storage notes).
fn raw_embedded(server: &Server, key: &str) -> Vec<u8> {
    let out = Command::new("etcdctl")
        .current_dir(server.data_dir.join("run"))
        .env("ETCDCTL_API", "3")
        .args([
            "--endpoints=unix://storage.sock",
            "get",
            key,
            "--print-value-only",
        ])
        .output()
        .expect("run etcdctl");
    assert!(out.status.success(), "{out:?}");
    let mut v = out.stdout;
    if v.last() == Some(&b'\n') {
        v.pop();
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn custom_resources_and_group_wildcards_on_the_embedded_store() {
    if !(require_tool("kubectl") && require_tool("etcdctl")) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("enc.yaml");
    std::fs::write(
        &config,
        format!(
            "apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [widgets.example.com]
    providers: [{{aesgcm: {{keys: [{{name: key2, secret: {KEY2}}}]}}}}]
  - resources: ['*.apps']
    providers: [{{secretbox: {{keys: [{{name: key3, secret: {KEY1}}}]}}}}]
"
        ),
    )
    .expect("write");
    let server = Server::builder()
        .arg(format!("--encryption-provider-config={}", config.display()))
        .start()
        .await;
    let k = Kubectl::new(&server);
    k.ok_stdin(&["apply", "-f", "-"], WIDGET_CRD);
    k.wait_established("widgets.example.com");
    let widget =
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {color: hunter2}\n";
    // kubectl learns the new kind from discovery; poll until it does.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !k.run_stdin(&["apply", "-f", "-"], widget).status.success() {
        assert!(
            std::time::Instant::now() < deadline,
            "the Widget was never created"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    k.ok(&["create", "deployment", "web", "--image=nginx:1.27"]);
    k.ok(&["create", "configmap", "plain", "--from-literal=a=b"]);

    let w = raw_embedded(&server, "/registry/example.com/widgets/default/w1");
    assert!(
        w.starts_with(b"k8s:enc:aesgcm:v1:key2:"),
        "{}",
        String::from_utf8_lossy(&w)
    );
    assert!(!String::from_utf8_lossy(&w).contains("hunter2"));
    let d = raw_embedded(&server, "/registry/deployments/default/web");
    let prefix = b"k8s:enc:secretbox:v1:key3:";
    assert!(d.starts_with(prefix), "{}", String::from_utf8_lossy(&d));
    assert!(
        d.len() > prefix.len() + 24 + 16,
        "nonce and tag after the prefix"
    );
    // The CRD itself, ConfigMaps and Secrets are named by no rule.
    let crd = raw_embedded(
        &server,
        "/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com",
    );
    let crd: serde_json::Value = serde_json::from_slice(&crd)
        .unwrap_or_else(|_| panic!("plain JSON: {}", String::from_utf8_lossy(&crd)));
    assert_eq!(crd["apiVersion"], "apiextensions.k8s.io/v1beta1");
    assert!(raw_embedded(&server, "/registry/configmaps/default/plain").starts_with(b"k8s\0"));

    assert_eq!(
        k.ok(&["get", "widget", "w1", "-o", "jsonpath={.spec.color}"]),
        "hunter2"
    );
    assert_eq!(
        k.ok(&[
            "get",
            "deployment",
            "web",
            "-o",
            "jsonpath={.spec.template.spec.containers[0].image}"
        ]),
        "nginx:1.27"
    );
    // Watches and the watch cache see plain text too: a list at resourceVersion 0 is
    // answered from the cache.
    let r = server
        .get("/apis/apps/v1/namespaces/default/deployments?resourceVersion=0")
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["items"][0]["metadata"]["name"], "web");
}
