use serde_json::{json, Value};

use super::*;

fn codec(media: StorageMediaType) -> Codec {
    Codec::new("/registry", media)
}

fn config_map() -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": "cm",
            "namespace": "ns",
            "uid": "6a1b2c3d-0000-4000-8000-000000000001",
            "creationTimestamp": "2026-11-25T10:00:00Z",
            "labels": {"app": "web"}
        },
        "data": {"a": "1", "b": ""}
    })
}

fn decoded(c: &Codec, key: &str, stored: Vec<u8>) -> (Value, bool) {
    let d = c.decode(key, stored).expect("decodes");
    (serde_json::from_slice(&d.json).expect("JSON"), d.stale)
}

const CM_KEY: &str = "/registry/configmaps/ns/cm";
const CR_KEY: &str = "/registry/example.com/widgets/ns/w";

#[test]
fn built_in_kinds_are_stored_as_protobuf_and_read_back_as_written() {
    let c = codec(StorageMediaType::Protobuf);
    let bytes = c.encode_object(CM_KEY, &config_map()).expect("encodes");
    assert!(bytes.starts_with(PROTOBUF_MAGIC));
    // The same bytes whether the caller hands over the object or its JSON.
    let from_json = c
        .encode(CM_KEY, serde_json::to_vec(&config_map()).expect("json"))
        .expect("encodes");
    assert_eq!(from_json, bytes);
    // Already encoded: passes untouched.
    assert_eq!(c.encode(CM_KEY, bytes.clone()).expect("passes"), bytes);
    let (back, stale) = decoded(&c, CM_KEY, bytes);
    assert_eq!(back, config_map());
    assert!(!stale);
}

#[test]
fn zero_fields_are_filled_on_read_as_writes_fill_them() {
    let c = codec(StorageMediaType::Protobuf);
    let role = json!({
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {"name": "r", "creationTimestamp": null}
    });
    let mut written = role.clone();
    let def = kind_def_for_api_version("rbac.authorization.k8s.io/v1", "ClusterRole").expect("def");
    fill_zero_fields(def, &mut written);
    let bytes = c
        .encode_object("/registry/clusterroles/r", &written)
        .expect("encodes");
    let (back, _) = decoded(&c, "/registry/clusterroles/r", bytes);
    assert_eq!(back, written);
    assert_eq!(back["rules"], Value::Null);
    assert!(back.get("rules").is_some(), "{back}");
}

#[test]
fn custom_resources_and_unknown_kinds_stay_json() {
    let c = codec(StorageMediaType::Protobuf);
    let cr = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}});
    let bytes = serde_json::to_vec(&cr).expect("json");
    assert_eq!(c.encode(CR_KEY, bytes.clone()).expect("passes"), bytes);
    assert_eq!(c.encode_object(CR_KEY, &cr).expect("json"), bytes);
    let (back, stale) = decoded(&c, CR_KEY, bytes);
    assert_eq!((back, stale), (cr, false));
    // A built-in kind name under a custom resource's key is still a custom resource.
    let cm = serde_json::to_vec(&config_map()).expect("json");
    assert_eq!(
        c.encode("/registry/example.com/configmaps/ns/cm", cm.clone())
            .expect("passes"),
        cm
    );
    // A kind the schema table lacks, under a built-in key.
    let odd = br#"{"apiVersion":"v9","kind":"Nope"}"#.to_vec();
    assert_eq!(c.encode(CM_KEY, odd.clone()).expect("passes"), odd);
    assert!(!c.decode(CM_KEY, odd).expect("reads").stale);
}

#[test]
fn crds_and_apiservices_are_json_as_upstream_stores_them() {
    for media in [StorageMediaType::Protobuf, StorageMediaType::Yaml] {
        let c = codec(media);
        let crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"}
        });
        let key = "/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com";
        let stored = c.encode_object(key, &crd).expect("encodes");
        assert_eq!(serde_json::from_slice::<Value>(&stored).expect("JSON"), crd);
        let svc = json!({
            "apiVersion": "apiregistration.k8s.io/v1",
            "kind": "APIService",
            "metadata": {"name": "v1.example.com"}
        });
        let key = "/registry/apiregistration.k8s.io/apiservices/v1.example.com";
        let stored = c.encode_object(key, &svc).expect("encodes");
        assert_eq!(serde_json::from_slice::<Value>(&stored).expect("JSON"), svc);
        // What an earlier store of this server wrote in protobuf reads, and is stale.
        let old = encode_protobuf(&svc).expect("protobuf");
        let read = c.decode(key, old).expect("reads");
        assert!(read.stale);
        let read: Value = serde_json::from_slice(&read.json).expect("JSON");
        assert_eq!(read["metadata"]["name"], "v1.example.com");
    }
}

