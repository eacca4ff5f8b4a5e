//! Every resource of the GA groups of Kubernetes v1.33, as data: names, scope, registry
//! path, subresources, field selectors, schema definition, strategy and printer columns.

use kas_server::rest::{Conversion, NameRule, Resource};

use crate::conversions;

use crate::columns as col;
use crate::defaults;
use crate::validation;

const CORE: &str = "";
const ALL: &[&str] = &["all"];
const API_EXT: &[&str] = &["api-extensions"];

/// A resource of `group/version`, plural, singular, kind, with its OpenAPI definition.
const fn r(
    group: &'static str,
    version: &'static str,
    plural: &'static str,
    singular: &'static str,
    kind: &'static str,
    definition: &'static str,
) -> Resource {
    Resource::new(group, version, plural, singular, kind).definition(definition)
}

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

/// Job defaults, with the selector generated from the uid on create as upstream does.
fn job_defaults(obj: &mut serde_json::Value) {
    let uid = obj
        .pointer("/metadata/uid")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("")
        .to_owned();
    if !uid.is_empty() {
        defaults::job_generate_selector(obj, &uid);
    }
    defaults::job_defaults(obj);
}

/// The built-in resources the kube-api worker serves.
pub const RESOURCES: &[Resource] = &[
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
    .cluster()
    .short(&["pv"])
    .subresources(&["status"])
    .columns(col::PV),
    r(CORE, "v1", "pods", "pod", "Pod", "io.k8s.api.core.v1.Pod")
        .strategy(defaults::pod_defaults, validation::pod)
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
    .key_path("services/specs")
    .short(&["svc"])
    .categories(ALL)
    .subresources(&["proxy", "status"])
    .fields(&["spec.clusterIP", "spec.type"])
    .columns(col::SERVICE),
    // admissionregistration.k8s.io/v1
    r(
        "admissionregistration.k8s.io",
        "v1",
        "mutatingwebhookconfigurations",
        "mutatingwebhookconfiguration",
        "MutatingWebhookConfiguration",
        "io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration",
    )
    .conditional_updates()
    .strategy(
        validation::mutating_webhook_defaults,
        validation::mutating_webhooks,
    )
    .cluster()
    .categories(API_EXT)
    .generation()
    .columns(col::WEBHOOK_CONFIGURATION),
    r(
        "admissionregistration.k8s.io",
        "v1",
        "validatingadmissionpolicies",
        "validatingadmissionpolicy",
        "ValidatingAdmissionPolicy",
        "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy",
    )
    .conditional_updates()
    .strategy(validation::policy_defaults, validation::admission_policy)
    .cluster()
    .categories(API_EXT)
    .subresources(&["status"])
    .generation()
    .columns(col::VALIDATING_ADMISSION_POLICY),
    r(
        "admissionregistration.k8s.io",
        "v1",
        "validatingadmissionpolicybindings",
        "validatingadmissionpolicybinding",
        "ValidatingAdmissionPolicyBinding",
        "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicyBinding",
    )
    .conditional_updates()
    .strategy(
        validation::binding_defaults,
        validation::admission_policy_binding,
    )
    .cluster()
    .categories(API_EXT)
    .generation()
    .columns(col::VALIDATING_ADMISSION_POLICY_BINDING),
    r(
        "admissionregistration.k8s.io",
        "v1",
        "validatingwebhookconfigurations",
        "validatingwebhookconfiguration",
        "ValidatingWebhookConfiguration",
        "io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration",
    )
    .conditional_updates()
    .strategy(
        validation::validating_webhook_defaults,
        validation::validating_webhooks,
    )
    .cluster()
    .categories(API_EXT)
    .generation()
    .columns(col::WEBHOOK_CONFIGURATION),
    // apps/v1
    r(
        "apps",
        "v1",
        "controllerrevisions",
        "controllerrevision",
        "ControllerRevision",
        "io.k8s.api.apps.v1.ControllerRevision",
    )
    .strategy(
        kas_server::rest::no_defaults,
        validation::controller_revision,
    )
    .columns(col::CONTROLLER_REVISION),
    r(
        "apps",
        "v1",
        "daemonsets",
        "daemonset",
        "DaemonSet",
        "io.k8s.api.apps.v1.DaemonSet",
    )
    .strategy(defaults::daemonset_defaults, validation::daemonset)
    .short(&["ds"])
    .categories(ALL)
    .subresources(&["status"])
    .generation()
    .columns(col::DAEMON_SET),
    r(
        "apps",
        "v1",
        "deployments",
        "deployment",
        "Deployment",
        "io.k8s.api.apps.v1.Deployment",
    )
    .strategy(defaults::deployment_defaults, validation::deployment)
    .short(&["deploy"])
    .categories(ALL)
    .subresources(&["scale", "status"])
    .scale(true)
    .generation()
    .columns(col::DEPLOYMENT),
    r(
        "apps",
        "v1",
        "replicasets",
        "replicaset",
        "ReplicaSet",
        "io.k8s.api.apps.v1.ReplicaSet",
    )
    .strategy(defaults::replicaset_defaults, validation::replicaset)
    .short(&["rs"])
    .categories(ALL)
    .subresources(&["scale", "status"])
    .scale(true)
    .fields(&["status.replicas"])
    .generation()
    .columns(col::REPLICA_SET),
    r(
        "apps",
        "v1",
        "statefulsets",
        "statefulset",
        "StatefulSet",
        "io.k8s.api.apps.v1.StatefulSet",
    )
    .strategy(defaults::statefulset_defaults, validation::statefulset)
    .short(&["sts"])
    .categories(ALL)
    .subresources(&["scale", "status"])
    .scale(true)
    .generation()
    .columns(col::STATEFUL_SET),
    // authentication.k8s.io/v1
    r(
        "authentication.k8s.io",
        "v1",
        "selfsubjectreviews",
        "selfsubjectreview",
        "SelfSubjectReview",
        "io.k8s.api.authentication.v1.SelfSubjectReview",
    )
    .cluster()
    .create_only(),
    r(
        "authentication.k8s.io",
        "v1",
        "tokenreviews",
        "tokenreview",
        "TokenReview",
        "io.k8s.api.authentication.v1.TokenReview",
    )
    .cluster()
    .create_only(),
    // authorization.k8s.io/v1
    r(
        "authorization.k8s.io",
        "v1",
        "localsubjectaccessreviews",
        "localsubjectaccessreview",
        "LocalSubjectAccessReview",
        "io.k8s.api.authorization.v1.LocalSubjectAccessReview",
    )
    .create_only(),
    r(
        "authorization.k8s.io",
        "v1",
        "selfsubjectaccessreviews",
        "selfsubjectaccessreview",
        "SelfSubjectAccessReview",
        "io.k8s.api.authorization.v1.SelfSubjectAccessReview",
    )
    .cluster()
    .create_only(),
    r(
        "authorization.k8s.io",
        "v1",
        "selfsubjectrulesreviews",
        "selfsubjectrulesreview",
        "SelfSubjectRulesReview",
        "io.k8s.api.authorization.v1.SelfSubjectRulesReview",
    )
    .cluster()
    .create_only(),
    r(
        "authorization.k8s.io",
        "v1",
        "subjectaccessreviews",
        "subjectaccessreview",
        "SubjectAccessReview",
        "io.k8s.api.authorization.v1.SubjectAccessReview",
    )
    .cluster()
    .create_only(),
    // autoscaling/v2 (storage) and v1
    r(
        "autoscaling",
        "v2",
        "horizontalpodautoscalers",
        "horizontalpodautoscaler",
        "HorizontalPodAutoscaler",
        "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler",
    )
    .strategy(defaults::hpa_v2_defaults, validation::hpa_v2)
    .short(&["hpa"])
    .categories(ALL)
    .subresources(&["status"])
    .generation()
    .columns(col::HPA),
    r(
        "autoscaling",
        "v1",
        "horizontalpodautoscalers",
        "horizontalpodautoscaler",
        "HorizontalPodAutoscaler",
        "io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler",
    )
    .strategy(defaults::hpa_v1_defaults, validation::hpa_v1)
    .short(&["hpa"])
    .categories(ALL)
    .subresources(&["status"])
    .generation()
    .converted(Conversion {
        storage_api_version: "autoscaling/v2",
        to_storage: conversions::hpa_v1_to_v2,
        from_storage: conversions::hpa_v2_to_v1,
    })
    .columns(col::HPA),
    // batch/v1
    r(
        "batch",
        "v1",
        "cronjobs",
        "cronjob",
        "CronJob",
        "io.k8s.api.batch.v1.CronJob",
    )
    .strategy(defaults::cronjob_defaults, validation::cronjob)
    .short(&["cj"])
    .categories(ALL)
    .subresources(&["status"])
    .generation()
    .columns(col::CRON_JOB),
    r(
        "batch",
        "v1",
        "jobs",
        "job",
        "Job",
        "io.k8s.api.batch.v1.Job",
    )
    .strategy(job_defaults, validation::job)
    .categories(ALL)
    .subresources(&["status"])
    .fields(&["status.successful"])
    .generation()
    .columns(col::JOB),
    // certificates.k8s.io/v1
    r(
        "certificates.k8s.io",
        "v1",
        "certificatesigningrequests",
        "certificatesigningrequest",
        "CertificateSigningRequest",
        "io.k8s.api.certificates.v1.CertificateSigningRequest",
    )
    .strategy(kas_server::rest::no_defaults, validation::csr)
    .cluster()
    .short(&["csr"])
    .subresources(&["approval", "status"])
    .fields(&["spec.signerName"])
    .columns(col::CSR),
    // coordination.k8s.io/v1
    r(
        "coordination.k8s.io",
        "v1",
        "leases",
        "lease",
        "Lease",
        "io.k8s.api.coordination.v1.Lease",
    )
    .strategy(kas_server::rest::no_defaults, validation::lease)
    .conditional_updates()
    .create_on_update()
    .columns(col::LEASE),
    // discovery.k8s.io/v1
    r(
        "discovery.k8s.io",
        "v1",
        "endpointslices",
        "endpointslice",
        "EndpointSlice",
        "io.k8s.api.discovery.v1.EndpointSlice",
    )
    .strategy(defaults::endpointslice_defaults, validation::endpointslice)
    .columns(col::ENDPOINT_SLICE),
    // events.k8s.io/v1: the same objects as core/v1 events (stored in that shape).
    r(
        "events.k8s.io",
        "v1",
        "events",
        "event",
        "Event",
        "io.k8s.api.events.v1.Event",
    )
    .create_on_update()
    .strategy(kas_server::rest::no_defaults, validation::event_v1)
    .short(&["ev"])
    .converted(Conversion {
        storage_api_version: "v1",
        to_storage: conversions::event_to_core,
        from_storage: conversions::event_from_core,
    })
    .columns(col::EVENT_V1),
    // flowcontrol.apiserver.k8s.io/v1
    r(
        "flowcontrol.apiserver.k8s.io",
        "v1",
        "flowschemas",
        "flowschema",
        "FlowSchema",
        "io.k8s.api.flowcontrol.v1.FlowSchema",
    )
    .strategy(defaults::flowschema_defaults, validation::flowschema)
    .cluster()
    .subresources(&["status"])
    .generation()
    .columns(col::FLOW_SCHEMA)
    .row_order(col::flow_schema_order),
    r(
        "flowcontrol.apiserver.k8s.io",
        "v1",
        "prioritylevelconfigurations",
        "prioritylevelconfiguration",
        "PriorityLevelConfiguration",
        "io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration",
    )
    .strategy(
        defaults::priority_level_defaults,
        validation::priority_level,
    )
    .cluster()
    .subresources(&["status"])
    .generation()
    .columns(col::PRIORITY_LEVEL),
    // networking.k8s.io/v1
    r(
        "networking.k8s.io",
        "v1",
        "ingressclasses",
        "ingressclass",
        "IngressClass",
        "io.k8s.api.networking.v1.IngressClass",
    )
    .strategy(defaults::ingress_class_defaults, validation::ingress_class)
    .cluster()
    .columns(col::INGRESS_CLASS),
    r(
        "networking.k8s.io",
        "v1",
        "ingresses",
        "ingress",
        "Ingress",
        "io.k8s.api.networking.v1.Ingress",
    )
    .strategy(kas_server::rest::no_defaults, validation::ingress)
    .key_path("ingress")
    .short(&["ing"])
    .subresources(&["status"])
    .generation()
    .columns(col::INGRESS),
    r(
        "networking.k8s.io",
        "v1",
        "ipaddresses",
        "ipaddress",
        "IPAddress",
        "io.k8s.api.networking.v1.IPAddress",
    )
    .strategy(kas_server::rest::no_defaults, validation::ip_address)
    .cluster()
    .names(NameRule::Ip)
    .short(&["ip"])
    // Stored as v1beta1, as kube-apiserver 1.33 stores it (the same schema).
    .storage_version("v1beta1")
    .columns(col::IP_ADDRESS),
    r(
        "networking.k8s.io",
        "v1",
        "networkpolicies",
        "networkpolicy",
        "NetworkPolicy",
        "io.k8s.api.networking.v1.NetworkPolicy",
    )
    .strategy(
        defaults::network_policy_defaults,
        validation::network_policy,
    )
    .short(&["netpol"])
    .generation()
    .columns(col::NETWORK_POLICY),
    r(
        "networking.k8s.io",
        "v1",
        "servicecidrs",
        "servicecidr",
        "ServiceCIDR",
        "io.k8s.api.networking.v1.ServiceCIDR",
    )
    .strategy(kas_server::rest::no_defaults, validation::service_cidr)
    .cluster()
    .subresources(&["status"])
    .storage_version("v1beta1")
    .columns(col::SERVICE_CIDR),
    // node.k8s.io/v1
    r(
        "node.k8s.io",
        "v1",
        "runtimeclasses",
        "runtimeclass",
        "RuntimeClass",
        "io.k8s.api.node.v1.RuntimeClass",
    )
    .strategy(kas_server::rest::no_defaults, validation::runtime_class)
    .conditional_updates()
    .create_on_update()
    .cluster()
    .columns(col::RUNTIME_CLASS),
    // policy/v1
    r(
        "policy",
        "v1",
        "poddisruptionbudgets",
        "poddisruptionbudget",
        "PodDisruptionBudget",
        "io.k8s.api.policy.v1.PodDisruptionBudget",
    )
    .conditional_updates()
    .strategy(
        kas_server::rest::no_defaults,
        validation::pod_disruption_budget,
    )
    .short(&["pdb"])
    .subresources(&["status"])
    .generation()
    .columns(col::PDB),
    // rbac.authorization.k8s.io/v1
    r(
        "rbac.authorization.k8s.io",
        "v1",
        "clusterrolebindings",
        "clusterrolebinding",
        "ClusterRoleBinding",
        "io.k8s.api.rbac.v1.ClusterRoleBinding",
    )
    .create_on_update()
    .strategy(defaults::binding_defaults, validation::cluster_role_binding)
    .names(NameRule::PathSegment)
    .cluster()
    .columns(col::ROLE_BINDING),
    r(
        "rbac.authorization.k8s.io",
        "v1",
        "clusterroles",
        "clusterrole",
        "ClusterRole",
        "io.k8s.api.rbac.v1.ClusterRole",
    )
    .create_on_update()
    .strategy(kas_server::rest::no_defaults, validation::cluster_role)
    .names(NameRule::PathSegment)
    .cluster(),
    r(
        "rbac.authorization.k8s.io",
        "v1",
        "rolebindings",
        "rolebinding",
        "RoleBinding",
        "io.k8s.api.rbac.v1.RoleBinding",
    )
    .create_on_update()
    .strategy(defaults::binding_defaults, validation::role_binding)
    .names(NameRule::PathSegment)
    .columns(col::ROLE_BINDING),
    r(
        "rbac.authorization.k8s.io",
        "v1",
        "roles",
        "role",
        "Role",
        "io.k8s.api.rbac.v1.Role",
    )
    .create_on_update()
    .strategy(kas_server::rest::no_defaults, validation::role)
    .names(NameRule::PathSegment),
    // scheduling.k8s.io/v1
    r(
        "scheduling.k8s.io",
        "v1",
        "priorityclasses",
        "priorityclass",
        "PriorityClass",
        "io.k8s.api.scheduling.v1.PriorityClass",
    )
    .strategy(
        defaults::priority_class_defaults,
        validation::priority_class,
    )
    .cluster()
    .short(&["pc"])
    .columns(col::PRIORITY_CLASS),
    // storage.k8s.io/v1
    r(
        "storage.k8s.io",
        "v1",
        "csidrivers",
        "csidriver",
        "CSIDriver",
        "io.k8s.api.storage.v1.CSIDriver",
    )
    .conditional_updates()
    .strategy(defaults::csi_driver_defaults, validation::csi_driver)
    .cluster()
    .columns(col::CSI_DRIVER),
    r(
        "storage.k8s.io",
        "v1",
        "csinodes",
        "csinode",
        "CSINode",
        "io.k8s.api.storage.v1.CSINode",
    )
    .strategy(kas_server::rest::no_defaults, validation::csi_node)
    .conditional_updates()
    .cluster()
    .columns(col::CSI_NODE),
    r(
        "storage.k8s.io",
        "v1",
        "csistoragecapacities",
        "csistoragecapacity",
        "CSIStorageCapacity",
        "io.k8s.api.storage.v1.CSIStorageCapacity",
    )
    .strategy(
        kas_server::rest::no_defaults,
        validation::csi_storage_capacity,
    )
    .conditional_updates(),
    r(
        "storage.k8s.io",
        "v1",
        "storageclasses",
        "storageclass",
        "StorageClass",
        "io.k8s.api.storage.v1.StorageClass",
    )
    .strategy(defaults::storage_class_defaults, validation::storage_class)
    .cluster()
    .short(&["sc"])
    .columns(col::STORAGE_CLASS),
    r(
        "storage.k8s.io",
        "v1",
        "volumeattachments",
        "volumeattachment",
        "VolumeAttachment",
        "io.k8s.api.storage.v1.VolumeAttachment",
    )
    .strategy(kas_server::rest::no_defaults, validation::volume_attachment)
    .conditional_updates()
    .cluster()
    .subresources(&["status"])
    .columns(col::VOLUME_ATTACHMENT),
];

