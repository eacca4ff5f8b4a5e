//! Exact bytes of the encoder against what prost writes for the same objects built with
//! `k8s-pb` (generated from upstream's `.proto` files): tags, wire types, field order, map
//! entries, negative varints, the envelope and watch events.

use super::tests::{discovery_list, round_trip};
use super::*;
use crate::{decode_protobuf_message, kind_def};
use k8s_pb::api::apidiscovery::v2 as discovery;
use k8s_pb::api::core::v1 as core;
use k8s_pb::apimachinery::pkg::api::resource::Quantity;
use k8s_pb::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_pb::apimachinery::pkg::runtime::{RawExtension, TypeMeta, Unknown};
use k8s_pb::apimachinery::pkg::util::intstr::IntOrString;
use prost::Message;
use serde_json::json;

fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

fn time(seconds: i64, nanos: i32) -> Option<meta::Time> {
    Some(meta::Time {
        seconds: Some(seconds),
        nanos: Some(nanos),
    })
}

#[test]
fn envelope_and_config_map_bytes_match_prost() {
    let cm = json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {
            "name": "cfg", "namespace": "default", "generation": -1,
            "labels": {"b": "2", "a": "1", "c": "3"},
            "creationTimestamp": "2024-01-02T03:04:05Z",
        },
        "data": {"k2": "v2", "k1": "v1"},
        "binaryData": {"bin": "AAEC/w=="},
        "immutable": true,
    });
    let pb = core::ConfigMap {
        metadata: Some(meta::ObjectMeta {
            name: s("cfg"),
            namespace: s("default"),
            generation: Some(-1),
            labels: [("a", "1"), ("b", "2"), ("c", "3")]
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .into(),
            creation_timestamp: time(1_704_164_645, 0),
            ..Default::default()
        }),
        immutable: Some(true),
        data: [("k1", "v1"), ("k2", "v2")]
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .into(),
        binary_data: [("bin".to_string(), vec![0u8, 1, 2, 255])].into(),
    };
    let raw = pb.encode_to_vec();
    let def = kind_def("", "v1", "ConfigMap").expect("configmap");
    assert_eq!(encode_protobuf_message(&cm, def).expect("encode"), raw);
    let unknown = Unknown {
        type_meta: Some(TypeMeta {
            api_version: s("v1"),
            kind: s("ConfigMap"),
        }),
        raw: Some(raw),
        content_encoding: s(""),
        content_type: s(""),
    };
    let mut body = PROTOBUF_MAGIC.to_vec();
    body.extend(unknown.encode_to_vec());
    assert_eq!(round_trip(cm), body);
}

#[test]
fn pod_spec_bytes_match_prost() {
    let spec = json!({
        "containers": [{
            "name": "web",
            "ports": [{"name": "http", "containerPort": 8080}],
            "resources": {"limits": {"memory": "128Mi", "cpu": "500m"}},
            "livenessProbe": {"httpGet": {"path": "/", "port": 8080}, "periodSeconds": 0},
            "readinessProbe": {"httpGet": {"port": "http"}},
        }],
        "priority": -5,
        "activeDeadlineSeconds": -9_000_000_000_i64,
    });
    let probe = |port: IntOrString, period: Option<i32>| core::Probe {
        handler: Some(core::ProbeHandler {
            http_get: Some(core::HttpGetAction {
                path: (period.is_some()).then(|| "/".to_string()),
                port: Some(port),
                ..Default::default()
            }),
            ..Default::default()
        }),
        period_seconds: period,
        ..Default::default()
    };
    let quantity = |q: &str| Quantity { string: s(q) };
    let pb = core::PodSpec {
        containers: vec![core::Container {
            name: s("web"),
            ports: vec![core::ContainerPort {
                name: s("http"),
                container_port: Some(8080),
                ..Default::default()
            }],
            resources: Some(core::ResourceRequirements {
                limits: [
                    ("cpu".to_string(), quantity("500m")),
                    ("memory".to_string(), quantity("128Mi")),
                ]
                .into(),
                ..Default::default()
            }),
            liveness_probe: Some(probe(
                IntOrString {
                    r#type: Some(0),
                    int_val: Some(8080),
                    str_val: s(""),
                },
                Some(0),
            )),
            readiness_probe: Some(probe(
                IntOrString {
                    r#type: Some(1),
                    int_val: Some(0),
                    str_val: s("http"),
                },
                None,
            )),
            ..Default::default()
        }],
        priority: Some(-5),
        active_deadline_seconds: Some(-9_000_000_000),
        ..Default::default()
    };
    let def = crate::type_def("io.k8s.api.core.v1.PodSpec").expect("podspec");
    let bytes = encode_protobuf_message(&spec, def).expect("encode");
    assert_eq!(bytes, pb.encode_to_vec());
    // priority (tag 25): a negative int32 is a ten-byte varint.
    let at = bytes
        .windows(2)
        .position(|w| w == [0xc8, 0x01])
        .expect("tag 25");
    assert_eq!(
        &bytes[at + 2..at + 12],
        &[0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]
    );
}

