//! What upstream writes for fields nobody sent. Each expected object is what Go's
//! `encoding/json` writes for upstream's v1.33 Go type; the comments name the Go fields
//! and tags that make it so.

use super::*;
use crate::types::{all_types, kind_def_for_api_version, Elem, Scalar};
use serde_json::json;

/// `input` filled as `apiVersion`/`kind`.
fn filled(api_version: &str, kind: &str, input: Value) -> Value {
    let def = kind_def_for_api_version(api_version, kind).expect("kind");
    let mut value = input;
    fill_zero_fields(def, &mut value);
    value
}

#[test]
fn node() {
    // `Spec NodeSpec json:"spec,omitempty"` and `Status NodeStatus json:"status,omitempty"`
    // are structs: always written. In NodeStatus, `DaemonEndpoints NodeDaemonEndpoints` and
    // `NodeInfo NodeSystemInfo` are structs too; `KubeletEndpoint DaemonEndpoint` holds
    // `Port int32 json:"Port"`, and NodeSystemInfo's ten strings have no omitempty.
    // `ObjectMeta json:"metadata,omitempty"` is a struct whose `CreationTimestamp
    // metav1.Time` writes `null` when zero. `apiVersion`/`kind` (TypeMeta) are omitempty.
    let out = filled(
        "v1",
        "Node",
        json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}}),
    );
    let info = json!({
        "machineID": "", "systemUUID": "", "bootID": "", "kernelVersion": "", "osImage": "",
        "containerRuntimeVersion": "", "kubeletVersion": "", "kubeProxyVersion": "",
        "operatingSystem": "", "architecture": ""
    });
    assert_eq!(
        out,
        json!({
            "apiVersion": "v1", "kind": "Node",
            "metadata": {"name": "n1", "creationTimestamp": null},
            "spec": {},
            "status": {"daemonEndpoints": {"kubeletEndpoint": {"Port": 0}}, "nodeInfo": info}
        })
    );
}

#[test]
fn deployment() {
    // DeploymentSpec: `Selector *metav1.LabelSelector json:"selector"` (pointer, no
    // omitempty → null), `Template v1.PodTemplateSpec json:"template"` and `Strategy
    // DeploymentStrategy json:"strategy,omitempty"` (structs). PodTemplateSpec has ObjectMeta
    // and `Spec PodSpec json:"spec,omitempty"`, whose `Containers []Container
    // json:"containers"` is a nil slice → null. DeploymentStatus fields are all omitempty.
    assert_eq!(
        filled("apps/v1", "Deployment", json!({})),
        json!({
            "metadata": {"creationTimestamp": null},
            "spec": {
                "selector": null,
                "template": {"metadata": {"creationTimestamp": null}, "spec": {"containers": null}},
                "strategy": {}
            },
            "status": {}
        })
    );
    // A realistic one: the container gets `Resources ResourceRequirements
    // json:"resources,omitempty"` (a struct), nothing else.
    let out = filled(
        "apps/v1",
        "Deployment",
        json!({
            "metadata": {"name": "d", "namespace": "ns"},
            "spec": {
                "replicas": 2,
                "selector": {"matchLabels": {"app": "a"}},
                "template": {
                    "metadata": {"labels": {"app": "a"}},
                    "spec": {"containers": [{"name": "c", "image": "nginx"}]}
                }
            }
        }),
    );
    assert_eq!(
        out,
        json!({
            "metadata": {"name": "d", "namespace": "ns", "creationTimestamp": null},
            "spec": {
                "replicas": 2,
                "selector": {"matchLabels": {"app": "a"}},
                "template": {
                    "metadata": {"labels": {"app": "a"}, "creationTimestamp": null},
                    "spec": {"containers": [{"name": "c", "image": "nginx", "resources": {}}]}
                },
                "strategy": {}
            },
            "status": {}
        })
    );
}

#[test]
fn stateful_set() {
    // StatefulSetStatus: `Replicas int32 json:"replicas"` and `AvailableReplicas int32
    // json:"availableReplicas"` have no omitempty. StatefulSetSpec: `ServiceName string
    // json:"serviceName"`, `UpdateStrategy StatefulSetUpdateStrategy` (a struct).
    let out = filled(
        "apps/v1",
        "StatefulSet",
        json!({"metadata": {"name": "s"}, "spec": {"serviceName": "svc", "selector": {}}}),
    );
    assert_eq!(
        out,
        json!({
            "metadata": {"name": "s", "creationTimestamp": null},
            "spec": {
                "serviceName": "svc",
                "selector": {},
                "template": {"metadata": {"creationTimestamp": null}, "spec": {"containers": null}},
                "updateStrategy": {}
            },
            "status": {"replicas": 0, "availableReplicas": 0}
        })
    );
}