/// The API groups served, in upstream's discovery order, with their versions
/// (preferred first).
pub(crate) const GROUPS: &[(&str, &[&str])] = &[
    ("apps", &["v1"]),
    ("events.k8s.io", &["v1"]),
    ("authentication.k8s.io", &["v1"]),
    ("authorization.k8s.io", &["v1"]),
    ("autoscaling", &["v2", "v1"]),
    ("batch", &["v1"]),
    ("certificates.k8s.io", &["v1"]),
    ("networking.k8s.io", &["v1"]),
    ("policy", &["v1"]),
    ("rbac.authorization.k8s.io", &["v1"]),
    ("storage.k8s.io", &["v1"]),
    ("admissionregistration.k8s.io", &["v1"]),
    ("scheduling.k8s.io", &["v1"]),
    ("coordination.k8s.io", &["v1"]),
    ("node.k8s.io", &["v1"]),
    ("discovery.k8s.io", &["v1"]),
    ("flowcontrol.apiserver.k8s.io", &["v1"]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_resource_is_in_a_served_group_once() {
        let mut seen = std::collections::HashSet::new();
        for r in RESOURCES {
            assert!(
                r.group.is_empty()
                    || GROUPS
                        .iter()
                        .any(|(g, vs)| *g == r.group && vs.contains(&r.version)),
                "{} {}",
                r.group,
                r.plural
            );
            assert!(seen.insert((r.group, r.version, r.plural)), "{}", r.plural);
        }
        assert!(RESOURCES.len() >= 55);
    }

    /// Encryption at rest finds a value's resource from its key alone: every stored
    /// resource's key path must lead back to it (events.k8s.io's events are core events
    /// in etcd, as upstream stores them).
    #[test]
    fn every_key_path_names_its_resource_for_encryption() {
        use kas_server::storage::encryption::resources::of_key_path;
        for r in RESOURCES.iter().filter(|r| r.verbs.stored()) {
            let key = format!("{}/ns/name", r.key_path);
            let gr = of_key_path(&key);
            let group = match r.group {
                "events.k8s.io" => "",
                g => g,
            };
            assert_eq!((gr.group, gr.resource), (group, r.plural), "{}", r.key_path);
        }
    }
}
