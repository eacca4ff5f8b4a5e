//! The storage format (`--storage-media-type`), black box against a real etcd: values
//! kube-apiserver v1.33 wrote (protobuf fixtures made with upstream's generated messages,
//! see `fixtures`) served unchanged; what this server writes is kube-apiserver's `k8s\0`
//! protobuf for built-in kinds, in their storage versions, and JSON for custom
//! resources, readable with upstream's messages; encryption wraps the encoded bytes; JSON
//! values from before read and are rewritten as protobuf by `kubectl replace`; JSON kept
//! when asked; bad flag values refused at start with upstream's words.

use std::process::Command;

use aes::cipher::{block_padding::Pkcs7, BlockDecryptMut, KeyIvInit};
use base64::Engine;
use k8s_pb::api::apps::v1 as apps;
use k8s_pb::api::autoscaling::v2 as hpa;
use k8s_pb::api::core::v1 as core;
use prost::Message;
use serde_json::{json, Value};

use super::harness::etcdctl::{put, raw};
use super::harness::kubectl::Kubectl;
use super::harness::{require_tool, Etcd, Server, BIN};

mod fixtures;
mod repair;
mod takeover;

use fixtures::open_envelope;

fn tools() -> bool {
    require_tool("kubectl") && require_tool("etcd") && require_tool("etcdctl")
}

async fn start(etcd: &Etcd, extra: &[&str]) -> Server {
    start_with(etcd, extra, &[]).await
}

/// A server on `etcd` with `extra` arguments and `env` in its environment.
async fn start_with(etcd: &Etcd, extra: &[&str], env: &[(&str, &str)]) -> Server {
    let mut b = Server::builder().arg(format!("--etcd-servers={}", etcd.url()));
    for a in extra {
        b = b.arg(*a);
    }
    for (k, v) in env {
        b = b.env(*k, *v);
    }
    b.start().await
}