#[test]
fn cluster_role_and_role_binding() {
    // ClusterRole: `Rules []PolicyRule json:"rules"` → null; `AggregationRule
    // *AggregationRule json:"aggregationRule,omitempty"` → nothing.
    assert_eq!(
        filled(
            "rbac.authorization.k8s.io/v1",
            "ClusterRole",
            json!({"metadata": {"name": "r"}})
        ),
        json!({"metadata": {"name": "r", "creationTimestamp": null}, "rules": null})
    );
    // RoleBinding: `RoleRef RoleRef json:"roleRef"` (a struct) whose `APIGroup`, `Kind` and
    // `Name` strings have no omitempty; Subject's `APIGroup` and `Namespace` are omitempty.
    let out = filled(
        "rbac.authorization.k8s.io/v1",
        "RoleBinding",
        json!({
            "metadata": {"name": "rb"},
            "subjects": [{"kind": "User", "name": "u"}],
            "roleRef": {"kind": "ClusterRole", "name": "view"}
        }),
    );
    assert_eq!(
        out,
        json!({
            "metadata": {"name": "rb", "creationTimestamp": null},
            "subjects": [{"kind": "User", "name": "u"}],
            "roleRef": {"apiGroup": "", "kind": "ClusterRole", "name": "view"}
        })
    );
    assert_eq!(
        filled("rbac.authorization.k8s.io/v1", "RoleBinding", json!({}))["roleRef"],
        json!({"apiGroup": "", "kind": "", "name": ""})
    );
}

#[test]
fn config_map_and_secret() {
    // Only the ObjectMeta struct: `Data`, `BinaryData` (maps), `Immutable` (*bool), and
    // Secret's `Type` and `StringData` are all omitempty. ObjectMeta is a struct, so it is
    // written (with its null creationTimestamp) even when absent.
    assert_eq!(
        filled(
            "v1",
            "ConfigMap",
            json!({"metadata": {"name": "c"}, "data": {"a": "b"}})
        ),
        json!({"metadata": {"name": "c", "creationTimestamp": null}, "data": {"a": "b"}})
    );
    assert_eq!(
        filled("v1", "ConfigMap", json!({})),
        json!({"metadata": {"creationTimestamp": null}})
    );
    assert_eq!(
        filled(
            "v1",
            "Secret",
            json!({"metadata": {"name": "s"}, "type": "Opaque", "data": {"k": "dg=="}})
        ),
        json!({
            "metadata": {"name": "s", "creationTimestamp": null},
            "type": "Opaque",
            "data": {"k": "dg=="}
        })
    );
}

#[test]
fn namespace_and_service() {
    // Namespace: `Spec NamespaceSpec` and `Status NamespaceStatus` are structs whose fields
    // are all omitempty.
    assert_eq!(
        filled("v1", "Namespace", json!({"metadata": {"name": "ns"}})),
        json!({"metadata": {"name": "ns", "creationTimestamp": null}, "spec": {}, "status": {}})
    );
    // ServiceStatus: `LoadBalancer LoadBalancerStatus json:"loadBalancer,omitempty"` is a
    // struct. ServicePort: `TargetPort intstr.IntOrString json:"targetPort,omitempty"` is a
    // struct too, whose zero value (type Int, 0) marshals as `0`.
    let out = filled(
        "v1",
        "Service",
        json!({"metadata": {"name": "svc"}, "spec": {"ports": [{"port": 80}]}}),
    );
    assert_eq!(
        out,
        json!({
            "metadata": {"name": "svc", "creationTimestamp": null},
            "spec": {"ports": [{"port": 80, "targetPort": 0}]},
            "status": {"loadBalancer": {}}
        })
    );
}

