//! Protobuf decoding tested on real encodings: objects built with `k8s-pb`, encoded with
//! prost, decoded here, and checked against the expected JSON and against `k8s-openapi`.

use super::*;
use crate::type_def;
use k8s_pb::api::apps::v1 as apps;
use k8s_pb::api::core::v1 as core;
use k8s_pb::apimachinery::pkg::api::resource::Quantity;
use k8s_pb::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_pb::apimachinery::pkg::runtime::{RawExtension, TypeMeta, Unknown};
use k8s_pb::apimachinery::pkg::util::intstr::IntOrString;
use prost::Message;
use serde_json::json;

fn envelope(api_version: &str, kind: &str, raw: Vec<u8>) -> Vec<u8> {
    let unknown = Unknown {
        type_meta: Some(TypeMeta {
            api_version: Some(api_version.into()),
            kind: Some(kind.into()),
        }),
        raw: Some(raw),
        content_encoding: Some(String::new()),
        content_type: Some(String::new()),
    };
    let mut out = PROTOBUF_MAGIC.to_vec();
    out.extend(unknown.encode_to_vec());
    out
}

fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

/// Checks that k8s-openapi reads `v` as a `T` and writes it back unchanged: every JSON name
/// and value type is the one upstream's JSON uses.
fn openapi_round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(v: &Value) {
    let typed: T = serde_json::from_value(v.clone()).expect("k8s-openapi reads the output");
    assert_eq!(&serde_json::to_value(typed).expect("serialize"), v);
}

fn meta_with_time() -> meta::ObjectMeta {
    meta::ObjectMeta {
        name: s("cm"),
        namespace: s("default"),
        // Go's encoder writes every non-pointer field, empty or not.
        generate_name: s(""),
        generation: Some(0),
        labels: [("app".to_string(), "web".to_string())].into(),
        creation_timestamp: Some(meta::Time {
            seconds: Some(1_704_164_645),
            nanos: Some(0),
        }),
        managed_fields: vec![meta::ManagedFieldsEntry {
            manager: s("kubectl"),
            operation: s("Update"),
            api_version: s("v1"),
            time: Some(meta::Time {
                seconds: Some(1_704_164_645),
                nanos: Some(0),
            }),
            fields_type: s("FieldsV1"),
            fields_v1: Some(meta::FieldsV1 {
                raw: Some(br#"{"f:data":{".":{}}}"#.to_vec()),
            }),
            subresource: s(""),
        }],
        ..Default::default()
    }
}

#[test]
fn config_map() {
    let cm = core::ConfigMap {
        metadata: Some(meta_with_time()),
        immutable: Some(false),
        data: [("k".to_string(), "v".to_string())].into(),
        binary_data: [("b".to_string(), vec![0u8, 1, 2, 255])].into(),
    };
    let out = decode_protobuf(&envelope("v1", "ConfigMap", cm.encode_to_vec())).expect("decode");
    assert_eq!(
        out,
        json!({
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {
                "name": "cm",
                "namespace": "default",
                // Dropped: `generation` is an `int64` with `omitempty` upstream.
                "labels": {"app": "web"},
                "creationTimestamp": "2024-01-02T03:04:05Z",
                "managedFields": [{
                    "manager": "kubectl",
                    "operation": "Update",
                    "apiVersion": "v1",
                    "time": "2024-01-02T03:04:05Z",
                    "fieldsType": "FieldsV1",
                    "fieldsV1": {"f:data": {".": {}}},
                }],
            },
            "immutable": false,
            "data": {"k": "v"},
            "binaryData": {"b": "AAEC/w=="},
        })
    );
    openapi_round_trip::<k8s_openapi::api::core::v1::ConfigMap>(&out);
}

#[test]
fn secret_namespace_service_account() {
    let secret = core::Secret {
        metadata: Some(meta::ObjectMeta {
            name: s("s"),
            ..Default::default()
        }),
        data: [("password".to_string(), b"hunter2".to_vec())].into(),
        r#type: s("Opaque"),
        ..Default::default()
    };
    let out = decode_protobuf(&envelope("v1", "Secret", secret.encode_to_vec())).expect("decode");
    assert_eq!(out["data"], json!({"password": "aHVudGVyMg=="}));
    assert_eq!(out["type"], json!("Opaque"));
    openapi_round_trip::<k8s_openapi::api::core::v1::Secret>(&out);

    let ns = core::Namespace {
        metadata: Some(meta::ObjectMeta {
            name: s("team-a"),
            ..Default::default()
        }),
        ..Default::default()
    };
    let out = decode_protobuf(&envelope("v1", "Namespace", ns.encode_to_vec())).expect("decode");
    assert_eq!(
        out,
        json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}})
    );

    let sa = core::ServiceAccount {
        metadata: Some(meta::ObjectMeta {
            name: s("bot"),
            ..Default::default()
        }),
        automount_service_account_token: Some(true),
        ..Default::default()
    };
    let out =
        decode_protobuf(&envelope("v1", "ServiceAccount", sa.encode_to_vec())).expect("decode");
    assert_eq!(out["automountServiceAccountToken"], json!(true));
    openapi_round_trip::<k8s_openapi::api::core::v1::ServiceAccount>(&out);
}

