//! The resources of the named groups `networking.k8s.io` to `storage.k8s.io`, in that
//! (alphabetical) order.

use kas_server::rest::{NameRule, Resource};

use super::r;
use crate::columns as col;
use crate::defaults;
use crate::validation;

pub(super) const RESOURCES: &[Resource] = &[
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
    .generation()
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
    .prepare(defaults::priority_class_prepare)
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