fn get_json(k: &Kubectl, args: &[&str]) -> Value {
    let mut all = vec!["get"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", "json"]);
    serde_json::from_str(&k.ok(&all)).expect("kubectl JSON")
}

fn b64(v: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(v)
}

fn text(v: &[u8]) -> String {
    String::from_utf8_lossy(v).into_owned()
}

fn decoded<M: Message + Default>(raw: &[u8]) -> M {
    M::decode(raw).expect("decodes with upstream's message")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_written_by_kube_apiserver_are_served_unchanged() {
    if !tools() {
        return;
    }
    let mut etcd = Etcd::new();
    etcd.start();
    let server = start(&etcd, &[]).await;
    let k = Kubectl::new(&server);
    k.ok(&["create", "namespace", "fixtures"]);
    put(&etcd, "/registry/secrets/fixtures/db", &fixtures::secret());
    put(
        &etcd,
        "/registry/configmaps/fixtures/settings",
        &fixtures::config_map(),
    );
    put(
        &etcd,
        "/registry/deployments/fixtures/web",
        &fixtures::deployment(),
    );
    put(
        &etcd,
        "/registry/horizontalpodautoscalers/fixtures/web",
        &fixtures::hpa(),
    );

    let s = get_json(&k, &["secret", "db", "-n", "fixtures"]);
    assert_eq!(
        s["data"],
        json!({"password": b64(b"hunter2"), "user": b64(b"admin")})
    );
    assert_eq!(s["type"], "Opaque");
    assert_eq!(s["metadata"]["uid"], fixtures::SECRET_UID);
    assert_eq!(s["metadata"]["creationTimestamp"], fixtures::CREATED_TEXT);
    assert_eq!(s["metadata"]["labels"], json!({"app": "db"}));
    // Go's zero `generation` and empty strings are on the wire, not in the JSON.
    let meta = s["metadata"].as_object().expect("metadata");
    for absent in ["generation", "generateName", "selfLink"] {
        assert!(!meta.contains_key(absent), "{absent} in {s}");
    }
    assert!(meta["resourceVersion"]
        .as_str()
        .is_some_and(|rv| !rv.is_empty()));

    let cm = get_json(&k, &["configmap", "settings", "-n", "fixtures"]);
    assert_eq!(cm["data"], json!({"mode": "fast", "size": "3"}));
    assert_eq!(cm["metadata"]["uid"], fixtures::CONFIGMAP_UID);

    let d = get_json(&k, &["deployment", "web", "-n", "fixtures"]);
    assert_eq!(d["metadata"]["generation"], 1);
    assert_eq!(d["spec"]["replicas"], 2);
    assert_eq!(
        d["spec"]["selector"],
        json!({"matchLabels": {"app": "web"}})
    );
    let c = &d["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(
        (c["name"].as_str(), c["image"].as_str()),
        (Some("nginx"), Some("nginx:1.27"))
    );
    assert_eq!(c["terminationMessagePath"], "/dev/termination-log");
    assert_eq!(
        d["spec"]["strategy"],
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}})
    );
    // A zero metav1.Time (an empty message) is `null`, as kube-apiserver writes it.
    assert_eq!(
        d["spec"]["template"]["metadata"]["creationTimestamp"],
        Value::Null
    );
    assert_eq!(
        d["spec"]["template"]["spec"]["schedulerName"],
        "default-scheduler"
    );
    assert_eq!(d["spec"]["progressDeadlineSeconds"], 600);

    let h = get_json(&k, &["hpa.v2.autoscaling", "web", "-n", "fixtures"]);
    assert_eq!(h["apiVersion"], "autoscaling/v2");
    assert_eq!(h["spec"]["maxReplicas"], 5);
    assert_eq!(h["spec"]["minReplicas"], 1);
    assert_eq!(
        h["spec"]["metrics"][0],
        json!({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 50}}})
    );
    assert_eq!(
        h["spec"]["scaleTargetRef"],
        json!({"kind": "Deployment", "name": "web", "apiVersion": "apps/v1"})
    );
    // The same stored object through autoscaling/v1.
    let h1: Value = serde_json::from_str(&k.ok(&[
        "get",
        "--raw",
        "/apis/autoscaling/v1/namespaces/fixtures/horizontalpodautoscalers/web",
    ]))
    .expect("JSON");
    assert_eq!(h1["spec"]["targetCPUUtilizationPercentage"], 50, "{h1}");

    // LIST (the watch cache saw etcdctl's puts).
    let listed = k.ok(&[
        "get",
        "secrets,configmaps,deployments,hpa",
        "-n",
        "fixtures",
        "-o",
        "name",
    ]);
    for name in [
        "secret/db",
        "configmap/settings",
        "deployment.apps/web",
        "horizontalpodautoscaler.autoscaling/web",
    ] {
        assert!(listed.contains(name), "{name} missing from {listed}");
    }

    // An unchanged replace of a value in the current format writes nothing.
    let before = cm["metadata"]["resourceVersion"].clone();
    let body = k.ok(&[
        "get",
        "configmap",
        "settings",
        "-n",
        "fixtures",
        "-o",
        "json",
    ]);
    k.ok_stdin(&["replace", "-f", "-"], &body);
    let after = get_json(&k, &["configmap", "settings", "-n", "fixtures"]);
    assert_eq!(
        after["metadata"]["resourceVersion"], before,
        "a no-op replace wrote"
    );
    assert_eq!(
        raw(&etcd, "/registry/configmaps/fixtures/settings"),
        fixtures::config_map(),
        "the fixture's bytes are untouched"
    );

    // A change is written back as protobuf that upstream's messages read.
    k.ok(&["label", "secret", "db", "-n", "fixtures", "tier=backend"]);
    let (av, kind, body) = open_envelope(&raw(&etcd, "/registry/secrets/fixtures/db"));
    assert_eq!((av.as_str(), kind.as_str()), ("v1", "Secret"));
    let secret: core::Secret = decoded(&body);
    let meta = secret.metadata.expect("metadata");
    assert_eq!(meta.labels.get("tier").map(String::as_str), Some("backend"));
    assert_eq!(meta.uid.as_deref(), Some(fixtures::SECRET_UID));
    assert_eq!(
        secret.data.get("password").map(Vec::as_slice),
        Some(&b"hunter2"[..])
    );
}

const CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
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
          properties:
            spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
"#;

const HPA_V1: &str = r#"
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 4
  targetCPUUtilizationPercentage: 70
"#;

const EVENT_V1: &str = r#"
apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: web.1, namespace: default}
eventTime: "2026-11-25T10:00:00.000000Z"
reportingController: example.com/ctl
reportingInstance: ctl-1
action: Scale
reason: Scaled
note: scaled to 2
type: Normal
regarding: {apiVersion: apps/v1, kind: Deployment, name: web, namespace: default}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn objects_written_here_are_in_upstreams_formats_and_storage_versions() {
    if !tools() {
        return;
    }
    let mut etcd = Etcd::new();
    etcd.start();
    let server = start(&etcd, &[]).await;
    let k = Kubectl::new(&server);
    k.ok(&[
        "create",
        "secret",
        "generic",
        "s1",
        "--from-literal=password=hunter2",
    ]);
    k.ok(&["create", "configmap", "c1", "--from-literal=a=1"]);
    k.ok(&[
        "create",
        "deployment",
        "web",
        "--image=nginx:1.27",
        "--replicas=2",
    ]);
    k.ok_stdin(&["create", "-f", "-"], HPA_V1);
    k.ok_stdin(&["create", "-f", "-"], EVENT_V1);

    let (av, kind, body) = open_envelope(&raw(&etcd, "/registry/secrets/default/s1"));
    assert_eq!((av.as_str(), kind.as_str()), ("v1", "Secret"));
    let secret: core::Secret = decoded(&body);
    let served = get_json(&k, &["secret", "s1"]);
    let meta = secret.metadata.clone().expect("metadata");
    assert_eq!(meta.uid.as_deref(), served["metadata"]["uid"].as_str());
    assert_eq!(meta.name.as_deref(), Some("s1"));
    assert_eq!(
        secret.data.get("password").map(Vec::as_slice),
        Some(&b"hunter2"[..])
    );
    assert_eq!(secret.r#type.as_deref(), Some("Opaque"));
    assert!(meta.creation_timestamp.and_then(|t| t.seconds).unwrap_or(0) > 0);
    // resourceVersion is etcd's revision, never stored.
    assert!(meta.resource_version.unwrap_or_default().is_empty());

    let (_, kind, body) = open_envelope(&raw(&etcd, "/registry/configmaps/default/c1"));
    assert_eq!(kind, "ConfigMap");
    let cm: core::ConfigMap = decoded(&body);
    assert_eq!(cm.data.get("a").map(String::as_str), Some("1"));

    let (av, kind, body) = open_envelope(&raw(&etcd, "/registry/deployments/default/web"));
    assert_eq!((av.as_str(), kind.as_str()), ("apps/v1", "Deployment"));
    let d: apps::Deployment = decoded(&body);
    let spec = d.spec.expect("spec");
    assert_eq!(spec.replicas, Some(2));
    let pod = spec.template.and_then(|t| t.spec).expect("pod spec");
    assert_eq!(pod.containers[0].image.as_deref(), Some("nginx:1.27"));
    let served = get_json(&k, &["deployment", "web"]);
    assert_eq!(
        spec.revision_history_limit.map(Value::from),
        Some(served["spec"]["revisionHistoryLimit"].clone())
    );

    // Created as autoscaling/v1, stored in the storage version autoscaling/v2.
    let (av, kind, body) = open_envelope(&raw(
        &etcd,
        "/registry/horizontalpodautoscalers/default/web",
    ));
    assert_eq!(
        (av.as_str(), kind.as_str()),
        ("autoscaling/v2", "HorizontalPodAutoscaler")
    );
    let h: hpa::HorizontalPodAutoscaler = decoded(&body);
    let spec = h.spec.expect("spec");
    assert_eq!(spec.max_replicas, Some(4));
    let target = spec.metrics[0]
        .resource
        .as_ref()
        .and_then(|r| r.target.as_ref())
        .expect("cpu target");
    assert_eq!(target.average_utilization, Some(70));

    // events.k8s.io/v1 Events are core/v1 Events in etcd, under /registry/events.
    let (av, kind, body) = open_envelope(&raw(&etcd, "/registry/events/default/web.1"));
    assert_eq!((av.as_str(), kind.as_str()), ("v1", "Event"));
    let ev: core::Event = decoded(&body);
    assert_eq!(ev.reason.as_deref(), Some("Scaled"));
    assert_eq!(ev.message.as_deref(), Some("scaled to 2"));
    assert_eq!(ev.reporting_component.as_deref(), Some("example.com/ctl"));

    // IPAddresses (here the `kubernetes` Service's, the allocator's) are stored as
    // networking.k8s.io/v1beta1, as 1.33 stores them, and served as v1.
    let ips = get_json(&k, &["ipaddresses"]);
    let ip = &ips["items"][0];
    assert_eq!(ip["apiVersion"], "networking.k8s.io/v1");
    let name = ip["metadata"]["name"].as_str().expect("an IPAddress");
    let (av, kind, _) = open_envelope(&raw(&etcd, &format!("/registry/ipaddresses/{name}")));
    assert_eq!(
        (av.as_str(), kind.as_str()),
        ("networking.k8s.io/v1beta1", "IPAddress")
    );

    // The CRD is JSON in its storage version, v1beta1, as upstream's apiextensions server
    // writes it; its custom resources are JSON too.
    k.ok_stdin(&["create", "-f", "-"], CRD);
    let crd = raw(
        &etcd,
        "/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com",
    );
    let crd: Value =
        serde_json::from_slice(&crd).unwrap_or_else(|_| panic!("JSON: {}", text(&crd)));
    assert_eq!(
        (crd["apiVersion"].as_str(), crd["spec"]["version"].as_str()),
        (Some("apiextensions.k8s.io/v1beta1"), Some("v1"))
    );
    k.wait_established("widgets.example.com");
    k.ok_stdin(
        &["create", "-f", "-"],
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\nspec: {size: 3}\n",
    );
    let w = raw(&etcd, "/registry/example.com/widgets/default/w1");
    let w: Value = serde_json::from_slice(&w).unwrap_or_else(|_| panic!("JSON: {}", text(&w)));
    assert_eq!(
        (w["apiVersion"].as_str(), w["spec"]["size"].as_i64()),
        (Some("example.com/v1"), Some(3))
    );
    // APIServices are JSON too (the aggregator's own, registered at start).
    let svc = raw(
        &etcd,
        "/registry/apiregistration.k8s.io/apiservices/v1.apps",
    );
    let svc: Value =
        serde_json::from_slice(&svc).unwrap_or_else(|_| panic!("JSON: {}", text(&svc)));
    assert_eq!(svc["kind"], "APIService");
}

/// Key bytes 00..1f, base64 in the configuration.
const KEY: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn encryption_wraps_the_protobuf_value() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("enc.yaml");
    std::fs::write(
        &config,
        format!(
            "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n      - aescbc:\n          keys: [{{name: key1, secret: {KEY}}}]\n"
        ),
    )
    .expect("write config");
    let mut etcd = Etcd::new();
    etcd.start();
    let enc = format!("--encryption-provider-config={}", config.display());
    let server = start(&etcd, &[&enc]).await;
    let k = Kubectl::new(&server);
    k.ok(&[
        "create",
        "secret",
        "generic",
        "s1",
        "--from-literal=password=hunter2",
    ]);
    let stored = raw(&etcd, "/registry/secrets/default/s1");
    let prefix = b"k8s:enc:aescbc:v1:key1:";
    let sealed = stored
        .strip_prefix(&prefix[..])
        .unwrap_or_else(|| panic!("not aescbc: {}", text(&stored)));
    // Upstream's aescbc layout: IV, then AES-CBC with PKCS#7 padding.
    let key = base64::engine::general_purpose::STANDARD
        .decode(KEY)
        .expect("key");
    let (iv, ciphertext) = sealed.split_at(16);
    let plain = cbc::Decryptor::<aes::Aes256>::new(key.as_slice().into(), iv.into())
        .decrypt_padded_vec_mut::<Pkcs7>(ciphertext)
        .expect("decrypts with the known key");
    let (av, kind, body) = open_envelope(&plain);
    assert_eq!((av.as_str(), kind.as_str()), ("v1", "Secret"));
    let secret: core::Secret = decoded(&body);
    assert_eq!(
        secret.data.get("password").map(Vec::as_slice),
        Some(&b"hunter2"[..])
    );
    let served = get_json(&k, &["secret", "s1"]);
    assert_eq!(served["data"]["password"], b64(b"hunter2"));
}

