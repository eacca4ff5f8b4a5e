//! The bootstrap ClusterRoles of kube-controller-manager's controllers
//! (`system:controller:<name>`, each bound to the service account `<name>` in
//! `kube-system`), and the namespaced Roles of `kube-system` and `kube-public`.

use serde_json::Value;

use super::{cluster_role, events, r, rn, role, READ};

/// The controllers with a bootstrap ClusterRole, in upstream's (alphabetical) order.
pub(super) const NAMES: &[&str] = &[
    "attachdetach-controller",
    "certificate-controller",
    "clusterrole-aggregation-controller",
    "cronjob-controller",
    "daemon-set-controller",
    "deployment-controller",
    "device-taint-eviction-controller",
    "disruption-controller",
    "endpoint-controller",
    "endpointslice-controller",
    "endpointslicemirroring-controller",
    "ephemeral-volume-controller",
    "expand-controller",
    "generic-garbage-collector",
    "horizontal-pod-autoscaler",
    "job-controller",
    "legacy-service-account-token-cleaner",
    "namespace-controller",
    "node-controller",
    "persistent-volume-binder",
    "pod-garbage-collector",
    "pv-protection-controller",
    "pvc-protection-controller",
    "replicaset-controller",
    "replication-controller",
    "resource-claim-controller",
    "resourcequota-controller",
    "root-ca-cert-publisher",
    "route-controller",
    "selinux-warning-controller",
    "service-account-controller",
    "service-cidrs-controller",
    "service-controller",
    "statefulset-controller",
    "ttl-after-finished-controller",
    "ttl-controller",
    "validatingadmissionpolicy-status-controller",
    "volumeattributesclass-protection-controller",
];

const CRUD: &str = "create delete get list patch update watch";