#[test]
fn a_value_in_another_format_is_stale() {
    let json_bytes = serde_json::to_vec(&config_map()).expect("json");
    let proto = codec(StorageMediaType::Protobuf);
    let as_json = codec(StorageMediaType::Json);
    // JSON written before the codec, read by a protobuf server: stale, same object.
    let (back, stale) = decoded(&proto, CM_KEY, json_bytes.clone());
    assert_eq!((back, stale), (config_map(), true));
    // Protobuf read by a JSON server: stale too.
    let pb = proto.encode_object(CM_KEY, &config_map()).expect("encodes");
    let (back, stale) = decoded(&as_json, CM_KEY, pb);
    assert_eq!((back, stale), (config_map(), true));
    // JSON under JSON: not stale, and bytes untouched.
    let d = as_json.decode(CM_KEY, json_bytes.clone()).expect("reads");
    assert_eq!((d.json, d.stale), (json_bytes.clone(), false));
    assert_eq!(
        as_json.encode(CM_KEY, json_bytes.clone()).expect("passes"),
        json_bytes
    );
}

#[test]
fn yaml_is_written_and_read() {
    let c = codec(StorageMediaType::Yaml);
    let bytes = c.encode_object(CM_KEY, &config_map()).expect("encodes");
    let text = String::from_utf8(bytes.clone()).expect("text");
    assert!(text.contains("kind: ConfigMap"), "{text}");
    let (back, stale) = decoded(&c, CM_KEY, bytes.clone());
    assert_eq!((back, stale), (config_map(), false));
    // A protobuf server reads it too, as stale.
    let (back, stale) = decoded(&codec(StorageMediaType::Protobuf), CM_KEY, bytes);
    assert_eq!((back, stale), (config_map(), true));
}

#[test]
fn values_that_are_not_objects_pass_through() {
    let c = codec(StorageMediaType::Protobuf);
    for raw in [&b"ns/owner"[..], b"", b"42", b"[1,2]", b"\x00\x01binary"] {
        assert_eq!(c.encode(CM_KEY, raw.to_vec()).expect("passes"), raw);
        let d = c.decode(CM_KEY, raw.to_vec()).expect("reads");
        assert_eq!((d.json.as_slice(), d.stale), (raw, false));
    }
}

#[test]
fn broken_protobuf_is_an_error_not_a_panic() {
    let c = codec(StorageMediaType::Protobuf);
    let mut bytes = c.encode_object(CM_KEY, &config_map()).expect("encodes");
    bytes.truncate(bytes.len() - 7);
    assert!(c.decode(CM_KEY, bytes).is_err());
    let mut unknown = PROTOBUF_MAGIC.to_vec();
    unknown.extend_from_slice(&[0x0a, 0x08, 0x0a, 0x02, b'v', b'9', 0x12, 0x02, b'N', b'o']);
    let e = c.decode(CM_KEY, unknown).expect_err("unknown kind");
    assert!(e.contains("v9"), "{e}");
}

