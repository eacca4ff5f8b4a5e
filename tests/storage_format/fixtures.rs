//! Values as kube-apiserver v1.33 stores them in etcd, built here with upstream's generated
//! messages (the `k8s-pb` crate, prost structs generated from kubernetes' `generated.proto`
//! files), not with this server's codec.
//!
//! Origin of the layout: `k8s.io/apimachinery/pkg/runtime/serializer/protobuf` writes the
//! four bytes `k8s\0`, then a `runtime.Unknown` {typeMeta {apiVersion, kind}, raw,
//! contentEncoding "", contentType ""}; `raw` is the object's gogo-protobuf `Marshal`,
//! which writes every non-pointer field — empty strings, zero numbers, `false`, and a zero
//! `metav1.Time` as an empty message — and leaves out only nil pointers, nil slices and
//! nil maps. The storage layer clears `resourceVersion` (and `selfLink`) before encoding,
//! so both are written empty. Each field below that Go would write is set, so prost writes
//! the same bytes (fields in tag order; maps sorted by key, as both write them).

use k8s_pb::api::apps::v1 as apps;
use k8s_pb::api::autoscaling::v2 as hpa;
use k8s_pb::api::core::v1 as core;
use k8s_pb::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_pb::apimachinery::pkg::runtime::{TypeMeta, Unknown};
use k8s_pb::apimachinery::pkg::util::intstr::IntOrString;
use prost::Message;

/// 2026-11-25T10:00:00Z.
pub(super) const CREATED: i64 = 1_795_600_800;
pub(super) const CREATED_TEXT: &str = "2026-11-25T10:00:00Z";

fn s(v: &str) -> Option<String> {
    Some(v.to_owned())
}

/// `k8s\0` + `runtime.Unknown`, as upstream's protobuf serializer frames an object.
pub(super) fn envelope(api_version: &str, kind: &str, raw: Vec<u8>) -> Vec<u8> {
    let unknown = Unknown {
        type_meta: Some(TypeMeta {
            api_version: s(api_version),
            kind: s(kind),
        }),
        raw: Some(raw),
        content_encoding: s(""),
        content_type: s(""),
    };
    let mut out = b"k8s\0".to_vec();
    out.extend(unknown.encode_to_vec());
    out
}

/// The envelope of a stored value: (apiVersion, kind, raw).
pub(super) fn open_envelope(value: &[u8]) -> (String, String, Vec<u8>) {
    let body = value
        .strip_prefix(b"k8s\0")
        .unwrap_or_else(|| panic!("no k8s\\0 magic: {}", String::from_utf8_lossy(value)));
    let u = Unknown::decode(body).expect("runtime.Unknown");
    let tm = u.type_meta.unwrap_or_default();
    (
        tm.api_version.unwrap_or_default(),
        tm.kind.unwrap_or_default(),
        u.raw.unwrap_or_default(),
    )
}

fn time(seconds: i64) -> Option<meta::Time> {
    Some(meta::Time {
        seconds: Some(seconds),
        nanos: Some(0),
    })
}

/// ObjectMeta as Go writes it after the storage layer cleared resourceVersion.
fn object_meta(ns: &str, name: &str, uid: &str, labels: &[(&str, &str)]) -> meta::ObjectMeta {
    meta::ObjectMeta {
        name: s(name),
        generate_name: s(""),
        namespace: s(ns),
        self_link: s(""),
        uid: s(uid),
        resource_version: s(""),
        generation: Some(0),
        creation_timestamp: time(CREATED),
        labels: labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Default::default()
    }
}

pub(super) const SECRET_UID: &str = "5b1c7e36-2f59-4c8a-9d1e-000000000001";
pub(super) const CONFIGMAP_UID: &str = "5b1c7e36-2f59-4c8a-9d1e-000000000002";
pub(super) const DEPLOYMENT_UID: &str = "5b1c7e36-2f59-4c8a-9d1e-000000000003";
pub(super) const HPA_UID: &str = "5b1c7e36-2f59-4c8a-9d1e-000000000004";

/// /registry/secrets/fixtures/db: an Opaque Secret with two keys.
pub(super) fn secret() -> Vec<u8> {
    let secret = core::Secret {
        metadata: Some(object_meta("fixtures", "db", SECRET_UID, &[("app", "db")])),
        data: [
            ("password".to_owned(), b"hunter2".to_vec()),
            ("user".to_owned(), b"admin".to_vec()),
        ]
        .into(),
        r#type: s("Opaque"),
        ..Default::default()
    };
    envelope("v1", "Secret", secret.encode_to_vec())
}

/// /registry/configmaps/fixtures/settings.
pub(super) fn config_map() -> Vec<u8> {
    let cm = core::ConfigMap {
        metadata: Some(object_meta("fixtures", "settings", CONFIGMAP_UID, &[])),
        data: [
            ("mode".to_owned(), "fast".to_owned()),
            ("size".to_owned(), "3".to_owned()),
        ]
        .into(),
        ..Default::default()
    };
    envelope("v1", "ConfigMap", cm.encode_to_vec())
}

