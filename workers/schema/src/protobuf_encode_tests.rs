//! Protobuf encoding tested on realistic objects: round trips through the decoder, every
//! kind of the table, and wrong-typed or random JSON (errors, never panics). Exact bytes
//! against prost are in `protobuf_encode_prost_tests.rs`.

use super::*;
use crate::{all_types, decode_protobuf, decode_protobuf_message, kind_def};
use serde_json::json;

/// Encodes `v`, checks that it decodes back to `v` and that encoding is deterministic.
pub(super) fn round_trip(v: Value) -> Vec<u8> {
    let bytes = encode_protobuf(&v).expect("encode");
    assert_eq!(decode_protobuf(&bytes).expect("decode"), v);
    assert_eq!(encode_protobuf(&v).expect("encode again"), bytes);
    bytes
}

pub(super) fn metadata() -> Value {
    json!({
        "name": "web-0",
        "namespace": "default",
        "uid": "6f1c0c1e-8d0a-4d5e-9a51-0c1a2b3c4d5e",
        "resourceVersion": "4711",
        "generation": 3,
        "creationTimestamp": "2024-01-02T03:04:05Z",
        "labels": {"tier": "frontend", "app": "web", "z": "last"},
        "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}"},
        "ownerReferences": [{
            "apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-5d4f",
            "uid": "0a1b2c3d-0000-4000-8000-000000000001",
            "controller": true, "blockOwnerDeletion": false,
        }],
        "finalizers": ["example.com/protect"],
        "managedFields": [{
            "manager": "kubectl", "operation": "Update", "apiVersion": "v1",
            "time": "2024-01-02T03:04:05Z", "fieldsType": "FieldsV1",
            "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}}},
        }],
    })
}

pub(super) fn pod() -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": metadata(),
        "spec": {
            "containers": [{
                "name": "web",
                "image": "nginx:1.27",
                "command": ["nginx"],
                "args": ["-g", "daemon off;"],
                "ports": [
                    {"name": "http", "containerPort": 8080, "protocol": "TCP"},
                    {"containerPort": 8443, "hostPort": 443, "protocol": "TCP"},
                ],
                "env": [
                    {"name": "MODE", "value": "prod"},
                    {"name": "POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIP"}}},
                ],
                "envFrom": [{"configMapRef": {"name": "web-env", "optional": true}}],
                "resources": {
                    "limits": {"memory": "128Mi", "cpu": "500m"},
                    "requests": {"cpu": "100m", "memory": "64Mi"},
                },
                "livenessProbe": {
                    "httpGet": {"path": "/healthz", "port": "http", "scheme": "HTTP"},
                    "initialDelaySeconds": 5,
                    "periodSeconds": 10,
                    "failureThreshold": 3,
                },
                "readinessProbe": {"tcpSocket": {"port": 8080}, "timeoutSeconds": 1},
                "volumeMounts": [{"name": "cfg", "mountPath": "/etc/web", "readOnly": true}],
                "securityContext": {"runAsUser": 1000, "runAsNonRoot": true, "allowPrivilegeEscalation": false},
                "imagePullPolicy": "IfNotPresent",
            }],
            "volumes": [
                {"name": "cfg", "configMap": {"name": "web-cfg", "defaultMode": 420, "items": [{"key": "nginx.conf", "path": "nginx.conf"}]}},
                {"name": "scratch", "emptyDir": {"sizeLimit": "1Gi"}},
                {"name": "token", "projected": {"sources": [{"serviceAccountToken": {"path": "token", "expirationSeconds": 3607}}]}},
            ],
            "restartPolicy": "Always",
            "terminationGracePeriodSeconds": 30,
            "priority": -5,
            "nodeSelector": {"kubernetes.io/os": "linux"},
            "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}],
            "automountServiceAccountToken": false,
            "serviceAccountName": "default",
        },
        "status": {
            "phase": "Running",
            "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2024-01-02T03:05:00Z"}],
            "podIP": "10.0.0.7",
            "podIPs": [{"ip": "10.0.0.7"}],
            "startTime": "2024-01-02T03:04:06Z",
            "containerStatuses": [{
                "name": "web", "ready": true, "restartCount": 0, "image": "nginx:1.27",
                "imageID": "docker.io/library/nginx@sha256:abc", "started": true,
                "state": {"running": {"startedAt": "2024-01-02T03:04:30Z"}},
                "lastState": {},
            }],
            "qosClass": "Burstable",
        },
    })
}