fn pod_spec() -> core::PodSpec {
    core::PodSpec {
        containers: vec![core::Container {
            name: s("web"),
            image: s("nginx"),
            ports: vec![core::ContainerPort {
                container_port: Some(80),
                protocol: s("TCP"),
                ..Default::default()
            }],
            resources: Some(core::ResourceRequirements {
                limits: [
                    ("cpu".to_string(), Quantity { string: s("500m") }),
                    (
                        "memory".to_string(),
                        Quantity {
                            string: s("1024Mi"),
                        },
                    ),
                ]
                .into(),
                ..Default::default()
            }),
            env: vec![core::EnvVar {
                name: s("X"),
                value_from: Some(core::EnvVarSource {
                    config_map_key_ref: Some(core::ConfigMapKeySelector {
                        local_object_reference: Some(core::LocalObjectReference { name: s("cm") }),
                        key: s("k"),
                        optional: Some(false),
                    }),
                    ..Default::default()
                }),
                ..Default::default()
            }],
            liveness_probe: Some(core::Probe {
                handler: Some(core::ProbeHandler {
                    http_get: Some(core::HttpGetAction {
                        path: s("/healthz"),
                        port: Some(IntOrString {
                            r#type: Some(1),
                            int_val: Some(0),
                            str_val: s("http"),
                        }),
                        ..Default::default()
                    }),
                    ..Default::default()
                }),
                period_seconds: Some(10),
                ..Default::default()
            }),
            ..Default::default()
        }],
        termination_grace_period_seconds: Some(30),
        ..Default::default()
    }
}

#[test]
fn pod_with_inline_fields_quantity_and_int_or_string() {
    let pod = core::Pod {
        metadata: Some(meta::ObjectMeta {
            name: s("p"),
            ..Default::default()
        }),
        spec: Some(pod_spec()),
        status: Some(core::PodStatus::default()),
    };
    let out = decode_protobuf(&envelope("v1", "Pod", pod.encode_to_vec())).expect("decode");
    let c = &out["spec"]["containers"][0];
    assert_eq!(
        c["resources"]["limits"],
        json!({"cpu": "500m", "memory": "1Gi"})
    );
    assert_eq!(
        c["ports"],
        json!([{"containerPort": 80, "protocol": "TCP"}])
    );
    assert_eq!(
        c["env"][0]["valueFrom"]["configMapKeyRef"],
        json!({"name": "cm", "key": "k", "optional": false})
    );
    assert_eq!(
        c["livenessProbe"]["httpGet"],
        json!({"path": "/healthz", "port": "http"})
    );
    assert_eq!(c["livenessProbe"]["periodSeconds"], json!(10));
    assert_eq!(out["spec"]["terminationGracePeriodSeconds"], json!(30));
    assert_eq!(out["status"], json!({}));
    openapi_round_trip::<k8s_openapi::api::core::v1::Pod>(&out);
}