#[test]
fn discovery_and_partial_metadata_bytes_match_prost() {
    let gvk = |g: &str, v: &str, k: &str| meta::GroupVersionKind {
        group: s(g),
        version: s(v),
        kind: s(k),
    };
    let strings = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let pb = discovery::APIGroupDiscoveryList {
        metadata: Some(meta::ListMeta::default()),
        items: vec![
            discovery::APIGroupDiscovery {
                metadata: Some(meta::ObjectMeta::default()),
                versions: vec![discovery::APIVersionDiscovery {
                    version: s("v1"),
                    freshness: s("Current"),
                    resources: vec![discovery::APIResourceDiscovery {
                        resource: s("pods"),
                        scope: s("Namespaced"),
                        singular_resource: s("pod"),
                        response_kind: Some(gvk("", "v1", "Pod")),
                        verbs: strings(&["create", "delete", "get", "list", "watch"]),
                        short_names: strings(&["po"]),
                        categories: strings(&["all"]),
                        subresources: vec![discovery::APISubresourceDiscovery {
                            subresource: s("eviction"),
                            response_kind: Some(gvk("policy", "v1", "Eviction")),
                            accepted_types: vec![gvk("policy", "v1", "Eviction")],
                            verbs: strings(&["create"]),
                        }],
                    }],
                }],
            },
            discovery::APIGroupDiscovery {
                metadata: Some(meta::ObjectMeta {
                    name: s("apps"),
                    ..Default::default()
                }),
                versions: vec![discovery::APIVersionDiscovery {
                    version: s("v1"),
                    resources: vec![discovery::APIResourceDiscovery {
                        resource: s("deployments"),
                        scope: s("Namespaced"),
                        singular_resource: s("deployment"),
                        response_kind: Some(gvk("apps", "v1", "Deployment")),
                        verbs: strings(&["get", "list"]),
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
            },
        ],
    };
    let def = kind_def("apidiscovery.k8s.io", "v2", "APIGroupDiscoveryList").expect("discovery");
    assert_eq!(
        encode_protobuf_message(&discovery_list(), def).expect("encode"),
        pb.encode_to_vec()
    );
    let partial = json!({"metadata": {"name": "a", "resourceVersion": "5"}});
    let pb = meta::PartialObjectMetadata {
        metadata: Some(meta::ObjectMeta {
            name: s("a"),
            resource_version: s("5"),
            ..Default::default()
        }),
    };
    let def = kind_def("meta.k8s.io", "v1", "PartialObjectMetadata").expect("partial");
    assert_eq!(
        encode_protobuf_message(&partial, def).expect("encode"),
        pb.encode_to_vec()
    );
}

#[test]
fn watch_event_bytes_match_prost() {
    let object = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}});
    let event = json!({"type": "MODIFIED", "object": object});
    let def = crate::type_def("io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent").expect("event");
    let pb = meta::WatchEvent {
        r#type: s("MODIFIED"),
        object: Some(RawExtension {
            raw: Some(serde_json::to_vec(&object).expect("json")),
        }),
    };
    assert_eq!(
        encode_protobuf_message(&event, def).expect("encode"),
        pb.encode_to_vec()
    );
}

#[test]
fn protobuf_watch_event_embeds_the_object_body() {
    let object = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"k": "v"}});
    let bytes = encode_protobuf_watch_event("ADDED", &object).expect("encode");
    let pb = meta::WatchEvent {
        r#type: s("ADDED"),
        object: Some(RawExtension {
            raw: Some(encode_protobuf(&object).expect("object")),
        }),
    };
    assert_eq!(bytes, pb.encode_to_vec());
    let def = crate::type_def("io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent").expect("event");
    assert_eq!(
        decode_protobuf_message(&bytes, def).expect("decode"),
        json!({"type": "ADDED", "object": object})
    );
    let status = json!({"apiVersion": "v1", "kind": "Status", "status": "Failure", "code": 410, "reason": "Expired"});
    assert!(encode_protobuf_watch_event("ERROR", &status).is_ok());
}

#[test]
fn map_keys_are_sorted() {
    let def = kind_def("", "v1", "ConfigMap").expect("configmap");
    let a = encode_protobuf_message(&json!({"data": {"z": "1", "a": "2", "m": "3"}}), def);
    let keys: Vec<u8> = a
        .expect("encode")
        .windows(3)
        .filter(|w| w[0] == 0x0a && w[1] == 1)
        .map(|w| w[2])
        .collect();
    assert_eq!(keys, b"amz");
}