#[test]
fn pod_round_trip() {
    round_trip(pod());
}

#[test]
fn workloads_and_services_round_trip() {
    round_trip(json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "generation": 2},
        "spec": {
            "replicas": 0,
            "selector": {
                "matchLabels": {"app": "web"},
                "matchExpressions": [{"key": "tier", "operator": "In", "values": ["frontend", "edge"]}],
            },
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx"}]},
            },
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}},
            "revisionHistoryLimit": 10,
            "progressDeadlineSeconds": 600,
        },
        "status": {
            "observedGeneration": 2,
            "replicas": 1,
            "conditions": [{
                "type": "Available", "status": "True",
                "lastUpdateTime": "2024-01-02T03:04:05Z", "lastTransitionTime": "2024-01-02T03:04:05Z",
                "reason": "MinimumReplicasAvailable", "message": "Deployment has minimum availability.",
            }],
        },
    }));
    round_trip(json!({
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": "web", "namespace": "default"},
        "spec": {
            "type": "NodePort",
            "selector": {"app": "web"},
            "ports": [
                {"name": "http", "protocol": "TCP", "port": 80, "targetPort": 8080, "nodePort": 30080},
                {"name": "https", "protocol": "TCP", "port": 443, "targetPort": "https"},
            ],
            "clusterIP": "10.96.0.12",
            "clusterIPs": ["10.96.0.12"],
            "ipFamilies": ["IPv4"],
            "ipFamilyPolicy": "SingleStack",
            "sessionAffinity": "ClientIP",
            "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 10800}},
            "externalTrafficPolicy": "Cluster",
        },
        "status": {"loadBalancer": {}},
    }));
}

#[test]
fn config_and_secret_round_trip() {
    let cm = json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "cfg", "namespace": "default"},
        "data": {"b.conf": "x=1\n", "a.conf": "y=2\n"},
        "binaryData": {"blob": "AAEC/w=="},
        "immutable": false,
    });
    round_trip(cm.clone());
    round_trip(json!({
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "tls", "namespace": "default"},
        "type": "kubernetes.io/tls",
        "data": {"tls.crt": "LS0tLS1CRUdJTg==", "tls.key": "AP8Q"},
        "immutable": true,
    }));
    let mut other = cm.clone();
    other["metadata"]["name"] = json!("other");
    round_trip(json!({
        "apiVersion": "v1",
        "kind": "ConfigMapList",
        "metadata": {"resourceVersion": "912", "continue": "eyJ2IjoxfQ", "remainingItemCount": 4},
        "items": [
            {"metadata": cm["metadata"], "data": cm["data"]},
            {"metadata": other["metadata"], "binaryData": cm["binaryData"]},
        ],
    }));
}