/// What a Go client's protobuf body carries for fields it never set: every non-pointer
/// field, at its zero. Upstream decodes into its Go structs, where an `omitempty` scalar's
/// zero is unset, and leaves those out of what it stores; a pointer's zero is a value.
#[test]
fn zero_of_value_fields_dropped_zero_of_pointers_kept() {
    let spec = core::PodSpec {
        containers: vec![core::Container {
            name: s("c"),
            image: s("nginx"),
            stdin: Some(false),
            tty: Some(false),
            termination_message_path: s(""),
            ..Default::default()
        }],
        host_network: Some(false),
        host_ipc: Some(false),
        node_name: s(""),
        // Pointers upstream: their zero is set.
        automount_service_account_token: Some(false),
        priority: Some(0),
        ..Default::default()
    };
    let pod = core::Pod {
        metadata: Some(meta::ObjectMeta {
            name: s("p"),
            generation: Some(0),
            ..Default::default()
        }),
        spec: Some(spec),
        status: None,
    };
    let out = decode_protobuf(&envelope("v1", "Pod", pod.encode_to_vec())).expect("decode");
    assert_eq!(out["metadata"], json!({"name": "p"}));
    assert_eq!(
        out["spec"],
        json!({
            "containers": [{"name": "c", "image": "nginx"}],
            "automountServiceAccountToken": false,
            "priority": 0,
        })
    );
    let claim = core::PersistentVolumeClaim {
        metadata: Some(meta::ObjectMeta {
            name: s("c"),
            ..Default::default()
        }),
        spec: Some(core::PersistentVolumeClaimSpec {
            // `*string`: "" asks for no class, and must not become the default one.
            storage_class_name: s(""),
            volume_name: s(""),
            ..Default::default()
        }),
        status: None,
    };
    let out = decode_protobuf(&envelope(
        "v1",
        "PersistentVolumeClaim",
        claim.encode_to_vec(),
    ))
    .expect("decode");
    assert_eq!(out["spec"], json!({"storageClassName": ""}));
}