#[test]
fn pod() {
    // Container `Resources` (struct); EnvVar `Name string json:"name"` (present);
    // ResourceFieldSelector `Divisor resource.Quantity json:"divisor,omitempty"`: a struct,
    // and a zero Quantity marshals as "0"; Probe embeds `ProbeHandler json:",inline"` by
    // value, and HTTPGetAction `Port intstr.IntOrString json:"port"` → 0. Volume embeds
    // `VolumeSource json:",inline"`; KeyToPath `Path string json:"path"` → "".
    let out = filled(
        "v1",
        "Pod",
        json!({"spec": {
            "containers": [{
                "name": "c",
                "env": [{"name": "X", "valueFrom": {
                    "resourceFieldRef": {"resource": "limits.cpu"}
                }}],
                "livenessProbe": {"httpGet": {"path": "/"}}
            }],
            "volumes": [{"name": "v", "configMap": {"name": "cm", "items": [{"key": "k"}]}}]
        }}),
    );
    assert_eq!(
        out,
        json!({
            "metadata": {"creationTimestamp": null},
            "spec": {
                "containers": [{
                    "name": "c",
                    "env": [{"name": "X", "valueFrom": {"resourceFieldRef": {
                        "resource": "limits.cpu", "divisor": "0"
                    }}}],
                    "livenessProbe": {"httpGet": {"path": "/", "port": 0}},
                    "resources": {}
                }],
                "volumes": [{"name": "v", "configMap": {
                    "name": "cm", "items": [{"key": "k", "path": ""}]
                }}]
            },
            "status": {}
        })
    );
    // A volume without a name: `Name string json:"name"` has no omitempty.
    let out = filled(
        "v1",
        "Pod",
        json!({"spec": {"containers": [], "volumes": [{"emptyDir": {}}]}}),
    );
    assert_eq!(
        out["spec"],
        json!({"containers": [], "volumes": [{"name": "", "emptyDir": {}}]})
    );
}

#[test]
fn job_and_cron_job() {
    // JobSpec `Template corev1.PodTemplateSpec json:"template"`; JobStatus is all omitempty.
    let out = filled(
        "batch/v1",
        "Job",
        json!({"spec": {"template": {"spec": {"containers": [], "restartPolicy": "Never"}}}}),
    );
    assert_eq!(
        out,
        json!({
            "metadata": {"creationTimestamp": null},
            "spec": {"template": {
                "metadata": {"creationTimestamp": null},
                "spec": {"containers": [], "restartPolicy": "Never"}
            }},
            "status": {}
        })
    );
    // CronJobSpec: `Schedule string json:"schedule"`, `JobTemplate JobTemplateSpec
    // json:"jobTemplate"` (a struct with ObjectMeta and `Spec JobSpec`).
    assert_eq!(
        filled("batch/v1", "CronJob", json!({})),
        json!({
            "metadata": {"creationTimestamp": null},
            "spec": {
                "schedule": "",
                "jobTemplate": {
                    "metadata": {"creationTimestamp": null},
                    "spec": {"template": {
                        "metadata": {"creationTimestamp": null},
                        "spec": {"containers": null}
                    }}
                }
            },
            "status": {}
        })
    );
}

#[test]
fn persistent_volume_claim() {
    // PersistentVolumeClaimSpec: `Resources VolumeResourceRequirements
    // json:"resources,omitempty"` (a struct); the rest are pointers, slices or omitempty.
    let out = filled(
        "v1",
        "PersistentVolumeClaim",
        json!({"metadata": {"name": "p"}, "spec": {"accessModes": ["ReadWriteOnce"]}}),
    );
    assert_eq!(
        out,
        json!({
            "metadata": {"name": "p", "creationTimestamp": null},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {}},
            "status": {}
        })
    );
}

#[test]
fn events() {
    // core/v1 Event: `InvolvedObject ObjectReference` and `Source EventSource` (structs),
    // `FirstTimestamp`/`LastTimestamp metav1.Time` and `EventTime metav1.MicroTime` (zero →
    // null), `ReportingController string json:"reportingComponent"` and `ReportingInstance
    // string json:"reportingInstance"` (no omitempty).
    let out = filled(
        "v1",
        "Event",
        json!({
            "metadata": {"name": "e"},
            "involvedObject": {"kind": "Pod", "name": "p"},
            "reason": "R"
        }),
    );
    assert_eq!(
        out,
        json!({
            "metadata": {"name": "e", "creationTimestamp": null},
            "involvedObject": {"kind": "Pod", "name": "p"},
            "reason": "R",
            "source": {},
            "firstTimestamp": null,
            "lastTimestamp": null,
            "eventTime": null,
            "reportingComponent": "",
            "reportingInstance": ""
        })
    );
    // events/v1 Event: `EventTime metav1.MicroTime json:"eventTime"`, `Regarding
    // corev1.ObjectReference`, `DeprecatedSource corev1.EventSource` (structs),
    // `DeprecatedFirstTimestamp`/`DeprecatedLastTimestamp metav1.Time` (null).
    assert_eq!(
        filled("events.k8s.io/v1", "Event", json!({"reason": "R"})),
        json!({
            "metadata": {"creationTimestamp": null},
            "reason": "R",
            "eventTime": null,
            "regarding": {},
            "deprecatedSource": {},
            "deprecatedFirstTimestamp": null,
            "deprecatedLastTimestamp": null
        })
    );
}