#[test]
fn node_round_trip() {
    round_trip(json!({
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": "node-1", "labels": {"kubernetes.io/hostname": "node-1"}},
        "spec": {
            "podCIDR": "10.244.1.0/24",
            "podCIDRs": ["10.244.1.0/24"],
            "providerID": "kind://docker/kind/node-1",
            "unschedulable": true,
            "taints": [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule", "timeAdded": "2024-01-02T03:04:05Z"}],
        },
        "status": {
            "capacity": {"cpu": "4", "memory": "16Gi", "pods": "110", "ephemeral-storage": "100Gi"},
            "allocatable": {"cpu": "3800m", "memory": "15Gi", "pods": "110"},
            "conditions": [{
                "type": "Ready", "status": "True",
                "lastHeartbeatTime": "2024-01-02T03:04:05Z", "lastTransitionTime": "2024-01-01T00:00:00Z",
                "reason": "KubeletReady", "message": "kubelet is posting ready status",
            }],
            "addresses": [{"type": "InternalIP", "address": "172.18.0.2"}, {"type": "Hostname", "address": "node-1"}],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {
                "machineID": "m", "systemUUID": "u", "bootID": "b", "kernelVersion": "6.1.0",
                "osImage": "Debian", "containerRuntimeVersion": "containerd://1.7.0",
                "kubeletVersion": "v1.33.0", "kubeProxyVersion": "v1.33.0",
                "operatingSystem": "linux", "architecture": "amd64",
            },
            "images": [{"names": ["registry.k8s.io/pause:3.10"], "sizeBytes": 8_589_934_593_i64}],
        },
    }));
}

#[test]
fn crd_with_nested_schema_round_trip() {
    let schema = json!({
        "type": "object",
        "description": "A widget.",
        "required": ["spec"],
        "properties": {
            "spec": {
                "type": "object",
                "required": ["replicas"],
                "properties": {
                    "replicas": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 10.5, "default": 1},
                    "port": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
                    "tags": {"type": "array", "items": {"type": "string", "maxLength": 63}, "x-kubernetes-list-type": "set"},
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                    "mode": {"type": "string", "enum": ["fast", "safe", null], "nullable": true, "default": "safe"},
                },
                "x-kubernetes-validations": [{"rule": "self.replicas <= 10", "message": "too many"}],
            },
            "status": {"type": "object", "additionalProperties": false},
        },
    });
    round_trip(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com", "generation": 1},
        "spec": {
            "group": "example.com",
            "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList", "shortNames": ["wd"], "categories": ["all"]},
            "scope": "Namespaced",
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": schema},
                "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}},
                "additionalPrinterColumns": [{"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas", "priority": 1}],
            }],
            "conversion": {"strategy": "None"},
        },
        "status": {
            "conditions": [{"type": "Established", "status": "True", "lastTransitionTime": "2024-01-02T03:04:05Z", "reason": "InitialNamesAccepted", "message": "the initial names have been accepted"}],
            "acceptedNames": {"plural": "widgets", "kind": "Widget"},
            "storedVersions": ["v1"],
        },
    }));
}

#[test]
fn micro_times_round_trip() {
    round_trip(json!({
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {"name": "web.17a", "namespace": "default"},
        "involvedObject": {"kind": "Pod", "namespace": "default", "name": "web-0", "apiVersion": "v1", "fieldPath": "spec.containers{web}"},
        "reason": "Pulled",
        "message": "Container image already present on machine",
        "source": {"component": "kubelet", "host": "node-1"},
        "firstTimestamp": "2024-01-02T03:04:05Z",
        "lastTimestamp": "2024-01-02T03:09:05Z",
        "count": 3,
        "type": "Normal",
        "eventTime": "2024-01-02T03:04:05.123456Z",
        "series": {"count": 2, "lastObservedTime": "2024-01-02T03:09:05.000001Z"},
        "reportingComponent": "kubelet",
        "reportingInstance": "node-1",
    }));
    round_trip(json!({
        "apiVersion": "coordination.k8s.io/v1",
        "kind": "Lease",
        "metadata": {"name": "kube-scheduler", "namespace": "kube-system"},
        "spec": {
            "holderIdentity": "node-1_abc",
            "leaseDurationSeconds": 15,
            "acquireTime": "1969-12-31T23:59:59.500000Z",
            "renewTime": "2024-01-02T03:04:05.999999Z",
            "leaseTransitions": 0,
        },
    }));
}