/// A Deployment as the REST store writes it after defaulting (about 2 KB of JSON).
fn deployment() -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": "web", "namespace": "default", "generation": 1,
            "uid": "6a1b2c3d-0000-4000-8000-000000000002",
            "creationTimestamp": "2026-11-25T10:00:00Z",
            "labels": {"app": "web"},
            "annotations": {"deployment.kubernetes.io/revision": "1"},
            "managedFields": [{
                "manager": "kubectl-create", "operation": "Update", "apiVersion": "apps/v1",
                "time": "2026-11-25T10:00:00Z", "fieldsType": "FieldsV1",
                "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}},
                             "f:spec": {"f:replicas": {}, "f:selector": {}}}
            }]
        },
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"creationTimestamp": null, "labels": {"app": "web"}},
                "spec": {
                    "containers": [{
                        "name": "nginx", "image": "nginx:1.27",
                        "ports": [{"containerPort": 80, "protocol": "TCP"}],
                        "env": [{"name": "MODE", "value": "fast"}],
                        "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}},
                        "terminationMessagePath": "/dev/termination-log",
                        "terminationMessagePolicy": "File",
                        "imagePullPolicy": "IfNotPresent"
                    }],
                    "restartPolicy": "Always", "terminationGracePeriodSeconds": 30,
                    "dnsPolicy": "ClusterFirst", "securityContext": {},
                    "schedulerName": "default-scheduler"
                }
            },
            "strategy": {"type": "RollingUpdate",
                         "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
            "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600
        },
        "status": {
            "observedGeneration": 1, "replicas": 2, "updatedReplicas": 2,
            "readyReplicas": 2, "availableReplicas": 2,
            "conditions": [{"type": "Available", "status": "True",
                            "lastUpdateTime": "2026-11-25T10:00:05Z",
                            "lastTransitionTime": "2026-11-25T10:00:05Z",
                            "reason": "MinimumReplicasAvailable",
                            "message": "Deployment has minimum availability."}]
        }
    })
}

#[test]
fn a_defaulted_deployment_reads_back_as_written() {
    let c = codec(StorageMediaType::Protobuf);
    let key = "/registry/deployments/default/web";
    let mut written = deployment();
    let def = kind_def_for_api_version("apps/v1", "Deployment").expect("def");
    fill_zero_fields(def, &mut written);
    let bytes = c.encode_object(key, &written).expect("encodes");
    let (back, stale) = decoded(&c, key, bytes);
    assert_eq!(back, written);
    assert!(!stale);
}

/// The codec's cost per object, against what storage does without it (serialize on
/// write, nothing on read). Run: `cargo test --release -p kas-server --lib
/// storage::codec::tests::cost -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn cost() {
    use std::hint::black_box;
    use std::time::Instant;
    let key = "/registry/deployments/default/web";
    let proto = codec(StorageMediaType::Protobuf);
    let as_json = codec(StorageMediaType::Json);
    let mut obj = deployment();
    let def = kind_def_for_api_version("apps/v1", "Deployment").expect("def");
    fill_zero_fields(def, &mut obj);
    let json_bytes = serde_json::to_vec(&obj).expect("json");
    let pb_bytes = proto.encode_object(key, &obj).expect("pb");
    const N: u32 = 20_000;
    let time = |name: &str, f: &dyn Fn()| {
        for _ in 0..N / 10 {
            f();
        }
        let start = Instant::now();
        for _ in 0..N {
            f();
        }
        let per = start.elapsed() / N;
        println!("{name:<48} {:>8.2} µs", per.as_secs_f64() * 1e6);
    };
    println!(
        "Deployment: {} bytes JSON, {} bytes protobuf",
        json_bytes.len(),
        pb_bytes.len()
    );
    time("write, JSON media (serde_json::to_vec)", &|| {
        black_box(as_json.encode_object(key, black_box(&obj)).expect("json"));
    });
    time("write, protobuf (encode_object from the Value)", &|| {
        black_box(proto.encode_object(key, black_box(&obj)).expect("pb"));
    });
    time("write, protobuf from JSON bytes (parse + encode)", &|| {
        black_box(
            proto
                .encode(key, black_box(json_bytes.clone()))
                .expect("pb"),
        );
    });
    time("read, JSON media (pass through)", &|| {
        black_box(
            as_json
                .decode(key, black_box(json_bytes.clone()))
                .expect("json"),
        );
    });
    time("read, JSON value under protobuf (stale check)", &|| {
        black_box(
            proto
                .decode(key, black_box(json_bytes.clone()))
                .expect("json"),
        );
    });
    time("read, protobuf (decode + zero fields + to JSON)", &|| {
        black_box(proto.decode(key, black_box(pb_bytes.clone())).expect("pb"));
    });
    time(
        "for scale: the REST layer's JSON parse (from_slice)",
        &|| {
            black_box(serde_json::from_slice::<Value>(black_box(&json_bytes)).expect("parse"));
        },
    );
}