#[test]
fn lease_and_controller_revision() {
    // LeaseSpec: every field is a pointer with omitempty.
    assert_eq!(
        filled(
            "coordination.k8s.io/v1",
            "Lease",
            json!({"spec": {"holderIdentity": "h"}})
        ),
        json!({"metadata": {"creationTimestamp": null}, "spec": {"holderIdentity": "h"}})
    );
    // ControllerRevision: `Data runtime.RawExtension json:"data,omitempty"` (a struct whose
    // empty form marshals as null), `Revision int64 json:"revision"`.
    assert_eq!(
        filled("apps/v1", "ControllerRevision", json!({})),
        json!({"metadata": {"creationTimestamp": null}, "data": null, "revision": 0})
    );
}

#[test]
fn custom_resource_definition_and_api_service() {
    // CustomResourceDefinitionSpec: `Group`, `Scope` strings, `Names` (struct: `Plural`,
    // `Kind` strings), `Versions []…` (null); CustomResourceDefinitionVersion's `Name`,
    // `Served`, `Storage` have no omitempty (present here). Status: `Conditions`,
    // `StoredVersions` (slices, no omitempty), `AcceptedNames` (struct). JSONSchemaProps is
    // all omitempty: the schema is left as is.
    let out = filled(
        "apiextensions.k8s.io/v1",
        "CustomResourceDefinition",
        json!({"spec": {
            "group": "g", "names": {"plural": "ps", "kind": "P"}, "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {
                "openAPIV3Schema": {"type": "object", "properties": {"a": {"type": "string"}}}
            }}]
        }}),
    );
    assert_eq!(
        out["status"],
        json!({
            "conditions": null,
            "acceptedNames": {"plural": "", "kind": ""},
            "storedVersions": null
        })
    );
    assert_eq!(
        out["spec"]["versions"][0],
        json!({"name": "v1", "served": true, "storage": true, "schema": {
            "openAPIV3Schema": {"type": "object", "properties": {"a": {"type": "string"}}}
        }})
    );
    // APIServiceSpec: `GroupPriorityMinimum int32` and `VersionPriority int32` have no
    // omitempty; `Service *ServiceReference` and `CABundle []byte` do.
    assert_eq!(
        filled("apiregistration.k8s.io/v1", "APIService", json!({})),
        json!({
            "metadata": {"creationTimestamp": null},
            "spec": {"groupPriorityMinimum": 0, "versionPriority": 0},
            "status": {}
        })
    );
}

#[test]
fn lists_and_maps_of_messages() {
    // ConfigMapList: `ListMeta json:"metadata,omitempty"` (a struct, all omitempty) and
    // `Items []ConfigMap json:"items"`; items are filled.
    assert_eq!(
        filled("v1", "ConfigMapList", json!({})),
        json!({"metadata": {}, "items": null})
    );
    assert_eq!(
        filled(
            "v1",
            "ConfigMapList",
            json!({"items": [{"metadata": {"name": "a"}}]})
        ),
        json!({"metadata": {}, "items": [{"metadata": {"name": "a", "creationTimestamp": null}}]})
    );
    // resource/v1beta2 Device `Capacity map[QualifiedName]DeviceCapacity`: map values are
    // filled (`Value resource.Quantity json:"value"` → "0"). ResourceSliceSpec: `Driver
    // string json:"driver"`, `Pool ResourcePool json:"pool"` (`Name`, `Generation`,
    // `ResourceSliceCount` without omitempty).
    let out = filled(
        "resource.k8s.io/v1beta2",
        "ResourceSlice",
        json!({"spec": {"devices": [{"name": "d", "capacity": {"mem": {}}}]}}),
    );
    assert_eq!(
        out["spec"],
        json!({
            "driver": "",
            "pool": {"name": "", "generation": 0, "resourceSliceCount": 0},
            "devices": [{"name": "d", "capacity": {"mem": {"value": "0"}}}]
        })
    );
}

/// Whether every value of `a` is in `b` unchanged (objects may have gained fields).
fn kept(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            a.iter().all(|(k, v)| b.get(k).is_some_and(|w| kept(v, w)))
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(v, w)| kept(v, w))
        }
        _ => a == b,
    }
}