#[test]
fn rbac_status_and_watch_event_round_trip() {
    round_trip(json!({
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {"name": "view", "labels": {"rbac.authorization.k8s.io/aggregate-to-edit": "true"}},
        "rules": [
            {"apiGroups": [""], "resources": ["pods", "pods/log"], "verbs": ["get", "list", "watch"]},
            {"nonResourceURLs": ["/healthz"], "verbs": ["get"]},
        ],
        "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"rbac.example.com/aggregate-to-view": "true"}}]},
    }));
    round_trip(json!({
        "apiVersion": "v1",
        "kind": "Status",
        "metadata": {},
        "status": "Failure",
        "message": "pods \"x\" not found",
        "reason": "NotFound",
        "details": {"name": "x", "kind": "pods", "causes": [{"reason": "FieldValueInvalid", "message": "bad", "field": "spec"}], "retryAfterSeconds": 3},
        "code": 404,
    }));
    // A watch event as a plain object: the embedded object is raw JSON.
    round_trip(json!({"apiVersion": "v1", "kind": "WatchEvent", "type": "ADDED", "object": pod()}));
}

pub(super) fn discovery_list() -> Value {
    json!({
        "apiVersion": "apidiscovery.k8s.io/v2",
        "kind": "APIGroupDiscoveryList",
        "metadata": {},
        "items": [
            {
                "metadata": {},
                "versions": [{"version": "v1", "freshness": "Current", "resources": [{
                    "resource": "pods", "scope": "Namespaced", "singularResource": "pod",
                    "responseKind": {"group": "", "version": "v1", "kind": "Pod"},
                    "verbs": ["create", "delete", "get", "list", "watch"],
                    "shortNames": ["po"], "categories": ["all"],
                    "subresources": [{"subresource": "eviction", "verbs": ["create"],
                        "responseKind": {"group": "policy", "version": "v1", "kind": "Eviction"},
                        "acceptedTypes": [{"group": "policy", "version": "v1", "kind": "Eviction"}]}],
                }]}],
            },
            {
                "metadata": {"name": "apps"},
                "versions": [{"version": "v1", "resources": [{
                    "resource": "deployments", "scope": "Namespaced", "singularResource": "deployment",
                    "responseKind": {"group": "apps", "version": "v1", "kind": "Deployment"},
                    "verbs": ["get", "list"],
                }]}],
            },
        ],
    })
}

#[test]
fn server_only_kinds_round_trip() {
    round_trip(json!({
        "apiVersion": "meta.k8s.io/v1",
        "kind": "PartialObjectMetadataList",
        "metadata": {"resourceVersion": "77"},
        "items": [{"metadata": metadata()}, {"metadata": {"name": "b", "namespace": "default"}}],
    }));
    round_trip(
        json!({"apiVersion": "meta.k8s.io/v1", "kind": "PartialObjectMetadata", "metadata": metadata()}),
    );
    round_trip(discovery_list());
    assert!(kind_def("apidiscovery.k8s.io", "v2", "APIGroupDiscovery").is_some());
    assert!(kind_def("meta.k8s.io", "v1", "TableOptions").is_some());
}

/// Every kind of the table with a protobuf message encodes its bare `apiVersion`/`kind`.
#[test]
fn every_kind_encodes() {
    let mut n = 0;
    for def in all_types() {
        let Some(gvk) = def.gvk else { continue };
        let api_version = match gvk.group {
            "" => gvk.version.to_string(),
            g => format!("{g}/{}", gvk.version),
        };
        let obj = json!({"apiVersion": api_version, "kind": gvk.kind});
        match encode_protobuf(&obj) {
            Ok(bytes) => {
                assert_eq!(decode_protobuf(&bytes).expect("decode"), obj);
                n += 1;
            }
            Err(e) => assert!(def.proto.is_empty(), "{}: {e}", def.name),
        }
    }
    assert!(n > 150, "{n}");
}

