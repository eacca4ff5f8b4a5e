//! Which resource an etcd key belongs to, for choosing its providers. Keys are
//! kube-apiserver's: most built-in resources sit under their plural whatever their group
//! (`/registry/deployments/…` is apps' deployments), a few under older names
//! (`minions`, `services/specs`), and resources of other groups — custom resources,
//! CRDs, APIServices — under `<group>/<resource>`.

/// A resource as the encryption configuration names it: group ("" for core) and plural.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GroupResource<'a> {
    /// The API group ("" for core).
    pub group: &'a str,
    /// The plural.
    pub resource: &'a str,
}

/// Built-in key paths and their resources, where the path is not the core plural.
/// Events of events.k8s.io share core's `events` (upstream stores them as core events).
const BUILT_IN: &[(&str, &str, &str)] = &[
    ("services/specs", "", "services"),
    ("services/endpoints", "", "endpoints"),
    ("minions", "", "nodes"),
    ("controllers", "", "replicationcontrollers"),
    ("ranges/serviceips", "", "serviceipallocations"),
    ("ranges/servicenodeports", "", "servicenodeportallocations"),
    (
        "mutatingwebhookconfigurations",
        "admissionregistration.k8s.io",
        "mutatingwebhookconfigurations",
    ),
    (
        "validatingwebhookconfigurations",
        "admissionregistration.k8s.io",
        "validatingwebhookconfigurations",
    ),
    (
        "validatingadmissionpolicies",
        "admissionregistration.k8s.io",
        "validatingadmissionpolicies",
    ),
    (
        "validatingadmissionpolicybindings",
        "admissionregistration.k8s.io",
        "validatingadmissionpolicybindings",
    ),
    (
        "mutatingadmissionpolicies",
        "admissionregistration.k8s.io",
        "mutatingadmissionpolicies",
    ),
    (
        "mutatingadmissionpolicybindings",
        "admissionregistration.k8s.io",
        "mutatingadmissionpolicybindings",
    ),
    ("controllerrevisions", "apps", "controllerrevisions"),
    ("daemonsets", "apps", "daemonsets"),
    ("deployments", "apps", "deployments"),
    ("replicasets", "apps", "replicasets"),
    ("statefulsets", "apps", "statefulsets"),
    (
        "horizontalpodautoscalers",
        "autoscaling",
        "horizontalpodautoscalers",
    ),
    ("cronjobs", "batch", "cronjobs"),
    ("jobs", "batch", "jobs"),
    (
        "certificatesigningrequests",
        "certificates.k8s.io",
        "certificatesigningrequests",
    ),
    (
        "clustertrustbundles",
        "certificates.k8s.io",
        "clustertrustbundles",
    ),
    ("leases", "coordination.k8s.io", "leases"),
    ("endpointslices", "discovery.k8s.io", "endpointslices"),
    ("flowschemas", "flowcontrol.apiserver.k8s.io", "flowschemas"),
    (
        "prioritylevelconfigurations",
        "flowcontrol.apiserver.k8s.io",
        "prioritylevelconfigurations",
    ),
    ("ingressclasses", "networking.k8s.io", "ingressclasses"),
    ("ingress", "networking.k8s.io", "ingresses"),
    ("ipaddresses", "networking.k8s.io", "ipaddresses"),
    ("networkpolicies", "networking.k8s.io", "networkpolicies"),
    ("servicecidrs", "networking.k8s.io", "servicecidrs"),
    ("runtimeclasses", "node.k8s.io", "runtimeclasses"),
    ("poddisruptionbudgets", "policy", "poddisruptionbudgets"),
    (
        "clusterrolebindings",
        "rbac.authorization.k8s.io",
        "clusterrolebindings",
    ),
    ("clusterroles", "rbac.authorization.k8s.io", "clusterroles"),
    ("rolebindings", "rbac.authorization.k8s.io", "rolebindings"),
    ("roles", "rbac.authorization.k8s.io", "roles"),
    ("priorityclasses", "scheduling.k8s.io", "priorityclasses"),
    ("csidrivers", "storage.k8s.io", "csidrivers"),
    ("csinodes", "storage.k8s.io", "csinodes"),
    (
        "csistoragecapacities",
        "storage.k8s.io",
        "csistoragecapacities",
    ),
    ("storageclasses", "storage.k8s.io", "storageclasses"),
    ("volumeattachments", "storage.k8s.io", "volumeattachments"),
    (
        "volumeattributesclasses",
        "storage.k8s.io",
        "volumeattributesclasses",
    ),
];

/// The resource of `path`, a key with the `--etcd-prefix` removed and no leading `/`
/// (`secrets/default/s1`, `example.com/widgets/ns/w1`).
pub fn of_key_path(path: &str) -> GroupResource<'_> {
    for (prefix, group, resource) in BUILT_IN {
        if path
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        {
            return GroupResource { group, resource };
        }
    }
    let mut parts = path.splitn(3, '/');
    let first = parts.next().unwrap_or("");
    // A group name has a dot; a core plural never does.
    if first.contains('.') {
        if let Some(resource) = parts.next() {
            return GroupResource {
                group: first,
                resource,
            };
        }
    }
    GroupResource {
        group: "",
        resource: first,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gr<'a>(group: &'a str, resource: &'a str) -> GroupResource<'a> {
        GroupResource { group, resource }
    }

    #[test]
    fn upstream_keys() {
        assert_eq!(of_key_path("secrets/default/s1"), gr("", "secrets"));
        assert_eq!(
            of_key_path("services/specs/default/kubernetes"),
            gr("", "services")
        );
        assert_eq!(
            of_key_path("services/endpoints/default/kubernetes"),
            gr("", "endpoints")
        );
        assert_eq!(of_key_path("minions/node1"), gr("", "nodes"));
        assert_eq!(
            of_key_path("deployments/default/d"),
            gr("apps", "deployments")
        );
        assert_eq!(
            of_key_path("ingress/default/i"),
            gr("networking.k8s.io", "ingresses")
        );
        assert_eq!(
            of_key_path("ingressclasses/nginx"),
            gr("networking.k8s.io", "ingressclasses")
        );
        assert_eq!(
            of_key_path("example.com/widgets/ns/w1"),
            gr("example.com", "widgets")
        );
        assert_eq!(
            of_key_path("apiextensions.k8s.io/customresourcedefinitions/widgets.example.com"),
            gr("apiextensions.k8s.io", "customresourcedefinitions")
        );
        assert_eq!(of_key_path("events/default/e1"), gr("", "events"));
        // Prefixes match whole segments only.
        assert_eq!(of_key_path("rolesx/a"), gr("", "rolesx"));
    }
}
