//! The core (legacy) group's resources, `/api/v1`.

use kas_server::rest::{NameRule, Resource};

use super::{r, ALL, CORE};
use crate::columns as col;
use crate::defaults;
use crate::validation;

/// Namespace defaults, and the `kubernetes.io/metadata.name` label upstream keeps equal
/// to the name.
fn namespace_defaults(obj: &mut serde_json::Value) {
    defaults::namespace_defaults(obj);
    let name = obj
        .pointer("/metadata/name")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("")
        .to_owned();
    if name.is_empty() {
        return;
    }
    if let Some(meta) = obj
        .get_mut("metadata")
        .and_then(serde_json::Value::as_object_mut)
    {
        let labels = meta
            .entry("labels")
            .or_insert_with(|| serde_json::json!({}));
        if !labels.is_object() {
            *labels = serde_json::json!({});
        }
        labels["kubernetes.io/metadata.name"] = serde_json::json!(name);
    }
}

pub(super) const RESOURCES: &[Resource] = &[
    // core/v1
    r(
        CORE,
        "v1",
        "bindings",
        "binding",
        "Binding",
        "io.k8s.api.core.v1.Binding",
    )
    .create_only(),
    r(
        CORE,
        "v1",
        "componentstatuses",
        "componentstatus",
        "ComponentStatus",
        "io.k8s.api.core.v1.ComponentStatus",
    )
    .cluster()
    .short(&["cs"])
    .read_only()
    .deprecated("1.19")
    .columns(col::COMPONENT_STATUS),
    r(
        CORE,
        "v1",
        "configmaps",
        "configmap",
        "ConfigMap",
        "io.k8s.api.core.v1.ConfigMap",
    )
    .short(&["cm"])
    .strategy(kas_server::rest::no_defaults, validation::configmap)
    .columns(col::CONFIGMAP),
    r(
        CORE,
        "v1",
        "endpoints",
        "endpoints",
        "Endpoints",
        "io.k8s.api.core.v1.Endpoints",
    )
    .create_on_update()
    .strategy(defaults::endpoints_defaults, validation::endpoints)
    .key_path("services/endpoints")
    .short(&["ep"])
    .columns(col::ENDPOINTS),
    r(
        CORE,
        "v1",
        "events",
        "event",
        "Event",
        "io.k8s.api.core.v1.Event",
    )
    .create_on_update()
    .strategy(kas_server::rest::no_defaults, validation::event)
    .short(&["ev"])
    .fields(&[
        "involvedObject.kind",
        "involvedObject.namespace",
        "involvedObject.name",
        "involvedObject.uid",
        "involvedObject.apiVersion",
        "involvedObject.resourceVersion",
        "involvedObject.fieldPath",
        "reason",
        "reportingComponent",
        "source",
        "type",
    ])
    .columns(col::EVENT),
    r(
        CORE,
        "v1",
        "limitranges",
        "limitrange",
        "LimitRange",
        "io.k8s.api.core.v1.LimitRange",
    )
    .create_on_update()
    .strategy(defaults::limit_range_defaults, validation::limit_range)
    .short(&["limits"]),
    r(
        CORE,
        "v1",
        "namespaces",
        "namespace",
        "Namespace",
        "io.k8s.api.core.v1.Namespace",
    )
    .names(NameRule::Label)
    .strategy(namespace_defaults, validation::namespace)
    .prepare(defaults::namespace_prepare)
    .no_collection_delete()
    .cluster()
    .short(&["ns"])
    .subresources(&["finalize", "status"])
    .fields(&["status.phase"])
    .columns(col::NAMESPACE),
    r(
        CORE,
        "v1",
        "nodes",
        "node",
        "Node",
        "io.k8s.api.core.v1.Node",
    )
    .strategy(defaults::node_defaults, validation::node)
    .prepare(validation::node_prepare)
    .cluster()
    .key_path("minions")
    .short(&["no"])
    .subresources(&["proxy", "status"])
    .fields(&["spec.unschedulable"])
    .columns(col::NODE),
    r(
        CORE,
        "v1",
        "persistentvolumeclaims",
        "persistentvolumeclaim",
        "PersistentVolumeClaim",
        "io.k8s.api.core.v1.PersistentVolumeClaim",
    )
    .strategy(
        defaults::persistent_volume_claim_defaults,
        validation::persistent_volume_claim,
    )
    .prepare(validation::claim_prepare)
    .warnings(validation::claim_warnings)
    .short(&["pvc"])
    .subresources(&["status"])
    .columns(col::PVC),
    r(
        CORE,
        "v1",
        "persistentvolumes",
        "persistentvolume",
        "PersistentVolume",
        "io.k8s.api.core.v1.PersistentVolume",
    )
    .strategy(
        defaults::persistent_volume_defaults,
        validation::persistent_volume,
    )
    .warnings(validation::persistent_volume_warnings)
    .cluster()
    .short(&["pv"])
    .subresources(&["status"])
    .columns(col::PV),
    r(CORE, "v1", "pods", "pod", "Pod", "io.k8s.api.core.v1.Pod")
        .strategy(defaults::pod_defaults, validation::pod)
        .prepare(validation::pod_prepare)
        .graceful(validation::pod_grace_period)
        .generation()
        .warnings(validation::pod_warnings)
        .short(&["po"])
        .categories(ALL)
        .subresources(&[
            "attach",
            "binding",
            "ephemeralcontainers",
            "eviction",
            "exec",
            "log",
            "portforward",
            "proxy",
            "resize",
            "status",
        ])
        .fields(&[
            "spec.nodeName",
            "spec.restartPolicy",
            "spec.schedulerName",
            "spec.serviceAccountName",
            "spec.hostNetwork",
            "status.phase",
            "status.podIP",
            "status.podIPs",
            "status.nominatedNodeName",
        ])
        .columns(col::POD),
    r(
        CORE,
        "v1",
        "podtemplates",
        "podtemplate",
        "PodTemplate",
        "io.k8s.api.core.v1.PodTemplate",
    )
    .strategy(
        defaults::pod_template_defaults,
        validation::pod_template_object,
    )
    .prepare(validation::pod_template_prepare)
    .warnings(validation::pod_template_warnings)
    // PodTemplates count template changes in metadata.generation, as upstream's strategy.
    .generation()
    .columns(col::POD_TEMPLATE),
    r(
        CORE,
        "v1",
        "replicationcontrollers",
        "replicationcontroller",
        "ReplicationController",
        "io.k8s.api.core.v1.ReplicationController",
    )
    .strategy(
        defaults::replication_controller_defaults,
        validation::replication_controller,
    )
    .prepare(validation::template_prepare)
    .warnings(validation::workload_warnings)
    .key_path("controllers")
    .short(&["rc"])
    .categories(ALL)
    .subresources(&["scale", "status"])
    .scale(false)
    .fields(&["status.replicas"])
    .generation()
    .columns(col::REPLICATION_CONTROLLER),
    r(
        CORE,
        "v1",
        "resourcequotas",
        "resourcequota",
        "ResourceQuota",
        "io.k8s.api.core.v1.ResourceQuota",
    )
    .strategy(
        defaults::resource_quota_defaults,
        validation::resource_quota,
    )
    .short(&["quota"])
    .subresources(&["status"])
    .columns(col::RESOURCE_QUOTA),
    r(
        CORE,
        "v1",
        "secrets",
        "secret",
        "Secret",
        "io.k8s.api.core.v1.Secret",
    )
    .strategy(defaults::secret_defaults, validation::secret)
    .fields(&["type"])
    .columns(col::SECRET),
    r(
        CORE,
        "v1",
        "serviceaccounts",
        "serviceaccount",
        "ServiceAccount",
        "io.k8s.api.core.v1.ServiceAccount",
    )
    .strategy(kas_server::rest::no_defaults, validation::serviceaccount)
    .short(&["sa"])
    .subresources(&["token"])
    .columns(col::SERVICE_ACCOUNT),
    r(
        CORE,
        "v1",
        "services",
        "service",
        "Service",
        "io.k8s.api.core.v1.Service",
    )
    .create_on_update()
    .names(NameRule::Dns1035)
    .strategy(defaults::service_defaults, validation::service)
    .prepare(defaults::service_prepare)
    .key_path("services/specs")
    .short(&["svc"])
    .categories(ALL)
    .subresources(&["proxy", "status"])
    .fields(&["spec.clusterIP", "spec.type"])
    .columns(col::SERVICE),
];