/// /registry/deployments/fixtures/web: `kubectl create deployment web --image=nginx:1.27
/// --replicas=2` after upstream's defaulting, never rolled out (status all zero).
pub(super) fn deployment() -> Vec<u8> {
    let labels: std::collections::BTreeMap<String, String> =
        [("app".to_owned(), "web".to_owned())].into();
    let container = core::Container {
        name: s("nginx"),
        image: s("nginx:1.27"),
        working_dir: s(""),
        resources: Some(core::ResourceRequirements::default()),
        termination_message_path: s("/dev/termination-log"),
        image_pull_policy: s("IfNotPresent"),
        stdin: Some(false),
        stdin_once: Some(false),
        tty: Some(false),
        termination_message_policy: s("File"),
        ..Default::default()
    };
    let pod_spec = core::PodSpec {
        containers: vec![container],
        restart_policy: s("Always"),
        termination_grace_period_seconds: Some(30),
        dns_policy: s("ClusterFirst"),
        service_account_name: s(""),
        service_account: s(""),
        node_name: s(""),
        host_network: Some(false),
        host_pid: Some(false),
        host_ipc: Some(false),
        security_context: Some(core::PodSecurityContext::default()),
        hostname: s(""),
        subdomain: s(""),
        scheduler_name: s("default-scheduler"),
        priority_class_name: s(""),
        ..Default::default()
    };
    let quarter = || {
        Some(IntOrString {
            r#type: Some(1),
            int_val: Some(0),
            str_val: s("25%"),
        })
    };
    let d = apps::Deployment {
        metadata: Some(meta::ObjectMeta {
            generation: Some(1),
            ..object_meta("fixtures", "web", DEPLOYMENT_UID, &[("app", "web")])
        }),
        spec: Some(apps::DeploymentSpec {
            replicas: Some(2),
            selector: Some(meta::LabelSelector {
                match_labels: labels.clone(),
                ..Default::default()
            }),
            template: Some(core::PodTemplateSpec {
                metadata: Some(meta::ObjectMeta {
                    name: s(""),
                    generate_name: s(""),
                    namespace: s(""),
                    self_link: s(""),
                    uid: s(""),
                    resource_version: s(""),
                    generation: Some(0),
                    // A zero metav1.Time: an empty message.
                    creation_timestamp: Some(meta::Time::default()),
                    labels,
                    ..Default::default()
                }),
                spec: Some(pod_spec),
            }),
            strategy: Some(apps::DeploymentStrategy {
                r#type: s("RollingUpdate"),
                rolling_update: Some(apps::RollingUpdateDeployment {
                    max_unavailable: quarter(),
                    max_surge: quarter(),
                }),
            }),
            min_ready_seconds: Some(0),
            revision_history_limit: Some(10),
            paused: Some(false),
            progress_deadline_seconds: Some(600),
        }),
        status: Some(apps::DeploymentStatus {
            observed_generation: Some(0),
            replicas: Some(0),
            updated_replicas: Some(0),
            available_replicas: Some(0),
            unavailable_replicas: Some(0),
            ready_replicas: Some(0),
            ..Default::default()
        }),
    };
    envelope("apps/v1", "Deployment", d.encode_to_vec())
}

/// /registry/horizontalpodautoscalers/fixtures/web: stored as autoscaling/v2 (the storage
/// version) whatever version it was created in; 50% CPU, 1 to 5 replicas.
pub(super) fn hpa() -> Vec<u8> {
    let h = hpa::HorizontalPodAutoscaler {
        metadata: Some(object_meta("fixtures", "web", HPA_UID, &[])),
        spec: Some(hpa::HorizontalPodAutoscalerSpec {
            scale_target_ref: Some(hpa::CrossVersionObjectReference {
                kind: s("Deployment"),
                name: s("web"),
                api_version: s("apps/v1"),
            }),
            min_replicas: Some(1),
            max_replicas: Some(5),
            metrics: vec![hpa::MetricSpec {
                r#type: s("Resource"),
                resource: Some(hpa::ResourceMetricSource {
                    name: s("cpu"),
                    target: Some(hpa::MetricTarget {
                        r#type: s("Utilization"),
                        average_utilization: Some(50),
                        ..Default::default()
                    }),
                }),
                ..Default::default()
            }],
            behavior: None,
        }),
        status: Some(hpa::HorizontalPodAutoscalerStatus {
            current_replicas: Some(0),
            desired_replicas: Some(0),
            ..Default::default()
        }),
    };
    envelope(
        "autoscaling/v2",
        "HorizontalPodAutoscaler",
        h.encode_to_vec(),
    )
}