#[test]
fn table_has_no_protobuf_encoding() {
    let table = json!({
        "apiVersion": "meta.k8s.io/v1", "kind": "Table", "metadata": {},
        "columnDefinitions": [{"name": "Name", "type": "string", "format": "name", "description": "", "priority": 0}],
        "rows": [{"cells": ["web", 1, null], "object": {"kind": "PartialObjectMetadata"}}],
    });
    let e = encode_protobuf(&table).expect_err("no protobuf");
    assert_eq!(
        e,
        DecodeError::Protobuf("v1.Table has no protobuf encoding".into())
    );
}

#[test]
fn wrong_types_are_errors() {
    let cases = [
        (
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": "3"}}),
            "replicas: expected an integer, got string",
        ),
        (
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": 2_147_483_648_i64}}),
            "replicas: 2147483648 out of range for int32",
        ),
        (
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "spec": {"replicas": 1.5}}),
            "replicas: 1.5 is not an int64",
        ),
        (
            json!({"apiVersion": "v1", "kind": "Pod", "spec": {"containers": {"name": "x"}}}),
            "containers: expected an array, got object",
        ),
        (
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": "x"}),
            "ObjectMeta: expected an object, got string",
        ),
        (
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": ["a"]}}),
            "labels: expected an object, got array",
        ),
        (
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"a": 1}}}),
            "labels: expected a string, got number",
        ),
        (
            json!({"apiVersion": "v1", "kind": "Pod", "spec": {"hostNetwork": "yes"}}),
            "hostNetwork: expected a bool, got string",
        ),
        (
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"creationTimestamp": 5}}),
            "Time: expected a string, got number",
        ),
        (
            json!({"apiVersion": "v1", "kind": "Secret", "data": {"k": "!!"}}),
            "data: illegal base64 data at input byte 0",
        ),
        (
            json!({"apiVersion": "v1", "kind": "Service", "spec": {"ports": [{"targetPort": true}]}}),
            "IntOrString: expected an integer or a string, got bool",
        ),
    ];
    for (obj, msg) in cases {
        assert_eq!(
            encode_protobuf(&obj),
            Err(DecodeError::Protobuf(msg.into())),
            "{obj}"
        );
    }
    let bad_time =
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"creationTimestamp": "yesterday"}});
    assert!(
        matches!(encode_protobuf(&bad_time), Err(DecodeError::Protobuf(m)) if m.starts_with("Time: parsing time"))
    );
    assert_eq!(
        encode_protobuf(&json!({"apiVersion": "v9", "kind": "Nope"})),
        Err(DecodeError::UnknownKind {
            api_version: "v9".into(),
            kind: "Nope".into()
        })
    );
    assert!(matches!(
        encode_protobuf(&json!([1])),
        Err(DecodeError::UnknownKind { .. })
    ));
}

/// Random JSON in the shape of each type (right names, random values) never panics.
#[test]
fn random_values_never_panic() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    fn random(def: &TypeDef, next: &mut dyn FnMut() -> u64, depth: u32) -> Value {
        let leaf = |n: u64| match n % 8 {
            0 => Value::Null,
            1 => json!(true),
            2 => json!(-7),
            3 => json!(1.5),
            4 => json!("2024-01-02T03:04:05Z"),
            5 => json!("x"),
            6 => json!([1, "a"]),
            _ => json!({"a": "b"}),
        };
        let mut m = Map::new();
        for f in def.fields {
            let v = match (f.message(), depth < 4 && next() % 2 == 0) {
                (Some(inner), true) => random(inner, next, depth + 1),
                _ => leaf(next()),
            };
            let v = match (f.kind, next() % 3) {
                (FieldKind::List(_), 0) => json!([v]),
                (FieldKind::Map(_), 0) => json!({"k": v}),
                _ => v,
            };
            m.insert(f.json.to_string(), v);
        }
        Value::Object(m)
    }
    for def in all_types() {
        for _ in 0..4 {
            let v = random(def, &mut next, 0);
            if let Ok(bytes) = encode_protobuf_message(&v, def) {
                let _ = decode_protobuf_message(&bytes, def);
            }
        }
    }
}