#[test]
fn present_values_are_kept() {
    let input = json!({
        "apiVersion": "apps/v1",
        "kind": "StatefulSet",
        "metadata": {"name": "s", "creationTimestamp": "2024-01-02T03:04:05Z"},
        "spec": {
            "serviceName": "svc",
            "selector": null,
            "template": {"spec": {"containers": [
                {"name": "c", "resources": {"limits": {"cpu": "1"}}}
            ]}},
            "updateStrategy": {"type": "OnDelete"}
        },
        "status": {"replicas": 3, "availableReplicas": null}
    });
    let out = filled("apps/v1", "StatefulSet", input.clone());
    assert!(kept(&input, &out), "{out}");
    // `null` stays null; absent fields are added inside present objects.
    assert_eq!(out["spec"]["selector"], Value::Null);
    assert_eq!(
        out["status"],
        json!({"replicas": 3, "availableReplicas": null})
    );
    assert_eq!(
        out["spec"]["template"]["metadata"],
        json!({"creationTimestamp": null})
    );
    // Values of the wrong JSON type are left alone.
    let odd = json!({"spec": "x", "status": [1], "metadata": 7});
    assert_eq!(filled("v1", "Namespace", odd.clone()), odd);
    // Not an object, or a type with its own JSON form: nothing to do.
    let mut s = json!("1Gi");
    let quantity =
        crate::type_def("io.k8s.apimachinery.pkg.api.resource.Quantity").expect("quantity");
    fill_zero_fields(quantity, &mut s);
    assert_eq!(s, json!("1Gi"));
}

#[test]
fn filling_is_idempotent_and_never_adds_type_meta() {
    for def in all_types() {
        let mut once = json!({});
        fill_zero_fields(def, &mut once);
        let mut twice = once.clone();
        fill_zero_fields(def, &mut twice);
        assert_eq!(once, twice, "{}", def.name);
        if def.gvk.is_some() {
            assert!(once.get("apiVersion").is_none(), "{}", def.name);
            assert!(once.get("kind").is_none(), "{}", def.name);
        }
    }
    let full = json!({"metadata": {"name": "d"}, "spec": {"template": {"spec": {
        "containers": [{"name": "c", "ports": [{"containerPort": 80}]}]
    }}}});
    let once = filled("apps/v1", "Deployment", full);
    assert_eq!(filled("apps/v1", "Deployment", once.clone()), once);
}

/// Each zero fits its field: what [`fill_zero_fields`] writes is a value of the field's type.
#[test]
fn zeros_fit_their_fields() {
    let mut counts = [0usize; 5];
    for def in all_types() {
        for f in def.fields {
            let Some(zero) = f.zero else { continue };
            let format = f.message().map(|d| d.format);
            let fits = match (zero, f.kind) {
                (Zero::Object, FieldKind::Single(Elem::Message(d))) => d.format == Format::Object,
                (Zero::Object, _) => false,
                (_, _) if f.inline => false,
                // Slices, maps and pointers of any type without omitempty (`Selector
                // *metav1.LabelSelector json:"selector"`, `SideEffects *SideEffectClass
                // json:"sideEffects"`), and the special structs whose zero is null.
                (Zero::Null, _) => true,
                (Zero::False, FieldKind::Single(Elem::Scalar(Scalar::Bool))) => true,
                (Zero::False, _) => format == Some(Format::JsonSchemaPropsOrBool),
                (Zero::Number, FieldKind::Single(Elem::Scalar(s))) => {
                    matches!(s, Scalar::Int32 | Scalar::Int64 | Scalar::Double)
                }
                (Zero::Number, _) => format == Some(Format::IntOrString),
                (Zero::String(""), FieldKind::Single(Elem::Scalar(Scalar::String))) => true,
                (Zero::String("0"), _) => format == Some(Format::Quantity),
                (Zero::String("0s"), _) => format == Some(Format::Duration),
                _ => false,
            };
            assert!(fits, "{}.{}: {zero:?} for {:?}", def.name, f.json, f.kind);
            counts[match zero {
                Zero::Null => 0,
                Zero::False => 1,
                Zero::Number => 2,
                Zero::String(_) => 3,
                Zero::Object => 4,
            }] += 1;
        }
    }
    // Every kind of zero is in use (the table was generated with the Go types).
    assert!(counts.iter().all(|c| *c > 0), "{counts:?}");
    assert!(counts[4] > 300, "{counts:?}");
}