/// The rules of controller `name` (see [`NAMES`]).
fn rules(name: &str) -> Vec<Value> {
    match name {
        "attachdetach-controller" => vec![
            r("list watch", "core", "persistentvolumeclaims persistentvolumes"),
            r(READ, "core", "nodes"),
            r("patch update", "core", "nodes/status"),
            r("list watch", "core", "pods"),
            events(),
            r("create delete get list watch", "storage.k8s.io", "volumeattachments"),
            r(READ, "storage.k8s.io", "csidrivers"),
            r(READ, "storage.k8s.io", "csinodes"),
        ],
        "certificate-controller" => vec![
            r("delete get list watch", "certificates.k8s.io", "certificatesigningrequests"),
            r("update", "certificates.k8s.io", "certificatesigningrequests/approval certificatesigningrequests/status"),
            rn("approve", "certificates.k8s.io", "signers", "kubernetes.io/kube-apiserver-client-kubelet"),
            rn(
                "sign",
                "certificates.k8s.io",
                "signers",
                "kubernetes.io/kube-apiserver-client kubernetes.io/kube-apiserver-client-kubelet kubernetes.io/kubelet-serving kubernetes.io/legacy-unknown",
            ),
            r("create", "authorization.k8s.io", "subjectaccessreviews"),
            events(),
        ],
        "clusterrole-aggregation-controller" => vec![r(
            "escalate get list patch update watch",
            "rbac.authorization.k8s.io",
            "clusterroles",
        )],
        "cronjob-controller" => vec![
            r("get list update watch", "batch", "cronjobs"),
            r(CRUD, "batch", "jobs"),
            r("update", "batch", "cronjobs/status"),
            r("update", "batch", "cronjobs/finalizers"),
            r("delete list watch", "core", "pods"),
            events(),
        ],
        "daemon-set-controller" => vec![
            r(READ, "apps extensions", "daemonsets"),
            r("update", "apps extensions", "daemonsets/status"),
            r("update", "apps extensions", "daemonsets/finalizers"),
            r("list watch", "core", "nodes"),
            r("create delete list patch watch", "core", "pods"),
            r("create", "core", "pods/binding"),
            r(CRUD, "apps", "controllerrevisions"),
            events(),
        ],
        "deployment-controller" => vec![
            r("get list update watch", "apps extensions", "deployments"),
            r("update", "apps extensions", "deployments/status"),
            r("update", "apps extensions", "deployments/finalizers"),
            r(CRUD, "apps extensions", "replicasets"),
            r("get list update watch", "core", "pods"),
            events(),
        ],
        "device-taint-eviction-controller" => vec![
            r("delete get list watch", "core", "pods"),
            r("patch update", "core", "pods/status"),
            r(READ, "resource.k8s.io", "resourceclaims"),
            r(READ, "resource.k8s.io", "resourceslices"),
            r(READ, "resource.k8s.io", "deviceclasses"),
            events(),
        ],
        "disruption-controller" => vec![
            r(READ, "apps extensions", "deployments"),
            r(READ, "apps extensions", "replicasets"),
            r(READ, "core", "replicationcontrollers"),
            r(READ, "policy", "poddisruptionbudgets"),
            r(READ, "apps", "statefulsets"),
            r("update", "policy", "poddisruptionbudgets/status"),
            r("patch update", "core", "pods/status"),
            r("get", "*", "*/scale"),
            events(),
        ],
        "endpoint-controller" => vec![
            r(READ, "core", "pods services"),
            r("create delete get list update watch", "core", "endpoints"),
            r("create", "core", "endpoints/restricted"),
            events(),
        ],
        "endpointslice-controller" => vec![
            r(READ, "core", "nodes pods services"),
            r("update", "core", "services/finalizers"),
            r("create delete get list update watch", "discovery.k8s.io", "endpointslices"),
            events(),
        ],
        "endpointslicemirroring-controller" => vec![
            r(READ, "core", "endpoints services"),
            r("update", "core", "services/finalizers"),
            r("update", "core", "endpoints/finalizers"),
            r("create delete get list update watch", "discovery.k8s.io", "endpointslices"),
            events(),
        ],
        "ephemeral-volume-controller" => vec![
            r(READ, "core", "pods"),
            r("update", "core", "pods/finalizers"),
            r("create get list watch", "core", "persistentvolumeclaims"),
            events(),
        ],
        "expand-controller" => vec![
            r("get list patch update watch", "core", "persistentvolumes"),
            r("patch update", "core", "persistentvolumeclaims/status"),
            r(READ, "core", "persistentvolumeclaims"),
            events(),
        ],
        "generic-garbage-collector" => vec![
            r("delete get list patch update watch", "*", "*"),
            events(),
        ],
        "horizontal-pod-autoscaler" => vec![
            r(READ, "autoscaling", "horizontalpodautoscalers"),
            r("update", "autoscaling", "horizontalpodautoscalers/status"),
            r("get update", "*", "*/scale"),
            r("list watch", "core", "pods"),
            r("list watch", "metrics.k8s.io", "pods"),
            r(READ, "custom.metrics.k8s.io", "*"),
            r(READ, "external.metrics.k8s.io", "*"),
            events(),
        ],
        "job-controller" => vec![
            r("get list patch update watch", "batch", "jobs"),
            r("update", "batch", "jobs/status"),
            r("update", "batch", "jobs/finalizers"),
            r("create delete list patch watch", "core", "pods"),
            events(),
        ],
        "legacy-service-account-token-cleaner" => vec![
            rn("get", "core", "configmaps", "kube-apiserver-legacy-service-account-token-tracking"),
            r("delete patch", "core", "secrets"),
        ],
        "namespace-controller" => vec![
            r("delete get list watch", "core", "namespaces"),
            r("update", "core", "namespaces/finalize namespaces/status"),
            r("delete deletecollection get list watch", "*", "*"),
        ],
        "node-controller" => vec![
            r("delete get list patch update watch", "core", "nodes"),
            r("patch update", "core", "nodes/status"),
            r("patch update", "core", "pods/status"),
            r("delete get list watch", "core", "pods"),
            events(),
        ],
        "persistent-volume-binder" => vec![
            r("create delete get list update watch", "core", "persistentvolumes"),
            r("update", "core", "persistentvolumes/status"),
            r("get list update watch", "core", "persistentvolumeclaims"),
            r("update", "core", "persistentvolumeclaims/status"),
            r("create delete get list watch", "core", "pods"),
            r(READ, "storage.k8s.io", "storageclasses"),
            r("list watch", "core", "nodes"),
            events(),
            r("watch", "core", "events"),
        ],
        "pod-garbage-collector" => vec![
            r("delete list watch", "core", "pods"),
            r(READ, "core", "nodes"),
            r("patch", "core", "pods/status"),
        ],
        "pv-protection-controller" => vec![
            r("get list update watch", "core", "persistentvolumes"),
            events(),
        ],
        "pvc-protection-controller" => vec![
            r("get list update watch", "core", "persistentvolumeclaims"),
            r(READ, "core", "pods"),
            events(),
        ],
        "replicaset-controller" => vec![
            r("get list update watch", "apps extensions", "replicasets"),
            r("update", "apps extensions", "replicasets/status"),
            r("update", "apps extensions", "replicasets/finalizers"),
            r("create delete list patch watch", "core", "pods"),
            events(),
        ],
        "replication-controller" => vec![
            r("get list update watch", "core", "replicationcontrollers"),
            r("update", "core", "replicationcontrollers/status"),
            r("update", "core", "replicationcontrollers/finalizers"),
            r("create delete list patch watch", "core", "pods"),
            events(),
        ],
        "resource-claim-controller" => vec![
            r(READ, "core", "pods"),
            r("update", "core", "pods/finalizers"),
            r("create delete get list watch", "resource.k8s.io", "resourceclaims"),
            r("patch update", "resource.k8s.io", "resourceclaims resourceclaims/status"),
            r("patch update", "core", "pods/status"),
            events(),
            r("patch update", "resource.k8s.io", "resourceclaims/binding"),
        ],
        "resourcequota-controller" => vec![
            r("list watch", "*", "*"),
            r("update", "core", "resourcequotas/status"),
            events(),
        ],
        "root-ca-cert-publisher" => vec![r("create update", "core", "configmaps"), events()],
        "route-controller" => vec![
            r("list watch", "core", "nodes"),
            r("patch", "core", "nodes/status"),
            events(),
        ],
        "selinux-warning-controller" => vec![
            events(),
            r(READ, "core", "persistentvolumes"),
            r(READ, "core", "persistentvolumeclaims"),
            r(READ, "core", "pods"),
            r(READ, "storage.k8s.io", "csidrivers"),
        ],
        "service-account-controller" => vec![r("create", "core", "serviceaccounts"), events()],
        "service-cidrs-controller" => vec![
            r("get list patch update watch", "networking.k8s.io", "servicecidrs"),
            r("patch update", "networking.k8s.io", "servicecidrs/finalizers"),
            r("patch update", "networking.k8s.io", "servicecidrs/status"),
            r(READ, "networking.k8s.io", "ipaddresses"),
            events(),
        ],
        "service-controller" => vec![
            r(READ, "core", "services"),
            r("patch update", "core", "services/status"),
            r("list watch", "core", "nodes"),
            events(),
        ],
        "statefulset-controller" => vec![
            r("list watch", "core", "pods"),
            r(READ, "apps", "statefulsets"),
            r("update", "apps", "statefulsets/status"),
            r("update", "apps", "statefulsets/finalizers"),
            r("create delete get patch update", "core", "pods"),
            r(CRUD, "apps", "controllerrevisions"),
            r("create get list watch", "core", "persistentvolumeclaims"),
            r("delete update", "core", "persistentvolumeclaims"),
            r("update", "core", "pods/finalizers"),
            events(),
        ],
        "ttl-after-finished-controller" => vec![r("delete get list watch", "batch", "jobs"), events()],
        "ttl-controller" => vec![r("list patch update watch", "core", "nodes"), events()],
        "validatingadmissionpolicy-status-controller" => vec![
            r(READ, "admissionregistration.k8s.io", "validatingadmissionpolicies"),
            r("get patch update", "admissionregistration.k8s.io", "validatingadmissionpolicies/status"),
            events(),
        ],
        "volumeattributesclass-protection-controller" => vec![
            r(READ, "core", "persistentvolumeclaims"),
            r(READ, "core", "persistentvolumes"),
            r("get list update watch", "storage.k8s.io", "volumeattributesclasses"),
            events(),
        ],
        _ => Vec::new(),
    }
}