#[test]
fn deployment_and_controller_revision() {
    let dep = apps::Deployment {
        metadata: Some(meta::ObjectMeta {
            name: s("d"),
            ..Default::default()
        }),
        spec: Some(apps::DeploymentSpec {
            replicas: Some(3),
            selector: Some(meta::LabelSelector {
                match_labels: [("app".to_string(), "web".to_string())].into(),
                ..Default::default()
            }),
            template: Some(core::PodTemplateSpec {
                metadata: Some(meta::ObjectMeta::default()),
                spec: Some(pod_spec()),
            }),
            strategy: Some(apps::DeploymentStrategy {
                r#type: s("RollingUpdate"),
                rolling_update: Some(apps::RollingUpdateDeployment {
                    max_surge: Some(IntOrString {
                        r#type: Some(1),
                        int_val: Some(0),
                        str_val: s("25%"),
                    }),
                    max_unavailable: Some(IntOrString {
                        r#type: Some(0),
                        int_val: Some(1),
                        str_val: s(""),
                    }),
                }),
            }),
            ..Default::default()
        }),
        status: None,
    };
    let out =
        decode_protobuf(&envelope("apps/v1", "Deployment", dep.encode_to_vec())).expect("decode");
    assert_eq!(out["spec"]["replicas"], json!(3));
    assert_eq!(
        out["spec"]["strategy"]["rollingUpdate"],
        json!({"maxSurge": "25%", "maxUnavailable": 1})
    );
    assert_eq!(out["spec"]["template"]["metadata"], json!({}));
    openapi_round_trip::<k8s_openapi::api::apps::v1::Deployment>(&out);

    let rev = apps::ControllerRevision {
        metadata: Some(meta::ObjectMeta {
            name: s("r"),
            ..Default::default()
        }),
        data: Some(RawExtension {
            raw: Some(br#"{"spec":{"x":[1,2]}}"#.to_vec()),
        }),
        revision: Some(2),
    };
    let out = decode_protobuf(&envelope(
        "apps/v1",
        "ControllerRevision",
        rev.encode_to_vec(),
    ))
    .expect("decode");
    assert_eq!(out["data"], json!({"spec": {"x": [1, 2]}}));
    assert_eq!(out["revision"], json!(2));
    openapi_round_trip::<k8s_openapi::api::apps::v1::ControllerRevision>(&out);
}

#[test]
fn kubectl_request_kinds() {
    use k8s_pb::api::authentication::v1 as authn;
    use k8s_pb::api::authorization::v1 as authz;
    use k8s_pb::api::policy::v1 as policy;

    let tr = authn::TokenRequest {
        metadata: Some(meta::ObjectMeta {
            name: s("bot"),
            ..Default::default()
        }),
        spec: Some(authn::TokenRequestSpec {
            audiences: vec![],
            expiration_seconds: Some(3600),
            bound_object_ref: None,
        }),
        status: Some(authn::TokenRequestStatus {
            token: s(""),
            expiration_timestamp: Some(meta::Time::default()),
        }),
    };
    let out = decode_protobuf(&envelope(
        "authentication.k8s.io/v1",
        "TokenRequest",
        tr.encode_to_vec(),
    ))
    .expect("decode");
    assert_eq!(out["spec"], json!({"expirationSeconds": 3600}));
    // `token` is required: upstream writes it even empty; an unset Time is left out.
    assert_eq!(out["status"], json!({"token": ""}));

    let ssar = authz::SelfSubjectAccessReview {
        metadata: Some(meta::ObjectMeta::default()),
        spec: Some(authz::SelfSubjectAccessReviewSpec {
            resource_attributes: Some(authz::ResourceAttributes {
                namespace: s("default"),
                verb: s("get"),
                resource: s("pods"),
                ..Default::default()
            }),
            non_resource_attributes: None,
        }),
        status: Some(authz::SubjectAccessReviewStatus {
            allowed: Some(false),
            ..Default::default()
        }),
    };
    let out = decode_protobuf(&envelope(
        "authorization.k8s.io/v1",
        "SelfSubjectAccessReview",
        ssar.encode_to_vec(),
    ))
    .expect("decode");
    assert_eq!(
        out["spec"]["resourceAttributes"],
        json!({"namespace": "default", "verb": "get", "resource": "pods"})
    );
    assert_eq!(out["status"], json!({"allowed": false}));
    openapi_round_trip::<k8s_openapi::api::authorization::v1::SelfSubjectAccessReview>(&out);

    let del = meta::DeleteOptions {
        grace_period_seconds: Some(30),
        propagation_policy: s("Foreground"),
        preconditions: Some(meta::Preconditions {
            uid: s("u-1"),
            resource_version: None,
        }),
        ..Default::default()
    };
    for api_version in ["v1", "meta.k8s.io/v1", "apps/v1"] {
        let out = decode_protobuf(&envelope(api_version, "DeleteOptions", del.encode_to_vec()))
            .expect("decode");
        assert_eq!(
            out,
            json!({"apiVersion": api_version, "kind": "DeleteOptions", "gracePeriodSeconds": 30,
                   "propagationPolicy": "Foreground", "preconditions": {"uid": "u-1"}})
        );
    }

    let ev = policy::Eviction {
        metadata: Some(meta::ObjectMeta {
            name: s("p"),
            namespace: s("ns"),
            ..Default::default()
        }),
        delete_options: Some(del),
    };
    let out =
        decode_protobuf(&envelope("policy/v1", "Eviction", ev.encode_to_vec())).expect("decode");
    assert_eq!(out["deleteOptions"]["gracePeriodSeconds"], json!(30));
    assert_eq!(out["metadata"], json!({"name": "p", "namespace": "ns"}));
}

#[test]
fn micro_time_duration_and_string_lists() {
    use k8s_pb::api::authentication::v1 as authn;
    use k8s_pb::api::events::v1 as events;
    let ev = events::Event {
        metadata: Some(meta::ObjectMeta {
            name: s("e"),
            ..Default::default()
        }),
        event_time: Some(meta::MicroTime {
            seconds: Some(1_704_164_645),
            nanos: Some(123_456_789),
        }),
        reason: s("Started"),
        ..Default::default()
    };
    let out = decode_protobuf(&envelope("events.k8s.io/v1", "Event", ev.encode_to_vec()))
        .expect("decode");
    assert_eq!(out["eventTime"], json!("2024-01-02T03:04:05.123456Z"));
    openapi_round_trip::<k8s_openapi::api::events::v1::Event>(&out);

    let user = authn::UserInfo {
        username: s("alice"),
        extra: [(
            "scopes".to_string(),
            authn::ExtraValue {
                items: vec!["a".into(), "b".into()],
            },
        )]
        .into(),
        ..Default::default()
    };
    let def = type_def("io.k8s.api.authentication.v1.UserInfo").expect("userinfo");
    let out = decode_protobuf_message(&user.encode_to_vec(), def).expect("decode");
    assert_eq!(
        out,
        json!({"username": "alice", "extra": {"scopes": ["a", "b"]}})
    );

    let lease = k8s_pb::api::coordination::v1::LeaseSpec {
        lease_duration_seconds: Some(15),
        ..Default::default()
    };
    let def = type_def("io.k8s.api.coordination.v1.LeaseSpec").expect("lease spec");
    assert_eq!(
        decode_protobuf_message(&lease.encode_to_vec(), def).expect("decode"),
        json!({"leaseDurationSeconds": 15})
    );
}

#[test]
fn envelope_errors() {
    assert!(matches!(
        decode_protobuf(b"{}"),
        Err(DecodeError::Protobuf(_))
    ));
    let unknown = decode_protobuf(&envelope("v1", "Nope", Vec::new()));
    assert_eq!(
        unknown,
        Err(DecodeError::UnknownKind {
            api_version: "v1".into(),
            kind: "Nope".into()
        })
    );
    let mut gz = Unknown::decode(&envelope("v1", "ConfigMap", Vec::new())[4..]).expect("decode");
    gz.content_encoding = s("gzip");
    let mut body = PROTOBUF_MAGIC.to_vec();
    body.extend(gz.encode_to_vec());
    assert!(decode_protobuf(&body).is_err());
    // A wire type that does not match the field's type.
    let bad = envelope("v1", "ConfigMap", vec![0x20, 0x01, 0x0a, 0x01, 0xff]);
    assert!(decode_protobuf(&bad).is_err());
    // Unknown tags are skipped.
    let mut raw = core::Namespace::default().encode_to_vec();
    raw.extend([0xf8, 0x07, 0x01]); // tag 127, varint 1
    assert!(decode_protobuf(&envelope("v1", "Namespace", raw)).is_ok());
}

/// A small deterministic generator, so the fuzz test needs no extra crate.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

#[test]
fn random_and_truncated_input_never_panics() {
    let pod = core::Pod {
        metadata: Some(meta_with_time()),
        spec: Some(pod_spec()),
        status: None,
    };
    let good = envelope("v1", "Pod", pod.encode_to_vec());
    // Every truncation of a real body.
    for n in 0..good.len() {
        let _ = decode_protobuf(&good[..n]);
    }
    let mut rng = Lcg(42);
    for _ in 0..3000 {
        // Flip bytes of a real body, or make up random ones after the magic.
        let mut body = good.clone();
        for _ in 0..1 + rng.next() % 8 {
            let at = (rng.next() as usize) % body.len();
            body[at] = rng.next() as u8;
        }
        let _ = decode_protobuf(&body);
        let len = (rng.next() % 64) as usize;
        let mut random = PROTOBUF_MAGIC.to_vec();
        random.extend((0..len).map(|_| rng.next() as u8));
        let _ = decode_protobuf(&random);
        for def in [
            type_def("io.k8s.api.core.v1.PodSpec"),
            type_def("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps"),
        ]
        .into_iter()
        .flatten()
        {
            let _ = decode_protobuf_message(&random[4..], def);
        }
    }
    // Deep nesting is refused, not a stack overflow: JSONSchemaProps.items nests itself.
    let mut deep: Vec<u8> = Vec::new();
    for _ in 0..300 {
        let mut wrapped = Vec::new();
        // JSONSchemaPropsOrArray.schema (tag 1) holding the previous level.
        prost::encoding::encode_key(1, prost::encoding::WireType::LengthDelimited, &mut wrapped);
        prost::encoding::encode_varint(deep.len() as u64, &mut wrapped);
        wrapped.extend(&deep);
        let items_tag =
            type_def("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps")
                .and_then(|d| d.field("items"))
                .map(|f| f.tag)
                .expect("items");
        let mut next = Vec::new();
        prost::encoding::encode_key(
            items_tag,
            prost::encoding::WireType::LengthDelimited,
            &mut next,
        );
        prost::encoding::encode_varint(wrapped.len() as u64, &mut next);
        next.extend(wrapped);
        deep = next;
    }
    let def = type_def("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps")
        .expect("props");
    assert!(decode_protobuf_message(&deep, def).is_err());
}