fn without_nulls(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), without_nulls(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

/// `kubectl get <kinds> -A -o json | kubectl replace -f -`: the documented migration.
fn rewrite_all(k: &Kubectl, kinds: &str) {
    let all = k.ok(&["get", kinds, "-A", "-o", "json"]);
    k.ok_stdin(&["replace", "-f", "-"], &all);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_values_read_and_replace_migrates_them_to_protobuf() {
    if !tools() {
        return;
    }
    let mut etcd = Etcd::new();
    etcd.start();

    // As this server wrote before it had a codec, and as asked with the flag: JSON.
    let server = start(&etcd, &["--storage-media-type=application/json"]).await;
    let k = Kubectl::new(&server);
    k.ok(&[
        "create",
        "secret",
        "generic",
        "s1",
        "--from-literal=password=hunter2",
    ]);
    k.ok(&["create", "configmap", "c1", "--from-literal=a=1"]);
    k.ok(&["create", "deployment", "web", "--image=nginx:1.27"]);
    k.ok_stdin(&["create", "-f", "-"], HPA_V1);
    let keys = [
        "/registry/secrets/default/s1",
        "/registry/configmaps/default/c1",
        "/registry/deployments/default/web",
        "/registry/horizontalpodautoscalers/default/web",
    ];
    for key in keys {
        let v = raw(&etcd, key);
        assert!(v.starts_with(b"{"), "{key}: {}", text(&v));
    }
    let hpa_json: Value = serde_json::from_slice(&raw(&etcd, keys[3])).expect("JSON");
    assert_eq!(
        hpa_json["apiVersion"], "autoscaling/v2",
        "JSON is in the storage version too"
    );
    let before: Vec<Value> = ["secret/s1", "configmap/c1", "deployment/web", "hpa/web"]
        .iter()
        .map(|o| get_json(&k, &[o]))
        .collect();
    drop(k);
    drop(server);

    // The default (protobuf) server reads them as they are.
    let server = start(&etcd, &[]).await;
    let k = Kubectl::new(&server);
    let read: Vec<Value> = ["secret/s1", "configmap/c1", "deployment/web", "hpa/web"]
        .iter()
        .map(|o| get_json(&k, &[o]))
        .collect();
    assert_eq!(read, before, "JSON values are served as before");
    for key in keys {
        assert!(raw(&etcd, key).starts_with(b"{"), "reading rewrote {key}");
    }
    // New writes are protobuf.
    k.ok(&["create", "configmap", "c2", "--from-literal=b=2"]);
    assert!(raw(&etcd, "/registry/configmaps/default/c2").starts_with(b"k8s\0"));

    // Unchanged objects in another format are stale: replace rewrites them.
    rewrite_all(&k, "secrets,configmaps,deployments,hpa");
    for key in keys {
        let v = raw(&etcd, key);
        assert!(v.starts_with(b"k8s\0"), "{key} not migrated: {}", text(&v));
    }
    let (av, _, body) = open_envelope(&raw(&etcd, keys[3]));
    assert_eq!(av, "autoscaling/v2");
    let h: hpa::HorizontalPodAutoscaler = decoded(&body);
    assert_eq!(h.spec.and_then(|s| s.max_replicas), Some(4));
    let after: Vec<Value> = ["secret/s1", "configmap/c1", "deployment/web", "hpa/web"]
        .iter()
        .map(|o| get_json(&k, &[o]))
        .collect();
    for (b, a) in before.iter().zip(&after) {
        // Go's zero fields (`"currentMetrics": null`) appear once an object has been
        // through the protobuf codec, as kube-apiserver serves them; nothing else moves.
        let strip = |v: &Value| {
            let mut v = without_nulls(v);
            if let Some(m) = v["metadata"].as_object_mut() {
                m.remove("resourceVersion");
                m.remove("managedFields");
            }
            v
        };
        assert_eq!(strip(a), strip(b), "migration changed the object");
        assert_ne!(
            a["metadata"]["resourceVersion"],
            b["metadata"]["resourceVersion"]
        );
    }
    // Migrated: a second pass writes nothing.
    rewrite_all(&k, "secrets,configmaps,deployments,hpa");
    let again: Vec<Value> = ["secret/s1", "configmap/c1", "deployment/web", "hpa/web"]
        .iter()
        .map(|o| get_json(&k, &[o]))
        .collect();
    for (a, b) in after.iter().zip(&again) {
        assert_eq!(
            a["metadata"]["resourceVersion"], b["metadata"]["resourceVersion"],
            "{b}"
        );
    }
    drop(k);
    drop(server);

    // Back to JSON: protobuf values read, and replace turns them into JSON.
    let server = start(&etcd, &["--storage-media-type=application/json"]).await;
    let k = Kubectl::new(&server);
    assert_eq!(
        get_json(&k, &["secret", "s1"])["data"]["password"],
        b64(b"hunter2")
    );
    rewrite_all(&k, "secrets");
    assert!(raw(&etcd, keys[0]).starts_with(b"{"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn yaml_media_type_stores_yaml_and_custom_resources_stay_json() {
    if !tools() {
        return;
    }
    let mut etcd = Etcd::new();
    etcd.start();
    let server = start(
        &etcd,
        &[
            "--storage-media-type=application/yaml",
            "--storage-backend=etcd3",
        ],
    )
    .await;
    let k = Kubectl::new(&server);
    k.ok(&["create", "configmap", "c1", "--from-literal=a=1"]);
    let v = text(&raw(&etcd, "/registry/configmaps/default/c1"));
    assert!(
        v.contains("kind: ConfigMap\n") && !v.starts_with('{'),
        "{v}"
    );
    assert_eq!(
        get_json(&k, &["configmap", "c1"])["data"],
        json!({"a": "1"})
    );
    k.ok_stdin(&["create", "-f", "-"], CRD);
    k.wait_established("widgets.example.com");
    k.ok_stdin(
        &["create", "-f", "-"],
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\nspec: {size: 3}\n",
    );
    assert!(raw(&etcd, "/registry/example.com/widgets/default/w1").starts_with(b"{"));
}

#[test]
fn bad_storage_flags_refuse_to_start_with_upstream_messages() {
    let out = Command::new(BIN)
        .args(["--storage-media-type=text/plain", "--storage-backend=etcd2"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(64), "{out:?}");
    let stderr = text(&out.stderr);
    for want in [
        "--storage-media-type \"text/plain\" invalid, allowed values: application/json, application/vnd.kubernetes.protobuf, application/yaml",
        "--storage-backend invalid, allowed values: etcd3. If not specified, it will default to 'etcd3'",
    ] {
        assert!(stderr.contains(want), "missing {want:?} in:\n{stderr}");
    }
}