/// Every controller's ClusterRole.
pub(super) fn cluster_roles() -> Vec<Value> {
    NAMES
        .iter()
        .map(|n| cluster_role(&format!("system:controller:{n}"), rules(n)))
        .collect()
}

/// The namespaced bootstrap Roles.
pub(super) fn roles() -> Vec<Value> {
    let leader_locking = || {
        vec![
            r(
                "create get list update watch",
                "coordination.k8s.io",
                "leases",
            ),
            r(
                "create get list update watch",
                "coordination.k8s.io",
                "leasecandidates",
            ),
        ]
    };
    vec![
        role(
            "kube-public",
            "system:controller:bootstrap-signer",
            vec![
                r(READ, "core", "configmaps"),
                rn("update", "core", "configmaps", "cluster-info"),
                events(),
            ],
        ),
        role(
            "kube-system",
            "extension-apiserver-authentication-reader",
            vec![rn(
                READ,
                "core",
                "configmaps",
                "extension-apiserver-authentication",
            )],
        ),
        role(
            "kube-system",
            "system::leader-locking-kube-controller-manager",
            leader_locking(),
        ),
        role(
            "kube-system",
            "system::leader-locking-kube-scheduler",
            leader_locking(),
        ),
        role(
            "kube-system",
            "system:controller:bootstrap-signer",
            vec![r(READ, "core", "secrets")],
        ),
        role(
            "kube-system",
            "system:controller:cloud-provider",
            vec![r("create get list watch", "core", "configmaps")],
        ),
        role(
            "kube-system",
            "system:controller:token-cleaner",
            vec![r("delete get list watch", "core", "secrets"), events()],
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_controller_has_rules() {
        for name in NAMES {
            assert!(!rules(name).is_empty(), "{name}");
        }
        assert!(rules("no-such-controller").is_empty());
    }

    #[test]
    fn spot_checks() {
        let gc = &rules("generic-garbage-collector")[0];
        assert_eq!(gc["resources"], serde_json::json!(["*"]));
        assert_eq!(
            rules("disruption-controller")[7]["resources"],
            serde_json::json!(["*/scale"])
        );
        let leases = &roles()[2]["rules"][0];
        assert_eq!(leases["resources"], serde_json::json!(["leases"]));
    }
}
